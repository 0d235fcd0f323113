package transform

import (
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// Error is a document that a transform cannot change: Doc is its index
// among the documents, Field the transform's field that was being applied.
// Msg never holds a value from the document or the transform (reference
// §6): it names a document's group and kind, parts of its manifest ID,
// whole; an image name, and with Spec.HideNames a group and kind, only
// where the caller's written says that the templates write it.
type Error struct {
	Doc   int
	Field string
	Msg   string
}

func (e *Error) Error() string { return e.Field + ": " + e.Msg }

// Apply applies s to every document and returns them; docs itself is
// changed in place (its elements replaced, never edited). written tells
// the strings the templates write, which errors may show (nil: none).
func Apply(docs []value.Value, s Spec, written func(string) bool) ([]value.Value, error) {
	p := Prepare(docs, s, written)
	for i, d := range docs {
		out, err := p.Doc(i, d)
		if err != nil {
			return nil, err
		}
		docs[i] = out
	}
	return docs, nil
}

// IsZero reports whether s changes nothing.
func (s Spec) IsZero() bool {
	return s.Namespace == "" && !s.NamespaceUnknown && len(s.Labels) == 0 && len(s.SelectorLabels) == 0 &&
		len(s.Annotations) == 0 && len(s.Images) == 0 && !s.Unknown
}

// Prepared is a transform ready to apply to the documents it was prepared
// on: it knows their CustomResourceDefinitions, ServiceAccounts and
// Services, which decide scopes and which references follow a namespace.
type Prepared struct {
	s         Spec
	written   func(string) bool
	ns        value.Value // the namespace to set: a string or an unknown string
	crds      map[groupKind]scopeState
	crdsUnset bool // some CustomResourceDefinition's group or kind is not known yet
	sas       refSet
	services  refSet
	keepHits  []int           // the objects each keepNamespace entry matched
	keepIndex map[Keep][]int  // the keepNamespace entries by what they give
	keepNS    bool            // some entry gives a namespace
	keepName  bool            // some entry gives a name
	imageHits []int           // the images each images entry rewrote
	held      map[string]bool // the image references met, for the error of an entry that matched none
	undecided bool            // some document became unknown: an entry's hits may be short
	own       *owner
	setNS     leafFn
	labels    [3]leafFn // selectorLabels, labels, annotations
}

type groupKind struct{ group, kind string }

type scopeState uint8

const (
	scopeUntold scopeState = iota
	scopeNamespaced
	scopeCluster
	scopeUnknown // not known yet
)

// refSet holds the objects of one kind (ServiceAccount, Service) among the
// documents, by name: where each is, and whether the namespace moves it.
type refSet struct {
	byName  map[string][]refTarget
	unknown bool // some object's name, namespace or keeping is not known yet
}

// refTarget is one object a reference may name.
type refTarget struct {
	ns    string // its namespace as the API server reads it ("" is "default")
	bare  bool   // it writes no namespace of its own
	moved bool   // the namespace moves it (it is not kept)
}

func effectiveNS(ns string) string {
	if ns == "" {
		return "default"
	}
	return ns
}

func (r *refSet) add(m *value.Map, moved, unknown bool) {
	name, ok, unk := getString(m, "metadata", "name")
	ns, hasNS, nsUnk := getString(m, "metadata", "namespace")
	if unk || nsUnk || unknown {
		r.unknown = true
		return
	}
	if !ok {
		return
	}
	if !hasNS {
		ns = ""
	}
	if r.byName == nil {
		r.byName = map[string][]refTarget{}
	}
	r.byName[name] = append(r.byName[name], refTarget{ns: effectiveNS(ns), bare: ns == "", moved: moved})
}

// refers decides whether reference ref (a mapping with name and an
// optional namespace) names an object of r that the namespace moves: by
// name, and by namespace when both the reference and the object give
// one. An object that writes no namespace of its own is named whatever
// namespace the reference writes: it is in the namespace it is applied
// to, which is what the upstream file's references name. kept reports a
// reference that names only objects of r that stay where they are.
func (r *refSet) refers(ref *value.Map) (yes, kept, undecided bool) {
	name, ok, unk := getString(ref, "name")
	if unk {
		return false, false, true
	}
	if !ok {
		return false, false, false
	}
	targets := r.byName[name]
	ns, hasNS, nsUnk := getString(ref, "namespace")
	if nsUnk {
		return false, false, len(targets) > 0 || r.unknown
	}
	named := false
	for _, t := range targets {
		if !hasNS || t.bare || t.ns == effectiveNS(ns) {
			named = true
			yes = yes || t.moved
		}
	}
	return yes, named && !yes, !yes && r.unknown
}

// Prepare readies s for docs; written is as for Apply.
func Prepare(docs []value.Value, s Spec, written func(string) bool) *Prepared {
	p := &Prepared{s: s, written: written, own: newOwner(), keepHits: make([]int, len(s.Keep)), imageHits: make([]int, len(s.Images))}
	if s.NamespaceUnknown {
		p.ns = value.UnknownOf(value.TypeString)
	} else if s.Namespace != "" {
		p.ns = s.Namespace
	}
	p.setNS = setValue(p.ns)
	if len(s.Images) > 0 {
		p.held = map[string]bool{}
	}
	for i, entries := range [][]Entry{s.SelectorLabels, s.Labels, s.Annotations} {
		p.labels[i] = p.own.setEntries(entries)
	}
	for _, d := range docs {
		m, ok := d.(*value.Map)
		if !ok {
			continue
		}
		apiVersion, _, _ := getString(m, "apiVersion")
		kind, _, _ := getString(m, "kind")
		group, _ := splitAPIVersion(apiVersion)
		switch {
		case group == "apiextensions.k8s.io" && kind == "CustomResourceDefinition":
			p.addCRD(m)
		case p.ns != nil && apiVersion == "v1" && kind == "ServiceAccount":
			kept, unk := p.kept(m, kind, nil)
			p.sas.add(m, !kept, unk)
		case p.ns != nil && apiVersion == "v1" && kind == "Service":
			kept, unk := p.kept(m, kind, nil)
			p.services.add(m, !kept, unk)
		}
	}
	return p
}

func (p *Prepared) addCRD(m *value.Map) {
	group, gok, gunk := getString(m, "spec", "group")
	kind, kok, kunk := getString(m, "spec", "names", "kind")
	if gunk || kunk {
		p.crdsUnset = true
		return
	}
	if !gok || !kok {
		return
	}
	st := scopeUntold
	switch sc, _, unk := getString(m, "spec", "scope"); {
	case unk:
		st = scopeUnknown
	case sc == "Namespaced":
		st = scopeNamespaced
	case sc == "Cluster":
		st = scopeCluster
	}
	if p.crds == nil {
		p.crds = map[groupKind]scopeState{}
	}
	p.crds[groupKind{group, kind}] = st
}

// scope tells whether group/kind is namespaced.
func (p *Prepared) scope(group, kind string) scopeState {
	if st, ok := p.crds[groupKind{group, kind}]; ok && st != scopeUntold {
		return st
	}
	if ns, ok := builtinNamespaced[group+"/"+kind]; ok {
		if ns {
			return scopeNamespaced
		}
		return scopeCluster
	}
	if ns, ok := p.s.Scopes[group+"/"+kind]; ok {
		if ns {
			return scopeNamespaced
		}
		return scopeCluster
	}
	if p.crdsUnset {
		return scopeUnknown
	}
	return scopeUntold
}

// splitAPIVersion splits an apiVersion into group and version; the core
// group is "".
func splitAPIVersion(apiVersion string) (group, version string) {
	if i := strings.LastIndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i], apiVersion[i+1:]
	}
	return "", apiVersion
}

