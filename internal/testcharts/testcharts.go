// Package testcharts gives tests real Helm charts and the real `helm`: the
// charts are those tools/helmcharts/go.mod requires, each fetched from the
// Go module proxy into the module cache with `go mod download -json` (its
// go.sum pins their hashes) and copied into a test's folder, stamped as
// their release tools stamp them; `helm` is the binary scripts/build-helm.sh
// builds from tools/helm into the cache folder. Nothing of the charts is
// copied into the repository. It is imported by tests only: the oracle of
// internal/helmoracle and the kustomize oracle on the charts' output in
// internal/kustomize.
package testcharts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Chart is one real chart and the value sets the oracle renders it with.
type Chart struct {
	Name    string // the chart's name, as its Chart.yaml says
	Module  string // the module path, as tools/helmcharts/go.mod requires it
	Dir     string // the chart's folder inside the module
	Release string // the release name the oracle renders it as
	// Namespace is the release namespace (helm template -n).
	Namespace string
	// ValueSets are the values the oracle renders it with, the chart's
	// defaults first.
	ValueSets []ValueSet
	// stamp rewrites the copied chart as its release tool would.
	stamp func(dir, version string) error
}

// ValueSet is one set of values: YAML text, or a file of the chart (a
// path inside the chart folder), or neither for the chart's defaults.
type ValueSet struct {
	Name string
	YAML string
	File string
}

// Charts are the charts, in the order of tools/helmcharts/go.mod's
// comment: an application chart, one with CRDs among its templates, hooks
// and a values.schema.json, and one with subcharts in its charts/ folder.
var Charts = []Chart{
	{
		Name: "podinfo", Module: "github.com/stefanprodan/podinfo", Dir: "charts/podinfo",
		Release: "web", Namespace: "apps",
		ValueSets: []ValueSet{
			{Name: "defaults"},
			// the chart's own production values: HPA, anti-affinity, resources
			{Name: "values-prod", File: "values-prod.yaml"},
			{Name: "features", YAML: `replicaCount: 3
ingress:
  enabled: true
  className: nginx
  hosts:
    - host: podinfo.example.com
      paths: [{path: /, pathType: ImplementationSpecific}]
  tls:
    - secretName: podinfo-tls
      hosts: [podinfo.example.com]
redis:
  enabled: true
serviceMonitor:
  enabled: true
serviceAccount:
  enabled: true
  name: podinfo-sa
certificate:
  create: true
  issuerRef: {kind: ClusterIssuer, name: letsencrypt}
  dnsNames: [podinfo.example.com]
service:
  grpcService: grpc
podAnnotations:
  example.com/owner: web-team
tolerations:
  - {key: dedicated, operator: Equal, value: web, effect: NoSchedule}
`},
		},
	},
	{
		Name: "cert-manager", Module: "github.com/cert-manager/cert-manager", Dir: "deploy/charts/cert-manager",
		Release: "cert-manager", Namespace: "cert-manager",
		ValueSets: []ValueSet{
			{Name: "defaults"},
			{Name: "crds-and-monitoring", YAML: `crds:
  enabled: true
prometheus:
  enabled: true
  servicemonitor:
    enabled: true
    labels: {release: kube-prometheus}
podDisruptionBudget:
  enabled: true
  minAvailable: 1
webhook:
  replicaCount: 2
  networkPolicy:
    enabled: true
`},
			{Name: "ha-minimal", YAML: `replicaCount: 3
global:
  leaderElection:
    namespace: cert-manager
  priorityClassName: system-cluster-critical
  commonLabels: {team: platform}
cainjector:
  enabled: false
startupapicheck:
  enabled: false
extraArgs:
  - --enable-certificate-owner-ref=true
config:
  apiVersion: controller.config.cert-manager.io/v1alpha1
  kind: ControllerConfiguration
  logging: {verbosity: 2, format: json}
  featureGates: {ExperimentalGatewayAPISupport: true}
image:
  repository: mirror.example.com/jetstack/cert-manager-controller
  tag: v1.21.2
resources:
  requests: {cpu: 10m, memory: 32Mi}
`},
		},
		// cert-manager's Chart.yaml says v0.0.0 until its release tool
		// writes the version into version and appVersion; the image tags
		// come from appVersion.
		stamp: func(dir, version string) error {
			p := filepath.Join(dir, "Chart.yaml")
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			s := string(b)
			for _, k := range []string{"version", "appVersion"} {
				old := "\n" + k + ": v0.0.0\n"
				if !strings.Contains(s, old) {
					return fmt.Errorf("%s: no %q line to stamp", p, strings.TrimSpace(old))
				}
				s = strings.Replace(s, old, "\n"+k+": "+version+"\n", 1)
			}
			return os.WriteFile(p, []byte(s), 0o644)
		},
	},
	{
		Name: "kyverno", Module: "github.com/kyverno/kyverno", Dir: "charts/kyverno",
		Release: "kyverno", Namespace: "kyverno",
		ValueSets: []ValueSet{
			{Name: "defaults"},
			// the chart's own CI values
			{Name: "ci-networkpolicy", File: "ci/networkpolicy-values.yaml"},
			{Name: "grafana-no-crds", YAML: `crds:
  install: false
grafana:
  enabled: true
  namespace: monitoring
admissionController:
  replicas: 3
backgroundController:
  enabled: false
cleanupController:
  enabled: false
reportsController:
  resources:
    limits: {memory: 256Mi}
features:
  policyExceptions:
    enabled: true
    namespace: kyverno
`},
		},
	},
}

