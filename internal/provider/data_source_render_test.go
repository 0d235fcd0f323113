package provider

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
)

// renderModel is the data source's schema data, read back from a state
// with State.Get.
type renderModel struct {
	Template      types.String  `tfsdk:"template"`
	TemplateFile  types.String  `tfsdk:"template_file"`
	BaseDir       types.String  `tfsdk:"base_dir"`
	Context       types.Dynamic `tfsdk:"context"`
	YAML          types.String  `tfsdk:"yaml"`
	JSON          types.String  `tfsdk:"json"`
	Result        types.Dynamic `tfsdk:"result"`
	Documents     types.Dynamic `tfsdk:"documents"`
	YAMLDocuments types.List    `tfsdk:"yaml_documents"`
	Manifests     types.Dynamic `tfsdk:"manifests"`

	Sensitive              types.Bool    `tfsdk:"sensitive"`
	SensitiveYAML          types.String  `tfsdk:"sensitive_yaml"`
	SensitiveJSON          types.String  `tfsdk:"sensitive_json"`
	SensitiveResult        types.Dynamic `tfsdk:"sensitive_result"`
	SensitiveDocuments     types.Dynamic `tfsdk:"sensitive_documents"`
	SensitiveYAMLDocuments types.List    `tfsdk:"sensitive_yaml_documents"`
	SensitiveManifests     types.Dynamic `tfsdk:"sensitive_manifests"`
}

func renderSchema(t *testing.T) datasource.SchemaResponse {
	t.Helper()
	var resp datasource.SchemaResponse
	(&renderDataSource{}).Schema(context.Background(), datasource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	return resp
}

// dsConfig builds a celyaml_render configuration; attributes not given are
// null.
func dsConfig(t *testing.T, vals map[string]tftypes.Value) tfsdk.Config {
	t.Helper()
	s := renderSchema(t).Schema
	typ := s.Type().TerraformType(context.Background()).(tftypes.Object)
	attrs := make(map[string]tftypes.Value, len(typ.AttributeTypes))
	for name, at := range typ.AttributeTypes {
		if v, ok := vals[name]; ok {
			attrs[name] = v
		} else {
			attrs[name] = tftypes.NewValue(at, nil)
		}
	}
	return tfsdk.Config{Schema: s, Raw: tftypes.NewValue(typ, attrs)}
}

func str(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

func validate(t *testing.T, vals map[string]tftypes.Value) diag.Diagnostics {
	t.Helper()
	var resp datasource.ValidateConfigResponse
	(&renderDataSource{}).ValidateConfig(context.Background(), datasource.ValidateConfigRequest{Config: dsConfig(t, vals)}, &resp)
	return resp.Diagnostics
}

func TestRenderDataSource_validateExactlyOneTemplate(t *testing.T) {
	if d := validate(t, map[string]tftypes.Value{"template": str("a: 1")}); d.HasError() {
		t.Fatalf("template only: %v", d)
	}
	if d := validate(t, map[string]tftypes.Value{"template_file": str("x.yaml")}); d.HasError() {
		t.Fatalf("template_file only: %v", d)
	}
	if d := validate(t, map[string]tftypes.Value{"template_file": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}); d.HasError() {
		t.Fatalf("unknown template_file only: %v", d)
	}

	d := validate(t, nil)
	if len(d) != 1 || d[0].Summary() != "Missing template" ||
		d[0].Detail() != `Set exactly one of "template" (inline template text) and "template_file" (path to a template file); neither is set.` {
		t.Fatalf("neither: %v", d)
	}
	if p := d[0].(diag.DiagnosticWithPath).Path(); !p.Equal(path.Root("template")) {
		t.Fatalf("neither: path %s", p)
	}

	d = validate(t, map[string]tftypes.Value{"template": str("a: 1"), "template_file": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)})
	if len(d) != 1 || d[0].Summary() != "Conflicting template arguments" ||
		d[0].Detail() != `Set exactly one of "template" (inline template text) and "template_file" (path to a template file); both are set.` {
		t.Fatalf("both: %v", d)
	}
	if p := d[0].(diag.DiagnosticWithPath).Path(); !p.Equal(path.Root("template_file")) {
		t.Fatalf("both: path %s", p)
	}
}

func TestRenderDataSource_validateWarnsAboutUnusedBaseDir(t *testing.T) {
	d := validate(t, map[string]tftypes.Value{"template_file": str("x.yaml"), "base_dir": str("dir")})
	if len(d) != 1 || d.HasError() || d[0].Summary() != "base_dir has no effect with template_file" ||
		d[0].Detail() != `$include in a template file resolves against the file's own directory; base_dir applies only to an inline "template". Remove base_dir.` {
		t.Fatalf("got %v", d)
	}
	if p := d[0].(diag.DiagnosticWithPath).Path(); !p.Equal(path.Root("base_dir")) {
		t.Fatalf("path %s", p)
	}
	if d := validate(t, map[string]tftypes.Value{"template": str("a: 1"), "base_dir": str("dir")}); len(d) != 0 {
		t.Fatalf("inline template with base_dir: %v", d)
	}
}

// read runs the data source and returns its state or its diagnostics.
func read(t *testing.T, vals map[string]tftypes.Value) (renderModel, diag.Diagnostics) {
	t.Helper()
	cfg := dsConfig(t, vals)
	resp := datasource.ReadResponse{State: tfsdk.State{Schema: cfg.Schema, Raw: tftypes.NewValue(cfg.Raw.Type(), nil)}}
	(&renderDataSource{engine: testEngine}).Read(context.Background(), datasource.ReadRequest{Config: cfg}, &resp)
	var m renderModel
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.State.Get(context.Background(), &m)...)
	}
	return m, resp.Diagnostics
}

