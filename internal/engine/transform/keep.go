package transform

import (
	"sort"
	"strconv"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// Keep is an entry of keepNamespace (reference §10): the objects the
// namespace leaves where they are, those whose namespace, kind and name
// are these, each where given ("" matches anything). An object's namespace
// is the one it writes before the transform; a Namespace object's is its
// own name.
type Keep struct {
	Namespace, Kind, Name string
	// unknown: a field of the entry is not known yet (a transform's,
	// read by Parse).
	unknown bool
}

var keepFields = []string{"namespace", "kind", "name"}

// String is the entry as the command line's --keep-namespace writes it:
// NAMESPACE, KIND/NAME or KIND/NAMESPACE/NAME.
func (k Keep) String() string {
	switch {
	case k.Kind == "":
		return k.Namespace
	case k.Namespace == "":
		return k.Kind + "/" + k.Name
	}
	return k.Kind + "/" + k.Namespace + "/" + k.Name
}

// ParseKeep reads the command line's form of an entry: NAMESPACE (every
// object that namespace holds), KIND/NAME (every object of that kind and
// name) or KIND/NAMESPACE/NAME.
func ParseKeep(s string) (Keep, bool) {
	parts := strings.Split(s, "/")
	for _, p := range parts {
		if p == "" {
			return Keep{}, false
		}
	}
	switch len(parts) {
	case 1:
		return Keep{Namespace: parts[0]}, true
	case 2:
		return Keep{Kind: parts[0], Name: parts[1]}, true
	case 3:
		return Keep{Kind: parts[0], Namespace: parts[1], Name: parts[2]}, true
	}
	return Keep{}, false
}

// kept decides whether object m, of kind kind, stays where it is; hits,
// when not nil, counts the entries it matches. unknown: a value it would
// be decided by is not known yet. The entries are looked up by the fields
// they give (keepIndex), so many entries on many objects cost no more
// than a few map lookups an object.
func (p *Prepared) kept(m *value.Map, kind string, hits []int) (kept, unknown bool) {
	if len(p.s.Keep) == 0 {
		return false, false
	}
	if p.keepIndex == nil {
		p.keepIndex = map[Keep][]int{}
		for i, k := range p.s.Keep {
			p.keepIndex[k] = append(p.keepIndex[k], i)
			p.keepNS = p.keepNS || k.Namespace != ""
			p.keepName = p.keepName || k.Name != ""
		}
	}
	nsPath := metadataNamespace
	if kind == "Namespace" {
		nsPath = metadataName
	}
	ns, _, nsUnk := getString(m, nsPath...)
	name, _, nameUnk := getString(m, metadataName...)
	if (nsUnk && p.keepNS) || (nameUnk && p.keepName) {
		return false, true
	}
	for _, byNS := range [2]string{"", ns} {
		for _, byKind := range [2]string{"", kind} {
			for _, byName := range [2]string{"", name} {
				for _, i := range p.keepIndex[Keep{Namespace: byNS, Kind: byKind, Name: byName}] {
					kept = true
					if hits != nil {
						hits[i]++
					}
				}
				if name == "" {
					break
				}
			}
			if kind == "" {
				break
			}
		}
		if ns == "" {
			break
		}
	}
	return kept, false
}

// Unmatched is the error for an entry that changed nothing, once every
// document has been through Doc: an images entry that matched no image,
// a keepNamespace entry that matched no object. A typo there would
// otherwise ship the old image, or move what was to stay. Nothing is
// reported while some document is not known yet.
func (p *Prepared) Unmatched() *FieldError {
	if p.undecided || p.s.Unknown {
		return nil
	}
	for i, n := range p.keepHits {
		if n == 0 && p.ns != nil {
			return &FieldError{Path: []any{"keepNamespace", i},
				Msg: "this entry matches no object of the render, so it keeps nothing where it is; an entry gives the namespace, kind and name an object writes before the transform"}
		}
	}
	for i, n := range p.imageHits {
		if n > 0 {
			continue
		}
		im := p.s.Images[i]
		msg := "the image name " + p.quoted(im.Name) + " matches no container or image volume of the render, so this entry changes nothing"
		names := p.heldNames()
		sep := "; "
		if s := hint.Nearest(im.Name, names, max(hint.TypoLimit(im.Name), len(im.Name)/4), true); s != "" && p.written != nil && p.written(im.Name) {
			msg += ": did you mean " + strconv.Quote(s) + "?"
			sep = " "
		}
		held := "the render holds "
		if sep == " " {
			held = "The render holds "
		}
		switch {
		case len(names) == 0 && len(p.held) == 0:
			msg += sep + held + "no image"
		case len(names) == 0:
			msg += sep + held + "images from values, which errors do not show"
		default:
			msg += sep + held + strings.Join(quoteAll(names), ", ")
		}
		msg += "; a name is compared as text, without tag or digest"
		return &FieldError{Path: []any{"images", i}, Msg: msg}
	}
	return nil
}

// heldNames are the names of the images met that the templates write,
// sorted, at most twenty.
func (p *Prepared) heldNames() []string {
	seen := map[string]bool{}
	var out []string
	for ref := range p.held {
		if p.written == nil || !p.written(ref) {
			continue
		}
		name, _, _ := splitImage(ref)
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	sort.Strings(out)
	if len(out) > 20 {
		out = append(out[:20], "…")
	}
	return out
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		if s == "…" {
			out[i] = s
			continue
		}
		out[i] = strconv.Quote(s)
	}
	return out
}

// quoted is s quoted where the templates write it, "…" elsewhere.
func (p *Prepared) quoted(s string) string {
	if s != "" && p.written != nil && p.written(s) {
		return strconv.Quote(s)
	}
	return "…"
}
