package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// render's --max-… flags: the engine's limits (reference §7), each named
// after its option, which a limit's error names. A size takes a byte
// count or a Kubernetes quantity (512Mi, 1Gi).

// limitFlag is one limit: its flag, its option, and where it goes.
type limitFlag struct {
	flag, option string
	bytes        bool
	set          func(o *engine.Options, n int64)
	get          func(o engine.Options) int64
}

var limitFlags = []limitFlag{
	{"max-nodes", "MaxNodes", false, func(o *engine.Options, n int64) { o.MaxNodes = int(n) }, func(o engine.Options) int64 { return int64(o.MaxNodes) }},
	{"max-output-bytes", "MaxOutputBytes", true, func(o *engine.Options, n int64) { o.MaxOutputBytes = int(n) }, func(o engine.Options) int64 { return int64(o.MaxOutputBytes) }},
	{"max-template-bytes", "MaxTemplateBytes", true, func(o *engine.Options, n int64) { o.MaxTemplateBytes = int(n) }, func(o engine.Options) int64 { return int64(o.MaxTemplateBytes) }},
	{"max-iterations", "MaxIterations", false, func(o *engine.Options, n int64) { o.MaxIterations = int(n) }, func(o engine.Options) int64 { return int64(o.MaxIterations) }},
	{"max-cost-per-render", "MaxCostPerRender", false, func(o *engine.Options, n int64) { o.MaxCostPerRender = uint64(n) }, func(o engine.Options) int64 { return int64(o.MaxCostPerRender) }},
	{"max-cost-per-expression", "MaxCostPerExpression", false, func(o *engine.Options, n int64) { o.MaxCostPerExpression = uint64(n) }, func(o engine.Options) int64 { return int64(o.MaxCostPerExpression) }},
	{"max-include-depth", "MaxIncludeDepth", false, func(o *engine.Options, n int64) { o.MaxIncludeDepth = int(n) }, func(o engine.Options) int64 { return int64(o.MaxIncludeDepth) }},
	{"max-depth", "MaxDepth", false, func(o *engine.Options, n int64) { o.MaxDepth = int(n) }, func(o engine.Options) int64 { return int64(o.MaxDepth) }},
}

// limitValue is the value of one --max-… flag.
type limitValue struct {
	f limitFlag
	n int64
}

func (v *limitValue) String() string { return strconv.FormatInt(v.n, 10) }
func (v *limitValue) Type() string {
	if v.f.bytes {
		return "BYTES"
	}
	return "N"
}

func (v *limitValue) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil && v.f.bytes && !hugeQuantity(s) {
		q, qerr := resource.ParseQuantity(s)
		if qerr == nil {
			n, err = q.Value(), nil
		}
	}
	switch {
	case err != nil && v.f.bytes:
		return fmt.Errorf("want a size in bytes, such as 268435456 or 256Mi")
	case err != nil:
		return fmt.Errorf("want a whole number")
	case n <= 0:
		return fmt.Errorf("want a limit above 0")
	case n > math.MaxInt32 && (v.f.option == "MaxIncludeDepth" || v.f.option == "MaxDepth"):
		return fmt.Errorf("want at most %d", math.MaxInt32)
	}
	v.n = n
	return nil
}

// hugeQuantity tells a quantity too long, or with an exponent too large,
// to be a size in bytes. resource.ParseQuantity spends minutes and
// gigabytes on a long mantissa with a huge exponent
// ("10000000000E700000000000000000"), so such a value is refused before
// it is parsed. No size that fits in an int64 needs an exponent above 99.
func hugeQuantity(s string) bool {
	if len(s) > 64 {
		return true
	}
	i := strings.IndexAny(s, "eE")
	if i < 0 {
		return false
	}
	exp := strings.TrimLeft(strings.TrimLeft(s[i+1:], "+-"), "0")
	return len(exp) > 2
}

// limits holds the values of the --max-… flags.
type limits []*limitValue

func (l *limits) register(fs *pflag.FlagSet) {
	d := engine.DefaultOptions()
	for _, f := range limitFlags {
		v := &limitValue{f: f, n: f.get(d)}
		*l = append(*l, v)
		fs.Var(v, f.flag, "raise or lower the engine's "+f.option+" limit (the language reference's §7)")
	}
}

// apply sets the limits given on the command line in opts.
func (l limits) apply(cmd *cobra.Command, opts engine.Options) engine.Options {
	for _, v := range l {
		if cmd.Flags().Changed(v.f.flag) {
			v.f.set(&opts, v.n)
		}
	}
	return opts
}
