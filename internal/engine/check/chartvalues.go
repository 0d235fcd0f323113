package check

import (
	"encoding/json"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	helmchart "helm.sh/helm/v4/pkg/chart/v2"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/chart"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/loader"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/segment"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"go.yaml.in/yaml/v3"
)

// A $chart document's $values (reference §11 `$chart`) against the chart
// it names: Helm merges a key that the chart's values.yaml does not have
// and ignores it without a word, so a misspelt key (`crds: {enabeld:
// true}`) installs the chart's default. check warns about such a key, with
// "did you mean", unless the chart's values.schema.json allows it; and
// where the chart has a values.schema.json, about a value whose type the
// schema refuses, and a key a closed schema refuses, saying that Helm
// refuses them. They are warnings so that check still renders when it
// can: the render's error, Helm's, is then reported too, at $values.

// chartValues checks the $values of the compiled $chart document desc,
// whose $chart names a local chart, with the names of scope in scope and
// the types the walk declared for them (typecheck.go). A problem
// elsewhere in the document does not hide these: check compiles it with
// that problem excised; what an excision took from $values is read as
// written (valueNode).
func (ck *checker) chartValues(fr *diag.Frame, desc tree.Description, scope []string) {
	t := ck.e.Table()
	loads, _ := t.With(func(d *tree.Directive) bool { return d.Loads })
	values, _ := t.With(func(d *tree.Directive) bool { return d.Values && d.Needs == loads.Name })
	if loads.Name == "" || values.Name == "" || desc.Name != loads.Name {
		return
	}
	var src, vals tree.Node
	for _, b := range desc.Bodies {
		switch {
		case b.Beside:
		case b.Key == nil:
			src = b.Node
		case b.Name == values.Name:
			vals = b.Node
		}
	}
	vc := valuesCheck{ck: ck, fr: fr, scope: scope, table: t}
	valuesN, ok := vc.valueNode(vals)
	if !ok || valuesN.y.Kind != yaml.MappingNode {
		return
	}
	k, ok := src.(*tree.ConstNode)
	if !ok {
		return // an expression: nothing to read
	}
	p, ok := k.Value.(string)
	if !ok {
		if p, ok = ck.remoteChart(tree.Deref(k.Node)); !ok {
			return // a remote chart check cannot have
		}
	}
	if p == "" {
		return
	}
	ch := ck.loadChart(fr, p)
	if ch == nil {
		return // the render reports why it cannot read the chart
	}
	var root any
	if len(ch.Schema) > 0 && json.Unmarshal(ch.Schema, &root) != nil {
		root = nil // Helm reports the broken schema when it renders
	}
	vc.mapping(valuesN, level{values: ch.Values, schema: root, root: root, subcharts: subcharts(ch), top: true}, values.Name, "")
}

// loadChart reads the chart at p, relative to the file that names it, as
// the render's $chart reads it (package chart, through the engine's
// Loader: its include roots and MaxTemplateBytes apply). It gives nil
// when the chart cannot be read: the render reports why.
func (ck *checker) loadChart(fr *diag.Frame, p string) *helmchart.Chart {
	if !filepath.IsAbs(p) {
		p = filepath.Join(fr.Dir, p)
	}
	opts := ck.e.NewRenderer(ck.ctx).Options()
	files := chart.Files{
		MaxBytes: opts.MaxTemplateBytes,
		ReadFile: func(name string, limit int) ([]byte, error) { return opts.Loader.ReadFile(ck.ctx, name, limit) },
	}
	if dr, ok := opts.Loader.(loader.DirReader); ok {
		files.ReadDir = func(name string) ([]fs.DirEntry, error) { return dr.ReadDir(ck.ctx, name) }
	}
	if sr, ok := opts.Loader.(loader.SymlinkResolver); ok {
		files.Real = sr.RealPath
	}
	ch, err := chart.Load(p, files)
	if err != nil {
		return nil
	}
	return ch.Meta()
}

// remoteChart gives the local path of a remote chart written with
// literal fields ({repository, name, version, digest}), through the
// engine's FetchChart option as the render gets it (downloaded once into
// the cache folder, read from there afterwards), or false when the
// option is nil, a field is not a literal string, or the fetch fails (the
// render reports why).
func (ck *checker) remoteChart(n *yaml.Node) (string, bool) {
	fetch := ck.e.NewRenderer(ck.ctx).Options().FetchChart
	if fetch == nil || n.Kind != yaml.MappingNode {
		return "", false
	}
	var r chart.Remote
	fields := map[string]*string{"repository": &r.Repository, "name": &r.Name, "version": &r.Version, "digest": &r.Digest}
	for i := 0; i+1 < len(n.Content); i += 2 {
		dst, known := fields[n.Content[i].Value]
		v, literal := tree.StringScalar(tree.Deref(n.Content[i+1]))
		if !known || !literal {
			return "", false
		}
		*dst = v
	}
	if field, _ := r.Check(); field != "" {
		return "", false
	}
	p, err := fetch(ck.ctx, r)
	if err != nil {
		return "", false
	}
	return p, true
}

