package provider

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// The acceptance tests run twice: against Terraform (`make test`, `make
// testacc`) and against OpenTofu (`make testacc-tofu`, which `make test`
// runs too, with the `tofu` that scripts/build-tofu.sh builds). Every test
// goes through accTest, which asks the CLI for its name; under OpenTofu it
// makes terraform-plugin-testing attach the provider under OpenTofu's
// registry host, and runs each test listed in openTofuDifferences expecting
// the failure listed there. Every other test must pass under both.

// openTofuDifference is an acceptance test that OpenTofu answers
// differently from Terraform, for a reason on OpenTofu's side that the
// provider cannot change.
type openTofuDifference struct {
	// Test is the acceptance test's name.
	Test string
	// OpenTofu is what OpenTofu does, in the words of the docs table.
	OpenTofu string
	// Reason is why, in the words of the docs table.
	Reason string
	// Failure is what the test's failure under OpenTofu says, in parts
	// that appear in this order (spaces match any run of white space, as
	// in errorRe), so that the listed test fails the way the table says.
	Failure []string
}

// openTofuDifferences lists every acceptance test whose outcome differs
// under OpenTofu at the version pinned in tools/tofu/go.mod. Under
// OpenTofu each listed test must still fail with its Failure (otherwise
// the entry is stale and the run fails, saying so); every test not listed
// must pass. The "OpenTofu" section of templates/index.md.tmpl shows the
// same table (TestOpenTofuDifferences_docsShowTheTable).
var openTofuDifferences = []openTofuDifference{
	{
		Test:     "TestAccDeepMergeFunction_layersValues",
		OpenTofu: "`deep_merge(a, null, b)` and `deep_merge(null, null)` are unknown during plan and `null` after apply, with no error.",
		Reason:   nullReason,
		Failure:  []string{"output at path: merged", "got: <nil>", "output at path: nothing_is_null", "got: <nil>"},
	},
	{
		Test:     "TestAccEvalFunction_Null",
		OpenTofu: "`eval(expr, null)` is unknown during plan and `null` after apply, with no error; `eval(expr, {})` works.",
		Reason:   nullReason,
		Failure:  []string{"output at path: size", "got: <nil>"},
	},
	{
		Test:     "TestAccManifestsFunction_Null",
		OpenTofu: "`manifests(null)` is unknown during plan and `null` after apply, with no error, instead of `{}`.",
		Reason:   nullReason,
		Failure:  []string{"output at path: null", "got: <nil>"},
	},
	{
		Test:     "TestAccRenderFunction_Null",
		OpenTofu: "`render(template, null)` is unknown during plan and `null` after apply, with no error; `render(template, {})` works.",
		Reason:   nullReason,
		Failure:  []string{"output at path: null", "got: <nil>"},
	},
	{
		Test:     "TestAccRenderFileFunction_Null",
		OpenTofu: "`render_file(path, null)` is unknown during plan and `null` after apply, with no error; `render_file(path, {})` works.",
		Reason:   nullReason,
		Failure:  []string{"output at path: static", "got: <nil>"},
	},
	{
		Test:     "TestAccEvalFunction_errorShowsTheExpression",
		OpenTofu: "The error is headed `Invalid function argument`, `Invalid value for \"expression\" parameter:`, not `Error in function call`; the provider's text after it is the same.",
		Reason:   errorReason,
		Failure:  []string{"Error: Invalid function argument", `Invalid value for "expression" parameter: <inline>:1:1: no matching overload for int + double`},
	},
	{
		Test:     "TestAccRenderFunction_errorPointsAtTheLine",
		OpenTofu: "The error is headed `Invalid function argument`, `Invalid value for \"template\" parameter:`, not `Error in function call`; the provider's text after it is the same.",
		Reason:   errorReason,
		Failure:  []string{"Error: Invalid function argument", `Invalid value for "template" parameter: <inline>:3:10: sum.$eval: no matching overload for int + double`},
	},
	{
		Test:     "TestAccRenderFunction_schemaFailsThePlanBesideUnknowns",
		OpenTofu: "The error is headed `Invalid function argument`, `Invalid value for \"template\" parameter:`, not `Error in function call`, though the variables are at fault; the provider's text after it is the same.",
		Reason:   errorReason,
		Failure:  []string{"Error: Invalid function argument", `Invalid value for "template" parameter: <inline>:2:3: $schema: the variables do not match the schema`},
	},
	{
		Test:     "TestAccRenderFileFunction_errorPointsAtTheLine",
		OpenTofu: "The error is headed `Invalid function argument`, `Invalid value for \"path\" parameter:`, not `Error in function call`; the provider's text after it is the same.",
		Reason:   errorReason,
		Failure:  []string{"Error: Invalid function argument", `Invalid value for "path" parameter:`, "testdata/files/broken.yaml:4:12: data.sum.$eval: no matching overload for int + double"},
	},
}

