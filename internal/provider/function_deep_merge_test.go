package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func obj(attrs map[string]tftypes.Value) tftypes.Value {
	typs := make(map[string]tftypes.Type, len(attrs))
	for k, v := range attrs {
		typs[k] = v.Type()
	}
	return tftypes.NewValue(tftypes.Object{AttributeTypes: typs}, attrs)
}

func tfStr(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

// deep_merge merges left to right: objects deeply, the later value wins,
// lists replace, a null attribute deletes, a null argument is skipped.
func TestDeepMerge_layersValuesLeftToRight(t *testing.T) {
	defaults := obj(map[string]tftypes.Value{
		"image": obj(map[string]tftypes.Value{"repository": tfStr("nginx"), "tag": tfStr("latest")}),
		"ports": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tfStr("80"), tfStr("8080")}),
		"debug": tfStr("yes"),
	})
	prod := obj(map[string]tftypes.Value{
		"image": obj(map[string]tftypes.Value{"tag": tfStr("1.27")}),
		"ports": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tfStr("443")}),
	})
	overrides := obj(map[string]tftypes.Value{"debug": tftypes.NewValue(tftypes.String, nil)})
	got, ferr := deepMerge([]tftypes.Value{defaults, tftypes.NewValue(tftypes.DynamicPseudoType, nil), prod, overrides})
	if ferr != nil {
		t.Fatal(ferr.Text)
	}
	want := obj(map[string]tftypes.Value{
		"image": obj(map[string]tftypes.Value{"repository": tfStr("nginx"), "tag": tfStr("1.27")}),
		"ports": tupleOf([]tftypes.Value{tfStr("443")}),
	})
	if !got.Equal(want) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestDeepMerge_nullsAndNothing(t *testing.T) {
	for name, args := range map[string][]tftypes.Value{
		"no arguments": nil,
		"only nulls":   {tftypes.NewValue(tftypes.DynamicPseudoType, nil), tftypes.NewValue(tftypes.String, nil)},
	} {
		got, ferr := deepMerge(args)
		if ferr != nil || !got.IsNull() {
			t.Errorf("%s: got %v, %v; want null", name, got, ferr)
		}
	}
	// The first argument is the base as it is: its own nulls stay.
	base := obj(map[string]tftypes.Value{"a": tftypes.NewValue(tftypes.String, nil), "b": tfStr("x")})
	got, _ := deepMerge([]tftypes.Value{base})
	var attrs map[string]tftypes.Value
	if err := got.As(&attrs); err != nil || len(attrs) != 2 || !attrs["a"].IsNull() {
		t.Errorf("deep_merge(x) = %s, want x", got)
	}
}

// During plan: a key whose winning value is unknown is unknown, the rest
// stays known; an argument unknown as a whole makes the result unknown.
func TestDeepMerge_unknownValues(t *testing.T) {
	base := obj(map[string]tftypes.Value{"image": tftypes.NewValue(tftypes.String, tftypes.UnknownValue), "replicas": tfStr("2")})
	over := obj(map[string]tftypes.Value{"replicas": tfStr("3")})
	got, ferr := deepMerge([]tftypes.Value{base, over})
	if ferr != nil {
		t.Fatal(ferr.Text)
	}
	var attrs map[string]tftypes.Value
	if err := got.As(&attrs); err != nil {
		t.Fatal(err)
	}
	if attrs["image"].IsKnown() || !attrs["replicas"].Equal(tfStr("3")) {
		t.Errorf("got %s", got)
	}
	got, _ = deepMerge([]tftypes.Value{base, tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue)})
	if got.IsKnown() {
		t.Errorf("an unknown argument gave %s, want unknown", got)
	}
}
