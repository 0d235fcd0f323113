package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTemplate writes text as a template file of its own and returns its
// path.
func writeTemplate(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "post.yaml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// A stream larger than the most the command reads from standard input
// (maxFileBytes, the default MaxTemplateBytes) is refused by its size,
// with exit 1, before anything is parsed.
func TestPostRender_refusesStandardInputOverTheLimit(t *testing.T) {
	defer func(n int) { maxFileBytes = n }(maxFileBytes)
	maxFileBytes = 4096
	tmpl := writeTemplate(t, "$transform:\n  labels: {team: platform}\n")
	doc := "---\n# Source: web/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n"
	stdin := strings.Repeat(doc, 2*4096/len(doc))
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"post-render", tmpl}, strings.NewReader(stdin), &stdout, &stderr)
	if code != exitProblem || stdout.Len() != 0 {
		t.Fatalf("exit %d, stdout %q", code, stdout.String())
	}
	if want := "standard input: larger than 4096 bytes\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
}

// A Helm stream of thousands of documents, each after its "# Source:"
// line, comes out whole and in order, each edited by the transform.
func TestPostRender_aLargeHelmStreamKeepsEveryDocumentInOrder(t *testing.T) {
	const n = 3000
	var in strings.Builder
	for i := range n {
		fmt.Fprintf(&in, "---\n# Source: big/templates/cm-%d.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-%d\ndata:\n  index: %q\n", i, i, fmt.Sprint(i))
	}
	tmpl := writeTemplate(t, "$transform:\n  namespace: apps\n  labels: {team: platform}\n")
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), []string{"post-render", tmpl}, strings.NewReader(in.String()), &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	docs, err := parseUpstream("out", stdout.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != n {
		t.Fatalf("%d documents out, want %d", len(docs), n)
	}
	for i, d := range docs {
		id, _ := manifestID(d.Value)
		if want := fmt.Sprintf("_/ConfigMap/apps/cm-%d", i); id != want {
			t.Fatalf("document %d is %s, want %s", i, id, want)
		}
	}
	if got := strings.Count(stdout.String(), "    team: platform\n"); got != n {
		t.Errorf("%d documents labelled, want %d", got, n)
	}
}
