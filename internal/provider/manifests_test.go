package provider

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/manifest"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// doc builds a Terraform document from alternating path/value pairs, e.g.
// doc("kind", "Service", "metadata.name", "cart"). A value of value.Unknown{}
// makes an unknown leaf.
func doc(t *testing.T, kv ...any) attr.Value {
	t.Helper()
	root := value.NewMap(4)
	for i := 0; i < len(kv); i += 2 {
		parts := strings.Split(kv[i].(string), ".")
		m := root
		for _, p := range parts[:len(parts)-1] {
			next, ok := m.Get(p)
			if !ok {
				next = value.NewMap(2)
				m.Set(p, next)
			}
			m = next.(*value.Map)
		}
		m.Set(parts[len(parts)-1], kv[i+1])
	}
	return mustFromEngine(t, root)
}

// manifestsOf runs buildManifests on framework values, for readable tests.
func manifestsOf(docs []attr.Value) (attr.Value, error) {
	m, err := buildManifests(tfs(docs))
	if err != nil {
		return nil, err
	}
	return fw(m), nil
}

// tfs converts framework values to protocol values.
func tfs(vals []attr.Value) []tftypes.Value {
	out := make([]tftypes.Value, len(vals))
	for i, v := range vals {
		out[i] = tf(v)
	}
	return out
}

func manifestKeys(t *testing.T, v attr.Value) string {
	t.Helper()
	obj, ok := v.(basetypes.ObjectValue)
	if !ok {
		t.Fatalf("manifests: got %T %s", v, v)
	}
	keys := make([]string, 0, len(obj.Attributes()))
	for k := range obj.Attributes() {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, " ")
}

func TestBuildManifests_ids(t *testing.T) {
	docs := []attr.Value{
		doc(t, "apiVersion", "apps/v1", "kind", "Deployment", "metadata.name", "cart", "metadata.namespace", "prod"),
		doc(t, "apiVersion", "v1", "kind", "Service", "metadata.name", "cart"),
		doc(t, "kind", "Thing", "metadata.name", "x"),
		doc(t, "apiVersion", "networking.k8s.io/v1", "kind", "Ingress", "metadata.name", "web", "metadata.namespace", "edge"),
		doc(t, "apiVersion", "", "kind", "Empty", "metadata.name", "e"),
	}
	m, err := manifestsOf(docs)
	if err != nil {
		t.Fatal(err)
	}
	want := "_/Empty/_/e _/Service/_/cart _/Thing/_/x apps/Deployment/prod/cart networking.k8s.io/Ingress/edge/web"
	if got := manifestKeys(t, m); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	// values are the documents themselves
	got := dumpTerraform(m.(basetypes.ObjectValue).Attributes()["_/Service/_/cart"])
	if want := `object{apiVersion: "v1", kind: "Service", metadata: object{name: "cart"}}`; got != want {
		t.Fatalf("value: got %s", got)
	}
}

func TestBuildManifests_documentsWithoutKindOrNameAreLeftOut(t *testing.T) {
	docs := []attr.Value{
		doc(t, "kind", "ConfigMap"),
		doc(t, "metadata.name", "nameless-kind"),
		doc(t, "kind", "ConfigMap", "metadata.labels.a", "b"),
		doc(t, "kind", nil, "metadata.name", "null-kind"),
		doc(t, "kind", "ConfigMap", "metadata", "not-a-mapping"),
		types.StringValue("a scalar document"),
		types.TupleValueMust([]attr.Type{types.StringType}, []attr.Value{types.StringValue("a list")}),
		doc(t, "kind", "ConfigMap", "metadata.name", "kept"),
	}
	m, err := manifestsOf(docs)
	if err != nil {
		t.Fatal(err)
	}
	if got := manifestKeys(t, m); got != "_/ConfigMap/_/kept" {
		t.Fatalf("got %s", got)
	}
}

