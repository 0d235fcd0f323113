package provider

import (
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func tupleDyn(t *testing.T, docs ...attr.Value) types.Dynamic {
	t.Helper()
	return types.DynamicValue(fw(tupleOf(tfs(docs))))
}

func TestManifestsFunction_Known(t *testing.T) {
	f := &manifestsFunction{}
	got := callOK(t, f, tupleDyn(t,
		doc(t, "apiVersion", "apps/v1", "kind", "Deployment", "metadata.name", "cart", "metadata.namespace", "prod"),
		doc(t, "apiVersion", "v1", "kind", "Service", "metadata.name", "cart"),
		doc(t, "note", "no kind: left out"),
	))
	want := `object{_/Service/_/cart: object{apiVersion: "v1", kind: "Service", metadata: object{name: "cart"}}, ` +
		`apps/Deployment/prod/cart: object{apiVersion: "apps/v1", kind: "Deployment", metadata: object{name: "cart", namespace: "prod"}}}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestManifestsFunction_singleDocument(t *testing.T) {
	got := callOK(t, &manifestsFunction{}, types.DynamicValue(doc(t, "kind", "Namespace", "metadata.name", "prod")))
	if want := `object{_/Namespace/_/prod: object{kind: "Namespace", metadata: object{name: "prod"}}}`; got != want {
		t.Fatalf("got %s", got)
	}
}

func TestManifestsFunction_Null(t *testing.T) {
	if got := callOK(t, &manifestsFunction{}, types.DynamicNull()); got != "object{}" {
		t.Fatalf("got %s", got)
	}
	if got := callOK(t, &manifestsFunction{}, tupleDyn(t)); got != "object{}" {
		t.Fatalf("empty tuple: got %s", got)
	}
}

func TestManifestsFunction_Unknown(t *testing.T) {
	f := &manifestsFunction{}
	v, ferr := callFunction(t, f, types.DynamicUnknown())
	if ferr != nil || !v.IsUnknown() {
		t.Fatalf("unknown documents: got %s %v", v, ferr)
	}
	v, ferr = callFunction(t, f, tupleDyn(t, doc(t, "kind", "Service", "metadata.name", value.Unknown{})))
	if ferr != nil || !v.IsUnknown() {
		t.Fatalf("unknown name: got %s %v", v, ferr)
	}
	got := callOK(t, f, tupleDyn(t, doc(t, "kind", "Pod", "metadata.name", "p", "spec.image", value.Unknown{})))
	if want := `object{_/Pod/_/p: object{kind: "Pod", metadata: object{name: "p"}, spec: object{image: unknown(basetypes.DynamicType)}}}`; got != want {
		t.Fatalf("unknown leaf: got %s", got)
	}
}

func TestManifestsFunction_duplicateIsAnArgumentError(t *testing.T) {
	_, ferr := callFunction(t, &manifestsFunction{}, tupleDyn(t,
		doc(t, "kind", "Service", "metadata.name", "cart"),
		doc(t, "kind", "Service", "metadata.name", "cart"),
	))
	// The ID is shown whole (reference §6): the documents' names are the
	// user's structure, as the API server names them.
	want := `documents 0 and 1 have the same manifest ID "_/Service/_/cart" (apiVersion group, kind, metadata.namespace and metadata.name); every manifest must be unique (documents are counted from 0)`
	if ferr == nil || ferr.Text != want || ferr.FunctionArgument == nil || *ferr.FunctionArgument != 0 {
		t.Fatalf("got %v", ferr)
	}
}

func TestManifestsFunction_scalarIsAnArgumentError(t *testing.T) {
	_, ferr := callFunction(t, &manifestsFunction{}, types.DynamicValue(types.BoolValue(true)))
	if ferr == nil || ferr.Text != "documents must be a document (an object) or a tuple of documents, got a bool" {
		t.Fatalf("got %v", ferr)
	}
}
