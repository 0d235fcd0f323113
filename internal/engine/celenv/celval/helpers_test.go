package celval

import (
	"math"
	"reflect"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

func TestConv_jsonNumbers(t *testing.T) {
	cases := []struct {
		in   string
		want value.Value
	}{
		{`9223372036854775807`, int64(math.MaxInt64)},
		{`-9223372036854775808`, int64(math.MinInt64)},
		{`9223372036854775808`, 9223372036854775808.0},
		{`1.0`, 1.0},
		{`1e2`, 100.0},
		{`-0`, int64(0)},
		{`0.1`, 0.1},
	}
	for _, tc := range cases {
		got, err := decodeJSON(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("decodeJSON(%s) = %#v, %v; want %#v", tc.in, got, err, tc.want)
		}
	}
}
