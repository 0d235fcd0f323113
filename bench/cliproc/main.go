// Command cliproc helps make bench time the celyaml command as whole
// processes (bench/run):
//
//	cliproc values N   prints the kitchen sink's variables with N services
//	                   as JSON, the services as the engine benchmarks build
//	                   them (internal/engine/bench_test.go benchService)
//	cliproc floor FILE reads FILE, a YAML stream, with yaml.v3 and writes
//	                   it again to standard output: the whole-process floor
//	                   the command's render is compared with
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"go.yaml.in/yaml/v3"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "cliproc:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 2 {
		return errors.New("usage: cliproc values N | cliproc floor FILE")
	}
	switch args[0] {
	case "values":
		n, err := strconv.Atoi(args[1])
		if err != nil {
			return err
		}
		return json.NewEncoder(os.Stdout).Encode(values(n))
	case "floor":
		text, err := os.ReadFile(args[1])
		if err != nil {
			return err
		}
		return floor(text, os.Stdout)
	}
	return fmt.Errorf("unknown mode %q", args[0])
}

// values are the kitchen sink's variables with n services.
func values(n int) map[string]any {
	svcs := make([]map[string]any, n)
	for i := range svcs {
		svcs[i] = map[string]any{
			"name": "svc" + strconv.Itoa(i),
			"ha":   i%3 != 0,
			"port": 8000 + i%1000,
			"tags": map[string]any{
				"cost-center": strconv.Itoa(1000 + i%97),
				"owner":       "team-" + strconv.Itoa(i%13),
				"tier":        [...]string{"web", "api", "batch"}[i%3],
			},
		}
	}
	return map[string]any{"env": "prod", "region": "us-east-1", "services": svcs}
}

// floor decodes every document of text and encodes it again.
func floor(text []byte, w io.Writer) error {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	enc := yaml.NewEncoder(w)
	for {
		var v any
		if err := dec.Decode(&v); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return err
		}
		if err := enc.Encode(v); err != nil {
			return err
		}
	}
	return enc.Close()
}