// subcharts gives a chart's dependencies by the key their values take:
// the alias, or the name.
func subcharts(ch *helmchart.Chart) map[string]*helmchart.Chart {
	out := map[string]*helmchart.Chart{}
	for _, d := range ch.Dependencies() {
		out[d.Name()] = d
	}
	if ch.Metadata != nil {
		for _, dep := range ch.Metadata.Dependencies {
			if dep == nil || dep.Alias == "" {
				continue
			}
			if sub, ok := out[dep.Name]; ok {
				out[dep.Alias] = sub
			}
		}
	}
	return out
}

// level is what the chart says about one mapping of $values: the
// mapping of values.yaml at that place (nil where it has none), the
// values.schema.json schema there (nil where there is none) and the
// whole schema its local $refs point into, and at a chart's top, its
// subcharts.
type level struct {
	values    map[string]any
	schema    any
	root      any
	subcharts map[string]*helmchart.Chart
	top       bool
}

type valuesCheck struct {
	ck    *checker
	fr    *diag.Frame
	scope []string
	table *tree.Table
}

// vnode is one value of $values as check reads it: compiled (m, the
// compiled mapping, or a constant), or, below what an excision took
// (raw), as written. y is where it is written: a constant's own YAML
// (tree.Compiler.KeepYAML), read key by key.
type vnode struct {
	y   *yaml.Node
	m   *tree.MapNode
	raw bool
}

// valueNode is the value compiled to n, false when it is none of a
// constant, a sequence or a mapping.
func (vc *valuesCheck) valueNode(n tree.Node) (vnode, bool) {
	switch t := n.(type) {
	case *tree.ConstNode:
		return vnode{y: tree.Deref(t.Node)}, t.Node != nil
	case *tree.SeqNode:
		return vnode{y: t.Node}, true
	case *tree.MapNode:
		return vnode{y: t.Node, m: t}, true
	}
	return vnode{}, false
}

// excised gives the keys and values an excision took from the mapping
// written at n, in pairs.
func (vc *valuesCheck) excised(n *yaml.Node) []*yaml.Node {
	if vc.ck.cut == nil {
		return nil
	}
	return vc.ck.cut.pairs[n]
}

// written reports whether the mapping v is written key by key: beside
// its keys, only preludes ($let, $assert and their partners), never a
// directive that produces the mapping ($eval, $if, $for...). Keys an
// excision took count as written there.
func (vc *valuesCheck) written(v vnode) bool {
	if v.m != nil && len(v.m.Prods) > 0 {
		return false
	}
	keys := vc.excised(v.y)
	if v.raw {
		keys = v.y.Content
	}
	for i := 0; i+1 < len(keys); i += 2 {
		k := keys[i].Value
		if !tree.IsDirectiveLike(k) || strings.HasPrefix(k, "$$") {
			continue
		}
		d, ok := vc.table.Lookup(k)
		if ok && d.Kind == tree.KindPartner {
			d, ok = vc.table.Lookup(d.Needs)
		}
		if !ok || d.Kind != tree.KindPrelude {
			return false
		}
	}
	return true
}

// entries gives the keys of mapping v that are not directives, each with
// its value, in template order: the compiled ones, and those an
// excision took, as written.
func (vc *valuesCheck) entries(v vnode) (keys []*yaml.Node, vals []vnode) {
	add := func(k, val *yaml.Node) {
		keys, vals = append(keys, k), append(vals, vnode{y: tree.Deref(val), raw: true})
	}
	switch {
	case v.raw:
		for i := 0; i+1 < len(v.y.Content); i += 2 {
			add(v.y.Content[i], v.y.Content[i+1])
		}
		return keys, vals
	case v.m != nil:
		for _, e := range v.m.Entries {
			if val, ok := vc.valueNode(e.Val); ok && e.Prod < 0 {
				keys, vals = append(keys, e.Key), append(vals, val)
			}
		}
	default:
		for i := 0; i+1 < len(v.y.Content); i += 2 {
			keys, vals = append(keys, v.y.Content[i]), append(vals, vnode{y: tree.Deref(v.y.Content[i+1])})
		}
	}
	cut := vc.excised(v.y)
	if len(cut) == 0 {
		return keys, vals
	}
	for i := 0; i+1 < len(cut); i += 2 {
		add(cut[i], cut[i+1])
	}
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return keyBefore(keys[idx[a]], keys[idx[b]]) })
	k2, v2 := make([]*yaml.Node, len(idx)), make([]vnode, len(idx))
	for i, j := range idx {
		k2[i], v2[i] = keys[j], vals[j]
	}
	return k2, v2
}

