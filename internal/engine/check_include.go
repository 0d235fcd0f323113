package engine

import "go.yaml.in/yaml/v3"

// includePathProblem is what a render will say about an $include whose
// path is written as plain data that is not a file path string (a list, a
// number, an empty string), or "" when the path is a string or is computed.
func includePathProblem(v *yaml.Node, path string) string {
	t, err := newCompiler().node(v, path)
	if err != nil {
		return "" // the compiler reports it
	}
	k, ok := t.(*constNode)
	if !ok {
		return "" // computed when the template renders
	}
	s, isStr := k.v.(string)
	switch {
	case isStr && s != "":
		return ""
	case isStr:
		return "$include takes a file path string, got an empty string"
	}
	return "$include takes a file path string, got " + valueKind(k.v)
}
