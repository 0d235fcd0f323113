//go:build apiserver

package apiserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/validate"
)

// mustDiffer lists, per request, every corpus document on which validate
// and the API server must disagree, with the reason: the checks the server
// makes in Go code for built-in kinds beyond their OpenAPI schema, and
// bodies it cannot decode into its Go types (it then names a Go field, or
// none). The validating guide shows the same lists
// (TestValidatingGuideListsTheDifferences); TestValidateAgreesWithTheServer
// fails when a document is listed but agrees, or disagrees but is not
// listed.
var mustDiffer = map[validate.Request]map[string]string{
	validate.Create:          mustDifferCreate,
	validate.ServerSideApply: mustDifferApply,
}

// mustDifferCreate: a create (kubectl create, client-side kubectl apply),
// with strict field validation.
var mustDifferCreate = map[string]string{
	"bad/configmap-data-number":          "the server cannot decode the body; names the Go field data; validate refuses at data.WORKERS (not a string)",
	"bad/configmap-data-key":             "the server refuses the key bad key! (Go check of ConfigMap keys); validate accepts",
	"bad/secret-data-not-base64":         "the server cannot decode the body (base64); names no field; validate refuses at data.password (format byte)",
	"bad/service-port-range":             "the server refuses port 70000 (Go check: 1 to 65535); validate accepts (the schema has no bounds)",
	"bad/service-no-ports":               "the server refuses a ClusterIP Service without ports (Go check); validate accepts",
	"bad/service-port-string":            "the server cannot decode the body; names spec.ports.port, without the index; validate refuses at spec.ports[0].port",
	"bad/deployment-replicas-negative":   "the server refuses replicas: -1 (Go check); validate accepts",
	"bad/deployment-no-selector":         "the server refuses at spec.selector, and at spec.template.metadata.labels (Go check: the selector must match the labels); validate refuses at spec.selector",
	"bad/deployment-selector-mismatch":   "the server refuses a selector that does not match the template's labels (Go check); validate accepts",
	"bad/deployment-container-no-image":  "the server refuses a container without image (Go check); validate accepts",
	"bad/deployment-restart-never":       "the server refuses restartPolicy: Never in a Deployment (Go check); validate accepts",
	"bad/deployment-containers-not-list": "the server cannot decode the body; names containers; validate refuses at containers, and at its keys as undeclared fields",
	"bad/deployment-duplicate-container": "the server refuses at containers[1].name (Go check); validate refuses at containers[1] (list-map key)",
	"bad/deployment-quantity":            "the server cannot decode the body (quantity syntax); names no field; validate accepts (a quantity's schema is int-or-string)",
	"bad/deployment-strategy-typo":       "the server refuses at spec.strategy (Go check); validate refuses at spec.strategy.type (enum)",
	"bad/job-restart-always":             "the server refuses restartPolicy: Always in a Job (Go check); validate accepts",
	"bad/cronjob-schedule":               "the server refuses a schedule that is not cron syntax (Go check); validate accepts",
	"bad/rolebinding-no-roleref":         "the server refuses at roleRef.kind and roleRef.name (Go check); validate refuses at roleRef (required)",
	"bad/pdb-min-available":              "the server refuses minAvailable: fifty (Go check: a number or a percentage); validate accepts",
}

