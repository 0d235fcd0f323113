// Package datadiff tells where two decoded YAML or JSON values differ,
// one line per place, for the tests that hold celyaml's output to a peer's
// (kustomize's library, the real helm). A line names the place as a dotted
// path with list indexes and gives both sides as JSON.
package datadiff

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// ID is a decoded Kubernetes object's key for comparing streams:
// group/Kind/namespace/name, "_" for a part that is empty or absent (the
// core group included).
func ID(doc map[string]any) string {
	str := func(v any) string {
		if s, ok := v.(string); ok && s != "" {
			return s
		}
		return "_"
	}
	group := "_"
	if av, _ := doc["apiVersion"].(string); strings.Contains(av, "/") {
		group = av[:strings.Index(av, "/")]
	}
	meta, _ := doc["metadata"].(map[string]any)
	return strings.Join([]string{group, str(doc["kind"]), str(meta["namespace"]), str(meta["name"])}, "/")
}

// Objects lists, one line each and sorted, where two sets of objects keyed
// by ID disagree: an object only one side gives ("ID: only in NAME"), or a
// value at a path, as Values words it. nameA and nameB name the sides.
func Objects(nameA, nameB string, a, b map[string]any) []string {
	var out []string
	for id := range union(a, b) {
		av, inA := a[id]
		bv, inB := b[id]
		switch {
		case !inB:
			out = append(out, id+": only in "+nameA)
		case !inA:
			out = append(out, id+": only in "+nameB)
		default:
			out = Values(out, id+": ", nameA, nameB, av, bv)
		}
	}
	sort.Strings(out)
	return out
}

// Values appends to out a line for each place where a and b differ, each
// line starting with prefix: "PATH: NAMEA JSON, NAMEB JSON", a side
// without the key written "absent". Mappings are compared key by key and
// lists of the same length item by item; anything else as a whole.
func Values(out []string, prefix, nameA, nameB string, a, b any) []string {
	d := differ{prefix: prefix, nameA: nameA, nameB: nameB, out: out}
	d.values("", a, b)
	return d.out
}

type differ struct {
	prefix, nameA, nameB string
	out                  []string
}

func (d *differ) values(at string, a, b any) {
	am, aIsMap := a.(map[string]any)
	bm, bIsMap := b.(map[string]any)
	if aIsMap && bIsMap {
		for key := range union(am, bm) {
			av, inA := am[key]
			bv, inB := bm[key]
			p := key
			if at != "" {
				p = at + "." + key
			}
			switch {
			case !inB:
				d.line(p, js(av), "absent")
			case !inA:
				d.line(p, "absent", js(bv))
			default:
				d.values(p, av, bv)
			}
		}
		return
	}
	al, aIsList := a.([]any)
	bl, bIsList := b.([]any)
	if aIsList && bIsList && len(al) == len(bl) {
		for i := range al {
			d.values(fmt.Sprintf("%s[%d]", at, i), al[i], bl[i])
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		d.line(at, js(a), js(b))
	}
}

func (d *differ) line(at, a, b string) {
	d.out = append(d.out, fmt.Sprintf("%s%s: %s %s, %s %s", d.prefix, at, d.nameA, a, d.nameB, b))
}

func union(a, b map[string]any) map[string]bool {
	u := map[string]bool{}
	for k := range a {
		u[k] = true
	}
	for k := range b {
		u[k] = true
	}
	return u
}

func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}
