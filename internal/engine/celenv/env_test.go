package celenv

import (
	"context"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv/celval"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// testCostLimit is the engine's default cost limit per expression.
const testCostLimit = 1_000_000

// celTestCache is shared by the tests, as an Engine shares its cache.
var celTestCache = NewCache(testCostLimit)

// testScope is the activation the tests evaluate against: variables by
// name, as the engine's scope gives them.
type testScope map[string]ref.Val

func (s testScope) ResolveName(name string) (any, bool) {
	v, ok := s[name]
	return v, ok
}

func (s testScope) Parent() interpreter.Activation { return nil }

func (s testScope) has(name string) bool {
	_, ok := s[name]
	return ok
}

// celScope binds vars.
func celScope(vars map[string]value.Value) testScope {
	sc := testScope{}
	for k, v := range vars {
		sc[k] = ToCEL(v)
	}
	return sc
}

// celRun compiles and evaluates expr against vars with an unlimited
// render budget.
func celRun(c *Cache, expr string, vars map[string]value.Value) (ref.Val, *Error) {
	sc := celScope(vars)
	p, xerr := c.Compile(expr, sc.has)
	if xerr != nil {
		return nil, xerr
	}
	budget := uint64(math.MaxUint64)
	return p.Eval(context.Background(), sc, &budget)
}

// celResult evaluates expr and shows the result with its types (see
// celDump), or "error: MSG", "unknown" or "nothing".
func celResult(c *Cache, expr string, vars map[string]value.Value) string {
	v, xerr := celRun(c, expr, vars)
	if xerr != nil {
		return "error: " + xerr.Msg
	}
	if _, ok := v.(*types.Unknown); ok {
		return "unknown"
	}
	out, present, err := FromCEL(v)
	if err != nil {
		return "error: " + err.Error()
	}
	if !present {
		return "nothing"
	}
	return celDump(out)
}

// celDump writes an engine value so that its types show: ints as 2,
// doubles as 2.0, strings quoted, maps in their own key order.
func celDump(v value.Value) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eIN") {
			s += ".0"
		}
		return s
	case string:
		return strconv.Quote(v)
	case []value.Value:
		parts := make([]string, len(v))
		for i, el := range v {
			parts[i] = celDump(el)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *value.Map:
		parts := make([]string, 0, v.Len())
		for i := 0; i < v.Len(); i++ {
			k, el := v.At(i)
			parts = append(parts, strconv.Quote(k)+": "+celDump(el))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case value.Unknown:
		return "unknown"
	}
	return fmt.Sprintf("<%T>", v)
}

