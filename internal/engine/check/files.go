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
// of the template that includes it (reference §4 $include).
func LiteralIncludes(t *tree.Table, src walk.Source) []string {
	if tree.CheckText(src.Text) != nil {
		return nil
	}
	fr := walk.SourceFrame(src)
	var out []string
	var visit func(n *yaml.Node, depth int)
	visit = func(n *yaml.Node, depth int) {
		if depth > 10000 {
			return
		}
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				v := tree.Deref(n.Content[i+1])
				if described(t, n.Content[i].Value).Includes && v.Kind == yaml.ScalarNode && v.Value != "" && !strings.Contains(v.Value, "${{") {
					p := v.Value
					if !filepath.IsAbs(p) {
						p = filepath.Join(fr.Dir, p)
					}
					out = append(out, filepath.Clean(p))
				}
			}
		}
		for _, c := range n.Content {
			visit(c, depth+1)
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(src.Text))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); errors.Is(err, io.EOF) || err != nil {
			return out
		}
		visit(&doc, 0)
	}
}
