package directive

import (
	"errors"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/chart"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/emit"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/scope"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// $chart makes its document a Helm chart's documents (reference §11): the
// chart is rendered by Helm's own code (package chart) as `helm template`
// renders it, and its documents take the $chart document's place in the
// stream, in Helm's install order; overlays, transforms and validation
// then see them as written documents.

// chartKeys are the keys of a $chart document besides $chart: the options
// of `helm template`, and the preludes and $if that any document takes.
var chartKeys = []string{"$values", "$release", "$kubeVersion", "$apiVersions", "$includeCRDs", "$hooks", "$skipTests"}

// chartBeside are the directives other than the preludes and their
// partners that may stand beside $chart: the $chart entry's Beside, and
// the one list compileChart reads (the preludes come from the table).
var chartBeside = []string{"$if"}

// chartNode is a compiled $chart document.
type chartNode struct {
	key       *yaml.Node // the $chart key
	src       tree.Node  // its value: a path, or a remote chart's mapping
	srcN      *yaml.Node
	pre       *tree.MapNode // $let, $schema and $assert beside it; nil when none
	cond      *tree.ExprRef // $if, nil when none
	constCond *bool
	opts      map[string]chartOpt // the options present, by key
}

type chartOpt struct {
	key *yaml.Node
	val tree.Node
}

func compileChart(c *tree.Compiler, n *yaml.Node, keys tree.MappingKeys) (tree.Node, *tree.CompileError) {
	p := keys.Dirs["$chart"]
	t := &chartNode{key: p.K, srcN: tree.Deref(p.V), opts: map[string]chartOpt{}}
	var preKeys []string
	for _, q := range keys.Order() {
		k := q.Key()
		switch {
		case k == "$chart":
		case q.IsDirective() && slices.Contains(chartKeys, k):
			v, err := c.Compile(q.V, k)
			if err != nil {
				return nil, err
			}
			t.opts[k] = chartOpt{key: q.K, val: v}
		case q.IsDirective() && slices.Contains(chartBeside, k): // $if
			cn := tree.Deref(q.V)
			if s, ok := tree.StringScalar(cn); ok {
				t.cond = tree.NewExprRef(tree.ExprRef{Text: s, Shown: s, Node: cn, Path: "$if", Bare: "$if"})
			} else if b, ok := tree.BoolScalar(cn); ok {
				t.constCond = &b
			} else {
				return nil, tree.CompileErrorAt(cn, "$if", "$if takes a CEL expression string, got "+yamlnode.AKind(cn))
			}
		case q.IsDirective() && c.Table().StandsBesidePreludes(k):
			preKeys = append(preKeys, k)
		case q.IsDirective():
			return nil, tree.CompileErrorAt(q.K, k, "a $chart document holds $chart and its keys ("+strings.Join(chartKeys, ", ")+
				"), with $let, $schema, $assert and $if beside them; "+k+" cannot stand here: put it inside $values or in a document of its own")
		default:
			msg := "a $chart document holds only $-keys: $chart, " + strings.Join(chartKeys, ", ") + "; " + tree.Quote(k) + " is not one"
			if s := hint.Nearest("$"+k, chartKeys, hint.TypoLimit("$"+k), true); s != "" {
				msg += ": did you mean " + s + "?"
			} else {
				msg += ": a chart's values go under $values"
			}
			return nil, tree.CompileErrorAt(q.K, k, msg)
		}
	}
	if len(preKeys) > 0 {
		pre, err := c.Compile(only(n, preKeys), "")
		if err != nil {
			return nil, err
		}
		t.pre, _ = pre.(*tree.MapNode)
	}
	src, err := c.Compile(p.V, "$chart")
	if err != nil {
		return nil, err
	}
	t.src = src
	return t, nil
}

// only is mapping n with only the given keys.
func only(n *yaml.Node, keys []string) *yaml.Node {
	out := *n
	out.Content = make([]*yaml.Node, 0, len(n.Content))
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := tree.Deref(n.Content[i])
		for _, d := range keys {
			if k.Kind == yaml.ScalarNode && k.Value == d {
				out.Content = append(out.Content, n.Content[i], n.Content[i+1])
			}
		}
	}
	return &out
}

func (t *chartNode) KeyNode() *yaml.Node { return t.key }

