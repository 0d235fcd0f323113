package celval

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/emit"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/merge"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"go.yaml.in/yaml/v3"
)

// The template helpers that convert whole values to and from text or
// merge them: json.encode/decode, yaml.encode/decode and deepMerge.

// MaxHelperOutput caps the text that json.encode, yaml.encode and
// Stringify may build for one value.
const MaxHelperOutput = 64 << 20

var (
	errOutputTooLarge = errors.New("the text would be larger than 64 MiB")
	// ErrValueUnknown is the error for text asked of a value not known yet.
	ErrValueUnknown = errors.New("the value is not known yet")
)

// encodeJSON writes v as compact JSON with sorted keys, no spaces and no
// HTML escaping, whole doubles as integers: AppendJSON's rules. It first
// makes sure the text stays under MaxHelperOutput, so a value whose lists
// share structure cannot expand without end.
func encodeJSON(v value.Value) ([]byte, error) {
	size := 0
	if printedSizeExceeds(v, &size, MaxHelperOutput) {
		return nil, errOutputTooLarge
	}
	return emit.AppendJSON(nil, v, true)
}

func jsonEncodeFn(v ref.Val) ref.Val {
	val, present, err := FromCEL(v)
	if err != nil {
		return types.NewErr("json.encode: %s", err.Error())
	}
	if !present {
		val = nil
	}
	budget := MaxConvertNodes
	if valueHoldsUnknown(val, &budget) {
		return celUnknown
	}
	b, err := encodeJSON(val)
	if err != nil {
		return types.NewErr("json.encode: %s", err.Error())
	}
	return types.String(b)
}

func yamlEncodeFn(v ref.Val) ref.Val {
	val, present, err := FromCEL(v)
	if err != nil {
		return types.NewErr("yaml.encode: %s", err.Error())
	}
	if !present {
		val = nil
	}
	budget := MaxConvertNodes
	if valueHoldsUnknown(val, &budget) {
		return celUnknown
	}
	size := 0
	if printedSizeExceeds(val, &size, MaxHelperOutput) {
		return types.NewErr("yaml.encode: %s", errOutputTooLarge.Error())
	}
	b, err := emit.AppendYAML(nil, val)
	if err != nil {
		return types.NewErr("yaml.encode: %s", err.Error())
	}
	return types.String(b)
}

// printedSizeExceeds adds roughly what v takes as text to *size and
// reports whether that passes limit. It stops as soon as it does.
func printedSizeExceeds(v value.Value, size *int, limit int) bool {
	*size += 4
	switch v := v.(type) {
	case string:
		*size += len(v)
	case *value.Map:
		for i := 0; i < v.Len() && *size <= limit; i++ {
			k, el := v.At(i)
			*size += len(k)
			printedSizeExceeds(el, size, limit)
		}
	case []value.Value:
		for i := 0; i < len(v) && *size <= limit; i++ {
			printedSizeExceeds(v[i], size, limit)
		}
	default:
		*size += 20
	}
	return *size > limit
}

func jsonDecodeFn(v ref.Val) ref.Val {
	s, ok := v.(types.String)
	if !ok {
		return types.NewErr("no such overload: json.decode(%s)", v.Type().TypeName())
	}
	val, err := decodeJSON(string(s))
	if err != nil {
		return types.NewErr("json.decode: %s", err.Error())
	}
	return ToCEL(val)
}

// decodeJSON parses one JSON value. Whole numbers that fit int64 become
// int64, other numbers float64; objects become maps with sorted keys.
func decodeJSON(s string) (value.Value, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	v, err := decodeJSONValue(dec, 0)
	if err != nil {
		return nil, jsonSyntaxError(dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("unexpected text after the JSON value at byte offset %d", dec.InputOffset())
	}
	return v, nil
}

// jsonSyntaxError describes err by position only: encoding/json messages
// quote the offending input, which may be a secret.
func jsonSyntaxError(dec *json.Decoder, err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("invalid JSON at byte offset %d", se.Offset)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("invalid JSON: unexpected end of input")
	case errors.Is(err, errJSONDuplicateKey), errors.Is(err, errJSONTooDeep):
		return fmt.Errorf("%w (byte offset %d)", err, dec.InputOffset())
	}
	return fmt.Errorf("invalid JSON at byte offset %d", dec.InputOffset())
}

var (
	errJSONDuplicateKey = errors.New("duplicate key in a JSON object")
	errJSONTooDeep      = errors.New("JSON nested more than 10000 levels deep")
)

