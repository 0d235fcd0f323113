package overlay

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/diag"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
	"go.yaml.in/yaml/v3"
)

// $expects: how many documents an overlay, or items a list edit, must
// match, and the error when they do not.

// expectation is an $expects count: exactly n, or at least n.
type expectation struct {
	n       int
	atLeast bool
	key     *yaml.Node // the $expects key; nil for the default "1+"
}

func (e expectation) String() string {
	if e.atLeast {
		return strconv.Itoa(e.n) + "+"
	}
	return strconv.Itoa(e.n)
}

// holds reports whether a count between lo and hi (lo and hi included;
// more than lo when some matches are not known yet) meets e, and whether
// that is decided: it is not while some count in the range meets e and
// another does not.
func (e expectation) holds(lo, hi int) (ok, decided bool) {
	meets := func(k int) bool { return k == e.n || (e.atLeast && k > e.n) }
	if lo == hi {
		return meets(lo), true
	}
	if e.atLeast {
		return lo >= e.n, lo >= e.n || hi < e.n
	}
	return false, e.n < lo || e.n > hi
}

var expectsForm = regexp.MustCompile(`^([0-9]{1,9})(\+?)$`)

// compileExpects reads the $expects beside the directive at path, or the
// default "1+".
func compileExpects(dirs tree.DirSet, path string) (expectation, *tree.CompileError) {
	p, ok := dirs["$expects"]
	if !ok {
		return expectation{n: 1, atLeast: true}, nil
	}
	v := tree.Deref(p.V)
	msg := `$expects takes how many items must match: an int (exactly that many) or a string "N+" (at least N), got `
	if v.Kind != yaml.ScalarNode {
		return expectation{}, tree.CompileErrorAt(v, tree.JoinPath(path, "$expects"), msg+yamlnode.AKind(v))
	}
	switch v.ShortTag() {
	case "!!int":
		if m := expectsForm.FindStringSubmatch(v.Value); m != nil {
			n, _ := strconv.Atoi(m[1])
			return expectation{n: n, key: p.K}, nil
		}
	case "!!str":
		if m := expectsForm.FindStringSubmatch(v.Value); m != nil && m[2] == "+" {
			n, _ := strconv.Atoi(m[1])
			return expectation{n: n, atLeast: true, key: p.K}, nil
		}
		return expectation{}, tree.CompileErrorAt(v, tree.JoinPath(path, "$expects"), msg+tree.Quote(v.Value))
	}
	return expectation{}, tree.CompileErrorAt(v, tree.JoinPath(path, "$expects"), msg+yamlnode.AKind(v))
}

// checkExpects checks the number of documents the overlay matched:
// matched for sure, and up to unsure more whose match is not known yet.
func (o *overlayNode) checkExpects(r tree.Reporter, fr *diag.Frame, matched, unsure, docCount int) error {
	ok, decided := o.expect.holds(matched, matched+unsure)
	if ok || !decided {
		return nil
	}
	at := o.guard.key
	if o.expect.key != nil {
		at = o.expect.key
	}
	return r.ErrAt(fr, at, "$overlay", "this overlay expects "+o.expect.String()+" matching "+plural(o.expect.n, "document")+
		", and "+strconv.Itoa(matched)+" of the "+strconv.Itoa(docCount)+" rendered documents matched"+expectsHint(o.expect))
}

// afterTransformsHint adds to the error of an overlay that matched no
// document that n would match once the transforms have applied.
func afterTransformsHint(err error, n int) error {
	if e, ok := err.(*diag.Error); ok {
		e.Msg = strings.TrimSuffix(e.Msg, `; write $expects: "0+" if matching none is fine`)
		e.Msg += "; overlays apply before the transforms ($transform, and the command line's -n), and " + strconv.Itoa(n) + " " + plural(n, "document") +
			" would match after them: write the condition against the documents as they are rendered, before any transform (the namespace the upstream file writes, or none)"
	}
	return err
}

// expectsHint says how to allow an overlay or edit to match nothing.
func expectsHint(e expectation) string {
	if e.key == nil && e.n == 1 {
		return `; write $expects: "0+" if matching none is fine`
	}
	return ""
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
