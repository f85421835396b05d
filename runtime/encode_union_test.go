package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

// unionTools are the tools of testdata/unions.json: a discriminated oneOf
// of $defs, a nullable union, a union of a scalar and an object and a type
// array (pay_invoice); a recursive tree (save_outline); a root union
// (notify).
func unionTools(t testing.TB) []*Tool {
	t.Helper()
	data, err := os.ReadFile("testdata/unions.json")
	if err != nil {
		t.Fatal(err)
	}
	var list []struct {
		Name, Description string
		Schema            json.RawMessage
	}
	if err := json.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	tools := make([]*Tool, len(list))
	for i, e := range list {
		tools[i] = encodeTestTool(e.Name, e.Description, string(e.Schema), DefaultFlags())
	}
	return tools
}

var encodeModes = []struct {
	name string
	d    Dialect
	opts EncodeOptions
}{
	{"openai_chat", DialectOpenAIChat, EncodeOptions{}},
	{"openai_chat_strict", DialectOpenAIChat, EncodeOptions{Strict: true}},
	{"openai_responses", DialectOpenAI, EncodeOptions{}},
	{"openai_responses_strict", DialectOpenAI, EncodeOptions{Strict: true}},
	{"anthropic", DialectAnthropic, EncodeOptions{}},
	{"anthropic_strict", DialectAnthropic, EncodeOptions{Strict: true}},
	{"gemini", DialectGemini, EncodeOptions{}},
	{"gemini_jsonschema", DialectGemini, EncodeOptions{GeminiJSONSchema: true}},
	{"mcp", DialectMCP, EncodeOptions{}},
}

// TestEncodeUnionsGolden: the union fixture in every dialect and mode, as
// testdata/encode/unions_<mode>.json (indented), through a registry's
// prepared catalog and EncodeTools alike.
func TestEncodeUnionsGolden(t *testing.T) {
	tools := unionTools(t)
	r := NewRegistry(Options{})
	if err := r.Add(tools...); err != nil {
		t.Fatal(err)
	}
	for _, m := range encodeModes {
		t.Run(m.name, func(t *testing.T) {
			got, err := r.EncodeCatalog(context.Background(), &Call{UserID: "u"}, m.d, m.opts)
			if err != nil {
				t.Fatal(err)
			}
			direct, err := EncodeTools(m.d, tools, nil, m.opts)
			if err != nil || !bytes.Equal(got, direct) {
				t.Errorf("EncodeTools differs from EncodeCatalog: %v\n%s\n%s", err, direct, got)
			}
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, got, "", "  "); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "unions_"+m.name+".json", pretty.Bytes())
		})
	}
}

// sentSchemas returns each function tool's schema in catalog raw of
// dialect d, by tool name, and whether it is strict.
func sentSchemas(t *testing.T, d Dialect, raw []byte) (map[string]map[string]any, map[string]bool) {
	t.Helper()
	var list []map[string]any
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	if d == DialectGemini {
		decls, _ := list[0]["functionDeclarations"].([]any)
		list = list[:0]
		for _, e := range decls {
			list = append(list, e.(map[string]any))
		}
	}
	schemas, strict := map[string]map[string]any{}, map[string]bool{}
	for _, item := range list {
		if f, ok := item["function"].(map[string]any); ok {
			item = f
		}
		name := item["name"].(string)
		for _, k := range []string{"parameters", "parametersJsonSchema", "input_schema", "inputSchema"} {
			if s, ok := item[k].(map[string]any); ok {
				schemas[name] = s
			}
		}
		strict[name] = item["strict"] == true
	}
	return schemas, strict
}

// walkSchema calls fn for s and every subschema under it, with its path.
func walkSchema(s map[string]any, path string, fn func(s map[string]any, path string)) {
	fn(s, path)
	_ = eachSubschema(s, nil, true, func(sub map[string]any, p *schemaPath) error {
		walkSchema(sub, path+strings.TrimPrefix(p.String(), "$"), fn)
		return nil
	})
}

