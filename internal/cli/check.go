package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
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
		Short: "Find every problem in templates, and render them when their inputs are known",
		Long: `Check templates and report every problem found, one line each in the
engine's format (FILE:LINE:COLUMN: directive.path: message), on standard error:
YAML errors, unknown directives, missing partners (every one of a mapping),
$schema slips, CEL syntax errors, unknown functions, names that no $let,
$for, $schema or values file declares (with render's "did you mean"), and
unreadable $include files, in every document of every file. Warnings: a
plain string holding ${{ NAME }} for a variable NAME in scope (a forgotten
$eval) and, with -f, a values key the templates never name.

With -f (or --set) it also renders each template with those values and
reports what rendering finds; without values it renders a template when
every input its $schema declares has a default (or it declares none). A
file that another checked template includes by a literal path is checked
as part of that template, in its scope, not alone.

--format json prints one JSON object per problem and line (JSON Lines):
{"file","line","column","path","message","severity"}.

Exit code 1 when there is an error (or, with --strict, a warning).`,
		Example: `  celyaml check templates/*.yaml
  celyaml check app.yaml -f values.yaml --strict --format github
  celyaml check app.yaml --format json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch f.format {
			case "text", "github", "json":
			default:
				return fmt.Errorf("--format %q: want text, github or json", f.format)
			}
			return runCheck(cmd, in, f, args)
		},
	}
	in.addValuesFlags(cmd)
	cmd.Flags().BoolVar(&f.strict, "strict", false, "treat warnings as errors")
	cmd.Flags().StringVar(&f.format, "format", "text", "problem format: text, github (GitHub Actions annotations) or json (JSON Lines)")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "github", "json"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func runCheck(cmd *cobra.Command, in *inputs, f checkFlags, files []string) error {
	w := cmd.ErrOrStderr()
	var vars map[string]value.Value
	if len(in.files) > 0 || len(in.sets) > 0 {
		var err error
		if vars, err = in.vars(); err != nil {
			var pe *problemError
			if !errors.As(err, &pe) {
				return err // a usage error: a --set that is not PATH=VALUE
			}
			if f.format == "text" {
				return err // as render prints it
			}
			writeProblem(w, positioned(err), f.format)
			return errSilent
		}
	}
	eng := engine.New(engine.DefaultOptions())
	var problems []engine.Problem
	var texts [][]byte
	srcs := make([]engine.Source, len(files))
	read := make([]bool, len(files))
	unreadable := make([]*engine.Error, len(files))
	included := map[string]bool{}
	for i, name := range files {
		src, err := in.source(eng, name, "")
		if err != nil {
			var e *engine.Error
			if !errors.As(err, &e) {
				return err // a usage error: standard input twice
			}
			unreadable[i] = e
			continue
		}
		srcs[i], read[i] = src, true
		for _, p := range eng.LiteralIncludes(src) {
			included[absPath(p)] = true
		}
	}
	for i, src := range srcs {
		if !read[i] {
			problems = append(problems, engine.Problem{Err: unreadable[i]})
			continue
		}
		if src.Name != "" && included[absPath(src.Name)] {
			continue // checked as part of the template that includes it
		}
		found, texts1 := eng.CheckRender(in.ctx, src, vars, func(docs []engine.Document) error {
			_, err := newRendered(docs)
			return err
		})
		for _, p := range found {
			// A value that breaks $schema: the values file lines that gave
			// it come first, then the $schema (as render prints it).
			problems = append(append(problems, in.valuesProblems(p.Err)...), p)
		}
		texts = append(texts, texts1...)
	}
	problems = append(dedupProblems(problems), in.unreadKeys(vars, texts)...)
	failed := false
	for _, p := range problems {
		failed = failed || !p.Warning || f.strict
		writeProblem(w, p, f.format)
	}
	if failed {
		return errSilent
	}
	return nil
}

// dedupProblems drops a problem reported before at the same place with
// the same words: a helpers file that several checked templates include is
// checked within each of them.
func dedupProblems(ps []engine.Problem) []engine.Problem {
	seen := map[string]bool{}
	out := ps[:0]
	for _, p := range ps {
		key := fmt.Sprintf("%s\x00%s\x00%s\x00%t", p.Err.Pos, p.Err.Path, p.Err.Msg, p.Warning)
		if !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	return out
}

// absPath is p made absolute, to compare the paths of the command line
// with the paths templates include; p itself when that fails.
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// positionedErr matches an error that starts with FILE:LINE:COLUMN, as
// the values files' errors do.
var positionedErr = regexp.MustCompile(`^(.+?):(\d+):(\d+): ((?s).*)$`)

// lineErr matches an error that names a file and a line only, as the
// YAML parser's do: "FILE: line N: message".
var lineErr = regexp.MustCompile(`^(.+?): line (\d+): ((?s).*)$`)

// positioned makes a problem of an error that is not the engine's: at the
// FILE:LINE:COLUMN (or FILE: line N) its text starts with, or of no file.
func positioned(err error) engine.Problem {
	var e *engine.Error
	if errors.As(err, &e) {
		return engine.Problem{Err: e}
	}
	msg := err.Error()
	if m := positionedErr.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		return engine.Problem{Err: &engine.Error{Pos: engine.Pos{File: m[1], Line: line, Column: col}, Msg: m[4], Offset: -1}}
	}
	if m := lineErr.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[2])
		return engine.Problem{Err: &engine.Error{Pos: engine.Pos{File: m[1], Line: line}, Msg: m[3], Offset: -1}}
	}
	return engine.Problem{Err: &engine.Error{Msg: msg, Offset: -1}}
}

// unreadKeys warns on each top-level key of the values files that no
// template text names: no $schema, $let or expression can read it.
func (in *inputs) unreadKeys(vars map[string]value.Value, texts [][]byte) []engine.Problem {
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

// writeProblem writes one problem on one line: the engine's format, a
// GitHub Actions annotation, or a JSON object.
func writeProblem(w io.Writer, p engine.Problem, format string) {
	e := p.Err
	level := "error"
	if p.Warning {
		level = "warning"
	}
	if format == "json" {
		enc := json.NewEncoder(w) // one object and a newline
		enc.SetEscapeHTML(false)  // <inline> stays as written
		_ = enc.Encode(jsonProblem{File: e.Pos.File, Line: e.Pos.Line, Column: e.Pos.Column, Path: e.Path, Message: e.Msg, Severity: level})
		return
	}
	msg := e.Msg
	if e.Path != "" {
		msg = e.Path + ": " + msg
	}
	msg = strings.ReplaceAll(msg, "\n", " ")
	if format == "github" {
		if e.Pos.File == "" {
			fmt.Fprintf(w, "::%s::%s\n", level, ghData(msg))
			return
		}
		col := ""
		if e.Pos.Column > 0 {
			col = ",col=" + strconv.Itoa(e.Pos.Column)
		}
		fmt.Fprintf(w, "::%s file=%s,line=%d%s::%s\n", level, ghProperty(e.Pos.File), e.Pos.Line, col, ghData(msg))
		return
	}
	if p.Warning {
		msg = "warning: " + msg
	}
	if e.Pos.File == "" {
		fmt.Fprintf(w, "%s\n", msg)
		return
	}
	fmt.Fprintf(w, "%s: %s\n", e.Pos, msg)
}

// jsonProblem is one line of --format json. Line and column are 1-based;
// 0 means unknown (a values file's YAML error that names only its line,
// a problem of no file).
type jsonProblem struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Path     string `json:"path"`
	Message  string `json:"message"`
	Severity string `json:"severity"`
}

// ghData and ghProperty escape annotation text as the GitHub Actions
// toolkit does.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
