package engine_test

// The golden corpus: every file in testdata/golden/AREA/*.txtar is one
// case, AREA being the directive or the area of the language it covers
// (testdata/golden/for, testdata/golden/cel, ...).
//
// A case is a txtar archive. Its comment (the text before the first
// section) cites the rule the case covers in the language reference,
// docs/guides/language-reference.md, as "reference §N" or, for a
// directive, "reference §N $name"; they name the reference's anchors sN and
// sN-name, which must exist. Every § in the comment is written in that
// form. The hostile cases (testdata/hostile) cite their rules the same
// way. Sections:
//
//   - template.yaml: the template, rendered with RenderFile through an
//     FSLoader over the archive, so positions read template.yaml:L:C;
//   - any other file the template includes, e.g. common/x.yaml;
//   - vars.json (optional): a JSON object of root variables. Whole numbers
//     that fit in int64 become int64, other numbers float64, objects *Map
//     with sorted keys, arrays []Value;
//   - unknowns.json (optional): a JSON object of root variables not known
//     yet, as during terraform plan, each given its type as Terraform
//     writes types in JSON ("dynamic", "string", ["list","string"],
//     ["object",{"image":"string"}], ["tuple",["string","number"]], ...).
//     out.yaml then shows each unknown
//     value as the string "(unknown TYPE)", and an unknown number of
//     documents as the one document "(unknown documents)";
//   - options.json (optional): engine limits by Options field name;
//   - exactly one of out.yaml (the exact EncodeYAMLStream output) and error
//     (the exact err.Error() text; the section's final newline is not part
//     of it);
//   - out.json (optional, only with out.yaml): the documents as one compact
//     JSON array, each written by AppendJSON with sortKeys=false.
//
// go test ./internal/engine -run TestGolden -update rewrites the expectation
// sections from what the engine does now. Every rewritten expectation must
// be checked by hand against the language reference before it is
// committed: the flag is a convenience, not an oracle.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

const (
	goldenDir      = engine.GoldenDir
	goldenMinCases = 150

	// hostileCasesDir holds the hostile corpus (hostile_test.go), whose
	// cases cite their rules as the golden ones do.
	hostileCasesDir = "testdata/hostile"
	// referencePath is the generated language reference that cases cite.
	referencePath = "../../docs/guides/language-reference.md"

	secTemplate = "template.yaml"
	secVars     = "vars.json"
	secUnknowns = "unknowns.json"
	secOptions  = "options.json"
	secOutYAML  = "out.yaml"
	secOutJSON  = "out.json"
	secError    = "error"
)

// expectationSections are the sections the test reads instead of handing
// them to the template's loader.
var expectationSections = []string{secVars, secUnknowns, secOptions, secOutYAML, secOutJSON, secError}

// citation is how a case's comment cites a rule of the language
// reference: "reference §4" names the anchor s4, "reference §4 $let" the
// anchor s4-let.
var citation = regexp.MustCompile(`reference §(\d+)(?: +\$([A-Za-z]+))?`)

// anchorTag is how the language reference writes a stable anchor.
var anchorTag = regexp.MustCompile(`<a id="([^"]+)"></a>`)

// referenceAnchors reads the ids of the anchors of the language reference.
func referenceAnchors(t *testing.T) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(referencePath)
	if err != nil {
		t.Fatalf("reading the language reference that cases cite: %v (run make docs)", err)
	}
	ids := map[string]bool{}
	for _, m := range anchorTag.FindAllSubmatch(data, -1) {
		ids[string(m[1])] = true
	}
	if len(ids) == 0 {
		t.Fatalf("%s has no <a id=\"...\"></a> anchors", referencePath)
	}
	return ids
}

