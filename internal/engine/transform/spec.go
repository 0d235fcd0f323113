package transform

import (
	"strconv"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// Spec is one transform (reference §10). Its zero value changes nothing.
type Spec struct {
	// Namespace, when not "", is set on every namespaced object, renames
	// Namespace objects and follows the references kustomize's namespace
	// transformer follows. NamespaceUnknown says it is not known yet.
	Namespace        string
	NamespaceUnknown bool
	// Keep are the objects the namespace leaves where they are
	// (keepNamespace).
	Keep []Keep
	// Labels go into every object's metadata; SelectorLabels also into
	// selectors and pod templates; Annotations into metadata and pod
	// templates. Applied in this order after the namespace, then Images.
	Labels, SelectorLabels, Annotations []Entry
	Images                              []Image
	// Unknown says the transform as a whole is not known yet: every
	// document it would change becomes unknown.
	Unknown bool
	// Scopes tells the scope of custom kinds whose CustomResourceDefinition
	// is not in the render but was given beside it (the command line's
	// --schemas), keyed "group/Kind", true for namespaced. A definition in
	// the render wins; the built-in kinds' own scope wins over both.
	Scopes map[string]bool
	// HideNames says the render hides keys and names (the engine's
	// HideKeys): an error then shows a document's group and kind only
	// where the templates write them, as it shows an image name always.
	HideNames bool
}

// Entry is one label or annotation. Value is a string or a value.Unknown.
type Entry struct {
	Key   string
	Value value.Value
}

// Fields are the fields of a transform, in the order they apply.
var Fields = []string{"namespace", "keepNamespace", "selectorLabels", "labels", "annotations", "images"}

var imageFields = []string{"name", "newName", "newTag", "digest"}

// FieldError is a transform whose value is wrong: Path leads from the
// transform's value to the culprit (field names and sequence indexes).
// Msg never holds a value of the transform, which may come from a
// variable.
type FieldError struct {
	Path []any // string keys and int indexes
	Msg  string
}

func (e *FieldError) Error() string { return PathString(e.Path) + ": " + e.Msg }

// PathString writes a FieldError's path as images[0].newTag.
func PathString(path []any) string {
	s := ""
	for _, p := range path {
		switch x := p.(type) {
		case string:
			if s != "" {
				s += "."
			}
			s += x
		case int:
			s += "[" + strconv.Itoa(x) + "]"
		}
	}
	return s
}

// Parse reads a transform's rendered value: a mapping of the fields in
// Fields. nil (nothing) is the transform that changes nothing.
func Parse(v value.Value) (Spec, *FieldError) {
	var s Spec
	switch x := v.(type) {
	case nil:
		return s, nil
	case value.Unknown:
		s.Unknown = true
		return s, nil
	case *value.Map:
		for i := 0; i < x.Len(); i++ {
			k, fv := x.At(i)
			if err := s.field(k, fv); err != nil {
				return Spec{}, err
			}
		}
		if len(s.Keep) > 0 && !x.Has("namespace") {
			return Spec{}, &FieldError{Path: []any{"keepNamespace"}, Msg: "keepNamespace tells the namespace of this transform what to leave where it is, and this transform sets no namespace: add namespace, or remove keepNamespace"}
		}
		return s, nil
	}
	return Spec{}, &FieldError{Msg: "$transform takes a mapping of " + fieldList(Fields) + ", got " + kindName(v)}
}

func fieldList(fs []string) string {
	s := ""
	for i, f := range fs {
		switch {
		case i == 0:
		case i == len(fs)-1:
			s += " and "
		default:
			s += ", "
		}
		s += f
	}
	return s
}

// CheckFields finds an unknown field where a transform's value is written
// literally: name is a key of the transform's mapping, or of an item of
// list (images, keepNamespace) when list is set. It gives the error's
// message, or "" for a field that exists.
func CheckFields(name, list string) string {
	fields, path := Fields, []any{name}
	switch list {
	case "images":
		fields, path = imageFields, []any{"images", 0, name}
	case "keepNamespace":
		fields, path = keepFields, []any{"keepNamespace", 0, name}
	}
	for _, f := range fields {
		if f == name {
			return ""
		}
	}
	return unknownField(path, name, fields).Msg
}

// unknownField is the error for a field a mapping does not have.
func unknownField(path []any, k string, fields []string) *FieldError {
	msg := "unknown field " + strconv.Quote(k) + " of a transform"
	if len(path) > 1 {
		msg = "unknown field " + strconv.Quote(k) + " of an image"
		if path[0] == "keepNamespace" {
			msg = "unknown field " + strconv.Quote(k) + " of a keepNamespace entry"
		}
	}
	if s := hint.Nearest(k, fields, hint.TypoLimit(k), true); s != "" {
		msg += ": did you mean " + s + "?"
	} else {
		msg += "; the fields are " + fieldList(fields)
	}
	return &FieldError{Path: path, Msg: msg}
}

func (s *Spec) field(k string, v value.Value) *FieldError {
	at := []any{k}
	if _, ok := v.(value.Unknown); ok && k != "namespace" {
		s.Unknown = true
		return nil
	}
	switch k {
	case "namespace":
		switch x := v.(type) {
		case nil:
		case string:
			s.Namespace = x
		case value.Unknown:
			if x.Type != value.TypeString && x.Type != value.TypeDynamic {
				return &FieldError{Path: at, Msg: "namespace must be a string, got an unknown " + x.Type.String()}
			}
			s.NamespaceUnknown = true
		default:
			return &FieldError{Path: at, Msg: "namespace must be a string, got " + kindName(v)}
		}
	case "labels", "selectorLabels", "annotations":
		entries, err := parseEntries(k, v)
		if err != nil {
			return err
		}
		switch k {
		case "labels":
			s.Labels = entries
		case "selectorLabels":
			s.SelectorLabels = entries
		default:
			s.Annotations = entries
		}
	case "keepNamespace":
		list, ok := v.([]value.Value)
		if !ok && v != nil {
			return &FieldError{Path: at, Msg: "keepNamespace must be a sequence of mappings with namespace, kind and name (at least one), got " + kindName(v)}
		}
		for i, el := range list {
			k, err := parseKeep(append(at, i), el)
			if err != nil {
				return err
			}
			if k.unknown {
				// which objects stay is not known yet: neither is any
				// document the namespace would move
				s.Unknown = true
			}
			s.Keep = append(s.Keep, k)
		}
	case "images":
		list, ok := v.([]value.Value)
		if !ok && v != nil {
			return &FieldError{Path: at, Msg: "images must be a sequence of mappings with name and newName, newTag or digest, got " + kindName(v)}
		}
		for i, el := range list {
			im, err := parseImage(append(at, i), el)
			if err != nil {
				return err
			}
			s.Images = append(s.Images, im)
		}
	default:
		return unknownField(at, k, Fields)
	}
	return nil
}

func parseEntries(field string, v value.Value) ([]Entry, *FieldError) {
	at := []any{field}
	if v == nil {
		return nil, nil
	}
	m, ok := v.(*value.Map)
	if !ok {
		return nil, &FieldError{Path: at, Msg: field + " must be a mapping of names to strings, got " + kindName(v)}
	}
	out := make([]Entry, 0, m.Len())
	for i := 0; i < m.Len(); i++ {
		k, ev := m.At(i)
		switch x := ev.(type) {
		case string:
		case value.Unknown:
			if x.Type != value.TypeString && x.Type != value.TypeDynamic {
				return nil, &FieldError{Path: append(at, k), Msg: "a value of " + field + " must be a string, got an unknown " + x.Type.String()}
			}
			ev = value.UnknownOf(value.TypeString)
		default:
			return nil, &FieldError{Path: append(at, k), Msg: "a value of " + field + " must be a string (quote it: Kubernetes takes only strings here), got " + kindName(ev)}
		}
		out = append(out, Entry{Key: k, Value: ev})
	}
	return out, nil
}

func parseKeep(at []any, v value.Value) (Keep, *FieldError) {
	var k Keep
	m, ok := v.(*value.Map)
	if !ok {
		return k, &FieldError{Path: at, Msg: "an entry of keepNamespace must be a mapping with namespace, kind and name (at least one), got " + kindName(v)}
	}
	for i := 0; i < m.Len(); i++ {
		f, fv := m.At(i)
		var dst *string
		switch f {
		case "namespace":
			dst = &k.Namespace
		case "kind":
			dst = &k.Kind
		case "name":
			dst = &k.Name
		default:
			return k, unknownField(append(at, f), f, keepFields)
		}
		if _, unk := fv.(value.Unknown); unk {
			k.unknown = true
			continue
		}
		str, ok := fv.(string)
		if !ok && fv != nil {
			return k, &FieldError{Path: append(at, f), Msg: f + " must be a string, got " + kindName(fv)}
		}
		*dst = str
	}
	if k == (Keep{}) {
		return k, &FieldError{Path: at, Msg: "an entry of keepNamespace needs namespace, kind or name: it keeps the objects that have all it gives"}
	}
	return k, nil
}

func parseImage(at []any, v value.Value) (Image, *FieldError) {
	var im Image
	m, ok := v.(*value.Map)
	if !ok {
		return im, &FieldError{Path: at, Msg: "an image must be a mapping with name and newName, newTag or digest, got " + kindName(v)}
	}
	for i := 0; i < m.Len(); i++ {
		k, fv := m.At(i)
		var dst *string
		switch k {
		case "name":
			dst = &im.Name
		case "newName":
			dst = &im.NewName
		case "newTag":
			dst = &im.NewTag
		case "digest":
			dst = &im.Digest
		default:
			return im, unknownField(append(at, k), k, imageFields)
		}
		switch x := fv.(type) {
		case nil:
		case string:
			*dst = x
		case value.Unknown:
			if k == "name" {
				im.nameUnknown = true
			} else {
				im.restUnknown = true
			}
		default:
			return im, &FieldError{Path: append(at, k), Msg: k + " must be a string (quote a tag such as '1.25'), got " + kindName(fv)}
		}
	}
	if im.Name == "" && !im.nameUnknown {
		return im, &FieldError{Path: at, Msg: "an image needs a name: the image name, without tag or digest, to rewrite"}
	}
	return im, nil
}
