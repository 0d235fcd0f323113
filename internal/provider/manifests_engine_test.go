package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/manifest"
)

// The manifest-ID rule on engine values (package manifest, used by the raw
// read, the command line and overlay errors) gives what manifestID gives
// on the same documents as Terraform values: the ID, skip, unknown and the
// error's text.
func TestManifestID_engineValuesAgreeWithTerraformValues(t *testing.T) {
	unknownStr := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	num := tftypes.NewValue(tftypes.Number, 5)
	meta := func(attrs map[string]tftypes.Value) tftypes.Value { return ctxObject(attrs) }
	docs := map[string]tftypes.Value{
		"core":                  ctxObject(map[string]tftypes.Value{"apiVersion": str("v1"), "kind": str("Service"), "metadata": meta(map[string]tftypes.Value{"name": str("a")})}),
		"group and namespace":   ctxObject(map[string]tftypes.Value{"apiVersion": str("apps/v1"), "kind": str("Deployment"), "metadata": meta(map[string]tftypes.Value{"name": str("a"), "namespace": str("ns")})}),
		"no apiVersion":         ctxObject(map[string]tftypes.Value{"kind": str("A"), "metadata": meta(map[string]tftypes.Value{"name": str("a")})}),
		"apiVersion /v1":        ctxObject(map[string]tftypes.Value{"apiVersion": str("/v1"), "kind": str("A"), "metadata": meta(map[string]tftypes.Value{"name": str("a")})}),
		"no kind":               ctxObject(map[string]tftypes.Value{"metadata": meta(map[string]tftypes.Value{"name": str("a")})}),
		"no name":               ctxObject(map[string]tftypes.Value{"kind": str("A"), "metadata": meta(map[string]tftypes.Value{})}),
		"metadata a list":       ctxObject(map[string]tftypes.Value{"kind": str("A"), "metadata": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{str("x")})}),
		"kind a number":         ctxObject(map[string]tftypes.Value{"kind": num, "metadata": meta(map[string]tftypes.Value{"name": str("a")})}),
		"name a bool, no kind":  ctxObject(map[string]tftypes.Value{"metadata": meta(map[string]tftypes.Value{"name": tftypes.NewValue(tftypes.Bool, true)})}),
		"namespace an object":   ctxObject(map[string]tftypes.Value{"kind": str("A"), "metadata": meta(map[string]tftypes.Value{"name": str("a"), "namespace": ctxObject(map[string]tftypes.Value{})})}),
		"apiVersion a list":     ctxObject(map[string]tftypes.Value{"apiVersion": tftypes.NewValue(tftypes.Tuple{ElementTypes: []tftypes.Type{}}, []tftypes.Value{}), "kind": str("A"), "metadata": meta(map[string]tftypes.Value{"name": str("a")})}),
		"unknown kind":          ctxObject(map[string]tftypes.Value{"kind": unknownStr, "metadata": meta(map[string]tftypes.Value{"name": str("a")})}),
		"unknown namespace":     ctxObject(map[string]tftypes.Value{"kind": str("A"), "metadata": meta(map[string]tftypes.Value{"name": str("a"), "namespace": unknownStr})}),
		"unknown metadata":      ctxObject(map[string]tftypes.Value{"kind": str("A"), "metadata": tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": tftypes.String}}, tftypes.UnknownValue)}),
		"unknown document":      tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue),
		"null document":         tftypes.NewValue(tftypes.DynamicPseudoType, nil),
		"a list document":       tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{str("x")}),
		"a string document":     str("text"),
		"null kind, name given": ctxObject(map[string]tftypes.Value{"kind": tftypes.NewValue(tftypes.String, nil), "metadata": meta(map[string]tftypes.Value{"name": str("a")})}),
	}
	for name, d := range docs {
		t.Run(name, func(t *testing.T) {
			id, skip, unknown, err := manifestID(d)
			ev, cerr := toEngine(d)
			if cerr != nil {
				t.Fatal(cerr)
			}
			eid, eskip, eunknown, eerr := manifest.ID(ev)
			want := fmt.Sprintf("%q skip=%v unknown=%v err=%v", id, skip, unknown, err)
			if got := fmt.Sprintf("%q skip=%v unknown=%v err=%v", eid, eskip, eunknown, eerr); got != want {
				t.Errorf("engine values: %s\nTerraform values: %s", got, want)
			}
		})
	}
}