func decodeJSONValue(dec *json.Decoder, depth int) (value.Value, error) {
	if depth > 10000 {
		return nil, errJSONTooDeep
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return nil, nil
	case bool:
		return t, nil
	case string:
		return t, nil
	case json.Number:
		return jsonNumber(string(t)), nil
	case json.Delim:
		switch t {
		case '[':
			out := []value.Value{}
			for dec.More() {
				el, err := decodeJSONValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				out = append(out, el)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return out, nil
		case '{':
			var ents []mapValueEntry
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				el, err := decodeJSONValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				ents = append(ents, mapValueEntry{k, el})
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			sort.SliceStable(ents, func(i, j int) bool { return ents[i].k < ents[j].k })
			m := value.NewMap(len(ents))
			for i, e := range ents {
				if i > 0 && ents[i-1].k == e.k {
					return nil, errJSONDuplicateKey
				}
				m.Set(e.k, e.v)
			}
			return m, nil
		}
	}
	return nil, errors.New("invalid JSON")
}

type mapValueEntry struct {
	k string
	v value.Value
}

// jsonNumber converts a JSON number: int64 when it is an integer literal
// that fits, float64 otherwise.
func jsonNumber(s string) value.Value {
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i
		}
	}
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

func yamlDecodeFn(v ref.Val) ref.Val {
	s, ok := v.(types.String)
	if !ok {
		return types.NewErr("no such overload: yaml.decode(%s)", v.Type().TypeName())
	}
	val, err := decodeYAML(string(s))
	if err != nil {
		return types.NewErr("yaml.decode: %s", err.Error())
	}
	return ToCEL(val)
}

// decodeYAML parses one YAML document the way templates are parsed.
func decodeYAML(s string) (value.Value, error) {
	dec := yaml.NewDecoder(strings.NewReader(s))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, nil
		}
		return nil, yamlSyntaxError(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		if err != nil {
			return nil, yamlSyntaxError(err)
		}
		return nil, errors.New("the text holds more than one YAML document")
	}
	val, nerr := yamlnode.Plain(&doc)
	if nerr != nil {
		msg := nerr.Msg
		switch {
		case strings.HasPrefix(msg, "duplicate key"):
			msg = "duplicate key"
		case strings.HasPrefix(msg, "unsupported YAML tag"):
			msg = "unsupported YAML tag: only the core tags (!!str, !!int, !!float, !!bool, !!null, !!map, !!seq) are allowed"
		}
		if nerr.Node != nil && nerr.Node.Line > 0 {
			return nil, fmt.Errorf("line %d: %s", nerr.Node.Line, msg)
		}
		return nil, errors.New(msg)
	}
	return val, nil
}

// yamlSyntaxError keeps yaml.v3's line number and drops the rest, which
// may quote the input.
func yamlSyntaxError(err error) error {
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		rest := msg[i+len("line "):]
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j > 0 {
			return fmt.Errorf("invalid YAML at line %s", rest[:j])
		}
	}
	return errors.New("invalid YAML")
}

// deepMergeFn is deepMerge(base, over): the merge rule of reference §9.
// The result is a map that CEL built, so it is written with sorted keys
// (reference §6) wherever it ends up.
func deepMergeFn(base, over ref.Val) ref.Val {
	b, present, err := FromCEL(base)
	if err != nil {
		return types.NewErr("deepMerge: %s", err.Error())
	}
	if !present {
		b = nil
	}
	o, present, err := FromCEL(over)
	if err != nil {
		return types.NewErr("deepMerge: %s", err.Error())
	}
	if !present {
		o = nil
	}
	out := merge.Patch(b, o)
	if _, unknown := out.(value.Unknown); unknown {
		return celUnknown
	}
	return ToCEL(withSortedKeys(out))
}

// withSortedKeys rebuilds v, a value that merge.Patch made and nothing else
// holds, with every mapping's keys in sorted order.
func withSortedKeys(v value.Value) value.Value {
	switch x := v.(type) {
	case *value.Map:
		keys := x.Keys()
		order := emit.SortedOrder(keys)
		out := value.NewMap(x.Len())
		for n := range keys {
			i := n
			if order != nil {
				i = order[n]
			}
			k, e := x.At(i)
			out.Set(k, withSortedKeys(e))
		}
		return out
	case []value.Value:
		for i, e := range x {
			x[i] = withSortedKeys(e)
		}
	}
	return v
}
