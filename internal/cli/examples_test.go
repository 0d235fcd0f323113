package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every line of every command's Examples runs, and succeeds, in
// testdata/examples: the help shows nothing that does not work.
func TestHelp_everyExampleRuns(t *testing.T) {
	root := newRootCommand(t.Context(), strings.NewReader(""))
	var lines []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, l := range strings.Split(c.Example, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if len(lines) < 10 {
		t.Fatalf("only %d examples found", len(lines))
	}
	for _, line := range lines {
		t.Run(line, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS("testdata/examples")); err != nil {
				t.Fatal(err)
			}
			args, stdinFile := shellWords(t, line)
			if len(args) == 0 || args[0] != "celyaml" {
				t.Fatalf("an example that does not start with celyaml: %s", line)
			}
			t.Chdir(dir)
			var stdin []byte
			if stdinFile != "" {
				var err error
				if stdin, err = os.ReadFile(stdinFile); err != nil {
					t.Fatal(err)
				}
			}
			var stdout, stderr bytes.Buffer
			if code := run(t.Context(), args[1:], bytes.NewReader(stdin), &stdout, &stderr); code != exitOK {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
			}
			if stderr.Len() != 0 {
				t.Errorf("stderr:\n%s", stderr.String())
			}
		})
	}
}

// shellWords splits an example as sh would: words, 'single' and "double"
// quotes, "< FILE" for standard input, and unquoted globs expanded in the
// current directory (the test's, once it has moved there: globs are
// expanded against testdata/examples here, which holds the same files).
func shellWords(t *testing.T, line string) (words []string, stdin string) {
	t.Helper()
	var cur strings.Builder
	inWord, glob, redirect := false, false, false
	flush := func() {
		if !inWord {
			return
		}
		w := cur.String()
		cur.Reset()
		inWord = false
		switch {
		case redirect:
			stdin, redirect = w, false
		case glob:
			m, err := filepath.Glob(filepath.Join("testdata/examples", w))
			if err != nil || len(m) == 0 {
				t.Fatalf("%s: the glob %s matches nothing", line, w)
			}
			for _, p := range m {
				rel, _ := filepath.Rel("testdata/examples", p)
				words = append(words, rel)
			}
		default:
			words = append(words, w)
		}
		glob = false
	}
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case ' ':
			flush()
		case '<':
			flush()
			redirect = true
		case '\'', '"':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				t.Fatalf("%s: an unclosed quote", line)
			}
			cur.WriteString(line[i+1 : i+1+j])
			inWord, i = true, i+1+j
		case '*':
			glob = true
			fallthrough
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return words, stdin
}
