//go:build helmoracle

package helmoracle

import "strings"

// knownDiff is a difference between `$chart` and `helm template` on a
// real chart. The CLI guide lists every one; the test fails if one
// appears that is not here, or one here vanishes, so the list stays true.
type knownDiff struct {
	// in is the renders ("chart/value set", or "chart/*") that show it.
	in []string
	// line is the difference as compareStreams prints it.
	line string
	// why: the reason.
	why string
}

func (k knownDiff) applies(key string) bool {
	for _, in := range k.in {
		if in == key || (strings.HasSuffix(in, "/*") && strings.HasPrefix(key, strings.TrimSuffix(in, "*"))) {
			return true
		}
	}
	return false
}

// known is every difference the comparison finds.
var known = []knownDiff{}