// citationProblems says what is wrong with the citations of a case's
// comment: it cites nothing, writes a § outside the form "reference §N",
// or cites a section or directive that has no anchor in the reference.
func citationProblems(comment string, anchors map[string]bool) []string {
	var probs []string
	for i := 0; ; {
		j := strings.Index(comment[i:], "§")
		if j < 0 {
			break
		}
		i += j
		if !strings.HasSuffix(comment[:i], "reference ") {
			start := strings.LastIndexByte(comment[:i], '\n') + 1
			end := len(comment)
			if k := strings.IndexByte(comment[i:], '\n'); k >= 0 {
				end = i + k
			}
			probs = append(probs, fmt.Sprintf("line %q writes a § that is not in the form \"reference §N\"", comment[start:end]))
		}
		i += len("§")
	}
	cites := citation.FindAllStringSubmatch(comment, -1)
	if len(cites) == 0 {
		probs = append(probs, "cites no rule (want e.g. \"reference §2\" or \"reference §4 $let\")")
	}
	for _, c := range cites {
		id := "s" + c[1]
		if c[2] != "" {
			id += "-" + c[2]
		}
		if !anchors[id] {
			probs = append(probs, fmt.Sprintf("%q cites #%s, which %s does not have", c[0], id, referencePath))
		}
	}
	return probs
}

func init() {
	// Another test file of this binary may already own -update; share it.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the expectation sections of testdata/golden/*/*.txtar (check every change by hand)")
	}
}

