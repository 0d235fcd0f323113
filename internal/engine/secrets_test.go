package engine

// Secrets (reference §6): error text never prints the value of a
// variable. These tests pass distinctive secrets in the variables, trigger
// every kind of error with them, and scan the error text.
//
// Two places print a variable's value on purpose, and are documented in
// docs/guides/security.md:
//   - a $msg that interpolates it (the template author asked for it);
//   - the resolved path of an $include that cannot be read, when the path
//     was built from a variable ("envs/${{ env }}.yaml"): the path is what
//     the author needs to see to fix the error.

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/celyaml/terraform-provider-celyaml/internal/engine/emit"
	"github.com/celyaml/terraform-provider-celyaml/internal/engine/value"
)

const (
	secretText   = "s3cr3t-ZQX-hunter2"
	secretRegex  = "s3cr3t(ZQX-unclosed"
	secretNumber = int64(777123456789)
	secretDouble = 7.77123456789e+300
)

// secretMarkers are substrings that only a leaked secret can produce.
var secretMarkers = []string{"s3cr3t", "ZQX", "hunter2", "777123456789", "7.77123456789", "77123456789"}

func secretVars() map[string]value.Value {
	m := value.NewMap(2)
	m.Set("k1", secretText)
	m.Set("k2", secretText)
	keyed := value.NewMap(1)
	keyed.Set(secretText, int64(1))
	return map[string]value.Value{
		"secret":       secretText,
		"secret_regex": secretRegex,
		"secret_num":   secretNumber,
		"secret_dbl":   secretDouble,
		"secret_map":   m,     // two entries with the same secret value
		"secret_keyed": keyed, // the secret as a key
		"secret_list":  []value.Value{secretText},
	}
}

func renderSecretCase(t *testing.T, tpl string, opts Options) error {
	t.Helper()
	if opts.Loader == nil {
		opts.Loader = FSLoader{FS: fstest.MapFS{"present.yaml": &fstest.MapFile{Data: []byte("a: 1\n")}}}
	}
	e := New(opts)
	var docs []value.Value
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("engine panicked: %v", r)
			}
		}()
		docs, err = e.Render(context.Background(), Source{Text: []byte(tpl)}, secretVars())
	}()
	if err == nil {
		out, _ := emit.EncodeYAMLStream(docs)
		t.Fatalf("rendered, want an error:\n%s", out)
	}
	var ee *Error
	if !errors.As(err, &ee) {
		t.Fatalf("error is %T, want *Error: %v", err, err)
	}
	return err
}

func leakedMarker(text string) string {
	for _, m := range secretMarkers {
		if strings.Contains(text, m) {
			return m
		}
	}
	return ""
}

