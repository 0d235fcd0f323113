package validate

import (
	"strconv"
	"strings"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/manifest"
)

// What a violation shows of the document (the language reference, §6):
// its manifest ID whole and every key of a field path, the user's own
// structure, which the API server prints at apply too; never a value.
// With Options.HideNames (a render the caller marked sensitive), only what
// the schemas write (the group, a kind they define, the property names
// they declare) and nothing the document alone gives: a hidden key keeps
// its place in a field path as […]; a hidden part of a manifest ID is
// written "…".

// idOf is the manifest ID a message names the document by.
func (s *Schemas) idOf(doc map[string]any, o Options) string {
	if o.HideNames {
		return s.shownID(doc)
	}
	return manifestID(doc)
}

// apiVersionOf is group/version as a message names it.
func (s *Schemas) apiVersionOf(group, version string, o Options) string {
	if o.HideNames {
		return s.shownAPIVersion(group, version)
	}
	if group == "" {
		return version
	}
	return group + "/" + version
}

// objectMetaFields are the fields of ObjectMeta, which every kind has
// whether or not its schema lists them.
var objectMetaFields = []string{
	"name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation",
	"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations",
	"ownerReferences", "finalizers", "managedFields", "apiVersion", "kind", "metadata",
}

// schemaNames collects the property names a structural schema declares,
// at any depth, and those of ObjectMeta.
func schemaNames(s *structuralschema.Structural) map[string]bool {
	names := map[string]bool{}
	for _, n := range objectMetaFields {
		names[n] = true
	}
	var walk func(*structuralschema.Structural, int)
	walk = func(s *structuralschema.Structural, depth int) {
		if s == nil || depth > 200 {
			return
		}
		for k, p := range s.Properties {
			names[k] = true
			walk(&p, depth+1)
		}
		walk(s.Items, depth+1)
		if s.AdditionalProperties != nil {
			walk(s.AdditionalProperties.Structural, depth+1)
		}
	}
	walk(s, 0)
	return names
}

// shownPath writes a field path (`spec.a[key][1].b`) with every key that
// names does not hold written […], indexes kept.
func shownPath(path string, names map[string]bool) string {
	var b strings.Builder
	for len(path) > 0 {
		switch path[0] {
		case '.':
			path = path[1:]
		case '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				b.WriteString("[…]")
				return b.String()
			}
			key := path[1:end]
			if _, err := strconv.Atoi(key); err == nil || names[key] {
				b.WriteString(path[:end+1])
			} else {
				b.WriteString("[…]")
			}
			path = path[end+1:]
			continue
		}
		end := strings.IndexAny(path, ".[")
		if end < 0 {
			end = len(path)
		}
		key := path[:end]
		if names[key] {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(key)
		} else {
			b.WriteString("[…]")
		}
		path = path[end:]
	}
	return b.String()
}

// shownID is a document's manifest ID with the parts the schemas write: the
// group and kind when some schema defines that kind. The namespace and name
// come from the document, and are hidden.
func (s *Schemas) shownID(doc map[string]any) string {
	parts, ok := manifest.Split(manifestID(doc))
	if !ok {
		return manifest.Shown([4]string{}, nil)
	}
	group, kind := parts[0], parts[1]
	gk := schema.GroupKind{Group: groupOf(group), Kind: kind}
	defined := s.kinds[gk] != nil // a given schema: the built-in ones are not read
	if !defined {
		_, versions, _ := s.entry(gk, "")
		defined = versions != nil
	}
	return manifest.Shown(parts, func(p string) bool {
		return (defined && (p == group || p == kind)) || (p == group && builtinGroups[groupOf(group)])
	})
}

// shownGroup names an API group in a message: "core" for the core group.
func shownGroup(group string) string {
	if group == "" {
		return "core"
	}
	return group
}

// groupOf turns a manifest ID's group back into an API group.
func groupOf(idGroup string) string {
	if idGroup == manifest.CoreGroup {
		return ""
	}
	return idGroup
}

// shownAPIVersion is group/version with the version hidden unless some
// schema serves a kind of that group at that version.
func (s *Schemas) shownAPIVersion(group, version string) string {
	shown := "…"
	for gk, versions := range s.kinds {
		if gk.Group == group && versions[version] != nil {
			shown = version
			break
		}
	}
	if s.builtin.index() == nil && s.builtin.present() && s.builtin.gvs[schema.GroupVersion{Group: group, Version: version}] {
		shown = version
	}
	if group == "" {
		return shown
	}
	return group + "/" + shown
}
