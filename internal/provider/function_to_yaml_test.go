package provider

import (
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// to_yaml writes keys sorted and quotes the strings a YAML 1.1 reader
// would misread, as the data source's yaml does.
func TestToYAML_outputRules(t *testing.T) {
	v := obj(map[string]tftypes.Value{
		"zone":  tfStr("eu"),
		"on":    tfStr("yes"),
		"mode":  tfStr("0777"),
		"ratio": tftypes.NewValue(tftypes.Number, big.NewFloat(2.0)),
		"tags":  tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tfStr("a"), tfStr("1e3")}),
	})
	got, unknown, ferr := toYAML(v)
	if ferr != nil || unknown {
		t.Fatalf("got %v, %v", unknown, ferr)
	}
	want := "mode: \"0777\"\n\"on\": \"yes\"\nratio: 2\ntags:\n  - a\n  - \"1e3\"\nzone: eu\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got, _, _ := toYAML(tftypes.NewValue(tftypes.DynamicPseudoType, nil)); got != "null\n" {
		t.Errorf("null gives %q", got)
	}
}

func TestToYAML_unknownAnywhereIsUnknown(t *testing.T) {
	v := obj(map[string]tftypes.Value{"image": tftypes.NewValue(tftypes.String, tftypes.UnknownValue), "name": tfStr("web")})
	if _, unknown, ferr := toYAML(v); ferr != nil || !unknown {
		t.Errorf("got %v, %v; want unknown", unknown, ferr)
	}
}