func TestSecrets_errorsNeverPrintVariableValues(t *testing.T) {
	cases := []struct {
		name string
		tpl  string
		opts Options
	}{
		// CEL evaluation errors whose standard text would echo a value.
		{"no such key, secret as key", `v: {$eval: "${{ {'a': 1}[secret] }}"}`, Options{}},
		{"no such key, secret number as key", `v: {$eval: "${{ {'a': 1}[secret_num] }}"}`, Options{}},
		{"no such key in a map with secret keys", `v: {$eval: "${{ secret_keyed['other'] }}"}`, Options{}},
		{"no such key, key built from secret", `v: {$eval: "${{ secret_map[secret + '-x'] }}"}`, Options{}},
		{"list index from secret", `v: {$eval: "${{ [1, 2][secret_num] }}"}`, Options{}},
		{"list index out of range", `v: {$eval: "${{ secret_list[5] }}"}`, Options{}},
		{"int() of a secret string", `v: {$eval: "${{ int(secret) }}"}`, Options{}},
		{"uint() of a negative secret", `v: {$eval: "${{ uint(-secret_num) }}"}`, Options{}},
		{"double() of a secret string", `v: {$eval: "${{ double(secret) }}"}`, Options{}},
		{"bool() of a secret string", `v: {$eval: "${{ bool(secret) }}"}`, Options{}},
		{"int() of a huge secret double", `v: {$eval: "${{ int(secret_dbl) }}"}`, Options{}},
		{"duration() of a secret", `v: {$eval: "${{ duration(secret) }}"}`, Options{}},
		{"timestamp() of a secret", `v: {$eval: "${{ timestamp(secret) }}"}`, Options{}},
		{"integer overflow", `v: {$eval: "${{ secret_num * 9223372036854775807 }}"}`, Options{}},
		{"division by zero", `v: {$eval: "${{ secret_num / 0 }}"}`, Options{}},
		{"no matching overload", `v: {$eval: "${{ secret + 1 }}"}`, Options{}},
		{"invalid regex from a secret", `v: {$eval: "${{ 'x'.matches(secret_regex) }}"}`, Options{}},
		{"invalid regex, secret as input", `v: {$eval: "${{ secret.matches('(') }}"}`, Options{}},
		{"format() with a secret", `v: {$eval: "${{ '%d'.format([secret]) }}"}`, Options{}},
		{"substring out of range", `v: {$eval: "${{ secret.substring(1000) }}"}`, Options{}},
		{"json.decode of a secret", `v: {$eval: "${{ json.decode(secret) }}"}`, Options{}},
		{"yaml.decode of a secret", `v: {$eval: "${{ yaml.decode(secret + ': [') }}"}`, Options{}},
		{"base64.decode of a secret", `v: {$eval: "${{ base64.decode(secret) }}"}`, Options{}},
		{"quantity() of a secret", `v: {$eval: "${{ quantity(secret) }}"}`, Options{}},
		{"url() of a secret", `v: {$eval: "${{ url(secret) }}"}`, Options{}},
		{"ip() of a secret", `v: {$eval: "${{ ip(secret) }}"}`, Options{}},
		{"cidr() of a secret", `v: {$eval: "${{ cidr(secret) }}"}`, Options{}},
		{"semver() of a secret", `v: {$eval: "${{ semver(secret) }}"}`, Options{}},
		{"field of a string", `v: {$eval: "${{ secret_map.k1.field }}"}`, Options{}},
		{"optional none value", `v: {$eval: "${{ secret_keyed[?'nope'].value() }}"}`, Options{}},
		{"cost limit", `v: {$eval: "${{ secret_list.map(x, lists.range(1000).map(i, x + x)) }}"}`, Options{MaxCostPerExpression: 1000}},
		{"output size limit", `v: {$eval: "${{ secret + secret + secret }}"}`, Options{MaxOutputBytes: 10}},
		{"mixed eval size limit", `v: {$eval: "a ${{ secret }} b ${{ secret }}"}`, Options{MaxOutputBytes: 10}},

		// Directive errors.
		{"$assert without $msg", `{$assert: "secret == 'other'", a: 1}`, Options{}},
		{"$assert list without $msg", `{$assert: ["true", "secret_num < 0"], a: 1}`, Options{}},
		{"$assert not a bool", `{$assert: "secret", a: 1}`, Options{}},
		{"$if not a bool", `{$if: "secret", $then: 1}`, Options{}},
		{"$if on a number", `{$if: "secret_num", $then: 1}`, Options{}},
		{"$for over a string", `v: [{$for: "x in secret", $do: 1}]`, Options{}},
		{"$for over a number", `v: [{$for: "x in secret_num", $do: 1}]`, Options{}},
		{"$key not a string", `v: {$key: {$eval: "${{ secret_list }}"}, $value: 1}`, Options{}},
		{"$key from a map", `v: {$key: {$eval: "${{ secret_map }}"}, $value: 1}`, Options{}},
		{"key produced twice by $for", `v: {$for: "k, x in secret_map", $do: {$key: {$eval: "${{ x }}"}, $value: 1}}`, Options{}},
		{"key produced by two producers", "v:\n  $key: {$eval: \"${{ secret_map.k1 }}\"}\n  $value: 1\n  $eval: \"${{ {secret: 2} }}\"\n", Options{}},
		{"merge producer gives a secret string", `v: {a: 1, $eval: "${{ secret }}"}`, Options{}},
		{"$include path not a string", `v: {$include: {$eval: "${{ secret_num }}"}}`, Options{}},
		{"value position $for gives a secret", `v: {$for: "x in secret_list", $do: {$eval: "${{ x }}"}}`, Options{}},
		{"stream $for gives a list", `{$for: "x in secret_list", $do: [1]}`, Options{}},

		// $schema failures. A key of a variable is its structure, not a
		// value, and is named (TestSecrets_schemaFailuresNameKeys); a
		// render marked sensitive (HideKeys) hides it too.
		{"$schema enum", `{$schema: {secret: {enum: [a, b]}}, a: 1}`, Options{}},
		{"$schema pattern", `{$schema: {secret: {pattern: "^[0-9]+$"}}, a: 1}`, Options{}},
		{"$schema const", `{$schema: {secret: {const: x}}, a: 1}`, Options{}},
		{"$schema format", `{$schema: {secret: {format: email}}, a: 1}`, Options{}},
		{"$schema type", `{$schema: {secret: integer}, a: 1}`, Options{}},
		{"$schema maximum", `{$schema: {secret_num: {maximum: 10}}, a: 1}`, Options{}},
		{"$schema maxLength", `{$schema: {secret: {maxLength: 3}}, a: 1}`, Options{}},
		{"$schema nested", `{$schema: {secret_map: {additionalProperties: {enum: [x]}}}, a: 1}`, Options{}},
		{"$schema items", `{$schema: {secret_list: {items: {const: y}}}, a: 1}`, Options{}},
		{"$schema additionalProperties false, secret key", `{$schema: {secret_keyed: {additionalProperties: false}}, a: 1}`, Options{HideKeys: true}},
		{"$schema propertyNames, secret key", `{$schema: {secret_keyed: {propertyNames: {maxLength: 2}}}, a: 1}`, Options{HideKeys: true}},
		{"$schema type under a secret key", `{$schema: {secret_keyed: {additionalProperties: {type: string}}}, a: 1}`, Options{HideKeys: true}},
		{"$schema required under a secret key", `{$schema: {secret_keyed: {additionalProperties: {type: object, required: [x]}}}, a: 1}`, Options{HideKeys: true}},

		// A map literal whose computed keys repeat.
		{"map literal repeats a secret key", `v: {$eval: "${{ {secret: 1, secret_map.k1: 2} }}"}`, Options{}},
		{"format string from a secret", `v: {$eval: "${{ (secret + '%q').format([1]) }}"}`, Options{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := renderSecretCase(t, c.tpl, c.opts)
			t.Log(err)
			if m := leakedMarker(err.Error()); m != "" {
				t.Errorf("error text carries the secret (%q):\n%s", m, err)
			}
		})
	}
}

