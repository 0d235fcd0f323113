package validate

import (
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// Server-side apply. Before anything else, the API server's field manager
// turns the applied configuration into a typed value of the kind's schema
// (structured-merge-diff, as k8s.io/apimachinery's managedfields builds
// it from the kind's OpenAPI schema): a field the schema does not declare,
// a value of the wrong shape, a list-type map item without its key fields
// or two items with the same key are refused there, in one message. The
// object it gives back for a new object is the configuration, nulls
// included: a custom resource's nulls are not dropped as a create's
// decoding drops them, so a null the schema neither allows nor defaults
// is refused by the schema's validation ("must be of type string").

// typeConverter is the field manager's type converter of the kind, built
// on first use; nil when the schema cannot be converted (the apply is then
// checked without it).
func (ks *kindSchema) typeConverter() managedfields.TypeConverter {
	ks.tcOnce.Do(func() {
		defer func() {
			if recover() != nil {
				ks.tc = nil
			}
		}()
		st := ks.structural
		if ks.applySchema != nil {
			st = ks.applySchema
		}
		root := st.ToKubeOpenAPI()
		if root == nil {
			return
		}
		// As the API server's apply models do: apiVersion and kind are
		// strings and metadata is ObjectMeta, whose own rules validateMeta
		// checks; here it is left open.
		props := make(map[string]spec.Schema, len(root.Properties)+3)
		for k, v := range root.Properties {
			props[k] = v
		}
		props["apiVersion"] = *spec.StringProperty()
		props["kind"] = *spec.StringProperty()
		meta := spec.MapProperty(nil)
		meta.AdditionalProperties = nil
		meta.Extensions = spec.Extensions{"x-kubernetes-preserve-unknown-fields": true}
		props["metadata"] = *meta
		root.Properties = props
		root.Type = spec.StringOrArray{"object"}
		if root.Extensions == nil {
			root.Extensions = spec.Extensions{}
		}
		root.Extensions["x-kubernetes-group-version-kind"] = []any{map[string]any{
			"group": ks.gvk.Group, "version": ks.gvk.Version, "kind": ks.gvk.Kind,
		}}
		tc, err := managedfields.NewTypeConverter(map[string]*spec.Schema{"celyaml.kind": root}, false)
		if err == nil {
			ks.tc = tc
		}
	})
	return ks.tc
}

// applyErrors is what the field manager refuses in the applied object, as
// field errors at the API server's field paths, without values, sorted by
// path.
//
// structured-merge-diff stops reading a mapping at its first undeclared
// field, and reads a mapping's fields in Go's map order: alone, it would
// report the fields after that one on some runs and not on others. So each
// undeclared field it reports is removed from a working copy and the
// object is read again, until a reading reports no new undeclared field:
// every run reports the same errors, all of them.
func (ks *kindSchema) applyErrors(obj map[string]any) field.ErrorList {
	tc := ks.typeConverter()
	if tc == nil {
		return nil
	}
	work := deepCopy(obj)
	seen := map[string]bool{}
	var errs field.ErrorList
	for round := 0; round < maxApplyRounds; round++ {
		u := &unstructured.Unstructured{Object: work}
		u.SetGroupVersionKind(ks.gvk)
		_, err := tc.ObjectToTyped(u)
		if err == nil {
			break
		}
		var verrs typed.ValidationErrors
		if !errors.As(err, &verrs) {
			errs = append(errs, field.Invalid(nil, nil, "the object is not of its schema's shape"))
			break
		}
		removed := false
		for _, ve := range verrs {
			path, msg := smdPath(ve.Path, work), ve.ErrorMessage
			if m := elementPrefix.FindStringSubmatch(msg); m != nil {
				path += "[" + m[1] + "]"
				msg = msg[len(m[0]):]
			}
			if seen[path+"\x00"+msg] {
				continue
			}
			seen[path+"\x00"+msg] = true
			errs = append(errs, field.Invalid(fieldPathOf(path), nil, smdMessage(msg, valueAt(work, path))))
			if msg == undeclaredField && deleteAt(work, path) {
				removed = true
			}
		}
		if !removed {
			break
		}
	}
	sort.SliceStable(errs, func(i, j int) bool {
		if errs[i].Field != errs[j].Field {
			return errs[i].Field < errs[j].Field
		}
		return errs[i].Detail < errs[j].Detail
	})
	return errs
}

// undeclaredField is structured-merge-diff's message for a field that a
// mapping's schema does not declare; it stops reading the mapping there.
const undeclaredField = "field not declared in schema"

// maxApplyRounds bounds the readings of one object in applyErrors: each
// removes at least one undeclared field, so a document has far fewer.
const maxApplyRounds = 1000

// deleteAt removes the field at an API-server field path of obj and
// reports whether there was one.
func deleteAt(obj any, p string) bool {
	segs := pathSegmentsOf(p)
	if len(segs) == 0 {
		return false
	}
	parent := valueAtSegs(obj, segs[:len(segs)-1])
	m, ok := parent.(map[string]any)
	last := segs[len(segs)-1]
	if !ok || last.index >= 0 {
		return false
	}
	if _, present := m[last.key]; !present {
		return false
	}
	delete(m, last.key)
	return true
}

var elementPrefix = regexp.MustCompile(`^element (\d+): `)

// smdMessage words a structured-merge-diff message without the value it
// may quote: "expected string, got <the value>" names the value's JSON
// type instead, and a duplicate key names its fields.
func smdMessage(msg string, v any) string {
	switch {
	case msg == "field not declared in schema":
		return msg
	case strings.HasPrefix(msg, "duplicate entries for key "):
		return "duplicate entries for key " + keyFields(strings.TrimPrefix(msg, "duplicate entries for key "))
	case strings.HasPrefix(msg, "associative list with keys has an element that omits"):
		return msg
	case strings.HasPrefix(msg, "expected "):
		want, _, _ := strings.Cut(strings.TrimPrefix(msg, "expected "), ", got")
		return "expected " + want + ", got " + jsonType(v)
	}
	return "the value is not of its schema's shape"
}

// keyFields writes a merge key [name="web",protocol="TCP"] as
// [name=…,protocol=…]: the key's fields, never their values.
func keyFields(key string) string {
	parts, ok := splitKey(key)
	if !ok {
		return "[…]"
	}
	names := make([]string, len(parts))
	for i, p := range parts {
		names[i] = p.field + "=…"
	}
	return "[" + strings.Join(names, ",") + "]"
}

type keyPart struct {
	field string
	value any
}

// splitKey reads a structured-merge-diff path element `[a="x",b=1]` (or
// `[="x"]` for a set's value) into its fields and JSON values.
func splitKey(s string) ([]keyPart, bool) {
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return nil, false
	}
	s = s[1 : len(s)-1]
	var parts []keyPart
	for len(s) > 0 {
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			return nil, false
		}
		name := s[:eq]
		s = s[eq+1:]
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		s = s[dec.InputOffset():]
		parts = append(parts, keyPart{field: name, value: v})
		s = strings.TrimPrefix(s, ",")
	}
	return parts, true
}

