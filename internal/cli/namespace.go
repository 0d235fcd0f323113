package cli

import (
	"errors"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/transform"
)

// render's -n, --namespace: what Helm's -n does for a chart, a transform
// with a namespace only, applied after the template's own transforms (the
// language guide's §10; the engine's Namespace option), and
// --keep-namespace, the objects it leaves where they are (its
// keepNamespace). render.go only registers the flags and asks them for
// the engine's options.

// nsFlag is the value of -n and of --keep-namespace.
type nsFlag struct {
	ns   onceString
	keep []string
}

// onceString is a flag given at most once: a second -n is an error, not a
// silent override of the first.
type onceString struct {
	value string
	set   bool
}

func (s *onceString) String() string { return s.value }
func (s *onceString) Type() string   { return "NS" }
func (s *onceString) Set(v string) error {
	if s.set {
		return errors.New("given twice: a render has one namespace; to move some objects elsewhere, write a $transform for them (reference §10)")
	}
	s.value, s.set = v, true
	return nil
}

func (f *nsFlag) register(cmd *cobra.Command) {
	cmd.Flags().VarP(&f.ns, "namespace", "n",
		"put every namespaced object in `NS`, renaming Namespace objects and following the references kustomize's namespace: follows: a $transform with namespace: NS after the template's own")
	cmd.Flags().StringArrayVar(&f.keep, "keep-namespace", nil,
		"with -n, leave these objects where they are: `NAMESPACE` (every object it holds), KIND/NAME or KIND/NAMESPACE/NAME; repeatable (the $transform's keepNamespace)")
}

// options are the engine's options with the namespace set. A namespace
// Kubernetes would refuse is a usage error, found before anything is read.
func (f *nsFlag) options(cmd *cobra.Command, opts engine.Options) (engine.Options, error) {
	if !cmd.Flags().Changed("namespace") {
		if len(f.keep) > 0 {
			return opts, errors.New("--keep-namespace tells -n what to leave where it is, and no -n is given")
		}
		return opts, nil
	}
	if len(validation.IsDNS1123Label(f.ns.value)) > 0 {
		return opts, errors.New("--namespace: want a namespace name: lower-case letters, digits and '-', starting and ending with a letter or digit, at most 63 characters")
	}
	opts.Namespace = f.ns.value
	for _, s := range f.keep {
		k, ok := transform.ParseKeep(s)
		if !ok {
			return opts, errors.New("--keep-namespace " + s + ": want NAMESPACE, KIND/NAME or KIND/NAMESPACE/NAME")
		}
		opts.KeepNamespace = append(opts.KeepNamespace, k)
	}
	return opts, nil
}
