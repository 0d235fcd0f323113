package engine

import (
	"go.yaml.in/yaml/v3"
)

// The directive table: every $-key of the language, what it needs beside
// it, and how it is compiled. The compiler reads only this table, so adding
// a directive is one entry here and one file for its compile and render
// functions (reference §2 and §4).

// dirKind says what a directive does in its mapping.
type dirKind uint8

const (
	// prelude directives ($schema, $let, $assert) run first and change the
	// scope or stop the render; they produce nothing.
	dirPrelude dirKind = iota
	// producer directives ($if, $for, $eval, $key, $include) produce
	// content: one producer alone replaces its mapping, several merge.
	dirProducer
	// partner directives ($then, $else, $do, $value, $with, $msg) belong to
	// another directive of the same mapping and mean nothing alone.
	dirPartner
)

// directive describes one directive.
type directive struct {
	name string
	kind dirKind
	// needs is the directive this one cannot stand without in its mapping
	// ("" if none): $then needs $if, and $if needs $then.
	needs string
	// missing is the error when needs is absent.
	missing string
	// body marks a directive whose value is a body ($then, $else, $do):
	// one written with no value at all is an error (reference §2).
	body bool
	// prelude compiles a prelude directive into m.
	prelude func(c *compiler, m *mapNode, d dirSet, p kvPair, path string) *compileError
	// produce compiles a producer. path is the mapping's path.
	produce func(c *compiler, d dirSet, p kvPair, path string) (producer, *compileError)
}

// directiveTable lists the directives in evaluation order: preludes, then
// producers, each partner after the directive it belongs to. The order is
// also the order of the missing-partner checks and of "did you mean". It is
// filled by init because its compile functions reach the compiler, which
// reads the table.
var directiveTable []directive

// directiveNames are the names of directiveTable, in its order.
var directiveNames []string

func init() {
	directiveTable = []directive{
		{name: "$schema", kind: dirPrelude,
			prelude: func(c *compiler, m *mapNode, d dirSet, p kvPair, path string) (err *compileError) {
				m.schema, err = compileSchemaDir(p.k, p.v, joinPath(path, "$schema"))
				return err
			}},
		{name: "$let", kind: dirPrelude,
			prelude: func(c *compiler, m *mapNode, d dirSet, p kvPair, path string) (err *compileError) {
				m.lets, err = c.lets(p.k, p.v, joinPath(path, "$let"))
				return err
			}},
		{name: "$assert", kind: dirPrelude,
			prelude: func(c *compiler, m *mapNode, d dirSet, p kvPair, path string) (err *compileError) {
				m.asserts, err = compileAssert(p.k, p.v, d.value("$msg"), joinPath(path, "$assert"))
				return err
			}},
		{name: "$msg", kind: dirPartner, needs: "$assert"},
		{name: "$if", kind: dirProducer, needs: "$then",
			missing: "$if without $then: write the value to use when the condition is true under $then",
			produce: func(c *compiler, d dirSet, p kvPair, path string) (producer, *compileError) {
				return c.ifDir(p.k, p.v, d["$then"], d["$else"], joinPath(path, "$if"))
			}},
		{name: "$then", kind: dirPartner, needs: "$if", body: true},
		{name: "$else", kind: dirPartner, needs: "$if", body: true},
		{name: "$for", kind: dirProducer, needs: "$do",
			missing: "$for without $do: write the body to render for each element under $do",
			produce: func(c *compiler, d dirSet, p kvPair, path string) (producer, *compileError) {
				return c.forDir(p.k, p.v, d["$do"], joinPath(path, "$for"))
			}},
		{name: "$do", kind: dirPartner, needs: "$for", body: true},
		{name: "$eval", kind: dirProducer,
			produce: func(c *compiler, d dirSet, p kvPair, path string) (producer, *compileError) {
				return compileEval(p.k, p.v, joinPath(path, "$eval"))
			}},
		{name: "$key", kind: dirProducer, needs: "$value",
			missing: "$key without $value: $key and $value make one entry together",
			produce: func(c *compiler, d dirSet, p kvPair, path string) (producer, *compileError) {
				return c.kvDir(p.k, p.v, d.value("$value"), path)
			}},
		{name: "$value", kind: dirPartner, needs: "$key",
			missing: "$value without $key: $key and $value make one entry together"},
		{name: "$include", kind: dirProducer,
			produce: func(c *compiler, d dirSet, p kvPair, path string) (producer, *compileError) {
				return c.includeDir(p.k, p.v, d.value("$with"), joinPath(path, "$include"))
			}},
		{name: "$with", kind: dirPartner, needs: "$include"},
	}
	for _, d := range directiveTable {
		directiveNames = append(directiveNames, d.name)
	}
}

// lookupDirective gives the table entry of a directive name.
func lookupDirective(name string) (*directive, bool) {
	for i := range directiveTable {
		if directiveTable[i].name == name {
			return &directiveTable[i], true
		}
	}
	return nil, false
}

// missingMsg is the error for directive d standing without d.needs.
func (d *directive) missingMsg() string {
	if d.missing != "" {
		return d.missing
	}
	return d.name + " without " + d.needs + ": " + d.name + " belongs to " + d.needs + " in the same mapping"
}

// dirSet holds the directives of one mapping by name.
type dirSet map[string]kvPair

// value gives the value node of directive name, or nil when it is absent.
func (d dirSet) value(name string) *yaml.Node {
	if p, ok := d[name]; ok {
		return p.v
	}
	return nil
}