// evalOf gives the string of a mapping that is one directive whose
// string holds ${{ }} segments and gives a value ($eval), or nil.
func (vc *valuesCheck) evalOf(v vnode) *yaml.Node {
	if len(v.y.Content) != 2 {
		return nil
	}
	name := v.y.Content[0].Value
	if v.m != nil {
		if len(v.m.Prods) != 1 {
			return nil
		}
		d, ok := v.m.Prods[0].(tree.Described)
		if !ok {
			return nil
		}
		name = d.Describe().Name
	} else if !v.raw {
		return nil // a constant
	}
	d, ok := vc.table.Lookup(name)
	if !ok || d.Exprs != tree.ExprSegments || d.Kind != tree.KindProducer {
		return nil
	}
	return tree.Deref(v.y.Content[1])
}

// problem adds a warning at n. Every problem of $values is a warning,
// those Helm refuses too (they say so): a render, when check runs one,
// stops there with Helm's own error, which check then reports as well.
func (vc *valuesCheck) problem(n *yaml.Node, p, msg string) {
	vc.ck.problems = append(vc.ck.problems, Problem{Warning: true, Err: &diag.Error{
		Pos: diag.Pos{File: vc.fr.File, Line: n.Line, Column: n.Column}, Path: p, Offset: -1, Chain: vc.fr.Chain, Msg: msg}})
}

// mapping checks the keys of the $values mapping n at path p (its dotted
// name under the chart, vp) against lv.
func (vc *valuesCheck) mapping(n vnode, lv level, p, vp string) {
	if !vc.written(n) {
		return // a produced mapping: its keys are not written here
	}
	sch := vc.resolve(lv.schema, lv.root)
	keys, vals := vc.entries(n)
	for i, k := range keys {
		v := vals[i]
		name := k.Value
		if strings.HasPrefix(name, "$$") {
			name = name[1:] // the key $name, written as data (reference §4)
		} else if tree.IsDirectiveLike(name) {
			continue
		}
		kp, kvp := tree.JoinPath(p, k.Value), joinDot(vp, name)
		if name == "global" {
			continue // every chart and subchart reads global (Helm's global values)
		}
		if sub, ok := lv.subcharts[name]; ok && lv.top {
			if v.y.Kind == yaml.MappingNode {
				var root any
				if len(sub.Schema) > 0 && json.Unmarshal(sub.Schema, &root) != nil {
					root = nil
				}
				vc.mapping(v, level{values: sub.Values, schema: root, root: root, subcharts: subcharts(sub), top: true}, kp, kvp)
			}
			continue
		}
		child, inValues := lv.values[name]
		propSchema, declared, closed := schemaProperty(sch, name)
		if !inValues && !declared {
			cands := candidates(lv, sch)
			msg := "the chart's values.yaml has no key " + kvp
			if closed {
				msg += " and its values.schema.json allows no other key: Helm refuses it"
			} else {
				msg += ": Helm ignores it without a word"
			}
			if s := hint.Nearest(name, cands, hint.TypoLimit(name), true); s == "" {
				if s = hint.Nearest(name, cands, hint.TypoLimit(name), false); s != "" {
					msg += "; did you mean " + s + "?"
				}
			} else {
				msg += "; did you mean " + s + "?"
			}
			vc.problem(k, kp, msg)
			continue
		}
		if propSchema != nil {
			vc.typeOf(v, vc.resolve(propSchema, lv.root), kp, kvp)
		}
		if v.y.Kind != yaml.MappingNode {
			continue
		}
		childValues, _ := child.(map[string]any)
		if len(childValues) == 0 && !describesKeys(vc.resolve(propSchema, lv.root)) {
			continue // a free-form mapping: `podAnnotations: {}`
		}
		vc.mapping(v, level{values: childValues, schema: propSchema, root: lv.root}, kp, kvp)
	}
}