func updating() bool {
	f := flag.Lookup("update")
	if f == nil {
		return false
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	b, _ := g.Get().(bool)
	return b
}

// goldenCase is one parsed archive.
type goldenCase struct {
	name string // file name without .txtar
	path string
	ar   *txtar.Archive
}

func (c *goldenCase) section(name string) ([]byte, bool) {
	for _, f := range c.ar.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

func loadGoldenCases(t *testing.T) []*goldenCase {
	t.Helper()
	return loadCasesIn(t, goldenDir)
}

// loadCasesIn parses every archive in dir and its folders, in path order.
func loadCasesIn(t *testing.T, dir string) []*goldenCase {
	t.Helper()
	paths := engine.CasePaths(t, dir)
	cases := make([]*goldenCase, 0, len(paths))
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		cases = append(cases, &goldenCase{
			name: strings.TrimSuffix(filepath.Base(p), ".txtar"),
			path: p,
			ar:   ar,
		})
	}
	return cases
}

func TestGolden(t *testing.T) {
	for _, c := range loadGoldenCases(t) {
		t.Run(c.name, func(t *testing.T) {
			runGoldenCase(t, c)
		})
	}
}

// TestGolden_corpusSize keeps the corpus from shrinking below what the
// engine issue asks for.
func TestGolden_corpusSize(t *testing.T) {
	if n := len(loadGoldenCases(t)); n < goldenMinCases {
		t.Fatalf("golden corpus has %d cases, want at least %d", n, goldenMinCases)
	}
}

// TestGolden_casesStandInAnArea keeps every golden case in a folder of
// its area, where the runner finds it: a case written to testdata/ itself
// would be run by nothing.
func TestGolden_casesStandInAnArea(t *testing.T) {
	stray, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	flat, err := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range append(stray, flat...) {
		t.Errorf("%s: move it to %s/AREA/, AREA being the directive or area it covers", p, goldenDir)
	}
}

// TestGolden_casesNameTheirRule checks that every golden and hostile case
// starts with a comment citing the rule of the language reference it
// covers, that every cited section and directive has its anchor in
// docs/guides/language-reference.md, and that the golden cases' sections
// are well formed.
func TestGolden_casesNameTheirRule(t *testing.T) {
	anchors := referenceAnchors(t)
	hostile := loadCasesIn(t, hostileCasesDir)
	if len(hostile) == 0 {
		t.Fatalf("no cases in %s", hostileCasesDir)
	}
	for _, c := range append(loadGoldenCases(t), hostile...) {
		comment := strings.TrimSpace(string(c.ar.Comment))
		if comment == "" {
			t.Errorf("%s: no comment before the first section; cite the rule the case covers, e.g. \"reference §4 $let\"", c.path)
			continue
		}
		for _, p := range citationProblems(comment, anchors) {
			t.Errorf("%s: comment %s", c.path, p)
		}
	}
	for _, c := range loadGoldenCases(t) {
		seen := map[string]bool{}
		for _, f := range c.ar.Files {
			if seen[f.Name] {
				t.Errorf("%s: section %s appears twice", c.path, f.Name)
			}
			seen[f.Name] = true
		}
		if !seen[secTemplate] {
			t.Errorf("%s: no %s section", c.path, secTemplate)
		}
		if seen[secOutYAML] == seen[secError] {
			t.Errorf("%s: want exactly one of %s and %s", c.path, secOutYAML, secError)
		}
		if seen[secOutJSON] && !seen[secOutYAML] {
			t.Errorf("%s: %s without %s", c.path, secOutJSON, secOutYAML)
		}
	}
}

// TestGolden_citationCheckRejectsBadCitations shows what the rule check
// reports for comments that cite badly, against a reference with the
// anchors s2, s4 and s4-let.
func TestGolden_citationCheckRejectsBadCitations(t *testing.T) {
	anchors := map[string]bool{"s2": true, "s4": true, "s4-let": true}
	for _, tc := range []struct {
		comment string
		want    []string
	}{
		{"reference §4 $let: bindings shadow; reference §2: order.", nil},
		{"reference §4\n$let on the next line cites §4 only.", []string{
			`line "$let on the next line cites §4 only." writes a § that is not in the form "reference §N"`,
		}},
		{"a case with no citation", []string{
			`cites no rule (want e.g. "reference §2" or "reference §4 $let")`,
		}},
		{"LANGUAGE.md §4 $let: the old form.", []string{
			`line "LANGUAGE.md §4 $let: the old form." writes a § that is not in the form "reference §N"`,
			`cites no rule (want e.g. "reference §2" or "reference §4 $let")`,
		}},
		{"reference §8: overlays.", []string{
			`"reference §8" cites #s8, which ../../docs/guides/language-reference.md does not have`,
		}},
		{"reference §4 $lett: a misspelt directive.", []string{
			`"reference §4 $lett" cites #s4-lett, which ../../docs/guides/language-reference.md does not have`,
		}},
	} {
		got := citationProblems(tc.comment, anchors)
		if !slices.Equal(got, tc.want) {
			t.Errorf("citationProblems(%q)\n got: %q\nwant: %q", tc.comment, got, tc.want)
		}
	}
}

// options gives the case's engine options: the defaults, then its
// options.json, reading its template files from the archive.
func (c *goldenCase) options(t *testing.T) engine.Options {
	t.Helper()
	opts := engine.DefaultOptions()
	if data, ok := c.section(secOptions); ok {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&opts); err != nil {
			t.Fatalf("%s: %s: %v", c.name, secOptions, err)
		}
	}
	fsys, err := txtar.FS(templateFiles(c.ar))
	if err != nil {
		t.Fatal(err)
	}
	opts.Loader = engine.FSLoader{FS: fsys}
	return opts
}

