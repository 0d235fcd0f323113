package kustomize

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// A platform of real bundles: sixty copies of argo-cd's install.yaml in one
// stream (3,540 objects, 114 MB, about 4,000,000 nodes), which kustomize
// builds (in 519 s of CPU and 3.2 GiB) and which the engine's default
// limits (reference §7) must let through. argocd.yaml has the release's
// kinds and shapes (41 of its 59 objects); its real size is in
// its three CustomResourceDefinitions' schemas, which argoCDSized pads to
// the release's: about 1.9 MB and 66,000 output nodes a copy (2.2 MB
// here, the schemas being less nested than the release's).

// argoCDFields is how many schema properties argoCDSized adds to each
// CustomResourceDefinition of argocd.yaml, in the proportions of the
// release's (Application's is the largest).
var argoCDFields = map[string]int{"Application": 11300, "ApplicationSet": 8700, "AppProject": 2050}

// argoCDSized is argocd.yaml with its CustomResourceDefinitions' schemas
// grown to the release's size.
func argoCDSized(tb testing.TB) []map[string]any {
	data, err := os.ReadFile(path.Join("testdata", "argocd.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	var docs []map[string]any
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc map[string]any
		if dec.Decode(&doc) != nil {
			break
		}
		if doc["kind"] == "CustomResourceDefinition" {
			spec := doc["spec"].(map[string]any)
			kind := spec["names"].(map[string]any)["kind"].(string)
			v := spec["versions"].([]any)[0].(map[string]any)
			props := v["schema"].(map[string]any)["openAPIV3Schema"].(map[string]any)["properties"].(map[string]any)
			specProps := props["spec"].(map[string]any)["properties"].(map[string]any)
			for i := 0; i < argoCDFields[kind]; i++ {
				specProps[fmt.Sprintf("field%05d", i)] = map[string]any{"description": fmt.Sprintf("Field %d.", i), "type": "string"}
			}
		}
		docs = append(docs, doc)
	}
	return docs
}

// argoCDPlatform is copies of the argo-cd-sized bundle in one stream, each
// copy's names given a suffix so that no two objects share an ID. Each
// document is encoded once, its name left as a mark to fill in per copy.
func argoCDPlatform(tb testing.TB, copies int) []byte {
	docs := argoCDSized(tb)
	const mark = "@NAME@"
	texts := make([][]byte, len(docs))
	names := make([]string, len(docs))
	for i, doc := range docs {
		meta := doc["metadata"].(map[string]any)
		names[i] = meta["name"].(string)
		meta["name"] = mark
		var b bytes.Buffer
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(doc); err != nil {
			tb.Fatal(err)
		}
		meta["name"] = names[i]
		texts[i] = b.Bytes()
	}
	var out bytes.Buffer
	for c := 0; c < copies; c++ {
		for i, text := range texts {
			name := names[i]
			if c > 0 {
				name = fmt.Sprintf("%s-c%d", name, c)
			}
			out.WriteString("---\n")
			out.Write(bytes.Replace(text, []byte(mark), []byte(name), 1))
		}
	}
	return out.Bytes()
}

// platformTemplate is what a platform team writes over the stream: every
// copy into one namespace, its labels and annotations, a newer image.
var platformTemplate = []byte(`$include: bundle.yaml
---
$transform:
  namespace: platform
  labels: {team: platform}
  selectorLabels: {app.kubernetes.io/part-of: platform}
  annotations: {owner: platform-team}
  images:
    - {name: quay.io/argoproj/argocd, newTag: v3.1.1}
`)

func platformEngine(bundle []byte, opts engine.Options) *engine.Engine {
	opts.Loader = engine.FSLoader{FS: fstest.MapFS{"app/bundle.yaml": {Data: bundle}}}
	return engine.New(opts)
}

// One argo-cd-sized copy renders within a sixtieth of each default limit
// that grows with the output (nodes, output bytes, template bytes): the
// limits count linearly, so sixty copies render under the defaults, where
// the earlier defaults stopped at about fifteen. BenchmarkPlatform renders
// the sixty and says what they cost.
func TestPlatform_sixtyArgoCDCopiesFitTheDefaultLimits(t *testing.T) {
	bundle := argoCDPlatform(t, 1)
	if n, nodes := len(bundle), countNodes(argoCDSized(t)); n < 1_900_000 || n > 2_500_000 || nodes < 66_000 {
		t.Fatalf("an argo-cd-sized copy is %d bytes and %d nodes; the release's is about 1.9 MB and 66,000 nodes", n, nodes)
	}
	d := engine.DefaultOptions()
	opts := d
	opts.MaxNodes = d.MaxNodes / 60
	opts.MaxOutputBytes = d.MaxOutputBytes / 60
	opts.MaxTemplateBytes = d.MaxTemplateBytes / 60
	out, err := celyamlRender(context.Background(), platformEngine(bundle, opts), platformTemplate)
	if err != nil {
		t.Fatalf("one copy does not fit a sixtieth of the default limits: %v", err)
	}
	obj, err := objects(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(obj) != 41 {
		t.Errorf("got %d objects, want argocd.yaml's 41", len(obj))
	}
	// and the earlier defaults could not hold sixty: a copy is more than
	// a sixtieth of 1,000,000 nodes
	opts.MaxNodes = 1_000_000 / 60
	_, err = celyamlRender(context.Background(), platformEngine(bundle, opts), platformTemplate)
	if err == nil || !strings.Contains(err.Error(), "MaxNodes") {
		t.Errorf("one copy fits a sixtieth of 1,000,000 nodes (err %v): the copy is smaller than the release", err)
	}
}

// countNodes counts values as the engine's MaxNodes does: every scalar,
// mapping and sequence.
func countNodes(v any) int {
	n := 1
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			n += countNodes(e)
		}
	case []any:
		for _, e := range x {
			n += countNodes(e)
		}
	case []map[string]any:
		n = 0
		for _, e := range x {
			n += countNodes(e)
		}
	}
	return n
}
