package cli

import (
	"bytes"
	"errors"
	"io"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/yamlnode"
)

// post-render: the upstream documents come on standard input (what Helm
// renders, and pipes to a post-renderer), and a template's overlays and
// transforms edit them as they edit the documents of a stream-position
// $include (reference §8, §10; engine.RenderOver). The flags are render's
// but --base-dir: FILE is a file, since standard input is the stream.

// stdinName is what positions in the upstream stream call standard input.
const stdinName = "<stdin>"

func newPostRenderCommand(in *inputs) *cobra.Command {
	var f renderFlags
	cmd := &cobra.Command{
		Use:   "post-render FILE",
		Short: "Apply a template's overlays and transforms to a YAML stream on standard input",
		Long: `Read a YAML stream on standard input as the upstream documents (what
helm template or a Helm post-renderer hands over), apply the overlays
($overlay) and transforms ($transform) of the template FILE to them, add
FILE's other documents after them, validate with --schemas when given, and
print the stream as render prints it:

  helm template web ./chart | celyaml post-render overlays.yaml | kubectl apply -f -

It is a Helm post-renderer: Helm 4 runs it through a plugin of type
postrenderer/v1 (helm template --post-renderer celyaml
--post-renderer-args FILE), and terraform-provider-helm's postrender block
runs it as binary_path "celyaml" with args ["post-render", "FILE"].

An overlay's error names the upstream document it was editing by its
place in the stream and its manifest ID. Values and the other flags are
render's.`,
		Example: `  celyaml post-render overlays.yaml < rendered.yaml
  celyaml post-render overlays.yaml -n apps --schemas crds/ < rendered.yaml
  celyaml post-render overlays.yaml -o manifests < rendered.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] == "-" {
				return errors.New("post-render reads the upstream stream on standard input; FILE must be a file, not -")
			}
			return renderWith(cmd, in, f, args[0], in.upstream)
		},
	}
	f.register(cmd, in)
	return cmd
}

// upstream reads the upstream stream from standard input.
func (in *inputs) upstream() ([]engine.Document, error) {
	text, err := in.readStdin("the upstream stream (post-render)")
	if err != nil {
		return nil, err
	}
	return parseUpstream(stdinName, text)
}

// parseUpstream reads a YAML stream of Kubernetes objects, as Helm writes
// one: documents separated by "---", comments (Helm's "# Source:" lines)
// ignored, empty documents dropped. Each document must be a mapping; its
// Origin is where it starts in the stream, so that a duplicate manifest ID
// points at both. Errors are positioned in name.
func parseUpstream(name string, text []byte) ([]engine.Document, error) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var docs []engine.Document
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			if errors.Is(err, io.EOF) {
				return docs, nil
			}
			return nil, problem(engine.YAMLError(name, err, text))
		}
		if len(doc.Content) == 0 {
			continue // a document of comments only
		}
		root := doc.Content[0]
		at := engine.Pos{File: name, Line: root.Line, Column: root.Column}
		v, yerr := yamlnode.Plain(&doc)
		if yerr != nil {
			return nil, problem(&engine.Error{Pos: engine.Pos{File: name, Line: yerr.Node.Line, Column: yerr.Node.Column}, Offset: -1, Msg: yerr.Msg})
		}
		switch v.(type) {
		case nil:
			continue // "---" with null, or nothing, after it: Helm's empty templates
		case *value.Map:
			docs = append(docs, engine.Document{Value: v, Origin: at})
		default:
			return nil, problem(&engine.Error{Pos: at, Offset: -1,
				Msg: "an upstream document must be a mapping (a Kubernetes object); this one is " + yamlnode.AKind(root)})
		}
	}
}