// Value fails: a chart gives documents, which stand only in the stream.
func (t *chartNode) Value(r tree.Renderer, _ *scope.Scope, fr *diag.Frame) (value.Value, bool, error) {
	return nil, false, t.misplaced(r, fr)
}

func (t *chartNode) misplaced(r tree.Renderer, fr *diag.Frame) error {
	return r.ErrAt(fr, t.key, "$chart", "a $chart document gives a chart's documents, which stand only in the stream; here a file holding one is included into a value or a sequence: include it at a document root")
}

// Multi renders the chart in the stream.
func (t *chartNode) Multi(r tree.Renderer, sc *scope.Scope, fr *diag.Frame, pos tree.Position, dst []value.Value) ([]value.Value, error) {
	if pos != tree.PosStream {
		return dst, t.misplaced(r, fr)
	}
	if t.pre != nil {
		var unknown bool
		var err error
		if sc, unknown, err = r.RunPreludes(t.pre, sc, fr); err != nil {
			return dst, err
		}
		if unknown {
			return dst, tree.ErrUnknownShape
		}
	}
	if t.constCond != nil && !*t.constCond {
		return dst, nil
	}
	if t.cond != nil {
		ok, unknown, err := r.EvalBool(t.cond, sc, fr, "the $if condition")
		if err != nil {
			return dst, err
		}
		if unknown {
			return dst, &tree.UnknownShapeError{Path: "$if"}
		}
		if !ok {
			return dst, nil
		}
	}
	ch, err := t.load(r, sc, fr)
	if err != nil {
		return dst, err
	}
	opts, err := t.options(r, sc, fr)
	if err != nil {
		return dst, err
	}
	docs, err := ch.Render(r.Context(), opts)
	if err != nil {
		return dst, t.renderErr(r, fr, err)
	}
	for _, d := range docs {
		v, err := t.document(r, fr, d)
		if err != nil {
			return dst, err
		}
		if v != nil {
			dst = append(dst, v)
		}
	}
	return dst, nil
}

