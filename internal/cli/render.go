package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/validate"
)

// renderFlags are render's own flags.
type renderFlags struct {
	output     string
	outputDir  string
	baseDir    string
	schemas    []string
	validateAs string // --validate-as: server-side-apply or create
	namespace  nsFlag // -n, --keep-namespace: namespace.go
	limits     limits // --max-…: limits.go
}

func newRenderCommand(in *inputs) *cobra.Command {
	var f renderFlags
	cmd := &cobra.Command{
		Use:   "render TEMPLATE",
		Short: "Render a template file (- reads standard input)",
		Long: `Render a CEL-YAML template and print the documents, byte for byte what
the provider's celyaml_render data source holds in "yaml" (or, with -o json,
in "json", and a newline). Maps that come from values are written with their keys sorted,
as Terraform's are, whatever order a values file writes them in.

Values: -f files merge left to right, then the --set flags apply in
command-line order. --set takes Helm's path syntax (image.tag=v2,
tolerations[0].key=x, a\.b=1 for a dotted key, args={a,b} for a list,
a=1,b=2 for two) and reads VALUE as a YAML scalar, so 1.2 is a number and
true a bool: --set-string keeps VALUE text. -f NAME=FILE makes the file's
content the variable NAME.`,
		Example: `  celyaml render app.yaml -f base.yaml -f prod.yaml --set replicas=5 --set-string image.tag=1.2
  celyaml render chart.yaml -f values=chart/values.yaml --set 'values.tolerations[0].key=gpu'
  celyaml render app.yaml --set-json 'labels={"team":"web"}' --set-file config=app.conf
  celyaml render - --base-dir ./templates -f base.yaml < app.yaml
  celyaml render app.yaml -f base.yaml --output-dir out/
  celyaml render widgets.yaml --schemas crds/
  celyaml render chart.yaml -n apps
  celyaml render chart.yaml -n apps --keep-namespace Pod/chart
  celyaml render chart.yaml --max-nodes 20000000 --max-output-bytes 1Gi`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRender(cmd, in, f, args[0])
		},
	}
	f.register(cmd, in)
	cmd.Flags().StringVar(&f.baseDir, "base-dir", "", "the `DIR` $include resolves against for a template read from standard input")
	_ = cmd.MarkFlagDirname("base-dir")
	return cmd
}

