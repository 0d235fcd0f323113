package provider

import (
	"context"
	"slices"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// This file serves the provider over Terraform's plugin protocol 6.
//
// terraform-plugin-framework serves everything (schemas, provider
// configuration, function definitions) except the calls that carry
// templates and their results, which the server answers itself:
// ValidateDataResourceConfig and ReadDataSource for celyaml_render, and
// CallFunction for the functions (functionTable). Around those calls the framework's
// own work was most of the provider's time. With 100 data sources rendering
// 20 services each it decoded the whole configuration into framework
// values, walked it again to nullify blocks (logging a TRACE line for every
// value inside `context`, which is written and then parsed by Terraform even
// with logging off), compared the new state with the configuration for
// semantic equality and converted the state back: about 27 ms of CPU per
// read, against well under 1 ms for the render. A function call converted
// its arguments and its result twice each.
//
// Each call takes one path, the cheapest measured (BenchmarkServer_paths,
// CPU per call on a busy 2-core machine):
//
//   - render, render_file, eval, deep_merge: the raw path (server_raw.go),
//     from the request's msgpack bytes to the response's through the
//     direct codec. eval("x + 1"): 2.5 µs, against 9.5 on the tftypes path
//     and 15 in the framework; render_file() of the kitchen sink: 0.24 ms,
//     against 1.8 and 4.1 ms.
//   - manifests and validate: the tftypes path, the protocol values
//     decoded with the parameters' types and the function's call
//     (convert.go). manifests() of one document: 26 µs, against 55 in the
//     framework.
//   - the data source's validation: the raw path when the configuration
//     is known (validateRaw), else the tftypes path, which decodes unknown
//     values and checks the template with them: a validation with unknown
//     values is common (a context that reads a resource's attribute), not
//     an error. With the kitchen sink's 20-service context
//     (BenchmarkServer_validatePaths), known: raw 0.05 ms, tftypes 1.6,
//     framework 3.4; one value unknown: tftypes 1.0 ms, framework 1.9.
//   - the data source's read: the raw path, else the tftypes path, which
//     gives errors and the warnings of a read that succeeds (see
//     ReadDataSource).
//   - to_yaml, and whatever a function's path declines (an argument in
//     JSON, a null or a context the path does not take, a value its codec
//     refuses): the framework, which words the errors. These are errors,
//     so a second fast path for them is not worth its code.
//
// The framework's Run and Read call the same bodies (each function's call,
// the data source's read). server_test.go and FuzzServer check that the
// server answers exactly as the framework does.

var _ tfprotov6.ProviderServer = &server{}

// server is the framework's protocol server with the data source's and the
// functions' calls answered directly.
type server struct {
	tfprotov6.ProviderServer
	provider *celyamlProvider

	// render is the celyaml_render data source the provider's DataSources
	// builds, or nil when the framework answers its calls.
	render *renderDataSource

	// functions by name, with their parameter types, read once from the
	// functions' definitions.
	functionsOnce sync.Once
	functions     map[string]serverFunction
}

// serverFunction is a function and the Terraform types of its parameters.
type serverFunction struct {
	f      caller // nil for a variadic function, answered on the raw path only
	raw    rawCaller
	params []tftypes.Type
	deep   bool // renders a template: its raw path runs onDeepStack
}

// templateRenderer is a function that renders a template, whose
// recursion grows a goroutine's stack, so its raw path runs onDeepStack;
// the others (eval of one expression, deep_merge, to_yaml) stay on the
// caller's goroutine, which saves them the hand-off to a worker (about
// 1 µs a call).
type templateRenderer interface{ rendersTemplate() }

// caller is a provider function whose body works on protocol values, so
// that the server can call it without the framework's conversions. Run,
// for the framework, goes through runCall.
type caller interface {
	function.Function
	call(ctx context.Context, args []tftypes.Value) (tftypes.Value, *function.FuncError)
}

// NewServer returns a function that builds the provider's protocol 6 server,
// for tf6server.Serve and for acceptance tests' ProtoV6ProviderFactories.
func NewServer(version string) func() tfprotov6.ProviderServer {
	return func() tfprotov6.ProviderServer {
		p := &celyamlProvider{version: version}
		return &server{
			ProviderServer: providerserver.NewProtocol6(p)(),
			provider:       p,
			render:         directRender(context.Background(), p),
		}
	}
}

// directRender returns the celyaml_render data source from the provider's
// DataSources, the list the framework serves too, or nil when that list
// has none the server can answer for; the framework then answers its
// calls.
func directRender(ctx context.Context, p *celyamlProvider) *renderDataSource {
	var pmeta provider.MetadataResponse
	p.Metadata(ctx, provider.MetadataRequest{}, &pmeta)
	for _, newDataSource := range p.DataSources(ctx) {
		ds := newDataSource()
		var meta datasource.MetadataResponse
		ds.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: pmeta.TypeName}, &meta)
		if r, ok := ds.(*renderDataSource); ok && meta.TypeName == renderTypeName {
			return r
		}
	}
	return nil
}