// mustDifferApply: a server-side apply that creates the object
// (kubernetes_manifest, kubectl apply --server-side, Flux, Argo CD), with
// force, as those tools send it.
var mustDifferApply = map[string]string{
	"bad/configmap-data-key":            "the server refuses the key bad key! (Go check of ConfigMap keys); validate accepts",
	"bad/secret-data-not-base64":        "the field manager cannot convert the object to its Go type (base64); names no field; validate refuses at data.password (format byte)",
	"bad/service-port-range":            "the server refuses port 70000 (Go check: 1 to 65535); validate accepts (the schema has no bounds)",
	"bad/service-no-ports":              "the server refuses a ClusterIP Service without ports (Go check); validate accepts",
	"bad/deployment-replicas-negative":  "the server refuses replicas: -1 (Go check); validate accepts",
	"bad/deployment-no-selector":        "the server refuses at spec.selector, and at spec.template.metadata.labels (Go check: the selector must match the labels); validate refuses at spec.selector",
	"bad/deployment-selector-mismatch":  "the server refuses a selector that does not match the template's labels (Go check); validate accepts",
	"bad/deployment-container-no-image": "the server refuses a container without image (Go check); validate accepts",
	"bad/deployment-restart-never":      "the server refuses restartPolicy: Never in a Deployment (Go check); validate accepts",
	"bad/deployment-quantity":           "the field manager cannot convert the object to its Go type (quantity syntax); names no field; validate accepts (a quantity's schema is int-or-string)",
	"bad/deployment-strategy-typo":      "the server refuses at spec.strategy (Go check); validate refuses at spec.strategy.type (enum)",
	"bad/job-restart-always":            "the server refuses restartPolicy: Always in a Job (Go check); validate accepts",
	"bad/cronjob-schedule":              "the server refuses a schedule that is not cron syntax (Go check); validate accepts",
	"bad/rolebinding-no-roleref":        "the server refuses at roleRef.kind and roleRef.name (Go check); validate refuses at roleRef (required)",
	"bad/pdb-min-available":             "the server refuses minAvailable: fifty (Go check: a number or a percentage); validate accepts",
}

// serverRequestsDiffer lists the corpus documents that the API server
// itself accepts under one request and refuses under the other, with the
// reason: where the two requests differ (the validating guide, "Which
// request"), the corpus holds a document that shows it, and validate must
// agree with the server under each (TestValidateAgreesWithTheServer). A
// document's "ok/" or "bad/" is its create's verdict.
var serverRequestsDiffer = map[string]string{
	"ok/app-generate-name": "an apply names the object in its URL: generateName alone is refused (name is required); a create generates a name",
	"ok/app-optional-null": "a null where the schema neither says nullable nor gives a default: a create drops it; an apply keeps it and refuses it (must be of type string)",
}

// oracleNamespace holds every namespaced corpus document: they are only
// sent as dry runs, so nothing is ever stored there.
const oracleNamespace = "celyaml-oracle"

// corpusDoc is one document of testdata/corpus/*.txtar: its name is
// "ok/..." when it is meant to be accepted, "bad/..." when refused.
type corpusDoc struct {
	name  string
	value value.Value
}

func readCorpus(t *testing.T) []corpusDoc {
	t.Helper()
	files, err := filepath.Glob("testdata/corpus/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus under testdata/corpus: %v", err)
	}
	var docs []corpusDoc
	seen := map[string]string{}
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range ar.Files {
			if !strings.HasPrefix(file.Name, "ok/") && !strings.HasPrefix(file.Name, "bad/") {
				t.Fatalf("%s: %s: a corpus name starts with ok/ or bad/", f, file.Name)
			}
			if prev, dup := seen[file.Name]; dup {
				t.Fatalf("%s: %s is also in %s", f, file.Name, prev)
			}
			seen[file.Name] = f
			vals, err := yamlValues(file.Data)
			if err != nil || len(vals) != 1 {
				t.Fatalf("%s: %s: want one YAML document (%v)", f, file.Name, err)
			}
			docs = append(docs, corpusDoc{name: file.Name, value: vals[0]})
		}
	}
	return docs
}

// validateVerdict is what validate says of a document: refused with the
// field paths of its violations, or accepted (also when no schema covers
// the document: validate lets it through). An error of Check (a covered
// group without the kind) is a refusal too: it fails the plan.
func validateVerdict(s *validate.Schemas, doc value.Value, req validate.Request) (refused bool, paths []string, text string) {
	r, err := s.CheckWith(doc, validate.Options{Request: req})
	if err != nil {
		return true, []string{"<error: " + err.Error() + ">"}, err.Error()
	}
	seen := map[string]bool{}
	var lines []string
	for _, v := range r.Violations {
		lines = append(lines, v.String())
		if !seen[v.Path] {
			seen[v.Path] = true
			paths = append(paths, v.Path)
		}
	}
	sort.Strings(paths)
	return len(r.Violations) > 0, paths, strings.Join(lines, "\n")
}

