package merge

import "github.com/celyaml/terraform-provider-celyaml/internal/engine/value"

// Edit is a value in an over that edits the value it lands on instead of
// replacing it: an overlay's list edits (reference §8). Only Onto applies
// edits; they come from templates, never from CEL, Terraform or files.
type Edit interface {
	// Edit returns the edited value; base is nil when the key is absent.
	// It must not change base.
	Edit(base value.Value) (value.Value, error)
}

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
	// Without edits, the rule cannot fail.
	v, _ := onto(base, over, false)
	return value.Copy(v)
}

// Onto merges over onto base by the same rule as Patch, for overlays: an
// Edit in over edits the value it lands on, and what over leaves alone is
// shared with base, not copied. Neither base nor over is changed, so the
// result is as immutable as they are. Its error is an Edit's.
func Onto(base, over value.Value) (value.Value, error) {
	return onto(base, over, true)
}

// onto is the merge rule itself, the one place it is written.
func onto(base, over value.Value, edits bool) (value.Value, error) {
	if e, ok := over.(Edit); ok && edits {
		return e.Edit(base)
	}
	o, ok := over.(*value.Map)
	if !ok {
		return over, nil
	}
	if _, unknown := base.(value.Unknown); unknown {
		return value.Unknown{}, nil
	}
	b, _ := base.(*value.Map) // nil when base is no mapping: merge onto {}
	added := 0
	for i := 0; i < o.Len(); i++ {
		if k, ov := o.At(i); ov != nil && !b.Has(k) {
			added++
		}
	}
	// The base's entries in their places, then over's keys in its order:
	// each replaces, deletes or is added.
	out := b.Clone(added)
	for i := 0; i < o.Len(); i++ {
		k, ov := o.At(i)
		j := out.IndexOf(k)
		switch {
		case ov == nil:
			out.Delete(k) // nothing when absent
		case j >= 0:
			_, bv := out.At(j)
			v, err := onto(bv, ov, edits)
			if err != nil {
				return nil, err
			}
			out.SetAt(j, v)
		default:
			v, err := onto(nil, ov, edits)
			if err != nil {
				return nil, err
			}
			out.Set(k, v)
		}
	}
	return out, nil
}