func (s *server) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	if req == nil || req.TypeName != renderTypeName || s.render == nil {
		return s.ProviderServer.ValidateDataResourceConfig(ctx, req)
	}
	if req.Config != nil && req.Config.MsgPack != nil {
		if diags, ok := validateRaw(req.Config.MsgPack); ok {
			return &tfprotov6.ValidateDataResourceConfigResponse{Diagnostics: protoDiagnostics(diags)}, nil
		}
	}
	return s.validateTypes(ctx, req), nil
}

// validateTypes validates a configuration on the tftypes path: the
// configuration decoded with the schema's type, the rule on which
// attributes are set, and the check at plan of a context with unknown
// values.
func (s *server) validateTypes(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) *tfprotov6.ValidateDataResourceConfigResponse {
	config, diags := decodeConfig(req.Config)
	if !diags.HasError() {
		diags.Append(validateRender(config)...)
	}
	if !diags.HasError() {
		diags.Append(s.render.planCheck(ctx, config)...) // as ValidateConfig
	}
	return &tfprotov6.ValidateDataResourceConfigResponse{Diagnostics: protoDiagnostics(diags)}
}

func (s *server) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	if req == nil || req.TypeName != renderTypeName || s.render == nil {
		return s.ProviderServer.ReadDataSource(ctx, req)
	}
	if req.Config != nil && req.Config.MsgPack != nil {
		var (
			state []byte
			ok    bool
		)
		onDeepStack(func() { state, ok = s.render.readRaw(ctx, req.Config.MsgPack) })
		if ok {
			return &tfprotov6.ReadDataSourceResponse{State: &tfprotov6.DynamicValue{MsgPack: state}}, nil
		}
	}
	// What the raw path declines goes to the tftypes path, not to the
	// framework: besides errors it declines a read that succeeds with a
	// warning (Secret data in a data source that is not sensitive), which
	// a configuration may give at every plan, and a framework read with a
	// 20-service context costs about 27 ms of CPU, the tftypes read a few.
	resp := &tfprotov6.ReadDataSourceResponse{}
	config, diags := decodeConfig(req.Config)
	if diags.HasError() {
		resp.Diagnostics = protoDiagnostics(diags)
		return resp, nil
	}
	state, diags := s.render.read(ctx, config)
	if diags.HasError() {
		// As the framework does, a failed read returns the configuration.
		state = config
	}
	dv, err := tfprotov6.NewDynamicValue(renderStateType(), state)
	if err != nil {
		diags.AddError("Unable to Convert State", "An unexpected error was encountered when converting the state to the protocol type. "+
			"This is always an issue in the provider and should be reported.\n\nError: "+err.Error())
	} else {
		resp.State = &dv
	}
	resp.Diagnostics = protoDiagnostics(diags)
	return resp, nil
}

