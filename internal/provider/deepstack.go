package provider

// gRPC serves each call on a new goroutine, whose stack starts small
// (the runtime starts goroutines at the average stack size it last saw,
// and most of a server's goroutines are shallow). A render walks the
// template's tree and CEL's interpreter recursively, so each call grew
// its stack several times over, copying it each time: about 7% of the
// provider's CPU in a plan of 100 render_file() calls (perf, the
// provider reattached). onDeepStack runs such work on a few long-lived
// goroutines instead, whose stacks have already grown; the collector
// still shrinks an idle one, so a worker regrows at most once per cycle.

// maxIdleWorkers is how many workers wait for work; more run at once
// when Terraform calls in parallel, and exit when done.
const maxIdleWorkers = 4

// idleWorkers are the workers waiting for work, each by its job channel.
var idleWorkers = make(chan chan func(), maxIdleWorkers)

// onDeepStack runs f on a worker goroutine and returns when f has
// returned. A panic in f is raised again on the caller's goroutine, as
// if f had run there.
func onDeepStack(f func()) {
	var (
		done      = make(chan struct{})
		recovered any
		panicked  bool
	)
	job := func() {
		defer close(done)
		defer func() {
			if panicked {
				recovered = recover()
			}
		}()
		panicked = true
		f()
		panicked = false
	}
	select {
	case w := <-idleWorkers:
		w <- job
	default:
		w := make(chan func(), 1)
		w <- job
		go work(w)
	}
	<-done
	if panicked {
		panic(recovered)
	}
}

// work runs the jobs sent on w, and waits among the idle workers for the
// next; when enough are waiting already, it exits.
func work(w chan func()) {
	for job := range w {
		job()
		select {
		case idleWorkers <- w:
		default:
			return
		}
	}
}
