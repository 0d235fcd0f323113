package hint

import "strings"

// Nearest returns the candidate a misspelt name probably meant: with fold,
// one equal to it but for case; otherwise the first at the smallest edit
// distance below limit (compared in lower case with fold). It gives ""
// when none is that close.
func Nearest(name string, cands []string, limit int, fold bool) string {
	best, key := "", name
	if fold {
		key = strings.ToLower(name)
	}
	for _, c := range cands {
		ck := c
		if fold {
			if ck = strings.ToLower(c); ck == key {
				return c
			}
		}
		if d := EditDistance(key, ck); d < limit {
			best, limit = c, d
		}
	}
	return best
}

// WithPrefix returns the first candidate that begins with name, ignoring
// case: what a shortened name (upper, maxProp) stands for. It gives ""
// when none does.
func WithPrefix(name string, cands []string) string {
	ln := strings.ToLower(name)
	for _, c := range cands {
		if strings.HasPrefix(strings.ToLower(c), ln) {
			return c
		}
	}
	return ""
}

// TypoLimit is the edit distance below which a name counts as a typo of
// another: 3, or 2 for names of three characters or fewer.
func TypoLimit(name string) int {
	if len(name) <= 3 {
		return 2
	}
	return 3
}

func EditDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 64
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
