package engine

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// dump prints a value compactly and deterministically, with unknowns shown
// as "?" followed by their type unless it is dynamic ("?string"), and map
// keys in their order.
func dump(v value.Value) string {
	var b strings.Builder
	var walk func(value.Value)
	walk = func(v value.Value) {
		switch v := v.(type) {
		case nil:
			b.WriteString("null")
		case bool:
			b.WriteString(strconv.FormatBool(v))
		case int64:
			b.WriteString(strconv.FormatInt(v, 10))
		case float64:
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64) + "d")
		case string:
			b.WriteString(strconv.Quote(v))
		case value.Unknown:
			b.WriteString("?")
			if v.Type != value.TypeDynamic {
				b.WriteString(v.Type.String())
			}
		case []value.Value:
			b.WriteString("[")
			for i, e := range v {
				if i > 0 {
					b.WriteString(",")
				}
				walk(e)
			}
			b.WriteString("]")
		case *value.Map:
			b.WriteString("{")
			for i := 0; i < v.Len(); i++ {
				k, e := v.At(i)
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString(k + ":")
				walk(e)
			}
			b.WriteString("}")
		default:
			b.WriteString("<" + typeName(v) + ">")
		}
	}
	walk(v)
	return b.String()
}

func typeName(v value.Value) string {
	if v == value.UnknownStream {
		return "stream?"
	}
	return "unexpected"
}

func dumpDocs(docs []value.Value) string {
	parts := make([]string, len(docs))
	for i, d := range docs {
		parts[i] = dump(d)
	}
	return strings.Join(parts, " | ")
}

func renderInline(t *testing.T, e *Engine, tmpl string, vars map[string]value.Value) string {
	t.Helper()
	docs, err := e.Render(context.Background(), Source{Text: []byte(tmpl)}, vars)
	if err != nil {
		return "error: " + err.Error()
	}
	return dumpDocs(docs)
}