// TestSecrets_schemaFailuresNameKeys: a $schema failure names every key
// of the variable's path, the variable's structure, and never a value
// (reference §6); with HideKeys, what the data source's sensitive = true
// sets, a key its schema does not name is written […].
func TestSecrets_schemaFailuresNameKeys(t *testing.T) {
	tpl := `{$schema: {secret_keyed: {additionalProperties: {type: object, required: [x]}}}, a: 1}`
	for _, c := range []struct {
		opts Options
		want string
	}{
		{Options{}, "<inline>:1:12: $schema: the variables do not match the schema: secret_keyed.s3cr3t-ZQX-hunter2: expected object, got integer"},
		{Options{HideKeys: true}, "<inline>:1:12: $schema: the variables do not match the schema: secret_keyed[…]: expected object, got integer"},
	} {
		if got := renderSecretCase(t, tpl, c.opts).Error(); got != c.want {
			t.Errorf("HideKeys=%v:\n got: %s\nwant: %s", c.opts.HideKeys, got, c.want)
		}
	}
}

// TestSecrets_msgInterpolatesOnPurpose is the one exception the language
// makes: a $msg that interpolates a value shows it.
func TestSecrets_msgInterpolatesOnPurpose(t *testing.T) {
	err := renderSecretCase(t, `{$assert: "secret == 'other'", $msg: "got ${{ secret }}", a: 1}`, Options{})
	want := "<inline>:1:11: $assert: got " + secretText
	if got := err.Error(); !strings.HasPrefix(got, want) {
		t.Errorf("got %q, want it to start with %q", got, want)
	}
	// A $msg that does not interpolate it shows no value.
	err = renderSecretCase(t, `{$assert: "secret == 'other'", $msg: "the secret is wrong", a: 1}`, Options{})
	if m := leakedMarker(err.Error()); m != "" {
		t.Errorf("error text carries the secret (%q):\n%s", m, err)
	}
}

