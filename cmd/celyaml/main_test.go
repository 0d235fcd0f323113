package main

import (
	"os"
	"strings"
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
// CLI.md, with the exact standard output, standard error and exit code.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:  "testdata/script",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"cmpjson": cmpJSON},
	})
}

// cmpJSON is "cmpjson stdout FILE": stdout must be FILE's text without its
// final newline, since a txtar file always ends in one and the JSON of
// render -o json, like the provider's json attribute, does not.
func cmpJSON(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 || args[0] != "stdout" {
		ts.Fatalf("usage: cmpjson stdout FILE")
	}
	want := strings.TrimSuffix(ts.ReadFile(args[1]), "\n")
	if got := ts.ReadFile("stdout"); got != want {
		ts.Fatalf("stdout:\n%s\nwant:\n%s", got, want)
	}
}