func readOK(t *testing.T, vals map[string]tftypes.Value) renderModel {
	t.Helper()
	m, d := read(t, vals)
	if d.HasError() {
		t.Fatalf("read: %v", d)
	}
	return m
}

func yamlDocs(t *testing.T, m renderModel) string {
	t.Helper()
	var out []string
	for _, v := range m.YAMLDocuments.Elements() {
		out = append(out, dumpTerraform(v))
	}
	return "[" + strings.Join(out, ", ") + "]"
}

func ctxObject(attrs map[string]tftypes.Value) tftypes.Value {
	typs := make(map[string]tftypes.Type, len(attrs))
	for k, v := range attrs {
		typs[k] = v.Type()
	}
	return tftypes.NewValue(tftypes.Object{AttributeTypes: typs}, attrs)
}

func TestRenderDataSource_everyAttributeMultiDocument(t *testing.T) {
	m := readOK(t, map[string]tftypes.Value{
		"template": str("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name:\n    $eval: \"${{ name }}\"\n  namespace: prod\n---\n" +
			"kind: Service\nmetadata:\n  name: cart\n---\nnote: not a manifest\n"),
		"context": ctxObject(map[string]tftypes.Value{"name": str("cart")}),
	})
	if got, want := m.YAML.ValueString(), "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: cart\n  namespace: prod\n---\nkind: Service\nmetadata:\n  name: cart\n---\nnote: not a manifest\n"; got != want {
		t.Errorf("yaml:\n got %q\nwant %q", got, want)
	}
	if got, want := yamlDocs(t, m), `["apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: cart\n  namespace: prod\n", "kind: Service\nmetadata:\n  name: cart\n", "note: not a manifest\n"]`; got != want {
		t.Errorf("yaml_documents:\n got %s\nwant %s", got, want)
	}
	if got, want := m.JSON.ValueString(), `[{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"cart","namespace":"prod"}},{"kind":"Service","metadata":{"name":"cart"}},{"note":"not a manifest"}]`; got != want {
		t.Errorf("json:\n got %s\nwant %s", got, want)
	}
	docs := `tuple[object{apiVersion: "apps/v1", kind: "Deployment", metadata: object{name: "cart", namespace: "prod"}}, ` +
		`object{kind: "Service", metadata: object{name: "cart"}}, object{note: "not a manifest"}]`
	if got := dumpTerraform(m.Result.UnderlyingValue()); got != docs {
		t.Errorf("result:\n got %s\nwant %s", got, docs)
	}
	if got := dumpTerraform(m.Documents.UnderlyingValue()); got != docs {
		t.Errorf("documents:\n got %s\nwant %s", got, docs)
	}
	wantM := `object{_/Service/_/cart: object{kind: "Service", metadata: object{name: "cart"}}, ` +
		`apps/Deployment/prod/cart: object{apiVersion: "apps/v1", kind: "Deployment", metadata: object{name: "cart", namespace: "prod"}}}`
	if got := dumpTerraform(m.Manifests.UnderlyingValue()); got != wantM {
		t.Errorf("manifests:\n got %s\nwant %s", got, wantM)
	}
}