// register registers the flags render and post-render share on cmd.
func (f *renderFlags) register(cmd *cobra.Command, in *inputs) {
	in.addValuesFlags(cmd)
	f.namespace.register(cmd)
	fs := cmd.Flags()
	f.limits.register(fs)
	fs.StringVarP(&f.output, "output", "o", "yaml", "output format: yaml, json, or manifests (a JSON object keyed by manifest ID)")
	fs.StringVar(&f.outputDir, "output-dir", "", "write one file per document into `DIR`, named after its manifest ID or its index")
	fs.StringArrayVar(&f.schemas, "schemas", nil, "validate the documents against the CRDs and OpenAPI documents in `PATH` (a file or a directory), as the provider's validate does; repeatable")
	fs.StringVar(&f.validateAs, "validate-as", "server-side-apply", "the request --schemas checks the documents as: `server-side-apply` (kubectl apply --server-side, kubernetes_manifest, Flux, Argo CD) or create (kubectl create, kubectl apply)")
	_ = cmd.RegisterFlagCompletionFunc("validate-as", cobra.FixedCompletions([]string{"server-side-apply", "create"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions([]string{"yaml", "json", "manifests"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.MarkFlagDirname("output-dir")
}

func runRender(cmd *cobra.Command, in *inputs, f renderFlags, template string) error {
	return renderWith(cmd, in, f, template, nil)
}

// renderWith is render, or post-render when upstream is given: upstream
// reads the documents the template's overlays and transforms edit
// (postrender.go), before the values are read.
func renderWith(cmd *cobra.Command, in *inputs, f renderFlags, template string, upstream func() ([]engine.Document, error)) error {
	switch f.output {
	case "yaml", "json", "manifests":
	default:
		return fmt.Errorf("--output %q: want yaml, json or manifests", f.output)
	}
	if f.outputDir != "" && f.output == "manifests" {
		return fmt.Errorf("--output-dir writes one file per document, in yaml or json; it cannot be used with -o manifests")
	}
	if f.baseDir != "" && template != "-" {
		return fmt.Errorf("--base-dir applies only to a template read from standard input (-); a template file's $include resolves against the file's own directory")
	}
	var request validate.Request
	switch f.validateAs {
	case "server-side-apply":
	case "create":
		request = validate.Create
	default:
		return fmt.Errorf("--validate-as %q: want server-side-apply or create", f.validateAs)
	}
	if cmd.Flags().Changed("validate-as") && len(f.schemas) == 0 {
		return fmt.Errorf("--validate-as chooses the request --schemas checks the documents as; give --schemas too")
	}
	opts, err := f.namespace.options(cmd, f.limits.apply(cmd, engine.DefaultOptions()))
	if err != nil {
		return err
	}
	var schemas *loadedSchemas
	if len(f.schemas) > 0 {
		if schemas, err = in.loadSchemas(f.schemas); err != nil {
			return err
		}
		opts.Scopes = schemas.scopes
	}
	eng := engine.New(opts)
	var up []engine.Document
	if upstream != nil {
		if up, err = upstream(); err != nil {
			return err
		}
	}
	src, err := in.source(eng, template, f.baseDir)
	if err != nil {
		return err
	}
	vars, err := in.vars()
	if err != nil {
		return err
	}
	docs, err := eng.RenderOver(in.ctx, src, vars, up)
	if err != nil {
		return problem(in.atValues(err))
	}
	if err := in.checkSchemas(schemas, docs, validate.Options{Request: request}); err != nil {
		return err
	}
	r, err := newRendered(docs)
	if err != nil {
		return problem(err)
	}
	if f.outputDir != "" {
		return problem(r.writeDir(in.ctx, f.outputDir, f.output))
	}
	out, err := r.encode(f.output)
	if err != nil {
		return problem(err)
	}
	_, err = cmd.OutOrStdout().Write(endLine(out))
	return err
}

// endLine ends text that is not empty with a newline, as kubectl and helm
// end their output, so that a shell prompt or the next command's output
// starts on a line of its own. The data source's attributes keep the
// engine's bytes, which end a JSON value without one.
func endLine(b []byte) []byte {
	if len(b) == 0 || b[len(b)-1] == '\n' {
		return b
	}
	return append(b[:len(b):len(b)], '\n') // never into a shared array's next bytes
}

// source reads the template: a file, or standard input for "-".
func (in *inputs) source(eng *engine.Engine, template, baseDir string) (engine.Source, error) {
	if template != "-" {
		src, err := eng.LoadFile(in.ctx, template)
		return src, problem(err)
	}
	text, err := in.readStdin("the template -")
	if err != nil {
		return engine.Source{}, err
	}
	return engine.Source{Text: text, BaseDir: baseDir}, nil
}

// rendered is a render's documents with their YAML stream and manifest IDs,
// computed once as the provider computes them: a render the data source
// would refuse (two documents with one manifest ID, a kind that is not a
// string) fails here too.
type rendered struct {
	docs   []value.Value
	stream []byte
	spans  [][2]int
	ids    []string
}

func newRendered(docs []engine.Document) (*rendered, error) {
	r := &rendered{docs: make([]value.Value, len(docs))}
	origins := make([]engine.Pos, len(docs))
	for i, d := range docs {
		r.docs[i], origins[i] = d.Value, d.Origin
	}
	var err error
	if r.stream, r.spans, err = engine.EncodeYAMLStreamSpans(r.docs); err != nil {
		return nil, err
	}
	if r.ids, err = manifestIDs(r.docs, origins); err != nil {
		return nil, err
	}
	return r, nil
}

// encode is the whole output in format: yaml, json or manifests.
func (r *rendered) encode(format string) ([]byte, error) {
	switch format {
	case "yaml":
		return r.stream, nil
	case "json":
		return engine.EncodeJSONStream(r.docs)
	}
	m := value.NewMap(len(r.ids))
	for i, id := range r.ids {
		if id != "" {
			m.Set(id, r.docs[i])
		}
	}
	return engine.AppendJSON(nil, m, false)
}
