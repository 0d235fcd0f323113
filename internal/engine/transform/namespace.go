package transform

import "github.com/celyaml/terraform-provider-celyaml/internal/engine/value"

// The namespace transform: an object's own namespace, set where its kind is
// namespaced, and the references that follow it (a binding's subjects, a
// webhook's service) when they name an object of the render.

// namespace applies the namespace to one object.
func (p *Prepared) namespace(doc value.Value, group, kind, apiVersion string) (out value.Value, unknown bool, err error) {
	if kind == "" {
		return nil, false, &Error{Field: "namespace", Msg: "this document has no kind, so whether it is namespaced cannot be told; a transform with a namespace changes Kubernetes objects only"}
	}
	kept := false
	if m, ok := doc.(*value.Map); ok {
		var unk bool
		if kept, unk = p.kept(m, kind, p.keepHits); unk {
			return nil, true, nil
		}
	}
	st := p.scope(group, kind)
	if kept && (st == scopeUnknown || st == scopeUntold) {
		st = scopeCluster // left where it is: its scope does not matter
	}
	switch st {
	case scopeUnknown:
		return nil, true, nil
	case scopeUntold:
		gk := p.shownName(kind)
		if group != "" {
			gk = p.shownName(group) + "/" + gk
		}
		return nil, false, &Error{Field: "namespace", Msg: "cannot tell whether kind " + gk + " is namespaced: it is not a built-in kind of Kubernetes " + builtinVersion +
			" and no CustomResourceDefinition among the documents or given beside them defines it; give its CustomResourceDefinition: render it with the objects, or pass it to the command line's --schemas (a file or a directory); or leave the object where it is with keepNamespace"}
	case scopeNamespaced:
		if kept {
			break
		}
		if doc, _, err = p.own.edit(doc, metadataNamespace, true, p.setNS); err != nil {
			return nil, false, err
		}
	}
	set := p.setNS
	switch {
	case kind == "Namespace" && apiVersion == "v1":
		if !kept {
			doc, _, err = p.own.edit(doc, metadataName, true, set)
		}
	case kind == "RoleBinding" || kind == "ClusterRoleBinding":
		doc, _, err = p.own.edit(doc, []string{"subjects"}, false, p.subjects)
	case group == "admissionregistration.k8s.io" && (kind == "ValidatingWebhookConfiguration" || kind == "MutatingWebhookConfiguration"):
		doc, _, err = p.own.edit(doc, []string{"webhooks", "clientConfig", "service"}, false, p.serviceRef)
	case group == "apiregistration.k8s.io" && kind == "APIService":
		doc, _, err = p.own.edit(doc, p2("spec", "service"), false, func(v value.Value) (value.Value, bool, error) {
			if m, ok := v.(*value.Map); !ok || p.namesKeptService(m) {
				return v, false, nil
			}
			return p.own.edit(v, []string{"namespace"}, true, set)
		})
	case group == "apiextensions.k8s.io" && kind == "CustomResourceDefinition":
		doc, _, err = p.own.edit(doc, []string{"spec", "conversion", "webhook", "clientConfig", "service"}, false, func(v value.Value) (value.Value, bool, error) {
			if m, ok := v.(*value.Map); !ok || !m.Has("namespace") || p.namesKeptService(m) {
				return v, false, nil
			}
			return p.own.edit(v, []string{"namespace"}, true, set)
		})
	}
	return doc, false, err
}

// subjects sets the namespace of the subjects of a (Cluster)RoleBinding
// that refer to an object of the render: those named "default" (the
// namespace's default ServiceAccount, whatever their kind, as kustomize
// does) and ServiceAccounts among the documents that the namespace moves,
// whatever namespace the subject writes when the ServiceAccount writes
// none (refSet.refers).
func (p *Prepared) subjects(v value.Value) (value.Value, bool, error) {
	list, ok := v.([]value.Value)
	if !ok {
		if _, unk := v.(value.Unknown); unk {
			return v, false, nil
		}
		return nil, false, &shapeError{want: "a sequence", got: v}
	}
	var out []value.Value
	for i, el := range list {
		sub, ok := el.(*value.Map)
		if !ok {
			if _, unk := el.(value.Unknown); unk {
				continue
			}
			return nil, false, &shapeError{rpath: []any{i}, want: "a mapping", got: el}
		}
		name, _, nameUnk := getString(sub, "name")
		kind, _, kindUnk := getString(sub, "kind")
		var nv value.Value
		switch {
		case nameUnk:
			nv = value.UnknownOf(value.TypeString)
		case name == "default":
			nv = p.ns
		case kind == "ServiceAccount" || kindUnk:
			yes, _, undecided := p.sas.refers(sub)
			switch {
			case undecided || (yes && kindUnk):
				nv = value.UnknownOf(value.TypeString)
			case yes:
				nv = p.ns
			}
		}
		if nv == nil {
			continue
		}
		c := p.own.mapCopy(sub, 1)
		c.Set("namespace", nv)
		if out == nil {
			out = p.own.seqCopy(list)
		}
		out[i] = c
	}
	if out == nil {
		return v, false, nil
	}
	return out, true, nil
}

// namesKeptService reports whether a service reference names only
// Services of the render that keepNamespace leaves where they are.
func (p *Prepared) namesKeptService(ref *value.Map) bool {
	_, kept, _ := p.services.refers(ref)
	return kept
}

// serviceRef sets the namespace of a webhook's service reference when it
// names a Service among the documents.
func (p *Prepared) serviceRef(v value.Value) (value.Value, bool, error) {
	ref, ok := v.(*value.Map)
	if !ok {
		return v, false, nil
	}
	yes, _, undecided := p.services.refers(ref)
	var nv value.Value
	switch {
	case undecided:
		nv = value.UnknownOf(value.TypeString)
	case yes:
		nv = p.ns
	default:
		return v, false, nil
	}
	c := p.own.mapCopy(ref, 1)
	c.Set("namespace", nv)
	return c, true, nil
}
