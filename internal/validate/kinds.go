package validate

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
)

// Kinds that do not exist. A group-version that an OpenAPI document served
// for it defines (a saved /openapi/v3/apis/GROUP/VERSION, or the built-in
// kinds' own) lists every kind of it: a document of another kind there is
// refused, as the API server refuses a kind it does not serve. Given
// CustomResourceDefinitions define a group only in part, as far as the
// check knows (another CRD of the group may not have been given): a kind
// none of them defines is refused too, and the message says so rather
// than guess.

// unknownKind is the error of a document whose kind the schemas do not
// define in a group-version they define, nil when they do not define that
// group-version or it serves the kind.
func (s *Schemas) unknownKind(doc map[string]any, group, version, kind string) error {
	gv := schema.GroupVersion{Group: group, Version: version}
	if group == "" && version == "v1" && kind == "List" {
		return nil // kubectl's client-side list of objects
	}
	if s.complete[gv] || s.builtinServes(gv) {
		kinds := s.kindsOf(gv)
		return fmt.Errorf("%s: kind %s does not exist in %s, whose kinds are %s%s",
			manifestID(doc), kind, gv.String(), strings.Join(kinds, ", "), didYouMean(kind, kinds))
	}
	if !s.crdGroups[group] {
		return nil
	}
	var kinds []string
	for gk := range s.kinds {
		if gk.Group == group {
			kinds = append(kinds, gk.Kind)
		}
	}
	sort.Strings(kinds)
	return fmt.Errorf("%s: kind %s is not defined by the CustomResourceDefinitions given for group %s, which define %s%s; "+
		"they may define the group only in part: if it has such a kind, give its CustomResourceDefinition too",
		manifestID(doc), kind, group, strings.Join(kinds, ", "), didYouMean(kind, kinds))
}

// builtinServes reports whether the built-in kinds define gv wholly (read
// only for a built-in group).
func (s *Schemas) builtinServes(gv schema.GroupVersion) bool {
	if !builtinGroups[gv.Group] || !s.builtin.present() {
		return false
	}
	if err := s.builtin.index(); err != nil {
		return false
	}
	return s.builtin.gvs[gv]
}

// kindsOf lists the kinds the schemas define in gv, given and built-in.
func (s *Schemas) kindsOf(gv schema.GroupVersion) []string {
	seen := map[string]bool{}
	for gk, versions := range s.kinds {
		if gk.Group == gv.Group && versions[gv.Version] != nil {
			seen[gk.Kind] = true
		}
	}
	if s.builtinServes(gv) {
		for gk, versions := range s.builtin.kinds {
			if gk.Group == gv.Group && versions[gv.Version] != nil {
				seen[gk.Kind] = true
			}
		}
	}
	kinds := make([]string, 0, len(seen))
	for k := range seen {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}

// didYouMean is ": did you mean K?" for the kind closest to kind, or "".
func didYouMean(kind string, kinds []string) string {
	if k := hint.Nearest(kind, kinds, hint.TypoLimit(kind), true); k != "" {
		return ": did you mean " + k + "?"
	}
	return ""
}