func TestRenderDataSource_singleDocument(t *testing.T) {
	m := readOK(t, map[string]tftypes.Value{"template": str("b: 2\na: [1, x]\n")})
	if got := dumpTerraform(m.Result.UnderlyingValue()); got != `object{a: tuple[number(1), "x"], b: number(2)}` {
		t.Errorf("result: %s", got)
	}
	if got := dumpTerraform(m.Documents.UnderlyingValue()); got != `tuple[object{a: tuple[number(1), "x"], b: number(2)}]` {
		t.Errorf("documents: %s", got)
	}
	if got := m.JSON.ValueString(); got != `{"b":2,"a":[1,"x"]}` {
		t.Errorf("json keeps template order: %s", got)
	}
	if got := m.YAML.ValueString(); got != "b: 2\na:\n  - 1\n  - x\n" {
		t.Errorf("yaml: %q", got)
	}
}

func TestRenderDataSource_zeroDocuments(t *testing.T) {
	m := readOK(t, map[string]tftypes.Value{
		"template": str("$if: \"enabled\"\n$then:\n  a: 1\n"),
		"context":  ctxObject(map[string]tftypes.Value{"enabled": tftypes.NewValue(tftypes.Bool, false)}),
	})
	if m.YAML.ValueString() != "" || m.JSON.ValueString() != "[]" || yamlDocs(t, m) != "[]" ||
		dumpTerraform(m.Result.UnderlyingValue()) != "tuple[]" || dumpTerraform(m.Documents.UnderlyingValue()) != "tuple[]" ||
		dumpTerraform(m.Manifests.UnderlyingValue()) != "object{}" {
		t.Fatalf("got yaml %q json %q yaml_documents %s result %s documents %s manifests %s", m.YAML.ValueString(), m.JSON.ValueString(),
			yamlDocs(t, m), m.Result, m.Documents, m.Manifests)
	}
}

func TestRenderDataSource_templateFileWithInclude(t *testing.T) {
	m := readOK(t, map[string]tftypes.Value{
		"template_file": str("testdata/files/app.yaml"),
		"context":       ctxObject(map[string]tftypes.Value{"name": str("cart"), "env": str("prod"), "image": str("nginx:1.27")}),
	})
	if got := dumpTerraform(m.Documents.UnderlyingValue()); got != appWant {
		t.Fatalf("got  %s\nwant %s", got, appWant)
	}
	if got := manifestKeys(t, m.Manifests.UnderlyingValue()); got != "_/Service/_/cart apps/Deployment/prod/cart-prod" {
		t.Fatalf("manifests: %s", got)
	}
}

func TestRenderDataSource_baseDirForInlineIncludes(t *testing.T) {
	m := readOK(t, map[string]tftypes.Value{
		"template": str("labels:\n  $include: parts/labels.yaml\n"),
		"base_dir": str("testdata/files"),
		"context":  ctxObject(map[string]tftypes.Value{"name": str("web")}),
	})
	if got := dumpTerraform(m.Result.UnderlyingValue()); got != `object{labels: object{app: "web", team: "sre"}}` {
		t.Fatalf("got %s", got)
	}
}

func TestRenderDataSource_errorIsOneDiagnosticOnTheTemplate(t *testing.T) {
	_, d := read(t, map[string]tftypes.Value{"template": str("kind: x\nsum:\n  $eval: \"${{ 1 + 1.0 }}\"\n")})
	if len(d) != 1 || d[0].Summary() != "Template rendering failed" {
		t.Fatalf("got %v", d)
	}
	want := "<inline>:3:10: sum.$eval: no matching overload for int + double; CEL never mixes int, uint and double: convert one side, e.g. double(x) or int(x)\n  | ${{ 1 + 1.0 }}\n  | ......^"
	if d[0].Detail() != want {
		t.Fatalf("detail:\n got %q\nwant %q", d[0].Detail(), want)
	}
	if p := d[0].(diag.DiagnosticWithPath).Path(); !p.Equal(path.Root("template")) {
		t.Fatalf("path %s", p)
	}

	_, d = read(t, map[string]tftypes.Value{"template_file": str("testdata/files/broken.yaml")})
	if len(d) != 1 || d[0].Summary() != "Template rendering failed" || !strings.HasPrefix(d[0].Detail(), "testdata/files/broken.yaml:4:12: ") {
		t.Fatalf("file: got %v", d)
	}
	if p := d[0].(diag.DiagnosticWithPath).Path(); !p.Equal(path.Root("template_file")) {
		t.Fatalf("file: path %s", p)
	}
}

