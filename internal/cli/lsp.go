package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/celyaml/terraform-provider-celyaml/internal/chartremote"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/lsp"
)

func newLSPCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "lsp",
		Short: "Run a language server on standard input and output, for editors",
		Long: `Run a Language Server Protocol server on standard input and output. As
the template is typed, it publishes what check finds without values (the
same problems, at the same places); it completes directive names after $,
the names in scope inside an expression (${{ }}, $eval, $if, $for, …) and
the fields a $schema declares after "name."; hover shows how a name is
bound, its $schema type and description; go-to-definition jumps from a
name to its $let, $for or $schema entry and from an $include path to the
file. Buffers open in the editor stand in for their files on disk.

The CLI guide's "Language server" section shows the setup for VS Code,
Neovim and Helix.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eo := engine.DefaultOptions()
			// An editor must not download while one types: the charts a
			// render or a check downloaded are read from the cache.
			eo.FetchChart = chartremote.ForEngine(chartremote.Options{Offline: true})
			srv := lsp.New(lsp.Options{
				Engine:  eo,
				Version: Version,
				After: func(docs []engine.Document, _ []byte) error {
					_, err := newRendered(docs)
					return err
				},
			})
			return srv.Serve(cmd.Context(), stdio{cmd.InOrStdin(), cmd.OutOrStdout()})
		},
	}
}

// stdio is the server's stream: the command's standard input and output.
type stdio struct {
	io.Reader
	io.Writer
}

// Close closes standard input, when it can be, so that the read ends.
func (s stdio) Close() error {
	if c, ok := s.Reader.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
