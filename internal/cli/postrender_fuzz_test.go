package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzPostRender feeds any standard input to `celyaml post-render` with a
// template of an overlay, a transform and an added document. Properties:
// nothing panics or hangs; the exit code is 0 or 1 (the command line is
// right whatever the stream holds); exit 1 writes one positioned problem
// (at standard input, at the template, or naming the documents) to
// standard error and nothing to standard output; exit 0 prints a stream
// that reads back as the upstream documents that had a manifest ID and
// the added one, in order.
func FuzzPostRender(f *testing.F) {
	dir := f.TempDir()
	tmpl := filepath.Join(dir, "post.yaml")
	if err := os.WriteFile(tmpl, []byte(`$overlay: "doc.kind == 'Deployment'"
$expects: "0+"
metadata:
  labels: {team: platform}
---
$transform:
  annotations: {owner: platform}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: fuzz-added-by-template}
`), 0o600); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte("---\n# Source: web/templates/svc.yaml\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n---\n# Source: web/templates/empty.yaml\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n...\n"))
	f.Add([]byte(""))
	f.Add([]byte("---\n---\n# only comments\n"))
	f.Add([]byte("- a\n- b\n"))
	f.Add([]byte("kind: [\n"))
	f.Add([]byte("a: &x [1, *x]\n"))
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte("kind: ConfigMap\napiVersion: v1\nmetadata: {name: fuzz-added-by-template}\n"))
	f.Add([]byte("kind: 1\nmetadata: {name: x}\n"))
	f.Add([]byte("data: !!binary aGk=\n"))
	f.Add([]byte("<<: {a: 1}\n"))
	f.Add([]byte("\t: bad"))
	f.Add([]byte(strings.Repeat("[", 10000)))
	f.Fuzz(func(t *testing.T, stdin []byte) {
		var out, errb bytes.Buffer
		code := run(t.Context(), []string{"post-render", tmpl}, bytes.NewReader(stdin), &out, &errb)
		switch code {
		case exitProblem:
			if out.Len() > 0 {
				t.Fatalf("exit 1 with standard output %q", out.String())
			}
			if msg := errb.String(); !strings.HasPrefix(msg, stdinName+":") && !strings.HasPrefix(msg, tmpl+":") &&
				!strings.HasPrefix(msg, "documents ") && !strings.HasPrefix(msg, "document ") {
				t.Fatalf("exit 1 with an unpositioned problem: %q", msg)
			}
			return
		case exitOK:
		default:
			t.Fatalf("exit %d, want 0 or 1; stderr: %s", code, errb.String())
		}
		up, err := parseUpstream(stdinName, stdin)
		if err != nil {
			t.Fatalf("exit 0 on a stream that does not read: %v", err)
		}
		back, err := parseUpstream("out", out.Bytes())
		if err != nil {
			t.Fatalf("the output does not read back: %v\n%s", err, out.String())
		}
		if len(back) != len(up)+1 {
			t.Fatalf("%d documents out, want the %d upstream and the added one\n%s", len(back), len(up), out.String())
		}
		if id, _ := manifestID(back[len(back)-1].Value); id != "_/ConfigMap/_/fuzz-added-by-template" {
			t.Fatalf("the last document is %q, want the template's ConfigMap", id)
		}
	})
}
