package gen

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/wire"
	"github.com/toolgen/toolgen/spec"
)

// allSpecs loads every spec the generator's tests use.
func allSpecs(t *testing.T) []*spec.File {
	var out []*spec.File
	for _, c := range goldenCases {
		out = append(out, loadSpec(t, filepath.Join("testdata", "golden", c, c+".tools.yaml")))
	}
	return append(out, loadSpec(t, filepath.Join(genfixtureDir, "fixture.tools.yaml")))
}

// TestSchemaLiterals checks every emitted schema: valid JSON, canonical
// (re-encoding with sorted keys gives the same bytes), no $ref, and the
// model's constraints survive the round trip.
func TestSchemaLiterals(t *testing.T) {
	for _, f := range allSpecs(t) {
		for _, tool := range f.Tools {
			schemas := map[string]*spec.Schema{"params": tool.Params}
			if tool.Result != nil {
				schemas["result"] = tool.Result
			}
			for which, s := range schemas {
				name := tool.Name + " " + which
				b, err := SchemaJSON(s)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if !json.Valid(b) {
					t.Fatalf("%s: invalid JSON %s", name, b)
				}
				dec := json.NewDecoder(bytes.NewReader(b))
				dec.UseNumber()
				var v any
				if err := dec.Decode(&v); err != nil {
					t.Fatal(err)
				}
				again, err := canonicalJSON(v)
				if err != nil || !bytes.Equal(again, b) {
					t.Errorf("%s: not canonical:\n%s\n%s", name, b, again)
				}
				// Only recursive types are referred to, by $ref into $defs.
				defs, _ := v.(map[string]any)["$defs"].(map[string]any)
				if bytes.Contains(b, []byte(`"$ref"`)) && len(defs) == 0 {
					t.Errorf("%s: contains $ref but no $defs", name)
				}
				for dn := range defs {
					if nt := typeNamed(f, dn); nt == nil || !nt.Recursive {
						t.Errorf("%s: $defs holds %s, which is not a recursive type", name, dn)
					}
				}
				var compact bytes.Buffer
				if err := json.Compact(&compact, b); err != nil || !bytes.Equal(compact.Bytes(), b) {
					t.Errorf("%s: not compact: %s", name, b)
				}
				compareSchema(t, name, "$", s, v.(map[string]any), &literalDefs{defs: defs, seen: map[string]bool{}})
			}
			// The literal in the generated code is this JSON.
			code, err := Code(f)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := SchemaJSON(tool.Params)
			if !bytes.Contains(code, append(append([]byte("Schema = `"), b...), '`')) {
				t.Errorf("%s: generated code lacks the schema literal %s", tool.Name, b)
			}
		}
	}
}

// literalDefs are the $defs of a literal being compared; seen holds the
// ones compared already (a recursive type is compared once).
type literalDefs struct {
	defs map[string]any
	seen map[string]bool
}

func typeNamed(f *spec.File, name string) *spec.NamedType {
	for _, nt := range f.Types {
		if nt.Name == name {
			return nt
		}
	}
	return nil
}