func runGoldenCase(t *testing.T, c *goldenCase) {
	opts := c.options(t)
	vars := map[string]value.Value{}
	var err error
	if data, ok := c.section(secVars); ok {
		vars, err = decodeVars(data)
		if err != nil {
			t.Fatalf("%s: %v", secVars, err)
		}
	}

	_, withUnknowns := c.section(secUnknowns)
	if withUnknowns {
		data, _ := c.section(secUnknowns)
		if err := addUnknowns(data, vars); err != nil {
			t.Fatalf("%s: %v", secUnknowns, err)
		}
	}

	docs, renderErr := renderGuarded(t, t.Context(), engine.New(opts), vars)
	if withUnknowns && renderErr == nil {
		docs = showUnknowns(docs)
	}

	var gotYAML, gotJSON []byte
	if renderErr == nil {
		gotYAML, err = engine.EncodeYAMLStream(docs)
		if err != nil {
			t.Fatalf("EncodeYAMLStream: %v", err)
		}
		gotJSON, err = jsonArray(docs)
		if err != nil {
			t.Fatalf("AppendJSON: %v", err)
		}
	}

	if updating() {
		updateGoldenCase(t, c, gotYAML, gotJSON, renderErr)
		return
	}

	if want, ok := c.section(secError); ok {
		want := strings.TrimSuffix(string(want), "\n")
		if renderErr == nil {
			t.Fatalf("rendered, want error\n--- want error:\n%s\n--- got out.yaml:\n%s", want, gotYAML)
		}
		if got := renderErr.Error(); got != want {
			t.Errorf("error text differs\n--- want:\n%s\n--- got:\n%s", want, got)
		}
		if _, ok := renderErr.(*engine.Error); !ok {
			t.Errorf("error is %T, want *engine.Error", renderErr)
		}
		return
	}

	want, _ := c.section(secOutYAML)
	if renderErr != nil {
		t.Fatalf("render failed, want output\n--- want out.yaml:\n%s--- got error:\n%s", want, renderErr)
	}
	if !bytes.Equal(gotYAML, want) {
		t.Errorf("out.yaml differs\n--- want:\n%s--- got:\n%s", want, gotYAML)
	}
	if wantJSON, ok := c.section(secOutJSON); ok {
		wantJSON = bytes.TrimSuffix(wantJSON, []byte("\n"))
		if !bytes.Equal(gotJSON, wantJSON) {
			t.Errorf("out.json differs\n--- want:\n%s\n--- got:\n%s", wantJSON, gotJSON)
		}
	}
}

// renderGuarded renders template.yaml and turns a panic into a test
// failure: the engine must never panic.
func renderGuarded(t *testing.T, ctx context.Context, e *engine.Engine, vars map[string]value.Value) (docs []value.Value, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("engine panicked: %v", r)
		}
	}()
	return e.RenderFile(ctx, secTemplate, vars)
}

// templateFiles returns the archive without its expectation sections, so a
// template cannot read them.
func templateFiles(ar *txtar.Archive) *txtar.Archive {
	out := &txtar.Archive{}
	for _, f := range ar.Files {
		if !slices.Contains(expectationSections, f.Name) {
			out.Files = append(out.Files, f)
		}
	}
	return out
}

func jsonArray(docs []value.Value) ([]byte, error) {
	out := []byte{'['}
	for i, d := range docs {
		if i > 0 {
			out = append(out, ',')
		}
		var err error
		out, err = engine.AppendJSON(out, d, false)
		if err != nil {
			return nil, err
		}
	}
	return append(out, ']'), nil
}

// decodeVars decodes vars.json the way the provider hands Terraform values
// to the engine: whole numbers that fit in int64 are int64, other numbers
// float64, objects *Map with sorted keys, arrays []Value.
func decodeVars(data []byte) (map[string]value.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the JSON object")
	}
	vars := make(map[string]value.Value, len(raw))
	for k, v := range raw {
		cv, err := convertJSON(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		vars[k] = cv
	}
	return vars, nil
}

func convertJSON(v any) (value.Value, error) {
	switch v := v.(type) {
	case nil, bool, string:
		return v, nil
	case json.Number:
		return convertNumber(v)
	case []any:
		out := make([]value.Value, len(v))
		for i, e := range v {
			ce, err := convertJSON(e)
			if err != nil {
				return nil, err
			}
			out[i] = ce
		}
		return out, nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		m := value.NewMap(len(keys))
		for _, k := range keys {
			ce, err := convertJSON(v[k])
			if err != nil {
				return nil, err
			}
			m.Set(k, ce)
		}
		return m, nil
	}
	return nil, fmt.Errorf("unexpected JSON value %T", v)
}

func convertNumber(n json.Number) (value.Value, error) {
	if i, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
		return i, nil
	}
	f, _, err := big.ParseFloat(n.String(), 10, 256, big.ToNearestEven)
	if err != nil {
		return nil, err
	}
	if f.IsInt() {
		if i, acc := f.Int64(); acc == big.Exact {
			return i, nil
		}
	}
	x, _ := f.Float64()
	if math.IsInf(x, 0) {
		return nil, fmt.Errorf("number %s is out of range", n)
	}
	return x, nil
}

