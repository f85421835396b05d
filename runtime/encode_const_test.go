package runtime

import (
	"encoding/json"
	"testing"
)

// TestDialectsCarryConst: a const (as the generator writes it for a
// const: keyword) reaches every dialect — kept by Anthropic strict, as a
// one-value enum elsewhere; strict mode's null for an optional property
// joins that enum.
func TestDialectsCarryConst(t *testing.T) {
	const schema = `{"type":"object","additionalProperties":false,"required":["kind"],"properties":{` +
		`"kind":{"type":"string","const":"circle"},"version":{"type":"integer","const":2}}}`
	tests := []struct {
		name string
		fn   func(json.RawMessage) (json.RawMessage, error)
		want string
	}{
		{"openai strict", OpenAIStrictSchema,
			`{"additionalProperties":false,"properties":{"kind":{"enum":["circle"],"type":"string"},"version":{"enum":[2,null],"type":["integer","null"]}},"required":["kind","version"],"type":"object"}`},
		{"gemini", GeminiSchema,
			`{"properties":{"kind":{"enum":["circle"],"format":"enum","type":"STRING"},"version":{"description":"One of: 2.","type":"INTEGER"}},"required":["kind"],"type":"OBJECT"}`},
		{"anthropic strict", AnthropicStrictSchema,
			`{"additionalProperties":false,"properties":{"kind":{"const":"circle","type":"string"},"version":{"const":2,"type":"integer"}},"required":["kind"],"type":"object"}`},
	}
	for _, tt := range tests {
		got, err := tt.fn(json.RawMessage(schema))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}
