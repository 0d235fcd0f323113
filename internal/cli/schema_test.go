package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
	"golang.org/x/tools/txtar"
)

// The repository keeps the schema so editors can load it by URL; it must
// be what `celyaml schema` prints (regenerate: go run ./cmd/celyaml schema
// > schemas/celyaml.schema.json).
func TestSchemaFileIsTheCommandOutput(t *testing.T) {
	file, err := os.ReadFile("../../schemas/celyaml.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if code := Run([]string{"schema"}, strings.NewReader(""), &out, io.Discard); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !bytes.Equal(file, out.Bytes()) {
		t.Fatal("schemas/celyaml.schema.json differs from `celyaml schema`: regenerate it")
	}
}

func compiledSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaID, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(schemaID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// templateFiles are an archive's template files: every section but the
// inputs and expectations of the golden format.
func templateFiles(ar *txtar.Archive) []txtar.File {
	var out []txtar.File
	var charts []string // the folders of the charts a case holds, which are Helm's templates, not ours
	for _, f := range ar.Files {
		if d, ok := strings.CutSuffix(f.Name, "Chart.yaml"); ok {
			charts = append(charts, d)
		}
	}
	for _, f := range ar.Files {
		switch f.Name {
		case "vars.json", "options.json", "out.yaml", "out.json", "error":
			continue
		}
		if slices.ContainsFunc(charts, func(d string) bool { return strings.HasPrefix(f.Name, d) && d != "" }) {
			continue
		}
		if strings.HasSuffix(f.Name, ".yaml") || strings.HasSuffix(f.Name, ".yml") {
			out = append(out, f)
		}
	}
	return out
}

// invalidDocs validates each YAML document of text and returns the
// validation errors.
func invalidDocs(t *testing.T, s *jsonschema.Schema, text []byte) []error {
	t.Helper()
	var errs []error
	dec := yaml.NewDecoder(bytes.NewReader(text))
	for {
		var v any
		err := dec.Decode(&v)
		if err == io.EOF {
			return errs
		}
		if err != nil {
			return append(errs, err) // not YAML: not a valid template either
		}
		b, err := json.Marshal(jsonable(v))
		if err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(inst); err != nil {
			errs = append(errs, err)
		}
	}
}

// jsonable makes a decoded YAML value JSON: keys as text.
func jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonable(e)
		}
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonable(e)
		}
	}
	return v
}

func goldenArchives(t *testing.T) map[string]*txtar.Archive {
	t.Helper()
	names, err := filepath.Glob("../engine/testdata/golden/*/*.txtar")
	if err != nil || len(names) < 150 {
		t.Fatalf("golden cases: %d, %v", len(names), err)
	}
	out := map[string]*txtar.Archive{}
	for _, n := range names {
		ar, err := txtar.ParseFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(n), ".txtar")] = ar
	}
	return out
}

func hasSection(ar *txtar.Archive, name string) ([]byte, bool) {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

func TestSchemaAcceptsEverySuccessfulGoldenTemplate(t *testing.T) {
	s := compiledSchema(t)
	n := 0
	for name, ar := range goldenArchives(t) {
		if _, ok := hasSection(ar, "out.yaml"); !ok {
			continue
		}
		for _, f := range templateFiles(ar) {
			n++
			if errs := invalidDocs(t, s, f.Data); len(errs) > 0 {
				t.Errorf("%s: %s: %v", name, f.Name, errs)
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d templates validated", n)
	}
}

// missingPartner matches the engine's missing-partner errors, "$if without
// $then: ...", and not its "without ${{ }}" hints.
var missingPartner = regexp.MustCompile(`\$[a-z]+ without \$[a-z]+`)

func TestSchemaFlagsGoldenUnknownDirectiveAndMissingPartnerErrors(t *testing.T) {
	s := compiledSchema(t)
	n := 0
	for name, ar := range goldenArchives(t) {
		errText, ok := hasSection(ar, "error")
		if !ok || !strings.Contains(string(errText), "unknown directive") && !missingPartner.Match(errText) {
			continue
		}
		if bytes.Contains(errText, []byte("is a list edit")) || bytes.Contains(errText, []byte("$expects is a directive only")) {
			continue // where an overlay directive stands is check's to say (schema.go)
		}
		n++
		flagged := false
		for _, f := range templateFiles(ar) {
			flagged = flagged || len(invalidDocs(t, s, f.Data)) > 0
		}
		if !flagged {
			t.Errorf("%s: the schema accepts a template the engine refuses with: %s", name, errText)
		}
	}
	if n < 5 {
		t.Fatalf("only %d golden unknown-directive or missing-partner cases", n)
	}
}
