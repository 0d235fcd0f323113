package directive

import (
	"strings"
	"unicode/utf8"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv/celval"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/emit"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/lex"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/traits"
	"go.yaml.in/yaml/v3"
)

// $for / $do renders the body once per element. Lists are walked in
// order, maps in sorted key order. `x in MAP` binds keys; `a, b in MAP`
// binds key and value; `a, b in LIST` binds index and element.

type forDir struct {
	key     *yaml.Node
	doKey   *yaml.Node
	v1, v2  string
	coll    *tree.ExprRef
	body    tree.Node
	bodySeq bool
	path    string
}

func compileFor(c *tree.Compiler, key, spec *yaml.Node, doP tree.KVPair, path string) (tree.Producer, *tree.CompileError) {
	do := doP.V
	sn := tree.Deref(spec)
	s, ok := tree.StringScalar(sn)
	if !ok {
		return nil, tree.CompileErrorAt(sn, path, `$for takes a string "x in EXPR" or "a, b in EXPR", got `+yamlnode.AKind(sn))
	}
	m := tree.ForSyntax.FindStringSubmatchIndex(s)
	if m == nil || strings.TrimSpace(s[m[1]:]) == "" {
		msg := `$for must be "x in EXPR" or "a, b in EXPR", e.g. "svc in services" or "k, v in labels"`
		if strings.Contains(s, "${{") {
			msg += ", without ${{ }}"
		}
		return nil, tree.CompileErrorAt(sn, path, msg)
	}
	d := &forDir{key: key, doKey: doP.K, path: path, v1: s[m[2]:m[3]]}
	if m[4] >= 0 {
		d.v2 = s[m[4]:m[5]]
		if d.v2 == d.v1 {
			return nil, tree.CompileErrorAt(sn, path, "$for binds "+d.v1+" twice: use two different names")
		}
	}
	for _, v := range []string{d.v1, d.v2} {
		if v != "" && !lex.IsIdent(v) {
			return nil, tree.CompileErrorAt(sn, path, tree.Quote(v)+" is not a valid variable name")
		}
	}
	d.coll = tree.NewExprRef(tree.ExprRef{Text: s[m[1]:], Shown: s, Off: m[1], Node: sn, Path: path, Bare: "$for"})
	var err *tree.CompileError
	if d.body, err = c.Compile(do, path+".$do"); err != nil {
		return nil, err
	}
	d.bodySeq = tree.Deref(do).Kind == yaml.SequenceNode
	return d, nil
}

func (d *forDir) KeyNode() *yaml.Node { return d.key }
func (d *forDir) Name() string        { return "$for" }

// iterate evaluates the collection and calls fn with a scope holding the
// loop variables. unknown reports an unknown collection, *unknownType its
// type when unknownType is not nil.
func (d *forDir) iterate(r tree.ContentRenderer, sc *scope.Scope, fr *diag.Frame, unknownType *value.Type, fn func(it *scope.Scope) error) (n int, unknown bool, err error) {
	coll, err := r.EvalExpr(d.coll, sc, fr)
	if err != nil {
		return 0, false, err
	}
	if _, ok := coll.(*types.Unknown); ok {
		if unknownType != nil {
			*unknownType = celval.UnknownType(coll)
		}
		return 0, true, nil
	}
	it := scope.New(sc, 2)
	it.Bind(d.v1, nil)
	if d.v2 != "" {
		it.Bind(d.v2, nil)
	}
	// The loop variables are the bindings 0 and 1 of it. Entries of a map or
	// list from the template or the variables are bound as engine values.
	if m, ok := celenv.AsMap(coll); ok {
		n, err = d.overMap(r, fr, it, m, fn)
		return n, false, err
	}
	switch c := coll.(type) {
	case traits.Mapper:
		n, err = d.overMapper(r, fr, it, c, fn)
		return n, false, err
	case traits.Lister:
		n, err = d.overList(r, fr, it, c, fn)
		return n, false, err
	}
	return 0, false, &diag.Error{Pos: diag.Pos{File: fr.File, Line: d.coll.Node.Line, Column: d.coll.Node.Column}, Path: d.path,
		Msg: "$for can only iterate over a list or a map, got " + celenv.TypeName(coll), Expr: d.coll.Shown, Offset: d.coll.Off, Chain: fr.Chain}
}

