package overlay_test

import (
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/options"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/overlay"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk/walktest"
)

// The overlays, list edits and transforms edit the documents a render
// gives, once the last one is rendered, with the entries and steps this
// package gives and no directive of package directive (reference §8,
// §10).

func render(t *testing.T, text string, opts options.Options) string {
	t.Helper()
	table := tree.NewTable(overlay.CompileEditList, overlay.Overlay(), overlay.ListEdits(), overlay.Transform())
	return walktest.Render(t, walk.New(opts, table, overlay.ApplyNamespace), text, nil)
}

func TestOverlay_mergesIntoTheDocumentsItMatches(t *testing.T) {
	text := "kind: A\n---\nkind: B\n---\n$overlay: \"doc.kind == 'B'\"\nlabel: x\n"
	want := "kind: A\n---\nkind: B\nlabel: x\n"
	if got := render(t, text, options.Default()); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestListEdits_matchRemoveAndAppendEditTheTargetList(t *testing.T) {
	text := "l: [{k: a}, {k: b}, {k: c}]\n---\n$overlay: \"true\"\nl:\n  - $match: \"item.k == 'a'\"\n    v: 1\n  - $remove: \"item.k == 'b'\"\n  - $append: {k: d}\n"
	want := "l:\n  - k: a\n    v: 1\n  - k: c\n  - k: d\n"
	if got := render(t, text, options.Default()); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestTransform_labelsEveryDocument(t *testing.T) {
	text := "kind: ConfigMap\nmetadata: {name: a}\n---\n$transform:\n  labels: {team: x}\n"
	want := "kind: ConfigMap\nmetadata:\n  name: a\n  labels:\n    team: x\n"
	if got := render(t, text, options.Default()); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestApplyNamespace_movesNamespacedObjectsAndLeavesClusterOnes(t *testing.T) {
	opts := options.Default()
	opts.Namespace = "prod"
	text := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r}\n"
	want := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: prod\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: r\n"
	if got := render(t, text, opts); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