// The reasons shared by several rows of openTofuDifferences, as read in
// OpenTofu's code at the pinned version:
//
//   - nullReason: internal/tofu/context_functions.go declares each provider
//     function parameter with AllowDynamicType false, and cty's
//     function.Call answers unknown, without calling the function, for an
//     argument of type cty.DynamicPseudoType, which is the type of a bare
//     `null`. Terraform allows the dynamic type and calls the provider.
//   - errorReason: internal/plugin6/grpc_provider.go turns every function
//     error into a CallFunctionArgumentError, whose argument is 0 when the
//     provider named none, and context_functions.go wraps it in cty's
//     argument error. Terraform shows an error that names no argument as
//     "Error in function call".
const (
	nullReason  = "A bare `null` has no type, and OpenTofu does not call a provider function with an argument of no known type: it answers unknown, which is `null` after apply. A `null` inside an object, `{ tag = null }`, is passed on."
	errorReason = "OpenTofu shows an error that names no argument, as the provider's errors in a template or an expression do, as an error in the first argument."
)

// openTofuRegistry is the host OpenTofu gives a provider source without
// one, "celyaml/celyaml": registry.opentofu.org/celyaml/celyaml.
// terraform-plugin-testing attaches the in-process provider under
// TF_ACC_PROVIDER_HOST, registry.terraform.io unless set.
const openTofuRegistry = "registry.opentofu.org"

// cliVersions caches cliVersionLine by CLI path.
var cliVersions sync.Map

// versionLine matches the line of `CLI version` that names the CLI.
var versionLine = regexp.MustCompile(`(?m)^(?:Terraform|OpenTofu) v\S+$`)

// cliVersionLine returns the line of `path version` that names the CLI:
// "Terraform v1.11.4" or "OpenTofu v1.12.6".
func cliVersionLine(t *testing.T, path string) string {
	t.Helper()
	if v, ok := cliVersions.Load(path); ok {
		return v.(string)
	}
	cmd := exec.Command(path, "version")
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s version: %v", path, err)
	}
	line := versionLine.FindString(string(out))
	if line == "" {
		t.Fatalf("%s version names neither Terraform nor OpenTofu:\n%s", path, out)
	}
	cliVersions.Store(path, line)
	return line
}

// isOpenTofu reports whether `version` says OpenTofu.
func isOpenTofu(versionLine string) bool {
	return strings.HasPrefix(versionLine, "OpenTofu ")
}

// prepareCLI sets what the harness needs for the CLI in
// TF_ACC_TERRAFORM_PATH and reports whether it is OpenTofu. It asks the
// CLI only when acceptance tests run (TF_ACC set).
func prepareCLI(t *testing.T) (openTofu bool) {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		return false
	}
	if !isOpenTofu(cliVersionLine(t, os.Getenv("TF_ACC_TERRAFORM_PATH"))) {
		return false
	}
	if os.Getenv(resource.EnvTfAccProviderHost) == "" {
		t.Setenv(resource.EnvTfAccProviderHost, openTofuRegistry)
	}
	// Terraform reads a TF_CLI_CONFIG_FILE that does not exist as an empty
	// configuration; OpenTofu warns about it on every command, before the
	// output terraform-plugin-testing parses (`tofu version` first). An
	// empty file gives OpenTofu what Terraform reads.
	if cfg := os.Getenv("TF_CLI_CONFIG_FILE"); cfg != "" {
		if _, err := os.Stat(cfg); errors.Is(err, fs.ErrNotExist) {
			empty := filepath.Join(t.TempDir(), "empty.tofurc")
			if err := os.WriteFile(empty, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			t.Setenv("TF_CLI_CONFIG_FILE", empty)
		}
	}
	return true
}

