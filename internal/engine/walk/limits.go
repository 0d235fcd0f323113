package walk

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"go.yaml.in/yaml/v3"
)

// The render's limits: output nodes and bytes, nesting depth, $for
// iterations, the CEL budget of overlays and list edits, and cancellation.

// CountValue counts a value inserted whole (what an exact $eval gives,
// often a variable's value) with its real size. A value that holds
// another many times by reference (`${{ x }}` for an x that holds the
// value before it twice, level after level) is small in memory and may be
// exponential once written, so it is counted as written. The walk stops
// at the limits, so it costs at most what writing the value would.
func (r *Renderer) CountValue(fr *diag.Frame, n *yaml.Node, path string, v value.Value) error {
	switch x := v.(type) {
	case *value.Map, []value.Value:
	case string:
		return r.Count(fr, n, path, 1, len(x))
	default:
		return r.Count(fr, n, path, 1, 8)
	}
	o := outputSize{maxNodes: r.e.opts.MaxNodes - r.nodes, maxBytes: r.e.opts.MaxOutputBytes - r.bytes}
	o.add(v)
	return r.Count(fr, n, path, o.nodes, o.bytes)
}

// Size counts the nodes and bytes of v as the emitters write it, up to
// the render's limits.
func (r *Renderer) Size(v value.Value) (nodes, bytes int) {
	o := outputSize{maxNodes: r.e.opts.MaxNodes, maxBytes: r.e.opts.MaxOutputBytes}
	o.add(v)
	return o.nodes, o.bytes
}

// outputSize counts the nodes and bytes of values as the emitters write
// them, up to limits.
type outputSize struct {
	nodes, bytes       int
	maxNodes, maxBytes int
}

// add counts v and reports whether the counts stay within the limits.
func (o *outputSize) add(v value.Value) bool {
	o.nodes++
	switch x := v.(type) {
	case string:
		o.bytes += len(x) + 1
	case *value.Map:
		for i := 0; i < x.Len(); i++ {
			k, e := x.At(i)
			o.bytes += len(k) + 2
			if !o.add(e) {
				return false
			}
		}
	case []value.Value:
		for _, e := range x {
			if !o.add(e) {
				return false
			}
		}
	default:
		o.bytes += 4
	}
	return o.nodes <= o.maxNodes && o.bytes <= o.maxBytes
}

// Count charges output nodes and bytes against the render's limits.
func (r *Renderer) Count(fr *diag.Frame, n *yaml.Node, path string, nodes, bytes int) error {
	r.nodes += nodes
	r.bytes += bytes
	if r.nodes > r.e.opts.MaxNodes {
		return r.LimitErr(fr, n, path, "MaxNodes", "the output has more than MaxNodes ("+tree.Itoa(r.e.opts.MaxNodes)+") nodes")
	}
	if r.bytes > r.e.opts.MaxOutputBytes {
		return r.LimitErr(fr, n, path, "MaxOutputBytes", "the output is larger than MaxOutputBytes ("+tree.Itoa(r.e.opts.MaxOutputBytes)+" bytes)")
	}
	return nil
}

// checkDepth enforces MaxDepth on a compiled file.
func (r *Renderer) checkDepth(f *tree.CompiledFile, fr *diag.Frame) error {
	limit := r.e.opts.MaxDepth
	if f.Depth > limit {
		return r.LimitErr(fr, f.Deepest, "", "MaxDepth", "the template nests deeper than MaxDepth ("+tree.Itoa(limit)+" levels of mappings and sequences)")
	}
	if n := len(f.Preambles); n > 0 && f.Depth+n > limit {
		// Each preamble nests the later documents one level deeper, and a
		// lookup walks every level: unbounded, they would make a render
		// quadratic in the file's size.
		at := f.Preambles[min(n-1, limit-f.Depth)]
		return r.LimitErr(fr, at, "", "MaxDepth", "the template has "+tree.Itoa(n)+" preambles, each nesting the documents after it one level deeper, which with "+
			tree.Itoa(f.Depth)+" levels of mappings and sequences is deeper than MaxDepth ("+tree.Itoa(limit)+"); put their $let entries into fewer preambles")
	}
	return nil
}

// Tick is called once per $for iteration: it counts iterations against
// MaxIterations and notices cancellation.
func (r *Renderer) Tick(fr *diag.Frame, n *yaml.Node, path string) error {
	if r.steps+1 > r.e.opts.MaxIterations {
		return r.LimitErr(fr, n, path, "MaxIterations", "the render runs more than MaxIterations ("+tree.Itoa(r.e.opts.MaxIterations)+") $for iterations")
	}
	return r.pulse(fr, n, path)
}

// Step is called once for each target an overlay or a list edit is tried
// on: each costs one unit of the render's CEL budget, even when its
// condition is a YAML bool, so that many overlays on many documents stop at
// MaxCostPerRender instead of running for hours.
func (r *Renderer) Step(fr *diag.Frame, n *yaml.Node, path string) error {
	if r.budget == 0 {
		return r.LimitErr(fr, n, path, "MaxCostPerRender", "the render's CEL cost budget is used up (MaxCostPerRender), each overlay tried on each document costing one")
	}
	r.budget--
	return r.pulse(fr, n, path)
}

// pulse is called once per step of any loop (a $for iteration, an overlay
// or list edit tried on one target): it notices cancellation.
func (r *Renderer) pulse(fr *diag.Frame, n *yaml.Node, path string) error {
	r.steps++
	if r.steps&63 == 0 {
		if err := r.ctx.Err(); err != nil {
			return r.ErrAt(fr, n, path, "rendering cancelled: "+err.Error())
		}
	}
	return nil
}

// LimitErr is the error for a render that passes the engine option limit.
func (r *Renderer) LimitErr(fr *diag.Frame, n *yaml.Node, path, limit, msg string) error {
	e := r.ErrAt(fr, n, path, msg+hint.RaiseLimit(limit))
	e.Limit = limit
	return e
}
