package cli

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// setCase is one --set family argument applied onto a base values file,
// and the values as JSON (keys sorted) or the error.
type setCase struct {
	kind setKind
	arg  string
	base string // a values file's text
	want string // JSON of the values, or, when err, the error
	err  bool
}

// applySetting layers c onto its base as the command does.
func applySetting(t *testing.T, c setCase) (string, error) {
	t.Helper()
	in := &inputs{ctx: t.Context(), stdin: strings.NewReader("from stdin")}
	if c.base != "" {
		p := filepath.Join(t.TempDir(), "base.yaml")
		if err := os.WriteFile(p, []byte(c.base), 0o600); err != nil {
			t.Fatal(err)
		}
		in.files = []string{p}
	}
	in.sets = []setting{{arg: c.arg, kind: c.kind}}
	vars, err := in.vars()
	if err != nil {
		return "", err
	}
	m := value.NewMap(len(vars))
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		m.Set(k, vars[k])
	}
	out, err := engine.AppendJSON(nil, m, false)
	if err != nil {
		t.Fatal(err)
	}
	return string(out), nil
}

// Helm's own cases (helm/helm pkg/strvals/parser_test.go, TestParseSet,
// TestParseInto, TestParseJSON) as this parser reads them. Where the
// result differs, the comment says how and why (the CLI guide lists the
// differences): --set reads VALUE as a YAML scalar, so 00009 is 9 and 1.2
// a number; {} is the empty list, not [""]; an index past a list's end
// is an error, not a list padded with nulls; a key with no =VALUE is an
// error.
func TestSet_readsHelmPathSyntax(t *testing.T) {
	for _, c := range []setCase{
		{arg: "name1=null,f=false,t=true", want: `{"f":false,"t":true}`}, // Helm: name1: null; a null deletes the key by the merge rule
		{arg: "name1=value1", want: `{"name1":"value1"}`},
		{arg: "name1=value1,name2=value2", want: `{"name1":"value1","name2":"value2"}`},
		{arg: "name1=value1,name2=value2,", want: `{"name1":"value1","name2":"value2"}`},
		{arg: "name1=value1,,,,name2=value2,", want: `--set ",": PATH has an empty key (write a.b=1; \. is a dot inside a key)`, err: true},
		{arg: "name1=,name2=value2", want: `{"name1":"","name2":"value2"}`},
		{arg: "name1=one\\,two,name2=three\\,four", want: `{"name1":"one,two","name2":"three,four"}`},
		{arg: "name1=one\\=two,name2=three\\=four", want: `{"name1":"one=two","name2":"three=four"}`},
		{arg: "name1=one two three,name2=three two one", want: `{"name1":"one two three","name2":"three two one"}`},
		{arg: "outer.inner=value", want: `{"outer":{"inner":"value"}}`},
		{arg: "outer.inner1=value,outer.middle.inner=value", want: `{"outer":{"inner1":"value","middle":{"inner":"value"}}}`},
		{arg: "name1.name2", want: `--set "name1.name2": no =VALUE (write PATH=VALUE)`, err: true},
		{arg: "name1,name2=value2", want: `--set "name1": no =VALUE (write PATH=VALUE)`, err: true},
		{arg: "xs=[1,2]", want: `--set "2]": no =VALUE (write PATH=VALUE); a comma ends a VALUE: write \, for a comma in it, {a,b} for a list, or --set-json PATH=[…]`, err: true},
		{arg: "name1.=name2", want: `--set "name1.=": PATH has an empty key (write a.b=1; \. is a dot inside a key)`, err: true},
		{arg: "name1.name2=", want: `{"name1":{"name2":""}}`},
		{arg: "name1={value1,value2}", want: `{"name1":["value1","value2"]}`},
		{arg: "name1={1021,902}", want: `{"name1":[1021,902]}`},
		{arg: "name1={1021,902", want: `--set name1: a list {…} must end with }`, err: true},
		{arg: "name1=value1,name2=value2\\", want: `--set name2: ends in a backslash, which escapes nothing (write \\ for a backslash)`, err: true},
		{arg: "list[0]=foo", want: `{"list":["foo"]}`},
		{arg: "list[0].foo=bar,list[0].hello=world", want: `{"list":[{"foo":"bar","hello":"world"}]}`},
		{arg: "list[0].foo=bar,list[-30].hello=world", want: `--set "list[-30]": index [-30] is negative; indexes count from 0`, err: true},
		{arg: "list[0]=foo,list[1]=bar,", want: `{"list":["foo","bar"]}`},
		// Helm pads with nulls: ["foo", null, null, "bar"].
		{arg: "list[0]=foo,list[3]=bar", want: `--set list[3]: index list[3] is out of range: list has 1 items, and an index may be at most 1 (which adds one)`, err: true},
		{arg: "illegal[0]name.foo=bar", want: `--set "illegal[0]n": after ] comes ., [ or =`, err: true},
		{arg: "noval[0]", want: `--set "noval[0]": no =VALUE (write PATH=VALUE)`, err: true}, // Helm: noval: []
		{arg: "noval[0]=", want: `{"noval":[""]}`},
		{arg: "nested[0][0]=1", want: `{"nested":[[1]]}`},
		{arg: "nested[1][1]=1", want: `--set nested[1][1]: index nested[1] is out of range: nested has 0 items, and an index may be at most 0 (which adds one)`, err: true},
		{arg: "]={}].", want: `--set ]: after a list {…} comes , or the end`, err: true}, // Helm: an error too
		{arg: "a[65537]=1", want: `--set "a[65537]": index [65537] is larger than 65536`, err: true},
		{arg: "a[99999999999999999999]=1", want: `--set "a[99999999999999999999]": index [99999999999999999999] is larger than 65536`, err: true},
		{arg: "a[x]=1", want: `--set "a[x]": [x] is not a list index: write [0], [1], … (\[ is a bracket inside a key)`, err: true},
		{arg: "a[0=1", want: `--set "a[": a [ without its ]`, err: true},
		{arg: "", want: `--set is empty: write PATH=VALUE`, err: true},
		{arg: `a\.b=1,c\[0\]=2`, want: `{"a.b":1,"c[0]":2}`},
		{arg: "a={}", want: `{"a":[]}`}, // Helm: [""]
		{arg: "xs={1,2.5,yes,~}", want: `{"xs":[1,2.5,"yes",null]}`},
		{arg: "x=1.2,a=00009,b=0x10", want: `{"a":9,"b":16,"x":1.2}`}, // Helm: "1.2", "00009", "0x10"
		{arg: "x=.nan", want: `--set x: the value does not read as a YAML scalar (it is not a finite number, and JSON and Terraform numbers cannot hold one: quote it to keep it as text, or compute it in a CEL expression with double()); --set-string keeps it as text`, err: true},
		// TestParseInto: settings edit what the files give.
		{arg: "outer.inner1=value1,outer.inner3=value3,outer.inner4=4", base: "outer: {inner1: overwrite, inner2: value2}",
			want: `{"outer":{"inner1":"value1","inner2":"value2","inner3":"value3","inner4":4}}`},
		{arg: "list[0].key=x", base: "list: [{key: a, operator: Exists}]", want: `{"list":[{"key":"x","operator":"Exists"}]}`},
		{arg: "list[1]=b", base: "list: [a]", want: `{"list":["a","b"]}`},
		{arg: "list[0]=null", base: "list: [a, b]", want: `{"list":[null,"b"]}`},
		{arg: "outer.inner1=null", base: "outer: {inner1: a, inner2: b}", want: `{"outer":{"inner2":"b"}}`},
		{arg: "outer[0]=1", base: "outer: {inner1: a}", want: `--set outer[0]: outer is a mapping, not a list: name a key, as outer.KEY`, err: true},
		{arg: "list.key=1", base: "list: [a]", want: `--set list.key: list is a list, not a mapping: index it, as list[0]`, err: true},
		{arg: "outer.inner=1", base: "outer: 5", want: `{"outer":{"inner":1}}`}, // a scalar is replaced, as a later values file replaces it
		{kind: setString, arg: "outer.inner1=1,outer.inner3=3,t=true,n=null", base: "outer: {inner1: overwrite, inner2: value2}",
			want: `{"n":"null","outer":{"inner1":"1","inner2":"value2","inner3":"3"},"t":"true"}`},
		{kind: setString, arg: "xs={1,true}", want: `{"xs":["1","true"]}`},
		// TestParseJSON.
		{kind: setJSON, arg: `outer.inner1="1",outer.inner3=3,outer.inner4=true,outer.inner5="true"`, base: "outer: {inner1: overwrite, inner2: value2}",
			want: `{"outer":{"inner1":"1","inner2":"value2","inner3":3,"inner4":true,"inner5":"true"}}`},
		{kind: setJSON, arg: `outer.inner1={"a":"1","b":2,"c":[1,2,3]},outer.inner3=["new value 1","new value 2"]`, base: "outer: {inner1: {x: overwrite}, inner3: [overwrite]}",
			// A mapping merges onto a mapping by the merge rule, as a values file's does; Helm replaces it.
			want: `{"outer":{"inner1":{"a":"1","b":2,"c":[1,2,3],"x":"overwrite"},"inner3":["new value 1","new value 2"]}}`},
		{kind: setJSON, arg: `outer.inner1=,outer.inner3={"aa":"1","cc":[1,2,3]},outer.inner3.cc[1]=null`, base: "outer: {inner1: {x: overwrite}, inner2: value2}",
			want: `{"outer":{"inner2":"value2","inner3":{"aa":"1","cc":[1,null,3]}}}`},
		{kind: setJSON, arg: `x={"a":1,"b":null}`, want: `{"x":{"a":1}}`},
		// Helm 4 (pkg/cli/values/options.go): a JSON object as a whole merges onto the values.
		{kind: setJSON, arg: ` {"outer":{"inner1":"x"},"n":null,"b":[1]}`, base: "outer: {inner1: a, inner2: b}\nn: 1", want: `{"b":[1],"outer":{"inner1":"x","inner2":"b"}}`},
		{kind: setJSON, arg: `{"a":1} x`, want: `--set-json {…}: a value that starts with { is one JSON object (or write PATH=JSON)`, err: true},
		{kind: setJSON, arg: `outer.inner5={"A":"1"}]`, want: `--set-json outer.inner5: after the JSON value comes , or the end`, err: true},
		{kind: setJSON, arg: `x={"password": "hunter2`, want: `--set-json x: the value is not JSON (it ends too soon)`, err: true},
		{kind: setJSON, arg: `x=[1,,2]`, want: `--set-json x: the value is not JSON (at byte 4 of it)`, err: true},
	} {
		got, err := applySetting(t, c)
		if err != nil {
			got = err.Error()
		}
		if got != c.want || (err != nil) != c.err {
			t.Errorf("%s %q onto %q:\n got %s (error: %v)\nwant %s", c.kind.flag(), c.arg, c.base, got, err != nil, c.want)
		}
	}
}

