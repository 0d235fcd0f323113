package provider

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// planTypoFile reads values.replicaCont where its $schema declares
// replicaCount.
const planTypoFile = "testdata/files/plan_typo.yaml"

// planTypoError is what the check at plan reports for planTypoFile: the
// words of `celyaml check`, positioned as a render error is.
const planTypoError = "testdata/files/plan_typo.yaml:14:12: spec.replicas.$eval: undefined field 'replicaCont'; did you mean replicaCount?\n" +
	"  | ${{ values.replicaCont }}\n" +
	"  | ..........^\n" +
	"  ^ marks where the expression fails"

// knownValues is a values map that $schema accepts.
func knownValues() *value.Map {
	m := value.NewMap(1)
	m.Set("replicaCount", int64(3))
	return m
}

func TestPlanCheck_typoInATypedFieldFailsThePlanWhenTheValueIsUnknown(t *testing.T) {
	_, ferr := callFunction(t, &renderFileFunction{engine: testEngine}, types.StringValue(planTypoFile), vars(t, "values", value.Unknown{}))
	if ferr == nil || ferr.Text != planTypoError {
		t.Fatalf("got %v\nwant %q", ferr, planTypoError)
	}
	if ferr.FunctionArgument != nil {
		t.Fatalf("the error points at argument %d; it is the template's, not an argument's", *ferr.FunctionArgument)
	}
}

