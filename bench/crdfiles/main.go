// Command crdfiles gives bench/run the released CRDs of internal/testcrds
// (from their modules' zips, through the Go module proxy) and documents
// of their kinds:
//
//	crdfiles files       the CRD files, one path a line
//	crdfiles one         one Gateway (gateway.networking.k8s.io/v1)
//	crdfiles mixed N     N documents cycling over every CRD kind, each at
//	                     its first served version (names and namespaces
//	                     only: a kind whose schema requires more is refused,
//	                     which costs the check as much)
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/testcrds"
	"github.com/celyaml/terraform-provider-celyaml/internal/validate"
)

const gateway = `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: web, namespace: prod}
spec:
  gatewayClassName: example
  listeners:
  - {name: http, protocol: HTTP, port: 80}
`

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "crdfiles:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: crdfiles files|one|mixed N")
	}
	files, err := testcrds.CRDFiles()
	if err != nil {
		return err
	}
	switch args[0] {
	case "files":
		for _, f := range files {
			fmt.Println(f)
		}
	case "one":
		fmt.Print(gateway)
	case "mixed":
		if len(args) != 2 {
			return fmt.Errorf("usage: crdfiles mixed N")
		}
		n, err := strconv.Atoi(args[1])
		if err != nil {
			return err
		}
		kinds, err := crdKinds(files)
		if err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			k := kinds[i%len(kinds)]
			if i > 0 {
				fmt.Println("---")
			}
			fmt.Printf("apiVersion: %s/%s\nkind: %s\nmetadata: {name: doc-%d, namespace: prod}\n", k.Group, k.Served[0], k.Kind, i)
		}
	default:
		return fmt.Errorf("unknown subcommand %q", args[0])
	}
	return nil
}

// crdKinds lists every CRD of the files, as validate indexes them.
func crdKinds(files []string) ([]validate.CRDIndex, error) {
	var out []validate.CRDIndex
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		dec := yaml.NewDecoder(bytes.NewReader(text))
		for {
			var v any
			if err := dec.Decode(&v); err == io.EOF {
				break
			} else if err != nil {
				return nil, fmt.Errorf("%s: %v", f, err)
			}
			if ix, ok := validate.IndexOf(v); ok && len(ix.Served) > 0 {
				out = append(out, ix)
			}
		}
	}
	return out, nil
}