// A division by zero in a double gives NaN or infinity, which neither the
// json attribute nor a Terraform number can hold: the error points at the
// $eval, not at the output step.
func TestRenderDataSource_nonFiniteNumberIsAPositionedError(t *testing.T) {
	tmpl := "usage:\n  ratio:\n    $eval: \"${{ double(used) / double(total) }}\"\n"
	ctx := ctxObject(map[string]tftypes.Value{"used": tftypes.NewValue(tftypes.Number, big.NewFloat(5)), "total": tftypes.NewValue(tftypes.Number, big.NewFloat(0))})
	_, d := read(t, map[string]tftypes.Value{"template": str(tmpl), "context": ctx})
	if len(d) != 1 || d[0].Summary() != "Template rendering failed" {
		t.Fatalf("got %v", d)
	}
	want := "<inline>:3:12: usage.ratio.$eval: the result holds a NaN or infinite double (a division by zero?), which JSON and Terraform numbers cannot hold\n" +
		"  | ${{ double(used) / double(total) }}\n  | ....^"
	if d[0].Detail() != want {
		t.Fatalf("detail:\n got %q\nwant %q", d[0].Detail(), want)
	}
}

func TestRenderDataSource_duplicateManifestIsAnError(t *testing.T) {
	_, d := read(t, map[string]tftypes.Value{"template": str("kind: A\nmetadata: {name: x}\n---\nkind: A\nmetadata: {name: x}\n")})
	if len(d) != 1 || d[0].Summary() != "Duplicate manifest ID" ||
		d[0].Detail() != `documents 0 (from <inline>:1:1) and 1 (from <inline>:4:1) have the same manifest ID "_/A/_/x" (apiVersion group, kind, metadata.namespace and metadata.name); every manifest must be unique (documents are counted from 0)` {
		t.Fatalf("got %v", d)
	}
}