// Through the protocol, on the raw path and on the framework's, the call
// fails with the same text.
func TestPlanCheck_serverReportsTheTypoOnBothPaths(t *testing.T) {
	ctx := ctxObject(map[string]tftypes.Value{"values": dynamicUnknown})
	want := fmt.Sprintf("error (argument -): %q\nresult tftypes.DynamicPseudoType<unknown>\n", planTypoError)
	for name, srv := range map[string]func() (tfprotov6.ProviderServer, error){
		"server":    func() (tfprotov6.ProviderServer, error) { return NewServer("test")(), nil },
		"framework": providerserver.NewProtocol6WithError(New("test")()),
	} {
		s, err := srv()
		if err != nil {
			t.Fatal(err)
		}
		if got := callServerFunction(t, s, "render_file", str(planTypoFile), ctx); got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

func TestPlanCheck_inlineTemplateIsPositionedInline(t *testing.T) {
	tmpl := "$schema:\n  values:\n    type: object\n    properties:\n      replicaCount: {type: integer}\nreplicas:\n  $eval: \"${{ values.replicaCont * 2 }}\"\n"
	_, ferr := callFunction(t, &renderFunction{engine: testEngine}, types.StringValue(tmpl), vars(t, "values", value.Unknown{}))
	want := "<inline>:7:10: replicas.$eval: undefined field 'replicaCont'; did you mean replicaCount?\n" +
		"  | ${{ values.replicaCont * 2 }}\n" +
		"  | ..........^\n" +
		"  ^ marks where the expression fails"
	if ferr == nil || ferr.Text != want {
		t.Fatalf("got %v\nwant %q", ferr, want)
	}
}

// With every value known the check does not run: the render reports the
// typo in its own words, once, as before.
func TestPlanCheck_knownValuesKeepTheRendersOwnError(t *testing.T) {
	want := "testdata/files/plan_typo.yaml:14:12: spec.replicas.$eval: no such key 'replicaCont'; test for it with has(values.replicaCont), or give a default with values.?replicaCont.orValue(…)\n" +
		"  | ${{ values.replicaCont }}\n" +
		"  | ..........^\n" +
		"  ^ marks where the expression fails"
	_, ferr := callFunction(t, &renderFileFunction{engine: testEngine}, types.StringValue(planTypoFile), vars(t, "values", knownValues()))
	if ferr == nil || ferr.Text != want {
		t.Fatalf("known values: got %v\nwant %q", ferr, want)
	}
	// An unknown elsewhere in the context: the render meets the typo on
	// the known value and reports it; the check does not report it again.
	_, ferr = callFunction(t, &renderFileFunction{engine: testEngine}, types.StringValue(planTypoFile), vars(t, "values", knownValues(), "image", value.Unknown{}))
	if ferr == nil || ferr.Text != want {
		t.Fatalf("partly unknown context: got %v\nwant %q", ferr, want)
	}
}

// A variable that no $schema types is dyn: reading any field of it is no
// error at plan.
func TestPlanCheck_untypedVariableIsNoError(t *testing.T) {
	tmpl := "replicas:\n  $eval: \"${{ values.replicaCont + 1 }}\"\n"
	got := callOK(t, &renderFunction{engine: testEngine}, types.StringValue(tmpl), vars(t, "values", value.Unknown{}))
	if want := "object{replicas: unknown(basetypes.NumberType)}"; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// The check's warnings (here a forgotten $eval) are not errors. (The
// value unknown as a whole has its field typed by its $schema: the
// replicas are an unknown number.)
func TestPlanCheck_warningsAreNoError(t *testing.T) {
	tmpl := "$schema:\n  values:\n    type: object\n    properties:\n      replicaCount: {type: integer}\nnote: \"${{ values.replicaCount }}\"\nreplicas:\n  $eval: \"${{ values.replicaCount }}\"\n"
	problems, _ := sharedEngine().Check(context.Background(), engine.Source{Text: []byte(tmpl)}, func(n string) bool { return n == "values" })
	if len(problems) != 1 || !problems[0].Warning {
		t.Fatalf("the template should have one warning: %v", problems)
	}
	got := callOK(t, &renderFunction{engine: testEngine}, types.StringValue(tmpl), vars(t, "values", value.Unknown{}))
	if want := `object{note: "${{ values.replicaCount }}", replicas: unknown(basetypes.NumberType)}`; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// An $include the render does not reach yet (its $if is unknown) may name
// a file that the apply writes: that it cannot be read is no error at plan.
func TestPlanCheck_unreadIncludeIsNoError(t *testing.T) {
	tmpl := "part:\n  $if: ready\n  $then:\n    $include: written-at-apply.yaml\n"
	got := callOK(t, &renderFunction{engine: testEngine}, types.StringValue(tmpl), vars(t, "ready", value.Unknown{}))
	if want := "object{part: unknown(basetypes.DynamicType)}"; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// validateWith runs the data source's validation with an engine.
func validateWith(t *testing.T, vals map[string]tftypes.Value) diag.Diagnostics {
	t.Helper()
	var resp datasource.ValidateConfigResponse
	(&renderDataSource{engine: testEngine}).ValidateConfig(context.Background(), datasource.ValidateConfigRequest{Config: dsConfig(t, vals)}, &resp)
	return resp.Diagnostics
}

// Terraform defers the read of a data source whose context holds an
// unknown value, but validates its configuration first: the typo fails
// the validation, on the template's attribute.
func TestPlanCheck_dataSourceValidationReportsTheTypo(t *testing.T) {
	unknownValues := ctxObject(map[string]tftypes.Value{"values": dynamicUnknown})
	d := validateWith(t, map[string]tftypes.Value{"template_file": str(planTypoFile), "context": unknownValues})
	wantDetail := "testdata/files/plan_typo.yaml:14:12: spec.replicas.$eval: undefined field 'replicaCont'; did you mean replicaCount?\n" +
		"  | ${{ values.replicaCont }}\n" +
		"  | ..........^"
	if len(d) != 1 || d[0].Summary() != "Template check failed" || d[0].Detail() != wantDetail {
		t.Fatalf("got %v\nwant detail %q", d, wantDetail)
	}
	if p := d[0].(diag.DiagnosticWithPath).Path(); !p.Equal(path.Root("template_file")) {
		t.Fatalf("path %s", p)
	}

	tmpl := "$schema:\n  values:\n    type: object\n    properties:\n      replicaCount: {type: integer}\nreplicas:\n  $eval: \"${{ values.replicaCont }}\"\n"
	d = validateWith(t, map[string]tftypes.Value{"template": str(tmpl), "context": unknownValues})
	if len(d) != 1 || d[0].Detail() != "<inline>:7:10: replicas.$eval: undefined field 'replicaCont'; did you mean replicaCount?\n  | ${{ values.replicaCont }}\n  | ..........^" {
		t.Fatalf("inline: got %v", d)
	}
	if p := d[0].(diag.DiagnosticWithPath).Path(); !p.Equal(path.Root("template")) {
		t.Fatalf("inline: path %s", p)
	}
}

// Validation checks nothing more when the read will render: a known
// context, or one so unknown that its names are not known either, or a
// template that is itself unknown.
func TestPlanCheck_dataSourceValidationLeavesKnownContextsToTheRead(t *testing.T) {
	known, _ := fromEngine(knownValues())
	for name, vals := range map[string]map[string]tftypes.Value{
		"known context":   {"template_file": str(planTypoFile), "context": ctxObject(map[string]tftypes.Value{"values": known})},
		"unknown context": {"template_file": str(planTypoFile), "context": dynamicUnknown},
		"unknown file":    {"template_file": tftypes.NewValue(tftypes.String, tftypes.UnknownValue), "context": ctxObject(map[string]tftypes.Value{"values": dynamicUnknown})},
		"missing file":    {"template_file": str("testdata/files/nope.yaml"), "context": ctxObject(map[string]tftypes.Value{"values": dynamicUnknown})},
	} {
		if d := validateWith(t, vals); len(d) != 0 {
			t.Errorf("%s: got %v", name, d)
		}
	}
	_, d := read(t, map[string]tftypes.Value{"template_file": str(planTypoFile), "context": ctxObject(map[string]tftypes.Value{"values": known})})
	if len(d) != 1 || d[0].Summary() != "Template rendering failed" || d[0].Detail() != "testdata/files/plan_typo.yaml:14:12: spec.replicas.$eval: no such key 'replicaCont'; test for it with has(values.replicaCont), or give a default with values.?replicaCont.orValue(…)\n  | ${{ values.replicaCont }}\n  | ..........^" {
		t.Fatalf("read: got %v", d)
	}
}

// The check of a template is kept per template text, name, base
// directory and declared names.
func TestPlanCheck_resultIsCachedPerTemplateAndNames(t *testing.T) {
	src := engine.Source{Name: planTypoFile, Text: []byte("a:\n  $eval: \"${{ values.x }}\"\n")}
	vals := map[string]value.Value{"values": value.Unknown{}}
	base := planCheckSum(src, vals)
	for name, sum := range map[string][32]byte{
		"other text":  planCheckSum(engine.Source{Name: src.Name, Text: []byte("a: 1\n")}, vals),
		"other name":  planCheckSum(engine.Source{Name: "other.yaml", Text: src.Text}, vals),
		"base dir":    planCheckSum(engine.Source{Name: src.Name, Text: src.Text, BaseDir: "d"}, vals),
		"other names": planCheckSum(src, map[string]value.Value{"value": value.Unknown{}}),
		"more names":  planCheckSum(src, map[string]value.Value{"values": value.Unknown{}, "x": nil}),
	} {
		if sum == base {
			t.Errorf("%s: the same key", name)
		}
	}
	if planCheckSum(src, map[string]value.Value{"values": int64(1)}) != base {
		t.Error("the values themselves changed the key")
	}

	file, err := sharedEngine().LoadFile(context.Background(), planTypoFile)
	if err != nil {
		t.Fatal(err)
	}
	first := planCheckErrors(context.Background(), sharedEngine(), file, vals)
	again := planCheckErrors(context.Background(), sharedEngine(), file, vals)
	if len(first) != 1 || len(again) != 1 || first[0] != again[0] {
		t.Fatalf("not served from the cache: %v, %v", first, again)
	}
}

// The server answers the data source's validation itself: it checks the
// template as the framework's ValidateConfig does.
func TestPlanCheck_serverValidatesAsTheFrameworkDoes(t *testing.T) {
	vals := map[string]tftypes.Value{"template_file": str(planTypoFile), "context": ctxObject(map[string]tftypes.Value{"values": dynamicUnknown})}
	want := fmt.Sprintf("validate:\n  ERROR \"Template check failed\" %q at AttributeName(\"template_file\")\n",
		"testdata/files/plan_typo.yaml:14:12: spec.replicas.$eval: undefined field 'replicaCont'; did you mean replicaCount?\n  | ${{ values.replicaCont }}\n  | ..........^")
	if got := callServer(t, providerserver.NewProtocol6(New("test")())(), vals, false); got != want {
		t.Errorf("framework:\n got %s\nwant %s", got, want)
	}
	if got := callServer(t, NewServer("test")(), vals, false); got != want {
		t.Errorf("server:\n got %s\nwant %s", got, want)
	}
}

// The example of the unknown-values guide, "Type errors at plan", fails
// with the text its plan output shows.
func TestPlanCheck_guideExampleFailsAsShown(t *testing.T) {
	raw, err := os.ReadFile("../../templates/guides/unknown-values.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	guide := strings.ReplaceAll(string(raw), `${{"{{"}}`, "${{")
	_, section, ok := strings.Cut(guide, "## Type errors at plan\n")
	if !ok {
		t.Fatal("the guide has no section \"Type errors at plan\"")
	}
	block := func(fence string) string {
		_, rest, ok := strings.Cut(section, "```"+fence+"\n")
		body, _, closed := strings.Cut(rest, "```")
		if !ok || !closed {
			t.Fatalf("no ```%s block in the section", fence)
		}
		return body
	}
	dir := t.TempDir()
	file := dir + "/deployment.yaml"
	if err := os.WriteFile(file, []byte(block("yaml")), 0o600); err != nil {
		t.Fatal(err)
	}
	_, ferr := callFunction(t, &renderFileFunction{engine: testEngine}, types.StringValue(file), vars(t, "values", value.Unknown{}))
	if ferr == nil {
		t.Fatal("the guide's template passed the check")
	}
	_, shown, _ := strings.Cut(section, "$ terraform plan\n")
	shown, _, _ = strings.Cut(shown, "```")
	_, shownErr, ok := strings.Cut(shown, "failed:\n")
	if !ok {
		t.Fatal("the section shows no plan output with the function's error")
	}
	shownErr = strings.TrimSuffix(strings.TrimSpace(shownErr), ".")
	got := "./deployment.yaml" + strings.TrimPrefix(ferr.Text, file)
	if oneLine(got) != oneLine(shownErr) {
		t.Fatalf("the guide shows\n%s\nthe function says\n%s", shownErr, got)
	}
}

// A document-root $if on a value not known yet makes the number of
// documents unknown: the data source's validation warns, naming where,
// and says what Terraform then shows (the unknown-values guide); a root
// $if on a known value gives no warning.
func TestPlanCheck_dataSourceWarnsOfDocumentsDecidedAtApply(t *testing.T) {
	tmpl := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n$if: flag\n$then:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b}\n"
	d := validateWith(t, map[string]tftypes.Value{"template": str(tmpl), "context": ctxObject(map[string]tftypes.Value{"flag": dynamicUnknown})})
	const want = "Which documents the template gives depends on a value not known until apply: the $if or $for at <inline>:5:1 decides it. " +
		"Terraform reads this data source during apply, so every attribute, and whatever reads it, is (known after apply) at plan; " +
		"render() and render_file() return one unknown value for the same template, and a for_each over manifests() of it fails with " +
		"\"Invalid for_each argument\". Decide which documents exist from values known at plan, and put the unknown in their fields."
	if len(d) != 1 || d[0].Severity() != diag.SeverityWarning || d[0].Summary() != "Documents decided at apply" || d[0].Detail() != want {
		t.Fatalf("got %v\nwant detail %q", d, want)
	}
	if p := d[0].(diag.DiagnosticWithPath).Path(); !p.Equal(path.Root("template")) {
		t.Fatalf("path %s", p)
	}
	known := validateWith(t, map[string]tftypes.Value{"template": str(tmpl), "context": ctxObject(map[string]tftypes.Value{
		"flag": tftypes.NewValue(tftypes.Bool, true), "other": dynamicUnknown,
	})})
	if len(known) != 0 {
		t.Fatalf("a root $if on a known value: got %v", known)
	}
}