func celTestMap(kv ...any) *value.Map {
	m := value.NewMap(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}

type celCase struct {
	expr string
	want string
}

func runCELCases(t *testing.T, vars map[string]value.Value, cases []celCase) {
	t.Helper()
	for _, tc := range cases {
		if got := celResult(celTestCache, tc.expr, vars); got != tc.want {
			t.Errorf("%s\n got: %s\nwant: %s", tc.expr, got, tc.want)
		}
	}
}

func TestCELEnv_templateHelpers(t *testing.T) {
	vars := map[string]value.Value{
		"cfg": celTestMap("b", []value.Value{int64(1), 2.0, "<&>"}, "a", nil),
		"max": int64(math.MaxInt64),
		"min": int64(math.MinInt64),
	}
	runCELCases(t, vars, []celCase{
		// json.encode: compact, keys sorted, no HTML escaping, whole doubles as integers.
		{`json.encode(cfg)`, `"{\"a\":null,\"b\":[1,2,\"<&>\"]}"`},
		{`json.encode({'z': 1.5, 'a': [true, 'é\n']})`, `"{\"a\":[true,\"é\\n\"],\"z\":1.5}"`},
		{`json.encode(max)`, `"9223372036854775807"`},
		{`json.encode(min)`, `"-9223372036854775808"`},
		{`json.encode(1.5e300)`, `"1.5e+300"`},
		{`json.encode('x')`, `"\"x\""`},
		{`json.encode(timestamp('2023-01-02T03:04:05Z'))`, `"\"2023-01-02T03:04:05Z\""`},
		{`json.encode(0.0/0.0)`, `error: json.encode: JSON cannot hold NaN or an infinite number`},
		// json.decode: ints stay exact, other numbers are doubles, keys sorted.
		{`json.decode('[1, 1.0, 1e2, 9223372036854775807, -9223372036854775808, 9223372036854775808, "x", null, {"b": false, "a": {}}]')`,
			`[1, 1.0, 100.0, 9223372036854775807, -9223372036854775808, 9.223372036854776e+18, "x", null, {"a": {}, "b": false}]`},
		{`json.decode('{"a": 1}').a + 1`, `2`},
		{`json.decode('{"a":1,"a":2}')`, `error: json.decode: duplicate key in a JSON object (byte offset 13)`},
		{`json.decode('1 2')`, `error: json.decode: unexpected text after the JSON value at byte offset 3`},
		{`json.decode('{"a": tru}')`, `error: json.decode: invalid JSON at byte offset 7`},
		{`json.decode('')`, `error: json.decode: invalid JSON: unexpected end of input`},
		// yaml.encode: block style, the output's quoting rules.
		{`yaml.encode({'b': [1, 'yes'], 'a': {'c': null}})`, `"a:\n  c: null\nb:\n  - 1\n  - \"yes\"\n"`},
		{`yaml.encode('on')`, `"\"on\"\n"`},
		// yaml.decode: one document, YAML 1.2 core schema.
		{`yaml.decode('a: 1\nb: [x, 2.5]\non: yes')`, `{"a": 1, "b": ["x", 2.5], "on": "yes"}`},
		{`yaml.decode('n: 9223372036854775807').n`, `9223372036854775807`},
		{`yaml.decode('')`, `null`},
		{`yaml.decode('a: 1\n---\nb: 2')`, `error: yaml.decode: the text holds more than one YAML document`},
		{`yaml.decode('a: [')`, `error: yaml.decode: invalid YAML at line 1`},
		{`yaml.decode('a: 1\na: 2')`, `error: yaml.decode: line 2: duplicate key`},
		// sha256: lowercase hex of strings and bytes.
		{`sha256('abc')`, `"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"`},
		{`sha256(b'abc')`, `"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"`},
		{`sha256('')`, `"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"`},
		{`sha256(1)`, `error: no matching overload for sha256(int)`},
	})
}

// A namespaced helper is a function literally named "json.encode"; a
// variable named json does not hide it, and the variable stays usable.
func TestCELEnv_namespacedHelperNamesResolveBesideAVariable(t *testing.T) {
	vars := map[string]value.Value{"json": celTestMap("encode", "field")}
	runCELCases(t, vars, []celCase{
		{`json.encode([1])`, `"[1]"`},
		{`json['encode']`, `"field"`},
	})
}

func TestCELEnv_libraries(t *testing.T) {
	runCELCases(t, nil, []celCase{
		// Standard library and macros.
		{`size('abc') + size([1, 2])`, `5`},
		{`[1, 2, 3].filter(x, x > 1).map(x, x * 10)`, `[20, 30]`},
		{`[1, 2, 3].exists_one(x, x == 2) && [1, 2].all(x, x > 0) && [1, 2].exists(x, x > 1)`, `true`},
		{`has({'a': 1}.a) && !has({'a': 1}.b)`, `true`},
		{`'abc'.startsWith('a') && 'abc'.endsWith('c') && 'abc'.contains('b') && 'abc'.matches('^a.c$')`, `true`},
		{`int('12') + 1`, `13`},
		{`string(1.5) + '/' + string(3.0)`, `"1.5/3"`},
		{`1 < 1.5`, `true`}, // cross-type numeric comparisons, as in Kubernetes
		{`timestamp('2023-01-02T03:04:05Z') + duration('90m')`, `"2023-01-02T04:34:05Z"`},
		// cel-go ext strings, version 5.
		{`'%s-%d'.format(['a', 1])`, `"a-1"`},
		{`strings.quote('a"b')`, `"\"a\\\"b\""`},
		{`'gums'.reverse()`, `"smug"`},
		{`'a,b'.split(',')`, `["a", "b"]`},
		{`['a', 'b'].join('-')`, `"a-b"`},
		{`'  x '.trim() + 'TacoCat'.lowerAscii() + 'x'.upperAscii()`, `"xtacocatX"`},
		{`'hello'.charAt(1) + 'hello'.substring(3) + string('hello'.indexOf('l')) + string('hello'.lastIndexOf('l'))`, `"elo23"`},
		{`'hello hello'.replace('he', 'we', 1)`, `"wello hello"`},
		// cel-go ext lists, version 3.
		{`[3, 1, 2].sort()`, `[1, 2, 3]`},
		{`lists.range(3)`, `[0, 1, 2]`},
		{`[1, [2, 3]].flatten()`, `[1, 2, 3]`},
		{`[1, 2, 2].distinct()`, `[1, 2]`},
		{`[1, 2, 3, 4].slice(1, 3)`, `[2, 3]`},
		{`[1, 2, 3].reverse()`, `[3, 2, 1]`},
		{`[{'n': 2}, {'n': 1}].sortBy(e, e.n)`, `[{"n": 1}, {"n": 2}]`},
		// cel-go ext math, version 3.
		{`math.greatest(1, 5, 3)`, `5`},
		{`math.least([3, 1.5])`, `1.5`},
		{`[math.ceil(1.2), math.floor(1.8), math.round(2.5), math.trunc(-1.5), math.sqrt(16)]`, `[2.0, 1.0, 3.0, -1.0, 4.0]`},
		{`[math.abs(-2), math.sign(-3), math.bitOr(1, 2), math.bitAnd(3, 1), math.bitShiftLeft(1, 3)]`, `[2, -1, 3, 1, 8]`},
		{`math.isNaN(0.0 / 0.0) && math.isInf(1.0 / 0.0) && math.isFinite(1.0)`, `true`},
		// cel-go ext sets.
		{`[sets.contains([1, 2, 3], [2]), sets.intersects([1], [2]), sets.equivalent([1, 1], [1])]`, `[true, false, true]`},
		// cel-go ext encoders (base64).
		{`base64.encode(b'hello')`, `"aGVsbG8="`},
		{`base64.decode('aGVsbG8=') == b'hello'`, `true`},
		// cel-go ext bindings.
		{`cel.bind(x, 2, x * x)`, `4`},
		// cel-go ext two-variable comprehensions.
		{`{'a': 1, 'b': 2}.transformMap(k, v, v * 10)`, `{"a": 10, "b": 20}`},
		{`{'a': 1}.transformMapEntry(k, v, {string(v): k})`, `{"1": "a"}`},
		{`[1, 2].transformList(i, v, i + v)`, `[1, 3]`},
		{`[10, 20].all(i, v, v > i) && [1, 2, 3].existsOne(i, v, v == 2)`, `true`},
		// cel-go ext regex.
		{`regex.replace('banana', 'a', 'o')`, `"bonono"`},
		{`regex.extract('item-A', 'item-(\\w+)')`, `"A"`},
		{`regex.extract('x', 'y')`, `nothing`},
		{`regex.extractAll('id:1 id:2', 'id:\\d')`, `["id:1", "id:2"]`},
		// Optional types.
		{`optional.of(1).orValue(2)`, `1`},
		{`{'a': 1}[?'b'].orValue(0)`, `0`},
		{`{'a': 1}.?a`, `1`},
		{`[?optional.none(), 1]`, `[1]`},
		{`optional.none()`, `nothing`},
		// Kubernetes lists, version 1.
		{`[[1, 2, 3].sum(), [1, 2, 2, 3].indexOf(2), ['a', 'b', 'b'].lastIndexOf('b'), [3, 1].min(), [3, 1].max()]`, `[6, 1, 2, 1, 3]`},
		{`[1.0, 3.0].sum()`, `4.0`},
		{`['a', 'b'].isSorted() && [1, 2].includes(2)`, `true`},
		// Kubernetes regex.
		{`"abc 123".find('[0-9]+')`, `"123"`},
		{`"1, 2, 3, 4".findAll('[0-9]+').map(x, int(x)).sum()`, `10`},
		// Kubernetes URLs.
		{`url('https://example.com:80/').getHost()`, `"example.com:80"`},
		{`url('https://example.com/path with spaces/').getEscapedPath()`, `"/path%20with%20spaces/"`},
		{`[url('https://a.b:8080/').getPort(), url('https://a.b/').getScheme(), url('https://a.b/').getHostname()]`, `["8080", "https", "a.b"]`},
		{`url('https://a.b/c?x=1&x=2').getQuery()`, `{"x": ["1", "2"]}`},
		{`isURL('https://x') && !isURL('x')`, `true`},
		{`url('https://example.com/x')`, `"https://example.com/x"`},
		// Kubernetes quantity.
		{`quantity('1Gi').asInteger()`, `1073741824`},
		{`quantity('500m').isLessThan(quantity('1')) && !isQuantity('abc')`, `true`},
		{`quantity('1').add(quantity('500m'))`, `"1500m"`},
		{`quantity('1.5').asApproximateFloat()`, `1.5`},
		// Kubernetes IP and CIDR.
		{`[ip('10.0.0.1').family(), ip('::1').family()]`, `[4, 6]`},
		{`isIP('::1') && ip.isCanonical('127.0.0.1') && ip('127.0.0.1').isLoopback()`, `true`},
		{`ip('::1')`, `"::1"`},
		{`cidr('10.0.0.0/8').containsIP(ip('10.1.2.3')) && cidr('10.0.0.0/8').containsIP('10.0.0.1') && isCIDR('10.0.0.0/8')`, `true`},
		{`[cidr('10.0.0.0/8').prefixLength()]`, `[8]`},
		{`cidr('10.1.0.0/8').masked()`, `"10.0.0.0/8"`},
		{`cidr('10.0.0.0/8').ip()`, `"10.0.0.0"`},
		// Kubernetes semver, version 1.
		{`semver('1.2.3').isLessThan(semver('1.10.0')) && semver('1.2.3').compareTo(semver('1.2.3')) == 0`, `true`},
		{`semver('v1.0', true).major()`, `1`},
		{`isSemver('1.0')`, `false`},
		{`semver('2.1.0')`, `"2.1.0"`},
		// Kubernetes format.
		{`format.dns1123Label().validate('my-name')`, `nothing`},
		{`format.dns1123Label().validate('My_Name').value().size()`, `1`},
		{`format.named('dns1123Label').hasValue() && !format.named('nope').hasValue()`, `true`},
	})
}

// The examples of seeds/001 give the answers Kubernetes gives.
func TestCELEnv_kubernetesSeedExamples(t *testing.T) {
	self := celTestMap(
		"minReplicas", int64(1), "replicas", int64(3), "maxReplicas", int64(5),
		"stateCounts", celTestMap("Available", int64(2)),
		"list1", []value.Value{int64(1)}, "list2", []value.Value{},
		"health", "ok-green",
		"widgets", []value.Value{celTestMap("key", "x", "foo", int64(5)), celTestMap("key", "y", "foo", int64(50))},
		"metadata", celTestMap("name", "singleton"),
		"set1", []value.Value{"a", "b"}, "set2", []value.Value{"c"},
		"names", []value.Value{"a", "b"}, "details", celTestMap("a", int64(1), "b", int64(2)),
		"components", celTestMap("Widget", celTestMap("priority", int64(3))),
		"values", []value.Value{int64(0), int64(99)},
		"envars", []value.Value{celTestMap("name", "MY_ENV", "value", "abc")},
	)
	vars := map[string]value.Value{
		"self":            self,
		"names":           []value.Value{"a", "should-be-first", "z"},
		"items":           []value.Value{celTestMap("weight", 0.25), celTestMap("weight", 0.75)},
		"lowPriorities":   []value.Value{celTestMap("priority", int64(1)), celTestMap("priority", int64(2))},
		"highPriorities":  []value.Value{celTestMap("priority", int64(5))},
		"intOrString":     "99%",
		"maybeSelfString": int64(42),
	}
	runCELCases(t, vars, []celCase{
		{`self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas`, `true`},
		{`'Available' in self.stateCounts`, `true`},
		{`(self.list1.size() == 0) != (self.list2.size() == 0)`, `true`},
		{`self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))`, `true`},
		{`self.health.startsWith('ok')`, `true`},
		{`self.widgets.exists(w, w.key == 'x' && w.foo < 10)`, `true`},
		{`type(intOrString) == string ? intOrString == '99%' : intOrString == 42`, `true`},
		{`type(maybeSelfString) == string ? maybeSelfString == '99%' : maybeSelfString == 42`, `true`},
		{`self.metadata.name == 'singleton'`, `true`},
		{`self.set1.all(e, !(e in self.set2))`, `true`},
		{`self.names.size() == self.details.size() && self.names.all(n, n in self.details)`, `true`},
		{`self.components['Widget'].priority < 10`, `true`},
		{`self.values.all(value, value >= 0 && value < 100)`, `true`},
		{`names.isSorted()`, `true`},
		{`items.map(x, x.weight).sum() == 1.0`, `true`},
		{`lowPriorities.map(x, x.priority).max() < highPriorities.map(x, x.priority).min()`, `true`},
		{`names.indexOf('should-be-first') == 1`, `true`},
		{`url('https://example.com:80/').getHost()`, `"example.com:80"`},
		{`"abc 123".find('[0-9]+')`, `"123"`},
	})
}

func TestCELEnv_mapLiteralKeyRule(t *testing.T) {
	// Undeclared bare keys are strings, so the seed's kitchen sink works.
	runCELCases(t, nil, []celCase{
		{`{ owner: 'platform', team: 'sre' }`, `{"owner": "platform", "team": "sre"}`},
		{`{ a: { b: 1 } }`, `{"a": {"b": 1}}`},
		{`{ 'owner': 1 }`, `{"owner": 1}`},
		{`{ type: 'LoadBalancer' }`, `{"type": "LoadBalancer"}`},
		{`{ owner.x: 1 }`, `error: no such attribute(s): owner.x`},
	})
	// A key that names a variable keeps standard CEL meaning.
	runCELCases(t, map[string]value.Value{"owner": "ops"}, []celCase{
		{`{ owner: 'platform', team: 'sre' }`, `{"ops": "platform", "team": "sre"}`},
	})
	// Comprehension variables and cel.bind names are in scope too.
	runCELCases(t, nil, []celCase{
		{`['a', 'b'].map(k, { k: 1 })`, `[{"a": 1}, {"b": 1}]`},
		{`cel.bind(owner, 'o', { owner: 1, team: 2 })`, `{"o": 1, "team": 2}`},
		{`{'x': 1}.transformMap(k, v, { k: v })`, `{"x": {"x": 1}}`},
	})
}

func TestCELEnv_programCacheKeysOnDeclaredKeys(t *testing.T) {
	c := NewCache(1000)
	undeclared := func(string) bool { return false }
	ownerDeclared := func(n string) bool { return n == "owner" }
	expr := `{ owner: 1, team: 2 }`
	p1, xerr := c.Compile(expr, undeclared)
	if xerr != nil {
		t.Fatal(xerr.Msg)
	}
	p2, _ := c.Compile(expr, undeclared)
	p3, _ := c.Compile(expr, ownerDeclared)
	p4, _ := c.Compile(expr, ownerDeclared)
	if p1 != p2 {
		t.Error("a second compile with the same declared names gave a new program")
	}
	if p3 != p4 {
		t.Error("a second compile with owner declared gave a new program")
	}
	if p1 == p3 {
		t.Error("declaring owner must give another program")
	}
	// An expression without free names ignores declared names.
	q1, _ := c.Compile(`[1].map(owner, owner + 1)`, undeclared)
	q2, _ := c.Compile(`[1].map(owner, owner + 1)`, ownerDeclared)
	if q1 != q2 {
		t.Error("an expression without free names compiled twice")
	}
	if len(c.entries) != 2 {
		t.Errorf("cache holds %d entries, want 2", len(c.entries))
	}
}

func TestCELEnv_cacheHitDoesNotAllocate(t *testing.T) {
	c := NewCache(1000)
	sc := celScope(map[string]value.Value{"svc": celTestMap("name", "cart")})
	has := sc.has
	if _, xerr := c.Compile(`svc.name + '-x'`, has); xerr != nil {
		t.Fatal(xerr.Msg)
	}
	if _, xerr := c.Compile(`{ owner: svc.name }`, has); xerr != nil {
		t.Fatal(xerr.Msg)
	}
	allocs := testing.AllocsPerRun(100, func() {
		c.Compile(`svc.name + '-x'`, has)
		c.Compile(`{ owner: svc.name }`, has)
	})
	if allocs != 0 {
		t.Errorf("a cache hit allocates %v times, want 0", allocs)
	}
}

func TestCELEnv_environmentIsBuiltAtFirstCompile(t *testing.T) {
	c := NewCache(1000)
	if c.env != nil || c.progOpts != nil {
		t.Fatal("newProgramCache built the environment")
	}
	if _, xerr := c.Compile(`1`, nil); xerr != nil {
		t.Fatal(xerr.Msg)
	}
	if c.env == nil || c.env != envVal {
		t.Fatal("compile did not use the process-wide environment")
	}
}

func TestCELEnv_concurrentCompileAndEval(t *testing.T) {
	c := NewCache(50_000)
	cases := []struct {
		expr string
		vars map[string]value.Value
		want string
	}{
		{`svc.name + '-' + region`, map[string]value.Value{"svc": celTestMap("name", "cart"), "region": "eu"}, `"cart-eu"`},
		{`{ owner: 'platform', team: 'sre' }`, nil, `{"owner": "platform", "team": "sre"}`},
		{`{ owner: 'platform', team: 'sre' }`, map[string]value.Value{"owner": "o"}, `{"o": "platform", "team": "sre"}`},
		{`xs.map(x, x * 2).sum()`, map[string]value.Value{"xs": []value.Value{int64(1), int64(2), int64(3)}}, `12`},
		{`json.encode({'b': 1, 'a': [u]})`, map[string]value.Value{"u": value.Unknown{}}, `unknown`},
		{`{'b': 1, 'a': 2, 'c': 3}.map(k, k)`, nil, `["a", "b", "c"]`},
		{`lists.range(50000).map(x, x).size()`, nil, `error: the expression costs more than MaxCostPerExpression (50000); if this is intended, raise it with the command line's --max-cost-per-expression (reference §7)`},
	}
	var wg sync.WaitGroup
	errs := make(chan string, 32)
	for g := 0; g < 32; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				tc := cases[(g+i)%len(cases)]
				if got := celResult(c, tc.expr, tc.vars); got != tc.want {
					errs <- fmt.Sprintf("%s: got %s, want %s", tc.expr, got, tc.want)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestCELEnv_mapLiteralsIterateInSortedKeyOrder(t *testing.T) {
	for i := 0; i < 20; i++ {
		runCELCases(t, nil, []celCase{
			{`{'b': 1, 'a': 2, 'c': 3, 'd': 4, 'e': 5}.map(k, k)`, `["a", "b", "c", "d", "e"]`},
			{`{2: 'x', 1: 'y', true: 'z', 'k': 'w'}.map(k, string(k))`, `["true", "1", "2", "k"]`},
			{`{'b': 1, 'a': 2}.transformList(k, v, k + string(v))`, `["a2", "b1"]`},
		})
	}
}

func TestCELEnv_costLimitPerExpression(t *testing.T) {
	const msg = "error: the expression costs more than MaxCostPerExpression (1000000); if this is intended, raise it with the command line's --max-cost-per-expression (reference §7)"
	bombs := []string{
		// Long comprehensions.
		`lists.range(1000000).map(x, x).size()`,
		`lists.range(1000).map(x, lists.range(1000).map(y, x + y)).size()`,
		// A string that doubles thirty times.
		`cel.bind(a, 'xxxxxxxxxxxxxxxx', cel.bind(b, a + a + a + a + a + a + a + a, cel.bind(c, b + b + b + b + b + b + b + b, cel.bind(d, c + c + c + c + c + c + c + c, cel.bind(e, d + d + d + d + d + d + d + d, cel.bind(f, e + e + e + e + e + e + e + e, f + f + f + f + f + f + f + f)))))).size()`,
		// A replace whose result is the square of its input.
		`cel.bind(a, lists.range(4000).map(i, 'x').join(), a.replace('', a)).size()`,
		`cel.bind(a, lists.range(4000).map(i, 'x').join(), regex.replace(a, '', a)).size()`,
		// join and format over many copies of one large string.
		`cel.bind(a, lists.range(1000).map(i, 'xxxxxxxxxx').join(), lists.range(5000).map(i, a).join()).size()`,
		`cel.bind(a, lists.range(1000).map(i, 'xxxxxxxxxx').join(), cel.bind(l, lists.range(5000).map(i, a), '%s'.format([l]))).size()`,
		// flatten of many copies of one large list.
		`cel.bind(a, lists.range(20000), lists.range(100).map(i, a).flatten()).size()`,
		// Lists that hold the same list many times over: comparing them
		// walks every copy.
		`cel.bind(a, [1, 2, 3, 4, 5, 6, 7, 8], cel.bind(b, [a, a, a, a, a, a, a, a], cel.bind(c, [b, b, b, b, b, b, b, b], cel.bind(d, [c, c, c, c, c, c, c, c], cel.bind(e, [d, d, d, d, d, d, d, d], cel.bind(f, [e, e, e, e, e, e, e, e], cel.bind(g, [f, f, f, f, f, f, f, f], g == g)))))))`,
		`cel.bind(a, [1, 2, 3, 4, 5, 6, 7, 8], cel.bind(b, [a, a, a, a, a, a, a, a], cel.bind(c, [b, b, b, b, b, b, b, b], cel.bind(d, [c, c, c, c, c, c, c, c], cel.bind(e, [d, d, d, d, d, d, d, d], cel.bind(f, [e, e, e, e, e, e, e, e], cel.bind(g, [f, f, f, f, f, f, f, f], g in [g, 1])))))))`,
		`cel.bind(a, [1, 2, 3, 4, 5, 6, 7, 8], cel.bind(b, [a, a, a, a, a, a, a, a], cel.bind(c, [b, b, b, b, b, b, b, b], cel.bind(d, [c, c, c, c, c, c, c, c], cel.bind(e, [d, d, d, d, d, d, d, d], cel.bind(f, [e, e, e, e, e, e, e, e], cel.bind(g, [f, f, f, f, f, f, f, f], sets.contains([g], [g]))))))))`,
		// YAML aliases that expand a short text many times, decoded again
		// and again.
		`lists.range(1000).map(i, yaml.decode('a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]').size()).size()`,
		// Quadratic list functions.
		`lists.range(100000).distinct().size()`,
		`cel.bind(a, lists.range(60000), sets.intersects(a, a.map(x, -1 - x)))`,
		// Lists that double by concatenation.
		`cel.bind(a, lists.range(1000), cel.bind(b, a + a + a + a + a + a + a + a, cel.bind(c, b + b + b + b + b + b + b + b, cel.bind(d, c + c + c + c + c + c + c + c, d + d + d + d + d + d + d + d)))).sort().size()`,
	}
	for _, b := range bombs {
		v, xerr := celRun(celTestCache, b, nil)
		if xerr == nil {
			t.Errorf("%s: gave %v, want the cost limit", b, v)
			continue
		}
		if xerr.Limit != "MaxCostPerExpression" || "error: "+xerr.Msg != msg {
			t.Errorf("%s: got %q (limit %q)", b, xerr.Msg, xerr.Limit)
		}
	}
	// The limit follows the engine option.
	small := NewCache(100)
	if got := celResult(small, `lists.range(200).map(x, x).size()`, nil); got != "error: the expression costs more than MaxCostPerExpression (100); if this is intended, raise it with the command line's --max-cost-per-expression (reference §7)" {
		t.Errorf("small limit: %s", got)
	}
	if got := celResult(small, `lists.range(10).map(x, x).size()`, nil); got != "10" {
		t.Errorf("small limit, cheap expression: %s", got)
	}
	// lists.range refuses huge sizes itself.
	if got := celResult(celTestCache, `lists.range(100000000)`, nil); got != "error: lists.range: the size exceeds maximum allowed (1000000)" {
		t.Errorf("lists.range: %s", got)
	}
}

func TestCELEnv_costBudgetPerRender(t *testing.T) {
	c := NewCache(1_000_000)
	sc := celScope(map[string]value.Value{"xs": []value.Value{int64(1), int64(2), int64(3)}})
	p, xerr := c.Compile(`xs.map(x, x * 2).sum()`, sc.has)
	if xerr != nil {
		t.Fatal(xerr.Msg)
	}
	budget := uint64(1000)
	if _, xerr := p.Eval(context.Background(), sc, &budget); xerr != nil {
		t.Fatal(xerr.Msg)
	}
	cost := 1000 - budget
	if cost == 0 {
		t.Fatal("evaluation cost nothing")
	}
	if _, xerr := p.Eval(context.Background(), sc, &budget); xerr != nil {
		t.Fatal(xerr.Msg)
	}
	if 1000-budget != 2*cost {
		t.Errorf("two evaluations cost %d, want %d", 1000-budget, 2*cost)
	}
	// What is left does not pay for another evaluation.
	budget = cost - 1
	_, xerr = p.Eval(context.Background(), sc, &budget)
	if xerr == nil || xerr.Limit != "MaxCostPerRender" ||
		xerr.Msg != "the render's CEL cost budget is used up (MaxCostPerRender); if this is intended, raise it with the command line's --max-cost-per-render (reference §7)" {
		t.Fatalf("got %+v, want the render budget error", xerr)
	}
	if budget != 0 {
		t.Errorf("budget left %d, want 0", budget)
	}
	// A long loop stops as soon as the budget is spent, not at the
	// per-expression limit.
	p, _ = c.Compile(`lists.range(1000000).map(x, x).size()`, nil)
	budget = 5000
	_, xerr = p.Eval(context.Background(), sc, &budget)
	if xerr == nil || xerr.Limit != "MaxCostPerRender" {
		t.Fatalf("got %+v, want the render budget error", xerr)
	}
	// Constants and variable reads are free.
	p, _ = c.Compile(`xs[0]`, sc.has)
	budget = 0
	if _, xerr := p.Eval(context.Background(), sc, &budget); xerr != nil {
		t.Errorf("a free expression with no budget left: %s", xerr.Msg)
	}
}

func TestCELEnv_cancellation(t *testing.T) {
	unlimited := NewCache(0)
	p, xerr := unlimited.Compile(`lists.range(1000000).map(x, lists.range(1000000).map(y, x + y).size()).size()`, nil)
	if xerr != nil {
		t.Fatal(xerr.Msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go cancel() // before or during the evaluation: the answer is the same
	_, xerr = p.Eval(ctx, testScope{}, nil)
	if xerr == nil || xerr.Msg != "rendering cancelled: context canceled" || xerr.Limit != "" {
		t.Fatalf("got %+v, want the cancellation error", xerr)
	}
	dctx, dcancel := context.WithDeadline(context.Background(), deadlinePassed)
	defer dcancel()
	_, xerr = p.Eval(dctx, testScope{}, nil)
	if xerr == nil || xerr.Msg != "rendering cancelled: context deadline exceeded" {
		t.Fatalf("got %+v, want the deadline error", xerr)
	}
}

func TestCELEnv_unknownValuesPropagate(t *testing.T) {
	vars := map[string]value.Value{
		"u":  value.Unknown{},
		"k":  int64(1),
		"m":  celTestMap("known", "yes", "u", value.Unknown{}),
		"ul": []value.Value{"a", value.Unknown{}},
	}
	runCELCases(t, vars, []celCase{
		// Reading the unknown gives unknown.
		{`u`, `unknown`},
		{`u.x`, `unknown`},
		{`u.x.y`, `unknown`},
		{`u[0]`, `unknown`},
		{`u + 1`, `unknown`},
		{`'x-' + u`, `unknown`},
		{`size(u)`, `unknown`},
		{`u == 1`, `unknown`},
		{`u.map(x, x + 1)`, `unknown`},
		{`u.all(x, x > 0)`, `unknown`},
		{`u.filter(x, x > 0).size()`, `unknown`},
		{`u ? 1 : 2`, `unknown`},
		{`m.u`, `unknown`},
		{`m.u + 'x'`, `unknown`},
		{`[u, 1]`, `unknown`},
		{`{'a': u}`, `unknown`},
		{`json.encode(m)`, `unknown`},
		{`yaml.encode(ul)`, `unknown`},
		{`ul.join(',')`, `unknown`},
		{`ul.map(x, x + '!')`, `unknown`},
		{`'%s'.format([u])`, `unknown`},
		// Not reading it stays known.
		{`k + 1`, `2`},
		{`m.known`, `"yes"`},
		{`ul.size()`, `2`},
		{`ul[0]`, `"a"`},
		{`'u' in m`, `true`},
		{`true || u`, `true`},
		{`u || true`, `true`},
		{`false && u`, `false`},
		{`u && false`, `false`},
		{`k == 1 ? 'one' : u`, `"one"`},
	})
	// An unknown whole value converts both ways.
	if _, ok := ToCEL(value.Unknown{}).(*types.Unknown); !ok {
		t.Errorf("toCEL(value.Unknown{}) = %T", ToCEL(value.Unknown{}))
	}
	v, present, err := FromCEL(types.NewUnknown(7, nil))
	if v != (value.Unknown{}) || !present || err != nil {
		t.Errorf("fromCEL(unknown) = %v, %v, %v", v, present, err)
	}
}

func TestCELEnv_errorMessagesNeverShowVariableValues(t *testing.T) {
	const secret = "Zq9SECRETzq"
	const secretNum = int64(987654321)
	vars := map[string]value.Value{
		"secret": secret,
		"num":    secretNum,
		"m":      celTestMap("a", "x"),
		"pat":    "(" + secret,
		"yml":    secret + ": 1\n" + secret + ": 2\n",
		"tag":    "!" + secret + " x",
		"js":     `{"` + secret + `": tru}`,
		"anch":   "a: *" + secret,
		"list":   []value.Value{secret, secret},
	}
	exprs := []string{
		`m[secret]`, `m[num]`, `[1][num]`, `secret[0]`, `secret.x`, `list[num]`,
		`int(secret)`, `uint(secret)`, `double(secret)`, `bool(secret)`, `duration(secret)`, `timestamp(secret)`,
		`'x'.matches(pat)`, `secret.matches(pat)`, `regex.replace('a', pat, 'b')`, `regex.extract('a', pat)`, `regex.extractAll('a', pat)`,
		`'a'.find(pat)`, `'a'.findAll(pat)`,
		`quantity(secret)`, `url(secret)`, `ip(secret)`, `cidr(secret)`, `semver(secret)`, `semver(secret, true)`, `ip(secret).family()`,
		`[num].join()`, `list.join(num)`, `json.decode(secret)`, `json.decode(js)`, `yaml.decode(yml)`, `yaml.decode(tag)`, `yaml.decode(anch)`,
		`yaml.decode(secret + ': [')`, `lists.range(num)`, `secret.charAt(num)`, `secret.substring(num)`, `secret.substring(num, 1)`,
		`{secret: 1}[secret + 'x']`, `secret + 1`, `num + secret`, `'%d'.format([secret])`, `'%s %s'.format([secret])`,
		`{'a': secret, 'b': secret}.transformMapEntry(k, v, {v: k})`, `list.sort()[num]`,
		`num * num * num`, `int(1.0e300 + double(num))`, `secret.replace('a', 'b', secret)`, `format.named(secret).value()`,
		`[1, 2].flatten(-num)`, `base64.decode(secret + '!')`, `list.min() + 1`, `list.map(x, x / 2)`,
		`cel.bind(x, secret, x.y)`, `{'k': num}.k / 0`, `secret.split(num)`, `m.a.b`, `dyn(secret).z`, `[secret].exists(x, x.size() / 0 > 1)`,
	}
	for _, e := range exprs {
		got := celResult(celTestCache, e, vars)
		if !strings.HasPrefix(got, "error: ") && !strings.Contains(e, "decode(secret + '!')") {
			t.Errorf("%s: gave %s, want an error", e, got)
			continue
		}
		if strings.Contains(got, secret) || strings.Contains(got, "SECRET") || strings.Contains(got, strconv.FormatInt(secretNum, 10)) {
			t.Errorf("%s: the message shows the secret: %s", e, got)
		}
	}
}

func TestCELEnv_messagesNameTypesAndFunctions(t *testing.T) {
	vars := map[string]value.Value{"s": "x", "m": celTestMap("a", int64(1))}
	runCELCases(t, vars, []celCase{
		{`1 + 1.0`, `error: no matching overload for int + double; CEL never mixes int, uint and double: convert one side, e.g. double(x) or int(x)`},
		{`1u * 2`, `error: no matching overload for uint * int; CEL never mixes int, uint and double: convert one side, e.g. double(x) or int(x)`},
		{`s + 1`, `error: no matching overload for string + int; CEL never turns a value into text on its own: write string(x), or interpolate it: $eval: "name-${{ x }}"`},
		{`true + s`, `error: no matching overload for bool + string; CEL never turns a value into text on its own: write string(x), or interpolate it: $eval: "name-${{ x }}"`},
		{`s + null`, `error: no matching overload for string + null_type; one side is null: test for it first, e.g. x != null ? … : …, or m.?key.orValue(…) for a missing key`},
		{`[1] + 2`, `error: no matching overload for list + int; to add one element to a list, wrap it in a list: xs + [x]`},
		{`[s] + s`, `error: no matching overload for list + string; to add one element to a list, wrap it in a list: xs + [x]`},
		{`s - 1`, `error: no matching overload for string - int`},
		{`s && true`, `error: no matching overload for string && bool; CEL has no truthiness: write truthy(x) for Helm's notion of set, or compare explicitly, e.g. x != '', size(x) > 0 or x != null`},
		{`false || 1`, `error: no matching overload for bool || int; CEL has no truthiness: write truthy(x) for Helm's notion of set, or compare explicitly, e.g. x != '', size(x) > 0 or x != null`},
		{`s ? 1 : 2`, `error: no matching overload for string ? … : …; CEL has no truthiness: write truthy(x) for Helm's notion of set, or compare explicitly, e.g. x != '', size(x) > 0 or x != null`},
		{`size(true)`, `error: no matching overload for size(bool)`},
		{`s.join(1)`, `error: no matching overload for string.join(int)`},
		{`!1`, `error: no matching overload for !int; CEL has no truthiness: write truthy(x) for Helm's notion of set, or compare explicitly, e.g. x != '', size(x) > 0 or x != null`},
		{`-'a'`, `error: no matching overload for -string`},
		{`m + m`, `error: no matching overload for map + map`},
		{`math.sqrt('x')`, `error: no matching overload for math.sqrt(string)`},
		{`foo(1)`, `error: unknown function foo`},
		{`s.foo()`, `error: unknown function foo`},
		{`s.startswith('x')`, `error: unknown function startswith; did you mean 'startsWith'?`},
		{`s.upper()`, `error: unknown function upper; did you mean 'upperAscii'?`},
		{`jsonencode(m)`, `error: unknown function jsonencode; did you mean 'json.encode'?`},
		{`[1].exist(true)`, `error: unknown function exist; did you mean 'exists'?`},
		{`[1].sumOf()`, `error: unknown function sumOf; did you mean 'sum'?`},
		{`json.encde(m)`, `error: unknown function json.encde; did you mean 'json.encode'?`},
		{`math.sqr(4.0)`, `error: unknown function math.sqr; did you mean 'math.sqrt'?`},
		{`nope.thing(1)`, `error: no such attribute(s): nope`},
		{`[1].exist(x, x > 0)`, `error: unknown function exist; did you mean 'exists'?`},
		{`cel.bnd(x, 1, x)`, `error: unknown function cel.bnd; did you mean 'cel.bind'?`},
		{`[nope].size()`, `error: no such attribute(s): nope`},
		{`nope + 1`, `error: no such attribute(s): nope`},
		{`m.b`, `error: no such key 'b'; test for it with has(m.b), or give a default with m.?b.orValue(…)`},
		{`m['b c']`, `error: no such key 'b c'; test for it with 'b c' in m, or give a default with m[?'b c'].orValue(…)`},
		{`m[s]`, `error: no such key`},
		{`m['it\'s']`, `error: no such key`},
		{`{'x': m}.x.b`, `error: no such key 'b'`},
		{`s.b`, `error: no such key 'b' in a value of type string; only a map has keys`},
		{`[1].map(v, v.b)`, `error: no such key 'b'`},
		{`[m].map(v, v.b)`, `error: no such key 'b'`},
		{`[m].map(s, s.b)`, `error: no such key 'b'`},
		{`[1][2]`, `error: index out of range`},
		{`1 / 0`, `error: division by zero`},
		{`9223372036854775807 + 1`, `error: integer overflow`},
	})
}

// Names and operators of HCL, Helm, Python and JavaScript that CEL spells
// differently are answered with the CEL way to write them.
func TestCELEnv_foreignIdiomsGetTheCELSpelling(t *testing.T) {
	vars := map[string]value.Value{"s": "a,b", "xs": []value.Value{int64(1), int64(2)}, "m": celTestMap("k", "v"), "b": true}
	runCELCases(t, vars, []celCase{
		{`len(xs)`, `error: unknown function len; CEL writes size(x), or x.size()`},
		{`xs.length()`, `error: unknown function length; CEL writes size(x), or x.size()`},
		{`s.toUpperCase()`, `error: unknown function toUpperCase; CEL writes upperAscii()`},
		{`s.strip()`, `error: unknown function strip; CEL writes trim()`},
		{`default(s, 'x')`, `error: unknown function default; CEL writes x.?key.orValue(fallback) for a missing key; to replace '' and 0 too, as Helm's default does: optional.ofNonZeroValue(x.?key.orValue('')).orValue(fallback)`},
		{`m.keys()`, `error: unknown function keys; CEL writes m.map(k, k)`},
		{`xs.append(3)`, `error: unknown function append; CEL writes xs + [x]`},
		{`now()`, `error: unknown function now; CEL writes no clock, so that output never changes between runs: pass a timestamp in the context`},
		{`toJson(m)`, `error: unknown function toJson; CEL writes json.encode(x)`},
		{`xs.length`, `error: a list has no field 'length'; write size(x) for its length`},
		{`xs.first`, `error: a list has no field 'first'`},
		{`s.length`, `error: no such key 'length' in a value of type string; only a map has keys; write size(x) for its length`},
		{`xs[-1]`, `error: index out of range; CEL has no negative indexes: the last element is xs[size(xs) - 1]`},
		{`xs[5]`, `error: index out of range`},
		{`xs.contains(1)`, `error: no matching overload for list.contains(int); to test whether a list holds a value, write x in xs`},
		{`s.contains('a')`, `true`},
		{`uuid()`, `error: unknown function uuid; CEL writes no randomness, so that output never changes between runs: make the value in Terraform and pass it in the context`},
		{`noSuchThing()`, `error: unknown function noSuchThing`},
		{`s = 'a'`, `error: Syntax error: token recognition error at: '= '; compare with == (CEL has no = or ===)`},
		{`s === 'a'`, `error: Syntax error: token recognition error at: '= '; compare with == (CEL has no = or ===)`},
		{`b and b`, `error: Syntax error: mismatched input 'and' expecting the end of the expression; CEL writes &&, || and ! for and, or and not`},
		{`not b`, `error: Syntax error: extraneous input 'b' expecting the end of the expression; CEL writes &&, || and ! for and, or and not`},
		{`s | upper`, `error: Syntax error: token recognition error at: '| '; CEL has no pipes: call a function or a method, e.g. s.upperAscii(), and write || for or`},
		{`xs.filter(x => x > 1)`, `error: Syntax error: token recognition error at: '=>'; a macro takes a variable name and an expression, not a lambda: xs.filter(x, x > 1)`},
		// inside string literals these are text, and the error is CEL's own
		{`'a = b' +`, "error: Syntax error: the expression ends too early, expecting a value"},
		{`[1, 2`, "error: Syntax error: the expression ends too early, expecting ']' or ','"},
		{`size(`, "error: Syntax error: the expression ends too early, expecting a value or ')'"},
		{`size(1`, "error: Syntax error: missing ')' at the end of the expression"},
		{`'x and y' ~= s`, `error: Syntax error: token recognition error at: '~'`},
		{`m.or`, `error: no such key 'or'; test for it with has(m.or), or give a default with m.?or.orValue(…)`},
	})
}

// No foreign name shadows a function of the environment: the hint is for
// calls that would fail anyway.
func TestCELEnv_foreignFunctionsAreNotFunctions(t *testing.T) {
	for _, name := range hint.ForeignFunctionNames() {
		if celTestCache.isFunction(name) {
			t.Errorf("%s is a function of the environment; its hint would never be seen", name)
		}
	}
}

func TestCELEnv_errorOffsets(t *testing.T) {
	cases := []struct {
		expr   string
		offset int
		msg    string
	}{
		{`1 +`, 3, "Syntax error: the expression ends too early, expecting a value"},
		{`(1,2)`, 2, "Syntax error: mismatched input ',' expecting ')'"},
		{"a\n  + \n  ]", 9, "Syntax error: mismatched input ']' expecting a value"},
		{`'abc`, 0, "Syntax error: token recognition error at: ''abc'"},
		{`x + 1.0`, 2, "no matching overload for int + double; CEL never mixes int, uint and double: convert one side, e.g. double(x) or int(x)"},
		{`'ééé' + 1`, 9, `no matching overload for string + int; CEL never turns a value into text on its own: write string(x), or interpolate it: $eval: "name-${{ x }}"`},
		{`m.b`, 1, "no such key 'b'; test for it with has(m.b), or give a default with m.?b.orValue(…)"},
		{`[1, 2].map(v, v / 0)`, 16, "division by zero"},
	}
	vars := map[string]value.Value{"x": int64(1), "m": celTestMap("a", int64(1))}
	for _, tc := range cases {
		_, xerr := celRun(celTestCache, tc.expr, vars)
		if xerr == nil {
			t.Errorf("%q: no error", tc.expr)
			continue
		}
		if xerr.Offset != tc.offset || xerr.Msg != tc.msg {
			t.Errorf("%q: got offset %d %q, want %d %q", tc.expr, xerr.Offset, xerr.Msg, tc.offset, tc.msg)
		}
	}
}

func TestCELEnv_nestingAndSizeLimits(t *testing.T) {
	cases := []struct{ expr, want string }{
		{strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000), "the expression is nested too deeply or is too large: expression recursion limit exceeded: 200"},
		{strings.Repeat("[", 300) + strings.Repeat("]", 300), "the expression is nested too deeply or is too large: expression recursion limit exceeded: 200"},
		{strings.Repeat("1+", 60000) + "1", "the expression is longer than 102400 bytes"},
		{"'\xff'", "the expression is not valid UTF-8"},
	}
	for _, tc := range cases {
		_, xerr := celTestCache.Compile(tc.expr, nil)
		if xerr == nil || xerr.Msg != tc.want {
			t.Errorf("%.20q...: got %+v, want %q", tc.expr, xerr, tc.want)
		}
	}
}

func TestCELEnv_sanitizeMsg(t *testing.T) {
	cases := []struct{ in, want string }{
		{"no such key: hunter2", "no such key"},
		{"index out of bounds: 77", "index out of range"},
		{"index '5' out of range in list size '2'", "index out of range"},
		{"error parsing regexp: missing closing ): `(hunter2`", "invalid regular expression: missing closing )"},
		{"join: invalid input: 77", "join: the list holds a value that is not a string"},
		{"insert failed: key hunter2 already exists", "the map would hold the same key twice"},
		{"invalid substring range. start: 3, end: 1", "invalid substring range"},
		{"internal error: runtime error: hunter2", "internal error while evaluating the expression"},
		{"type conversion error from 'string' to 'int'", "type conversion error from 'string' to 'int'"},
		{`parse "hunter2": invalid`, "parse …: invalid"},
		{"lists.range: size 77 exceeds maximum allowed (1000000)", "lists.range: the size exceeds maximum allowed (1000000)"},
	}
	for _, tc := range cases {
		if got := celval.Sanitize(tc.in); got != tc.want {
			t.Errorf("celval.Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCELEnv_costCallMatchesCELForEveryCallForm(t *testing.T) {
	// Calls run through costCall; these cover its forms: zero-arity
	// (optional.none), unary, binary, varargs, equality, inequality,
	// receiver-style and non-strict functions.
	runCELCases(t, nil, []celCase{
		{`optional.none().hasValue()`, `false`},
		{`size([1, 2])`, `2`},
		{`'a' + 'b'`, `"ab"`},
		{`'hello'.replace('l', 'L', 1)`, `"heLlo"`},
		{`[1] == [1] && {'a': 1} != {'a': 2}`, `true`},
		{`1 == 'a'`, `false`},
		{`quantity('1').isGreaterThan(quantity('500m'))`, `true`},
		{`[1, 2].exists(x, x / 0 == 1 || x == 2)`, `true`}, // @not_strictly_false is non-strict
		{`[1, 2].all(x, x / 0 == 1)`, `error: division by zero`},
	})
}

// deadlinePassed is a deadline in the past.
var deadlinePassed = time.Unix(1, 0)

func TestCELEnv_scrubQuotedHandlesQuotesInsideValues(t *testing.T) {
	cases := []struct{ in, want string }{
		{`IP Address "hunter2{:}\"x" parse error: ParseAddr("hunter2{:}\"x"): bad (at "\"x")`, `IP Address … parse error: ParseAddr(…): bad (at …)`},
		{`bad value "a"b"c" here`, `bad value … here`},
		{`bad value 'a'b'c' here`, `bad value … here`},
		{`from 'string' to 'int'`, `from 'string' to 'int'`},
		{`value 'it' s' end`, `value … end`},
		{`can't parse "x"`, `can't parse …`},
		{"pattern `a`b` end", "pattern … end"},
		{`open "never closed`, `open …`},
	}
	for _, tc := range cases {
		if got := celval.ScrubQuoted(tc.in); got != tc.want {
			t.Errorf("celval.ScrubQuoted(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func BenchmarkCEL_compileHit(b *testing.B) {
	c := NewCache(testCostLimit)
	sc := celScope(map[string]value.Value{"svc": celTestMap("name", "cart"), "region": "eu"})
	has := sc.has
	c.Compile(`svc.name + '-' + region`, has)
	b.ReportAllocs()
	for b.Loop() {
		c.Compile(`svc.name + '-' + region`, has)
	}
}

func BenchmarkCEL_evalConcat(b *testing.B) {
	c := NewCache(testCostLimit)
	sc := celScope(map[string]value.Value{"svc": celTestMap("name", "cart", "ha", true), "region": "eu", "env": "prod"})
	for _, expr := range []string{`svc.name + '-' + region`, `svc.ha && env == 'prod'`, `svc.name`} {
		p, xerr := c.Compile(expr, sc.has)
		if xerr != nil {
			b.Fatal(xerr.Msg)
		}
		b.Run(expr, func(b *testing.B) {
			b.ReportAllocs()
			budget := uint64(math.MaxUint64)
			ctx := context.Background()
			for b.Loop() {
				p.Eval(ctx, sc, &budget)
			}
		})
	}
}

// functionsGuide is the user guide that lists every CEL function.
const functionsGuide = "../../../templates/guides/functions.md.tmpl"

// Every example in the functions guide gives the result the guide shows:
// same CEL type, same value. A result written `error` must fail.
func TestCELEnv_functionsGuideExamplesHold(t *testing.T) {
	doc, err := os.ReadFile(functionsGuide)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(doc), "{{") {
		t.Error("the guide holds {{, which tfplugindocs would read as a template action")
	}
	rows := guideExamples(string(doc))
	if len(rows) < 200 {
		t.Fatalf("found %d examples in the guide, want at least 200", len(rows))
	}
	for _, r := range rows {
		got, gerr := celRun(celTestCache, r.example, nil)
		if r.result == "error" {
			if gerr == nil {
				t.Errorf("line %d: %s gave %v, the guide says error", r.line, r.example, got)
			}
			continue
		}
		if gerr != nil {
			t.Errorf("line %d: %s: %s", r.line, r.example, gerr.Msg)
			continue
		}
		want, werr := celRun(celTestCache, r.result, nil)
		if werr != nil {
			t.Errorf("line %d: result %s: %s", r.line, r.result, werr.Msg)
			continue
		}
		if g, w := guideForm(got), guideForm(want); g != w {
			t.Errorf("line %d: %s\n got: %s\nwant: %s (%s)", r.line, r.example, g, w, r.result)
		}
	}
}

// Every function and macro of the environment appears in the guide.
func TestCELEnv_functionsGuideCoversEveryFunction(t *testing.T) {
	doc, err := os.ReadFile(functionsGuide)
	if err != nil {
		t.Fatal(err)
	}
	ce, err := sharedEnv()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for name := range ce.env.Functions() {
		if strings.ContainsAny(name, "@_") || name == "in" {
			continue // operators and internal functions
		}
		names = append(names, name)
	}
	for _, m := range ce.env.Macros() {
		names = append(names, m.Function())
	}
	sort.Strings(names)
	for _, name := range names {
		if !strings.Contains(string(doc), name+"(") {
			t.Errorf("the guide does not show %s()", name)
		}
	}
}

type guideExample struct {
	line            int
	example, result string
}

// guideExamples reads the table rows whose last two cells are code.
func guideExamples(doc string) []guideExample {
	var out []guideExample
	for i, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := splitTableRow(line)
		if len(cells) < 3 {
			continue
		}
		ex, res := cells[len(cells)-2], cells[len(cells)-1]
		if !isCodeCell(ex) || !isCodeCell(res) {
			continue
		}
		out = append(out, guideExample{line: i + 1, example: ex[1 : len(ex)-1], result: res[1 : len(res)-1]})
	}
	return out
}

// splitTableRow splits a Markdown table row on unescaped pipes and
// unescapes \| in the cells.
func splitTableRow(line string) []string {
	var cells []string
	var cur strings.Builder
	for i := 1; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cur.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[i])
		}
	}
	return cells
}

func isCodeCell(s string) bool {
	return len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`' && !strings.Contains(s[1:len(s)-1], "`")
}

// guideForm shows a value with its CEL type, so that 1 and 1.0, or 1 and
// optional.of(1), differ.
func guideForm(v ref.Val) string {
	out, present, err := FromCEL(v)
	if err != nil {
		return "error: " + err.Error()
	}
	if !present {
		return celval.CELTypeNameOf(v) + " nothing"
	}
	return celval.CELTypeNameOf(v) + " " + celDump(out)
}
