package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// optionalSchema is an object of n optional string properties, u of them
// nullable (a type array: a union).
func optionalSchema(n, u int) string {
	var props []string
	for i := range n {
		typ := `"string"`
		if i < u {
			typ = `["string","null"]`
		}
		props = append(props, fmt.Sprintf(`"p%02d":{"type":%s}`, i, typ))
	}
	return `{"additionalProperties":false,"properties":{` + strings.Join(props, ",") + `},"type":"object"}`
}

// strictFlags returns, per tool of an Anthropic tools array, whether it is
// sent strict.
func strictFlags(t *testing.T, raw []byte) string {
	t.Helper()
	var items []struct {
		Strict bool `json:"strict"`
	}
	if err := json.Unmarshal(raw, &items); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, it := range items {
		if it.Strict {
			b.WriteByte('S')
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// Anthropic strict's per-request limits: tools are sent strict in order
// while the request's budget lasts (20 tools, 24 optional parameters, 16
// union parameters); a tool that would overspend it is sent without
// strict, and a later one that fits is strict again.
func TestAnthropicStrictBudget(t *testing.T) {
	mk := func(schemas ...string) []*Tool {
		var out []*Tool
		for i, s := range schemas {
			out = append(out, encodeTestTool(fmt.Sprintf("t%02d", i), "", s, DefaultFlags()))
		}
		return out
	}
	rep := func(n int, s string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = s
		}
		return out
	}
	mapSchema := `{"properties":{"m":{"additionalProperties":{"type":"string"},"type":"object"}},"required":["m"],"type":"object"}`
	for _, c := range []struct {
		name    string
		schemas []string
		want    string
	}{
		{"21 tools: the 21st is not strict", rep(21, optionalSchema(0, 0)), strings.Repeat("S", 20) + "-"},
		{"optional parameters: 10+10, then 10 overspends, 4 fits",
			[]string{optionalSchema(10, 0), optionalSchema(10, 0), optionalSchema(10, 0), optionalSchema(4, 0), optionalSchema(1, 0)}, "SS-S-"},
		{"unions: 8+8, then 1 overspends, 0 fits",
			[]string{optionalSchema(8, 8), optionalSchema(8, 8), optionalSchema(1, 1), optionalSchema(1, 0)}, "SS-S"},
		{"one tool over the limit alone", []string{optionalSchema(25, 0), optionalSchema(2, 0)}, "-S"},
		{"a map cannot be strict", []string{mapSchema, optionalSchema(1, 0)}, "-S"},
	} {
		out, err := EncodeTools(DialectAnthropic, mk(c.schemas...), nil, EncodeOptions{Strict: true})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := strictFlags(t, out); got != c.want {
			t.Errorf("%s: strict %s, want %s", c.name, got, c.want)
		}
		// A tool sent without strict is sent as without Strict at all.
		plain, _ := EncodeTools(DialectAnthropic, mk(c.schemas...), nil, EncodeOptions{})
		var p, s []json.RawMessage
		_ = json.Unmarshal(plain, &p)
		_ = json.Unmarshal(out, &s)
		for i, f := range c.want {
			if f == '-' && string(p[i]) != string(s[i]) {
				t.Errorf("%s: tool %d without strict:\n got  %s\n want %s", c.name, i, s[i], p[i])
			}
		}
	}
}

func TestAnthropicStrictSchema(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"properties":{"n":{"maximum":5,"minimum":1,"type":"integer"}},"type":"object"}`,
			`{"additionalProperties":false,"properties":{"n":{"description":"Must be at least 1. Must be at most 5.","type":"integer"}},"type":"object"}`},
		{`{"properties":{"a":{"items":{"type":"string"},"maxItems":3,"minItems":2,"type":"array"},"b":{"items":{"type":"string"},"minItems":0,"type":"array"}},"type":"object"}`,
			`{"additionalProperties":false,"properties":{"a":{"description":"At least 2 items. At most 3 items.","items":{"type":"string"},"type":"array"},"b":{"items":{"type":"string"},"minItems":0,"type":"array"}},"type":"object"}`},
		{`{"properties":{"f":{"format":"uri","type":"string"},"g":{"format":"int32","type":"integer"}},"title":"T","type":"object"}`,
			`{"additionalProperties":false,"properties":{"f":{"format":"uri","type":"string"},"g":{"description":"Format: int32.","type":"integer"}},"type":"object"}`},
		{`{"properties":{"u":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["u"],"type":"object"}`,
			`{"additionalProperties":false,"properties":{"u":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["u"],"type":"object"}`},
	} {
		got, err := AnthropicStrictSchema(json.RawMessage(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("AnthropicStrictSchema(%s):\n got  %s %v\n want %s", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{
		`{"type":"string"}`,
		`{"properties":{"m":{"additionalProperties":true,"type":"object"}},"type":"object"}`,
		`{"properties":{"e":{"enum":[{"a":1}]}},"type":"object"}`,
		`{"properties":{"x":{"not":{}}},"type":"object"}`,
	} {
		if _, err := AnthropicStrictSchema(json.RawMessage(in)); !errors.Is(err, ErrUnsupportedSchema) {
			t.Errorf("AnthropicStrictSchema(%s) = %v, want ErrUnsupportedSchema", in, err)
		}
	}
}

// Gemini's parametersJsonSchema: what Gemini ignores is kept and
// described; a schema the walk cannot follow goes unchanged.
func TestGeminiJSONSchemaNotes(t *testing.T) {
	tool := encodeTestTool("t", "", `{"properties":{"id":{"format":"uuid","type":"string"},"n":{"multipleOf":2,"type":"integer"}},"type":"object"}`, DefaultFlags())
	out, err := EncodeTools(DialectGemini, []*Tool{tool}, nil, EncodeOptions{GeminiJSONSchema: true})
	want := `[{"functionDeclarations":[{"name":"t","description":"","parametersJsonSchema":{"properties":{"id":{"description":"Format: uuid.","format":"uuid","type":"string"},"n":{"description":"Must be a multiple of 2.","multipleOf":2,"type":"integer"}},"type":"object"}}]}]`
	if err != nil || string(out) != want {
		t.Errorf("got  %s %v\nwant %s", out, err, want)
	}
	untyped := `{"properties":{"any":{},"n":{"multipleOf":2,"type":"integer"}},"type":"object"}`
	tool.Schema = json.RawMessage(untyped)
	out, err = EncodeTools(DialectGemini, []*Tool{tool}, nil, EncodeOptions{GeminiJSONSchema: true})
	if err != nil || !strings.Contains(string(out), `"parametersJsonSchema":`+untyped) {
		t.Errorf("untyped subschema: %s %v", out, err)
	}
}

// Anthropic's versioned code-execution server tool: the portable
// code_execution maps to nothing there (the seed's table), and a host
// opts into the newer tool by registering its native type.
func TestAnthropicCodeExecutionOptIn(t *testing.T) {
	out, err := EncodeTools(DialectAnthropic, nil, []ProviderTool{{Name: CodeExecution}}, EncodeOptions{})
	if err != nil || string(out) != `[]` {
		t.Errorf("portable code_execution: %s %v", out, err)
	}
	out, err = EncodeTools(DialectAnthropic, nil, []ProviderTool{{Name: "code_execution_20250825"}}, EncodeOptions{})
	if want := `[{"type":"code_execution_20250825","name":"code_execution"}]`; err != nil || string(out) != want {
		t.Errorf("versioned code execution: %s %v, want %s", out, err, want)
	}
}