func (s *server) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	if req == nil {
		return s.ProviderServer.CallFunction(ctx, req)
	}
	s.functionsOnce.Do(func() { s.functions = functionTable(ctx, s.provider) })
	sf, ok := s.functions[req.Name]
	if !ok || (sf.f != nil && len(req.Arguments) != len(sf.params)) {
		// Unknown functions and wrong argument counts get the
		// framework's errors.
		return s.ProviderServer.CallFunction(ctx, req)
	}
	switch {
	case sf.raw != nil:
		var (
			result  []byte
			ferr    *function.FuncError
			handled bool
		)
		call := func() { result, ferr, handled = sf.raw.callRaw(ctx, req.Arguments) }
		if sf.deep {
			onDeepStack(call)
		} else {
			call()
		}
		if handled {
			return rawResponse(result, ferr), nil
		}
	case sf.f != nil && !slices.Contains(req.Arguments, nil):
		if resp := s.callTypes(ctx, sf, req); resp != nil {
			return resp, nil
		}
	}
	// What the function's path declines (an argument of another
	// encoding, a null or a context the path does not take, a value its
	// codec refuses) goes to the framework, which words the error.
	return s.ProviderServer.CallFunction(ctx, req)
}

// callTypes answers a call on the tftypes path: the arguments decoded with
// the parameters' types, the function's call, the result encoded. It
// returns nil when an argument does not decode; the framework words that
// error.
func (s *server) callTypes(ctx context.Context, sf serverFunction, req *tfprotov6.CallFunctionRequest) *tfprotov6.CallFunctionResponse {
	args := make([]tftypes.Value, len(req.Arguments))
	for i, a := range req.Arguments {
		var err error
		if args[i], err = a.Unmarshal(sf.params[i]); err != nil {
			return nil
		}
	}
	resp := &tfprotov6.CallFunctionResponse{}
	result, ferr := sf.f.call(ctx, args)
	if ferr != nil {
		// As the framework does, a failed call returns an unknown result.
		result = dynamicUnknown
		resp.Error = &tfprotov6.FunctionError{Text: ferr.Text, FunctionArgument: ferr.FunctionArgument}
	}
	dv, err := tfprotov6.NewDynamicValue(tftypes.DynamicPseudoType, result)
	if err != nil {
		// The protocol reports a failed call in resp.Error; the Go error is
		// for a broken connection.
		resp.Error = &tfprotov6.FunctionError{Text: "Unable to Convert Function Result Data: " + err.Error()}
		return resp
	}
	resp.Result = &dv
	return resp
}

// rawResponse is the response to a call the raw path answered. As the
// framework does, a failed call returns an unknown result.
func rawResponse(result []byte, ferr *function.FuncError) *tfprotov6.CallFunctionResponse {
	resp := &tfprotov6.CallFunctionResponse{}
	if ferr != nil {
		result = msgpackUnknown
		resp.Error = &tfprotov6.FunctionError{Text: ferr.Text, FunctionArgument: ferr.FunctionArgument}
	}
	resp.Result = &tfprotov6.DynamicValue{MsgPack: result}
	return resp
}

// functionTable reads the provider's functions and their parameter types.
func functionTable(ctx context.Context, p *celyamlProvider) map[string]serverFunction {
	table := map[string]serverFunction{}
	for _, newFunction := range p.Functions(ctx) {
		fn := newFunction()
		raw, _ := fn.(rawCaller)
		_, deep := fn.(templateRenderer)
		c, ok := fn.(caller)
		if !ok || !answeredDirectly(ctx, fn) {
			if raw != nil && definitionBuilds(ctx, fn) {
				// A variadic function: the raw path, or the framework.
				var meta function.MetadataResponse
				fn.Metadata(ctx, function.MetadataRequest{}, &meta)
				table[meta.Name] = serverFunction{raw: raw, deep: deep}
			}
			continue
		}
		var meta function.MetadataResponse
		fn.Metadata(ctx, function.MetadataRequest{}, &meta)
		var def function.DefinitionResponse
		fn.Definition(ctx, function.DefinitionRequest{}, &def)
		params := make([]tftypes.Type, len(def.Definition.Parameters))
		for i, p := range def.Definition.Parameters {
			params[i] = p.GetType().TerraformType(ctx)
		}
		table[meta.Name] = serverFunction{f: c, raw: raw, params: params, deep: deep}
	}
	return table
}