func TestRender_inlineIncludeResolvesAgainstBaseDir(t *testing.T) {
	fsys := fstest.MapFS{
		"mod/parts/labels.yaml": {Data: []byte("team: ${{ plain }}\nname: {$eval: '${{ name }}'}\n")},
	}
	e := New(Options{Loader: FSLoader{FS: fsys}})
	docs, err := e.Render(context.Background(), Source{Text: []byte("labels:\n  $include: parts/labels.yaml\n  $with: {name: cart}\n"), BaseDir: "mod"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dumpDocs(docs), `{labels:{team:"${{ plain }}",name:"cart"}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestRender_inlineErrorsSayInline(t *testing.T) {
	e := New(Options{})
	got := renderInline(t, e, "a: 1\nb:\n  $iff: x\n", nil)
	want := "error: <inline>:3:3: b.$iff: unknown directive $iff: did you mean $if? To output a key $iff as data, write $$iff"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

type countingLoader struct {
	fs    fstest.MapFS
	reads atomic.Int64
}

func (l *countingLoader) ReadFile(ctx context.Context, name string, limit int) ([]byte, error) {
	l.reads.Add(1)
	return FSLoader{FS: l.fs}.ReadFile(ctx, name, limit)
}

func TestRender_includedFileIsReadOncePerRender(t *testing.T) {
	l := &countingLoader{fs: fstest.MapFS{
		"t.yaml":    {Data: []byte("- $include: part.yaml\n- $include: part.yaml\n- $include: ./part.yaml\n")},
		"part.yaml": {Data: []byte("x: 1\n")},
	}}
	e := New(Options{Loader: l})
	docs, err := e.RenderFile(context.Background(), "t.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dumpDocs(docs), `[{x:1},{x:1},{x:1}]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if n := l.reads.Load(); n != 2 {
		t.Errorf("read %d files, want 2 (the template and part.yaml once)", n)
	}
}

func TestRender_errorInIncludedFileShowsChain(t *testing.T) {
	fsys := fstest.MapFS{
		"t.yaml":     {Data: []byte("a:\n  $include: sub/a.yaml\n")},
		"sub/a.yaml": {Data: []byte("b:\n  $include: b.yaml\n")},
		"sub/b.yaml": {Data: []byte("c:\n  $eval: '${{ 1 + }}'\n")},
	}
	e := New(Options{Loader: FSLoader{FS: fsys}})
	_, err := e.RenderFile(context.Background(), "t.yaml", nil)
	var ee *Error
	if !errors.As(err, &ee) {
		t.Fatalf("got %v, want *Error", err)
	}
	if ee.Pos != (Pos{File: "sub/b.yaml", Line: 2, Column: 10}) {
		t.Errorf("pos = %v", ee.Pos)
	}
	if len(ee.Chain) != 2 || ee.Chain[0] != (Pos{File: "sub/a.yaml", Line: 2, Column: 3}) || ee.Chain[1] != (Pos{File: "t.yaml", Line: 2, Column: 3}) {
		t.Errorf("chain = %v", ee.Chain)
	}
}

func TestRender_cancelledContextStopsLoop(t *testing.T) {
	e := New(Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := e.Render(ctx, Source{Text: []byte("- $for: i in lists.range(1000)\n  $do: x\n")}, nil)
	if err == nil || !strings.Contains(err.Error(), "cancel") {
		t.Fatalf("got %v, want a cancellation error", err)
	}
}

func TestRender_sameTemplateCompiledOnce(t *testing.T) {
	e := New(Options{})
	src := []byte("a: {$eval: '${{ x }}'}\n")
	for i := int64(0); i < 3; i++ {
		docs, err := e.Render(context.Background(), Source{Text: src}, map[string]value.Value{"x": i})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := dumpDocs(docs), "{a:"+strconv.FormatInt(i, 10)+"}"; got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
	if n := e.w.CachedFiles(); n != 1 {
		t.Errorf("%d compiled files cached, want 1", n)
	}
}

func TestEval_keepsTypeAndPositionsErrors(t *testing.T) {
	e := New(Options{})
	v, err := e.Eval(context.Background(), "x * 2", map[string]value.Value{"x": int64(21)})
	if err != nil || dump(v) != "42" {
		t.Fatalf("got %s, %v", dump(v), err)
	}
	_, err = e.Eval(context.Background(), "x +", map[string]value.Value{"x": int64(1)})
	if err == nil || !strings.HasPrefix(err.Error(), "<inline>:1:1: ") || !strings.Contains(err.Error(), "\n  | x +\n") {
		t.Fatalf("got %v", err)
	}
}

func TestEval_interpolationBracesHintABareExpression(t *testing.T) {
	e := New(Options{})
	_, err := e.Eval(context.Background(), "${{ x * 2 }}", map[string]value.Value{"x": int64(21)})
	want := "<inline>:1:1: Syntax error: token recognition error at: '$'; eval() takes a bare CEL expression: write it without ${{ }}\n  | ${{ x * 2 }}\n  | ^"
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
}

// TestRender_directReadsMatchCEL checks that reading a name or field chain
// straight from the engine value it was bound from (scope.setValue,
// renderer.fastValue) gives exactly what CEL gives: `(x)` is the same
// expression to CEL but is never read directly, so each template is
// rendered in both spellings, for every kind of value and every way an
// engine value gets bound, and both must give the expected output.
func TestRender_directReadsMatchCEL(t *testing.T) {
	nested := value.NewMap(2)
	nested.Set("a", "A")
	nested.Set("b", []value.Value{int64(1), value.Unknown{}})
	withUnknown := value.NewMap(1)
	withUnknown.Set("a", value.Unknown{})
	noKey := func(in string) string {
		return "error: <inline>:1:12: v.$eval: no such key 'a' in " + in + "; only a map has keys"
	}
	const notKnown = "error: <inline>:1:12: v.$eval: the value is not known yet"
	values := []struct {
		name               string
		v                  value.Value
		exact, text, field string // `${{ x }}`, `<${{ x }}>`, `${{ x.a }}`
	}{
		{"string", "s", `{v:"s"}`, `{v:"<s>"}`, noKey("a value of type string")},
		{"empty string", "", `{v:""}`, `{v:"<>"}`, noKey("a value of type string")},
		{"int", int64(-7), `{v:-7}`, `{v:"<-7>"}`, noKey("a value of type int")},
		{"Go int", 3, `{v:3}`, `{v:"<3>"}`, noKey("a value of type int")},
		{"float", 2.5, `{v:2.5d}`, `{v:"<2.5>"}`, noKey("a value of type double")},
		{"bool", true, `{v:true}`, `{v:"<true>"}`, noKey("a value of type bool")},
		{"null", nil, `{v:null}`, `{v:"<null>"}`, noKey("null")},
		{"map", nested, `{v:{a:"A",b:[1,?]}}`, notKnown, `{v:"A"}`},
		{"map with an unknown", withUnknown, `{v:{a:?}}`, notKnown, `{v:?}`},
		{"list", []value.Value{"a", int64(2)}, `{v:["a",2]}`, `{v:"<[\"a\",2]>"}`,
			"error: <inline>:1:12: v.$eval: a list has no field 'a'"},
		{"unknown", value.Unknown{}, `{v:?}`, `{v:?string}`, `{v:?}`},
		{"unknown string", value.Unknown{Type: value.TypeString}, `{v:?string}`, `{v:?string}`, `{v:?}`},
		{"map with an unknown number", mapOf("a", value.Unknown{Type: value.TypeNumber}), `{v:{a:?number}}`, notKnown, `{v:?number}`},
	}
	e := New(Options{})
	for _, val := range values {
		for _, f := range []struct{ name, expr, want string }{
			{"exact", "${{ %s }}", val.exact},
			{"text", "<${{ %s }}>", val.text},
			{"field", "${{ %s.a }}", val.field},
		} {
			vars := map[string]value.Value{"x": val.v}
			// errors are compared on their first line: the excerpt under it
			// shows each spelling as written
			got, _, _ := strings.Cut(renderInline(t, e, "v: {$eval: '"+strings.Replace(f.expr, "%s", "x", 1)+"'}", vars), "\n")
			viaCEL, _, _ := strings.Cut(renderInline(t, e, "v: {$eval: '"+strings.Replace(f.expr, "%s", "(x)", 1)+"'}", vars), "\n")
			if got != f.want {
				t.Errorf("%s, %s: got  %s\nwant %s", val.name, f.name, got, f.want)
			}
			if got != viaCEL {
				t.Errorf("%s, %s: direct read gives %s, CEL gives %s", val.name, f.name, got, viaCEL)
			}
		}
	}

	// The other ways an engine value is bound: $for over a map and over a
	// list (one and two variables), a plain $let body, $with, and a schema
	// default. viaCEL spells every read as a parenthesised expression.
	fsys := fstest.MapFS{"part.yaml": {Data: []byte("got: {$eval: '${{ w }}'}\ntext: {$eval: '<${{ w.a }}>'}\n")}}
	e = New(Options{Loader: FSLoader{FS: fsys}})
	vars := map[string]value.Value{"m": nested, "l": []value.Value{nested, "b", nil}}
	viaCEL := strings.NewReplacer("${{ ", "${{ (", " }}", ") }}", ".a }}", ").a }}")
	for _, c := range []struct{ name, direct, want string }{
		{"$for over a map", "v:\n  $for: 'k, v in m'\n  $do:\n    $key: {$eval: '${{ k }}'}\n    $value: [{$eval: '${{ v }}'}, {$eval: '<${{ k }}>'}]\n",
			`{v:{a:["A","<a>"],b:[[1,?],"<b>"]}}`},
		{"$for over a list", "- $for: 'e in l'\n  $do: [{$eval: '${{ e }}'}]\n",
			`[{a:"A",b:[1,?]},"b",null]`},
		{"$for over a list, index and element", "- $for: 'i, e in l'\n  $do: [{$eval: '${{ i }}'}, {$eval: '${{ e }}'}]\n",
			`[0,{a:"A",b:[1,?]},1,"b",2,null]`},
		{"$let with a plain body", "$let:\n  y: {a: [1, two]}\nv: [{$eval: '${{ y }}'}, {$eval: '${{ y.a }}'}, {$eval: '<${{ y.a }}>'}]\n",
			`{v:[{a:[1,"two"]},[1,"two"],"<[1,\"two\"]>"]}`},
		{"$with", "$include: part.yaml\n$with:\n  w: {a: b}\n", `{got:{a:"b"},text:"<b>"}`},
		{"schema default", "$schema:\n  d: {type: object, default: {a: z}}\nv: [{$eval: '${{ d }}'}, {$eval: '<${{ d.a }}>'}]\n",
			`{v:[{a:"z"},"<z>"]}`},
	} {
		got := renderInline(t, e, c.direct, vars)
		if got != c.want {
			t.Errorf("%s: got  %s\nwant %s", c.name, got, c.want)
		}
		if via := renderInline(t, e, viaCEL.Replace(c.direct), vars); via != got {
			t.Errorf("%s: direct read gives %s, CEL gives %s", c.name, got, via)
		}
	}
}
