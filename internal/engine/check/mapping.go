package check

import (
	"sort"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"go.yaml.in/yaml/v3"
)

// The compiler stops at the first problem of a mapping. To report every
// problem of a mapping, Check removes from the mapping the entry that
// holds the problem, with the directives that belong with it (so that
// removing $if does not make its $then a second, invented problem), and
// compiles again.

// excisePair removes from root the entry of the innermost mapping that
// holds target (as its key, its value, or inside its value), and reports
// whether it found one, noting in cut (when not nil) what it removed.
// Unless forced, it leaves overlay roots and list edits alone: their
// directives depend on each other in ways a single entry does not show,
// so the caller falls back to excising the whole mapping.
func excisePair(t *tree.Table, root, target *yaml.Node, force bool, cut *cuts) bool {
	chain := ancestry(root, target, nil)
	if chain == nil {
		return false
	}
	for i := len(chain) - 2; i >= 0; i-- {
		m := chain[i]
		if m.Kind != yaml.MappingNode {
			continue
		}
		if !force && hasOverlayKeys(t, m) {
			return false
		}
		child := chain[i+1]
		for j := 0; j+1 < len(m.Content); j += 2 {
			if m.Content[j] == child || m.Content[j+1] == child {
				cut.removed(m, removeFamily(t, m, j))
				return true
			}
		}
		return false
	}
	return false
}

// ancestry gives the nodes from n down to target, both included, or nil.
// Aliases are not followed: a node reached only through one is not
// excised here.
func ancestry(n, target *yaml.Node, above []*yaml.Node) []*yaml.Node {
	path := append(above, n)
	if n == target {
		return path
	}
	if n.Kind == yaml.AliasNode {
		return nil
	}
	for _, c := range n.Content {
		if p := ancestry(c, target, path); p != nil {
			return p
		}
	}
	return nil
}

// hasOverlayKeys reports whether mapping m holds a directive that stands
// only at an overlay's root or in a list edit ($overlay, $expects, the
// list edits).
func hasOverlayKeys(t *tree.Table, m *yaml.Node) bool {
	for j := 0; j < len(m.Content); j += 2 {
		if described(t, m.Content[j].Value).Only&(tree.AtOverlayRoot|tree.AtEditItem) != 0 {
			return true
		}
	}
	return false
}

// removeFamily removes the entry at key index j of mapping m and every
// directive that needs a removed one ($then and $else go with $if, $if
// with its $then). An unknown directive counts as the one it is probably
// a slip for, so `$iff` takes its `$then` with it. It gives the keys and
// values it removed, in order.
func removeFamily(t *tree.Table, m *yaml.Node, j int) []*yaml.Node {
	removed := map[string]bool{m.Content[j].Value: true}
	if k := m.Content[j].Value; tree.IsDirectiveLike(k) {
		if _, known := t.Lookup(k); !known {
			if s := t.Suggest(k); s != "" {
				removed[s] = true
			}
		}
	}
	gone := map[int]bool{j: true}
	for changed := true; changed; {
		changed = false
		for i := 0; i+1 < len(m.Content); i += 2 {
			if gone[i] {
				continue
			}
			d, ok := t.Lookup(m.Content[i].Value)
			if !ok {
				continue
			}
			if d.Needs != "" && removed[d.Needs] {
				removed[d.Name], gone[i], changed = true, true, true
			}
		}
	}
	kept, cut := m.Content[:0:0], []*yaml.Node(nil)
	for i := 0; i+1 < len(m.Content); i += 2 {
		if gone[i] {
			cut = append(cut, m.Content[i], m.Content[i+1])
		} else {
			kept = append(kept, m.Content[i], m.Content[i+1])
		}
	}
	m.Content = kept
	return cut
}

// sortByPosition orders problems by line and column within each file,
// the files in the order their first problem was found: the compiler
// finds a mapping's problems in directive order, the reader wants them in
// template order.
func sortByPosition(ps []Problem) {
	first := map[string]int{}
	for i, p := range ps {
		if _, ok := first[p.Err.Pos.File]; !ok {
			first[p.Err.Pos.File] = i
		}
	}
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i].Err.Pos, ps[j].Err.Pos
		if a.File != b.File {
			return first[a.File] < first[b.File]
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}
