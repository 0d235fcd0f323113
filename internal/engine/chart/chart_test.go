package chart

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

const demoDir = "../testdata/charts/demo"

// sources gives each document's source and hook, one per line.
func sources(docs []Document) string {
	var b strings.Builder
	for _, d := range docs {
		b.WriteString(d.Source)
		if d.Hook != "" {
			b.WriteString(" hook=" + d.Hook)
		}
		if d.CRD {
			b.WriteString(" crd")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func mustLoad(t *testing.T, name string, f Files) *Chart {
	t.Helper()
	c, err := Load(name, f)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func render(t *testing.T, c *Chart, o Options) []Document {
	t.Helper()
	docs, err := c.Render(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// The documents come as `helm template` prints them: crds/ first when
// asked, the manifests in Helm's install order (ConfigMaps before
// Services before Deployments, whatever file they are in), then the
// hooks, the test hooks only when asked; NOTES.txt gives nothing.
func TestRender_helmTemplateOrder(t *testing.T) {
	c := mustLoad(t, demoDir, OSFiles(0))
	got := sources(render(t, c, Options{IncludeCRDs: true, IncludeTests: true}))
	want := "demo/crds/widget.yaml crd\n" +
		"demo/charts/sub/templates/configmap.yaml\n" +
		"demo/templates/service.yaml\n" + // its ConfigMap
		"demo/templates/service.yaml\n" +
		"demo/templates/deployment.yaml\n" +
		"demo/templates/tests/test-connection.yaml hook=test\n" +
		"demo/templates/hook.yaml hook=pre-install,pre-upgrade\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	got = sources(render(t, c, Options{DisableHooks: true}))
	want = "demo/charts/sub/templates/configmap.yaml\ndemo/templates/service.yaml\ndemo/templates/service.yaml\ndemo/templates/deployment.yaml\n"
	if got != want {
		t.Fatalf("no hooks: got\n%s\nwant\n%s", got, want)
	}
}

// A Chart renders many times with different values: rendering does not
// change it (Helm's dependency processing edits the chart it is given).
func TestRender_isRepeatable(t *testing.T) {
	c := mustLoad(t, demoDir, OSFiles(0))
	off := render(t, c, Options{Values: map[string]any{"sub": map[string]any{"enabled": false}}, DisableHooks: true})
	on := render(t, c, Options{DisableHooks: true})
	if len(off) != 3 || len(on) != 4 {
		t.Fatalf("sub disabled: %d documents, then enabled: %d", len(off), len(on))
	}
}

// The default .Capabilities.KubeVersion is the built-in schemas' minor.
func TestDefaultKubeVersion_isTheBuiltinMinor(t *testing.T) {
	if got := DefaultKubeVersion(); got != "v1.37.0" {
		t.Fatalf("got %s", got)
	}
}

// Defaults and Schema are what check reads for $values typos.
func TestDefaultsAndSchema(t *testing.T) {
	c := mustLoad(t, demoDir, OSFiles(0))
	if c.Name() != "demo" {
		t.Fatalf("name %q", c.Name())
	}
	d := c.Defaults()
	if d["replicaCount"] != float64(1) && d["replicaCount"] != int64(1) && d["replicaCount"] != 1 {
		t.Fatalf("replicaCount %#v", d["replicaCount"])
	}
	if _, ok := d["image"].(map[string]any); !ok {
		t.Fatalf("image %#v", d["image"])
	}
	if s := c.Schema(); !bytes.Contains(s, []byte(`"replicaCount"`)) {
		t.Fatalf("schema %s", s)
	}
	if _, err := CompileSchema(c.Schema()); err != nil {
		t.Fatal(err)
	}
}

// values.schema.json failures name the place and the keyword, never the
// value (reference §6).
func TestRender_schemaErrorHidesValues(t *testing.T) {
	c := mustLoad(t, demoDir, OSFiles(0))
	_, err := c.Render(context.Background(), Options{Values: map[string]any{
		"replicaCount": "SECRET-count", "image": map[string]any{"tag": "SECRET-Tag!"},
	}})
	e, ok := AsError(err)
	if !ok || !e.Values {
		t.Fatalf("got %v", err)
	}
	const want = "the values do not meet the chart's values.schema.json: demo: at /image/tag: fails pattern; demo: at /replicaCount: got string, want integer"
	if e.Msg != want {
		t.Fatalf("got  %s\nwant %s", e.Msg, want)
	}
}

// A template's error is Helm's, with the chart file and line.
func TestRender_templateErrorGivesFileAndLine(t *testing.T) {
	c := mustLoad(t, "../testdata/charts/broken", OSFiles(0))
	_, err := c.Render(context.Background(), Options{})
	e, ok := AsError(err)
	if !ok || e.File != "broken/templates/configmap.yaml" || e.Line != 6 ||
		e.Msg != "execution error at (broken/templates/configmap.yaml:6:11): broken needs .Values.name" {
		t.Fatalf("got %#v", e)
	}
}

func TestRender_invalidReleaseNameAndKubeVersion(t *testing.T) {
	c := mustLoad(t, demoDir, OSFiles(0))
	for o, want := range map[*Options]string{
		{ReleaseName: "Not_Valid"}: `release name "Not_Valid": invalid release name, must match regex ^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$ and the length must not be longer than 53`,
		{KubeVersion: "one.two"}:   `invalid kube version "one.two": could not parse "one.two" as version`,
	} {
		_, err := c.Render(context.Background(), *o)
		if err == nil || err.Error() != want {
			t.Errorf("got %v\nwant %s", err, want)
		}
	}
}

// tgz packs the files of dir under top/ as `helm package` does.
func tgz(t *testing.T, dir, top string, extra ...*tar.Header) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if err := tw.WriteHeader(&tar.Header{Name: top + "/" + filepath.ToSlash(rel), Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range extra {
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Size > 0 {
			if _, err := tw.Write(make([]byte, h.Size)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeFile(t *testing.T, p string, data []byte) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A .tgz renders as its folder does.
func TestLoad_archiveRendersAsTheFolder(t *testing.T) {
	p := writeFile(t, filepath.Join(t.TempDir(), "demo-0.1.0.tgz"), tgz(t, demoDir, "demo"))
	fromTgz := render(t, mustLoad(t, p, OSFiles(0)), Options{IncludeCRDs: true})
	fromDir := render(t, mustLoad(t, demoDir, OSFiles(0)), Options{IncludeCRDs: true})
	if len(fromTgz) != len(fromDir) {
		t.Fatalf("%d documents from the archive, %d from the folder", len(fromTgz), len(fromDir))
	}
	for i := range fromDir {
		if fromTgz[i] != fromDir[i] {
			t.Fatalf("document %d: %+v\n%+v", i, fromTgz[i], fromDir[i])
		}
	}
}

// Hostile archives: a small archive that expands past the limit (also
// inside a subchart archive), links, and paths leaving the chart.
func TestLoad_hostileArchives(t *testing.T) {
	dir := t.TempDir()
	const limit = 1 << 20
	bomb := tgz(t, demoDir, "demo", &tar.Header{Name: "demo/files/zeros", Size: 2 << 20, Mode: 0o644, Typeflag: tar.TypeReg})
	if len(bomb) > limit/4 {
		t.Fatalf("the bomb is %d bytes compressed", len(bomb))
	}
	subBomb := tgz(t, "../testdata/charts/broken", "broken", &tar.Header{Name: "broken/files/zeros", Size: 2 << 20, Mode: 0o644, Typeflag: tar.TypeReg})
	nested := t.TempDir()
	writeFile(t, filepath.Join(nested, "Chart.yaml"), []byte("apiVersion: v2\nname: outer\nversion: 0.1.0\n"))
	writeFile(t, filepath.Join(nested, "charts", "broken-0.1.0.tgz"), subBomb)
	cases := map[string]struct {
		data []byte
		want string
	}{
		"bomb":     {bomb, "the chart is larger than MaxTemplateBytes (1048576 bytes) once decompressed"},
		"sub bomb": {tgz(t, nested, "outer"), "the chart is larger than MaxTemplateBytes (1048576 bytes) once decompressed"},
		"symlink": {tgz(t, demoDir, "demo", &tar.Header{Name: "demo/templates/x.yaml", Linkname: "/etc/passwd", Typeflag: tar.TypeSymlink}),
			"the chart archive holds demo/templates/x.yaml, which is not a regular file (links are refused)"},
		"hard link": {tgz(t, demoDir, "demo", &tar.Header{Name: "demo/templates/x.yaml", Linkname: "demo/Chart.yaml", Typeflag: tar.TypeLink}),
			"the chart archive holds demo/templates/x.yaml, which is not a regular file (links are refused)"},
		"parent": {tgz(t, demoDir, "demo", &tar.Header{Name: "demo/../../x.yaml", Size: 1, Mode: 0o644, Typeflag: tar.TypeReg}),
			"the chart archive holds demo/../../x.yaml, which leaves the chart's folder"},
		"absolute": {tgz(t, demoDir, "demo", &tar.Header{Name: "demo//etc/x.yaml", Size: 1, Mode: 0o644, Typeflag: tar.TypeReg}),
			"the chart archive holds demo//etc/x.yaml, which leaves the chart's folder"},
		"not gzip": {[]byte("apiVersion: v2\n"), "the chart is neither a folder nor a gzip-compressed archive (.tgz): gzip: invalid header"},
	}
	for name, c := range cases {
		p := writeFile(t, filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".tgz"), c.data)
		_, err := Load(p, OSFiles(limit))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v\nwant %s", name, err, c.want)
		}
	}
}

// A chart folder past the limit is refused as it is read.
func TestLoad_folderLargerThanTheLimit(t *testing.T) {
	_, err := Load(demoDir, OSFiles(512))
	if err == nil || !strings.HasPrefix(err.Error(), "the chart is larger than MaxTemplateBytes (512 bytes) at ") {
		t.Fatalf("got %v", err)
	}
}

// A symlink in a chart folder is followed only when it stays inside the
// chart; one that leaves it, or loops, is refused.
func TestLoad_symlinks(t *testing.T) {
	outside := writeFile(t, filepath.Join(t.TempDir(), "secret.yaml"), []byte("kind: Secret\n"))
	mk := func(t *testing.T) string {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "Chart.yaml"), []byte("apiVersion: v2\nname: links\nversion: 0.1.0\n"))
		writeFile(t, filepath.Join(dir, "shared", "cm.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared}\n"))
		return dir
	}
	dir := mk(t)
	if err := os.Symlink(filepath.Join(dir, "shared"), filepath.Join(dir, "templates")); err != nil {
		t.Fatal(err)
	}
	if got := sources(render(t, mustLoad(t, dir, OSFiles(0)), Options{})); got != "links/templates/cm.yaml\n" {
		t.Fatalf("inside: got %q", got)
	}

	dir = mk(t)
	writeFile(t, filepath.Join(dir, "templates", "a.yaml"), []byte("kind: A\n"))
	if err := os.Symlink(outside, filepath.Join(dir, "templates", "b.yaml")); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir, OSFiles(0)); err == nil || err.Error() != "the chart's symlink templates/b.yaml leaves the chart's folder; a chart reads only its own files" {
		t.Fatalf("leaving: got %v", err)
	}

	dir = mk(t)
	if err := os.Symlink(dir, filepath.Join(dir, "shared", "loop")); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir, OSFiles(0)); err == nil || err.Error() != "the chart's symlink shared/loop loops back to a folder that contains it" {
		t.Fatalf("loop: got %v", err)
	}

	dir = mk(t)
	if err := os.Symlink(filepath.Join(dir, "shared"), filepath.Join(dir, "templates")); err != nil {
		t.Fatal(err)
	}
	f := OSFiles(0)
	f.Real = nil
	if _, err := Load(dir, f); err == nil || err.Error() != "the chart holds a symlink, templates, which this loader cannot follow" {
		t.Fatalf("no resolver: got %v", err)
	}
}

// Helm's template engine cannot be stopped; a cancelled render returns
// at once all the same.
func TestRender_cancelledContextReturnsAtOnce(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "Chart.yaml"), []byte("apiVersion: v2\nname: slow\nversion: 0.1.0\n"))
	writeFile(t, filepath.Join(dir, "templates", "slow.yaml"), []byte("{{ range until 2000000 }}{{ end }}\n"))
	c := mustLoad(t, dir, OSFiles(0))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	_, err := c.Render(ctx, Options{})
	if err == nil || err.Error() != "the chart's rendering was cancelled: context canceled" {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("returned after %s", d)
	}
}

// The output is bounded by MaxBytes.
func TestRender_outputLimit(t *testing.T) {
	c := mustLoad(t, demoDir, OSFiles(0))
	_, err := c.Render(context.Background(), Options{MaxBytes: 100})
	if err == nil || err.Error() != "the chart's output is larger than MaxOutputBytes (100 bytes)" {
		t.Fatalf("got %v", err)
	}
}

func TestRemote_check(t *testing.T) {
	digest := "sha256:" + strings.Repeat("a", 64)
	for r, want := range map[Remote]string{
		{Repository: "https://charts.jetstack.io", Name: "cert-manager", Version: "v1.16.1"}:             "",
		{Repository: "oci://registry.example/charts", Name: "podinfo", Version: "6.7.0", Digest: digest}: "",
		{Repository: "oci://registry.example/charts", Name: "podinfo", Version: "6.7.0-rc.1+build.5"}:    "",
		{Name: "x", Version: "1.0.0"}:                                                "repository: a remote chart needs repository: an http(s):// chart repository or an oci:// registry",
		{Repository: "ftp://x", Name: "x", Version: "1.0.0"}:                         "repository: repository must start with https://, http:// or oci://",
		{Repository: "https://x", Version: "1.0.0"}:                                  "name: a remote chart needs name: the chart's name in the repository",
		{Repository: "https://x", Name: "../x", Version: "1.0.0"}:                    "name: name is a chart's name, without slashes or spaces",
		{Repository: "https://x", Name: "x"}:                                         "version: a remote chart needs version: an exact version such as 1.2.3; charts are pinned",
		{Repository: "https://x", Name: "x", Version: "~1.2"}:                        "version: version must be an exact version such as 1.2.3 or v1.2.3, not a range or a wildcard: charts are pinned",
		{Repository: "https://x", Name: "x", Version: "1.2.x"}:                       "version: version must be an exact version such as 1.2.3 or v1.2.3, not a range or a wildcard: charts are pinned",
		{Repository: "https://x", Name: "x", Version: ">=1.2.3"}:                     "version: version must be an exact version such as 1.2.3 or v1.2.3, not a range or a wildcard: charts are pinned",
		{Repository: "https://x", Name: "x", Version: "1.2.3", Digest: "sha256:abc"}: "digest: digest must be sha256: followed by 64 lowercase hexadecimal digits",
	} {
		field, msg := r.Check()
		got := ""
		if msg != "" {
			got = field + ": " + msg
		}
		if got != want {
			t.Errorf("%+v: got %q\nwant %q", r, got, want)
		}
	}
}

// ParseValues reads numbers as `helm template -f` does.
func TestParseValues_readsAsAValuesFile(t *testing.T) {
	v, err := ParseValues([]byte(`{"a":1,"b":1.5,"c":{"d":null}}`))
	if err != nil {
		t.Fatal(err)
	}
	if v["a"] != float64(1) || v["b"] != 1.5 {
		t.Fatalf("got %#v", v)
	}
	if _, err := ParseValues([]byte("a: [")); err == nil {
		t.Fatal("no error for broken YAML")
	}
}

// One Chart renders from several goroutines at once, each with its own
// values, and each gets its own documents.
func TestRender_concurrentRendersAgree(t *testing.T) {
	c := mustLoad(t, demoDir, OSFiles(0))
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			n := float64(i)
			docs, err := c.Render(context.Background(), Options{Values: map[string]any{"replicaCount": n}, DisableHooks: true})
			if err == nil && !strings.Contains(docs[3].YAML, "replicas: "+fmtFloat(n)+"\n") {
				err = &Error{Msg: "render " + fmtFloat(n) + " got " + docs[3].YAML}
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func fmtFloat(f float64) string {
	return strings.TrimRight(strings.TrimRight(strconv.FormatFloat(f, 'f', 1, 64), "0"), ".")
}

// Defaults is a copy; Dependencies give each subchart's defaults, for
// check's $values typos under a subchart's name.
func TestDefaults_isACopyAndSubchartsHaveTheirs(t *testing.T) {
	c := mustLoad(t, demoDir, OSFiles(0))
	c.Defaults()["image"].(map[string]any)["tag"] = "changed"
	if got := c.Defaults()["image"].(map[string]any)["tag"]; got != "" {
		t.Fatalf("Defaults shares its maps: %v", got)
	}
	var names []string
	for _, d := range c.Dependencies() {
		names = append(names, d.Name()+":"+strings.Join(slices.Sorted(maps.Keys(d.Defaults())), ","))
	}
	if got := strings.Join(names, " "); got != "common: sub:greeting" {
		t.Fatalf("got %q", got)
	}
}

// With HideKeys, a key of the values that the schema does not name is
// written […]; the keys it names are shown.
func TestRender_schemaErrorHidesKeysTheSchemaDoesNotName(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "Chart.yaml"), []byte("apiVersion: v2\nname: strict\nversion: 0.1.0\n"))
	writeFile(t, filepath.Join(dir, "values.schema.json"), []byte(`{"type": "object", "additionalProperties": false,
		"properties": {"port": {"type": "integer"}, "labels": {"type": "object", "additionalProperties": {"type": "string"}}}}`))
	c := mustLoad(t, dir, OSFiles(0))
	vals := map[string]any{"port": "80", "s3cret-key": 1, "labels": map[string]any{"team-Sup3r": 2}}
	for hide, want := range map[bool]string{
		false: "the values do not meet the chart's values.schema.json: strict: at /: s3cret-key not allowed (additionalProperties); strict: at /labels/team-Sup3r: got number, want string; strict: at /port: got string, want integer",
		true:  "the values do not meet the chart's values.schema.json: strict: at /: […] not allowed (additionalProperties); strict: at /labels/[…]: got number, want string; strict: at /port: got string, want integer",
	} {
		_, err := c.Render(context.Background(), Options{Values: vals, HideKeys: hide})
		if err == nil || err.Error() != want {
			t.Errorf("hide %v: got  %v\nwant %s", hide, err, want)
		}
	}
}
