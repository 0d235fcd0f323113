package engine

import (
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/loader"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
)

// This file lends the engine's positioned errors to files the engine does
// not read itself: the command line's values files, so that a values file
// error has the FILE:LINE:COLUMN shape of a template's.

// YAMLError is the positioned error for err, a go.yaml.in/yaml/v3 parse
// error of text, in file: the line yaml.v3 gives and the column found
// from the text, as for a template (a tab, the ':' a mapping value is not
// allowed after).
func YAMLError(file string, err error, text []byte) *Error {
	e := tree.YAMLParseError(err, text).In(&diag.Frame{File: file})
	e.Offset = -1
	return e
}

// ReadErrorText says why a file could not be read, without its path:
// "file does not exist", "not a regular file but a directory", as an
// $include's error says it.
func ReadErrorText(err error) string { return loader.ErrText(err) }
