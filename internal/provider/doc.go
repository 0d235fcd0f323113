// Package provider implements the celyaml Terraform provider: the
// celyaml_render data source and the render, render_file, eval and
// manifests functions, all over one shared CEL-YAML engine.
//
// It is a thin layer over package engine. provider.go declares the
// provider; data_source_render.go and one file per function
// (function_render.go, function_render_file.go, function_eval.go,
// function_manifests.go, function_deep_merge.go, function_to_yaml.go) define the schemas and turn Terraform values into
// engine inputs and results back; convert.go converts values both ways,
// unknown values included; manifests.go keys documents by manifest ID.
// server.go answers the three calls that run on every plan (the data
// source's validate and read, and function calls) directly on the plugin
// protocol, and hands everything else to the framework; a guard test
// fails if a schema gains a feature that path does not apply.
//
// Errors carry the engine's positioned message and never a variable's
// value; function errors end on a line of their own (function_error.go)
// so that the period Terraform appends stays out of the caret picture.
package provider
