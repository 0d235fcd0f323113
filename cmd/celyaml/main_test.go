package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/celyaml/terraform-provider-celyaml/internal/cli"
)

// TestMain lets the scripts run celyaml as a command of their own, in the
// test binary, with real standard streams and exit codes.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"celyaml": func() { os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs testdata/script/*.txtar: each command and flag of
// the CLI guide (docs/guides/cli.md), with the exact standard output, standard error and exit code.
// $EXAMPLES is the repository's examples directory, for the scripts that
// run an example the guide shows as it is.
func TestScripts(t *testing.T) {
	examples, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:  "testdata/script",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"ls": ls},
		Setup: func(env *testscript.Env) error {
			env.Setenv("EXAMPLES", examples)
			return nil
		},
	})
}

// ls is "ls DIR": DIR's entries in name order, hidden ones included, one a
// line on stdout: a directory with "/" after it, a symbolic link as
// "NAME -> TARGET".
func ls(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: ls DIR")
	}
	entries, err := os.ReadDir(ts.MkAbs(args[0]))
	ts.Check(err)
	for _, e := range entries {
		switch {
		case e.IsDir():
			fmt.Fprintf(ts.Stdout(), "%s/\n", e.Name())
		case e.Type()&os.ModeSymlink != 0:
			target, err := os.Readlink(filepath.Join(ts.MkAbs(args[0]), e.Name()))
			ts.Check(err)
			fmt.Fprintf(ts.Stdout(), "%s -> %s\n", e.Name(), target)
		default:
			fmt.Fprintln(ts.Stdout(), e.Name())
		}
	}
}