func describe(refused bool, paths []string) string {
	if !refused {
		return "accepted"
	}
	shown := make([]string, len(paths))
	for i, p := range paths {
		if p == "" {
			p = "<root>"
		}
		shown[i] = p
	}
	return "refused at " + strings.Join(shown, ", ")
}

// TestValidateAgreesWithTheServer sends every corpus document to the API
// server (a create with DryRun=All and strict field validation, as kubectl
// apply does by default) and to validate, with the corpus CRDs installed on
// the server and loaded into validate. The built-in kinds are checked
// twice: against the server's own /openapi/v3 documents, saved as the
// validating guide says, and against the built-in schemas validate
// carries, with no saved document. Both times validate and the server must
// accept the same documents and refuse the others at the same field paths,
// except the documents listed in mustDiffer. The documents the server
// itself accepts under one request and refuses under the other are those
// of serverRequestsDiffer.
func TestValidateAgreesWithTheServer(t *testing.T) {
	c := needCluster(t)
	ctx := context.Background()
	c.ensureNamespace(ctx, t, oracleNamespace)

	crdText, err := os.ReadFile("testdata/crds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	crds, err := yamlValues(crdText)
	if err != nil {
		t.Fatalf("testdata/crds.yaml: %v", err)
	}
	crdGroups := map[string]bool{}
	for _, v := range crds {
		u, err := toObject(v)
		if err != nil {
			t.Fatal(err)
		}
		c.installCRD(ctx, t, u)
		g, _, _ := unstructuredString(u.Object, "spec", "group")
		crdGroups[g] = true
	}

	docs := readCorpus(t)
	if len(docs) < 100 {
		t.Fatalf("the corpus has %d documents; it should keep at least 100", len(docs))
	}
	// The server's own OpenAPI documents for every apiVersion the corpus
	// uses outside the CRDs' groups.
	saved := append([]value.Value(nil), crds...)
	fetched := map[string]bool{}
	servers := map[validate.Request][]serverVerdict{validate.Create: make([]serverVerdict, len(docs)), validate.ServerSideApply: make([]serverVerdict, len(docs))}
	var requestsDiffer []string // the server accepts one request and refuses the other
	for i, d := range docs {
		u, err := toObject(d.value)
		if err != nil {
			t.Fatalf("%s: %v", d.name, err)
		}
		ri, err := c.client(ctx, u, oracleNamespace)
		if err != nil {
			t.Fatalf("%s: %v", d.name, err)
		}
		_, err = ri.Create(ctx, u, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"})
		servers[validate.Create][i] = verdictOf(err)
		_, err = ri.Apply(ctx, u.GetName(), u, metav1.ApplyOptions{DryRun: []string{metav1.DryRunAll}, FieldManager: fieldManager, Force: true})
		servers[validate.ServerSideApply][i] = verdictOf(err)
		if wantRefused := strings.HasPrefix(d.name, "bad/"); servers[validate.Create][i].refused != wantRefused {
			t.Errorf("corpus %s: the server %s its create; the corpus name says otherwise (rename it or fix it): %s",
				d.name, map[bool]string{true: "refused", false: "accepted"}[servers[validate.Create][i].refused], servers[validate.Create][i].text)
		}
		if servers[validate.Create][i].refused != servers[validate.ServerSideApply][i].refused {
			requestsDiffer = append(requestsDiffer, d.name)
		}
		gv := u.GroupVersionKind().GroupVersion()
		if crdGroups[gv.Group] || fetched[gv.String()] {
			continue
		}
		fetched[gv.String()] = true
		doc, err := c.openAPI(ctx, openAPIPath(u.GetAPIVersion()))
		if err != nil {
			t.Fatal(err)
		}
		saved = append(saved, doc)
	}
	sort.Strings(requestsDiffer)
	var want []string
	for n := range serverRequestsDiffer {
		want = append(want, n)
	}
	sort.Strings(want)
	if strings.Join(requestsDiffer, " ") != strings.Join(want, " ") {
		t.Errorf("the server accepts one request and refuses the other on\n  %s\nbut serverRequestsDiffer lists\n  %s", strings.Join(requestsDiffer, " "), strings.Join(want, " "))
	}
	withSaved, err := validate.Load(saved)
	if err != nil {
		t.Fatalf("validate.Load of the CRDs and %d OpenAPI documents: %v", len(fetched), err)
	}
	withBuiltins, err := validate.Load(crds)
	if err != nil {
		t.Fatalf("validate.Load of the CRDs: %v", err)
	}
	for _, req := range []validate.Request{validate.ServerSideApply, validate.Create} {
		for _, run := range []struct {
			name string
			s    *validate.Schemas
		}{{"saved OpenAPI", withSaved}, {"built-in schemas", withBuiltins}} {
			t.Run(req.String()+"/"+run.name, func(t *testing.T) {
				compareWithServer(t, run.s, req, docs, servers[req])
			})
		}
	}
}

// compareWithServer compares validate's verdict on every corpus document
// with the server's.
func compareWithServer(t *testing.T, s *validate.Schemas, req validate.Request, docs []corpusDoc, servers []serverVerdict) {
	var differ []string
	listedDiffer := mustDiffer[req]
	for i, d := range docs {
		server := servers[i]
		refused, paths, text := validateVerdict(s, d.value, req)
		same := refused == server.refused && (!refused || samePaths(paths, server.paths))
		if same {
			continue
		}
		differ = append(differ, d.name)
		if _, listed := listedDiffer[d.name]; listed {
			continue
		}
		t.Errorf("%s: the server %s; validate %s\n  server:   %s\n  validate: %s",
			d.name, describe(server.refused, server.paths), describe(refused, paths),
			oneLine(server.text), oneLine(text))
	}
	got := map[string]bool{}
	for _, n := range differ {
		got[n] = true
	}
	for n, reason := range listedDiffer {
		if !got[n] {
			t.Errorf("%s is listed in mustDiffer for a %s (%s) but validate and the server agree on it: remove it from the list and from the validating guide", n, req, reason)
		}
	}
	t.Logf("%s: %d documents: %d agree, %d differ (%d listed in mustDiffer)", req, len(docs), len(docs)-len(differ), len(differ), len(listedDiffer))
}

// samePaths reports whether validate's field paths are the server's. A key
// that validate hides ([…], the language reference §6: a key no schema
// declares may come from a variable) stands for any one key of the
// server's path; `a.b` and `a[b]` are the same path, as the server writes
// map keys both ways.
func samePaths(ours, servers []string) bool {
	if len(ours) != len(servers) {
		return false
	}
	left := append([]string(nil), servers...)
next:
	for _, o := range ours {
		for i, sp := range left {
			if pathMatches(pathSegments(o), pathSegments(sp)) {
				left = append(left[:i], left[i+1:]...)
				continue next
			}
		}
		return false
	}
	return true
}

// pathSegments splits `spec.a[k].b[0]` into spec, a, k, b, 0.
func pathSegments(path string) []string {
	var segs []string
	for len(path) > 0 {
		switch path[0] {
		case '.':
			path = path[1:]
			continue
		case '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return append(segs, path)
			}
			segs = append(segs, "["+path[1:end]+"]")
			path = path[end+1:]
			continue
		}
		end := strings.IndexAny(path, ".[")
		if end < 0 {
			end = len(path)
		}
		segs = append(segs, "["+path[:end]+"]")
		path = path[end:]
	}
	return segs
}

func pathMatches(ours, servers []string) bool {
	if len(ours) != len(servers) {
		return false
	}
	for i := range ours {
		if ours[i] == "[…]" || ours[i] == servers[i] {
			continue
		}
		if _, err := strconv.Atoi(strings.Trim(ours[i], "[]")); err == nil && servers[i] == "[*]" {
			continue // a list-type map item the field manager names by its key
		}
		return false
	}
	return true
}

func oneLine(s string) string {
	if s == "" {
		return "-"
	}
	return strings.ReplaceAll(s, "\n", " | ")
}

func unstructuredString(obj map[string]any, path ...string) (string, bool, error) {
	var v any = obj
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return "", false, fmt.Errorf("%s is not an object", k)
		}
		v = m[k]
	}
	s, ok := v.(string)
	return s, ok, nil
}

