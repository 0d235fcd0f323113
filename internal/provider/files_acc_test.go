//go:build unix

package provider

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// namedPipe makes a named pipe with no writer in a temporary directory:
// a plain read of it waits for ever.
func namedPipe(t *testing.T) string {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	return fifo
}

// render_file of a named pipe, and $include of one, are a clear error in
// the plan, not a plan that hangs until the plugin times out.
func TestAccRenderFileFunction_namedPipeIsRefused(t *testing.T) {
	fifo := namedPipe(t)
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "pipe" {
  value = provider::celyaml::render_file("` + fifo + `", {})
}
`,
			ExpectError: errorRe(fifo + ":1:1: cannot read template: not a regular file but a named pipe (FIFO)"),
		}},
	})
}

func TestAccRenderFunction_includeOfANamedPipeIsRefused(t *testing.T) {
	fifo := namedPipe(t)
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
output "pipe" {
  value = provider::celyaml::render(yamlencode({ a = { "$include" = "` + fifo + `" } }), {})
}
`,
			ExpectError: errorRe(`a.$include: cannot read included file "` + fifo + `": not a regular file but a named pipe (FIFO)`),
		}},
	})
}

// The data source's template_file is read the same way: a device is
// refused by name, and a sparse file over MaxTemplateBytes by its size,
// without reading a gibibyte.
func TestAccRenderDataSource_templateFileMustBeARegularFileWithinTheLimit(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 1<<30); err != nil {
		t.Fatal(err)
	}
	accTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: terraformHeader + `
data "celyaml_render" "zero" {
  template_file = "/dev/zero"
}
`,
			ExpectError: errorRe("/dev/zero:1:1: cannot read template: not a regular file but a device"),
		}, {
			Config: terraformHeader + `
data "celyaml_render" "big" {
  template_file = "` + big + `"
}
`,
			ExpectError: errorRe(big + ":1:1: template is 1073741824 bytes, more than MaxTemplateBytes (268435456); if this is intended, raise it with the command line's --max-template-bytes (reference §7)"),
		}},
	})
}
