package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/lex"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/merge"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
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
	stdinUsed string    // what read standard input already, for the error
	files     []string  // -f, [NAME=]FILE as given
	sets      []setting // --set, --set-string, --set-json, --set-file, in command-line order
	// keyPos is where each top-level key of the values files was last
	// set, for check's unread-key warnings.
	keyPos map[string]engine.Pos
	// layers is where each layer of the values came from, in order, for
	// positioning the values a $schema refuses (values_pos.go).
	layers []layer
}

// setting is one --set, --set-string, --set-json or --set-file.
type setting struct {
	arg  string // as given: PATH=VALUE[,PATH=VALUE…]
	kind setKind
}

// addValuesFlags registers -f and the --set flags on cmd.
func (in *inputs) addValuesFlags(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringArrayVarP(&in.files, "values", "f", nil,
		"a YAML or JSON file of variables, `[NAME=]FILE`; repeatable, merged left to right; - is standard input; with NAME=, the file's content is the variable NAME")
	fs.Var(&setValue{list: &in.sets, kind: setYAML}, "set",
		"set a variable or nested key in Helm's path syntax (image.tag=v2, tolerations[0].key=x, args={a,b}, a=1,b=2), VALUE read as a YAML scalar (1.2 is a number: use --set-string for text); repeatable")
	fs.Var(&setValue{list: &in.sets, kind: setString}, "set-string", "as --set, VALUE always a string; repeatable")
	fs.Var(&setValue{list: &in.sets, kind: setJSON}, "set-json", "as --set, VALUE a JSON value (lists, maps; empty is null); repeatable")
	fs.Var(&setValue{list: &in.sets, kind: setFile}, "set-file", "as --set, VALUE the text of the file it names (- is standard input); repeatable")
}

// setValue is the pflag.Value of one of the --set flags. It keeps the
// argument as given; the syntax is read when the values are, so that an
// error never shows the argument (its VALUE may be a secret), as pflag's
// "invalid argument" would.
type setValue struct {
	list *[]setting
	kind setKind
}