// TestEncodeUnionsRules: what each dialect takes, checked on the union
// fixture's output: no root union but on MCP, no oneOf where only anyOf is
// taken, no discriminator where it is not, no $ref for Gemini parameters,
// no $ref beside other keywords for OpenAI strict and Gemini's JSON
// Schema; the recursive tool is not strict on Anthropic.
func TestEncodeUnionsRules(t *testing.T) {
	tools := unionTools(t)
	for _, m := range encodeModes {
		t.Run(m.name, func(t *testing.T) {
			raw, err := EncodeTools(m.d, tools, nil, m.opts)
			if err != nil {
				t.Fatal(err)
			}
			schemas, strict := sentSchemas(t, m.d, raw)
			if len(schemas) != len(tools) {
				t.Fatalf("%d schemas for %d tools", len(schemas), len(tools))
			}
			rewritten := m.opts.Strict && m.d != DialectMCP || m.d == DialectGemini
			for name, s := range schemas {
				if m.d != DialectMCP {
					for _, k := range []string{"anyOf", "oneOf", "allOf", "$ref"} {
						if _, ok := s[k]; ok {
							t.Errorf("%s: %q at the top level", name, k)
						}
					}
				}
				if typ := s["type"]; typ != "object" && typ != "OBJECT" {
					t.Errorf("%s: top level of type %v", name, typ)
				}
				walkSchema(s, "$", func(sub map[string]any, path string) {
					if _, ok := sub["oneOf"]; ok && rewritten && !m.opts.GeminiJSONSchema {
						t.Errorf("%s %s: oneOf sent", name, path)
					}
					if _, ok := sub["discriminator"]; ok && rewritten {
						t.Errorf("%s %s: discriminator sent", name, path)
					}
					if _, ok := sub["$ref"]; ok {
						if m.d == DialectGemini && !m.opts.GeminiJSONSchema {
							t.Errorf("%s %s: $ref sent in parameters", name, path)
						}
						if len(sub) > 1 && (m.d == DialectOpenAI && m.opts.Strict || m.opts.GeminiJSONSchema) {
							t.Errorf("%s %s: $ref beside %v", name, path, sub)
						}
					}
				})
			}
			if m.opts.Strict && m.d != DialectAnthropic && m.d != DialectMCP && m.d != DialectGemini {
				for name, st := range strict {
					if !st {
						t.Errorf("%s: not strict", name)
					}
				}
			}
			if m.d == DialectAnthropic && m.opts.Strict && (strict["save_outline"] || !strict["pay_invoice"] || !strict["notify"]) {
				t.Errorf("anthropic strict: %v, want all but the recursive save_outline", strict)
			}
		})
	}
}

