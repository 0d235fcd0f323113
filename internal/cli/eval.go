package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

func newEvalCommand(in *inputs) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "eval EXPRESSION",
		Short: "Evaluate one CEL expression, printed as JSON",
		Long: `Evaluate one CEL expression with the variables of the values files and
--set, and print its value as JSON (or, with -o yaml, as one YAML document).`,
		Example: `  celyaml eval 'replicas * 2' --set replicas=3
  celyaml eval 'image.repo + ":" + image.tag' -f values.yaml
  celyaml eval 'values.image.tag' -f values=chart/values.yaml
  celyaml eval 'size(xs)' --set 'xs={a,b,c}'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if output != "json" && output != "yaml" {
				return fmt.Errorf("--output %q: eval prints json or yaml", output)
			}
			vars, err := in.vars()
			if err != nil {
				return err
			}
			v, err := engine.New(engine.DefaultOptions()).Eval(in.ctx, args[0], vars)
			if err != nil {
				return problem(err)
			}
			var out []byte
			if output == "yaml" {
				out, err = engine.EncodeYAML(v)
			} else if out, err = engine.AppendJSON(nil, v, false); err == nil {
				out = append(out, '\n')
			}
			if err != nil {
				return problem(err)
			}
			_, err = cmd.OutOrStdout().Write(out)
			return err
		},
	}
	in.addValuesFlags(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "json", "output format: json or yaml")
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions([]string{"json", "yaml"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}
