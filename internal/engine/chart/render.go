package chart

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/common/util"
	chartv2 "helm.sh/helm/v4/pkg/chart/v2"
	chartloader "helm.sh/helm/v4/pkg/chart/v2/loader"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	"helm.sh/helm/v4/pkg/engine"
	release "helm.sh/helm/v4/pkg/release/v1"
	releaseutil "helm.sh/helm/v4/pkg/release/v1/util"

	"github.com/celyaml/terraform-provider-celyaml/internal/validate/builtin"
)

// Options are what `helm template`'s flags set.
type Options struct {
	// Values are the user's values, merged over the chart's values.yaml
	// by Helm's rules (read them with ParseValues, as `-f` reads a file).
	Values map[string]any
	// ReleaseName and Namespace are .Release.Name and .Release.Namespace
	// (defaults: the chart's name and "default").
	ReleaseName, Namespace string
	// KubeVersion is .Capabilities.KubeVersion (default: DefaultKubeVersion).
	KubeVersion string
	// APIVersions are added to .Capabilities.APIVersions.
	APIVersions []string
	// IncludeCRDs puts the files of the charts' crds/ folders first.
	IncludeCRDs bool
	// DisableHooks leaves the hooks out; IncludeTests keeps the test hooks.
	DisableHooks, IncludeTests bool
	// MaxBytes caps the rendered output (0: DefaultMaxBytes).
	MaxBytes int
	// HideKeys writes a key of the values that the schema does not name
	// as […] in errors (the engine's HideKeys, reference §6).
	HideKeys bool
}

// Document is one rendered document.
type Document struct {
	// Source is the chart file it comes from, as `helm template`'s
	// "# Source:" comment names it ("mychart/templates/service.yaml").
	Source string
	// YAML is the document's text.
	YAML string
	// Hook is the helm.sh/hook annotation's events ("pre-install"), or ""
	// for an ordinary manifest or a CRD.
	Hook string
	// CRD marks a file of a crds/ folder.
	CRD bool
}

// DefaultKubeVersion is .Capabilities.KubeVersion when the options give
// none: the Kubernetes minor of the built-in schemas, "v1.37.0".
func DefaultKubeVersion() string { return defaultKubeVersion() }

var defaultKubeVersion = sync.OnceValue(func() string {
	if m := builtin.Minor(); m != "" {
		return "v" + m + ".0"
	}
	return common.DefaultCapabilities.KubeVersion.Version
})

// ParseValues reads values as `helm template -f` reads a values file
// (YAML or JSON; numbers as Helm reads them).
func ParseValues(text []byte) (map[string]any, error) {
	v, err := chartloader.LoadValues(bytes.NewReader(text))
	if err != nil {
		return nil, errorf("the values cannot be read: %s", err)
	}
	return v, nil
}

// Defaults are the chart's values.yaml, as Helm reads it (a copy; its
// subcharts' defaults are under Dependencies).
func (c *Chart) Defaults() map[string]any {
	m, _ := deepCopy(c.meta.Values).(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m
}

// Dependencies are the chart's subcharts (enabled or not), as Helm loads
// them from charts/: their defaults and schemas apply to the values under
// their names, in the order of their names. They render only with their
// parent.
func (c *Chart) Dependencies() []*Chart {
	var out []*Chart
	for _, d := range c.meta.Dependencies() {
		out = append(out, &Chart{meta: d})
	}
	// Helm's loader gathers subcharts in a map, so its order changes from
	// one load to the next; by name, whoever reads them sees one order.
	slices.SortFunc(out, func(a, b *Chart) int { return strings.Compare(a.Name(), b.Name()) })
	return out
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = deepCopy(e)
		}
		return l
	}
	return v
}

// Schema is the chart's values.schema.json, or nil.
func (c *Chart) Schema() []byte { return slices.Clone(c.meta.Schema) }

