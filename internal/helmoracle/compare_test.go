//go:build helmoracle

package helmoracle

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"

	k8syaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/celyaml/terraform-provider-celyaml/internal/datadiff"
)

// object is one document of a stream, read as kubectl reads it.
type object struct {
	id  string // group/Kind/namespace/name, "_" for an empty part
	doc map[string]any
}

// readStream reads a YAML stream as kubectl and Helm's Kubernetes client
// read one: split into documents by k8s.io/apimachinery's YAML reader
// ("---" lines; comments such as "# Source:" are no content), each read
// by sigs.k8s.io/yaml into JSON values. Empty documents are dropped. So
// formatting (quotes, flow or block style, key order, indentation) makes
// no difference; a value the two read differently (an unquoted `on`, a
// number written as text) does.
func readStream(stream []byte) ([]object, error) {
	r := k8syaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(stream)))
	var out []object
	for i := 0; ; i++ {
		b, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		var doc map[string]any
		if err := yaml.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("document %d: %w\n%s", i, err, b)
		}
		if len(doc) == 0 {
			continue
		}
		out = append(out, object{id: datadiff.ID(doc), doc: doc})
	}
}

// compareStreams lists, one line each, where the two streams differ:
// first the order, when both hold the same objects in another order
// (the first place they part), then objects only one of them holds, then
// values at a path, sorted.
func compareStreams(helm, ours []object) []string {
	var out []string
	hIDs, oIDs := ids(helm), ids(ours)
	if !reflect.DeepEqual(hIDs, oIDs) {
		if reflect.DeepEqual(sorted(hIDs), sorted(oIDs)) {
			for i := range hIDs {
				if hIDs[i] != oIDs[i] {
					out = append(out, fmt.Sprintf("order: object %d is %s in helm, %s in ours", i, hIDs[i], oIDs[i]))
					break
				}
			}
		} else if len(hIDs) != len(oIDs) {
			out = append(out, fmt.Sprintf("count: helm %d objects, ours %d", len(hIDs), len(oIDs)))
		}
	}
	h, o := byID(helm), byID(ours)
	return append(out, datadiff.Objects("helm", "ours", h, o)...)
}

func ids(objs []object) []string {
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = o.id
	}
	return out
}

func sorted(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
}

// byID keys the objects by ID; a second object with an ID already seen
// gets "#2" after it, so that no object is lost from the comparison.
func byID(objs []object) map[string]any {
	m := make(map[string]any, len(objs))
	for _, o := range objs {
		id := o.id
		for n := 2; ; n++ {
			if _, dup := m[id]; !dup {
				break
			}
			id = fmt.Sprintf("%s#%d", o.id, n)
		}
		m[id] = o.doc
	}
	return m
}