// answeredDirectly reports whether CallFunction answers fn itself: a caller
// of fixed arity whose definition builds. Every other function (variadic,
// or with a body written for the framework) goes to the framework, which
// applies its whole definition.
func answeredDirectly(ctx context.Context, fn function.Function) bool {
	if _, ok := fn.(caller); !ok {
		return false
	}
	var def function.DefinitionResponse
	fn.Definition(ctx, function.DefinitionRequest{}, &def)
	return !def.Diagnostics.HasError() && def.Definition.VariadicParameter == nil
}

// definitionBuilds reports whether fn's definition builds without errors.
func definitionBuilds(ctx context.Context, fn function.Function) bool {
	var def function.DefinitionResponse
	fn.Definition(ctx, function.DefinitionRequest{}, &def)
	return !def.Diagnostics.HasError()
}

// runCall is the framework's Run for a caller: it reads the arguments as
// protocol values, calls the function and sets the result.
func runCall(ctx context.Context, f caller, req function.RunRequest, resp *function.RunResponse) {
	var def function.DefinitionResponse
	f.Definition(ctx, function.DefinitionRequest{}, &def)
	args := make([]tftypes.Value, len(def.Definition.Parameters))
	for i := range args {
		var v attr.Value
		if resp.Error = req.Arguments.GetArgument(ctx, i, &v); resp.Error != nil {
			return
		}
		tv, err := v.ToTerraformValue(ctx)
		if err != nil {
			resp.Error = function.NewArgumentFuncError(int64(i), err.Error())
			return
		}
		args[i] = tv
	}
	result, ferr := f.call(ctx, args)
	if ferr != nil {
		resp.Error = ferr
		return
	}
	dv, err := basetypes.DynamicType{}.ValueFromTerraform(ctx, result)
	if err != nil {
		resp.Error = function.NewFuncError(err.Error())
		return
	}
	resp.Error = resp.Result.Set(ctx, dv)
}

// decodeConfig decodes a celyaml_render configuration with the schema's
// type. A missing configuration is a null object.
func decodeConfig(dv *tfprotov6.DynamicValue) (tftypes.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	typ := renderStateType()
	if dv == nil {
		return tftypes.NewValue(typ, nil), diags
	}
	v, err := dv.Unmarshal(typ)
	if err != nil {
		diags.AddError("Unable to Convert Configuration", "An unexpected error was encountered when converting the configuration from the protocol type. "+
			"This is always an issue in the provider and should be reported.\n\nError: "+err.Error())
	}
	return v, diags
}

// protoDiagnostics converts diagnostics to the protocol's, with their
// attribute paths.
func protoDiagnostics(diags diag.Diagnostics) []*tfprotov6.Diagnostic {
	if len(diags) == 0 {
		return nil
	}
	out := make([]*tfprotov6.Diagnostic, 0, len(diags))
	for _, d := range diags {
		pd := &tfprotov6.Diagnostic{
			Severity: tfprotov6.DiagnosticSeverityError,
			Summary:  d.Summary(),
			Detail:   d.Detail(),
		}
		if d.Severity() == diag.SeverityWarning {
			pd.Severity = tfprotov6.DiagnosticSeverityWarning
		}
		if dp, ok := d.(diag.DiagnosticWithPath); ok {
			pd.Attribute = attributePath(dp.Path())
		}
		out = append(out, pd)
	}
	return out
}

// attributePath converts a framework path to a protocol attribute path, or
// nil for the root.
func attributePath(p path.Path) *tftypes.AttributePath {
	steps := p.Steps()
	if len(steps) == 0 {
		return nil
	}
	ap := tftypes.NewAttributePath()
	for _, step := range steps {
		switch s := step.(type) {
		case path.PathStepAttributeName:
			ap = ap.WithAttributeName(string(s))
		case path.PathStepElementKeyString:
			ap = ap.WithElementKeyString(string(s))
		case path.PathStepElementKeyInt:
			ap = ap.WithElementKeyInt(int(s))
		default:
			// A set element's value cannot be named here; stop at its
			// parent.
			return ap
		}
	}
	return ap
}
