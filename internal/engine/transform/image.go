package transform

import "strings"

// An image reference is [host[:port]/]path[:tag][@digest]. The name ends
// at the first ':' or '@' after the first '/' (or anywhere when there is
// no '/'), so a registry's port is part of the name. These are the rules
// of kustomize's image handling, which this package follows.

// splitImage splits an image reference into its name, tag and digest
// (without their separators).
func splitImage(ref string) (name, tag, digest string) {
	from := 0
	if i := strings.IndexByte(ref, '/'); i > 0 {
		from = i
	}
	rest := ref[from:]
	at := strings.IndexByte(rest, '@')
	colon := strings.IndexByte(rest, ':')
	switch {
	case at < 0 && colon < 0:
		return ref, "", ""
	case at >= 0 && (colon < 0 || at < colon):
		return ref[:from+at], "", ref[from+at+1:]
	case at >= 0:
		return ref[:from+colon], ref[from+colon+1 : from+at], ref[from+at+1:]
	}
	return ref[:from+colon], ref[from+colon+1:], ""
}

// imageMatches reports whether ref names image name: ref is name, then
// optionally ":TAG" with TAG of [A-Za-z0-9_.{}-], then optionally
// "@ALGORITHM:HEX" with an OCI digest algorithm. The name is compared as
// text (kustomize reads it as a regular expression).
func imageMatches(ref, name string) bool {
	rest, ok := strings.CutPrefix(ref, name)
	if !ok {
		return false
	}
	if strings.HasPrefix(rest, ":") {
		i := 1
		for i < len(rest) && isTagByte(rest[i]) {
			i++
		}
		rest = rest[i:]
	}
	if rest == "" {
		return true
	}
	if rest[0] != '@' {
		return false
	}
	return isDigest(rest[1:])
}

func isTagByte(c byte) bool {
	return isAlnum(c) || c == '_' || c == '.' || c == '{' || c == '}' || c == '-'
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isDigest reports whether s is ALGORITHM:HEX: an algorithm of
// alphanumeric components joined by one of [+._-], a colon, then tag
// characters.
func isDigest(s string) bool {
	alg, hex, ok := strings.Cut(s, ":")
	if !ok || alg == "" {
		return false
	}
	prevSep := true
	for i := 0; i < len(alg); i++ {
		c := alg[i]
		switch {
		case isAlnum(c):
			prevSep = false
		case (c == '+' || c == '.' || c == '_' || c == '-') && !prevSep:
			prevSep = true
		default:
			return false
		}
	}
	if prevSep {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if !isTagByte(hex[i]) {
			return false
		}
	}
	return true
}

// Image is one rewrite of `images`: images named Name get NewName, NewTag
// and Digest, each where set ("" leaves that part alone). A new tag or
// digest replaces both the old tag and the old digest.
type Image struct {
	Name, NewName, NewTag, Digest string
	// nameUnknown: the name is not known yet, so every image may match;
	// restUnknown: what a match becomes is not known yet.
	nameUnknown, restUnknown bool
}

// rewrite applies im to ref, which it matches.
func (im Image) rewrite(ref string) string {
	name, tag, digest := splitImage(ref)
	if im.NewName != "" {
		name = im.NewName
	}
	switch {
	case im.NewTag != "" && im.Digest != "":
		tag, digest = im.NewTag, im.Digest
	case im.NewTag != "":
		tag, digest = im.NewTag, ""
	case im.Digest != "":
		tag, digest = "", im.Digest
	}
	if tag != "" {
		name += ":" + tag
	}
	if digest != "" {
		name += "@" + digest
	}
	return name
}
