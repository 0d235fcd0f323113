package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Version and Commit are what `celyaml version` prints; cmd/celyaml sets
// them from its own, which goreleaser sets through -ldflags.
var (
	Version = "dev"
	Commit  = "none"
)

// pinnedModules are the libraries whose versions decide what a template
// means: the CEL language, the YAML parser, Kubernetes' CEL libraries.
var pinnedModules = []string{
	"github.com/google/cel-go",
	"go.yaml.in/yaml/v3",
	"k8s.io/apiserver",
}

func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version and the pinned library versions",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			v := Version
			deps := map[string]string{}
			if info, ok := debug.ReadBuildInfo(); ok {
				if v == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
					v = info.Main.Version // go install ...@vX.Y.Z
				}
				for _, d := range info.Deps {
					deps[d.Path] = d.Version
				}
			}
			fmt.Fprintf(w, "celyaml %s (commit %s, %s)\n", v, Commit, runtime.Version())
			for _, m := range pinnedModules {
				if deps[m] != "" {
					fmt.Fprintf(w, "%s %s\n", m, deps[m])
				}
			}
			return nil
		},
	}
}
