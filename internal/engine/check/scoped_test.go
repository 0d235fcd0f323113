package check

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
)

// scopeRecorder is a scoped visitor that writes down each place it is
// given and the names in scope there.
type scopeRecorder struct {
	checkNames
	lines []string
}

func (v *scopeRecorder) directive(m *mapping, i int, inner []string) {
	v.lines = append(v.lines, fmt.Sprintf("%s: %s", m.dirs[i].Name, strings.Join(inner, " ")))
}

func (v *scopeRecorder) entry(m *mapping, i, j int, scope []string) {
	name := "(after)"
	if j < len(m.dirs[i].Binds) {
		name = m.dirs[i].Binds[j].Name
	}
	v.lines = append(v.lines, fmt.Sprintf("%s %s: %s", m.dirs[i].Name, name, strings.Join(scope, " ")))
}

func (v *scopeRecorder) value(_ *mapping, e tree.MapEntry, inner []string) {
	v.lines = append(v.lines, fmt.Sprintf("%s: %s", e.Key.Value, strings.Join(inner, " ")))
}

// scopesOf compiles text and records the scoped walk of its root mapping
// with the names outer above it.
func scopesOf(t *testing.T, text string, outer ...string) string {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	table := languageTable()
	c := table.NewCompiler()
	c.KeepYAML = true
	n, err := c.Document(&doc)
	if err != nil {
		t.Fatal(err)
	}
	m := newMapping(n)
	v := &scopeRecorder{}
	walkScoped[string](table, v, m, outer, innerScope[string](table, v, m, outer))
	return strings.Join(v.lines, "\n")
}

func TestScoped_aMappingsDirectivesBindInAllOfItAndALetEntrySeesTheEntriesAbove(t *testing.T) {
	// reference §4: the directives of a mapping bind their names in the
	// whole mapping; a $let entry sees the names above it only.
	got := scopesOf(t, `$schema:
  s: string
$let:
  a: "1"
  b: a
$for: "x in [1]"
$do:
  k: x
`, "up")
	want := `$schema: up s a b x
$let a: up s x
$let b: up s x a
$let (after): up s x a b
$for: up s a b x`
	if got != want {
		t.Errorf("scopes:\n got %s\nwant %s", got, want)
	}
}

func TestScoped_anIncludesWithNamesAreItsFilesNotItsMappings(t *testing.T) {
	// reference §4 $include: the $with names are in scope in the included
	// file only.
	got := scopesOf(t, `$let:
  a: "1"
y:
  $include: f.yaml
  $with:
    w: a
`)
	want := `$let a: 
$let (after): a
y: a`
	if got != want {
		t.Errorf("scopes:\n got %q\nwant %q", got, want)
	}
	inner := `$include: f.yaml
$with:
  w: "1"
`
	if got, want := scopesOf(t, inner, "up"), `$include: up`; got != want {
		t.Errorf("scopes in the include's mapping:\n got %q\nwant %q", got, want)
	}
}