// TestSecrets_includePathBuiltFromAVariableIsShown documents the second
// exception: a missing include's resolved path is printed, even when it was
// built from a variable.
func TestSecrets_includePathBuiltFromAVariableIsShown(t *testing.T) {
	err := renderSecretCase(t, `v: {$include: {$eval: "envs/${{ secret }}.yaml"}}`, Options{})
	want := `<inline>:1:15: v.$include: cannot read included file "envs/` + secretText + `.yaml": file does not exist`
	if got := err.Error(); got != want {
		t.Errorf("\n got: %s\nwant: %s", got, want)
	}
}

// TestSecrets_evalErrorsNeverPrintValues covers Engine.Eval, which the
// provider's functions call.
func TestSecrets_evalErrorsNeverPrintValues(t *testing.T) {
	e := New(Options{})
	for _, expr := range []string{
		"{'a': 1}[secret]",
		"int(secret)",
		"[1][secret_num]",
		"secret_keyed['x']",
		"'x'.matches(secret_regex)",
		"json.decode(secret)",
	} {
		_, err := e.Eval(context.Background(), expr, secretVars())
		if err == nil {
			t.Errorf("%s: no error", expr)
			continue
		}
		if m := leakedMarker(err.Error()); m != "" {
			t.Errorf("%s: error text carries the secret (%q):\n%s", expr, m, err)
		}
	}
}

// TestSecrets_manifestIDsShownWholeUnlessHidden: an error about a document
// names it by its whole manifest ID, a name that a variable gives included
// (reference §6), as the API server names an object it refuses; with
// HideKeys (the data source's sensitive = true) a part the templates do not
// write is "…". The Secret's data, a value, is never shown.
func TestSecrets_manifestIDsShownWholeUnlessHidden(t *testing.T) {
	tpl := `kind: Secret
metadata:
  name: {$eval: "${{ name }}"}
stringData:
  password: {$eval: "${{ secret }}"}
---
$overlay: "true"
data:
  port: {$eval: "${{ doc.data.port }}"}
`
	vars := map[string]value.Value{"name": "db-credentials", "secret": secretText}
	const msg = "<inline>:9:17: data.port.$eval: no such key 'data'; test for it with has(doc.data), or give a default with doc.?data.orValue(…)\n" +
		"  | ${{ doc.data.port }}\n  | .......^\n  while editing document 1 "
	for _, c := range []struct {
		opts Options
		want string
	}{
		{Options{}, msg + "(_/Secret/_/db-credentials)"},
		{Options{HideKeys: true}, msg + "(_/Secret/_/…)"},
	} {
		_, err := New(c.opts).Render(context.Background(), Source{Text: []byte(tpl)}, vars)
		if err == nil {
			t.Fatalf("HideKeys=%v: rendered, want an error", c.opts.HideKeys)
		}
		if got := err.Error(); got != c.want {
			t.Errorf("HideKeys=%v:\n got: %s\nwant: %s", c.opts.HideKeys, got, c.want)
		}
	}
}
