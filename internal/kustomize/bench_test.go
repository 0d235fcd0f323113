//go:build unix

package kustomize

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// benchObjects is the size of the benchmark's bundle.
const benchObjects = 1000

// bigBundle is n objects taken in turn from the test bundles, copy after
// copy, each copy's names given a suffix so that no two objects share an
// ID. Namespace objects are kept from the first copy only: every later
// one would become the same Namespace under a namespace transform.
func bigBundle(tb testing.TB, n int) []byte {
	var docs []map[string]any
	for _, b := range bundles {
		data, err := os.ReadFile(path.Join("testdata", b.file))
		if err != nil {
			tb.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for {
			var doc map[string]any
			if dec.Decode(&doc) != nil {
				break
			}
			docs = append(docs, doc)
		}
	}
	var out bytes.Buffer
	count := 0
	for c := 0; count < n; c++ {
		for _, doc := range docs {
			if count == n {
				break
			}
			if c > 0 && doc["kind"] == "Namespace" {
				continue
			}
			cp := copyValue(doc).(map[string]any)
			if c > 0 {
				meta := cp["metadata"].(map[string]any)
				meta["name"] = fmt.Sprintf("%s-c%d", meta["name"], c)
			}
			out.WriteString("---\n")
			out.Write(mustYAML(cp))
			count++
		}
	}
	return out.Bytes()
}

func copyValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = copyValue(x)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, x := range v {
			l[i] = copyValue(x)
		}
		return l
	}
	return v
}

// benchSpec is every transform at once and the removal of one object, on
// the ingress bundle's first copy (the "all" scenario of the test, with
// the images of every bundle).
func benchSpec() spec {
	s := scenarios(bundles[0])["all"]
	s.images = nil
	for _, b := range bundles {
		s.images = append(s.images, b.images...)
	}
	return s
}

// BenchmarkKustomize_1000 builds the same 1,000-object bundle with every
// transform twice in one run: celyaml render (the engine facade, as the
// command calls it, output encoded as YAML) and kustomize build (its own
// library, krusty, on an in-memory file system). Both give the same
// number of objects; TestKustomize_sameObjectsAsKustomizeBuild holds
// them to the same content.
func BenchmarkKustomize_1000(b *testing.B) {
	bundle := bigBundle(b, benchObjects)
	s := benchSpec()
	k, tmpl := s.kustomization(), s.template()
	ctx := context.Background()
	eng := newEngine(bundle)

	// Both must give the same objects before either is timed.
	kout, err := kustomizeBuild(bundle, k)
	if err != nil {
		b.Fatal(err)
	}
	cout, err := celyamlRender(ctx, eng, tmpl)
	if err != nil {
		b.Fatal(err)
	}
	kobj, err := objects(kout)
	if err != nil {
		b.Fatal(err)
	}
	cobj, err := objects(cout)
	if err != nil {
		b.Fatal(err)
	}
	if len(kobj) != benchObjects-1 || len(cobj) != benchObjects-1 {
		b.Fatalf("objects: kustomize %d, celyaml %d, want %d", len(kobj), len(cobj), benchObjects-1)
	}

	b.Run("celyaml", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cpuTime()
		for b.Loop() {
			if _, err := celyamlRender(ctx, eng, tmpl); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
	})
	b.Run("kustomize", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cpuTime()
		for b.Loop() {
			if _, err := kustomizeBuild(bundle, k); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
	})
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
