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
			segs, msg := smdSegments(ve.Path, work), ve.ErrorMessage
			if m := elementPrefix.FindStringSubmatch(msg); m != nil {
				if i, err := strconv.Atoi(m[1]); err == nil {
					segs = append(segs, apiPathSeg{index: i})
				}
				msg = msg[len(m[0]):]
			}
			key := segsKey(segs) + "\x00" + msg
			if seen[key] {
				continue
			}
			seen[key] = true
			errs = append(errs, field.Invalid(fieldPathOf(segs), nil, smdMessage(msg, valueAtSegs(work, segs))))
			if msg == undeclaredField && deleteAt(work, segs) {
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

// deleteAt removes the field at a path's segments of obj and reports
// whether there was one.
func deleteAt(obj any, segs []apiPathSeg) bool {
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

// smdSegments reads a structured-merge-diff path
// (`.spec.ports[name="x"].port`) against obj into the API server's path
// segments (spec, ports, [0], port), finding a keyed item's index in obj;
// a key it cannot find is the segment [?]. A field name is written as it
// is, and may hold '.' or '[' (a map key such as app.kubernetes.io/name),
// so at a mapping of obj the segment is the key of the mapping the path
// goes on with, the longest first, such that the rest of the path reads
// too (or, when none does, the shortest); past what obj holds, a name
// ends at the next '.' or '['.
func smdSegments(p string, obj any) []apiPathSeg {
	r := smdReader{budget: maxPathReads}
	segs, _ := r.read(p, obj, true)
	return segs
}

// maxPathReads bounds the steps of one smdSegments: a document whose keys
// are prefixes of each other could otherwise make the longest-first
// search try every way of splitting the path.
const maxPathReads = 10000

type smdReader struct{ budget int }

// read reads p from cur (present: cur is a value of obj). ok reports that
// every field name of p is a key of obj, each keyed item found.
func (r *smdReader) read(p string, cur any, present bool) (segs []apiPathSeg, ok bool) {
	if p == "" {
		return nil, present
	}
	r.budget--
	if r.budget < 0 {
		return []apiPathSeg{{key: strings.TrimPrefix(p, "."), index: -1}}, false
	}
	switch p[0] {
	case '.':
		rest := p[1:]
		if m, isMap := cur.(map[string]any); isMap && present {
			var shortest []apiPathSeg
			for _, k := range keysLeading(m, rest) {
				tail, ok := r.read(rest[len(k):], m[k], true)
				segs = append([]apiPathSeg{{key: k, index: -1}}, tail...)
				if ok {
					return segs, true
				}
				shortest = segs
			}
			if shortest != nil {
				// No key reads the whole path (it ends past what obj
				// holds): the shortest key, as far as obj goes.
				return shortest, false
			}
		}
		end := strings.IndexAny(rest, ".[")
		if end < 0 {
			end = len(rest)
		}
		tail, _ := r.read(rest[end:], nil, false)
		return append([]apiPathSeg{{key: rest[:end], index: -1}}, tail...), false
	case '[':
		end := closingBracket(p)
		if end < 0 {
			return []apiPathSeg{{key: p, index: -1}}, false
		}
		elem, rest := p[:end+1], p[end+1:]
		l, _ := cur.([]any)
		i, err := strconv.Atoi(elem[1:end])
		if err != nil {
			i = keyedIndex(elem, l)
			if i < 0 {
				tail, _ := r.read(rest, nil, false)
				return append([]apiPathSeg{{key: "[?]", index: -1}}, tail...), false
			}
		}
		if i < 0 {
			tail, _ := r.read(rest, nil, false)
			return append([]apiPathSeg{{key: "[?]", index: -1}}, tail...), false
		}
		var next any
		inList := present && i < len(l)
		if inList {
			next = l[i]
		}
		tail, ok := r.read(rest, next, inList)
		return append([]apiPathSeg{{index: i}}, tail...), ok
	}
	return []apiPathSeg{{key: p, index: -1}}, false
}

// keysLeading lists the keys of m that p starts with as a whole field
// name (followed by the end, '.' or '['), the longest first.
func keysLeading(m map[string]any, p string) []string {
	var keys []string
	if _, ok := m[p]; ok && p != "" {
		keys = append(keys, p)
	}
	for i := len(p) - 1; i > 0; i-- {
		if p[i] != '.' && p[i] != '[' {
			continue
		}
		if _, ok := m[p[:i]]; ok {
			keys = append(keys, p[:i])
		}
	}
	return keys
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

// fieldPathOf is the *field.Path of a path's segments ([?], a keyed item
// not found, written as it is).
func fieldPathOf(segs []apiPathSeg) *field.Path {
	var fp *field.Path
	for _, seg := range segs {
		switch {
		case seg.index >= 0:
			fp = fp.Index(seg.index)
		case seg.key == "[?]":
			fp = fp.Key("?")
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

// segsKey tells paths apart that print alike (a key "a.b", and b in a).
func segsKey(segs []apiPathSeg) string {
	var b strings.Builder
	for _, s := range segs {
		if s.index >= 0 {
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		} else {
			b.WriteString(strconv.Quote(s.key))
		}
	}
	return b.String()
}

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
