package startup

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// The collector is off while packages initialise; after Done it stays off
// under a memory limit of twice the heap, and its first cycle restores
// GOGC's setting and GOMEMLIMIT's.
func TestDoneRestoresTheCollectorAfterItsFirstCycle(t *testing.T) {
	if gcPercent < 0 {
		t.Skip("GOGC=off: the collector is off throughout")
	}
	if started {
		t.Skip("a process starts once: -count reruns find it started")
	}
	started = true
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("during initialisation GOGC is %d, want -1 (off)", got)
	}
	userLimit := debug.SetMemoryLimit(-1)

	Done()
	if limit := debug.SetMemoryLimit(-1); limit == userLimit || limit == math.MaxInt64 {
		t.Fatalf("after Done the memory limit is %d, want twice the heap", limit)
	}
	Done() // a second call does nothing

	runtime.GC() // the first cycle finds the sentinel
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC() // and runs its finalizer
		pct := gogc()
		if pct == gcPercent && debug.SetMemoryLimit(-1) == userLimit {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the first cycle GOGC is %d and the memory limit %d, want %d and %d", pct, debug.SetMemoryLimit(-1), gcPercent, userLimit)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

var started bool

// gogc reads the collector's setting without changing it (-1 for off).
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	if p := int(s[0].Value.Uint64()); p != 0 || gcPercent == 0 {
		return p
	}
	return -1
}

// A server gets ServerGCPercent after its first cycle when GOGC is not
// set; GOGC, when set (off included), is kept.
func TestServeRaisesTheCollectorsSettingUnlessGOGCIsSet(t *testing.T) {
	saved := gcPercent
	defer func() { gcPercent = saved }()
	for _, c := range []struct {
		name       string
		env        string // "unset" for no GOGC
		read, want int
	}{
		{"unset", "unset", 100, ServerGCPercent},
		{"set to 100", "100", 100, 100},
		{"set to 50", "50", 50, 50},
		{"off", "off", -1, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GOGC", c.env)
			if c.env == "unset" {
				if err := os.Unsetenv("GOGC"); err != nil {
					t.Fatal(err)
				}
			}
			gcPercent = c.read
			Serve()
			if gcPercent != c.want {
				t.Fatalf("after Serve the setting to restore is %d, want %d", gcPercent, c.want)
			}
		})
	}
}