func joinDot(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// candidates are the keys a misspelt key may have meant: values.yaml's,
// the schema's properties, the subcharts and global.
func candidates(lv level, sch map[string]any) []string {
	var out []string
	for k := range lv.values {
		out = append(out, k)
	}
	if props, ok := sch["properties"].(map[string]any); ok {
		for k := range props {
			if _, dup := lv.values[k]; !dup {
				out = append(out, k)
			}
		}
	}
	if lv.top {
		for k := range lv.subcharts {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// resolve follows local $refs from s (a bounded number), giving the
// schema as a mapping, or nil.
func (vc *valuesCheck) resolve(s, root any) map[string]any {
	for range 32 {
		m, ok := s.(map[string]any)
		if !ok {
			return nil
		}
		ref, has := m["$ref"].(string)
		if !has {
			return m
		}
		if s, ok = pointTo(root, ref); !ok {
			return nil
		}
	}
	return nil
}

// schemaProperty gives the schema of key name in the object schema sch,
// whether the schema declares the key (a property, a pattern property
// or additionalProperties that is not false), and whether it closes the
// object to other keys (additionalProperties: false).
func schemaProperty(sch map[string]any, name string) (prop any, declared, closed bool) {
	if sch == nil {
		return nil, false, false
	}
	if props, ok := sch["properties"].(map[string]any); ok {
		if p, ok := props[name]; ok {
			return p, true, false
		}
	}
	if pats, ok := sch["patternProperties"].(map[string]any); ok && len(pats) > 0 {
		return nil, true, false // which pattern matches is Helm's to say
	}
	switch a := sch["additionalProperties"].(type) {
	case bool:
		return nil, a, !a
	case map[string]any:
		return a, true, false
	}
	return nil, false, false
}

// describesKeys reports whether an object schema says which keys it
// holds or what their values are.
func describesKeys(sch map[string]any) bool {
	props, _ := sch["properties"].(map[string]any)
	_, addl := sch["additionalProperties"].(map[string]any)
	_, closed := sch["additionalProperties"].(bool)
	return len(props) > 0 || addl || closed
}

// typeOf checks the type of the value v against the schema sch, where
// both are plain: a written scalar, sequence or mapping, or an $eval of
// one expression whose type the checker knows. A mismatch is a warning
// that says Helm refuses the values when it renders.
func (vc *valuesCheck) typeOf(v vnode, sch map[string]any, p, vp string) {
	want := schemaTypes(sch)
	if len(want) == 0 {
		return
	}
	got := ""
	switch v.y.Kind {
	case yaml.SequenceNode:
		got = "array"
	case yaml.MappingNode:
		got = "object"
		if e := vc.evalOf(v); e != nil {
			got = vc.evalType(e)
		} else if !vc.written(v) {
			return // produced: its type shows when it renders
		}
	case yaml.ScalarNode:
		switch v.y.Tag {
		case "!!null":
			return // a null removes the key (Helm's rule)
		case "!!str":
			got = "string"
		case "!!int":
			got = "integer"
		case "!!float":
			got = "number"
		case "!!bool":
			got = "boolean"
		}
	}
	if got == "" {
		return
	}
	for _, w := range want {
		if w == got || w == "number" && got == "integer" {
			return
		}
	}
	vc.problem(v.y, p, "the chart's values.schema.json wants "+strings.Join(want, " or ")+" for "+vp+", and the template gives "+article(got)+": Helm refuses it")
}

// evalType gives the JSON Schema type of an $eval of one expression, or
// "" when the checker does not know it.
func (vc *valuesCheck) evalType(n *yaml.Node) string {
	s, ok := tree.StringScalar(n)
	if !ok {
		return ""
	}
	segs, err := segment.Scan(s)
	if err != nil || len(segs) == 0 {
		return ""
	}
	if len(segs) > 1 || !segs[0].Expr {
		return "string" // text with ${{ }} in it is a string
	}
	_, ct, errs := vc.ck.exprType(segs[0].Text, vc.scope)
	if ct == nil || errs != nil {
		return ""
	}
	switch ct.String() {
	case "string":
		return "string"
	case "int", "uint":
		return "integer"
	case "double":
		return "number"
	case "bool":
		return "boolean"
	}
	if strings.HasPrefix(ct.String(), "list(") {
		return "array"
	}
	return ""
}

// schemaTypes gives the JSON Schema types a schema accepts, or none when
// it says nothing plain about them.
func schemaTypes(sch map[string]any) []string {
	for _, k := range []string{"anyOf", "oneOf", "allOf", "not", "if", "$ref", "x-kubernetes-int-or-string", "x-kubernetes-preserve-unknown-fields"} {
		if _, has := sch[k]; has {
			return nil
		}
	}
	var out []string
	switch t := sch["type"].(type) {
	case string:
		out = []string{t}
	case []any:
		for _, e := range t {
			s, ok := e.(string)
			if !ok {
				return nil
			}
			out = append(out, s)
		}
	}
	for _, t := range out {
		if t == "null" {
			return nil
		}
	}
	return out
}

func article(t string) string {
	switch t {
	case "integer", "object", "array":
		return "an " + t
	}
	return "a " + t
}
