// Package merge holds the merge rule of the language (reference §9), the
// one rule by which the project merges values: JSON Merge Patch (RFC 7386),
// as Helm values files and Kubernetes merge patches follow it. Maps merge
// deeply and the later value wins; sequences replace; a null deletes a key.
//
// It is used by the deepMerge CEL helper and is meant for every other
// place that layers values (overlay patches, the provider's deep_merge and
// the command line's values files), so that they can never disagree.
package merge
