package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/emit"
)

// FuzzOverlay applies any overlay document (reference §8) to a fixed
// bundle, the documents of common/bundle.yaml. Properties: the engine never
// panics or hangs; an error is an *Error positioned in a file the render
// read; a success encodes as YAML and JSON and renders again to the same
// bytes; and the bundle rendered alone afterwards is unchanged, so no
// overlay ever edits the values the compiled template shares between
// renders.
func FuzzOverlay(f *testing.F) {
	for _, s := range []string{
		"$overlay: 'true'\n$expects: 4\nx: 1\n",
		"$overlay: doc.kind == 'Deployment'\nmetadata: {labels: {team: a}, namespace: null}\n",
		"$overlay: doc.kind == 'Deployment'\nspec:\n  containers:\n    - $match: item.name == 'app'\n      ports:\n        - $append: {containerPort: 9090}\n    - $remove: item.name == 'proxy'\n    - $append: {name: x}\n",
		"$overlay: \"true\"\n$expects: '0+'\nspec: {ports: [{$match: 'true', $expects: '0+', port: 81}]}\n",
		"$let: {n: doc}\n$overlay: has(doc.kind)\n$eval: '${{ {\"copy\": n} }}'\n",
		"$overlay: 'true'\n$expects: '0+'\n$if: doc.kind == 'Service'\n$then: {spec: null}\n",
	} {
		f.Add([]byte(s))
	}
	e, bundle, want := fuzzEditedBundleBase(f, "$include: common/bundle.yaml\n")
	f.Fuzz(func(t *testing.T, overlay []byte) {
		renderEditedBundle(t, e, context.Background(), "$include: common/bundle.yaml\n---\n", overlay, bundle, want, "overlay")
	})
}

// fuzzEditedBundleBase gives the fuzz engine, the bundle whose text is text as a
// template, and the bundle's output rendered alone, to compare with after
// each edit.
func fuzzEditedBundleBase(f *testing.F, text string) (*Engine, Source, []byte) {
	e := New(fuzzOptions())
	bundle := Source{Name: "template.yaml", Text: []byte(text)}
	before, err := e.Render(context.Background(), bundle, nil)
	if err != nil {
		f.Fatal(err)
	}
	want, err := emit.EncodeYAMLStream(before)
	if err != nil {
		f.Fatal(err)
	}
	return e, bundle, want
}

// renderEditedBundle renders head followed by edit (an overlay or a
// transform on the fuzz bundle): never a hang, an error is an *Error at a
// real place of the file it names, a success encodes as YAML and JSON and
// renders again byte for byte, and the bundle's own render is unchanged
// afterwards (want), so the edit changed no value it shares.
func renderEditedBundle(t *testing.T, e *Engine, ctx context.Context, head string, edit []byte, bundle Source, want []byte, what string) {
	watchdog := time.AfterFunc(fuzzHangGuard, func() {
		panic(fmt.Sprintf("render still running after %v: %s %q", fuzzHangGuard, what, edit))
	})
	defer watchdog.Stop()
	tpl := append([]byte(head), edit...)
	files := map[string][]byte{"template.yaml": tpl}
	for name, text := range fuzzIncludes {
		files[name] = []byte(text)
	}
	src := Source{Name: "template.yaml", Text: tpl}
	docs, rerr := e.Render(ctx, src, nil)
	if rerr != nil {
		var ee *Error
		if !errors.As(rerr, &ee) {
			t.Fatalf("error is %T, want *Error: %v", rerr, rerr)
		}
		checkErrorPosition(t, ee, files)
	} else {
		out, err := emit.EncodeYAMLStream(docs)
		if err != nil {
			t.Fatalf("rendered but cannot encode: %v", err)
		}
		if err := encodesAsJSON(docs); err != nil {
			t.Fatalf("rendered but cannot encode as JSON: %v", err)
		}
		again, err := e.Render(ctx, src, nil)
		if err != nil {
			t.Fatalf("second render failed after a success: %v", err)
		}
		if out2, _ := emit.EncodeYAMLStream(again); !bytes.Equal(out, out2) {
			t.Fatalf("second render differs:\n--- first:\n%s--- again:\n%s", out, out2)
		}
	}
	after, err := e.Render(ctx, bundle, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := emit.EncodeYAMLStream(after); !bytes.Equal(got, want) {
		t.Fatalf("the %s changed the bundle's shared values:\n--- before:\n%s--- after:\n%s", what, want, got)
	}
}
