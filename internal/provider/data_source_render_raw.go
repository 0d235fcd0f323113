package provider

import (
	"bytes"
	"context"
	"errors"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/manifest"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// The data source's read on the raw path (server_raw.go): the
// configuration's msgpack bytes to the state's, through the direct codec.
// Like the functions' raw path it covers the common case, a configuration
// that renders, and declines everything else (a rendering error, an
// invalid configuration, a manifest that is not unique or not well formed),
// which the tftypes path then answers with its exact diagnostics.

// rawConfig is a configuration read from its bytes: the attributes the
// state repeats, as their bytes, and the engine's inputs.
type rawConfig struct {
	raw       map[string][]byte // template, template_file, base_dir, context, sensitive
	in        renderInputs
	sensitive bool // the results go in the sensitive_ attributes
}

// decodeRawConfig reads a configuration. ok is false when the raw path
// declines it.
func decodeRawConfig(b []byte) (rawConfig, bool) {
	rc := rawConfig{raw: map[string][]byte{}}
	r := bytes.NewReader(b)
	dec := msgpack.NewDecoder(r)
	n, err := dec.DecodeMapLen()
	if err != nil || n < 0 {
		return rc, false
	}
	for range n {
		key, err := dec.DecodeString()
		if err != nil {
			return rc, false
		}
		start := len(b) - r.Len()
		if c, err := dec.PeekCode(); err != nil || msgpcode.IsExt(c) {
			return rc, false // unknown: Terraform reads only known configurations
		}
		if err := dec.Skip(); err != nil {
			return rc, false
		}
		rc.raw[key] = b[start : len(b)-r.Len()]
	}
	for name, dst := range map[string]**string{"template": &rc.in.tmpl, "template_file": &rc.in.file, "base_dir": &rc.in.baseDir} {
		s, null, unknown, err := decodeString(rc.raw[name])
		if err != nil || unknown {
			return rc, false
		}
		if !null {
			*dst = &s
		}
	}
	switch sens := rc.raw["sensitive"]; {
	case len(sens) == 1 && sens[0] == msgpcode.True:
		rc.sensitive, rc.in.sensitive = true, true
	case len(sens) == 1 && (sens[0] == msgpcode.False || sens[0] == msgpcode.Nil), sens == nil:
	default:
		return rc, false
	}
	if (rc.in.tmpl == nil) == (rc.in.file == nil) {
		return rc, false // validation words this
	}
	vars, unknown, ok := rawContext(rc.raw["context"])
	if !ok || unknown {
		return rc, false
	}
	if partlyUnknown(vars) {
		return rc, false // Terraform reads only known configurations
	}
	rc.in.vars = vars
	return rc, true
}

// validateRaw validates a configuration on the raw path: the common case,
// a configuration decodeRawConfig takes (every attribute known, a context
// without unknown values), where the check at plan (planCheck) has
// nothing to check, so that validation is the rule on which attributes
// are set. ok is false when it declines: the tftypes path, which decodes
// unknown values and checks the template with them, answers.
//
// A configuration with a 20-service context: decoding it with tftypes
// for validation cost the reattached provider as much CPU as the whole
// raw read of the kitchen sink (perf, ten plans of many-celyaml: 863
// samples against 868).
func validateRaw(config []byte) (diag.Diagnostics, bool) {
	rc, ok := decodeRawConfig(config)
	if !ok {
		return nil, false
	}
	return validateSet(rc.in.tmpl != nil, rc.in.file != nil, rc.in.baseDir != nil), true
}

// readRaw reads the data source on the raw path: the state's bytes, or ok
// false when it declines.
func (d *renderDataSource) readRaw(ctx context.Context, config []byte) ([]byte, bool) {
	rc, ok := decodeRawConfig(config)
	if !ok {
		return nil, false
	}
	rendered, err := d.render(ctx, &rc.in)
	if err != nil {
		return nil, false
	}
	docs := make([]value.Value, len(rendered))
	for i, r := range rendered {
		docs[i] = r.Value
	}
	if value.IsUnknownStream(docs) || containsUnknown(docs) {
		return nil, false
	}
	if !rc.sensitive && len(secretDataDocuments(docs)) > 0 {
		return nil, false // the tftypes path gives the warning
	}
	state, err := rc.state(docs)
	return state, err == nil
}

// state writes the state as renderState builds it and NewDynamicValue
// writes it: an object, its attributes in sorted order. Each document is
// encoded once, and documents, result and manifests share the bytes.
func (rc rawConfig) state(docs []value.Value) ([]byte, error) {
	stream, spans, err := engine.EncodeYAMLStreamSpans(docs)
	if err != nil {
		return nil, err
	}
	js, err := engine.EncodeJSONStream(docs)
	if err != nil {
		return nil, err
	}
	ids, err := manifestIndex(docs)
	if err != nil {
		return nil, err
	}
	// Every document is encoded into one reused encoder; the documents'
	// tuple and the manifests' object are put together in two more, and
	// the state, copied out of them, is the read's only large allocation.
	all, tuple, man := getEncoder(), getEncoder(), getEncoder()
	defer func() { putEncoder(all); putEncoder(tuple); putEncoder(man) }()
	type span struct{ typ, val [2]int }
	at := make([]span, len(docs))
	size := 2*len(stream) + len(js) + 256
	for i, d := range docs {
		sp := span{typ: [2]int{len(all.typ), 0}, val: [2]int{len(all.val), 0}}
		if err = all.value(d); err != nil {
			return nil, err
		}
		sp.typ[1], sp.val[1] = len(all.typ), len(all.val)
		at[i] = sp
		size += 3 * (sp.typ[1] - sp.typ[0] + sp.val[1] - sp.val[0])
	}
	enc := make([]encodedValue, len(docs))
	for i, sp := range at {
		enc[i] = encodedValue{typ: all.typ[sp.typ[0]:sp.typ[1]], val: all.val[sp.val[0]:sp.val[1]]}
	}
	// documents: a tuple of every document
	tuple.typ = append(tuple.typ, `["tuple",[`...)
	tuple.val = appendArrayLen(tuple.val, len(docs))
	for i, e := range enc {
		if i > 0 {
			tuple.typ = append(tuple.typ, ',')
		}
		tuple.typ = append(tuple.typ, e.typ...)
		tuple.val = append(tuple.val, e.val...)
	}
	tuple.typ = append(tuple.typ, "]]"...)
	tupleTyp, tupleVal := tuple.typ, tuple.val
	// manifests: an object keyed by manifest ID
	man.typ = append(man.typ, `["object",{`...)
	man.val = appendMapLen(man.val, len(ids))
	for j, m := range ids {
		if j > 0 {
			man.typ = append(man.typ, ',')
		}
		man.typ = appendJSONName(man.typ, m.id)
		man.typ = append(man.typ, ':')
		man.typ = append(man.typ, enc[m.doc].typ...)
		man.val = appendStringOf(man.val, m.id)
		man.val = append(man.val, enc[m.doc].val...)
	}
	man.typ = append(man.typ, "}]"...)
	manTyp, manVal := man.typ, man.val

	b := make([]byte, 0, size)
	b = appendMapLen(b, 17)
	attr := func(name string) { b = appendString(b, []byte(name)) }
	// result writes a result attribute, which is null unless the
	// configuration's sensitive argument selects its group.
	result := func(name string, inSensitive bool, write func()) {
		attr(name)
		if inSensitive == rc.sensitive {
			write()
		} else {
			b = append(b, msgpcode.Nil)
		}
	}
	given := func(name string) {
		attr(name)
		if v, ok := rc.raw[name]; ok {
			b = append(b, v...)
		} else {
			b = append(b, msgpcode.Nil)
		}
	}
	documents := func() { b = appendDynamic(b, tupleTyp, tupleVal) }
	jsonText := func() { b = appendString(b, js) }
	manifests := func() { b = appendDynamic(b, manTyp, manVal) }
	resultDoc := func() {
		if len(docs) == 1 {
			b = appendDynamic(b, enc[0].typ, enc[0].val)
		} else {
			b = appendDynamic(b, tupleTyp, tupleVal)
		}
	}
	yamlText := func() { b = appendString(b, stream) }
	yamlDocs := func() {
		b = appendArrayLen(b, len(spans))
		for _, sp := range spans {
			b = appendString(b, stream[sp[0]:sp[1]])
		}
	}
	// In the order of the names, as NewDynamicValue writes an object.
	given("base_dir")
	given("context")
	result("documents", false, documents)
	result("json", false, jsonText)
	result("manifests", false, manifests)
	result("result", false, resultDoc)
	given("sensitive")
	result("sensitive_documents", true, documents)
	result("sensitive_json", true, jsonText)
	result("sensitive_manifests", true, manifests)
	result("sensitive_result", true, resultDoc)
	result("sensitive_yaml", true, yamlText)
	result("sensitive_yaml_documents", true, yamlDocs)
	given("template")
	given("template_file")
	result("yaml", false, yamlText)
	result("yaml_documents", false, yamlDocs)
	return b, nil
}

// errDeclined makes the raw path decline documents whose manifests the
// tftypes path reports on.
var errDeclined = errors.New("declined: the tftypes path reports on these manifests")

// manifestEntry is one document keyed by its manifest ID.
type manifestEntry struct {
	id  string
	doc int
}

// manifestIndex keys known documents by manifest ID as buildManifests
// does, in ID order. Anything buildManifests reports (a part that is not a
// string, two documents with one ID) is an error here, for the tftypes
// path to word.
func manifestIndex(docs []value.Value) ([]manifestEntry, error) {
	var out []manifestEntry
	seen := make(map[string]bool, len(docs))
	for i, doc := range docs {
		id, skip, unknown, err := manifest.ID(doc)
		if err != nil || unknown {
			return nil, errDeclined
		}
		if skip {
			continue
		}
		if seen[id] {
			return nil, errDeclined // a duplicate
		}
		seen[id] = true
		out = append(out, manifestEntry{id: id, doc: i})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].id < out[b].id })
	return out, nil
}
