package check

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/google/cel-go/cel"
	celtypes "github.com/google/cel-go/common/types"
	apiservercel "k8s.io/apiserver/pkg/cel"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/celenv"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/hint"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/tree"
)

// Type-checking (CLI guide, `check`): each expression is checked by CEL's
// checker with the variables in scope declared, those a $schema types
// with their types (types.go), the $let bindings with the type of their
// expression, a $for variable with the element type, and every other name
// dyn. Only the errors a render would meet with every value the types
// allow are reported: a field the schema does not declare, an operator or
// function applied to scalars or optionals it has no overload for
// (overload.go), a $for over a scalar or an optional, an $if or $assert
// that gives no bool, a computed $include path that gives no string
// (includepath.go). Anything involving a dyn value, or an object type used
// as the map it is at render time, is not reported.

// typeState is the checker's stack of the types mappings declare.
type typeState struct {
	frames   []map[string]*apiservercel.DeclType
	envs     map[string]typedEnv                               // by the declared names and types (typeKey)
	results  map[string]exprResult                             // exprType's, by the text and the same key
	keys     map[*apiservercel.DeclType]string                 // typeKey's, per type
	ids      map[string]string                                 // a short name per structure (typeKey)
	optInner map[*apiservercel.DeclType]*apiservercel.DeclType // what each optional type holds
}

// typeOf is the declared type of name: the innermost mapping that declares
// it, or dyn.
func (ts *typeState) typeOf(name string) *apiservercel.DeclType {
	for i := len(ts.frames) - 1; i >= 0; i-- {
		if t, ok := ts.frames[i][name]; ok {
			return t
		}
	}
	return apiservercel.DynType
}

// pushTypes declares the types of the names mapping m binds: its
// $schema variables, its $let entries in order, its $for variables; the
// others ($overlay's doc, an edit's item) are dyn. before are the names in
// scope above m, scope those inside it; included are the schemas
// $schema's `{$include: FILE}` entries read. The caller pops the frame.
func (ck *checker) pushTypes(m *mapping, before, scope []string, included map[string]any) {
	t := ck.e.Table()
	frame := map[string]*apiservercel.DeclType{}
	bound := m.names(t)
	for _, name := range bound {
		frame[name] = apiservercel.DynType
	}
	ck.types.frames = append(ck.types.frames, frame)
	var let, forD *tree.Description
	for i := range m.dirs {
		desc := &m.dirs[i]
		d := described(t, desc.Name)
		switch {
		case d.Declares:
			for _, b := range desc.Binds {
				if s, ok := included[b.Name]; ok {
					frame[b.Name] = fileSchemaType(b.Name, s)
					continue
				}
				if b.Value != nil {
					frame[b.Name] = varSchemaType(b.Name, b.Value)
				}
			}
		case d.Exprs == tree.ExprEntries:
			let = desc
		case d.Bound == tree.BindLoop:
			forD = desc
		}
	}
	// A name the mapping binds twice (a $schema entry that a $let entry or
	// the $for variable binds again) is dyn: which binding an expression
	// sees is not worked out here.
	binds := map[string]int{}
	for _, name := range bound {
		binds[name]++
	}
	for name, k := range binds {
		if k > 1 {
			frame[name] = apiservercel.DynType
		}
	}
	if let != nil {
		ck.letTypes(frame, let, before, scope, binds)
	}
	if forD == nil || len(forD.Binds) != 1 || len(forD.Exprs) != 1 {
		return // two names: an index or a key, and the element
	}
	name := forD.Binds[0].Name
	if t, _, _ := ck.exprType(forD.Exprs[0].Text, scope); t != nil && t.IsList() && binds[name] == 1 {
		frame[name] = boundType(t.ElemType)
	}
}

// letTypes types the expression entries of $let, in order, in frame.
func (ck *checker) letTypes(frame map[string]*apiservercel.DeclType, let *tree.Description, before, scope []string, binds map[string]int) {
	exprs, bodies := let.Exprs, let.Bodies // the entries of each kind, in order
	for _, b := range let.Binds {
		if len(bodies) > 0 && bodies[0].Key == b.Node {
			bodies = bodies[1:]
			continue
		}
		if len(exprs) == 0 {
			continue
		}
		x := exprs[0]
		exprs = exprs[1:]
		if slices.Contains(before, b.Name) || binds[b.Name] > 1 {
			continue // shadowing: the entries above read the outer one; dyn is safe
		}
		if t, _, _ := ck.exprType(x.Text, scope); t != nil {
			frame[b.Name] = boundType(t)
		}
	}
}