func TestBuildManifests_zeroDocumentsIsEmptyObject(t *testing.T) {
	m, err := manifestsOf(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := dumpTerraform(m); got != "object{}" {
		t.Fatalf("got %s", got)
	}
}

// The error names both indexes and the whole manifest ID, which reference
// §6 lets an error show, and nothing else of the documents; hiding names
// (sensitive = true), only the parts the template writes, and without a
// template no part but "_".
func TestBuildManifests_duplicateNamesBothIndexesAndTheID(t *testing.T) {
	docs := []attr.Value{
		doc(t, "apiVersion", "apps/v1", "kind", "Deployment", "metadata.name", "web", "spec.token", "s3cr3t"),
		doc(t, "kind", "ConfigMap", "metadata.name", "other"),
		doc(t, "apiVersion", "apps/v2", "kind", "Deployment", "metadata.name", "web", "spec.token", "s3cr3t"),
	}
	_, err := manifestsOf(docs)
	var dup *duplicateManifestError
	if !errors.As(err, &dup) {
		t.Fatalf("got %v", err)
	}
	const msg = `documents 0 and 2 have the same manifest ID %q (apiVersion group, kind, metadata.namespace and metadata.name); every manifest must be unique (documents are counted from 0)`
	if want := fmt.Sprintf(msg, "apps/Deployment/_/web"); err.Error() != want {
		t.Fatalf("got  %s\nwant %s", err, want)
	}
	dup.Hide = true
	if want := fmt.Sprintf(msg, "…/…/_/…"); err.Error() != want {
		t.Fatalf("hiding, without the template:\ngot  %s\nwant %s", err, want)
	}
	dup.Written = templateScalars([]byte("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {$eval: \"${{ name }}\"}\n"))
	if want := fmt.Sprintf(msg, "apps/Deployment/_/…"); err.Error() != want {
		t.Fatalf("hiding, with the template's text:\ngot  %s\nwant %s", err, want)
	}
}

func TestBuildManifests_sameNameInOtherNamespaceIsNoDuplicate(t *testing.T) {
	docs := []attr.Value{
		doc(t, "kind", "Secret", "metadata.name", "db", "metadata.namespace", "a"),
		doc(t, "kind", "Secret", "metadata.name", "db", "metadata.namespace", "b"),
		doc(t, "kind", "Secret", "metadata.name", "db"),
	}
	m, err := manifestsOf(docs)
	if err != nil {
		t.Fatal(err)
	}
	if got := manifestKeys(t, m); got != "_/Secret/_/db _/Secret/a/db _/Secret/b/db" {
		t.Fatalf("got %s", got)
	}
}

func TestBuildManifests_unknownIDPartMakesWholeResultUnknown(t *testing.T) {
	for _, field := range []string{"kind", "metadata.name", "metadata.namespace", "apiVersion", "metadata"} {
		kv := []any{"apiVersion", "apps/v1", "kind", "Deployment", "metadata.name", "cart", "metadata.namespace", "prod"}
		if field == "metadata" {
			kv = []any{"apiVersion", "apps/v1", "kind", "Deployment", "metadata", value.Unknown{}}
		} else {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == field {
					kv[i+1] = value.Unknown{}
				}
			}
		}
		docs := []attr.Value{doc(t, "kind", "ConfigMap", "metadata.name", "known"), doc(t, kv...)}
		m, err := manifestsOf(docs)
		if err != nil {
			t.Fatalf("%s: %v", field, err)
		}
		if !m.IsUnknown() {
			t.Errorf("%s unknown: result is known: %s", field, m)
		}
	}
}

func TestBuildManifests_unknownDocumentMakesWholeResultUnknown(t *testing.T) {
	m, err := manifestsOf([]attr.Value{types.DynamicUnknown()})
	if err != nil || !m.IsUnknown() {
		t.Fatalf("got %s %v", m, err)
	}
}

