package cli

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// checkFlags are check's own flags.
type checkFlags struct {
	strict bool
	format string
}

func newCheckCommand(in *inputs) *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "check FILE...",
		Short: "Find every problem in templates without rendering them",
		Long: `Check templates and report every problem found, one line each in the
engine's format (FILE:LINE:COLUMN: directive.path: message), on standard error:
YAML errors, unknown directives, missing partners, $schema slips and
unreadable $include files, in every document of every file. Warnings: a
plain string holding ${{ NAME }} for a variable NAME in scope (a forgotten
$eval) and, with -f, a values key the templates never name. With -f it also
renders each template with those values and reports what rendering finds.

Exit code 1 when there is an error (or, with --strict, a warning).`,
		Example: `  celyaml check templates/*.yaml
  celyaml check app.yaml -f values.yaml --strict --format github`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.format != "text" && f.format != "github" {
				return fmt.Errorf("--format %q: want text or github", f.format)
			}
			return runCheck(cmd, in, f, args)
		},
	}
	in.addValuesFlags(cmd)
	cmd.Flags().BoolVar(&f.strict, "strict", false, "treat warnings as errors")
	cmd.Flags().StringVar(&f.format, "format", "text", "problem format: text, or github (GitHub Actions annotations)")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "github"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func runCheck(cmd *cobra.Command, in *inputs, f checkFlags, files []string) error {
	var vars map[string]engine.Value
	if len(in.files) > 0 || len(in.sets) > 0 {
		var err error
		if vars, err = in.vars(); err != nil {
			return err
		}
	}
	eng := engine.New(engine.DefaultOptions())
	var problems []engine.Problem
	var texts [][]byte
	for _, name := range files {
		src, err := in.source(eng, name, "")
		if err != nil {
			var e *engine.Error
			if !errors.As(err, &e) {
				return err // a usage error: standard input twice
			}
			problems = append(problems, engine.Problem{Err: e})
			continue
		}
		found, read := eng.Check(in.ctx, src, func(n string) bool { _, ok := vars[n]; return ok })
		problems, texts = append(problems, found...), append(texts, read...)
		if vars != nil && !hasError(found) {
			if _, err := eng.RenderDocuments(in.ctx, src, vars); err != nil {
				var e *engine.Error
				if errors.As(err, &e) {
					problems = append(problems, engine.Problem{Err: e})
				}
			}
		}
	}
	problems = append(problems, in.unreadKeys(vars, texts)...)
	failed := false
	w := cmd.ErrOrStderr()
	for _, p := range problems {
		failed = failed || !p.Warning || f.strict
		writeProblem(w, p, f.format)
	}
	if failed {
		return errSilent
	}
	return nil
}

func hasError(ps []engine.Problem) bool {
	for _, p := range ps {
		if !p.Warning {
			return true
		}
	}
	return false
}

// unreadKeys warns on each top-level key of the values files that no
// template text names: no $schema, $let or expression can read it.
func (in *inputs) unreadKeys(vars map[string]engine.Value, texts [][]byte) []engine.Problem {
	var out []engine.Problem
	for key, pos := range in.keyPos {
		if _, ok := vars[key]; !ok {
			continue // deleted by a later layer
		}
		word := regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(key) + `($|[^A-Za-z0-9_])`)
		read := false
		for _, t := range texts {
			if word.Match(t) {
				read = true
				break
			}
		}
		if !read {
			out = append(out, engine.Problem{Warning: true, Err: &engine.Error{Pos: pos, Offset: -1,
				Msg: fmt.Sprintf("values key %q is read by no $schema, $let or expression of the templates checked", key)}})
		}
	}
	sortProblems(out)
	return out
}

func sortProblems(ps []engine.Problem) {
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && posLess(ps[j].Err.Pos, ps[j-1].Err.Pos); j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}

func posLess(a, b engine.Pos) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}

// writeProblem writes one problem on one line: the engine's format, or a
// GitHub Actions annotation.
func writeProblem(w io.Writer, p engine.Problem, format string) {
	e := p.Err
	msg := e.Msg
	if e.Path != "" {
		msg = e.Path + ": " + msg
	}
	msg = strings.ReplaceAll(msg, "\n", " ")
	if format == "github" {
		level := "error"
		if p.Warning {
			level = "warning"
		}
		fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d::%s\n", level, ghProperty(e.Pos.File), e.Pos.Line, e.Pos.Column, ghData(msg))
		return
	}
	if p.Warning {
		msg = "warning: " + msg
	}
	fmt.Fprintf(w, "%s: %s\n", e.Pos, msg)
}

// ghData and ghProperty escape annotation text as the GitHub Actions
// toolkit does.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