// runAcceptance runs tc with terraform-plugin-testing. Under OpenTofu, a
// test listed in openTofuDifferences must fail with its listed failure.
func runAcceptance(t *testing.T, tc resource.TestCase, openTofu bool) {
	t.Helper()
	d, listed := openTofuDifferenceOf(t.Name())
	if !openTofu || !listed {
		resource.Test(t, tc)
		return
	}
	rec := &recordingT{T: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		resource.Test(rec, tc)
	}()
	<-done
	version := cliVersionLine(t, os.Getenv("TF_ACC_TERRAFORM_PATH"))
	got := rec.output()
	switch {
	case rec.skipped:
		t.Errorf("%s listed in openTofuDifferences was skipped under %s: %s", t.Name(), version, got)
	case !rec.failed:
		t.Errorf("%s passes under %s, but openTofuDifferences says it fails (%s): remove it from the table in internal/provider/opentofu_test.go and from templates/index.md.tmpl", t.Name(), version, d.OpenTofu)
	case !errorRe(d.Failure...).MatchString(got):
		t.Errorf("%s fails under %s, but not with the failure openTofuDifferences lists,\n%q\nIt failed with:\n%s", t.Name(), version, d.Failure, got)
	default:
		t.Logf("%s differs as openTofuDifferences lists: %s", version, d.OpenTofu)
	}
}

// openTofuDifferenceOf returns the openTofuDifferences entry for a test.
func openTofuDifferenceOf(test string) (openTofuDifference, bool) {
	for _, d := range openTofuDifferences {
		if d.Test == test {
			return d, true
		}
	}
	return openTofuDifference{}, false
}

// recordingT is the testing.T terraform-plugin-testing gets for a test
// expected to fail: it records failures instead of failing the test, and
// ends its goroutine on FailNow and SkipNow as testing.T does.
type recordingT struct {
	*testing.T
	mu      sync.Mutex
	lines   []string
	failed  bool
	skipped bool
}

func (r *recordingT) record(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, s)
}

func (r *recordingT) output() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.lines, "\n")
}

func (r *recordingT) Fail() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
}

func (r *recordingT) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}

func (r *recordingT) FailNow() {
	r.Fail()
	runtime.Goexit()
}

func (r *recordingT) Error(args ...any) { r.record(fmt.Sprint(args...)); r.Fail() }
func (r *recordingT) Errorf(format string, args ...any) {
	r.record(fmt.Sprintf(format, args...))
	r.Fail()
}
func (r *recordingT) Fatal(args ...any) { r.record(fmt.Sprint(args...)); r.FailNow() }
func (r *recordingT) Fatalf(format string, args ...any) {
	r.record(fmt.Sprintf(format, args...))
	r.FailNow()
}

func (r *recordingT) SkipNow() {
	r.mu.Lock()
	r.skipped = true
	r.mu.Unlock()
	runtime.Goexit()
}
func (r *recordingT) Skip(args ...any) { r.record(fmt.Sprint(args...)); r.SkipNow() }
func (r *recordingT) Skipf(format string, args ...any) {
	r.record(fmt.Sprintf(format, args...))
	r.SkipNow()
}

func (r *recordingT) Skipped() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.skipped
}

// Parallel would apply to the real test from another goroutine.
func (r *recordingT) Parallel() {}

// accTestNames lists the acceptance tests in this package's *_acc_test.go
// files.
func accTestNames(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*_acc_test.go")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^func (TestAcc\w+)\(t \*testing\.T\)`)
	var names []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			names = append(names, m[1])
		}
	}
	return names
}