func TestBuildManifests_unknownLeafKeepsKeysKnown(t *testing.T) {
	docs := []attr.Value{
		doc(t, "apiVersion", "apps/v1", "kind", "Deployment", "metadata.name", "cart", "spec.image", value.Unknown{}),
	}
	m, err := manifestsOf(docs)
	if err != nil {
		t.Fatal(err)
	}
	if got := manifestKeys(t, m); got != "apps/Deployment/_/cart" {
		t.Fatalf("got %s", got)
	}
	got := dumpTerraform(m.(basetypes.ObjectValue).Attributes()["apps/Deployment/_/cart"])
	want := `object{apiVersion: "apps/v1", kind: "Deployment", metadata: object{name: "cart"}, spec: object{image: unknown(basetypes.DynamicType)}}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestBuildManifests_absentKindWinsOverUnknownName(t *testing.T) {
	// Without kind the document is left out whatever its name turns out to be.
	m, err := manifestsOf([]attr.Value{doc(t, "metadata.name", value.Unknown{})})
	if err != nil || m.IsUnknown() || manifestKeys(t, m) != "" {
		t.Fatalf("got %s %v", m, err)
	}
}

func TestBuildManifests_nonStringPartsAreErrors(t *testing.T) {
	for _, tc := range []struct {
		d    attr.Value
		want string
	}{
		{doc(t, "kind", int64(3), "metadata.name", "x"), "document 0: kind must be a string, got a number"},
		{doc(t, "kind", "K", "metadata.name", true), "document 0: metadata.name must be a string, got a bool"},
		{doc(t, "kind", "K", "metadata.name", "n", "metadata.namespace", []value.Value{}), "document 0: metadata.namespace must be a string, got a list"},
		{doc(t, "kind", "K", "metadata.name", "n", "apiVersion", value.NewMap(0)), "document 0: apiVersion must be a string, got an object"},
	} {
		_, err := manifestsOf([]attr.Value{tc.d})
		if err == nil || err.Error() != tc.want {
			t.Errorf("got %v, want %s", err, tc.want)
		}
	}
}

func TestBuildManifests_mapDocuments(t *testing.T) {
	meta := types.MapValueMust(types.StringType, map[string]attr.Value{"name": types.StringValue("m"), "namespace": types.StringValue("ns")})
	d := types.ObjectValueMust(map[string]attr.Type{"kind": types.StringType, "metadata": meta.Type(context.Background())},
		map[string]attr.Value{"kind": types.StringValue("ConfigMap"), "metadata": meta})
	m, err := manifestsOf([]attr.Value{d})
	if err != nil || manifestKeys(t, m) != "_/ConfigMap/ns/m" {
		t.Fatalf("got %s %v", m, err)
	}
}

func TestManifestGroup(t *testing.T) {
	for in, want := range map[string]string{"apps/v1": "apps", "v1": "_", "": "_", "/v1": "_", "a.b/v1beta1": "a.b"} {
		if got := manifest.Group(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

func TestDocumentsOf_forms(t *testing.T) {
	one := doc(t, "kind", "K", "metadata.name", "n")
	tuple := types.TupleValueMust([]attr.Type{one.Type(context.Background())}, []attr.Value{one})
	list := types.ListValueMust(one.Type(context.Background()), []attr.Value{one, one})
	for _, tc := range []struct {
		in      types.Dynamic
		n       int
		unknown bool
	}{
		{types.DynamicNull(), 0, false},
		{types.DynamicUnknown(), 0, true},
		{types.DynamicValue(types.TupleUnknown(nil)), 0, true},
		{types.DynamicValue(one), 1, false},
		{types.DynamicValue(tuple), 1, false},
		{types.DynamicValue(list), 2, false},
		{types.DynamicValue(types.TupleValueMust(nil, nil)), 0, false},
	} {
		docs, unknown, err := documentsOf(tf(tc.in))
		if err != nil || unknown != tc.unknown || len(docs) != tc.n {
			t.Errorf("%s: got %d docs, unknown %v, err %v", tc.in, len(docs), unknown, err)
		}
	}
	_, _, err := documentsOf(tf(types.DynamicValue(types.StringValue("x"))))
	if err == nil || err.Error() != "documents must be a document (an object) or a tuple of documents, got a string" {
		t.Fatalf("got %v", err)
	}
}
