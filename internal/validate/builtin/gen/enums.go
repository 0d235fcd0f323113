package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// The OpenAPI documents k8s.io/kubernetes publishes in api/openapi-spec/v3
// leave out the enums of its string types (a container's imagePullPolicy,
// a Service's type), which the API server serves (its OpenAPIEnums
// feature, on by default): they are in the OpenAPI definitions the module
// generates in Go, pkg/generated/openapi/zz_generated.openapi.go, which
// the server serves from. enumsOf reads them there, without compiling
// anything: per component schema name, the path of each schema holding an
// enum and its values. The test against a real API server checks that the
// documents, enums included, are what it serves.

// enumAt is one enum of a component schema: the keywords and property
// names leading to the schema that holds it ("properties", "type"), and
// its values.
type enumAt struct {
	path   []string
	values []any
}

// enumsOf reads the enums of every definition of a zz_generated.openapi.go
// file, by OpenAPI component name (io.k8s.api.core.v1.Container).
func enumsOf(file string) (map[string][]enumAt, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	imports := map[string]string{}
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			return nil, err
		}
		alias := p[strings.LastIndex(p, "/")+1:]
		if im.Name != nil {
			alias = im.Name.Name
		}
		imports[alias] = p
	}
	names, err := definitionNames(f, imports)
	if err != nil {
		return nil, err
	}
	out := map[string][]enumAt{}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || names[fn.Name.Name] == "" {
			continue
		}
		var enums []enumAt
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			kv, ok := n.(*ast.KeyValueExpr)
			if !ok || ident(kv.Key) != "Schema" {
				return true
			}
			if lit := compositeOf(kv.Value); lit != nil {
				enums = append(enums, schemaEnums(lit, nil)...)
			}
			return false
		})
		if len(enums) > 0 {
			out[names[fn.Name.Name]] = enums
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no enums found")
	}
	return out, nil
}

// definitionNames maps each schema_... function of GetOpenAPIDefinitions
// to the OpenAPI name of its type: corev1.Container{}.OpenAPIModelName()
// with corev1 "k8s.io/api/core/v1" is io.k8s.api.core.v1.Container.
func definitionNames(f *ast.File, imports map[string]string) (map[string]string, error) {
	out := map[string]string{}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "GetOpenAPIDefinitions" {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			kv, ok := n.(*ast.KeyValueExpr)
			if !ok {
				return true
			}
			call, ok := kv.Value.(*ast.CallExpr)
			if !ok {
				return true
			}
			if name := modelName(kv.Key, imports); name != "" {
				out[ident(call.Fun)] = name
			}
			return false
		})
	}
	if len(out) == 0 {
		return nil, errors.New("no GetOpenAPIDefinitions with X{}.OpenAPIModelName() keys")
	}
	return out, nil
}

// modelName reads pkg.Type{}.OpenAPIModelName() as the OpenAPI name
// kube-openapi gives the type: the import path with its domain reversed,
// dots for slashes, then the type.
func modelName(key ast.Expr, imports map[string]string) string {
	call, ok := key.(*ast.CallExpr)
	if !ok {
		return ""
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "OpenAPIModelName" {
		return ""
	}
	lit, ok := sel.X.(*ast.CompositeLit)
	if !ok {
		return ""
	}
	typ, ok := lit.Type.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	path := imports[ident(typ.X)]
	if path == "" {
		return ""
	}
	segs := strings.Split(path, "/")
	domain := strings.Split(segs[0], ".")
	for i, j := 0, len(domain)-1; i < j; i, j = i+1, j-1 {
		domain[i], domain[j] = domain[j], domain[i]
	}
	return strings.Join(append([]string{strings.Join(domain, ".")}, segs[1:]...), ".") + "." + typ.Sel.Name
}

// schemaEnums reads a spec.Schema literal's enums, and those of the schemas
// it holds: its properties, items and additionalProperties.
func schemaEnums(schema *ast.CompositeLit, path []string) []enumAt {
	var out []enumAt
	for _, e := range schema.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok || ident(kv.Key) != "SchemaProps" {
			continue
		}
		props := compositeOf(kv.Value)
		if props == nil {
			continue
		}
		for _, pe := range props.Elts {
			pkv, ok := pe.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			switch ident(pkv.Key) {
			case "Enum":
				if lit := compositeOf(pkv.Value); lit != nil {
					var values []any
					for _, v := range lit.Elts {
						if s, ok := stringLit(v); ok {
							values = append(values, s)
						}
					}
					out = append(out, enumAt{path: append([]string(nil), path...), values: values})
				}
			case "Properties":
				if lit := compositeOf(pkv.Value); lit != nil {
					for _, p := range lit.Elts {
						pk, ok := p.(*ast.KeyValueExpr)
						if !ok {
							continue
						}
						name, ok := stringLit(pk.Key)
						sub := compositeOf(pk.Value)
						if ok && sub != nil {
							out = append(out, schemaEnums(sub, append(append([]string(nil), path...), "properties", name))...)
						}
					}
				}
			case "Items":
				if sub := innerSchema(pkv.Value); sub != nil {
					out = append(out, schemaEnums(sub, append(append([]string(nil), path...), "items"))...)
				}
			case "AdditionalProperties":
				if sub := innerSchema(pkv.Value); sub != nil {
					out = append(out, schemaEnums(sub, append(append([]string(nil), path...), "additionalProperties"))...)
				}
			}
		}
	}
	return out
}

// innerSchema reads &spec.SchemaOrArray{Schema: &spec.Schema{...}} (or
// SchemaOrBool) as the spec.Schema literal.
func innerSchema(v ast.Expr) *ast.CompositeLit {
	wrapper := compositeOf(v)
	if wrapper == nil {
		return nil
	}
	for _, e := range wrapper.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok && ident(kv.Key) == "Schema" {
			return compositeOf(kv.Value)
		}
	}
	return nil
}

func compositeOf(v ast.Expr) *ast.CompositeLit {
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		v = u.X
	}
	lit, _ := v.(*ast.CompositeLit)
	return lit
}

func ident(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func stringLit(e ast.Expr) (string, bool) {
	b, ok := e.(*ast.BasicLit)
	if !ok || b.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(b.Value)
	return s, err == nil
}

// addEnums writes the enums into a document's component schemas; a
// component the definitions know and whose schema has no such path is an
// error (the two sources disagree).
func addEnums(gv string, components map[string]any, enums map[string][]enumAt) error {
	names := make([]string, 0, len(components))
	for n := range components {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, e := range enums[n] {
			at := components[n]
			for _, k := range e.path {
				m, _ := at.(map[string]any)
				at = m[k]
			}
			target, ok := at.(map[string]any)
			if !ok {
				return fmt.Errorf("%s: components.schemas[%s]: no schema at %s for the enum the Go definitions give", gv, n, strings.Join(e.path, "."))
			}
			target["enum"] = e.values
		}
	}
	return nil
}
