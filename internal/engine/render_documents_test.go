package engine

import (
	"context"
	"reflect"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// RenderDocuments says where each document came from: a plain document at
// its root, the documents of a root $for at the $for key; dropped
// documents take their origin with them.
func TestRenderDocuments_originOfEachDocument(t *testing.T) {
	text := "kind: A\n---\n$for: \"n in ['x', 'y']\"\n$do:\n  name:\n    $eval: \"${{ n }}\"\n---\n$if: \"false\"\n$then: {a: 1}\n---\n  kind: B\n"
	docs, err := New(Options{}).RenderDocuments(context.Background(), Source{Name: "t.yaml", Text: []byte(text)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		got = append(got, d.Origin.String())
	}
	want := []string{"t.yaml:1:1", "t.yaml:3:1", "t.yaml:3:1", "t.yaml:11:3"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("origins = %q, want %q", got, want)
	}
	plain, err := New(Options{}).Render(context.Background(), Source{Name: "t.yaml", Text: []byte(text)}, nil)
	if err != nil || len(plain) != len(docs) {
		t.Fatalf("Render gave %d documents (%v), RenderDocuments %d", len(plain), err, len(docs))
	}
	for i := range plain {
		if !reflect.DeepEqual(plain[i], docs[i].Value) {
			t.Errorf("document %d differs between Render and RenderDocuments", i)
		}
	}
}

func TestRenderDocuments_unknownStream(t *testing.T) {
	docs, err := New(Options{}).RenderDocuments(context.Background(),
		Source{Text: []byte("$for: \"x in xs\"\n$do: {a: 1}\n")}, map[string]value.Value{"xs": value.Unknown{}})
	if err != nil || len(docs) != 1 || docs[0].Value != value.UnknownStream {
		t.Fatalf("got %v, %v; want the unknown stream", docs, err)
	}
}
