//go:build unix

package kustomize

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path"
	"runtime/metrics"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// benchObjects is the size of the benchmark's bundle: the 3,363 objects
// of the platform bundle the transforms were first tried on against
// kustomize build. kustomize's build of it takes about 50 s of CPU (its
// cost grows faster than the objects: 2.2 s at 1,000), so the benchmark
// runs one pass of it.
const benchObjects = 3363

// releases are the release-shaped bundles (not probes.yaml).
func releases() []bundle {
	var out []bundle
	for _, b := range bundles {
		if b.file != "probes.yaml" {
			out = append(out, b)
		}
	}
	return out
}

// bigBundle is n objects taken in turn from the release-shaped bundles,
// copy after copy, each copy's names given a suffix so that no two
// objects share an ID. Only the first Namespace object is kept: under a
// namespace transform every Namespace becomes the same one.
func bigBundle(tb testing.TB, n int) []byte {
	var docs []map[string]any
	for _, b := range releases() {
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
	count, namespaces := 0, 0
	for c := 0; count < n; c++ {
		for _, doc := range docs {
			if count == n {
				break
			}
			if doc["kind"] == "Namespace" {
				if namespaces++; namespaces > 1 {
					continue
				}
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

// benchSpec is every transform at once and the removal of one object, the
// ingress bundle's first admission Job (the "all" scenario of the test,
// with the images of every bundle).
func benchSpec() spec {
	s := scenarios(bundles[0])["all"]
	s.images = nil
	for _, b := range releases() {
		s.images = append(s.images, b.images...)
	}
	return s
}

// BenchmarkKustomize_3363 builds the same 3,363-object bundle with every
// transform twice in one run: celyaml render (the engine facade, a new
// one per pass as each command has, output encoded as YAML: the bundle is
// read and parsed in every pass) and kustomize build (its own
// library, krusty, on an in-memory file system). Each must give the
// bundle's objects less the one removed; TestKustomize_sameObjectsAsKustomizeBuild
// holds the two to the same content. kustomize's build takes about 50 s
// of CPU, so one pass of this benchmark is slow.
func BenchmarkKustomize_3363(b *testing.B) {
	bundle := bigBundle(b, benchObjects)
	s := benchSpec()
	k, tmpl := s.kustomization(), s.template()
	ctx := context.Background()

	b.Run("celyaml", func(b *testing.B) {
		b.ReportAllocs()
		var out []byte
		cpu := cpuTime()
		for b.Loop() {
			var err error
			// a new engine each time, as each celyaml command has: the
			// bundle is read and parsed in every pass, as kustomize reads it
			if out, err = celyamlRender(ctx, newEngine(bundle), tmpl); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
		checkCount(b, out)
	})
	b.Run("kustomize", func(b *testing.B) {
		b.ReportAllocs()
		var out []byte
		cpu := cpuTime()
		for b.Loop() {
			var err error
			if out, err = kustomizeBuild(bundle, k); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
		checkCount(b, out)
	})
}

// checkCount fails b unless out holds the bundle's objects less the one
// removed; it runs after the timed loop.
func checkCount(b *testing.B, out []byte) {
	obj, err := objects(out)
	if err != nil {
		b.Fatal(err)
	}
	if len(obj) != benchObjects-1 {
		b.Fatalf("got %d objects, want %d", len(obj), benchObjects-1)
	}
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkPlatform renders the platform of TestPlatform_sixtyArgoCDCopiesFitTheDefaultLimits
// under the default limits: fifteen copies of an argo-cd-sized bundle (where
// the earlier limits stopped) and sixty, with every transform, output
// encoded as YAML. Time and allocations grow linearly with the copies;
// heap-MiB is the largest live heap seen while rendering (the bundle's
// text, the parsed and compiled template, the documents, the output),
// peak-MiB the process's peak resident memory once the render has run
// (run it alone, as make bench does: the peak is the process's).
func BenchmarkPlatform(b *testing.B) {
	for _, copies := range []int{15, 60} {
		b.Run(fmt.Sprintf("argocd=%d", copies), func(b *testing.B) {
			bundle := argoCDPlatform(b, copies)
			eng := platformEngine(bundle, engine.DefaultOptions())
			ctx := context.Background()
			b.ReportAllocs()
			var out []byte
			stop := sampleHeap()
			cpu := cpuTime()
			for b.Loop() {
				var err error
				if out, err = celyamlRender(ctx, eng, platformTemplate); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(stop())/(1<<20), "heap-MiB")
			b.ReportMetric(float64(len(out))/(1<<20), "out-MiB")
			b.ReportMetric(float64(peakRSS())/(1<<20), "peak-MiB")
			if n := bytes.Count(out, []byte("\n---\n")) + 1; n != 41*copies {
				b.Fatalf("got %d documents, want %d", n, 41*copies)
			}
		})
	}
}

// peakRSS is the process's peak resident memory, in bytes.
func peakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss * 1024 // kilobytes on Linux
}

// sampleHeap samples the live heap every 5 ms until the function it
// returns is called, which gives the largest seen, in bytes.
func sampleHeap() func() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var most uint64
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			most = maxOf(most, sample[0].Value.Uint64())
			select {
			case <-done:
				peak <- most
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		return <-peak
	}
}

func maxOf(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}