// shownName is a group or kind, a part of a manifest ID, for an error:
// itself, unless the render hides names and the templates do not write it
// (reference §6).
func (p *Prepared) shownName(s string) string {
	if s != "" && (!p.s.HideNames || p.written != nil && p.written(s)) {
		return s
	}
	return "…"
}

// Doc applies the transform to document i, doc, and returns the result;
// doc is not changed. A document the transform cannot decide for (its
// kind, or a value it reads, is not known yet) becomes unknown as a whole.
func (p *Prepared) Doc(i int, doc value.Value) (value.Value, error) {
	s := p.s
	if s.IsZero() {
		return doc, nil
	}
	if _, ok := doc.(value.Unknown); ok {
		p.undecided = true
		return doc, nil
	}
	if s.Unknown {
		p.undecided = true
		return value.Unknown{}, nil
	}
	m, ok := doc.(*value.Map)
	if !ok {
		return nil, &Error{Doc: i, Field: p.firstField(), Msg: "a transform changes Kubernetes objects, and this document is " + kindName(doc) + ", not a mapping"}
	}
	apiVersion, _, avUnk := getString(m, "apiVersion")
	kind, _, kindUnk := getString(m, "kind")
	if (avUnk || kindUnk) && p.needsKind() {
		p.undecided = true
		return value.Unknown{}, nil
	}
	group, version := splitAPIVersion(apiVersion)
	p.own.reset()
	var out value.Value = m
	var err error
	fail := func(field string, e error) (value.Value, error) {
		return nil, &Error{Doc: i, Field: field, Msg: e.Error()}
	}
	if p.ns != nil {
		var unknown bool
		if out, unknown, err = p.namespace(out, group, kind, apiVersion); err != nil {
			if te, ok := err.(*Error); ok {
				te.Doc = i
				return nil, te
			}
			return fail("namespace", err)
		}
		if unknown {
			p.undecided = true
			return value.Unknown{}, nil
		}
	}
	for j, lab := range labelFields {
		if len(lab.entries(s)) == 0 {
			continue
		}
		leaf := p.labels[j]
		for _, fs := range lab.specs {
			if fs.applies(group, version, kind) {
				if out, _, err = p.own.edit(out, fs.path, fs.create, leaf); err != nil {
					return fail(lab.field, err)
				}
			}
		}
	}
	if len(s.Images) > 0 && kind != "CustomResourceDefinition" {
		leaf := p.rewriteImage
		for _, fs := range imageVolumes {
			if out, _, err = p.own.edit(out, fs.path, false, leaf); err != nil {
				return fail("images", err)
			}
		}
		if out, _, err = p.containers(out); err != nil {
			return fail("images", err)
		}
	}
	return out, nil
}

