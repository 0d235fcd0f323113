package validate

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/validate/content"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The name rules of the built-in kinds. The API server checks a built-in
// kind's name in Go, per kind (k8s.io/kubernetes' pkg/apis/*/validation,
// the nameFn each passes to ValidateObjectMeta): most take a DNS
// subdomain, as a custom resource does, and these take another rule. The
// API-server tests compare every built-in kind's verdict on a few names
// with the server's (TestBuiltinNameRules).
var builtinNameRules = map[schema.GroupKind]metavalidation.ValidateNameFunc{
	// A DNS label (KEP-5311 made a Service's a DNS label rather than a
	// DNS-1035 label; GA and locked on in 1.37).
	{Group: "", Kind: "Service"}:         metavalidation.NameIsDNSLabel,
	{Group: "", Kind: "Namespace"}:       metavalidation.ValidateNamespaceName,
	{Group: "apps", Kind: "StatefulSet"}: metavalidation.NameIsDNSLabel,
	// Path segments: RBAC names may hold colons (system:metrics-server).
	{Group: "rbac.authorization.k8s.io", Kind: "Role"}:               pathSegmentName,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}:        pathSegmentName,
	{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}:        pathSegmentName,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}: pathSegmentName,
	// "We don't care what you call your certificate requests": only what
	// a URL path segment can carry.
	{Group: "certificates.k8s.io", Kind: "CertificateSigningRequest"}: pathSegmentName,
	// An IP address, in its canonical form.
	{Group: "networking.k8s.io", Kind: "IPAddress"}: ipAddressName,
	// Kinds whose own validation leaves the name to the check every
	// create makes (path segments): a PodDisruptionBudget, and a core v1
	// Event (legacy validation; events.k8s.io's takes a DNS subdomain).
	{Group: "policy", Kind: "PodDisruptionBudget"}: pathSegmentName,
	{Group: "", Kind: "Event"}:                     pathSegmentName,
	// A CronJob's name goes into its Jobs' names with 11 more characters.
	{Group: "batch", Kind: "CronJob"}: cronJobName,
}

func cronJobName(name string, prefix bool) []string {
	out := metavalidation.NameIsDNSSubdomain(name, prefix)
	if len(name) > 52 {
		out = append(out, "must be no more than 52 characters")
	}
	return out
}

func pathSegmentName(name string, _ bool) []string { return content.IsPathSegmentName(name) }

func ipAddressName(name string, _ bool) []string {
	var out []string
	for _, e := range utilvalidation.IsValidIP(&field.Path{}, name) {
		out = append(out, e.Detail)
	}
	return out
}

// nameRule is the rule a kind's name is checked with: a built-in kind's
// own, a CustomResourceDefinition's (plural.group), an APIService's
// (version.group), or a DNS subdomain.
func (ks *kindSchema) nameRule(obj map[string]any) metavalidation.ValidateNameFunc {
	if !ks.fromOpenAPI {
		return metavalidation.NameIsDNSSubdomain // a custom resource
	}
	gk := ks.gvk.GroupKind()
	if gk == (schema.GroupKind{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}) {
		plural, _ := stringAt(obj, "spec", "names", "plural")
		group, _ := stringAt(obj, "spec", "group")
		return func(name string, prefix bool) []string {
			out := metavalidation.NameIsDNSSubdomain(name, prefix)
			if name != plural+"."+group {
				out = append(out, `must be spec.names.plural+"."+spec.group`)
			}
			return out
		}
	}
	if gk == (schema.GroupKind{Group: "apiregistration.k8s.io", Kind: "APIService"}) {
		version, _ := stringAt(obj, "spec", "version")
		group, _ := stringAt(obj, "spec", "group")
		return func(name string, _ bool) []string {
			if out := content.IsPathSegmentName(name); len(out) > 0 {
				return out
			}
			if name != version+"."+group {
				return []string{fmt.Sprintf("must be `spec.version+\".\"+spec.group`: %q", version+"."+group)}
			}
			return nil
		}
	}
	if f := builtinNameRules[gk]; f != nil {
		return f
	}
	return metavalidation.NameIsDNSSubdomain
}
