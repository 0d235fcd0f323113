package engine

import (
	"sync"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// Unknown values (terraform plan) flow through the engine: what reads one
// is unknown, what does not stays known, and a structure decided by one is
// unknown at the smallest enclosing node.

func TestRender_unknownValues(t *testing.T) {
	vars := map[string]value.Value{
		"image": value.Unknown{},
		"name":  "cart",
		"flag":  value.Unknown{},
		"list":  value.Unknown{},
		"mixed": []value.Value{value.Unknown{}, "cart"},
		"svc":   mapOf("name", "cart", "port", value.Unknown{}),
	}
	cases := []struct{ name, tmpl, want string }{
		{"eval exact reading unknown", "image: {$eval: '${{ image }}'}\nname: {$eval: '${{ name }}'}\n", `{image:?,name:"cart"}`},
		{"eval mixed with unknown segment", "ref: {$eval: 'repo/${{ image }}:1'}\n", `{ref:?string}`},
		{"unknown leaf inside a known map", "port: {$eval: '${{ svc.port }}'}\nn: {$eval: '${{ svc.name }}'}\n", `{port:?,n:"cart"}`},
		{"if in value position", "a:\n  $if: flag\n  $then: 1\nb: 2\n", `{a:?,b:2}`},
		{"if merged beside keys makes the mapping unknown", "outer:\n  a: 1\n  $if: flag\n  $then: {b: 2}\nc: 3\n", `{outer:?,c:3}`},
		{"if in item position with two plain branches is one unknown item", "- 0\n- $if: flag\n  $then: 1\n  $else: 2\n- 3\n", `[0,?number,3]`},
		{"if in item position without else makes the sequence unknown", "s:\n  - 0\n  - $if: flag\n    $then: 1\nt: 1\n", `{s:?,t:1}`},
		{"for over unknown in item position is a list of its items' type", "s:\n  - $for: x in list\n    $do: 1\nt: 1\n", `{s:?list(number),t:1}`},
		{"for over unknown in value position", "s:\n  $for: k, v in list\n  $do: {$key: '${{ k }}', $value: 1}\nt: 1\n", `{s:?,t:1}`},
		{"for over known list with unknown elements", "s:\n  - $for: x in mixed\n    $do: {$eval: '${{ x }}'}\n", `{s:[?,"cart"]}`},
		{"key unknown", "m:\n  $key: {$eval: '${{ image }}'}\n  $value: 1\n", `{m:?}`},
		{"assert undecidable makes its mapping unknown", "m:\n  $assert: flag\n  a: 1\nb: 2\n", `{m:?,b:2}`},
		{"let binding an unknown flows on", "$let:\n  img: image + ':1'\n  n: name\nref: {$eval: '${{ img }}'}\nn: {$eval: '${{ n }}'}\n", `{ref:?string,n:"cart"}`},
		{"short-circuit keeps known", "a: {$eval: '${{ true || flag }}'}\n", `{a:true}`},
		{"include path unknown", "a:\n  $include: {$eval: '${{ image }}.yaml'}\nb: 1\n", `{a:?,b:1}`},
		{"document-root for over unknown makes the stream unknown", "$for: x in list\n$do: {a: 1}\n", `<stream?>`},
		{"document root if unknown makes the stream unknown", "$if: flag\n$then: {a: 1}\n", `<stream?>`},
	}
	e := New(Options{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := renderInline(t, e, c.tmpl, vars); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// An unknown keeps the most precise type known (the unknown-values guide,
// "Unknown values keep their type"): mixed text is a string; a name or a
// field chain gives the unknown stored there with its type; an expression
// gives the type CEL's checker finds for it whatever its variables hold.
// Nothing else is typed: an unknown inside a list or map that CEL built is
// dynamic, since a call on an unknown argument passes that unknown on as
// its own result (size(s) gives s's unknown, a string, where an int will
// be).
func TestRender_unknownsKeepTheirType(t *testing.T) {
	vars := map[string]value.Value{
		"s":     value.Unknown{Type: value.TypeString},
		"n":     value.Unknown{Type: value.TypeNumber},
		"b":     value.Unknown{Type: value.TypeBool},
		"d":     value.Unknown{},
		"svc":   mapOf("port", value.Unknown{Type: value.TypeNumber}, "tag", value.Unknown{Type: value.TypeString}),
		"names": []value.Value{value.Unknown{Type: value.TypeString}, "a"},
		"flag":  true,
	}
	cases := []struct{ name, expr, want string }{
		{"mixed text is a string", "img:${{ d }}", "?string"},
		{"mixed text of a number is a string", "${{ n }}s", "?string"},
		{"a string variable", "${{ s }}", "?string"},
		{"a number variable", "${{ n }}", "?number"},
		{"a bool variable", "${{ b }}", "?bool"},
		{"an untyped variable stays dynamic", "${{ d }}", "?"},
		{"a field of a map", "${{ svc.port }}", "?number"},
		{"a field read through CEL", "${{ (svc.tag) }}", "?string"},
		{"a name read through CEL", "${{ (s) }}", "?string"},
		{"a field of an unknown is dynamic", "${{ s.field }}", "?"},
		{"an element of a known list at a constant index", "${{ names[0] }}", "?string"},
		{"a field of a map by a constant key", "${{ svc['port'] }}", "?number"},
		{"an index of a string unknown is dynamic", "${{ s[0] }}", "?"},
		{"an index that is not a constant is left to the checker", "${{ names[size(names) - 2] }}", "?"},
		{"concatenation with a string", "${{ d + '-x' }}", "?string"},
		{"size is an int", "${{ size(s) }}", "?number"},
		{"arithmetic with an int", "${{ d * 2 }}", "?number"},
		{"a comparison is a bool", "${{ d > 2 }}", "?bool"},
		{"equality is a bool", "${{ n == 3 }}", "?bool"},
		{"has() is a bool", "${{ has(d.x) }}", "?bool"},
		{"a string method", "${{ d.lowerAscii() }}", "?string"},
		{"a conversion to string", "${{ string(n) }}", "?string"},
		{"a conversion to int", "${{ int(s) }}", "?number"},
		{"json.encode is a string", "${{ json.encode(svc) }}", "?string"},
		{"a call that fails on an unknown element", "${{ names.join(',') }}", "?string"},
		{"a conditional the checker cannot type", "${{ flag ? s : 1 }}", "?"},
		{"a list literal holding an unknown is unknown", "${{ [s, size(s)] }}", "?"},
		{"a list that CEL built holds dynamic unknowns", "${{ names + ['b'] }}", `[?,"a","b"]`},
	}
	e := New(Options{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := "{v:" + c.want + "}"
			if got := renderInline(t, e, "v: {$eval: \""+c.expr+"\"}\n", vars); got != want {
				t.Errorf("%s: got  %s\nwant %s", c.expr, got, want)
			}
		})
	}
	bound := []struct{ name, tmpl, want string }{
		{"a $let of a name keeps its type", "$let: {x: s}\nv: {$eval: '${{ x }}'}\n", "{v:?string}"},
		{"a $let of an expression has its type", "$let: {x: size(s)}\nv: {$eval: '${{ x }}'}\n", "{v:?number}"},
		{"a $for over a list that CEL built binds dynamic unknowns", "v:\n  - $for: x in names + ['b']\n    $do: {$eval: '${{ x }}'}\n", `{v:[?,"a","b"]}`},
		{"an undecided $if between two strings is a string", "v:\n  $if: b\n  $then: Always\n  $else: IfNotPresent\n", "{v:?string}"},
		{"an undecided $if between a number and null is a number", "v:\n  $if: b\n  $then: 3\n  $else: null\n", "{v:?number}"},
		{"an undecided $if in item position between two bools is a bool", "v:\n  - $if: b\n    $then: true\n    $else: false\n", "{v:[?bool]}"},
		{"an undecided $if between a string and a number is dynamic", "v:\n  $if: b\n  $then: a\n  $else: 1\n", "{v:?}"},
		{"an undecided $if without $else is dynamic", "v:\n  $if: b\n  $then: a\n", "{v:?}"},
		{"an undecided $if between mappings is dynamic", "v:\n  $if: b\n  $then: {a: 1}\n  $else: {a: 2}\n", "{v:?}"},
		{"a $for over engine values keeps their types", "v:\n  - $for: x in names\n    $do: {$eval: '${{ x }}'}\n", `{v:[?string,"a"]}`},
	}
	for _, c := range bound {
		t.Run(c.name, func(t *testing.T) {
			if got := renderInline(t, e, c.tmpl, vars); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// A variable's $schema types the unknowns of dynamic type in its value,
// where it allows one primitive type (the unknown-values guide): through
// properties, items and $ref. An unknown that came typed keeps its type;
// a schema that allows several types, or none, leaves it dynamic.
func TestRender_schemaTypesUnknowns(t *testing.T) {
	vars := map[string]value.Value{
		"img":   value.Unknown{},
		"n":     value.Unknown{},
		"on":    value.Unknown{},
		"level": value.Unknown{},
		"app":   mapOf("tag", value.Unknown{}, "ports", []value.Value{value.Unknown{}, int64(80)}, "other", value.Unknown{}),
		"ref":   value.Unknown{},
		"raw":   value.Unknown{},
		"multi": value.Unknown{},
		"came":  value.Unknown{Type: value.TypeString},
	}
	tmpl := `$schema:
  img: {type: string}
  n: {type: integer}
  on: {type: [boolean, "null"]}
  level: {enum: [low, high]}
  app:
    type: object
    properties:
      tag: {type: string}
      ports: {type: array, items: {type: number}}
  ref: {$ref: "#/$defs/name", $defs: {name: {type: string}}}
  raw: {}
  multi: {type: [string, integer]}
  came: {type: integer}
v:
  img: {$eval: "${{ img }}"}
  n: {$eval: "${{ n }}"}
  on: {$eval: "${{ on }}"}
  level: {$eval: "${{ level }}"}
  app: {$eval: "${{ app }}"}
  ref: {$eval: "${{ ref }}"}
  raw: {$eval: "${{ raw }}"}
  multi: {$eval: "${{ multi }}"}
  came: {$eval: "${{ came }}"}
`
	want := `{v:{img:?string,n:?number,on:?bool,level:?string,app:{tag:?string,ports:[?number,80],other:?},ref:?string,raw:?,multi:?,came:?string}}`
	if got := renderInline(t, New(Options{}), tmpl, vars); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if _, ok := vars["app"].(*value.Map).Get("tag"); !ok || dump(vars["app"]) != `{tag:?,ports:[?,80],other:?}` {
		t.Errorf("the caller's variable changed: %s", dump(vars["app"]))
	}
}

// Renders that share an engine type the unknown results of the same
// programs at once, the first time each gives one; each gets the type.
func TestRender_unknownTypesConcurrently(t *testing.T) {
	e := New(Options{})
	vars := map[string]value.Value{"d": value.Unknown{}, "s": value.Unknown{Type: value.TypeString}}
	tmpl := "a: {$eval: \"${{ d + 'x' }}\"}\nb: {$eval: \"${{ size(s) }}\"}\nc: {$eval: \"${{ d > 1 }}\"}\nd: {$eval: \"${{ s }}\"}\n"
	const want = "{a:?string,b:?number,c:?bool,d:?string}"
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			docs, err := e.Render(t.Context(), Source{Text: []byte(tmpl)}, vars)
			if err != nil {
				got[i] = err.Error()
				return
			}
			got[i] = dump(docs[0])
		}()
	}
	wg.Wait()
	for i, g := range got {
		if g != want {
			t.Errorf("render %d: got %s, want %s", i, g, want)
		}
	}
}

func TestEval_unknownOnlyWhenRead(t *testing.T) {
	e := New(Options{})
	vars := map[string]value.Value{"a": value.Unknown{}, "b": int64(2)}
	v, err := e.Eval(t.Context(), "a + 1", vars)
	if err != nil || !isUnknownValue(v) {
		t.Errorf("a + 1 = %s, %v; want unknown", dump(v), err)
	}
	v, err = e.Eval(t.Context(), "b + 1", vars)
	if err != nil || dump(v) != "3" {
		t.Errorf("b + 1 = %s, %v; want 3", dump(v), err)
	}
}

func mapOf(kv ...value.Value) *value.Map {
	m := value.NewMap(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}

func isUnknownValue(v value.Value) bool {
	_, ok := v.(value.Unknown)
	return ok
}

// Overlays on unknown values (reference §8): an overlay condition that
// cannot be decided makes its document unknown, an undecidable list edit
// makes its sequence unknown, unknown patch values make unknown leaves,
// and an $expects is an error only once no value could meet it.
func TestOverlay_unknownValues(t *testing.T) {
	vars := map[string]value.Value{
		"image": value.Unknown{},
		"flag":  value.Unknown{},
		"list":  value.Unknown{},
		"svc":   mapOf("name", "cart", "port", value.Unknown{}),
	}
	cases := []struct{ name, tmpl, want string }{
		{"undecidable condition makes the document unknown",
			"a: 1\n---\n$overlay: flag\nx: 1\n", `?`},
		{"unknown patch value makes an unknown leaf",
			"kind: A\n---\n$overlay: 'true'\nimage: {$eval: '${{ image }}'}\n", `{kind:"A",image:?}`},
		{"undecidable match makes the sequence unknown",
			"xs: [1, 2]\nn: 1\n---\n$overlay: 'true'\nxs:\n  - $match: item == svc.port\n    y: 1\n", `{xs:?,n:1}`},
		{"undecidable expects is not an error",
			"a: 1\n---\nb: 2\n---\n$overlay: flag\n$expects: 1\nx: 1\n", `? | ?`},
		{"expects no unknown could meet is an error",
			"k: 1\n---\nk: 1\n---\nk: 2\n---\n$overlay: doc.k == 1 || flag\n$expects: 1\nx: 1\n",
			"error: <inline>:8:1: $overlay: this overlay expects 1 matching document, and 2 of the 3 rendered documents matched"},
		{"a document left unknown stays unknown for later overlays",
			"a: 1\n---\n$overlay: flag\nx: 1\n---\n$overlay: doc.a == 1\n$expects: '0+'\ny: 1\n", `?`},
		{"an unknown stream is not edited",
			"$for: x in list\n$do: {a: 1}\n---\n$overlay: 'true'\nb: 1\n", `<stream?>`},
	}
	e := New(Options{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := renderInline(t, e, c.tmpl, vars); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}
