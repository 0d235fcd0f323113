package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

// DecodeJSON reads one JSON document into the form LoadPlain takes, with
// integers as int64 and other numbers as float64, as the API server's
// decoder reads them. It is much faster than going through YAML for a
// saved /openapi/v3 document of a megabyte or more.
func DecodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("more than one JSON value")
	}
	return numbers(v), nil
}

func numbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = numbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = numbers(e)
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	}
	return v
}

// Plain turns a schema document read as an engine value into the form
// LoadPlain takes. A document holding a value not known yet is
// ErrUnknownSchemas.
func Plain(doc value.Value) (any, error) {
	p, unknown := plain(doc)
	if len(unknown) > 0 {
		return nil, ErrUnknownSchemas
	}
	return p, nil
}
