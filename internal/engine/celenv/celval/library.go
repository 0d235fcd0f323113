package celval

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// The helper library: the functions a template can call besides CEL's own
// and Kubernetes' libraries, declared as one CEL library.

// Helpers declares json.encode/decode, yaml.encode/decode and
// sha256. A qualified name such as json.encode is declared literally;
// CEL resolves `json.encode(x)` to it.
func Helpers() cel.EnvOption {
	return cel.Lib(helperLib{})
}

type helperLib struct{}

func (helperLib) LibraryName() string { return "celyaml.helpers" }

func (helperLib) CompileOptions() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Function("json.encode",
			cel.Overload("celyaml_json_encode_dyn", []*cel.Type{cel.DynType}, cel.StringType,
				cel.UnaryBinding(jsonEncodeFn))),
		cel.Function("json.decode",
			cel.Overload("celyaml_json_decode_string", []*cel.Type{cel.StringType}, cel.DynType,
				cel.UnaryBinding(jsonDecodeFn))),
		cel.Function("yaml.encode",
			cel.Overload("celyaml_yaml_encode_dyn", []*cel.Type{cel.DynType}, cel.StringType,
				cel.UnaryBinding(yamlEncodeFn))),
		cel.Function("yaml.decode",
			cel.Overload("celyaml_yaml_decode_string", []*cel.Type{cel.StringType}, cel.DynType,
				cel.UnaryBinding(yamlDecodeFn))),
		cel.Function("deepMerge",
			cel.Overload("celyaml_deep_merge_dyn_dyn", []*cel.Type{cel.DynType, cel.DynType}, cel.DynType,
				cel.BinaryBinding(deepMergeFn))),
		cel.Function("sha256",
			cel.Overload("celyaml_sha256_string", []*cel.Type{cel.StringType}, cel.StringType,
				cel.UnaryBinding(sha256Fn)),
			cel.Overload("celyaml_sha256_bytes", []*cel.Type{cel.BytesType}, cel.StringType,
				cel.UnaryBinding(sha256Fn))),
		truthyFunction(),
	}
}

func (helperLib) ProgramOptions() []cel.ProgramOption { return nil }

func sha256Fn(v ref.Val) ref.Val {
	var sum [sha256.Size]byte
	switch v := v.(type) {
	case types.String:
		sum = sha256.Sum256([]byte(v))
	case types.Bytes:
		sum = sha256.Sum256([]byte(v))
	default:
		return types.NewErr("no such overload: sha256(%s)", v.Type().TypeName())
	}
	return types.String(hex.EncodeToString(sum[:]))
}
