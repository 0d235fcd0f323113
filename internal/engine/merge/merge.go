package merge

import "github.com/celyaml/terraform-provider-celyaml/internal/engine/value"

// Patch merges over onto base by the merge rule and returns the result:
//
//   - if over is a mapping, it is merged key by key onto base (onto an
//     empty mapping when base is not one): a null value deletes the key, a
//     mapping merges onto the key's value by this same rule, and any other
//     value replaces it or is added;
//   - otherwise over replaces base: sequences replace, a null over gives
//     null.
//
// The keys of base keep their places and added keys follow in the order of
// over. A value not known yet (value.Unknown) as over, or as a base that a
// mapping is merged onto, makes that result unknown: its keys cannot be
// known. The result shares no mapping or sequence with base or over, so
// either may be changed afterwards without changing it.
func Patch(base, over value.Value) value.Value {
	o, ok := over.(*value.Map)
	if !ok {
		return value.Copy(over)
	}
	if _, unknown := base.(value.Unknown); unknown {
		return value.Unknown{}
	}
	b, _ := base.(*value.Map) // nil when base is no mapping: merge onto {}
	out := value.NewMap(b.Len() + o.Len())
	for i := 0; i < b.Len(); i++ {
		k, bv := b.At(i)
		ov, patched := o.Get(k)
		switch {
		case !patched:
			out.Set(k, value.Copy(bv))
		case ov != nil:
			out.Set(k, Patch(bv, ov))
		}
	}
	for i := 0; i < o.Len(); i++ {
		k, ov := o.At(i)
		if ov == nil || b.Has(k) {
			continue
		}
		out.Set(k, Patch(nil, ov))
	}
	return out
}