// overMap walks a map from the template or the variables: its keys in
// sorted order, without building an iterator.
func (d *forDir) overMap(r tree.Budget, fr *diag.Frame, it *scope.Scope, m *value.Map, fn func(it *scope.Scope) error) (int, error) {
	keys := m.Keys()
	order := emit.SortedOrder(keys)
	for n := range keys {
		i := n
		if order != nil {
			i = order[n]
		}
		if err := r.Tick(fr, d.key, d.path); err != nil {
			return 0, err
		}
		it.SetValue(0, keys[i])
		if d.v2 != "" {
			_, v := m.At(i)
			it.SetValue(1, v)
		}
		if err := fn(it); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}

// overMapper walks a map that CEL built, in sorted key order.
func (d *forDir) overMapper(r tree.Budget, fr *diag.Frame, it *scope.Scope, m traits.Mapper, fn func(it *scope.Scope) error) (int, error) {
	keys := celenv.SortedKeys(m)
	for _, k := range keys {
		if err := r.Tick(fr, d.key, d.path); err != nil {
			return 0, err
		}
		it.Set(0, k)
		if d.v2 != "" {
			it.Set(1, celenv.Element(m.Get(k)))
		}
		if err := fn(it); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}

// overList walks a list in order; a list from the template or the
// variables binds its elements as engine values.
func (d *forDir) overList(r tree.ContentRenderer, fr *diag.Frame, it *scope.Scope, l traits.Lister, fn func(it *scope.Scope) error) (int, error) {
	size, ok := l.Size().(types.Int)
	if !ok {
		return 0, r.ErrAt(fr, d.coll.Node, d.path, "$for cannot tell the size of the list")
	}
	raw, isRaw := celenv.AsList(l)
	for i := types.Int(0); i < size; i++ {
		if err := r.Tick(fr, d.key, d.path); err != nil {
			return 0, err
		}
		slot := 0 // the element's binding
		if d.v2 != "" {
			it.Set(0, i)
			slot = 1
		}
		if isRaw {
			it.SetValue(slot, raw[i])
		} else {
			it.Set(slot, celenv.Element(l.Get(i)))
		}
		if err := fn(it); err != nil {
			return 0, err
		}
	}
	return int(size), nil
}

func (d *forDir) Value(r tree.ContentRenderer, sc *scope.Scope, fr *diag.Frame) (value.Value, bool, error) {
	var out *value.Map
	unknownBody := false
	// A body that is only $key/$value sets its entry directly, without
	// building a one-entry mapping per iteration.
	var kv *kvDir
	if m, ok := d.body.(*tree.MapNode); ok && m.Replaces() && len(m.Preludes) == 0 {
		kv, _ = m.Prods[0].(*kvDir)
	}
	n, unknown, err := d.iterate(r, sc, fr, nil, func(it *scope.Scope) error {
		if kv != nil {
			k, v, state, err := kv.entry(r, it, fr)
			if err != nil || state == kvNothing {
				return err
			}
			if state == kvUnknown {
				unknownBody = true
				return tree.ErrUnknownShape
			}
			if out == nil {
				out = value.NewMap(4)
			}
			if out.Set(k, v) {
				return r.ErrAt(fr, d.key, d.path, forDupMsg(d, k))
			}
			return nil
		}
		v, ok, err := r.Value(d.body, it, fr)
		if err != nil || !ok || v == nil {
			return err
		}
		switch v := v.(type) {
		case *value.Map:
			if out == nil {
				out = value.NewMap(v.Len())
			}
			for i := 0; i < v.Len(); i++ {
				k, x := v.At(i)
				if out.Set(k, x) {
					// Named only when the template writes it: reference §6.
					return r.ErrAt(fr, d.key, d.path, forDupMsg(d, k))
				}
			}
			return nil
		case value.Unknown:
			unknownBody = true
			return tree.ErrUnknownShape
		}
		return r.ErrAt(fr, d.key, d.path, "in value position each iteration of $for must give a mapping (or nothing), got "+tree.ValueKind(v)+
			"; to build a list, write the $for as an item: `key: [ {$for: …, $do: …} ]`")
	})
	if unknown || unknownBody {
		return value.Unknown{}, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	if n == 0 {
		return nil, false, nil
	}
	if out == nil {
		out = value.NewMap(0)
	}
	if err := r.Count(fr, d.key, d.path, 1, 2); err != nil {
		return nil, false, err
	}
	return out, true, nil
}

func (d *forDir) Multi(r tree.ContentRenderer, sc *scope.Scope, fr *diag.Frame, pos tree.Position, dst []value.Value) ([]value.Value, error) {
	if d.bodySeq && pos == tree.PosStream {
		return dst, r.ErrAt(fr, d.doKey, d.path+".$do", "a $do body written as a sequence cannot stand at a document root: documents are not lists; give one mapping per document")
	}
	var collType value.Type
	_, unknown, err := d.iterate(r, sc, fr, &collType, func(it *scope.Scope) error {
		var err error
		if d.bodySeq {
			dst, err = r.Splice(d.body, d.doKey, d.path+".$do", it, fr, pos, dst)
		} else {
			dst, err = r.Multi(d.body, it, fr, pos, dst)
		}
		return err
	})
	if unknown {
		if pos == tree.PosItem {
			if elem, ok := d.itemType(r, sc, fr, collType); ok {
				return dst, &tree.UnknownItemsError{Elem: elem}
			}
		}
		return dst, tree.ErrUnknownShape
	}
	return dst, err
}

// itemType is the type of every item the $for gives in item position
// over an unknown collection of type coll (reference §4 $for): its body
// rendered once with the loop variables unknown, of the types coll gives
// them (an element of a list(T) or set(T) is a T, its index a number, a
// key of a map a string), must give items, all of one type, which the
// values at apply cannot change. ok is false when it gives nothing, items
// of different types, or an error (the apply reports that with the
// values), or when coll cannot be iterated.
func (d *forDir) itemType(r tree.ContentRenderer, sc *scope.Scope, fr *diag.Frame, coll value.Type) (value.Type, bool) {
	key, elem := value.TypeDynamic, value.TypeDynamic
	switch coll.Kind() {
	case value.KindList, value.KindSet:
		key, elem = value.TypeNumber, coll.Elem()
	case value.KindMap:
		key, elem = value.TypeString, coll.Elem()
	case value.KindObject:
		key = value.TypeString
	case value.KindDynamic, value.KindTuple:
	default:
		return value.TypeDynamic, false // not a collection: an error at apply
	}
	it := scope.New(sc, 2)
	if d.v2 != "" {
		it.BindValue(d.v1, value.UnknownOf(key))
		it.BindValue(d.v2, value.UnknownOf(elem))
	} else {
		one := elem // a list's element
		switch coll.Kind() {
		case value.KindMap, value.KindObject:
			one = key // a map's key
		case value.KindDynamic:
			one = value.TypeDynamic // either
		}
		it.BindValue(d.v1, value.UnknownOf(one))
	}
	var items []value.Value
	var err error
	if d.bodySeq {
		items, err = r.Splice(d.body, d.doKey, d.path+".$do", it, fr, tree.PosItem, nil)
	} else {
		items, err = r.Multi(d.body, it, fr, tree.PosItem, nil)
	}
	if err != nil || len(items) == 0 {
		return value.TypeDynamic, false
	}
	t := value.TypeOfRendered(items[0])
	for _, x := range items[1:] {
		if !value.TypeOfRendered(x).Equal(t) {
			return value.TypeDynamic, false
		}
	}
	return t, true
}

// WritesKey reports whether the body writes key k itself.
func (d *forDir) WritesKey(k string) bool { return tree.WritesKey(d.body, k) }

// forDupMsg is the error for two iterations of a value-position $for that
// give the same key. When the body writes the key itself, the key is
// named, and the list the user probably meant is shown as an item.
func forDupMsg(d *forDir, k string) string {
	if !tree.WritesKey(d.body, k) {
		return "duplicate key: two iterations of this $for produce the same key (the key is not shown, as it may hold a variable's value)"
	}
	return "duplicate key " + tree.Quote(k) + ": every iteration of this $for writes it, and in value position the iterations merge into one mapping; to build a list, write the $for as an item: `" + listKey(d.path) + ": [ {$for: …, $do: …} ]`"
}

// listKey is the key a value-position directive stands under, from its
// path ("spec.ports.$for" gives "ports"), or "key" at a document root.
func listKey(path string) string {
	end := len(path)
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] != '.' {
			continue
		}
		if path[i+1] != '$' {
			return path[i+1 : end]
		}
		end = i
	}
	if end > 0 && path[0] != '$' {
		return path[:end]
	}
	return "key"
}

// For gives the directive table's entries of
// $for and its partner $do (reference §4 $for).
func For() []tree.Directive {
	return []tree.Directive{
		{Name: "$for", Kind: tree.KindProducer, Needs: "$do",
			Exprs: tree.ExprLoop, Bound: tree.BindLoop, BoundKind: "for", Must: tree.MustIterable, Section: 4,
			Summary: "Renders $do once per element: \"x in EXPR\" or \"k, v in EXPR\".",
			Missing: "$for without $do: write the body to render for each element under $do",
			Produce: func(c *tree.Compiler, d tree.DirSet, p tree.KVPair, path string) (tree.Producer, *tree.CompileError) {
				return compileFor(c, p.K, p.V, d["$do"], tree.JoinPath(path, "$for"))
			}},
		{Name: "$do", Kind: tree.KindPartner, Needs: "$for", Body: true,
			Section: 4, Summary: "The body $for renders for each element."},
	}
}

// Describe gives the collection, the loop's names, each at its place in
// the $for string, and the body under $do.
func (f *forDir) Describe() tree.Description {
	return tree.Description{Name: "$for", Key: f.key, Exprs: []*tree.ExprRef{f.coll},
		Binds:  loopNames(f.coll.Node),
		Bodies: []tree.Body{{Key: f.doKey, Name: "$do", Node: f.body}}}
}

// loopNames are the names of the $for string n ("k, v in EXPR"), each
// as a node where it is written: its column counted in the string's
// characters, past the opening quote of a quoted one; the string's own
// column when a line break comes before it.
func loopNames(n *yaml.Node) []tree.BoundName {
	m := tree.ForSyntax.FindStringSubmatchIndex(n.Value)
	if m == nil {
		return nil
	}
	shift := 0
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		shift = 1
	}
	var out []tree.BoundName
	for g := 1; g <= 2; g++ {
		at := m[2*g]
		if at < 0 {
			continue
		}
		col := n.Column + shift + utf8.RuneCountInString(n.Value[:at])
		if strings.Contains(n.Value[:at], "\n") {
			col = n.Column
		}
		name := n.Value[at:m[2*g+1]]
		out = append(out, tree.BoundName{Name: name,
			Node: &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name, Line: n.Line, Column: col}})
	}
	return out
}
