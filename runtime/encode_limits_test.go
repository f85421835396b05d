package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func limitTools(n int, schema string) []*Tool {
	tools := make([]*Tool, n)
	for i := range tools {
		tools[i] = &Tool{Name: fmt.Sprintf("t%03d", i), Description: "d", Schema: json.RawMessage(schema)}
	}
	return tools
}

// TestCheckLimitsToolCount: OpenAI and Gemini take 128 tools in a request;
// the 129th is reported, refused, and nothing at 128. Anthropic and MCP
// document no count.
func TestCheckLimitsToolCount(t *testing.T) {
	for _, d := range []Dialect{DialectOpenAI, DialectOpenAIChat, DialectGemini, DialectAnthropic, DialectMCP} {
		at, err := CheckLimits(d, limitTools(128, ""), EncodeOptions{})
		if err != nil || len(at) != 0 {
			t.Errorf("%s, 128 tools: %v %v, want none", d, at, err)
		}
		over, err := CheckLimits(d, limitTools(129, ""), EncodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if d == DialectAnthropic || d == DialectMCP {
			if len(over) != 0 {
				t.Errorf("%s, 129 tools: %v, want none", d, over)
			}
			continue
		}
		if len(over) != 1 || over[0].Tool != 128 || over[0].Limit != "tools" || !over[0].Refused ||
			!strings.Contains(over[0].Msg, "129") || !strings.Contains(over[0].Msg, "128") {
			t.Errorf("%s, 129 tools: %+v", d, over)
		}
	}
}

// TestCheckLimitsDescription: an OpenAI description is counted in
// characters, not bytes: 1,024 of them pass, 1,025 do not; other dialects
// take either.
func TestCheckLimitsDescription(t *testing.T) {
	tools := limitTools(3, "")
	tools[0].Description = strings.Repeat("é", OpenAIMaxDescription) // 2,048 bytes
	tools[2].Description = strings.Repeat("é", OpenAIMaxDescription+1)
	for _, d := range []Dialect{DialectOpenAI, DialectOpenAIChat} {
		got, err := CheckLimits(d, tools, EncodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Tool != 2 || got[0].Limit != "description" || got[0].Refused ||
			!strings.Contains(got[0].Msg, "1025 characters") {
			t.Errorf("%s: %+v", d, got)
		}
	}
	for _, d := range []Dialect{DialectAnthropic, DialectGemini, DialectMCP} {
		if got, err := CheckLimits(d, tools, EncodeOptions{Strict: true}); err != nil || len(got) != 0 {
			t.Errorf("%s: %v %v, want none", d, got, err)
		}
	}
}

// TestCheckLimitsAnthropicStrict: each tool CheckLimits reports against
// Anthropic strict's budget is one EncodeTools sends without strict, and
// every other tool that can be strict is sent strict.
func TestCheckLimitsAnthropicStrict(t *testing.T) {
	opt := func(n int, nullable bool) string {
		var props []string
		for i := range n {
			typ := `"string"`
			if nullable {
				typ = `["string","null"]`
			}
			props = append(props, fmt.Sprintf(`"p%d":{"type":%s}`, i, typ))
		}
		return `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
	}
	tools := limitTools(26, `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"],"additionalProperties":false}`)
	tools[0].Schema = json.RawMessage(opt(25, false))                                                                                    // alone over the optional budget
	tools[1].Schema = json.RawMessage(opt(10, false))                                                                                    // fits
	tools[2].Schema = json.RawMessage(opt(15, false))                                                                                    // 25 with tools[1]
	tools[3].Schema = json.RawMessage(opt(17, true))                                                                                     // 17 unions (and 17 optional: over both; optional is named first)
	tools[4].Schema = json.RawMessage(`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}`) // cannot be strict at all
	got, err := CheckLimits(DialectAnthropic, tools, EncodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{0: "strict_optional", 2: "strict_optional", 3: "strict_optional", 24: "strict_tools", 25: "strict_tools"}
	reported := map[int]bool{}
	for _, is := range got {
		reported[is.Tool] = true
		if want[is.Tool] != is.Limit {
			t.Errorf("tool %d: %s (%s), want %q", is.Tool, is.Limit, is.Msg, want[is.Tool])
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %d issues, want %d: %+v", len(got), len(want), got)
	}
	raw, err := EncodeTools(DialectAnthropic, tools, nil, EncodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	var sent []struct {
		Strict bool `json:"strict"`
	}
	if err := json.Unmarshal(raw, &sent); err != nil {
		t.Fatal(err)
	}
	for i, s := range sent {
		if wantStrict := !reported[i] && i != 4; s.Strict != wantStrict {
			t.Errorf("tool %d sent with strict %v, want %v", i, s.Strict, wantStrict)
		}
	}
	// Plain Anthropic has no budget to pass.
	if got, err := CheckLimits(DialectAnthropic, tools, EncodeOptions{}); err != nil || len(got) != 0 {
		t.Errorf("without strict: %v %v", got, err)
	}
}

func TestCheckLimitsErrors(t *testing.T) {
	if _, err := CheckLimits("vertex", nil, EncodeOptions{}); err == nil {
		t.Error("unknown dialect: no error")
	}
	bad := []*Tool{{Name: "x", Schema: json.RawMessage(`{"type":"string"}`)}}
	if _, err := CheckLimits(DialectAnthropic, bad, EncodeOptions{Strict: true}); err == nil || !strings.Contains(err.Error(), `tool "x"`) {
		t.Errorf("a schema EncodeTools refuses: %v", err)
	}
}

// TestStrictTotalsLocated: a schema past one of OpenAI strict's totals is
// refused at the subschema that passes it, so toolgen can point there.
func TestStrictTotalsLocated(t *testing.T) {
	props := func(n int) string {
		var p []string
		for i := range n {
			p = append(p, fmt.Sprintf(`"p%04d":{"type":"string"}`, i))
		}
		return strings.Join(p, ",")
	}
	enum := func(n, size int) string {
		var v []string
		for i := range n {
			s := fmt.Sprintf("v%04d", i)
			v = append(v, `"`+s+strings.Repeat("x", size-len(s))+`"`)
		}
		return `{"type":"string","enum":[` + strings.Join(v, ",") + `]}`
	}
	cases := []struct{ schema, at, what string }{
		{`{"type":"object","properties":{` + props(strictMaxProperties+1) + `},"required":[]}`, "$.p5000", "5001 properties"},
		{`{"type":"object","properties":{"a":` + enum(600, 5) + `,"b":` + enum(600, 5) + `},"required":["a","b"]}`, "$.b", "1200 enum values"},
		{`{"type":"object","properties":{"a":` + enum(200, 400) + `,"b":` + enum(200, 400) + `},"required":["a","b"]}`, "$.b", "characters of property names and enum values"},
	}
	for _, c := range cases {
		_, err := OpenAIStrictSchema(json.RawMessage(c.schema))
		if !errors.Is(err, ErrUnsupportedSchema) || !strings.Contains(err.Error(), "at "+c.at+": ") || !strings.Contains(err.Error(), c.what) {
			t.Errorf("%s: %v, want it at %s", c.what, err, c.at)
		}
	}
}