// --set-file sets the file's text (TestParseFile), read through fileread,
// each item of {a,b} a file; a file that cannot be read is an error at
// the file, not the value.
func TestSetFile_setsTheFilesText(t *testing.T) {
	dir := t.TempDir()
	one, two := filepath.Join(dir, "one.txt"), filepath.Join(dir, "two.txt")
	if err := os.WriteFile(one, []byte("line 1\nline 2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(two, []byte("2"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []setCase{
		{kind: setFile, arg: "name1=" + one, want: `{"name1":"line 1\nline 2\n"}`},
		{kind: setFile, arg: "xs={" + one + "," + two + "},x=-", want: `{"x":"from stdin","xs":["line 1\nline 2\n","2"]}`},
		{kind: setFile, arg: "x=" + dir, want: dir + `:1:1: cannot read the file of --set-file x: not a regular file but a directory`, err: true},
		{kind: setFile, arg: "x=" + dir + "/none", want: dir + `/none:1:1: cannot read the file of --set-file x: file does not exist`, err: true},
	} {
		got, err := applySetting(t, c)
		if err != nil {
			got = err.Error()
		}
		if got != c.want || (err != nil) != c.err {
			t.Errorf("%s %q:\n got %s\nwant %s", c.kind.flag(), c.arg, got, c.want)
		}
	}
}

// Hostile arguments end in a bounded, clear error (or a result), never a
// panic, a hang or a huge allocation.
func TestSet_hostileArgumentsFailClearly(t *testing.T) {
	assignments := make([]string, 10000)
	for i := range assignments {
		assignments[i] = "k" + strings.Repeat("x", i%7) + "=1"
	}
	for _, c := range []setCase{
		{kind: setJSON, arg: "x=" + strings.Repeat("[", 20000) + strings.Repeat("]", 20000), want: `--set-json x: the JSON value nests deeper than 10000 levels`, err: true},
		{kind: setJSON, arg: "x=" + strings.Repeat("[", 5000) + strings.Repeat("]", 5000), want: `{"x":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}`},
		{arg: strings.Repeat("a.", 64) + "a=1", want: `--set "` + strings.Repeat("a.", 20) + `"…: PATH has more than 64 steps`, err: true},
		{arg: "a" + strings.Repeat("[0]", 64) + "=1", want: `--set "a` + strings.Repeat("[0]", 13) + `"…: PATH has more than 64 steps`, err: true},
		{arg: "a[65536]=1", want: `--set a[65536]: index a[65536] is out of range: a has 0 items, and an index may be at most 0 (which adds one)`, err: true},
		{arg: "a[0x10]=1", want: `--set "a[0x10]": [0x10] is not a list index: write [0], [1], … (\[ is a bracket inside a key)`, err: true},
		{arg: "a[]=1", want: `--set "a[]": [] is not a list index: write [0], [1], … (\[ is a bracket inside a key)`, err: true},
		{arg: "a[+1]=1", want: `--set a[+1]: index a[1] is out of range: a has 0 items, and an index may be at most 0 (which adds one)`, err: true}, // strconv.Atoi, as Helm
		{arg: strings.Join(assignments, ","), want: `{"k":1,"kx":1,"kxx":1,"kxxx":1,"kxxxx":1,"kxxxxx":1,"kxxxxxx":1}`},
		{arg: "a=" + strings.Repeat(`\`, 3), want: `--set a: ends in a backslash, which escapes nothing (write \\ for a backslash)`, err: true},
		{arg: "a={" + strings.Repeat("x,", 100000) + "}", want: `{"a":[` + strings.Repeat(`"x",`, 100000) + `""]}`},
	} {
		got, err := applySetting(t, c)
		if err != nil {
			got = err.Error()
		}
		if got != c.want || (err != nil) != c.err {
			t.Errorf("%s %.60q:\n got %.300s\nwant %.300s", c.kind.flag(), c.arg, got, c.want)
		}
	}
}