// labelFields are the fields that set entries, in the order they apply.
var labelFields = [3]struct {
	field   string
	entries func(Spec) []Entry
	specs   []fieldSpec
}{
	{"selectorLabels", func(s Spec) []Entry { return s.SelectorLabels }, selectorLabels},
	{"labels", func(s Spec) []Entry { return s.Labels }, metadataLabels},
	{"annotations", func(s Spec) []Entry { return s.Annotations }, annotations},
}

// needsKind reports whether what the transform does depends on a
// document's kind: everything but labels does.
func (p *Prepared) needsKind() bool {
	s := p.s
	return p.ns != nil || len(s.SelectorLabels) > 0 || len(s.Annotations) > 0 || len(s.Images) > 0
}

func (p *Prepared) firstField() string {
	s := p.s
	switch {
	case p.ns != nil:
		return "namespace"
	case len(s.SelectorLabels) > 0:
		return "selectorLabels"
	case len(s.Labels) > 0:
		return "labels"
	case len(s.Annotations) > 0:
		return "annotations"
	}
	return "images"
}

func p2(a, b string) []string { return []string{a, b} }

var (
	imagePath         = []string{"image"}
	metadataNamespace = p2("metadata", "namespace")
	metadataName      = p2("metadata", "name")
)

// rewriteImage applies the image rewrites, in order, to one image
// reference.
func (p *Prepared) rewriteImage(v value.Value) (value.Value, bool, error) {
	ref, ok := v.(string)
	if !ok {
		switch v.(type) {
		case value.Unknown:
			p.undecided = true
			return v, false, nil
		case nil:
			return v, false, nil
		}
		return nil, false, &shapeError{want: "an image reference (a string)", got: v}
	}
	out := ref
	for i, im := range p.s.Images {
		if im.nameUnknown {
			p.undecided = true
			return value.UnknownOf(value.TypeString), true, nil
		}
		if imageMatches(out, im.Name) {
			p.imageHits[i]++
			if im.restUnknown {
				p.undecided = true
				return value.UnknownOf(value.TypeString), true, nil
			}
			out = im.rewrite(out)
		}
	}
	if p.held != nil {
		p.held[ref] = true
	}
	return out, out != ref, nil
}

// containers walks v for containers, initContainers and
// ephemeralContainers sequences, wherever they stand, and rewrites the
// image of each of their items.
func (p *Prepared) containers(v value.Value) (value.Value, bool, error) {
	switch x := v.(type) {
	case []value.Value:
		var out []value.Value
		for i, el := range x {
			nv, changed, err := p.containers(el)
			if err != nil {
				return nil, false, under(err, i)
			}
			if changed {
				if out == nil {
					out = p.own.seqCopy(x)
				}
				out[i] = nv
			}
		}
		if out == nil {
			return v, false, nil
		}
		return out, true, nil
	case *value.Map:
		var out *value.Map
		for i := 0; i < x.Len(); i++ {
			k, el := x.At(i)
			nv, changed, err := p.containers(el)
			if err != nil {
				return nil, false, under(err, k)
			}
			if list, ok := nv.([]value.Value); ok && containerFields[k] {
				var c bool
				if nv, c, err = p.own.edit(list, imagePath, false, p.rewriteImage); err != nil {
					return nil, false, under(err, k)
				}
				changed = changed || c
			}
			if changed {
				if out == nil {
					out = p.own.mapCopy(x, 0)
				}
				out.SetAt(i, nv)
			}
		}
		if out == nil {
			return v, false, nil
		}
		return out, true, nil
	}
	return v, false, nil
}