// TestEncodeRefErrors: a reference that cannot be followed is a located
// error in every dialect, not a fallback.
func TestEncodeRefErrors(t *testing.T) {
	for _, c := range []struct{ name, schema, want string }{
		{"nowhere", `{"properties":{"a":{"$ref":"#/$defs/Missing"}},"type":"object"}`, `invalid schema at $.a: $ref "#/$defs/Missing" points to nothing`},
		{"cycle", `{"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}},"properties":{"a":{"$ref":"#/$defs/A"}},"type":"object"}`,
			`invalid schema at $.a: $ref cycle: #/$defs/A → #/$defs/B → #/$defs/A`},
		{"self", `{"$defs":{"A":{"$ref":"#/$defs/A"}},"properties":{"a":{"items":{"$ref":"#/$defs/A"},"type":"array"}},"type":"object"}`,
			`invalid schema at $.a[]: $ref cycle: #/$defs/A → #/$defs/A`},
		{"external", `{"properties":{"a":{"$ref":"https://example.com/a.json"}},"type":"object"}`, `invalid schema at $.a: $ref "https://example.com/a.json" is not local`},
		{"not a schema", `{"$defs":{"n":3},"properties":{"a":{"$ref":"#/$defs/n"}},"type":"object"}`, `invalid schema at $.a: $ref "#/$defs/n" does not point to a schema object`},
		{"in a def", `{"$defs":{"A":{"properties":{"b":{"$ref":"#/$defs/B"}},"type":"object"}},"properties":{},"type":"object"}`, `invalid schema at $.$defs.A.b: $ref "#/$defs/B" points to nothing`},
		{"not a string", `{"properties":{"a":{"$ref":7}},"type":"object"}`, `invalid schema at $.a: "$ref" must be a string`},
		{"root union of scalars", `{"oneOf":[{"type":"string"},{"type":"object"}]}`, `invalid schema at $.oneOf[0]: the top level is a union with an alternative that is not an object`},
		{"bad discriminator", `{"properties":{"a":{"discriminator":"kind","oneOf":[{"type":"string"}]}},"type":"object"}`, ``},
	} {
		for _, m := range encodeModes {
			_, err := EncodeTools(m.d, []*Tool{{Name: "t", Schema: json.RawMessage(c.schema)}}, nil, m.opts)
			if c.want == "" {
				continue // malformed only for the dialects that read it: checked below
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || errors.Is(err, ErrUnsupportedSchema) {
				t.Errorf("%s, %s: %v\nwant an error containing %s", c.name, m.name, err, c.want)
			}
		}
	}
	// A $ref's fragment is percent-decoded before it is read as a JSON
	// pointer: "#/$defs/a%20b" is the $defs entry "a b", in every mode.
	pct := `{"$defs":{"a b":{"minLength":2,"type":"string"},"c/d":{"type":"integer"}},` +
		`"properties":{"a":{"$ref":"#/$defs/a%20b"},"c":{"$ref":"#/$defs/c~1d"}},"required":["a","c"],"type":"object"}`
	for _, m := range encodeModes {
		out, err := EncodeTools(m.d, []*Tool{{Name: "t", Schema: json.RawMessage(pct)}}, nil, m.opts)
		if err != nil {
			t.Errorf("percent-encoded $ref, %s: %v", m.name, err)
			continue
		}
		if strings.Contains(string(out), `"$ref"`) && !strings.Contains(string(out), `"a b":`) {
			t.Errorf("percent-encoded $ref, %s: the $defs entry is lost: %s", m.name, out)
		}
	}
	// An empty union is an error where the schema is rewritten: the strict
	// rewrite once made an optional "anyOf": [] into "anyOf": [{"type":"null"}].
	for _, key := range []string{"anyOf", "oneOf"} {
		schema := `{"properties":{"a":{"` + key + `":[]}},"type":"object"}`
		want := `invalid schema at $.a: "` + key + `" must be a non-empty array`
		if _, err := OpenAIStrictSchema(json.RawMessage(schema)); err == nil || errors.Is(err, ErrUnsupportedSchema) || !strings.Contains(err.Error(), want) {
			t.Errorf("OpenAIStrictSchema, empty %s: %v, want %s", key, err, want)
		}
		if _, err := AnthropicStrictSchema(json.RawMessage(schema)); err == nil || errors.Is(err, ErrUnsupportedSchema) || !strings.Contains(err.Error(), want) {
			t.Errorf("AnthropicStrictSchema, empty %s: %v, want %s", key, err, want)
		}
	}
	// A malformed discriminator is an error where it is read (the rewrites),
	// passed through where the schema goes as written.
	schema := `{"properties":{"a":{"discriminator":"kind","oneOf":[{"type":"string"}]}},"type":"object"}`
	if _, err := OpenAIStrictSchema(json.RawMessage(schema)); err == nil || errors.Is(err, ErrUnsupportedSchema) ||
		!strings.Contains(err.Error(), `at $.a: "discriminator" must be an object with a "propertyName"`) {
		t.Errorf("OpenAIStrictSchema: %v", err)
	}
}

// laughs is a schema of n $defs, each an object with fan optional
// properties referring to the next: small as written, fan^n subschemas if
// its references were inlined.
func laughs(n, fan int) string {
	var defs []string
	for i := range n {
		next := `{"type":"string"}`
		if i+1 < n {
			next = `{"$ref":"#/$defs/D` + strconv.Itoa(i+1) + `"}`
		}
		var props []string
		for j := range fan {
			props = append(props, `"p`+strconv.Itoa(j)+`":`+next)
		}
		defs = append(defs, `"D`+strconv.Itoa(i)+`":{"additionalProperties":false,"properties":{`+strings.Join(props, ",")+`},"type":"object"}`)
	}
	return `{"$defs":{` + strings.Join(defs, ",") + `},"additionalProperties":false,"properties":{"a":{"$ref":"#/$defs/D0"}},"required":["a"],"type":"object"}`
}

// TestEncodeRefsHostile: references that would multiply when inlined, long
// chains of references and huge root unions cost in proportion to their
// size in every dialect: what keeps references writes each schema once,
// Gemini's parameters give up inlining past a budget (the tool goes as
// parametersJsonSchema), and Anthropic strict, counting each use, sends the
// tool without strict.
func TestEncodeRefsHostile(t *testing.T) {
	schema := laughs(40, 8) // 8^40 subschemas inlined
	for _, m := range encodeModes {
		raw, err := EncodeTools(m.d, []*Tool{{Name: "t", Schema: json.RawMessage(schema)}}, nil, m.opts)
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		if len(raw) > 4*len(schema) {
			t.Errorf("%s: %d bytes out of %d", m.name, len(raw), len(schema))
		}
		switch {
		case m.d == DialectGemini && !bytes.Contains(raw, []byte(`"parametersJsonSchema"`)):
			t.Errorf("%s: not sent as parametersJsonSchema: %.300s", m.name, raw)
		case m.d == DialectAnthropic && m.opts.Strict && bytes.Contains(raw, []byte(`"strict":true`)):
			t.Errorf("%s: strict, with 8^40 optional parameters", m.name)
		case m.d == DialectOpenAI && m.opts.Strict && bytes.Contains(raw, []byte(`"strict":true`)):
			t.Errorf("%s: strict, with objects nested 41 deep", m.name)
		}
	}
	// Within OpenAI strict's 10 levels, the references are kept: each
	// schema written once.
	shallow := laughs(9, 8)
	raw, err := EncodeTools(DialectOpenAI, []*Tool{{Name: "t", Schema: json.RawMessage(shallow)}}, nil, EncodeOptions{Strict: true})
	if err != nil || !bytes.Contains(raw, []byte(`"strict":true`)) || len(raw) > 4*len(shallow) {
		t.Errorf("openai strict, 8^9 inlined: %v, %d bytes out of %d: %.300s", err, len(raw), len(shallow), raw)
	}
	if _, err := GeminiSchema(json.RawMessage(schema)); !errors.Is(err, ErrUnsupportedSchema) ||
		!strings.Contains(err.Error(), "inlining its references would write more than") {
		t.Errorf("GeminiSchema: %v", err)
	}

	// A chain of 5,000 references, used from 5,000 properties: each link
	// is resolved once.
	const n = 5000
	var defs, props []string
	for i := range n {
		next := `{"type":"string"}`
		if i+1 < n {
			next = `{"$ref":"#/$defs/L` + strconv.Itoa(i+1) + `"}`
		}
		defs = append(defs, `"L`+strconv.Itoa(i)+`":`+next)
		props = append(props, `"p`+strconv.Itoa(i)+`":{"$ref":"#/$defs/L0"}`)
	}
	chain := `{"$defs":{` + strings.Join(defs, ",") + `},"properties":{` + strings.Join(props, ",") + `},"type":"object"}`
	root, err := parseSchema([]byte(chain))
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(1, func() {
		if _, err := analyzeRefs(root); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 20*n {
		t.Errorf("analyzeRefs of a %d-link chain used from %d places: %.0f allocations", n, n, allocs)
	}
	for _, m := range encodeModes {
		if _, err := EncodeTools(m.d, []*Tool{{Name: "t", Schema: json.RawMessage(chain)}}, nil, m.opts); err != nil {
			t.Errorf("chain, %s: %v", m.name, err)
		}
	}

	// A root union of 500 objects that all describe the same 20
	// properties differently.
	var alts []string
	for i := range 500 {
		var ps []string
		for j := range 20 {
			ps = append(ps, `"q`+strconv.Itoa(j)+`":{"maxLength":`+strconv.Itoa(i+1)+`,"type":"string"}`)
		}
		alts = append(alts, `{"properties":{`+strings.Join(ps, ",")+`},"type":"object"}`)
	}
	wide := `{"anyOf":[` + strings.Join(alts, ",") + `]}`
	for _, m := range encodeModes {
		raw, err := EncodeTools(m.d, []*Tool{{Name: "t", Schema: json.RawMessage(wide)}}, nil, m.opts)
		if err != nil {
			t.Fatalf("wide, %s: %v", m.name, err)
		}
		if len(raw) > 4*len(wide) {
			t.Errorf("wide, %s: %d bytes out of %d", m.name, len(raw), len(wide))
		}
	}
}

// TestAnthropicStrictUnionBudget: Anthropic strict's 16 union parameters
// per request count oneOf (sent as anyOf), anyOf of two or more (a $ref
// wrapped alone in anyOf is none), type arrays, and a referenced schema's
// unions once per reference; a flattened root union is none.
func TestAnthropicStrictUnionBudget(t *testing.T) {
	// A $def with two unions, referenced n times.
	refs := func(n int) string {
		var props []string
		for i := range n {
			props = append(props, `"p`+strconv.Itoa(i)+`":{"$ref":"#/$defs/U"}`)
		}
		return `{"$defs":{"U":{"additionalProperties":false,"properties":{"a":{"oneOf":[{"type":"string"},{"type":"integer"}]},"b":{"type":["string","null"]}},"required":["a","b"],"type":"object"}},` +
			`"additionalProperties":false,"properties":{` + strings.Join(props, ",") + `},"required":[],"type":"object"}`
	}
	required := func(s string, n int) string { // every p<i> required: no optional parameter spent
		var names []string
		for i := range n {
			names = append(names, `"p`+strconv.Itoa(i)+`"`)
		}
		return strings.Replace(s, `"required":[]`, `"required":[`+strings.Join(names, ",")+`]`, 1)
	}
	rootUnion := `{"oneOf":[{"additionalProperties":false,"properties":{"x":{"type":"string"}},"required":["x"],"type":"object"},{"additionalProperties":false,"properties":{"y":{"type":"string"}},"required":["y"],"type":"object"}]}`
	for _, c := range []struct {
		name    string
		schemas []string
		want    string
	}{
		{"8 references of 2 unions: 16, strict", []string{required(refs(8), 8)}, "S"},
		{"9 references of 2 unions: 18, not strict", []string{required(refs(9), 9)}, "-"},
		{"16 spent, a root union is none", []string{required(refs(8), 8), rootUnion}, "SS"},
	} {
		var tools []*Tool
		for i, s := range c.schemas {
			tools = append(tools, encodeTestTool("t"+strconv.Itoa(i), "", s, DefaultFlags()))
		}
		out, err := EncodeTools(DialectAnthropic, tools, nil, EncodeOptions{Strict: true})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := strictFlags(t, out); got != c.want {
			t.Errorf("%s: strict %s, want %s", c.name, got, c.want)
		}
	}
}
