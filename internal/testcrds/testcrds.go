// Package testcrds finds released CustomResourceDefinitions (and their
// projects' own example documents) in the module cache, for tests and
// benchmarks: the modules are those tools/crds/go.mod requires, each
// fetched from the Go module proxy with `go mod download -json`, and the
// files are globs inside each module's zip. Nothing is copied into the
// repository. It is imported by tests only.
package testcrds

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// Project is one module's released CRDs and examples.
type Project struct {
	Module   string // the module path, as tools/crds/go.mod requires it
	CRDs     []string
	Examples []string
	// Bundle is true for a release bundle that mixes CRDs with the rest
	// of an install (argo-cd's install.yaml): --schemas takes the CRDs.
	Bundle bool
}

// globs says where each module keeps its CRDs and examples.
var globs = map[string]struct {
	crds, examples []string
	bundle         bool
}{
	"sigs.k8s.io/gateway-api": {crds: []string{"config/crd/experimental/gateway.networking.*.yaml"},
		examples: []string{"examples/standard/*.yaml", "examples/standard/*/*.yaml"}},
	"github.com/prometheus-operator/prometheus-operator": {crds: []string{"example/prometheus-operator-crd/monitoring.coreos.com_*.yaml"},
		examples: []string{"example/user-guides/getting-started/*.yaml", "example/user-guides/alerting/*.yaml"}},
	"github.com/kedacore/keda/v2": {crds: []string{"config/crd/bases/*.yaml"},
		examples: []string{"config/samples/*.yaml"}},
	"github.com/external-secrets/external-secrets": {crds: []string{"config/crds/bases/*.external-secrets.io_*.yaml", "config/crds/bases/external-secrets.io_*.yaml"}},
	"github.com/argoproj/argo-cd/v3":               {crds: []string{"manifests/install.yaml"}, bundle: true},
	"knative.dev/serving":                          {crds: []string{"config/core/300-resources/*.yaml"}},
	"knative.dev/eventing":                         {crds: []string{"config/core/resources/*.yaml"}},
}

var (
	once     sync.Once
	projects []Project
	loadErr  error
)

// Projects returns every project, in module order. The first call runs
// `go mod download -json` (the proxy, then the module cache).
func Projects() ([]Project, error) {
	once.Do(func() { projects, loadErr = load() })
	return projects, loadErr
}

// CRDFiles lists every project's CRD files, in module order.
func CRDFiles() ([]string, error) {
	ps, err := Projects()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range ps {
		out = append(out, p.CRDs...)
	}
	return out, nil
}

func toolsDir() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("testcrds: cannot find its own source")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "tools", "crds"), nil
}

func load() ([]Project, error) {
	dir, err := toolsDir()
	if err != nil {
		return nil, err
	}
	mods, err := requires(filepath.Join(dir, "go.mod"))
	if err != nil {
		return nil, err
	}
	args := []string{"mod", "download", "-json"}
	args = append(args, mods...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		return nil, fmt.Errorf("testcrds: go mod download: %v: %s", err, stderr.String())
	}
	dirs := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var m struct{ Path, Version, Dir, Error string }
		if err := dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("testcrds: go mod download -json: %v", err)
		}
		if m.Error != "" {
			return nil, fmt.Errorf("testcrds: %s@%s: %s", m.Path, m.Version, m.Error)
		}
		dirs[m.Path] = m.Dir
	}
	var ps []Project
	for _, mv := range mods {
		path, _, _ := strings.Cut(mv, "@")
		g, ok := globs[path]
		if !ok {
			return nil, fmt.Errorf("testcrds: tools/crds/go.mod requires %s, which globs does not place", path)
		}
		p := Project{Module: path, Bundle: g.bundle}
		if p.CRDs, err = glob(dirs[path], g.crds); err != nil {
			return nil, err
		}
		if p.Examples, err = glob(dirs[path], g.examples); err != nil {
			return nil, err
		}
		if len(p.CRDs) == 0 {
			return nil, fmt.Errorf("testcrds: %s: no file matches %v", path, g.crds)
		}
		ps = append(ps, p)
	}
	return ps, nil
}

func glob(dir string, patterns []string) ([]string, error) {
	var out []string
	for _, pat := range patterns {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			return nil, err
		}
		out = append(out, m...)
	}
	sort.Strings(out)
	return out, nil
}

// requires reads the module@version pairs of a go.mod's require block.
func requires(gomod string) ([]string, error) {
	f, err := os.Open(gomod)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var mods []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "require (":
			in = true
		case in && line == ")":
			in = false
		case in && line != "" && !strings.HasPrefix(line, "//"):
			fields := strings.Fields(line)
			if len(fields) >= 2 {
				mods = append(mods, fields[0]+"@"+fields[1])
			}
		}
	}
	sort.Strings(mods)
	return mods, sc.Err()
}
