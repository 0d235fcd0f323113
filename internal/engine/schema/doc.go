// Package schema compiles and runs the $schema directive (reference §4):
// a mapping from variable name to a JSON Schema written in YAML, checked
// against the variables visible where the directive stands.
//
// Compile turns the directive's YAML into a Set; Set.Check validates the
// variables, returns the defaults to bind for absent ones and every
// failure as "PATH: MESSAGE". The engine reports the failures at the
// directive and binds the defaults.
//
// Design notes:
//   - Schemas are compiled with github.com/santhosh-tekuri/jsonschema/v6,
//     draft 2020-12 unless the schema names another draft with its own
//     "$schema" keyword. `format` is asserted (draft 2020-12 would otherwise
//     only annotate it), because the language promises that it works.
//   - A schema may only reference itself ("$ref": "#/$defs/x"). Nothing is
//     ever loaded from a file or the network.
//   - Every failure message is written here, from the error kind's fields,
//     never from the library's text: the library echoes the instance value
//     (enum, const, pattern, format, minimum, ...), and a variable's value
//     must never reach an error (it may be a secret). Messages print only
//     the schema's own text and the instance's JSON types. Object keys of
//     the variable do appear, as path segments (`config.extra: ...`).
//   - A variable whose value holds an Unknown (terraform plan) is checked
//     for what is already known: an Unknown is validated as null, and a
//     failure is dropped when the instance it is about holds an Unknown
//     (is one, for failures about kinds, keys and lengths), and so is
//     everything in a then/else branch. What remains cannot change once
//     the Unknowns are known, so it is reported at plan time; the rest is
//     checked at apply.
//   - x-kubernetes-validations rules run with the Kubernetes API server's
//     own CEL validator (k8s.io/apiextensions-apiserver) on the schema read
//     as a CRD's, after the library finds no failure and
//     only on values that hold no Unknown.
//   - Compile is the expensive step; the engine caches its result per
//     node. Check is safe for concurrent use.

package schema
