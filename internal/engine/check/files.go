package check

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/walk"
	"go.yaml.in/yaml/v3"
)

// LiteralIncludes gives the files that the template in src includes by a
// literal path, resolved as a render resolves them (against the
// template's directory) and cleaned. `celyaml check` checks a file that
// another checked template includes as part of that template, in its
// scope, rather than alone: a partial or a helpers file reads the names
// of the template that includes it (reference §4 $include). It reads
// each document as check does, compiled (compileExcised): the path of
// each compiled $include, where it is a constant string.
func LiteralIncludes(t *tree.Table, src walk.Source) []string {
	if tree.CheckText(src.Text) != nil {
		return nil
	}
	fr := walk.SourceFrame(src)
	var out []string
	dec := yaml.NewDecoder(bytes.NewReader(src.Text))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); errors.Is(err, io.EOF) || err != nil {
			return out
		}
		n, _ := compileExcised(t, &doc)
		out = literalIncludes(t, n, fr.Dir, out)
	}
}

// literalIncludes adds to out the literal paths the $includes of compiled
// document n name, against dir.
func literalIncludes(t *tree.Table, n tree.Node, dir string, out []string) []string {
	tree.Visit(n, func(c tree.Node) bool {
		if p, ok := literalInclude(t, c); ok {
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			out = append(out, filepath.Clean(p))
		}
		return true
	})
	return out
}

// literalInclude gives the path of compiled node c when it is an
// $include of a constant, non-empty string.
func literalInclude(t *tree.Table, c tree.Node) (string, bool) {
	d, ok := c.(tree.Described)
	if !ok {
		return "", false
	}
	desc := d.Describe()
	if !described(t, desc.Name).Includes || len(desc.Bodies) == 0 {
		return "", false
	}
	k, ok := desc.Bodies[0].Node.(*tree.ConstNode)
	if !ok {
		return "", false
	}
	s, ok := k.Value.(string)
	if !ok || s == "" || strings.Contains(s, "${{") {
		return "", false
	}
	return s, true
}
