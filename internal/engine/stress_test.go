package engine

// Concurrency and determinism: renders share one Engine safely and give
// byte-identical output.
//
// TestStress_sharedEngineMatchesSingleThreaded renders the whole golden
// corpus (testdata/golden) 100 times over, from 32 goroutines that share
// one Engine, and so its program and file caches, and compares every output
// byte for byte with the single-threaded result. The 100 passes are shared
// out: the goroutines take the next (pass, case) from a common counter, so
// at any moment 32 different cases render at once. Run it under -race
// (make test does):
//
//	go test -race ./internal/engine -run TestStress
//
// -stress-passes sets the number of passes; with -short it drops to 10.
// The test is never skipped.
//
// TestDeterminism_eachCaseFiftyTimes renders each case 50 times, each time
// on a fresh Engine, and wants identical YAML and JSON every time, whatever
// order Go's maps iterate in.

import (
	"context"
	"flag"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/emit"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"golang.org/x/tools/txtar"
)

const (
	stressGoroutines  = 32
	stressPassesShort = 10
	determinismRuns   = 50
)

var stressPasses = flag.Int("stress-passes", 100, "passes over the golden corpus in TestStress_sharedEngineMatchesSingleThreaded")

// corpusResult renders a case's template and returns everything a caller
// sees as text: the YAML stream and both JSON forms, or the error.
func corpusResult(ctx context.Context, e *Engine, name string, vars map[string]value.Value) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = fmt.Sprintf("engine panicked: %v", r)
		}
	}()
	docs, err := e.RenderFile(ctx, name, vars)
	if err != nil {
		return "error: " + err.Error()
	}
	y, err := emit.EncodeYAMLStream(docs)
	if err != nil {
		return "EncodeYAMLStream: " + err.Error()
	}
	var b strings.Builder
	b.Write(y)
	for _, sortKeys := range []bool{false, true} {
		b.WriteString("-- json --\n")
		for _, d := range docs {
			j, err := emit.AppendJSON(nil, d, sortKeys)
			if err != nil {
				return "AppendJSON: " + err.Error()
			}
			b.Write(j)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// stressGroup is the cases that share options, and so one Engine, with
// their files side by side under CASE/ in one file system.
type stressGroup struct {
	engine *Engine
	cases  []*stressCase
}

type stressCase struct {
	name string
	file string // CASE/template.yaml
	vars map[string]value.Value
	want string
}

func buildStressGroups(t *testing.T) []*stressGroup {
	t.Helper()
	cases := loadTxtarCases(t, goldenDir)
	if len(cases) == 0 {
		t.Fatal("no golden cases")
	}
	type acc struct {
		opts  Options
		files txtar.Archive
		cases []*stressCase
	}
	byOpts := map[string]*acc{}
	var keys []string
	for _, c := range cases {
		raw, _ := c.section("options.json")
		key := strings.TrimSpace(string(raw))
		a := byOpts[key]
		if a == nil {
			a = &acc{opts: caseOptions(t, c)}
			byOpts[key] = a
			keys = append(keys, key)
		}
		for _, f := range caseFiles(t, c).Files {
			a.files.Files = append(a.files.Files, txtar.File{Name: c.name + "/" + f.Name, Data: f.Data})
		}
		a.cases = append(a.cases, &stressCase{name: c.name, file: c.name + "/template.yaml", vars: caseVars(t, c)})
	}
	sort.Strings(keys)
	var groups []*stressGroup
	for _, k := range keys {
		a := byOpts[k]
		fsys, err := txtar.FS(&a.files)
		if err != nil {
			t.Fatal(err)
		}
		opts := a.opts
		opts.Loader = FSLoader{FS: fsys}
		groups = append(groups, &stressGroup{engine: New(opts), cases: a.cases})
	}
	return groups
}

func TestStress_sharedEngineMatchesSingleThreaded(t *testing.T) {
	passes := *stressPasses
	if testing.Short() {
		passes = min(passes, stressPassesShort)
	}
	ctx := context.Background()
	groups := buildStressGroups(t)

	// The reference: one goroutine, on a fresh engine of the same options,
	// so the shared engine starts with cold caches.
	var all []*stressCase
	engines := map[*stressCase]*Engine{}
	for _, g := range groups {
		ref := New(g.engine.opts)
		for _, c := range g.cases {
			c.want = corpusResult(ctx, ref, c.file, c.vars)
			if strings.Contains(c.want, "engine panicked") {
				t.Fatalf("%s: %s", c.name, c.want)
			}
			all = append(all, c)
			engines[c] = g.engine
		}
	}

	var (
		next     atomic.Int64
		renders  atomic.Int64
		wg       sync.WaitGroup
		mu       sync.Mutex
		failures []string
	)
	total := int64(passes * len(all))
	for g := 0; g < stressGoroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for {
				k := next.Add(1) - 1
				if k >= total {
					return
				}
				c := all[k%int64(len(all))]
				got := corpusResult(ctx, engines[c], c.file, c.vars)
				renders.Add(1)
				if got != c.want {
					mu.Lock()
					if len(failures) < 10 {
						failures = append(failures, fmt.Sprintf("%s (goroutine %d, pass %d):\n--- want:\n%s\n--- got:\n%s", c.name, g, k/int64(len(all)), c.want, got))
					}
					mu.Unlock()
				}
			}
		}(g)
	}
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}
	if renders.Load() != total {
		t.Errorf("rendered %d times, want %d", renders.Load(), total)
	}
}

func TestDeterminism_eachCaseFiftyTimes(t *testing.T) {
	ctx := context.Background()
	for _, c := range loadTxtarCases(t, goldenDir) {
		t.Run(c.name, func(t *testing.T) {
			opts := caseOptions(t, c)
			vars := caseVars(t, c)
			first := corpusResult(ctx, New(opts), "template.yaml", vars)
			if strings.Contains(first, "engine panicked") {
				t.Fatal(first)
			}
			for i := 1; i < determinismRuns; i++ {
				// Fresh variables too: maps built anew each run.
				if got := corpusResult(ctx, New(opts), "template.yaml", caseVars(t, c)); got != first {
					t.Fatalf("run %d differs:\n--- first:\n%s\n--- now:\n%s", i+1, first, got)
				}
			}
		})
	}
}
