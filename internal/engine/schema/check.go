package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"
)

// Binding is a variable to bind: an absent one to the default of its
// schema, or one whose unknown values its schema types to its typed value.
type Binding struct {
	Name  string
	Value value.Value
}

// Check validates the variables that lookup finds. It returns the
// bindings to make, in the order of the set: the defaults of absent
// variables, and a variable whose unknown values of dynamic type the
// schema gives a type (Typed) with those typed; every failure as
// "PATH: MESSAGE", sorted by variable and path, and the $schema entry of
// the variable the first failure is about. A variable whose value is null
// counts as absent when its schema has a default: Terraform passes null
// for an optional input that was not set. A nil Set checks nothing.
func (s *Set) Check(lookup func(name string) (value.Value, bool)) (defaults []Binding, failures []string, at *yaml.Node) {
	return s.CheckWith(lookup, false)
}

// CheckWith is Check; hideKeys (a render the caller marked sensitive)
// writes the keys of a variable that its schema does not name as […] in
// the failures' paths, instead of naming them (reference §6).
func (s *Set) CheckWith(lookup func(name string) (value.Value, bool), hideKeys bool) (defaults []Binding, failures []string, at *yaml.Node) {
	if s == nil {
		return nil, nil, nil
	}
	var all []failure
	var retyped []Binding
	for i := range s.vars {
		sv := &s.vars[i]
		v, ok := lookup(sv.name)
		if !ok || (v == nil && sv.hasDef) {
			if sv.hasDef {
				defaults = append(defaults, Binding{Name: sv.name, Value: value.Copy(sv.def)})
			} else {
				all = append(all, failure{name: sv.name, msg: "required variable is missing"})
			}
			continue
		}
		fs, unknown := sv.check(v)
		all = append(all, fs...)
		if unknown && len(all) == 0 {
			if typed, changed := Typed(v, sv.schema); changed {
				retyped = append(retyped, Binding{Name: sv.name, Value: typed})
			}
		}
	}
	if len(all) == 0 {
		defaults = append(defaults, retyped...)
	}
	failures = formatFailures(all, hideKeys)
	if len(failures) > 0 {
		at = s.entry(all[0].name)
	}
	return defaults, failures, at
}

// entry gives the $schema entry of variable name.
func (s *Set) entry(name string) *yaml.Node {
	for i := range s.vars {
		if s.vars[i].name == name {
			return s.vars[i].key
		}
	}
	return nil
}

// validate checks one value and formats its failures.
func (sv *variable) validate(v value.Value) []string {
	return formatFailures(sv.failures(v), false)
}

// failures checks one value. Of a value that holds an Unknown, only what
// is already known is checked (see the package comment).
func (sv *variable) failures(v value.Value) []failure {
	fs, _ := sv.check(v)
	return fs
}

// check is failures, and whether v holds an Unknown.
func (sv *variable) check(v value.Value) ([]failure, bool) {
	var unknown value.Value // v when it holds an Unknown: failures about one are dropped
	if value.HasUnknown(v) {
		unknown = v
	}
	var fs []failure
	if nan := findNaN(v, nil); nan != nil {
		fs = append(fs, failure{path: nan, msg: "NaN is not a JSON number and cannot be checked"})
	} else {
		inst := instance(v)
		err := validateSafely(sv.schema, inst)
		var ve *jsonschema.ValidationError
		switch {
		case err == nil:
		case errors.As(err, &ve):
			collectFailures(ve, inst, unknown, &fs)
		default:
			fs = append(fs, failure{msg: "could not be checked against its schema"})
		}
	}
	if len(fs) == 0 && sv.rules != nil && unknown == nil {
		// As at the API server, rules run on a value of the schema's
		// shape; one that holds an Unknown waits for apply.
		fs = sv.rules.check(v)
	}
	for i := range fs {
		fs[i].name, fs[i].names = sv.name, sv.names
	}
	return fs, unknown != nil
}

func validateSafely(sch *jsonschema.Schema, inst any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("validation failed")
		}
	}()
	return sch.Validate(inst)
}