// The table of differences names acceptance tests that exist, each once.
func TestOpenTofuDifferences_nameAcceptanceTests(t *testing.T) {
	exists := map[string]bool{}
	for _, name := range accTestNames(t) {
		exists[name] = true
	}
	if len(exists) == 0 {
		t.Fatal("found no acceptance tests in *_acc_test.go")
	}
	seen := map[string]bool{}
	for _, d := range openTofuDifferences {
		if !exists[d.Test] {
			t.Errorf("openTofuDifferences lists %s, which is no acceptance test", d.Test)
		}
		if seen[d.Test] {
			t.Errorf("openTofuDifferences lists %s twice", d.Test)
		}
		seen[d.Test] = true
		if d.OpenTofu == "" || d.Reason == "" || len(d.Failure) == 0 {
			t.Errorf("openTofuDifferences entry for %s leaves a field empty", d.Test)
		}
	}
}

// openTofuTableHeader starts the table in templates/index.md.tmpl.
const openTofuTableHeader = "| Acceptance test | What OpenTofu does | Why |\n|---|---|---|\n"

// openTofuTable is openTofuDifferences as the Markdown table the docs show.
func openTofuTable() string {
	var b strings.Builder
	b.WriteString(openTofuTableHeader)
	for _, d := range openTofuDifferences {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", d.Test, d.OpenTofu, d.Reason)
	}
	return b.String()
}

// pinnedOpenTofu is the OpenTofu version tools/tofu/go.mod pins, such as
// "1.12.6".
func pinnedOpenTofu(t *testing.T) string {
	t.Helper()
	gomod, err := os.ReadFile("../../tools/tofu/go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^require github\.com/opentofu/opentofu v(\S+)$`).FindSubmatch(gomod)
	if m == nil {
		t.Fatal("tools/tofu/go.mod has no 'require github.com/opentofu/opentofu vX.Y.Z' line")
	}
	return string(m[1])
}

// The docs index shows openTofuDifferences as a table, row for row, and
// the docs index and the README name the OpenTofu version the tests run.
func TestOpenTofuDifferences_docsShowTheTable(t *testing.T) {
	doc, err := os.ReadFile("../../templates/index.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), openTofuTableHeader)
	if !ok {
		t.Fatalf("templates/index.md.tmpl has no table starting\n%s", openTofuTableHeader)
	}
	got := openTofuTableHeader
	for _, line := range strings.SplitAfter(table, "\n") {
		if !strings.HasPrefix(line, "|") {
			break
		}
		got += line
	}
	if want := openTofuTable(); got != want {
		t.Errorf("templates/index.md.tmpl shows\n%s\nbut openTofuDifferences is\n%s", got, want)
	}
	version := "OpenTofu " + pinnedOpenTofu(t)
	for _, path := range []string{"../../templates/index.md.tmpl", "../../README.md"} {
		doc, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(oneLine(string(doc)), version) {
			t.Errorf("%s does not name %s, the version tools/tofu/go.mod pins", path, version)
		}
	}
}

// fakeTofu writes a `tofu` that prints its arguments, one a line, and
// returns its path.
func fakeTofu(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tofu")
	if err := os.WriteFile(path, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// scripts/with-dev-provider.sh runs OpenTofu when the command is `tofu`
// (with -no-color, as Terraform gets it), or when CELYAML_CLI names it, and
// tells the command which CLI it chose in CELYAML_CLI.
func TestDevScript_runsOpenTofuWhenAskedTo(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("# empty\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tofu := fakeTofu(t)
	if got, want := runDevScript(t, nil, "scripts/with-dev-provider.sh", dir, tofu, "plan", "-input=false"), "plan\n-no-color\n-input=false\n"; got != want {
		t.Errorf("with-dev-provider.sh DIR tofu plan: tofu got\n%q\nwant\n%q", got, want)
	}
	got := runDevScript(t, []string{"CELYAML_CLI=" + tofu}, "scripts/with-dev-provider.sh", dir, "bash", "-c", `echo "$CELYAML_CLI"; command -v tofu`)
	if want := tofu + "\n" + tofu + "\n"; got != want {
		t.Errorf("with CELYAML_CLI=%s the command sees\n%q\nwant\n%q", tofu, got, want)
	}
}
