package sdkcheck

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// unionTools are the runtime's union fixture (runtime/testdata/unions.json):
// a discriminated oneOf of $defs, a nullable union, a scalar-or-object
// union, a type array, a recursive tree and a root union, as hand-written
// and MCP-imported tools carry them.
func unionTools(t *testing.T) []*runtime.Tool {
	t.Helper()
	data, err := os.ReadFile("../../runtime/testdata/unions.json")
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
	tools := make([]*runtime.Tool, len(list))
	for i, e := range list {
		tools[i] = &runtime.Tool{Name: e.Name, Description: e.Description, Schema: e.Schema, Flags: runtime.DefaultFlags()}
	}
	return tools
}

// TestSDKRoundTripUnions: the union fixture, in every dialect and mode,
// decodes into the official SDK's tool param type and encodes back to the
// same JSON, unions, $defs and nullable alternatives included.
func TestSDKRoundTripUnions(t *testing.T) {
	tools := unionTools(t)
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			raw, err := runtime.EncodeTools(mode.d, tools, nil, mode.opts)
			if err != nil {
				t.Fatal(err)
			}
			var items []json.RawMessage
			if err := json.Unmarshal(raw, &items); err != nil {
				t.Fatal(err)
			}
			for _, item := range items {
				back, err := roundTrip(mode.d, item)
				if err != nil {
					t.Fatalf("the SDK does not take %s: %v", item, err)
				}
				dropZero := mode.d == runtime.DialectGemini || mode.d == runtime.DialectMCP
				if got, want := normalize(t, back, dropZero), normalize(t, item, dropZero); !reflect.DeepEqual(got, want) {
					t.Errorf("the SDK reads it otherwise:\n sent %s\n SDK  %s", item, back)
				}
			}
		})
	}
}

// TestSDKRoundTripUnionsFails: the Gemini check would catch what the
// rewrite removes: oneOf, a discriminator or a $ref in parameters are
// fields genai's Schema does not have.
func TestSDKRoundTripUnionsFails(t *testing.T) {
	for _, schema := range []string{
		`{"type":"OBJECT","properties":{"a":{"oneOf":[{"type":"STRING"}]}}}`,
		`{"type":"OBJECT","properties":{"a":{"anyOf":[{"type":"STRING"}],"discriminator":{"propertyName":"k"}}}}`,
		`{"type":"OBJECT","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"type":"STRING"}}}`,
	} {
		item := `{"functionDeclarations":[{"name":"a","description":"d","parameters":` + schema + `}]}`
		if _, err := roundTrip(runtime.DialectGemini, []byte(item)); err == nil || !strings.Contains(err.Error(), "unknown field") {
			t.Errorf("%s: %v, want an unknown field", schema, err)
		}
	}
}