func (ck *checker) popTypes() { ck.types.frames = ck.types.frames[:len(ck.types.frames)-1] }

// boundType is the type of a value of type t once bound to a name: the
// engine keeps strings, ints, bools, lists, maps with string keys, the
// schema's objects and optionals; a double may become an int, and other
// values change type, so they are dyn.
func boundType(t *apiservercel.DeclType) *apiservercel.DeclType {
	switch {
	case t == apiservercel.StringType || t == apiservercel.IntType || t == apiservercel.BoolType:
		return t
	case t.IsObject() && isTypeName(t.TypeName()):
		return t
	case t.IsList():
		return apiservercel.NewListType(boundType(t.ElemType), -1)
	case t.IsMap() && t.KeyType == apiservercel.StringType:
		return apiservercel.NewMapType(apiservercel.StringType, boundType(t.ElemType), -1)
	case isOptional(t):
		return t // a $let keeps an optional as it is, with a value or none
	}
	return apiservercel.DynType
}

// optionalOf is the optional of inner, for a $let bound to `x.?f`.
func (ts *typeState) optionalOf(inner *apiservercel.DeclType) *apiservercel.DeclType {
	if inner == nil {
		return apiservercel.DynType
	}
	t := apiservercel.NewSimpleTypeWithMinSize("optional_type", cel.OptionalType(inner.CelType()), nil, 0)
	if ts.optInner == nil {
		ts.optInner = map[*apiservercel.DeclType]*apiservercel.DeclType{}
	}
	ts.optInner[t] = inner
	return t
}

// roots adds to out the types of t that the checker's environment must
// declare: t itself when it is or holds an object type, and those an
// optional in it holds.
func (ts *typeState) roots(t *apiservercel.DeclType, out []*apiservercel.DeclType, depth int) []*apiservercel.DeclType {
	if inner, ok := ts.optInner[t]; ok && depth < 64 {
		return ts.roots(inner, out, depth+1)
	}
	if hasObject(t) {
		out = append(out, t)
	}
	if (t.IsList() || t.IsMap()) && depth < 64 {
		return ts.roots(t.ElemType, out, depth+1)
	}
	return out
}

// isOptional reports whether t is an optional's type (optionalOf).
func isOptional(t *apiservercel.DeclType) bool {
	ct := t.CelType()
	return ct.Kind() == celtypes.OpaqueKind && ct.TypeName() == "optional_type"
}

// declTypeOf converts a checker's type back to a declared type, for
// $let and $for; what has no declared type here is dyn.
func (ck *checker) declTypeOf(ct *celtypes.Type, decl map[string]*apiservercel.DeclType) *apiservercel.DeclType {
	if ct == nil {
		return nil
	}
	switch ct.Kind() {
	case celtypes.StringKind:
		return apiservercel.StringType
	case celtypes.IntKind:
		return apiservercel.IntType
	case celtypes.BoolKind:
		return apiservercel.BoolType
	case celtypes.DoubleKind:
		return apiservercel.DoubleType
	case celtypes.ListKind:
		return apiservercel.NewListType(ck.declTypeOf(ct.Parameters()[0], decl), -1)
	case celtypes.MapKind:
		p := ct.Parameters()
		return apiservercel.NewMapType(ck.declTypeOf(p[0], decl), ck.declTypeOf(p[1], decl), -1)
	case celtypes.StructKind:
		if t, ok := decl[ct.TypeName()]; ok {
			return t
		}
	case celtypes.OpaqueKind:
		if ct.TypeName() == "optional_type" && len(ct.Parameters()) == 1 {
			return ck.types.optionalOf(ck.declTypeOf(ct.Parameters()[0], decl))
		}
	}
	return apiservercel.DynType
}