// smdPath turns a structured-merge-diff path (`.spec.ports[name="x"].port`)
// into the API server's (`spec.ports[0].port`), finding a keyed item's
// index in obj; a key it cannot find is written [?].
func smdPath(p string, obj any) string {
	var b strings.Builder
	cur := obj
	for len(p) > 0 {
		switch p[0] {
		case '.':
			end := strings.IndexAny(p[1:], ".[")
			if end < 0 {
				end = len(p) - 1
			}
			name := p[1 : end+1]
			p = p[end+1:]
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(name)
			m, _ := cur.(map[string]any)
			cur = m[name]
		case '[':
			end := closingBracket(p)
			if end < 0 {
				b.WriteString(p)
				return b.String()
			}
			elem := p[:end+1]
			p = p[end+1:]
			l, _ := cur.([]any)
			if i, err := strconv.Atoi(elem[1:end]); err == nil {
				b.WriteString(elem)
				if i >= 0 && i < len(l) {
					cur = l[i]
				} else {
					cur = nil
				}
				continue
			}
			i := keyedIndex(elem, l)
			if i < 0 {
				b.WriteString("[?]")
				cur = nil
				continue
			}
			b.WriteString("[" + strconv.Itoa(i) + "]")
			cur = l[i]
		default:
			b.WriteString(p)
			return b.String()
		}
	}
	return b.String()
}

