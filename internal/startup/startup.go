// Package startup keeps the garbage collector from running while a
// command's packages initialise, and until the heap has grown to twice what
// initialisation left.
//
// Initialising the provider's and celyaml's packages (CEL, the Kubernetes
// CEL libraries and validators, JSON Schema meta-schemas) allocates about
// 5 MB that stays live. With the collector's default start (a 4 MB heap
// goal), a launch runs a collection or two in the middle of it, marking
// that heap again each time: about a quarter of the CPU of a short
// `celyaml render`, and of each launch of the provider by Terraform. The
// collector would run its next cycle at twice the heap the previous one
// found live; this package gives it that first goal after initialisation
// instead of 4 MB during it.
//
// It imports only the standard library's low-level packages, so it is
// initialised before the heavy packages (Go initialises, among the packages whose imports are
// ready, the first by import path, and this path sorts before
// github.com/google/cel-go, k8s.io/... and the rest). A main package
// imports it first and calls Done at the start of main.
package startup

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// gcPercent is the collector's setting from GOGC (100 by default, -1 for
// off), read while switching it off for initialisation.
var gcPercent = debug.SetGCPercent(-1)

var done sync.Once

// ServerGCPercent is the collector's setting Serve gives a server when GOGC
// is not set.
//
// The provider's live heap after initialisation is small (about 4 MB), so
// GOGC=100 starts a cycle every 4 MB allocated: a plan of 100
// render_file() calls (each call made twice, at validate and at plan) ran
// about ten cycles, a quarter of the provider's CPU. At 400 the heap goal
// is about 20 MB and a cycle comes every 16 MB.
const ServerGCPercent = 400

// Serve sets the collector for a server process, before Done: when GOGC is
// not set, its setting after the first cycle is ServerGCPercent. GOGC,
// when set, wins, as does GOMEMLIMIT.
func Serve() {
	if _, set := os.LookupEnv("GOGC"); !set && gcPercent >= 0 {
		gcPercent = ServerGCPercent
	}
}

// Done ends the start-up: the collector stays off until the heap reaches
// twice what initialisation left (or GOMEMLIMIT, if lower), then its first
// cycle restores GOGC's setting and GOMEMLIMIT. Later calls do nothing.
func Done() {
	done.Do(func() {
		if gcPercent < 0 {
			debug.SetGCPercent(gcPercent) // GOGC=off: nothing to restore
			return
		}
		userLimit := debug.SetMemoryLimit(-1) // -1 reads the limit
		sample := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
		metrics.Read(sample)
		limit := int64(math.MaxInt64)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			if total := sample[0].Value.Uint64(); total < math.MaxInt64/4 {
				limit = 2*int64(total) + 4<<20
			}
		}
		if limit >= userLimit || limit == math.MaxInt64 {
			debug.SetGCPercent(gcPercent)
			return
		}
		// With GOGC off, the memory limit alone starts the first cycle;
		// the sentinel's finalizer runs after it and restores the settings.
		debug.SetMemoryLimit(limit)
		// The finalizer runs on the runtime's own goroutine: it restores
		// the setting as Done read it, and reads no package variable.
		restore := gcPercent
		runtime.SetFinalizer(new(sentinel), func(*sentinel) {
			debug.SetGCPercent(restore)
			debug.SetMemoryLimit(userLimit)
		})
	})
}

// sentinel is an object nothing references, whose finalizer marks the end
// of the first collection. It holds a pointer so that it is not a tiny
// allocation sharing a block with others (whose finalizers may never run),
// nor zero-sized (those may all share one address, never collected).
type sentinel struct{ _ *byte }