// TestValidatingGuideListsTheDifferences: the validating guide's tables
// of differences, one per request (under a "#### " heading naming it),
// name exactly the documents of mustDiffer.
func TestValidatingGuideListsTheDifferences(t *testing.T) {
	src, err := os.ReadFile("../../templates/guides/validating.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[validate.Request][]string{}
	req := validate.Request(-1)
	for _, line := range strings.Split(string(src), "\n") {
		switch {
		case strings.HasPrefix(line, "#### ") && strings.Contains(line, "server-side apply"):
			req = validate.ServerSideApply
		case strings.HasPrefix(line, "#### ") && strings.Contains(line, "create"):
			req = validate.Create
		case strings.HasPrefix(line, "#"):
			req = -1
		case strings.HasPrefix(line, "| `bad/") || strings.HasPrefix(line, "| `ok/"):
			name, _, _ := strings.Cut(strings.TrimPrefix(line, "| `"), "`")
			if req < 0 {
				t.Errorf("the validating guide lists %s outside a table of one request", name)
				continue
			}
			listed[req] = append(listed[req], name)
		}
	}
	for _, r := range []validate.Request{validate.ServerSideApply, validate.Create} {
		var want []string
		for n := range mustDiffer[r] {
			want = append(want, n)
		}
		got := listed[r]
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("the validating guide's differences table for a %s lists\n  %s\nbut mustDiffer holds\n  %s", r, strings.Join(got, " "), strings.Join(want, " "))
		}
	}
}