// compareSchema checks that the JSON schema js says what the model s says;
// a reference to a recursive type is compared with its $defs entry, once.
func compareSchema(t *testing.T, tool, path string, s *spec.Schema, js map[string]any, ld *literalDefs) {
	t.Helper()
	if nt := recursiveRef(s); nt != nil && path != "$" {
		site := js
		nullable := false
		if alts, ok := js["anyOf"].([]any); ok && len(alts) == 2 {
			site, _ = alts[0].(map[string]any)
			nullable = true
			if !reflect.DeepEqual(alts[1], map[string]any{"type": "null"}) {
				t.Errorf("%s %s: the nullable reference's second alternative is %v", tool, path, alts[1])
			}
		}
		if want := "#/$defs/" + nt.Name; site["$ref"] != want {
			t.Errorf("%s %s: $ref is %v, want %s", tool, path, site["$ref"], want)
			return
		}
		if nullable != (s.Nullable && !nt.Schema.Nullable) {
			t.Errorf("%s %s: the reference is nullable: %v, want %v", tool, path, nullable, s.Nullable)
		}
		if got, _ := js["description"].(string); got != s.Description {
			t.Errorf("%s %s: description %q, want %q", tool, path, got, s.Description)
		}
		if ld.seen[nt.Name] {
			return
		}
		ld.seen[nt.Name] = true
		def, _ := ld.defs[nt.Name].(map[string]any)
		compareSchema(t, tool, "$defs."+nt.Name, nt.Schema, def, ld)
		return
	}
	r := s.Resolved()
	fail := func(what string, got, want any) {
		t.Errorf("%s %s: %s is %v, want %v", tool, path, what, got, want)
	}
	nullable := s.Nullable || r.Nullable
	if r.Union != nil {
		alts, _ := js[string(r.Union.Kind)].([]any)
		want := len(r.Union.Alts)
		if nullable {
			want++
			if len(alts) > 0 && !reflect.DeepEqual(alts[len(alts)-1], map[string]any{"type": "null"}) {
				fail("last alternative", alts[len(alts)-1], `{"type":"null"}`)
			}
		}
		if len(alts) != want {
			fail(string(r.Union.Kind), alts, want)
			return
		}
		if _, ok := js["discriminator"]; ok {
			fail("discriminator", js["discriminator"], nil)
		}
		for i, a := range r.Union.Alts {
			compareSchema(t, tool, path+"|"+strconv.Itoa(i), a, alts[i].(map[string]any), ld)
		}
		return
	}
	wantType := any(string(r.Type))
	if nullable {
		wantType = []any{string(r.Type), "null"}
	}
	if !reflect.DeepEqual(js["type"], wantType) {
		fail("type", js["type"], wantType)
	}
	num := func(key string, want *wire.Decimal) {
		got, ok := js[key]
		switch {
		case want == nil && ok:
			fail(key, got, nil)
		case want != nil:
			// Digit for digit, not merely the same float64.
			if n, _ := got.(json.Number); string(n) != want.String() {
				fail(key, got, want.String())
			}
		}
	}
	count := func(key string, want *int) {
		if want == nil {
			num(key, nil)
			return
		}
		num(key, wire.Dec(strconv.Itoa(*want)))
	}
	count("minLength", r.MinLength)
	count("maxLength", r.MaxLength)
	count("minItems", r.MinItems)
	count("maxItems", r.MaxItems)
	num("minimum", r.Minimum)
	num("maximum", r.Maximum)
	num("exclusiveMinimum", r.ExclusiveMinimum)
	num("exclusiveMaximum", r.ExclusiveMaximum)
	num("multipleOf", r.MultipleOf)
	str := func(key, want string) {
		got, _ := js[key].(string)
		if got != want {
			fail(key, got, want)
		}
	}
	str("pattern", r.Pattern)
	str("format", r.Format)
	if got, ok := js["trim"]; ok {
		fail("trim (toolgen's own key, never sent to the model)", got, "absent")
	}
	desc := s.Description
	if desc == "" {
		desc = r.Description
	}
	str("description", desc)
	if got, _ := js["uniqueItems"].(bool); got != r.UniqueItems {
		fail("uniqueItems", got, r.UniqueItems)
	}
	if len(r.Enum) > 0 {
		enum, _ := js["enum"].([]any)
		want := len(r.Enum)
		if nullable {
			want++
		}
		if len(enum) != want {
			fail("enum", enum, r.Enum)
		}
		for i, e := range r.Enum {
			if i < len(enum) && stringOf(enum[i]) != stringOf(e) {
				fail("enum value", enum[i], e)
			}
		}
	}
	def, hasDef := s.Default, s.HasDefault
	if !hasDef && r.HasDefault {
		def, hasDef = r.Default, true
	}
	if got, ok := js["default"]; ok != hasDef || (ok && stringOf(got) != stringOf(def)) {
		fail("default", got, def)
	}
	if r.Type == spec.TypeArray {
		items, _ := js["items"].(map[string]any)
		compareSchema(t, tool, path+"[*]", r.Items, items, ld)
	}
	if r.Type == spec.TypeObject {
		props, _ := js["properties"].(map[string]any)
		if len(props) != len(r.Properties) {
			fail("properties", len(props), len(r.Properties))
		}
		for _, p := range r.Properties {
			ps, _ := props[p.Name].(map[string]any)
			compareSchema(t, tool, path+"."+p.Name, p.Schema, ps, ld)
		}
		var req []string
		for _, x := range asSlice(js["required"]) {
			req = append(req, x.(string))
		}
		if !reflect.DeepEqual(req, nilIfEmpty(r.Required)) {
			fail("required", req, r.Required)
		}
		switch ap := js["additionalProperties"].(type) {
		case bool:
			if ap != r.AdditionalProperties || r.AdditionalPropertiesSchema != nil {
				fail("additionalProperties", ap, r.AdditionalProperties)
			}
		case map[string]any:
			if r.AdditionalPropertiesSchema == nil {
				fail("additionalProperties", ap, false)
			} else {
				compareSchema(t, tool, path+".*", r.AdditionalPropertiesSchema, ap, ld)
			}
		default:
			fail("additionalProperties", ap, "a boolean or schema")
		}
	}
}

func asSlice(v any) []any { s, _ := v.([]any); return s }

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// stringOf renders a JSON or spec value for comparison.
func stringOf(v any) string {
	b, _ := canonicalJSON(v)
	var x any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	_ = dec.Decode(&x)
	if n, ok := x.(json.Number); ok {
		if f, err := n.Float64(); err == nil {
			b, _ = json.Marshal(f)
		}
	}
	out, _ := canonicalJSON(x)
	if _, ok := x.(json.Number); ok {
		return string(b)
	}
	return string(out)
}

func TestSchemaShapes(t *testing.T) {
	f := loadSpec(t, filepath.Join("testdata", "golden", "types", "types.tools.yaml"))
	b, err := SchemaJSON(f.Tools[0].Params)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{
		`"deliver_after":{"description":"Earliest delivery.","format":"date-time","type":["string","null"]}`,
		`"budget":{"additionalProperties":false,"description":"An amount in a currency's minor unit.","properties":{"amount":`,
		`"metadata":{"additionalProperties":{"maxLength":100,"type":"string"},"type":"object"}`,
		`"attributes":{"additionalProperties":true,"type":"object"}`,
		`"required":["customer_id","lines"]`,
		`"value":{"type":["string","null"]}`,
		`"channel":{"default":"web","enum":["web","phone","in-store"],"type":"string"}`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("schema lacks %s\n%s", want, s)
		}
	}
	// A nullable enum admits null.
	nullable := &spec.Schema{Type: spec.TypeString, Nullable: true, Enum: []any{"a", "b"}}
	if b, _ := SchemaJSON(nullable); string(b) != `{"enum":["a","b",null],"type":["string","null"]}` {
		t.Errorf("nullable enum: %s", b)
	}
	// HTML characters are not escaped.
	if b, _ := SchemaJSON(&spec.Schema{Type: spec.TypeString, Description: "a < b & c > d"}); !strings.Contains(string(b), "a < b & c > d") {
		t.Errorf("escaped: %s", b)
	}
}
