package transform

import (
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// The command line's --keep-namespace takes NAMESPACE, KIND/NAME or
// KIND/NAMESPACE/NAME (reference §10 keepNamespace); anything else, or
// an empty part, is refused.
func TestParseKeep_namespaceKindNameForms(t *testing.T) {
	cases := []struct {
		in   string
		want Keep
		ok   bool
	}{
		{"kube-system", Keep{Namespace: "kube-system"}, true},
		{"RoleBinding/metrics-server-auth-reader", Keep{Kind: "RoleBinding", Name: "metrics-server-auth-reader"}, true},
		{"RoleBinding/kube-system/reader", Keep{Kind: "RoleBinding", Namespace: "kube-system", Name: "reader"}, true},
		{"", Keep{}, false},
		{"RoleBinding/", Keep{}, false},
		{"/x", Keep{}, false},
		{"a/b/c/d", Keep{}, false},
	}
	for _, c := range cases {
		got, ok := ParseKeep(c.in)
		if ok != c.ok || got != c.want {
			t.Errorf("ParseKeep(%q) = %+v, %v; want %+v, %v", c.in, got, ok, c.want, c.ok)
		}
		if ok && got.String() != c.in {
			t.Errorf("ParseKeep(%q).String() = %q", c.in, got.String())
		}
	}
}

func keepDoc(kind, ns, name string) *value.Map {
	meta := value.NewMap(2)
	meta.Set("name", name)
	if ns != "" {
		meta.Set("namespace", ns)
	}
	m := value.NewMap(3)
	m.Set("apiVersion", "v1")
	m.Set("kind", kind)
	m.Set("metadata", meta)
	return m
}

// An object is kept when it has every field an entry gives; a Namespace
// object's namespace is its own name; every entry it matches counts it.
func TestKept_matchesEveryFieldAnEntryGives(t *testing.T) {
	p := Prepare(nil, Spec{Namespace: "edge", Keep: []Keep{
		{Namespace: "kube-system"},
		{Kind: "RoleBinding", Name: "reader"},
		{Kind: "Service", Namespace: "legacy", Name: "db"},
	}}, nil)
	cases := []struct {
		kind, ns, name string
		kept           bool
	}{
		{"ConfigMap", "kube-system", "x", true},
		{"Namespace", "", "kube-system", true},
		{"RoleBinding", "apps", "reader", true},
		{"RoleBinding", "", "reader", true},
		{"Role", "apps", "reader", false},
		{"Service", "legacy", "db", true},
		{"Service", "other", "db", false},
		{"Service", "", "db", false},
		{"ConfigMap", "", "x", false},
	}
	for _, c := range cases {
		kept, unknown := p.kept(keepDoc(c.kind, c.ns, c.name), c.kind, nil)
		if kept != c.kept || unknown {
			t.Errorf("%s %s/%s: kept %v, unknown %v; want kept %v", c.kind, c.ns, c.name, kept, unknown, c.kept)
		}
	}
}

// An entry field not known yet makes the whole transform unknown: which
// objects move is not known.
func TestParse_keepNamespaceFieldNotKnownYetMakesTheTransformUnknown(t *testing.T) {
	entry := value.NewMap(1)
	entry.Set("namespace", value.UnknownOf(value.TypeString))
	m := value.NewMap(2)
	m.Set("namespace", "edge")
	m.Set("keepNamespace", []value.Value{entry})
	s, err := Parse(m)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Unknown {
		t.Errorf("Parse gave %+v; want a transform not known yet", s)
	}
}
