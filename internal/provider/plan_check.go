package provider

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// The check at plan (unknown-values guide, "Type errors at plan"): an
// expression that reads an unknown value renders to an unknown value, so
// a typo such as values.replicaCont under a $schema that declares
// replicaCount passes the plan and fails only at apply. When the context
// holds an unknown value, the render functions and the data source's
// validation therefore also run the static check that `celyaml check`
// runs, with the context's top-level names declared, and report the
// errors it finds in expressions, in the template and in the files it
// includes: an undefined name or field, an operator or function on types
// it has no overload for, a $for over a scalar, an $if that gives no
// bool. Its warnings are not reported, nor the problems of the template's
// structure (YAML, directives, reading $include files): the render
// reports those of what it renders, and an included file may be one that
// the apply writes. A context with no unknown value costs one walk of it
// (none on the raw path, whose bytes say so): the render that reports its
// errors runs as before.

// planCheckKey names one check: the engine (its loader reads the
// included files), and a hash of the template's name, base directory,
// text and declared names.
type planCheckKey struct {
	eng *engine.Engine
	sum [sha256.Size]byte
}

// planCheckCache keeps, per process, the errors of the templates checked
// last: a plan calls a render function once per call site and instance
// with the same template.
var planCheckCache = struct {
	sync.Mutex
	m map[planCheckKey][]*engine.Error
}{m: map[planCheckKey][]*engine.Error{}}

// planCheckCacheSize bounds planCheckCache; past it the cache starts again.
const planCheckCacheSize = 64

// planCheckErrors are the expression errors the static check finds in
// src with the names of vars declared, from the cache when the same
// template was checked with the same names before.
func planCheckErrors(ctx context.Context, eng *engine.Engine, src engine.Source, vars map[string]value.Value) []*engine.Error {
	key := planCheckKey{eng: eng, sum: planCheckSum(src, vars)}
	planCheckCache.Lock()
	errs, ok := planCheckCache.m[key]
	planCheckCache.Unlock()
	if ok {
		return errs
	}
	problems, _ := eng.Check(ctx, src, func(name string) bool {
		_, ok := vars[name]
		return ok
	})
	for _, p := range problems {
		if !p.Warning && p.Err.Expr != "" {
			errs = append(errs, p.Err)
		}
	}
	if ctx.Err() != nil {
		return errs // cut short: not kept
	}
	tflog.Debug(ctx, "celyaml: checked a template with unknown values", map[string]any{"errors": len(errs)})
	planCheckCache.Lock()
	if len(planCheckCache.m) >= planCheckCacheSize {
		clear(planCheckCache.m)
	}
	planCheckCache.m[key] = errs
	planCheckCache.Unlock()
	return errs
}

