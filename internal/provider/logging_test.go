package provider

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// The provider logs at TRACE and DEBUG, but never a variable's value or
// rendered output: a distinctive secret passed in the context, rendered
// into the output and used in failing expressions, appears in no log line
// and in no error text.
func TestProvider_logsAndErrorsNeverCarryValues(t *testing.T) {
	const secret = "s3cr3t-Zq9-hunter2"
	var logs bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &logs)
	var errs []string

	run := func(f function.Function, args ...attr.Value) {
		resp := function.RunResponse{Result: function.NewResultData(unset)}
		f.Run(ctx, function.RunRequest{Arguments: function.NewArgumentsData(args)}, &resp)
		if resp.Error != nil {
			errs = append(errs, resp.Error.Text)
		}
	}
	ctxVars := vars(t, "password", secret, "name", secret)
	render := &renderFunction{engine: testEngine}
	run(render, types.StringValue("pw:\n  $eval: \"${{ password }}\"\n"), ctxVars)
	run(render, types.StringValue("x:\n  $eval: \"${{ password + 1 }}\"\n"), ctxVars)
	run(render, types.StringValue("$assert: \"password == 'x'\"\n"), ctxVars)
	run(render, types.StringValue("x:\n  $eval: \"${{ int(password) }}\"\n"), ctxVars)
	run(render, types.StringValue("x:\n  $eval: \"${{ {'a': 1}[password] }}\"\n"), ctxVars)
	run(&renderFileFunction{engine: testEngine}, types.StringValue("testdata/files/app.yaml"), ctxVars)
	run(&evalFunction{engine: testEngine}, types.StringValue("password"), ctxVars)
	run(&evalFunction{engine: testEngine}, types.StringValue("password.matches('[')"), ctxVars)
	// A duplicate manifest ID is named (reference §6 allows it); the data
	// of the documents is not.
	run(&manifestsFunction{}, tupleDyn(t,
		doc(t, "kind", "Secret", "metadata.name", "db", "stringData.password", secret),
		doc(t, "kind", "Secret", "metadata.name", "db", "stringData.password", secret)))

	for _, tmpl := range []string{"pw:\n  $eval: \"${{ password }}\"\n", "x:\n  $eval: \"${{ password + 1 }}\"\n",
		"kind: A\nmetadata:\n  name: db\ndata:\n  $eval: \"${{ name }}\"\n---\nkind: A\nmetadata:\n  name: db\ndata:\n  $eval: \"${{ name }}\"\n"} {
		cfg := dsConfig(t, map[string]tftypes.Value{
			"template": str(tmpl),
			"context":  ctxObject(map[string]tftypes.Value{"password": str(secret), "name": str(secret)}),
		})
		resp := datasource.ReadResponse{State: tfsdk.State{Schema: cfg.Schema, Raw: tftypes.NewValue(cfg.Raw.Type(), nil)}}
		(&renderDataSource{engine: testEngine}).Read(ctx, datasource.ReadRequest{Config: cfg}, &resp)
		for _, d := range resp.Diagnostics {
			errs = append(errs, d.Summary()+": "+d.Detail())
		}
	}

	if len(errs) < 7 {
		t.Fatalf("expected every failing call to fail, got %d errors: %q", len(errs), errs)
	}
	for _, e := range errs {
		if strings.Contains(e, secret) {
			t.Errorf("an error carries the secret: %q", e)
		}
	}
	text := logs.String()
	entries, err := tflogtest.MultilineJSONDecode(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) < 10 {
		t.Fatalf("expected the provider to log each call, got %d lines", len(entries))
	}
	if !strings.Contains(text, "celyaml function: rendering failed") || !strings.Contains(text, "celyaml_render: rendering failed") {
		t.Fatalf("the expected log lines are missing:\n%s", text)
	}
	if strings.Contains(text, secret) {
		t.Fatalf("the logs carry the secret:\n%s", text)
	}
}