// A duplicate manifest ID is shown whole, a name that a variable gave
// included (reference §6); the Secret's data, a value, is not. With
// sensitive = true, the parts the template does not write are hidden.
func TestRenderDataSource_duplicateManifestNamesTheWholeID(t *testing.T) {
	tmpl := "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {$eval: \"${{ a }}\"}\nstringData: {password: {$eval: \"${{ pw }}\"}}\n---\n" +
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {$eval: \"${{ b }}\"}\nstringData: {password: {$eval: \"${{ pw }}\"}}\n"
	ctx := ctxObject(map[string]tftypes.Value{"a": str("db-credentials"), "b": str("db-credentials"), "pw": str("HUNTER2VAR")})
	const msg = `documents 0 (from <inline>:1:1) and 1 (from <inline>:7:1) have the same manifest ID %q (apiVersion group, kind, metadata.namespace and metadata.name); every manifest must be unique (documents are counted from 0)`
	for _, c := range []struct {
		sensitive bool
		id        string
	}{
		{false, "_/Secret/_/db-credentials"},
		{true, "_/Secret/_/…"},
	} {
		_, d := read(t, map[string]tftypes.Value{"template": str(tmpl), "context": ctx, "sensitive": tftypes.NewValue(tftypes.Bool, c.sensitive)})
		if want := fmt.Sprintf(msg, c.id); len(d) != 1 || d[0].Summary() != "Duplicate manifest ID" || d[0].Detail() != want {
			t.Errorf("sensitive = %v: got %v\nwant %s", c.sensitive, d, want)
		}
	}
}

func TestRenderDataSource_contextMustBeAnObject(t *testing.T) {
	_, d := read(t, map[string]tftypes.Value{"template": str("a: 1\n"), "context": str("x")})
	if len(d) != 1 || d[0].Summary() != "Invalid context" {
		t.Fatalf("got %v", d)
	}
	if p := d[0].(diag.DiagnosticWithPath).Path(); !p.Equal(path.Root("context")) {
		t.Fatalf("path %s", p)
	}
}

// yaml is built from the per-document texts of yaml_documents; it must be
// byte for byte what the engine's stream encoder writes.
func TestRenderDataSource_yamlIsTheEngineStream(t *testing.T) {
	tmpl := "a: 1\nb: \"yes\"\n---\n- x\n- {k: v}\n---\nplain scalar\n---\nmulti: |\n  line one\n  line two\n"
	m := readOK(t, map[string]tftypes.Value{"template": str(tmpl)})
	docs, err := sharedEngine().Render(context.Background(), engine.Source{Text: []byte(tmpl)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := engine.EncodeYAMLStream(docs)
	if err != nil {
		t.Fatal(err)
	}
	if m.YAML.ValueString() != string(want) {
		t.Fatalf("yaml:\n got %q\nwant %q", m.YAML.ValueString(), want)
	}
	if n := len(m.YAMLDocuments.Elements()); n != 4 {
		t.Fatalf("%d yaml_documents", n)
	}
	wantJSON, err := engine.AppendJSON(nil, docs, false)
	if err != nil {
		t.Fatal(err)
	}
	if m.JSON.ValueString() != string(wantJSON) {
		t.Fatalf("json:\n got %s\nwant %s", m.JSON.ValueString(), wantJSON)
	}
}

// Terraform reads data sources in parallel; reads share the engine and its
// program cache and must all give the same bytes.
func TestRenderDataSource_concurrentReadsAgree(t *testing.T) {
	cfg := dsConfig(t, map[string]tftypes.Value{
		"template_file": str("testdata/files/app.yaml"),
		"context":       ctxObject(map[string]tftypes.Value{"name": str("cart"), "env": str("prod"), "image": str("nginx:1.27")}),
	})
	p := New("test")().(*celyamlProvider)
	const n = 16
	out := make([]string, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp := datasource.ReadResponse{State: tfsdk.State{Schema: cfg.Schema, Raw: tftypes.NewValue(cfg.Raw.Type(), nil)}}
			(&renderDataSource{engine: p.engine}).Read(context.Background(), datasource.ReadRequest{Config: cfg}, &resp)
			var m renderModel
			resp.Diagnostics.Append(resp.State.Get(context.Background(), &m)...)
			if resp.Diagnostics.HasError() {
				out[i] = fmt.Sprint(resp.Diagnostics)
				return
			}
			out[i] = m.YAML.ValueString() + m.JSON.ValueString()
		}()
	}
	wg.Wait()
	if !strings.HasPrefix(out[0], "apiVersion: apps/v1\n") {
		t.Fatalf("read 0: %s", out[0])
	}
	for i := 1; i < n; i++ {
		if out[i] != out[0] {
			t.Fatalf("read %d differs:\n%s\nvs\n%s", i, out[i], out[0])
		}
	}
}

// The state is built directly, without State.Set's reflection; it must be
// exactly the value State.Set would have written, for every shape of
// result: several documents with manifests, one, none, a null document.
func TestRenderDataSource_stateBuiltDirectlyEqualsStateSet(t *testing.T) {
	for name, tmpl := range map[string]string{
		"several": "kind: Service\nmetadata:\n  name:\n    $eval: \"${{ name }}\"\n---\nkind: ConfigMap\nmetadata: {name: c}\ndata: {n: 1, l: [1, a, {b: null}]}\n---\n[x, 2]\n",
		"one":     "kind: ConfigMap\nmetadata: {name: c}\n",
		"none":    "$if: \"false\"\n$then: {a: 1}\n",
		"null":    "~\n---\nkind: A\nmetadata: {name: a}\n",
		"scalar":  "plain\n",
	} {
		t.Run(name, func(t *testing.T) {
			cfg := dsConfig(t, map[string]tftypes.Value{
				"template": str(tmpl),
				"context":  ctxObject(map[string]tftypes.Value{"name": str("cart")}),
			})
			ctx := context.Background()
			resp := datasource.ReadResponse{State: tfsdk.State{Schema: cfg.Schema, Raw: tftypes.NewValue(cfg.Raw.Type(), nil)}}
			(&renderDataSource{engine: testEngine}).Read(ctx, datasource.ReadRequest{Config: cfg}, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatalf("read: %v", resp.Diagnostics)
			}
			var m renderModel
			if d := resp.State.Get(ctx, &m); d.HasError() {
				t.Fatalf("get: %v", d)
			}
			viaSet := tfsdk.State{Schema: cfg.Schema, Raw: tftypes.NewValue(cfg.Raw.Type(), nil)}
			if d := viaSet.Set(ctx, &m); d.HasError() {
				t.Fatalf("set: %v", d)
			}
			if !resp.State.Raw.Equal(viaSet.Raw) {
				t.Fatalf("direct state differs from State.Set:\n%s\n%s", resp.State.Raw, viaSet.Raw)
			}
		})
	}
}

// With sensitive = true the results are in the sensitive_ attributes and
// the plain ones are null; without it, the plain ones hold them.
func TestRenderDataSource_sensitiveMovesTheResults(t *testing.T) {
	tmpl := str("kind: Secret\nmetadata: {name: db}\nstringData:\n  pw: {$eval: \"${{ pw }}\"}\n")
	ctx := ctxObject(map[string]tftypes.Value{"pw": str("hunter2")})
	m, diags := read(t, map[string]tftypes.Value{"template": tmpl, "context": ctx, "sensitive": tftypes.NewValue(tftypes.Bool, true)})
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	const wantYAML = "kind: Secret\nmetadata:\n  name: db\nstringData:\n  pw: hunter2\n"
	if m.SensitiveYAML.ValueString() != wantYAML || m.SensitiveJSON.ValueString() != `{"kind":"Secret","metadata":{"name":"db"},"stringData":{"pw":"hunter2"}}` {
		t.Errorf("sensitive_yaml %q, sensitive_json %q", m.SensitiveYAML.ValueString(), m.SensitiveJSON.ValueString())
	}
	for name, v := range map[string]attr.Value{"sensitive_result": m.SensitiveResult, "sensitive_documents": m.SensitiveDocuments,
		"sensitive_yaml_documents": m.SensitiveYAMLDocuments, "sensitive_manifests": m.SensitiveManifests} {
		if v.IsNull() || !strings.Contains(v.String(), "hunter2") {
			t.Errorf("%s = %s, want the rendered Secret", name, v)
		}
	}
	for name, v := range map[string]attr.Value{"yaml": m.YAML, "json": m.JSON, "result": m.Result, "documents": m.Documents,
		"yaml_documents": m.YAMLDocuments, "manifests": m.Manifests} {
		if !v.IsNull() {
			t.Errorf("%s = %s, want null with sensitive = true", name, v)
		}
	}

	m, diags = read(t, map[string]tftypes.Value{"template": tmpl, "context": ctx})
	if m.YAML.ValueString() != wantYAML || !m.SensitiveYAML.IsNull() || !m.SensitiveManifests.IsNull() {
		t.Errorf("without sensitive: yaml %q, sensitive_yaml %s, sensitive_manifests %s", m.YAML.ValueString(), m.SensitiveYAML, m.SensitiveManifests)
	}
	if len(diags) != 1 || diags[0].Severity() != diag.SeverityWarning {
		t.Fatalf("want one warning, got %v", diags)
	}
}

// A Secret with data or stringData rendered into the plain attributes
// gives a warning that names the documents and the way out; a Secret
// without data, another kind, and sensitive = true give none.
func TestRenderDataSource_warnsOfSecretDataOutsideSensitive(t *testing.T) {
	cases := []struct {
		name, tmpl string
		sensitive  tftypes.Value
		want       string
	}{
		{"stringData", "kind: Secret\nmetadata: {name: db}\nstringData: {pw: x}\n", tftypes.NewValue(tftypes.Bool, nil),
			"Rendered Secret data is not marked sensitive: Document 1 is a Secret with data or stringData, and the results (yaml, json, result, documents, yaml_documents, manifests) are not sensitive: Terraform prints them in plans and in the outputs that use them, even when the context holds sensitive variables, because Terraform does not pass that mark to the provider. Set sensitive = true and read the sensitive_ attributes instead (sensitive_yaml, sensitive_manifests, ...)."},
		{"two, data", "a: 1\n---\nkind: Secret\ndata: {pw: eA==}\n---\nkind: Secret\nstringData: {pw: x}\n", tftypes.NewValue(tftypes.Bool, false),
			"Rendered Secret data is not marked sensitive: Documents 2, 3 are Secrets with data or stringData, and the results (yaml, json, result, documents, yaml_documents, manifests) are not sensitive: Terraform prints them in plans and in the outputs that use them, even when the context holds sensitive variables, because Terraform does not pass that mark to the provider. Set sensitive = true and read the sensitive_ attributes instead (sensitive_yaml, sensitive_manifests, ...)."},
		{"sensitive", "kind: Secret\nstringData: {pw: x}\n", tftypes.NewValue(tftypes.Bool, true), ""},
		{"empty data", "kind: Secret\nmetadata: {name: db}\ndata: {}\n", tftypes.NewValue(tftypes.Bool, nil), ""},
		{"a ConfigMap", "kind: ConfigMap\ndata: {a: b}\n", tftypes.NewValue(tftypes.Bool, nil), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, diags := read(t, map[string]tftypes.Value{"template": str(c.tmpl), "sensitive": c.sensitive})
			var got []string
			for _, d := range diags {
				got = append(got, d.Summary()+": "+d.Detail())
				if d.Severity() != diag.SeverityWarning {
					t.Errorf("severity %v, want a warning", d.Severity())
				}
			}
			if strings.Join(got, "\n") != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
