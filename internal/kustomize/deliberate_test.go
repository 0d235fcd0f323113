package kustomize

import "strings"

// deliberateDiff is a difference between kustomize build and celyaml
// render that the language guide names as deliberate. The test fails if
// one of them vanishes, so the table stays true.
type deliberateDiff struct {
	// in is the scenarios ("bundle/scenario") that show it.
	in []string
	// line is the difference as differences() prints it.
	line string
	// why: the reason, and where the language guide says so.
	why string
}

func (d deliberateDiff) applies(key string) bool {
	for _, k := range d.in {
		if k == key || (strings.HasSuffix(k, "/*") && strings.HasPrefix(key, strings.TrimSuffix(k, "*"))) {
			return true
		}
	}
	return false
}

var deliberate = []deliberateDiff{}
