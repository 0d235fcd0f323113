package cli

import (
	"errors"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// render's -n, --namespace: what Helm's -n does for a chart, a transform
// with a namespace only, applied after the template's own transforms (the
// language guide's §10; the engine's Namespace option). render.go only
// registers the flag and asks it for the engine's options.

// nsFlag is the value of -n; "" when not given.
type nsFlag struct{ ns string }

func (f *nsFlag) register(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&f.ns, "namespace", "n", "",
		"put every namespaced object in `NS`, renaming Namespace objects and following the references kustomize's namespace: follows: a $transform with namespace: NS after the template's own")
}

// options are the engine's options with the namespace set. A namespace
// Kubernetes would refuse is a usage error, found before anything is read.
func (f *nsFlag) options(cmd *cobra.Command) (engine.Options, error) {
	opts := engine.DefaultOptions()
	if !cmd.Flags().Changed("namespace") {
		return opts, nil
	}
	if len(validation.IsDNS1123Label(f.ns)) > 0 {
		return opts, errors.New("--namespace: want a namespace name: lower-case letters, digits and '-', starting and ending with a letter or digit, at most 63 characters")
	}
	opts.Namespace = f.ns
	return opts, nil
}