// planCheckSum hashes what a check depends on besides the engine and the
// files the template includes: the source and the declared names.
func planCheckSum(src engine.Source, vars map[string]value.Value) [sha256.Size]byte {
	names := make([]string, 0, len(vars))
	for name := range vars {
		names = append(names, name)
	}
	sort.Strings(names)
	h := sha256.New()
	field := func(s []byte) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write(s)
	}
	field([]byte(src.Name))
	field([]byte(src.BaseDir))
	field(src.Text)
	for _, name := range names {
		field([]byte(name))
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// partlyUnknown reports whether the variables hold an unknown value.
func partlyUnknown(vars map[string]value.Value) bool {
	for _, v := range vars {
		if containsUnknown(v) {
			return true
		}
	}
	return false
}

// rawPartlyUnknown is partlyUnknown for the raw path, whose context
// argument says in its bytes whether it can hold an unknown value: a
// context without the unknown's encoding anywhere holds none, and its
// variables are not walked.
func rawPartlyUnknown(arg *tfprotov6.DynamicValue, vars map[string]value.Value) bool {
	return bytes.Contains(arg.MsgPack, msgpackUnknown) && partlyUnknown(vars)
}

// planCheckText is the text of a function error that reports errs: each
// error as a render error reads, one after the other.
func planCheckText(errs []*engine.Error) string {
	texts := make([]string, len(errs))
	for i, e := range errs {
		texts[i] = e.Error()
	}
	texts[len(texts)-1] = funcErrorText(errs[len(errs)-1])
	return strings.Join(texts, "\n")
}

// planCheckCall is the check at plan of a render function's call: nil
// when the context holds no unknown value or the check finds no error.
func planCheckCall(ctx context.Context, name string, eng *engine.Engine, src engine.Source, vars map[string]value.Value, partly bool) *function.FuncError {
	if !partly {
		return nil
	}
	errs := planCheckErrors(ctx, eng, src, vars)
	if len(errs) == 0 {
		return nil
	}
	tflog.Debug(ctx, "celyaml function: the template's expressions have errors", map[string]any{"function": name, "errors": len(errs)})
	return function.NewFuncError(planCheckText(errs))
}

// planCheck is the check at plan of the data source: Terraform validates
// the configuration with the values it has, unknown ones included, and
// defers the read to apply when one is unknown. It checks a template that
// is known, with a context that holds an unknown value below its
// top-level names; anything else is left to the read, which reports it.
func (d *renderDataSource) planCheck(ctx context.Context, config tftypes.Value) diag.Diagnostics {
	var diags diag.Diagnostics
	if d.engine == nil || !config.IsKnown() || config.IsNull() {
		return diags // no engine: a data source built without the provider
	}
	var attrs map[string]tftypes.Value
	if err := config.As(&attrs); err != nil {
		return diags // validateRender reports it
	}
	var tmpl, file, baseDir *string
	for name, dst := range map[string]**string{"template": &tmpl, "template_file": &file, "base_dir": &baseDir} {
		if v := attrs[name]; !v.IsKnown() || v.As(dst) != nil {
			return diags
		}
	}
	if attrs["context"].IsFullyKnown() {
		return diags // the read renders it: the common case costs a walk, no conversion
	}
	vars, unknown, err := contextVars(attrs["context"])
	if err != nil || unknown || !partlyUnknown(vars) {
		return diags
	}
	eng := d.engineFor(ctx, sensitiveOf(attrs))
	var src engine.Source
	at := path.Root("template")
	switch {
	case file != nil:
		at = path.Root("template_file")
		if src, err = eng.LoadFile(ctx, *file); err != nil {
			return diags // the read reports it
		}
	case tmpl != nil:
		src = engine.Source{Text: []byte(*tmpl)}
		if baseDir != nil {
			src.BaseDir = *baseDir
		}
	default:
		return diags
	}
	for _, e := range planCheckErrors(ctx, eng, src, vars) {
		diags.AddAttributeError(at, "Template check failed", e.Error())
	}
	if !diags.HasError() {
		diags.Append(unknownStreamWarning(ctx, eng, src, vars, at)...)
	}
	return diags
}

// unknownStreamWarning warns when the number of documents depends on a
// value not known yet (a document-root $if or $for on one), naming where:
// no typing can keep anything of such a result known (the unknown-values
// guide, "What is typed from where").
func unknownStreamWarning(ctx context.Context, eng *engine.Engine, src engine.Source, vars map[string]value.Value, at path.Path) diag.Diagnostics {
	var diags diag.Diagnostics
	docs, err := eng.RenderDocuments(ctx, src, vars)
	if err != nil || len(docs) != 1 || docs[0].Value != value.UnknownStream {
		return diags
	}
	if docs[0].Unknown != "" {
		diags.AddAttributeWarning(at, "Chart rendered at apply",
			"The $chart at "+docs[0].Origin.String()+" is given a value not known until apply, at "+docs[0].Unknown+
				"; Helm cannot render a chart around it, so every document of the template is (known after apply) at plan, "+
				"and a for_each over manifests() of it fails with \"Invalid for_each argument\". "+
				"Give the chart values known at plan, and set what is known only after apply with a $transform (images, labels) or an overlay after the chart, which keep every document's key known.")
		return diags
	}
	where := "an overlay or a $transform"
	if docs[0].Origin.Line > 0 {
		where = "the $if or $for at " + docs[0].Origin.String()
	}
	diags.AddAttributeWarning(at, "Documents decided at apply",
		"Which documents the template gives depends on a value not known until apply: "+where+" decides it. "+
			"Terraform reads this data source during apply, so every attribute, and whatever reads it, is (known after apply) at plan; "+
			"render() and render_file() return one unknown value for the same template, and a for_each over manifests() of it fails with "+
			"\"Invalid for_each argument\". Decide which documents exist from values known at plan, and put the unknown in their fields.")
	return diags
}