// closingBracket finds the ] that closes the [ at p[0], past JSON strings.
func closingBracket(p string) int {
	inString := false
	for i := 1; i < len(p); i++ {
		switch c := p[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && c == ']':
			return i
		}
	}
	return -1
}

// keyedIndex finds the first item of l that a key element names.
func keyedIndex(elem string, l []any) int {
	parts, ok := splitKey(elem)
	if !ok {
		return -1
	}
	for i, item := range l {
		match := true
		for _, kp := range parts {
			got := item
			if kp.field != "" {
				m, _ := item.(map[string]any)
				v, present := m[kp.field]
				if !present {
					continue // a key field the item leaves to its default
				}
				got = v
			}
			if !sameJSONValue(got, kp.value) {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

func sameJSONValue(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && reflect.DeepEqual(x, y)
}

// fieldPathOf turns "spec.a[0].b" into a *field.Path that prints it back.
func fieldPathOf(p string) *field.Path {
	if p == "" {
		return nil
	}
	var fp *field.Path
	for _, seg := range pathSegmentsOf(p) {
		switch {
		case seg.index >= 0:
			fp = fp.Index(seg.index)
		case strings.HasPrefix(seg.key, "["):
			fp = fp.Key(strings.TrimSuffix(strings.TrimPrefix(seg.key, "["), "]"))
		case fp == nil:
			fp = field.NewPath(seg.key)
		default:
			fp = fp.Child(seg.key)
		}
	}
	return fp
}

// apiPathSeg is one step of an API-server field path: a key, or an index
// (written [i]).
type apiPathSeg struct {
	key   string
	index int // -1 for a key
}

// pathSegmentsOf splits "spec.a[0].b" into spec, a, [0], b ([?] stays a
// key).
func pathSegmentsOf(p string) []apiPathSeg {
	var segs []apiPathSeg
	for len(p) > 0 {
		switch p[0] {
		case '.':
			p = p[1:]
		case '[':
			end := strings.IndexByte(p, ']')
			if end < 0 {
				return append(segs, apiPathSeg{key: p, index: -1})
			}
			if i, err := strconv.Atoi(p[1:end]); err == nil && i >= 0 {
				segs = append(segs, apiPathSeg{index: i})
			} else {
				segs = append(segs, apiPathSeg{key: p[:end+1], index: -1})
			}
			p = p[end+1:]
		default:
			end := strings.IndexAny(p, ".[")
			if end < 0 {
				end = len(p)
			}
			segs = append(segs, apiPathSeg{key: p[:end], index: -1})
			p = p[end:]
		}
	}
	return segs
}

// valueAt reads the value at an API-server field path of obj.
func valueAt(obj any, p string) any { return valueAtSegs(obj, pathSegmentsOf(p)) }

// valueAtSegs reads the value at a field path's segments of obj.
func valueAtSegs(obj any, segs []apiPathSeg) any {
	cur := obj
	for _, seg := range segs {
		switch t := cur.(type) {
		case map[string]any:
			if seg.index >= 0 {
				return nil
			}
			cur = t[seg.key]
		case []any:
			if seg.index < 0 || seg.index >= len(t) {
				return nil
			}
			cur = t[seg.index]
		default:
			return nil
		}
	}
	return cur
}

// jsonType names a plain value's JSON type.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case int64, int, json.Number:
		return "integer"
	case float64:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "a value of another type"
}

// goTyped reports whether the API server decodes the kind into Go types
// (a built-in kind, as an OpenAPI document's kinds are read): its decoding
// reads a null as absent, whatever the request.
func (ks *kindSchema) goTyped() bool { return ks.fromOpenAPI }