// document parses one of the chart's documents.
func (t *chartNode) document(r tree.Renderer, fr *diag.Frame, d chart.Document) (value.Value, error) {
	var doc yaml.Node
	// Helm trims each document it splits; helm template writes it with a
	// line break after it, and Helm's Kubernetes client reads it so: a
	// block scalar that ends the document (config: |) keeps its last line
	// break (reference §11: the documents are helm template's).
	if err := yaml.Unmarshal([]byte(d.YAML+"\n"), &doc); err != nil {
		return nil, r.ErrAt(fr, t.key, "$chart", "the chart's "+d.Source+" renders a document that is not YAML: "+yamlErrText(err))
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	yaml11Bools(doc.Content[0], 0)
	v, nerr := yamlnode.Plain(doc.Content[0])
	if nerr != nil {
		line := ""
		if nerr.Node != nil && nerr.Node.Line > 0 {
			line = " (line " + tree.Itoa(nerr.Node.Line) + " of the document)"
		}
		return nil, r.ErrAt(fr, t.key, "$chart", "the chart's "+d.Source+" renders a document that cannot be read"+line+": "+nerr.Msg)
	}
	if err := r.CountValue(fr, t.key, "$chart", v); err != nil {
		return nil, err
	}
	return v, nil
}

// yamlErrText is a YAML parse error without its "yaml: " prefix.
func yamlErrText(err error) string { return strings.TrimPrefix(err.Error(), "yaml: ") }

// yaml11 are the plain scalars that YAML 1.1, which Kubernetes and Helm
// read manifests with (sigs.k8s.io/yaml), takes for booleans, and YAML 1.2
// for strings.
var yaml11 = map[string]string{
	"y": "true", "Y": "true", "yes": "true", "Yes": "true", "YES": "true", "on": "true", "On": "true", "ON": "true",
	"n": "false", "N": "false", "no": "false", "No": "false", "NO": "false", "off": "false", "Off": "false", "OFF": "false",
}

// yaml11Bools reads a chart's document as the API server would read
// `helm template`'s output: an unquoted yes, on, no, off (…) is a boolean,
// and as a mapping key the string "true" or "false".
func yaml11Bools(n *yaml.Node, depth int) {
	if depth > 10_000 {
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if b, ok := yaml11[n.Value]; ok && n.Style == 0 && n.Tag == "!!str" {
			n.Tag, n.Value = "!!bool", b
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Style == 0 && k.Tag == "!!str" {
				if b, ok := yaml11[k.Value]; ok {
					k.Value = b
				}
			}
			yaml11Bools(n.Content[i+1], depth+1)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			yaml11Bools(c, depth+1)
		}
	}
}

// renderErr positions a chart's error: at $values for the values' schema,
// at $chart otherwise, with Helm's message (chart file and line).
func (t *chartNode) renderErr(r tree.Renderer, fr *diag.Frame, err error) error {
	var te *diag.Error
	if errors.As(err, &te) {
		return err
	}
	ce, ok := chart.AsError(err)
	if !ok {
		return r.ErrAt(fr, t.key, "$chart", "the chart cannot be rendered: "+err.Error())
	}
	if ce.Values {
		if o, ok := t.opts["$values"]; ok {
			return r.ErrAt(fr, o.key, "$values", ce.Msg)
		}
		return r.ErrAt(fr, t.key, "$chart", ce.Msg)
	}
	if ce.Limit != "" {
		return r.LimitErr(fr, t.key, "$chart", ce.Limit, ce.Msg)
	}
	msg := ce.Msg
	if ce.File != "" {
		msg = "the chart's templates fail: " + msg
	}
	return r.ErrAt(fr, t.key, "$chart", msg)
}

// load renders $chart's value and loads the chart it names.
func (t *chartNode) load(r tree.Renderer, sc *scope.Scope, fr *diag.Frame) (*chart.Chart, error) {
	v, ok, err := r.Value(t.src, sc, fr)
	if err != nil {
		return nil, err
	}
	if _, unk := v.(value.Unknown); unk {
		return nil, &tree.UnknownShapeError{Path: "$chart"}
	}
	if value.HasUnknown(v) {
		return nil, &tree.UnknownShapeError{Path: "$chart" + unknownPath(v)}
	}
	var p string
	remote := false
	switch x := v.(type) {
	case string:
		if x == "" {
			return nil, r.ErrAt(fr, t.srcN, "$chart", "$chart takes a chart folder or .tgz path, or a remote chart's mapping {repository, name, version}, got an empty string")
		}
		p = x
		if !filepath.IsAbs(p) {
			p = filepath.Join(fr.Dir, p)
		}
	case *value.Map:
		if p, err = t.fetch(r, fr, x); err != nil {
			return nil, err
		}
		remote = true
	default:
		what := "nothing"
		if ok {
			what = tree.ValueKind(v)
		}
		return nil, r.ErrAt(fr, t.srcN, "$chart", "$chart takes a chart folder or .tgz path, or a remote chart's mapping {repository, name, version}, got "+what)
	}
	files := chart.LoaderFiles(r.Context(), r.Options().Loader, r.Options().MaxTemplateBytes)
	if remote {
		// The fetcher's cache is the program's own folder, read from the
		// file system whatever the Loader's roots; the limits still apply.
		files = chart.OSFiles(r.Options().MaxTemplateBytes)
	}
	ch, err := chart.Load(p, files)
	if err != nil {
		msg := err.Error()
		if e, ok := chart.AsError(err); ok {
			if e.Limit != "" {
				return nil, r.LimitErr(fr, t.srcN, "$chart", e.Limit, "cannot load the chart "+tree.Quote(filepath.ToSlash(p))+": "+e.Msg)
			}
			msg = e.Msg
		}
		return nil, r.ErrAt(fr, t.srcN, "$chart", "cannot load the chart "+tree.Quote(filepath.ToSlash(p))+": "+msg)
	}
	return ch, nil
}

// fetch gives the local path of a remote chart, through the engine's
// FetchChart option.
func (t *chartNode) fetch(r tree.Renderer, fr *diag.Frame, m *value.Map) (string, error) {
	var rm chart.Remote
	fields := map[string]*string{"repository": &rm.Repository, "name": &rm.Name, "version": &rm.Version, "digest": &rm.Digest}
	for _, k := range m.Keys() {
		dst, ok := fields[k]
		if !ok {
			names := []string{"repository", "name", "version", "digest"}
			msg := "a remote chart takes repository, name, version and digest; " + tree.Quote(k) + " is not one"
			if s := hint.Nearest(k, names, hint.TypoLimit(k), true); s != "" {
				msg += ": did you mean " + s + "?"
			}
			return "", r.ErrAt(fr, t.srcN, "$chart."+k, msg)
		}
		v, _ := m.Get(k)
		s, isStr := v.(string)
		if !isStr {
			return "", r.ErrAt(fr, t.srcN, "$chart."+k, "$chart's "+k+" takes a string, got "+tree.ValueKind(v))
		}
		*dst = s
	}
	if field, msg := rm.Check(); msg != "" {
		return "", r.ErrAt(fr, t.srcN, "$chart."+field, msg)
	}
	fetch := r.Options().FetchChart
	if fetch == nil {
		return "", r.ErrAt(fr, t.srcN, "$chart", "remote charts need a chart fetcher, which this program does not have: download the chart and name its folder or .tgz file")
	}
	p, err := fetch(r.Context(), rm)
	if err != nil {
		return "", r.ErrAt(fr, t.srcN, "$chart", "cannot fetch the chart "+rm.Name+" "+rm.Version+" from "+rm.ShownRepository()+": "+err.Error())
	}
	return p, nil
}

// options renders $values and the other keys into the options of
// `helm template`.
func (t *chartNode) options(r tree.Renderer, sc *scope.Scope, fr *diag.Frame) (chart.Options, error) {
	o := chart.Options{MaxBytes: r.Options().MaxOutputBytes, HideKeys: r.Options().HideKeys}
	get := func(k string) (value.Value, *yaml.Node, bool, error) {
		c, ok := t.opts[k]
		if !ok {
			return nil, nil, false, nil
		}
		v, ok, err := r.Value(c.val, sc, fr)
		if err != nil || !ok || v == nil {
			return nil, c.key, false, err
		}
		if value.HasUnknown(v) {
			return nil, c.key, false, &tree.UnknownShapeError{Path: k + unknownPath(v)}
		}
		return v, c.key, true, nil
	}
	v, key, ok, err := get("$values")
	if err != nil {
		return o, err
	}
	if ok {
		m, isMap := v.(*value.Map)
		if !isMap {
			return o, r.ErrAt(fr, key, "$values", "$values takes a mapping of the chart's values, got "+tree.ValueKind(v))
		}
		js, err := emit.AppendJSON(nil, m, false)
		if err != nil {
			return o, r.ErrAt(fr, key, "$values", "$values cannot be given to the chart: "+err.Error())
		}
		if o.Values, err = chart.ParseValues(js); err != nil {
			return o, r.ErrAt(fr, key, "$values", err.Error())
		}
	}
	if v, key, ok, err = get("$release"); err != nil {
		return o, err
	} else if ok {
		m, isMap := v.(*value.Map)
		if !isMap {
			return o, r.ErrAt(fr, key, "$release", "$release takes a mapping {name, namespace}, got "+tree.ValueKind(v))
		}
		for _, k := range m.Keys() {
			x, _ := m.Get(k)
			s, isStr := x.(string)
			switch {
			case k != "name" && k != "namespace":
				msg := "$release takes name and namespace; " + tree.Quote(k) + " is not one"
				if n := hint.Nearest(k, []string{"name", "namespace"}, hint.TypoLimit(k), true); n != "" {
					msg += ": did you mean " + n + "?"
				}
				return o, r.ErrAt(fr, key, "$release."+k, msg)
			case !isStr:
				return o, r.ErrAt(fr, key, "$release."+k, "$release's "+k+" takes a string, got "+tree.ValueKind(x))
			case k == "name":
				o.ReleaseName = s
			default:
				o.Namespace = s
			}
		}
	}
	if v, key, ok, err = get("$kubeVersion"); err != nil {
		return o, err
	} else if ok {
		s, isStr := v.(string)
		if !isStr {
			return o, r.ErrAt(fr, key, "$kubeVersion", "$kubeVersion takes a Kubernetes version string such as v1.31.0, got "+tree.ValueKind(v))
		}
		o.KubeVersion = s
	}
	if v, key, ok, err = get("$apiVersions"); err != nil {
		return o, err
	} else if ok {
		l, isList := v.([]value.Value)
		if !isList {
			return o, r.ErrAt(fr, key, "$apiVersions", "$apiVersions takes a list of API versions (\"example.com/v1\" or \"example.com/v1/Widget\"), got "+tree.ValueKind(v))
		}
		for i, x := range l {
			s, isStr := x.(string)
			if !isStr {
				return o, r.ErrAt(fr, key, "$apiVersions["+tree.Itoa(i)+"]", "$apiVersions takes strings, got "+tree.ValueKind(x))
			}
			o.APIVersions = append(o.APIVersions, s)
		}
	}
	flag := func(k string, dst *bool, invert bool) error {
		v, key, ok, err := get(k)
		if err != nil || !ok {
			return err
		}
		b, isBool := v.(bool)
		if !isBool {
			return r.ErrAt(fr, key, k, k+" takes true or false, got "+tree.ValueKind(v))
		}
		*dst = b != invert
		return nil
	}
	if err := flag("$includeCRDs", &o.IncludeCRDs, false); err != nil {
		return o, err
	}
	if err := flag("$hooks", &o.DisableHooks, true); err != nil {
		return o, err
	}
	if err := flag("$skipTests", &o.IncludeTests, true); err != nil {
		return o, err
	}
	return o, nil
}

// unknownPath is the path, below a value, of its first unknown leaf
// (".image.tag", "[2]"), never a value.
func unknownPath(v value.Value) string {
	switch x := v.(type) {
	case value.Unknown:
		return ""
	case *value.Map:
		for i := range x.Len() {
			k, e := x.At(i)
			if value.HasUnknown(e) {
				return "." + k + unknownPath(e)
			}
		}
	case []value.Value:
		for i, e := range x {
			if value.HasUnknown(e) {
				return "[" + tree.Itoa(i) + "]" + unknownPath(e)
			}
		}
	}
	return ""
}

// Chart gives the directive table's entries of $chart and its options
// (reference §11).
func Chart() []tree.Directive {
	return []tree.Directive{
		{Name: "$chart", Kind: tree.KindOverlay, Only: tree.AtChartRoot,
			Loads: true, Beside: chartBeside, Section: 11,
			Summary:   "Makes this document a Helm chart's documents, rendered as helm template renders them: a chart folder or .tgz path, or a remote chart {repository, name, version, digest} with an exact version.",
			Misplaced: "$chart stands only at a document's root, where the chart's documents take the document's place",
			Overlay:   compileChart},
		chartKey(tree.Directive{Name: "$values", Values: true, Summary: "The chart's values, merged over its values.yaml by Helm's rules; check and the editor warn about a key the chart does not have."}),
		chartKey(tree.Directive{Name: "$release", Fields: []string{"name", "namespace"}, Summary: "The release: {name, namespace}; defaults: the chart's name and default."}),
		chartKey(tree.Directive{Name: "$kubeVersion", Summary: "The Kubernetes version the chart sees in .Capabilities.KubeVersion (default: the built-in schemas' minor)."}),
		chartKey(tree.Directive{Name: "$apiVersions", Summary: "API versions added to .Capabilities.APIVersions."}),
		chartKey(tree.Directive{Name: "$includeCRDs", Summary: "Puts the files of the charts' crds/ folders first (default false)."}),
		chartKey(tree.Directive{Name: "$hooks", Summary: "Renders the chart's hooks (default true)."}),
		chartKey(tree.Directive{Name: "$skipTests", Summary: "Leaves the chart's test hooks out (default true)."}),
	}
}

// chartKey completes the entry of one of $chart's keys: a partner of
// $chart that stands only at a chart document's root (reference §11).
func chartKey(d tree.Directive) tree.Directive {
	d.Kind, d.Needs, d.Only, d.Section = tree.KindPartner, "$chart", tree.AtChartRoot, 11
	d.Misplaced = d.Name + " belongs to $chart, at the root of a $chart document"
	return d
}

// Describe gives the $if condition, then the preludes beside $chart, its
// source and its options, in template order (reference §11).
func (t *chartNode) Describe() tree.Description {
	d := tree.Description{Name: "$chart", Key: t.key}
	if t.cond != nil {
		d.Exprs = []*tree.ExprRef{t.cond}
	}
	if t.pre != nil {
		d.Bodies = append(d.Bodies, tree.Body{Node: t.pre, Beside: true})
	}
	d.Bodies = append(d.Bodies, tree.Body{Node: t.src})
	opts := make([]tree.Body, 0, len(t.opts))
	for name, o := range t.opts {
		opts = append(opts, tree.Body{Key: o.key, Name: name, Node: o.val})
	}
	sort.Slice(opts, func(a, b int) bool { return before(opts[a].Key, opts[b].Key) })
	d.Bodies = append(d.Bodies, opts...)
	return d
}

// before orders two keys by their place in the template.
func before(a, b *yaml.Node) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}