var (
	once    sync.Once
	dirs    map[string]string // module path: its folder in the module cache
	vers    map[string]string // module path: its version
	loadErr error
)

// toolsDir is tools/helmcharts, beside this file's repository.
func toolsDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "tools", "helmcharts")
}

// RepoRoot is the repository's root folder.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// download runs `go mod download -json` of every module tools/helmcharts
// requires (the proxy the first time, the module cache afterwards; go.sum
// checks what it gets).
func download() (map[string]string, map[string]string, error) {
	var mods []string
	for _, c := range Charts {
		mods = append(mods, c.Module)
	}
	cmd := exec.Command("go", append([]string{"mod", "download", "-json"}, mods...)...)
	cmd.Dir = toolsDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		return nil, nil, fmt.Errorf("testcharts: go mod download: %v: %s", err, stderr.String())
	}
	d, v := map[string]string{}, map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var m struct{ Path, Version, Dir, Error string }
		if err := dec.Decode(&m); err != nil {
			return nil, nil, fmt.Errorf("testcharts: go mod download -json: %v", err)
		}
		if m.Error != "" {
			return nil, nil, fmt.Errorf("testcharts: %s@%s: %s", m.Path, m.Version, m.Error)
		}
		d[m.Path], v[m.Path] = m.Dir, m.Version
	}
	for _, m := range mods {
		if d[m] == "" {
			return nil, nil, fmt.Errorf("testcharts: go mod download gave no folder for %s", m)
		}
	}
	return d, v, nil
}

// CopyTo copies the chart out of the module cache into dst (a new folder
// of its own: the module cache is read-only) and stamps it, and returns
// the chart's folder.
func (c Chart) CopyTo(tb testing.TB, dst string) string {
	tb.Helper()
	once.Do(func() { dirs, vers, loadErr = download() })
	if loadErr != nil {
		tb.Fatal(loadErr)
	}
	src := filepath.Join(dirs[c.Module], filepath.FromSlash(c.Dir))
	out := filepath.Join(dst, c.Name)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(out, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: not a regular file", p)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		tb.Fatalf("testcharts: copying %s: %v", c.Name, err)
	}
	if c.stamp != nil {
		if err := c.stamp(out, vers[c.Module]); err != nil {
			tb.Fatalf("testcharts: stamping %s: %v", c.Name, err)
		}
	}
	return out
}

// ValuesFile writes the value set into dir and returns its path, or ""
// for the chart's defaults. chartDir is the chart's copied folder.
func (v ValueSet) ValuesFile(tb testing.TB, chartDir, dir string) string {
	tb.Helper()
	switch {
	case v.File != "":
		return filepath.Join(chartDir, filepath.FromSlash(v.File))
	case v.YAML != "":
		p := filepath.Join(dir, v.Name+".values.yaml")
		if err := os.WriteFile(p, []byte(v.YAML), 0o644); err != nil {
			tb.Fatal(err)
		}
		return p
	}
	return ""
}

var (
	helmOnce sync.Once
	helmBin  string
	helmErr  error
)

// Helm is the path of the real helm, built by scripts/build-helm.sh
// (at once when the cache folder holds it).
func Helm(tb testing.TB) string {
	tb.Helper()
	helmOnce.Do(func() {
		cmd := exec.Command(filepath.Join(RepoRoot(), "scripts", "build-helm.sh"))
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			helmErr = fmt.Errorf("scripts/build-helm.sh: %v", err)
			return
		}
		helmBin = strings.TrimSpace(string(out))
	})
	if helmErr != nil {
		tb.Fatal(helmErr)
	}
	return helmBin
}

// HelmEnv is the environment helm runs in: its own configuration, cache
// and data folders under home (no repositories, no plugins but those put
// there), so the machine's Helm setup changes nothing.
func HelmEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HELM_") && !strings.HasPrefix(kv, "KUBECONFIG=") {
			env = append(env, kv)
		}
	}
	return append(env,
		"HELM_CONFIG_HOME="+filepath.Join(home, "config"),
		"HELM_CACHE_HOME="+filepath.Join(home, "cache"),
		"HELM_DATA_HOME="+filepath.Join(home, "data"),
		"HELM_PLUGINS="+filepath.Join(home, "plugins"),
		"KUBECONFIG="+filepath.Join(home, "no-kubeconfig"),
	)
}

// Template runs `helm template` with args (after "template") in a Helm
// home of its own under home and returns standard output, or an error
// with standard error.
func Template(tb testing.TB, home string, args ...string) ([]byte, error) {
	tb.Helper()
	cmd := exec.Command(Helm(tb), append([]string{"template"}, args...)...)
	cmd.Env = HelmEnv(home)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("helm template %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out, nil
}
