package provider

import (
	"sync"
	"testing"
)

func TestOnDeepStack_runsWorkAndReturnsAfterIt(t *testing.T) {
	var wg sync.WaitGroup
	results := make([]int, 64)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			onDeepStack(func() { results[i] = depth(i * 100) })
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r != i*100 {
			t.Fatalf("call %d gave %d, want %d", i, r, i*100)
		}
	}
	if n := len(idleWorkers); n > maxIdleWorkers {
		t.Fatalf("%d idle workers, want at most %d", n, maxIdleWorkers)
	}
}

func TestOnDeepStack_raisesAPanicOnTheCaller(t *testing.T) {
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v, want boom", r)
		}
	}()
	onDeepStack(func() { panic("boom") })
	t.Fatal("onDeepStack returned after a panic")
}

func TestOnDeepStack_keepsWorkingAfterAPanic(t *testing.T) {
	func() {
		defer func() { _ = recover() }()
		onDeepStack(func() { panic("boom") })
	}()
	got := 0
	onDeepStack(func() { got = 7 })
	if got != 7 {
		t.Fatalf("got %d after a panic, want 7", got)
	}
}

// depth recurses n frames deep, so that the worker's stack grows.
func depth(n int) int {
	var pad [64]byte
	if n == 0 {
		return int(pad[0])
	}
	return depth(n-1) + 1 + int(pad[n%64])
}

// The functions that render templates run on the workers; the others on
// the caller's goroutine.
func TestFunctionTable_rendersTemplatesOnDeepStacks(t *testing.T) {
	srv, ok := NewServer("test")().(*server)
	if !ok {
		t.Fatal("NewServer gave no *server")
	}
	table := functionTable(t.Context(), srv.provider)
	for name, want := range map[string]bool{"render": true, "render_file": true, "eval": false, "deep_merge": false} {
		sf, ok := table[name]
		if !ok {
			t.Fatalf("no function %s in the table", name)
		}
		if sf.deep != want {
			t.Errorf("%s: deep %v, want %v", name, sf.deep, want)
		}
	}
}