// Render renders the chart as `helm template` does: Helm's client-only
// install (pkg/action's Install with a client-only dry run, renderResources)
// without its release bookkeeping, and the command's output order: the
// crds/ files when asked, the manifests in Helm's install order, then the
// hooks (the test hooks only when asked). NOTES.txt is not output.
func (c *Chart) Render(ctx context.Context, o Options) ([]Document, error) {
	if c.files == nil {
		return nil, errorf("the subchart %s renders only with its parent chart", c.Name())
	}
	chrt, err := chartloader.LoadFiles(c.files)
	if err != nil {
		return nil, errorf("%s", err.Error())
	}
	if o.ReleaseName == "" {
		o.ReleaseName = chrt.Name()
	}
	if o.Namespace == "" {
		o.Namespace = "default"
	}
	if o.KubeVersion == "" {
		o.KubeVersion = DefaultKubeVersion()
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if err := chartutil.ValidateReleaseName(o.ReleaseName); err != nil {
		return nil, errorf("release name %q: %s", o.ReleaseName, err)
	}
	vals := o.Values
	if vals == nil {
		vals = map[string]any{}
	}
	if err := chartutil.ProcessDependencies(chrt, vals); err != nil {
		return nil, errorf("chart dependencies processing failed: %s", err)
	}
	caps := common.DefaultCapabilities.Copy()
	kv, err := common.ParseKubeVersion(o.KubeVersion)
	if err != nil {
		return nil, errorf("invalid kube version %q: %s", o.KubeVersion, err)
	}
	caps.KubeVersion = *kv
	caps.APIVersions = append(caps.APIVersions, o.APIVersions...)
	top, err := util.ToRenderValuesWithSchemaValidation(chrt, vals, common.ReleaseOptions{
		Name: o.ReleaseName, Namespace: o.Namespace, Revision: 1, IsInstall: true,
	}, caps, true)
	if err != nil {
		return nil, errorf("%s", err.Error())
	}
	if v, ok := top["Values"].(common.Values); ok {
		if err := validateSchemas(chrt, v, o.HideKeys); err != nil {
			return nil, err
		}
	}
	if chrt.Metadata.KubeVersion != "" && !chartutil.IsCompatibleRange(chrt.Metadata.KubeVersion, caps.KubeVersion.String()) {
		return nil, errorf("chart requires kubeVersion: %s which is incompatible with Kubernetes %s", chrt.Metadata.KubeVersion, caps.KubeVersion.Version)
	}
	files, err := renderTemplates(ctx, chrt, top)
	if err != nil {
		return nil, err
	}
	for k := range files {
		if strings.HasSuffix(k, "NOTES.txt") {
			delete(files, k)
		}
	}
	hooks, manifests, err := releaseutil.SortManifests(files, nil, releaseutil.InstallOrder)
	if err != nil {
		// The YAML reader quotes the text it cannot convert between
		// backticks: a value of the chart's output, not shown (reference §6).
		return nil, errorf("%s", quoted().ReplaceAllString(err.Error(), "`…`"))
	}
	var out []Document
	size := 0
	add := func(d Document) error {
		if size += len(d.YAML); size > o.MaxBytes {
			return limitf("MaxOutputBytes", "the chart's output is larger than MaxOutputBytes (%d bytes)", o.MaxBytes)
		}
		out = append(out, d)
		return nil
	}
	if o.IncludeCRDs {
		for _, crd := range chrt.CRDObjects() {
			for _, y := range splitDocuments(string(crd.File.Data)) {
				if err := add(Document{Source: crd.Filename, YAML: y, CRD: true}); err != nil {
					return nil, err
				}
			}
		}
	}
	for _, m := range manifests {
		if err := add(Document{Source: m.Name, YAML: m.Content}); err != nil {
			return nil, err
		}
	}
	if !o.DisableHooks {
		for _, h := range hooks {
			if !o.IncludeTests && slices.Contains(h.Events, release.HookTest) {
				continue
			}
			ev := make([]string, len(h.Events))
			for i, e := range h.Events {
				ev[i] = e.String()
			}
			if err := add(Document{Source: h.Path, YAML: h.Manifest, Hook: strings.Join(ev, ",")}); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// splitDocuments splits a crds/ file into its documents, as the API
// server would read `helm template`'s output of it.
func splitDocuments(text string) []string {
	split := releaseutil.SplitManifests(text)
	keys := make([]string, 0, len(split))
	for k := range split {
		keys = append(keys, k)
	}
	sort.Sort(releaseutil.BySplitManifestsOrder(keys))
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, split[k])
	}
	return out
}

// renderTemplates runs Helm's template engine. The engine has no
// deadline of its own: it runs in a goroutine, and a cancelled context
// (Terraform's interrupt) returns at once, leaving it to finish alone.
func renderTemplates(ctx context.Context, chrt *chartv2.Chart, top common.Values) (map[string]string, error) {
	type result struct {
		files map[string]string
		err   error
	}
	done := make(chan result, 1)
	go func() {
		var e engine.Engine
		files, err := e.RenderWithContext(ctx, chrt, top)
		done <- result{files, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return nil, templateError(r.err)
		}
		return r.files, nil
	case <-ctx.Done():
		return nil, errorf("the chart's rendering was cancelled: %s", ctx.Err())
	}
}

// templateAt finds the chart file and line Helm's error names:
// "template: mychart/templates/x.yaml:3:11: executing ...", or
// "parse error at (mychart/templates/x.yaml:3): ...".
var quoted = lazyRegexp("`[^`]*`")

var templateAt = lazyRegexp(`(?:template: |\()([^():\s]+\.[A-Za-z0-9]+):(\d+)`)

func templateError(err error) error {
	msg := strings.TrimSpace(err.Error())
	e := &Error{Msg: msg}
	if m := templateAt().FindStringSubmatch(msg); m != nil {
		e.File = m[1]
		e.Line, _ = strconv.Atoi(m[2])
	}
	return e
}

// AsError gives the *Error err is or wraps.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
