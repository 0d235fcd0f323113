// Command gen writes the bundle of the built-in Kubernetes kinds' schemas
// that package builtin embeds (its data/README.md says what it holds). Run
// from the repository's root by `make builtin-schemas`:
//
//	go run ./internal/validate/builtin/gen
//
// It reads the OpenAPI v3 documents the k8s.io/kubernetes module publishes
// in api/openapi-spec/v3/, with the enums its Go definitions add
// (enums.go), from the version tools/kube-apiserver/go.mod pins, after
// checking that its minor is the one k8s.io/api in go.mod matches.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/celyaml/terraform-provider-celyaml/internal/validate"
	"github.com/celyaml/terraform-provider-celyaml/internal/validate/builtin"
)

const (
	toolModule = "tools/kube-apiserver" // the module that pins k8s.io/kubernetes
	outDir     = "internal/validate/builtin/" + builtin.Dir
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "builtin-schemas:", err)
		os.Exit(1)
	}
}

func run() error {
	if _, err := os.Stat(filepath.Join(toolModule, "go.mod")); err != nil {
		return fmt.Errorf("run it from the repository's root, as `make builtin-schemas` does: %w", err)
	}
	apiMinor, err := k8sAPIMinor("go.mod")
	if err != nil {
		return err
	}
	dir, version, err := kubernetesModule()
	if err != nil {
		return err
	}
	if err := sameMinor(apiMinor, version); err != nil {
		return err
	}
	enums, err := enumsOf(filepath.Join(dir, "pkg", "generated", "openapi", "zz_generated.openapi.go"))
	if err != nil {
		return fmt.Errorf("k8s.io/kubernetes %s: the enums of pkg/generated/openapi: %w", version, err)
	}
	docs, err := readDocuments(filepath.Join(dir, "api", "openapi-spec", "v3"), enums)
	if err != nil {
		return err
	}
	gz, err := validate.EncodeBundle(version, docs)
	if err != nil {
		return err
	}
	name := builtin.FileName("1." + apiMinor)
	old, _ := filepath.Glob(filepath.Join(outDir, "kubernetes-*.json.gz"))
	for _, o := range old {
		if filepath.Base(o) != name {
			if err := os.Remove(o); err != nil {
				return err
			}
		}
	}
	out := filepath.Join(outDir, name)
	if prev, err := os.ReadFile(out); err == nil && bytes.Equal(prev, gz) {
		fmt.Printf("builtin-schemas: %s is up to date (Kubernetes %s, %d group-versions, %d bytes)\n", out, version, len(docs), len(gz))
		return nil
	}
	if err := os.WriteFile(out+".tmp", gz, 0o644); err != nil {
		return err
	}
	if err := os.Rename(out+".tmp", out); err != nil {
		return err
	}
	fmt.Printf("builtin-schemas: wrote %s (Kubernetes %s, %d group-versions, %d bytes)\n", out, version, len(docs), len(gz))
	return nil
}

// sameMinor checks that the pinned k8s.io/kubernetes version is of the
// Kubernetes minor of go.mod's k8s.io/api.
func sameMinor(apiMinor, version string) error {
	m := regexp.MustCompile(`^v1\.(\d+)\.\d+$`).FindStringSubmatch(version)
	if m == nil {
		return fmt.Errorf("%s/go.mod pins k8s.io/kubernetes %s, not a release v1.MINOR.PATCH", toolModule, version)
	}
	if m[1] != apiMinor {
		return fmt.Errorf("%s/go.mod pins k8s.io/kubernetes %s (Kubernetes 1.%s), but go.mod's k8s.io/api is for Kubernetes 1.%s: "+
			"pin k8s.io/kubernetes v1.%s.x in %s/go.mod (go -C %s get k8s.io/kubernetes@v1.%s.N), so that the built-in schemas are those of the provider's Kubernetes libraries",
			toolModule, version, m[1], apiMinor, apiMinor, toolModule, toolModule, apiMinor)
	}
	return nil
}

// k8sAPIMinor reads the Kubernetes minor of k8s.io/api in a go.mod
// (v0.37.2 is 37).
func k8sAPIMinor(gomod string) (string, error) {
	f, err := os.Open(gomod)
	if err != nil {
		return "", err
	}
	defer f.Close()
	re := regexp.MustCompile(`^\s*(?:require\s+)?k8s\.io/api\s+v0\.(\d+)\.\d+`)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			return m[1], nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("%s requires no k8s.io/api v0.MINOR.PATCH", gomod)
}

// kubernetesModule downloads (or finds in the module cache) the
// k8s.io/kubernetes module tools/kube-apiserver pins.
func kubernetesModule() (dir, version string, err error) {
	cmd := exec.Command("go", "-C", toolModule, "mod", "download", "-json", "k8s.io/kubernetes")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var mod struct{ Dir, Version, Error string }
	if jerr := json.Unmarshal(out, &mod); jerr == nil && mod.Error != "" {
		return "", "", fmt.Errorf("go -C %s mod download k8s.io/kubernetes: %s", toolModule, mod.Error)
	}
	if err != nil {
		return "", "", fmt.Errorf("go -C %s mod download k8s.io/kubernetes: %w: %s", toolModule, err, strings.TrimSpace(stderr.String()))
	}
	if mod.Dir == "" || mod.Version == "" {
		return "", "", fmt.Errorf("go -C %s mod download k8s.io/kubernetes gave no module directory", toolModule)
	}
	return mod.Dir, mod.Version, nil
}

// docFile matches the documents of one group-version: api__v1_openapi.json
// and apis__GROUP__VERSION_openapi.json, not the discovery documents
// (api_openapi.json, apis__GROUP_openapi.json).
var docFile = regexp.MustCompile(`^(?:api__(v[0-9a-z]+)|apis__([a-z0-9.-]+)__(v[0-9a-z]+))_openapi\.json$`)

func readDocuments(dir string, enums map[string][]enumAt) ([]validate.BundleDocument, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("the k8s.io/kubernetes module publishes no OpenAPI v3 documents: %w", err)
	}
	var names []string
	for _, e := range entries {
		if docFile.MatchString(e.Name()) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, fmt.Errorf("%s holds no group-version documents", dir)
	}
	var docs []validate.BundleDocument
	for _, n := range names {
		m := docFile.FindStringSubmatch(n)
		gv := m[1]
		if gv == "" {
			gv = m[2] + "/" + m[3]
		}
		raw, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		v, err := validate.DecodeJSON(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		doc, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: not a JSON object", n)
		}
		d, err := validate.NormaliseOpenAPI(gv, doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		if err := addEnums(gv, d.Components, enums); err != nil {
			return nil, err
		}
		if len(d.Kinds) == 0 {
			return nil, errors.New(n + ": serves no kinds")
		}
		docs = append(docs, d)
	}
	return docs, nil
}