// exprType type-checks text with the names of scope declared, and gives
// its type, as declared and as the checker has it, or the checker's
// errors; nil and no errors when the expression does not compile or reads
// a name out of scope (problems the caller reports). The result is kept
// per text and the types of the names it reads: a $let entry is typed
// where its mapping is entered and again where it is checked, and a
// template repeats the same expression over names of the same types.
func (ck *checker) exprType(text string, scope []string) (*apiservercel.DeclType, *celtypes.Type, []celenv.Error) {
	declared := func(name string) bool { return ck.inScope(name, scope) }
	if name, ok := ck.e.Programs().PlainName(text); ok && declared(name) {
		t := ck.types.typeOf(name) // a name alone has its type
		return t, t.CelType(), nil
	}
	names, ferr := ck.e.Programs().FreeNames(text)
	if ferr != nil {
		return nil, nil, nil
	}
	for _, fn := range names {
		if !declared(fn.Name) {
			return nil, nil, nil
		}
	}
	vars, key := ck.varTypes(names)
	memo := text + "\x00" + key
	if r, ok := ck.types.results[memo]; ok {
		return r.t, r.ct, r.errs
	}
	var r exprResult
	if prog, xerr := ck.e.Programs().Compile(text, declared); xerr == nil {
		if te, err := ck.typedEnv(vars, key); err == nil {
			if r.ct, r.errs = prog.TypeCheck(te.env); r.errs == nil {
				r.t = ck.declTypeOf(r.ct, te.decl)
			} else {
				r.ct = nil
			}
		}
	}
	if ck.types.results == nil {
		ck.types.results = map[string]exprResult{}
	}
	ck.types.results[memo] = r
	return r.t, r.ct, r.errs
}

// exprResult is what exprType gives for one text and key.
type exprResult struct {
	t    *apiservercel.DeclType
	ct   *celtypes.Type
	errs []celenv.Error
}

// typedEnv is an environment that declares names with types, and the
// object types it declares, by name.
type typedEnv struct {
	env  *cel.Env
	decl map[string]*apiservercel.DeclType
}

// varTypes gives the types of names, and a key that two sets of names
// share only when their names and the structure of their types are the
// same.
func (ck *checker) varTypes(names []celenv.FreeName) (map[string]*apiservercel.DeclType, string) {
	vars := make(map[string]*apiservercel.DeclType, len(names))
	var key strings.Builder
	for _, fn := range names {
		t := ck.types.typeOf(fn.Name)
		vars[fn.Name] = t
		key.WriteString(fn.Name)
		key.WriteByte(':')
		key.WriteString(ck.types.typeKey(t, 0))
		key.WriteByte(';')
	}
	return vars, key.String()
}

// typedEnv is the environment with vars declared with their types, built
// once per key (varTypes).
func (ck *checker) typedEnv(vars map[string]*apiservercel.DeclType, key string) (typedEnv, error) {
	if te, ok := ck.types.envs[key]; ok {
		return te, nil
	}
	var roots []*apiservercel.DeclType
	decl := map[string]*apiservercel.DeclType{}
	for _, t := range vars {
		roots = ck.types.roots(t, roots, 0)
	}
	provider := apiservercel.NewDeclTypeProvider(roots...)
	for _, t := range roots {
		for n, ft := range apiservercel.FieldTypeMap(t.TypeName(), t) {
			decl[n] = ft
		}
	}
	env, err := ck.e.Programs().TypedEnv(func(base *cel.Env) ([]cel.EnvOption, error) {
		opts, err := provider.EnvOptions(base.CELTypeProvider())
		if err != nil {
			return nil, err
		}
		for name, t := range vars {
			opts = append(opts, cel.Variable(name, t.CelType()))
		}
		return opts, nil
	})
	if err != nil {
		return typedEnv{}, err
	}
	if ck.types.envs == nil {
		ck.types.envs = map[string]typedEnv{}
	}
	te := typedEnv{env: env, decl: decl}
	ck.types.envs[key] = te
	return te, nil
}