// collectFailures flattens a validation error into failures. Containers
// (the root, groups, references, allOf) are walked; anyOf and oneOf are one
// failure each, since their branches are alternatives.
func collectFailures(e *jsonschema.ValidationError, inst any, unknown value.Value, out *[]failure) {
	if unknown != nil && inBranch(e.SchemaURL) {
		// A then or else branch: the `if` that chose it may have read an
		// Unknown, and where it applies is not kept in the error, so
		// nothing under it is reported until the variable is known.
		return
	}
	switch e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				collectFailures(c, inst, unknown, out)
			}
			return
		}
	}
	if unknown != nil && unknownAt(unknown, e.InstanceLocation, !shapeOnly(e.ErrorKind)) {
		return // about a value that is not known yet
	}
	ek := e.ErrorKind
	if d, ok := ek.(*kind.Dependency); ok {
		// Draft 7's dependencies fails as dependentRequired does, with
		// the same fields.
		ek = (*kind.DependentRequired)(d)
	}
	switch k := ek.(type) {
	case *kind.Required:
		path := instancePath(inst, e.InstanceLocation)
		for _, m := range k.Missing {
			*out = append(*out, failure{path: path, msg: "missing required property " + quoteJSON(m)})
		}
		return
	case *kind.AdditionalProperties:
		path := instancePath(inst, e.InstanceLocation)
		for _, p := range k.Properties {
			*out = append(*out, failure{path: appendKey(path, p), msg: "property is not allowed"})
		}
		return
	case *kind.PropertyNames:
		path := instancePath(inst, e.InstanceLocation)
		*out = append(*out, failure{path: appendKey(path, k.Property), msg: "property name does not match propertyNames"})
		return
	case *kind.DependentRequired:
		path := instancePath(inst, e.InstanceLocation)
		for _, m := range k.Missing {
			*out = append(*out, failure{path: path, msg: fmt.Sprintf("property %s is required when %s is present", quoteJSON(m), quoteJSON(k.Prop))})
		}
		return
	case *kind.Type:
		got := typeName(instanceAt(inst, e.InstanceLocation))
		*out = append(*out, failure{
			path: instancePath(inst, e.InstanceLocation),
			msg:  fmt.Sprintf("expected %s, got %s", strings.Join(k.Want, " or "), got),
		})
		return
	}
	*out = append(*out, failure{path: instancePath(inst, e.InstanceLocation), msg: failureMessage(e.ErrorKind)})
}

// instance converts an engine value to what the validator reads:
// map[string]any, []any, int64, float64, string, bool, nil. An infinity
// becomes a number beyond every finite float64 (1e400), so that bounds
// compare correctly; NaN is caught by findNaN before.
func instance(v value.Value) any {
	switch x := v.(type) {
	case *value.Map:
		m := make(map[string]any, x.Len())
		for i := 0; i < x.Len(); i++ {
			k, val := x.At(i)
			m[k] = instance(val)
		}
		return m
	case []value.Value:
		l := make([]any, len(x))
		for i, item := range x {
			l[i] = instance(item)
		}
		return l
	case float64:
		switch {
		case math.IsInf(x, 1):
			return json.Number("1e400")
		case math.IsInf(x, -1):
			return json.Number("-1e400")
		}
		return x
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case float32:
		return instance(float64(x))
	case nil, bool, int64, string:
		return x
	case value.Unknown:
		return nil // failures about it are dropped (unknownAt)
	}
	// Not an engine value; let the validator call it invalid.
	return struct{}{}
}

// findNaN returns the path of the first NaN in v, or nil.
func findNaN(v value.Value, path []pathSeg) []pathSeg {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) {
			if path == nil {
				path = []pathSeg{}
			}
			return path
		}
	case *value.Map:
		for i := 0; i < x.Len(); i++ {
			k, val := x.At(i)
			if p := findNaN(val, appendKey(path, k)); p != nil {
				return p
			}
		}
	case []value.Value:
		for i, item := range x {
			if p := findNaN(item, append(slices.Clip(path), pathSeg{index: i})); p != nil {
				return p
			}
		}
	}
	return nil
}
