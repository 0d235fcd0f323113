package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/merge"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"github.com/celyaml/terraform-provider-celyaml/internal/fileread"
)

// maxFileBytes is the most the command reads from one file or from
// standard input: the engine's MaxTemplateBytes, the limit on a template
// file, for values and schema files too.
var maxFileBytes = engine.DefaultOptions().MaxTemplateBytes

// readFile reads a file the command line names, through fileread: only a
// regular file, at most maxFileBytes, stopping on SIGINT.
func (in *inputs) readFile(name string) ([]byte, error) {
	return fileread.Read(in.ctx, name, maxFileBytes)
}

// inputs are the values flags shared by render, eval and check, and the
// standard input that "-" reads (at most once).
type inputs struct {
	ctx       context.Context // stops reads and renders: SIGINT, SIGTERM
	stdin     io.Reader
	stdinUsed string // what read standard input already, for the error
	files     []string
	sets      []setting // --set and --set-string, in command-line order
	// keyPos is where each top-level key of the values files was last
	// set, for check's unread-key warnings.
	keyPos map[string]engine.Pos
}

// setting is one --set or --set-string.
type setting struct {
	arg    string // PATH=VALUE as given
	string bool   // --set-string: VALUE is always a string
}

// addValuesFlags registers -f, --set and --set-string on cmd.
func (in *inputs) addValuesFlags(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringArrayVarP(&in.files, "values", "f", nil, "a YAML or JSON file of variables; repeatable, merged left to right; - is standard input")
	fs.Var(&setValue{list: &in.sets}, "set", "set one variable or nested key, PATH=VALUE, VALUE read as a YAML scalar (image.tag=1.2); repeatable")
	fs.Var(&setValue{list: &in.sets, string: true}, "set-string", "as --set, VALUE always a string; repeatable")
}

// setValue is the pflag.Value of --set (string false) or --set-string.
type setValue struct {
	list   *[]setting
	string bool
}

func (s *setValue) String() string { return "" }
func (s *setValue) Type() string   { return "PATH=VALUE" }
func (s *setValue) Set(arg string) error {
	if _, _, err := splitSet(arg); err != nil {
		return err
	}
	*s.list = append(*s.list, setting{arg: arg, string: s.string})
	return nil
}

// readStdin reads standard input for what; a second reader is a usage
// error, since the first took it all.
func (in *inputs) readStdin(what string) ([]byte, error) {
	if in.stdinUsed != "" {
		return nil, fmt.Errorf("%s and %s cannot both read standard input (-)", in.stdinUsed, what)
	}
	in.stdinUsed = what
	text, err := fileread.ReadStream(in.ctx, "standard input", in.stdin, maxFileBytes)
	if err != nil && in.ctx.Err() == nil {
		return nil, problem(err)
	}
	return text, err
}

// vars reads the values files and applies the settings, by the merge rule
// (reference §9), and returns the root variables.
func (in *inputs) vars() (map[string]engine.Value, error) {
	acc, err := in.layered()
	if err != nil {
		return nil, err
	}
	vars := make(map[string]engine.Value, acc.Len())
	for i := range acc.Len() {
		k, v := acc.At(i)
		vars[k] = v
	}
	return vars, nil
}

// layered is vars as one mapping, keys in the order they were first given.
func (in *inputs) layered() (*engine.Map, error) {
	// The first file is the base as it stands, so its nulls are values as
	// a Terraform context's are; each later layer is patched onto it.
	var acc engine.Value = engine.NewMap(0)
	for i, name := range in.files {
		v, err := in.readValuesFile(name)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			acc = v
		} else {
			acc = merge.Patch(acc, v)
		}
	}
	for _, s := range in.sets {
		v, err := s.value()
		if err != nil {
			return nil, err
		}
		acc = merge.Patch(acc, v)
	}
	m, ok := acc.(*engine.Map)
	if !ok { // Patch keeps a map over a map.
		m = engine.NewMap(0)
	}
	return m, nil
}

// readValuesFile reads one values file: a YAML or JSON mapping, or an
// empty file.
func (in *inputs) readValuesFile(name string) (engine.Value, error) {
	var text []byte
	var err error
	shown := name
	if name == "-" {
		shown = "<stdin>"
		text, err = in.readStdin("--values -")
		if err != nil {
			return nil, err // a usage error
		}
	} else if text, err = in.readFile(name); err != nil {
		return nil, problem(fmt.Errorf("values file: %w", err))
	}
	v, err := parseValues(shown, text)
	if err == nil {
		in.notePositions(shown, text)
	}
	return v, err
}

// notePositions records where text, a values file that parsed, sets each
// top-level key.
func (in *inputs) notePositions(name string, text []byte) {
	var doc yaml.Node
	if yaml.Unmarshal(text, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return
	}
	if in.keyPos == nil {
		in.keyPos = map[string]engine.Pos{}
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		in.keyPos[k.Value] = engine.Pos{File: name, Line: k.Line, Column: k.Column}
	}
}

// parseValues reads a values file's text. Its positions name the file.
func parseValues(name string, text []byte) (engine.Value, error) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return engine.NewMap(0), nil
		}
		return nil, problem(fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "yaml: ")))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		return nil, problem(fmt.Errorf("%s: a values file holds one YAML document; this one has more", name))
	}
	v, yerr := yamlnode.Plain(&doc)
	if yerr != nil {
		return nil, problem(fmt.Errorf("%s:%d:%d: %s", name, yerr.Node.Line, yerr.Node.Column, yerr.Msg))
	}
	switch v.(type) {
	case *engine.Map:
		return v, nil
	case nil:
		return engine.NewMap(0), nil
	}
	return nil, problem(fmt.Errorf("%s:%d:%d: a values file must be a mapping of variable names to values", name, doc.Content[0].Line, doc.Content[0].Column))
}

// value is the setting as a mapping to patch onto the values: a=b.c=1
// gives {a: {b: {c: 1}}}.
func (s setting) value() (engine.Value, error) {
	keys, raw, err := splitSet(s.arg)
	if err != nil {
		return nil, err
	}
	var v engine.Value = raw
	if !s.string && raw != "" {
		n := &yaml.Node{Kind: yaml.ScalarNode, Value: raw}
		var yerr *yamlnode.Error
		if v, yerr = yamlnode.Scalar(n); yerr != nil {
			return nil, fmt.Errorf("--set %s: %s", s.arg, yerr.Msg)
		}
	}
	for i := len(keys) - 1; i >= 0; i-- {
		m := engine.NewMap(1)
		m.Set(keys[i], v)
		v = m
	}
	return v, nil
}

// splitSet splits PATH=VALUE, PATH being keys joined by "." ("\." is a
// dot inside a key).
func splitSet(arg string) (keys []string, val string, err error) {
	path, val, ok := strings.Cut(arg, "=")
	if !ok {
		return nil, "", fmt.Errorf("%q is not PATH=VALUE", arg)
	}
	var key strings.Builder
	for i := 0; i < len(path); i++ {
		switch {
		case path[i] == '\\' && i+1 < len(path) && path[i+1] == '.':
			key.WriteByte('.')
			i++
		case path[i] == '.':
			keys = append(keys, key.String())
			key.Reset()
		default:
			key.WriteByte(path[i])
		}
	}
	keys = append(keys, key.String())
	for _, k := range keys {
		if k == "" {
			return nil, "", fmt.Errorf("%q: PATH has an empty key (write a.b=1; \\. is a dot inside a key)", arg)
		}
	}
	return keys, val, nil
}