// typeKey names t by its structure: equal for two types only when an
// environment declaring either is the same. Each structure gets a short
// name, so that a key stays short however large the schema. Past a depth
// of 64 a type is told apart by its address.
func (ts *typeState) typeKey(t *apiservercel.DeclType, depth int) string {
	if k, ok := ts.keys[t]; ok {
		return k
	}
	var k string
	switch inner, opt := ts.optInner[t]; {
	case depth > 64:
		k = fmt.Sprintf("%p", t)
	case opt:
		k = "optional(" + ts.typeKey(inner, depth+1) + ")"
	case t.IsList():
		k = "list(" + ts.typeKey(t.ElemType, depth+1) + ")"
	case t.IsMap():
		k = "map(" + ts.typeKey(t.KeyType, depth+1) + "," + ts.typeKey(t.ElemType, depth+1) + ")"
	case t.IsObject():
		var b strings.Builder
		b.WriteString(t.TypeName())
		b.WriteByte('{')
		for _, name := range fieldNames(t) {
			b.WriteString(name)
			b.WriteByte(':')
			b.WriteString(ts.typeKey(t.Fields[name].Type, depth+1))
			b.WriteByte(',')
		}
		b.WriteByte('}')
		k = b.String()
	default:
		k = t.CelType().String()
	}
	if ts.keys == nil {
		ts.keys, ts.ids = map[*apiservercel.DeclType]string{}, map[string]string{}
	}
	id, ok := ts.ids[k]
	if !ok {
		id = "#" + strconv.Itoa(len(ts.ids))
		ts.ids[k] = id
	}
	ts.keys[t] = id
	return id
}

// hasObject reports whether t is or holds an object type.
func hasObject(t *apiservercel.DeclType) bool {
	switch {
	case t.IsObject():
		return true
	case t.IsList():
		return hasObject(t.ElemType)
	case t.IsMap():
		return hasObject(t.ElemType)
	}
	return false
}

// undefinedField matches the checker's error for a field an object type
// does not have.
var undefinedField = regexp.MustCompile(`^undefined field '([^']+)'$`)

// typeCheck reports the type errors of the expression text, which
// compiled with every name declared, for the directive d, whose
// description says which type the expression must give.
func (ck *checker) typeCheck(text string, scope []string, d *tree.Directive, report func(msg string, off int)) {
	_, ct, errs := ck.exprType(text, scope)
	for _, e := range errs {
		if m := undefinedField.FindStringSubmatch(e.Msg); m != nil {
			report(e.Msg+ck.fieldHint(text, e.Offset, m[1]), e.Offset)
			continue
		}
		if msg := overloadProblem(e.Msg); msg != "" { // overload.go
			report(msg, e.Offset)
		}
	}
	if ct == nil {
		return
	}
	name := resultTypeName(ct)
	switch {
	case name == "":
	case d.Must == tree.MustIterable && name != "list" && name != "map":
		report(d.Name+" can only iterate over a list or a map, got "+name, 0)
	case d.Must == tree.MustBool && name != "bool":
		report(d.MustWhat+" must be a bool, got "+name+"; "+hint.NoTruthiness, -1)
	}
}

// resultTypeName names the type of a directive's expression as a render
// names the value's type, or "" when the type is dyn or not one of
// those: a scalar, a list, a map (a schema's object is one), an optional.
func resultTypeName(ct *celtypes.Type) string {
	switch ct.Kind() {
	case celtypes.StringKind:
		return "string"
	case celtypes.IntKind:
		return "int"
	case celtypes.BoolKind:
		return "bool"
	case celtypes.DoubleKind:
		return "double"
	case celtypes.ListKind:
		return "list"
	case celtypes.MapKind:
		return "map"
	case celtypes.StructKind:
		if isTypeName(ct.TypeName()) {
			return "map"
		}
	case celtypes.OpaqueKind:
		if ct.TypeName() == "optional_type" {
			return "optional_type"
		}
	}
	return ""
}

// fieldHint suggests the field of the schema closest to field, the one
// the selection at off in text misspells: the operand must be a chain of
// fields on a typed variable.
func (ck *checker) fieldHint(text string, off int, field string) string {
	if off < 0 || off > len(text) {
		return ""
	}
	chain := selectChain.FindString(reverse(strings.TrimRight(text[:off], " \t\n")))
	if chain == "" {
		return ""
	}
	parts := strings.Split(reverse(chain), ".")
	for i := range parts {
		parts[i] = strings.TrimSpace(strings.TrimPrefix(parts[i], "?"))
	}
	t := pathType(ck.types.typeOf(parts[0]), parts[1:])
	if t == nil || !t.IsObject() {
		return ""
	}
	if s := hint.Nearest(field, fieldNames(t), hint.TypoLimit(field), true); s != "" {
		return "; did you mean " + s + "?"
	}
	return ""
}

// selectChain matches, reversed, the chain of names before the dot of a
// field (the checker places a selection at its dot).
var selectChain = regexp.MustCompile(`^[A-Za-z0-9_]+(?:\s*\??\.\s*[A-Za-z0-9_]+)*`)

func reverse(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}
