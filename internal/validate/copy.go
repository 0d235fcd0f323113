package validate

// deepCopy copies plain JSON-like data, so that pruning and metadata
// defaults never touch the caller's document.
func deepCopy(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = copyAny(v)
	}
	return out
}

func copyAny(v any) any {
	switch t := v.(type) {
	case map[string]any:
		return deepCopy(t)
	case []any:
		l := make([]any, len(t))
		for i, e := range t {
			l[i] = copyAny(e)
		}
		return l
	default:
		return t
	}
}
