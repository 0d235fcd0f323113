package segment

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/lex"
	"golang.org/x/tools/txtar"
)

// FuzzScanSegments checks the ${{ }} scanner's properties on any string:
// it never panics; on success the segments, written back (expressions in
// ${{ }}, a literal "${{" as its escape "$${{"), give the input again;
// offsets are in range and increasing, and each expression and each
// unescaped literal is the input's text at its offset; two literals are
// never adjacent. On failure the error offset is inside the input.
func FuzzScanSegments(f *testing.F) {
	for _, s := range []string{
		"", "plain", "${{ x }}", "a ${{ x }} b", "$${{ not }}", "$$${{ x }}",
		"${{ { 'a': '}}' } }}", "${{ \"}}\" }}", "${{ '''}}''' }}", "${{ r'\\}}' }}",
		"${{ b\"}}\" }}", "${{ x", "${{ }}", "${{ 'unterminated }}", "${{ {{ }}",
		"a$${{b${{c}}d$${{", "${{a}}${{b}}", "${{ 'a\nb' }}", "}}${{x}}}}",
		"\xff${{\xfe}}", "${{ rb'x' + BR\"y\" }}",
	} {
		f.Add(s)
	}
	for _, tpl := range seedTemplates(f) {
		f.Add(string(tpl))
	}
	f.Fuzz(func(t *testing.T, s string) {
		segs, err := Scan(s)
		if err != nil {
			if err.Offset < 0 || err.Offset >= len(s) {
				t.Fatalf("error offset %d out of range for %d bytes: %s", err.Offset, len(s), err.Msg)
			}
			return
		}
		if len(segs) == 0 {
			t.Fatal("no segments")
		}
		var b strings.Builder
		prevEnd := 0
		for i, sg := range segs {
			if sg.Off < prevEnd || sg.Off > len(s) {
				t.Fatalf("segment %d: offset %d out of order or range (previous end %d, len %d)", i, sg.Off, prevEnd, len(s))
			}
			if sg.Expr {
				end := sg.Off + len(sg.Text)
				if sg.Off < 3 || end+2 > len(s) || s[sg.Off-3:sg.Off] != "${{" || s[end:end+2] != "}}" {
					t.Fatalf("segment %d: expression %q at %d is not enclosed in ${{ }}", i, sg.Text, sg.Off)
				}
				if s[sg.Off:end] != sg.Text {
					t.Fatalf("segment %d: expression text %q is not the input at %d", i, sg.Text, sg.Off)
				}
				if lex.IsBlank(sg.Text) {
					t.Fatalf("segment %d: blank expression accepted", i)
				}
				b.WriteString("${{")
				b.WriteString(sg.Text)
				b.WriteString("}}")
				prevEnd = end + 2
				continue
			}
			if i > 0 && !segs[i-1].Expr {
				t.Fatalf("segments %d and %d are adjacent literals", i-1, i)
			}
			if sg.Text == "" && len(segs) > 1 {
				t.Fatalf("segment %d: empty literal", i)
			}
			lit := strings.ReplaceAll(sg.Text, "${{", "$${{")
			if !strings.HasPrefix(s[sg.Off:], lit) {
				t.Fatalf("segment %d: literal %q (escaped %q) is not the input at %d", i, sg.Text, lit, sg.Off)
			}
			b.WriteString(lit)
			prevEnd = sg.Off + len(lit)
		}
		if b.String() != s {
			t.Fatalf("segments do not rejoin to the input:\n got %q\nwant %q", b.String(), s)
		}
	})
}

// seedTemplates returns the template.yaml of every golden and hostile case
// (the engine's testdata) that keeps its template in the archive.
func seedTemplates(t testing.TB) [][]byte {
	var out [][]byte
	for _, dir := range []string{"../testdata", "../testdata/hostile"} {
		paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(paths)
		for _, p := range paths {
			ar, err := txtar.ParseFile(p)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			for _, f := range ar.Files {
				if f.Name == "template.yaml" {
					out = append(out, f.Data)
					break
				}
			}
		}
	}
	return out
}
