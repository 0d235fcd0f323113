package provider

import (
	"context"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The raw path: a function call answered from the request's msgpack bytes
// to the response's, through the direct codec (codec_msgpack.go), with no
// tftypes value on the way. It covers the common case only: whenever the
// input is anything else (JSON instead of msgpack, a null where a value is
// needed, a context that is no object, a value the codec refuses) or the
// result cannot be written, it declines, and the framework answers with
// the exact error (server.go). So both paths always agree
// (server_test.go and FuzzServer compare the server with the framework).

// rawCaller is a function that can answer a call from the raw arguments.
// handled is false when it declines.
type rawCaller interface {
	callRaw(ctx context.Context, args []*tfprotov6.DynamicValue) (result []byte, ferr *function.FuncError, handled bool)
}

// rawArguments decodes a (string, context) call: the string, the context's
// variables, and unknown when either is unknown, so that the result is
// unknown. ok is false when the raw path declines.
func rawArguments(args []*tfprotov6.DynamicValue) (first string, vars map[string]value.Value, unknown, ok bool) {
	if len(args) != 2 || args[0] == nil || args[1] == nil || args[0].MsgPack == nil || args[1].MsgPack == nil {
		return "", nil, false, false
	}
	first, null, unknown, err := decodeString(args[0].MsgPack)
	if err != nil || null {
		return "", nil, false, false
	}
	if unknown {
		return "", nil, true, true
	}
	vars, unknown, ok = rawContext(args[1].MsgPack)
	return first, vars, unknown, ok
}

// rawContext decodes a context argument into variables, as contextVars
// does: null is no variables; an unknown object binds each of its known
// attribute names to an unknown of the attribute's type; anything else unknown makes the result
// unknown (unknown true). ok is false for a context that is no object,
// whose error the framework words.
func rawContext(b []byte) (vars map[string]value.Value, unknown, ok bool) {
	c, typ, err := decodeDynamic(b)
	if err != nil {
		return nil, false, false
	}
	switch cv := c.(type) {
	case nil:
		return map[string]value.Value{}, false, true
	case value.Unknown:
		if typ == nil || typ.kind != kindObject {
			return nil, true, true // not even the names are known
		}
		vars = make(map[string]value.Value, len(typ.names))
		for _, name := range typ.names {
			vars[name] = value.UnknownOf(typ.attrs[name].unknownType())
		}
		return vars, false, true
	case *value.Map:
		vars = make(map[string]value.Value, cv.Len())
		for i := 0; i < cv.Len(); i++ {
			k, v := cv.At(i)
			vars[k] = v
		}
		return vars, false, true
	}
	return nil, false, false
}

// rawResult writes a result, or declines when it cannot be written.
func rawResult(v value.Value) ([]byte, *function.FuncError, bool) {
	b, err := encodeDynamic(v)
	if err != nil {
		return nil, nil, false //nolint:nilerr // declining: the framework words the error
	}
	return b, nil, true
}
