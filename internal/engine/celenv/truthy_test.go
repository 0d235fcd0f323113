package celenv

import (
	"math"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// truthy is Helm's notion of "set" (reference §5 truthy): the listed zero
// values, null and an empty optional are false, everything else true.
func TestTruthy_helmNotionOfSet(t *testing.T) {
	vars := map[string]value.Value{
		"values": celTestMap(
			"port", int64(0),
			"grpcPort", int64(9090),
			"name", "",
			"tags", []value.Value{},
			"labels", celTestMap(),
			"ratio", 0.0,
			"off", false,
			"missing", nil,
		),
	}
	runCELCases(t, vars, []celCase{
		{`truthy(false)`, `false`},
		{`truthy(0)`, `false`},
		{`truthy(0.0)`, `false`},
		{`truthy(-0.0)`, `false`},
		{`truthy(0u)`, `false`},
		{`truthy('')`, `false`},
		{`truthy([])`, `false`},
		{`truthy({})`, `false`},
		{`truthy(null)`, `false`},
		{`truthy(optional.none())`, `false`},
		{`truthy(true)`, `true`},
		{`truthy(-1)`, `true`},
		{`truthy(0.5)`, `true`},
		{`truthy(1u)`, `true`},
		{`truthy(' ')`, `true`},
		{`truthy('false')`, `true`},
		{`truthy('0')`, `true`},
		{`truthy([0])`, `true`},
		{`truthy([null])`, `true`},
		{`truthy({'a': false})`, `true`},
		{`truthy(double('NaN'))`, `true`},
		{`truthy(b'')`, `true`},
		{`truthy(duration('0s'))`, `true`},
		{`truthy(optional.of(0))`, `false`},
		{`truthy(optional.of('x'))`, `true`},
		// Values from a values file, read directly and through optionals.
		{`truthy(values.port)`, `false`},
		{`truthy(values.grpcPort)`, `true`},
		{`truthy(values.name)`, `false`},
		{`truthy(values.tags)`, `false`},
		{`truthy(values.labels)`, `false`},
		{`truthy(values.ratio)`, `false`},
		{`truthy(values.off)`, `false`},
		{`truthy(values.missing)`, `false`},
		{`truthy(values.?grpcPort)`, `true`},
		{`truthy(values.?port)`, `false`},
		{`truthy(values.?absent)`, `false`},
		{`truthy(values.?absent.?deeper)`, `false`},
		{`truthy(values.?labels.?x)`, `false`},
		{`[0, 1, '', 'a', null, [], [1]].filter(x, truthy(x))`, `[1, "a", [1]]`},
		{`truthy(values.port) ? 'a' : 'b'`, `"b"`},
	})
}

// An unknown argument gives an unknown bool (reference §5 truthy: unknown
// values); a list or map holding unknowns is still known to be non-empty.
func TestTruthy_unknownArgumentGivesUnknown(t *testing.T) {
	vars := map[string]value.Value{
		"u":  value.Unknown{},
		"m":  celTestMap("u", value.Unknown{}, "k", int64(1)),
		"ul": []value.Value{value.Unknown{}},
	}
	runCELCases(t, vars, []celCase{
		{`truthy(u)`, `unknown`},
		{`truthy(m.u)`, `unknown`},
		{`truthy(m.?u)`, `unknown`},
		{`truthy(u.?x)`, `unknown`},
		{`truthy(ul)`, `true`},
		{`truthy(m)`, `true`},
		{`truthy(m.k)`, `true`},
		{`truthy(u) || true`, `true`},
	})
	c := NewCache(1000)
	sc := celScope(vars)
	p, xerr := c.Compile(`truthy(u)`, sc.has)
	if xerr != nil {
		t.Fatal(xerr.Msg)
	}
	if got := p.resultType(); got != value.TypeBool {
		t.Errorf("truthy's result type = %v, want bool", got)
	}
}

// Errors name types, never the argument's value.
func TestTruthy_errorsNeverShowTheArgument(t *testing.T) {
	const secret = "Zq9SECRETzq"
	vars := map[string]value.Value{"secret": secret, "m": celTestMap("a", secret)}
	runCELCases(t, vars, []celCase{
		// A wrong number of arguments, worded as for the other helpers
		// that take any value (deepMerge(1)).
		{`truthy()`, `error: no such overload: truthy()`},
		{`truthy(secret, secret)`, `error: no such overload: truthy(lhs, rhs)`},
		// An error in the argument is the argument's own.
		{`truthy(m[secret])`, `error: no such key`},
		{`truthy(int(secret))`, `error: type conversion error from 'string' to 'int'`},
	})
}

// truthy costs one unit whatever the size of its argument: it reads a
// size or compares one scalar.
func TestTruthy_costsOneUnit(t *testing.T) {
	for _, arg := range []ref.Val{
		types.String(strings.Repeat("x", 1<<20)),
		types.Int(math.MaxInt64),
		types.NullValue,
		ToCEL(make([]value.Value, 100000)),
	} {
		if got := callCost("truthy", []ref.Val{arg}, types.True); got != 1 {
			t.Errorf("truthy(%s) costs %d, want 1", arg.Type().TypeName(), got)
		}
	}
	small := NewCache(30)
	vars := map[string]value.Value{"s": strings.Repeat("x", 100000)}
	if got := celResult(small, `truthy(s) && truthy(s) && truthy(s)`, vars); got != "true" {
		t.Errorf("three calls on a long string under a limit of 30: %s", got)
	}
}