func TestSamePathsReadsAHiddenKeyAsAnyOneKey(t *testing.T) {
	for _, c := range []struct {
		ours, servers []string
		want          bool
	}{
		{[]string{"spec.volumes[…].mode"}, []string{"spec.volumes.shared.mode"}, true},
		{[]string{"spec.ports[0][…]"}, []string{"spec.ports[0].targtPort"}, true},
		{[]string{"[…]"}, []string{"date"}, true},
		{[]string{"", "spec[…]"}, []string{"", "spec.replicas"}, true},
		{[]string{"spec[…]"}, []string{"spec.a.b"}, false},
		{[]string{"spec.a"}, []string{"spec.b"}, false},
		{[]string{"spec.a"}, []string{"spec.a", "spec.b"}, false},
		{[]string{"spec.ports[1].targtPort"}, []string{"spec.ports[*].targtPort"}, true},
	} {
		if got := samePaths(c.ours, c.servers); got != c.want {
			t.Errorf("samePaths(%q, %q) = %v, want %v", c.ours, c.servers, got, c.want)
		}
	}
}

func TestApplyPathsReadsTheFieldManagersPaths(t *testing.T) {
	for msg, want := range map[string]string{
		`failed to create typed patch object (/extra-field; /v1, Kind=Service): .spec.ports[port=80,protocol="TCP"].targtPort: field not declared in schema`:                               "spec.ports[*].targtPort",
		`failed to create typed patch object (/d; apps/v1, Kind=Deployment): .spec.template.spec.containers: duplicate entries for key [name="web"]`:                                       "spec.template.spec.containers",
		"failed to create typed patch object (/x; /v1, Kind=ConfigMap): errors:\n  .data.A: expected string, got &value.valueUnstructured{Value:4}\n  .date: field not declared in schema": "data.A date",
		`failed to create typed patch object (/h; g/v1, Kind=R): .spec.rules[0].matches[0].headers: duplicate entries for key [name="x: y"]`:                                               "spec.rules[0].matches[0].headers",
	} {
		if got := strings.Join(applyPaths(msg), " "); got != want {
			t.Errorf("applyPaths(%q) = %q, want %q", msg, got, want)
		}
	}
}
