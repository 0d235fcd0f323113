package engine

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
)

// The lists of the language reference and the language guide that name
// every directive of a kind (reference §2's keys, partners and order of
// evaluation, §3's places where CEL is written, the guide's producers)
// name exactly the directives the table describes as of that kind, so a
// directive added to the table and not to the prose fails here, naming
// the list.
func TestReference_namesEveryDirective(t *testing.T) {
	ref := readGuideTemplate(t, "language-reference.md.tmpl")
	guide := readGuideTemplate(t, "language.md.tmpl")

	var inMapping, preludes, producers, ordered, bare, segments []string
	partnerOf := map[string]string{}
	for _, d := range table.Directives() {
		if d.Only != 0 { // an overlay's, a transform's or a chart's: §8, §10, §11
			continue
		}
		inMapping = append(inMapping, d.Name)
		switch d.Kind {
		case tree.KindPrelude:
			preludes = append(preludes, d.Name)
			ordered = append(ordered, d.Name)
		case tree.KindProducer:
			producers = append(producers, d.Name)
			ordered = append(ordered, d.Name)
		}
		switch d.Exprs {
		case tree.ExprBare, tree.ExprBareList, tree.ExprLoop, tree.ExprEntries:
			bare = append(bare, d.Name)
		case tree.ExprSegments:
			segments = append(segments, d.Name)
		}
		if d.Needs != "" {
			partnerOf[d.Name] = d.Needs
		}
	}
	withPartners := func(names []string) []string {
		out := slices.Clone(names)
		for _, p := range inMapping {
			if slices.Contains(names, partnerOf[p]) {
				out = append(out, p)
			}
		}
		return out
	}

	refCEL := listAfter(t, ref, "**Where CEL is written.**")
	guideCEL := listAfter(t, guide, "CEL expressions are written in three ways:")
	for _, l := range []struct {
		where string
		text  string
		want  []string // every directive named
		may   []string // and only they, or these (nil: want)
	}{
		{"reference §2, the directives a key may be", between(t, ref, "must be one of the", "Any other such key"), inMapping, nil},
		{"reference §2, the directives that may stand beside a producer", between(t, ref, "**Replacing.**", "**Merging.**"), preludes, nil},
		{"reference §3, the bare expressions", refCEL[0], bare, nil},
		{"reference §3, the ${{ }} segments", strings.Join(refCEL[1:], "\n"), segments, nil},
		{"the language guide, the producers", between(t, guide, "**Producers.**", "the *producers*"), producers, withPartners(producers)},
		{"the language guide, the bare expressions", guideCEL[0], bare, nil},
		{"the language guide, the ${{ }} segments", strings.Join(guideCEL[1:], "\n"), segments, nil},
	} {
		may := l.may
		if may == nil {
			may = l.want
		}
		holds(t, l.where, directivesIn(l.text), l.want, may)
	}

	for _, l := range []struct{ where, text, marker string }{
		{"reference §2, the order of evaluation", ref, "**Order of evaluation.**"},
		{"the language guide, the order of evaluation", guide, "**Order of evaluation.**"},
	} {
		var got []string
		for _, item := range listAfter(t, l.text, l.marker) {
			names := directivesIn(item)
			if len(names) == 0 {
				continue // the regular keys
			}
			got = append(got, names[0])
			for _, p := range names[1:] {
				if partnerOf[p] != names[0] {
					t.Errorf("%s: item %q names %s, which is not a partner of %s", l.where, item, p, names[0])
				}
			}
		}
		holds(t, l.where, got, ordered, ordered)
		if !slices.Equal(got, ordered) && len(got) == len(ordered) {
			t.Errorf("%s: gives the order %q, but the directive table's is %q", l.where, got, ordered)
		}
	}

	for _, l := range []struct{ where, text string }{
		{"reference §2, the partners", strings.Join(listAfter(t, ref, "**Partners.**"), "\n")},
		{"the language guide, the partners", strings.Join(listAfter(t, guide, "**Partners.**"), "\n")},
	} {
		for _, name := range inMapping {
			of, ok := partnerOf[name]
			if !ok {
				continue
			}
			named := false
			for _, line := range strings.Split(l.text, ";") {
				names := directivesIn(line)
				named = named || slices.Contains(names, name) && slices.Contains(names, of)
			}
			if !named {
				t.Errorf("%s: says nothing of %s without %s", l.where, name, of)
			}
		}
	}
}

// holds reports the directives of want that a list does not name and
// the names it gives that may does not hold.
func holds(t *testing.T, where string, got, want, may []string) {
	t.Helper()
	for _, name := range want {
		if !slices.Contains(got, name) {
			t.Errorf("%s: does not name %s", where, name)
		}
	}
	for _, name := range got {
		if !slices.Contains(may, name) {
			t.Errorf("%s: names %s, which the directive table does not describe as one of them", where, name)
		}
	}
}

// readGuideTemplate reads a guide's template, the text the docs are
// generated from.
func readGuideTemplate(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../../templates/guides/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// between is the text from the first from to the first to after it.
func between(t *testing.T, text, from, to string) string {
	t.Helper()
	_, after, ok := strings.Cut(text, from)
	if !ok {
		t.Fatalf("the text no longer holds %q", from)
	}
	in, _, ok := strings.Cut(after, to)
	if !ok {
		t.Fatalf("the text no longer holds %q after %q", to, from)
	}
	return in
}

// listAfter gives the items of the first Markdown list after marker, each
// with its continuation lines; the list ends at a blank line.
func listAfter(t *testing.T, text, marker string) []string {
	t.Helper()
	_, after, ok := strings.Cut(text, marker)
	if !ok {
		t.Fatalf("the text no longer holds %q", marker)
	}
	var items []string
	for _, line := range strings.Split(after, "\n") {
		switch {
		case listItem.MatchString(line):
			items = append(items, line)
		case len(items) > 0 && strings.TrimSpace(line) == "":
			return items
		case len(items) > 0:
			items[len(items)-1] += "\n" + line
		}
	}
	if len(items) == 0 {
		t.Fatalf("no list after %q", marker)
	}
	return items
}

var (
	listItem    = regexp.MustCompile(`^(- |\d+\. )`)
	directiveIn = regexp.MustCompile("`(\\$[A-Za-z_][A-Za-z0-9_]*)`")
	link        = regexp.MustCompile(`\[[^\]]*\]\([^)]*\)`)
)

// directivesIn gives the directive names written in code spans in text,
// in order, each once; a link's text names a section, not a list item.
func directivesIn(text string) []string {
	var out []string
	text = link.ReplaceAllString(text, "")
	for _, m := range directiveIn.FindAllStringSubmatch(text, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}