// updateGoldenCase rewrites the expectation sections of c from what the
// engine produced, keeping the comment and the input sections.
func updateGoldenCase(t *testing.T, c *goldenCase, gotYAML, gotJSON []byte, renderErr error) {
	_, hadJSON := c.section(secOutJSON)
	files := make([]txtar.File, 0, len(c.ar.Files)+1)
	for _, f := range c.ar.Files {
		switch f.Name {
		case secOutYAML, secOutJSON, secError:
			continue
		}
		files = append(files, f)
	}
	if renderErr != nil {
		files = append(files, txtar.File{Name: secError, Data: []byte(renderErr.Error() + "\n")})
	} else {
		files = append(files, txtar.File{Name: secOutYAML, Data: gotYAML})
		if hadJSON {
			files = append(files, txtar.File{Name: secOutJSON, Data: append(gotJSON, '\n')})
		}
	}
	ar := &txtar.Archive{Comment: c.ar.Comment, Files: files}
	if data := txtar.Format(ar); !bytes.Equal(data, mustRead(t, c.path)) {
		if err := os.WriteFile(c.path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("updated %s: check the new expectation by hand against the language reference", c.path)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return data
}

// addUnknowns decodes unknowns.json into vars: each name an unknown of
// the type given.
func addUnknowns(data []byte, vars map[string]value.Value) error {
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	for name, t := range raw {
		typ, err := jsonType(t)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		vars[name] = value.UnknownOf(typ)
	}
	return nil
}

// jsonType reads a type as Terraform writes it in JSON.
func jsonType(t any) (value.Type, error) {
	switch x := t.(type) {
	case string:
		switch x {
		case "dynamic":
			return value.TypeDynamic, nil
		case "string":
			return value.TypeString, nil
		case "number":
			return value.TypeNumber, nil
		case "bool":
			return value.TypeBool, nil
		}
	case []any:
		if len(x) == 2 {
			switch x[0] {
			case "list", "set", "map":
				elem, err := jsonType(x[1])
				if err != nil {
					return value.TypeDynamic, err
				}
				return map[any]func(value.Type) value.Type{"list": value.ListOf, "set": value.SetOf, "map": value.MapOf}[x[0]](elem), nil
			case "tuple":
				elems, ok := x[1].([]any)
				if !ok {
					break
				}
				types := make([]value.Type, len(elems))
				for i, et := range elems {
					var err error
					if types[i], err = jsonType(et); err != nil {
						return value.TypeDynamic, err
					}
				}
				return value.TupleOf(types...), nil
			case "object":
				attrs, ok := x[1].(map[string]any)
				if !ok {
					break
				}
				types := make(map[string]value.Type, len(attrs))
				for n, at := range attrs {
					var err error
					if types[n], err = jsonType(at); err != nil {
						return value.TypeDynamic, err
					}
				}
				return value.ObjectOf(types), nil
			}
		}
	}
	return value.TypeDynamic, fmt.Errorf("not a type: %v", t)
}

// showUnknowns gives docs with each unknown value written as the string
// "(unknown TYPE)", so that out.yaml can show it.
func showUnknowns(docs []value.Value) []value.Value {
	if value.IsUnknownStream(docs) {
		return []value.Value{"(unknown documents)"}
	}
	var show func(v value.Value) value.Value
	show = func(v value.Value) value.Value {
		switch x := v.(type) {
		case value.Unknown:
			return "(unknown " + x.Type.String() + ")"
		case *value.Map:
			out := value.NewMap(x.Len())
			for i := 0; i < x.Len(); i++ {
				k, e := x.At(i)
				out.Set(k, show(e))
			}
			return out
		case []value.Value:
			out := make([]value.Value, len(x))
			for i, e := range x {
				out[i] = show(e)
			}
			return out
		}
		return v
	}
	out := make([]value.Value, len(docs))
	for i, d := range docs {
		out[i] = show(d)
	}
	return out
}