func (s *setValue) String() string { return "" }
func (s *setValue) Type() string {
	if s.kind == setFile {
		return "PATH=FILE"
	}
	if s.kind == setJSON {
		return "PATH=JSON"
	}
	return "PATH=VALUE"
}
func (s *setValue) Set(arg string) error {
	*s.list = append(*s.list, setting{arg: arg, kind: s.kind})
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
// (reference §9), and returns the root variables. Every mapping in them
// has its keys sorted, as a Terraform object's are, so that a render
// prints the bytes the provider does whatever order a values file writes
// its keys in (the CLI guide, "Byte identity").
func (in *inputs) vars() (map[string]value.Value, error) {
	acc, err := in.layered()
	if err != nil {
		return nil, err
	}
	vars := make(map[string]value.Value, acc.Len())
	for i := range acc.Len() {
		k, v := acc.At(i)
		vars[k] = sortedKeys(v)
	}
	return vars, nil
}

// sortedKeys is v with the keys of every mapping in it sorted by their
// bytes, as Terraform sorts an object's attributes.
func sortedKeys(v value.Value) value.Value {
	switch x := v.(type) {
	case *value.Map:
		keys := slices.Sorted(slices.Values(x.Keys()))
		out := value.NewMap(len(keys))
		for _, k := range keys {
			e, _ := x.Get(k)
			out.Set(k, sortedKeys(e))
		}
		return out
	case []value.Value:
		out := make([]value.Value, len(x))
		for i, e := range x {
			out[i] = sortedKeys(e)
		}
		return out
	}
	return v
}

// layered is the values as one mapping: the files merged left to right,
// then each setting applied in command-line order.
func (in *inputs) layered() (*value.Map, error) {
	// The first file is the base as it stands, so its nulls are values as
	// a Terraform context's are; each later layer is patched onto it.
	var acc value.Value = value.NewMap(0)
	in.layers = in.layers[:0]
	for i, arg := range in.files {
		name, file := in.splitValuesArg(arg)
		v, pos, err := in.readValuesFile(file, name)
		if err != nil {
			return nil, err
		}
		if name != "" {
			m := value.NewMap(1)
			m.Set(name, v)
			v = m
		}
		if i == 0 {
			acc = v
		} else {
			acc = merge.Patch(acc, v)
		}
		in.layers = append(in.layers, layer{pos: pos})
	}
	for _, s := range in.sets {
		as, err := parseSetting(s.arg, s.kind)
		if err != nil {
			return nil, err
		}
		for _, a := range as {
			v, err := in.settingValue(s.kind, a)
			if err != nil {
				return nil, err
			}
			if acc, err = setAt(acc, a.path, v, ""); err != nil {
				return nil, fmt.Errorf("%s %s: %v", s.kind.flag(), a.shown, err)
			}
			if m, ok := v.(*value.Map); ok && len(a.path) == 0 {
				for _, k := range m.Keys() { // a JSON object set at the root
					in.layers = append(in.layers, layer{set: pathKey("", k)})
				}
				continue
			}
			in.layers = append(in.layers, layer{set: pathKeyOf(a.path)})
		}
	}
	m, ok := acc.(*value.Map)
	if !ok { // Patch keeps a map over a map.
		m = value.NewMap(0)
	}
	return m, nil
}

// splitValuesArg splits -f's [NAME=]FILE. NAME= counts only when NAME is
// a variable name (letters, digits and _, not first a digit) and no file
// is named by the whole argument: a path such as ./a=b.yaml, or a file
// named x=y.yaml that exists, is read as a plain values file.
func (in *inputs) splitValuesArg(arg string) (name, file string) {
	name, file, ok := strings.Cut(arg, "=")
	if !ok || !lex.IsIdent(name) || file == "" {
		return "", arg
	}
	if _, err := os.Lstat(arg); err == nil {
		return "", arg
	}
	return name, file
}

// settingValue is the value one assignment sets: its VALUE read as its
// flag says, a list for {a,b}.
func (in *inputs) settingValue(kind setKind, a assignment) (value.Value, error) {
	if kind == setJSON {
		if a.json == "" {
			return nil, nil
		}
		return jsonToValue(kind.flag(), a.shown, a.json)
	}
	one := func(raw string) (value.Value, error) {
		switch kind {
		case setString:
			return raw, nil
		case setFile:
			text, err := in.readSetFile(a.shown, raw)
			return string(text), err
		}
		return scalar(kind.flag(), a.shown, raw)
	}
	if !a.list {
		return one(a.items[0])
	}
	out := make([]value.Value, 0, len(a.items))
	for _, raw := range a.items {
		v, err := one(raw)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// readSetFile reads the file a --set-file names, through fileread.
func (in *inputs) readSetFile(path, name string) ([]byte, error) {
	if name == "-" {
		return in.readStdin("--set-file " + path + "=-")
	}
	text, err := in.readFile(name)
	if err != nil {
		if in.ctx.Err() != nil {
			return nil, err
		}
		return nil, problem(&engine.Error{Pos: engine.Pos{File: name, Line: 1, Column: 1}, Offset: -1,
			Msg: "cannot read the file of --set-file " + path + ": " + engine.ReadErrorText(err)})
	}
	return text, nil
}

// readValuesFile reads one values file: a YAML or JSON mapping, or an
// empty file; under a NAME, any YAML document. It also gives where the
// file sets each value, keyed by path (values_pos.go).
func (in *inputs) readValuesFile(file, name string) (value.Value, map[string]engine.Pos, error) {
	var text []byte
	var err error
	shown := file
	if file == "-" {
		shown = "<stdin>"
		what := "--values -"
		if name != "" {
			what = "--values " + name + "=-"
		}
		text, err = in.readStdin(what)
		if err != nil {
			return nil, nil, err // a usage error
		}
	} else if text, err = in.readFile(file); err != nil {
		if in.ctx.Err() != nil {
			return nil, nil, err
		}
		return nil, nil, problem(&engine.Error{Pos: engine.Pos{File: file, Line: 1, Column: 1}, Offset: -1,
			Msg: "cannot read values file: " + engine.ReadErrorText(err)})
	}
	v, doc, err := parseValuesDoc(shown, text, name != "")
	if err != nil {
		return nil, nil, err
	}
	pos := positions(shown, doc, name)
	in.notePositions(shown, doc, name)
	return v, pos, nil
}

// notePositions records where doc, a values file that parsed, sets each
// top-level key (under a NAME: where the file starts).
func (in *inputs) notePositions(file string, doc *yaml.Node, name string) {
	if in.keyPos == nil {
		in.keyPos = map[string]engine.Pos{}
	}
	if name != "" {
		in.keyPos[name] = engine.Pos{File: file, Line: 1, Column: 1}
		return
	}
	if doc == nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		in.keyPos[k.Value] = engine.Pos{File: file, Line: k.Line, Column: k.Column}
	}
}

// parseValues reads a values file's text: a mapping, or an empty file.
// Its positions name the file.
func parseValues(name string, text []byte) (value.Value, error) {
	v, _, err := parseValuesDoc(name, text, false)
	return v, err
}

// parseValuesDoc reads a values file's text and gives its document node
// too (nil for an empty file). With anyValue, the document may be any YAML
// value (a file under a NAME); an empty file is then an empty mapping too.
func parseValuesDoc(name string, text []byte, anyValue bool) (value.Value, *yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return value.NewMap(0), nil, nil
		}
		return nil, nil, problem(engine.YAMLError(name, err, text))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		if err != nil {
			return nil, nil, problem(engine.YAMLError(name, err, text))
		}
		at := engine.Pos{File: name, Line: extra.Line, Column: extra.Column}
		if len(extra.Content) > 0 {
			at.Line, at.Column = extra.Content[0].Line, extra.Content[0].Column
		}
		return nil, nil, problem(&engine.Error{Pos: at, Offset: -1,
			Msg: "a values file holds one YAML document; this one has more"})
	}
	v, yerr := yamlnode.Plain(&doc)
	if yerr != nil {
		return nil, nil, problem(&engine.Error{Pos: engine.Pos{File: name, Line: yerr.Node.Line, Column: yerr.Node.Column}, Offset: -1, Msg: yerr.Msg})
	}
	switch v.(type) {
	case *value.Map:
		return v, &doc, nil
	case nil:
		if len(doc.Content) == 0 || anyValue {
			return value.NewMap(0), &doc, nil
		}
	}
	if anyValue {
		return v, &doc, nil
	}
	return nil, nil, problem(&engine.Error{Pos: engine.Pos{File: name, Line: doc.Content[0].Line, Column: doc.Content[0].Column}, Offset: -1,
		Msg: "a values file must be a mapping of variable names to values (or, read with -f NAME=FILE, it is the variable NAME)"})
}
