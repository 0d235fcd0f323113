// Package cli is the celyaml command (cmd/celyaml): it renders, evaluates
// and checks CEL-YAML templates with the same engine as the Terraform
// provider, so template authors iterate without Terraform and CI checks
// templates without a plan. It lives here, not in package main, so the
// provider's tests can prove both print the same bytes. Its interface is
// fixed by the CLI guide (docs/guides/cli.md): commands render,
// post-render, eval, check, schema, lsp (the language server) and version;
// exit code 0 on success, 1 when the template or the values have a
// problem, 2 when the command line is wrong. Only results go to standard
// output.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

// Exit codes, as the CLI guide fixes them.
const (
	exitOK      = 0
	exitProblem = 1
	exitUsage   = 2
	// exitInterrupted is a command stopped by SIGINT (Ctrl-C) or SIGTERM,
	// 128 + SIGINT as a shell reports a process the signal killed.
	exitInterrupted = 130
)

// problemError is a problem with the template or the values (exit 1).
// Every other error a command returns is a usage error (exit 2): cobra's
// own errors for unknown commands, flags and argument counts among them.
type problemError struct{ err error }

func (e *problemError) Error() string { return e.err.Error() }
func (e *problemError) Unwrap() error { return e.err }

// problem marks err as a problem with the template or the values.
func problem(err error) error {
	if err == nil {
		return nil
	}
	return &problemError{err}
}

// errSilent ends a command with exit code 1 after it has already
// written its problems to standard error itself (check does).
var errSilent = errors.New("problems found")

// Run executes the command line args (without the program name) and
// returns the process's exit code. SIGINT (Ctrl-C) and SIGTERM cancel the
// command: reads and the render stop, --output-dir is left as it was, and
// the exit code is 130. A second signal ends the process at once.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // the next signal is the system's again
	}()
	return run(ctx, args, stdin, stdout, stderr)
}

// run is Run under ctx.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCommand(ctx, stdin)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	var p *problemError
	switch {
	case err == nil:
		return exitOK
	case ctx.Err() != nil:
		fmt.Fprintln(stderr, "celyaml: interrupted")
		return exitInterrupted
	case errors.Is(err, errSilent):
		return exitProblem
	case errors.As(err, &p):
		// The engine's own format, FILE:LINE:COLUMN first, so editors and
		// CI annotate the line.
		fmt.Fprintln(stderr, p.Error())
		return exitProblem
	default:
		fmt.Fprintln(stderr, "celyaml: "+err.Error())
		fmt.Fprintln(stderr, "Run 'celyaml --help' for usage.")
		return exitUsage
	}
}

// newRootCommand builds the command tree. stdin is what "-" reads; ctx
// stops reads and renders.
func newRootCommand(ctx context.Context, stdin io.Reader) *cobra.Command {
	root := &cobra.Command{
		Use:   "celyaml",
		Short: "Render and check CEL-YAML templates",
		Long: `celyaml renders CEL-YAML templates with the same engine and the same
output bytes as the celyaml Terraform provider, evaluates CEL expressions,
and checks templates for problems.

Exit codes: 0 success, 1 a problem with the template or the values,
2 a wrong command line.`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return err })
	in := &inputs{ctx: ctx, stdin: stdin}
	root.AddCommand(newRenderCommand(in), newPostRenderCommand(in), newEvalCommand(in), newCheckCommand(in),
		newSchemaCommand(), newLSPCommand(), newVersionCommand())
	return root
}
