package sdkcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"google.golang.org/genai"

	"github.com/toolgen/toolgen/generated/example"
	"github.com/toolgen/toolgen/generated/hitl"
	"github.com/toolgen/toolgen/generated/stripe"
	"github.com/toolgen/toolgen/internal/genfixture"
	"github.com/toolgen/toolgen/internal/genfixture/edge"
	"github.com/toolgen/toolgen/internal/genfixture/unions"
	"github.com/toolgen/toolgen/runtime"
)

// modules are the repository's generated modules: the shipped ones and the
// fixtures that use every spec keyword.
func modules() map[string]*runtime.Module {
	return map[string]*runtime.Module{
		"example":    example.Module(example.New()),
		"hitl":       hitl.Module(&hitl.Tools{}),
		"stripe":     stripe.Module(&stripe.Tools{}),
		"genfixture": genfixture.Module(&genfixture.Tools{}),
		"edge":       edge.Module(&edge.Tools{}),
		"unions":     unions.Module(&unions.Tools{}),
	}
}

// modes are the dialects and options EncodeCatalog takes.
var modes = []struct {
	name string
	d    runtime.Dialect
	opts runtime.EncodeOptions
}{
	{"openai_chat", runtime.DialectOpenAIChat, runtime.EncodeOptions{}},
	{"openai_chat_strict", runtime.DialectOpenAIChat, runtime.EncodeOptions{Strict: true}},
	{"openai_responses", runtime.DialectOpenAI, runtime.EncodeOptions{}},
	{"openai_responses_strict", runtime.DialectOpenAI, runtime.EncodeOptions{Strict: true}},
	{"openai_responses_namespaces", runtime.DialectOpenAI, runtime.EncodeOptions{OpenAINamespaces: true, OpenAIOutputSchema: true}},
	{"anthropic", runtime.DialectAnthropic, runtime.EncodeOptions{}},
	{"anthropic_strict", runtime.DialectAnthropic, runtime.EncodeOptions{Strict: true}},
	{"gemini", runtime.DialectGemini, runtime.EncodeOptions{}},
	{"gemini_jsonschema", runtime.DialectGemini, runtime.EncodeOptions{GeminiJSONSchema: true}},
	{"mcp", runtime.DialectMCP, runtime.EncodeOptions{}},
	{"mcp_output_schema", runtime.DialectMCP, runtime.EncodeOptions{MCPOutputSchema: true}},
}

// catalog encodes module m, every gate open, with the portable provider
// tools.
func catalog(t *testing.T, m *runtime.Module, d runtime.Dialect, opts runtime.EncodeOptions) []json.RawMessage {
	t.Helper()
	reg := runtime.NewRegistry(runtime.Options{Gates: runtime.GatesFunc(func(context.Context, *runtime.Call, string) (bool, error) {
		return true, nil
	})})
	if err := reg.AddModule(m); err != nil {
		t.Fatal(err)
	}
	if err := reg.AddProvider(runtime.ProviderTool{Name: runtime.WebSearch}, runtime.ProviderTool{Name: runtime.CodeExecution}); err != nil {
		t.Fatal(err)
	}
	raw, err := reg.EncodeCatalog(context.Background(), nil, d, opts)
	if err != nil {
		t.Fatal(err)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		t.Fatal(err)
	}
	return items
}

// roundTrip decodes item into the SDK's param type for dialect d, encodes
// it again with the SDK, and returns that.
func roundTrip(d runtime.Dialect, item []byte) ([]byte, error) {
	switch d {
	case runtime.DialectOpenAIChat:
		var p openai.ChatCompletionToolUnionParam
		if err := json.Unmarshal(item, &p); err != nil {
			return nil, err
		}
		return json.Marshal(p)
	case runtime.DialectOpenAI:
		var p responses.ToolUnionParam
		if err := json.Unmarshal(item, &p); err != nil {
			return nil, err
		}
		return json.Marshal(p)
	case runtime.DialectAnthropic:
		var p anthropic.ToolUnionParam
		if err := json.Unmarshal(item, &p); err != nil {
			return nil, err
		}
		return json.Marshal(p)
	case runtime.DialectGemini:
		var p genai.Tool
		if err := strictDecode(item, &p); err != nil {
			return nil, err
		}
		return json.Marshal(p)
	case runtime.DialectMCP:
		var p mcp.Tool
		if err := strictDecode(item, &p); err != nil {
			return nil, err
		}
		return json.Marshal(p)
	}
	return nil, fmt.Errorf("unknown dialect %s", d)
}

// strictDecode is json.Unmarshal refusing fields the type does not have.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// normalize is the JSON value of data with what the SDKs' omitempty drops
// for a zero value left out: genai and the MCP SDK write no empty string,
// false or empty object (Gemini's description, MCP's readOnlyHint false,
// a provider tool's empty config). It is applied to both sides alike.
func normalize(t *testing.T, data []byte, dropZero bool) any {
	t.Helper()
	// Numbers compare as float64: the SDKs hold schemas as map[string]any,
	// so an integer beyond 2^53 (the edge fixture's "maximum":
	// 9007199254740993) reaches the provider rounded whatever toolgen
	// writes; a host sending toolgen's bytes as they are keeps it exact.
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	if dropZero {
		v = dropZeros(v)
	}
	return v
}

func dropZeros(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch e := e.(type) {
			case string:
				if e == "" {
					delete(x, k)
					continue
				}
			case bool:
				if !e {
					delete(x, k)
					continue
				}
			}
			x[k] = dropZeros(e)
		}
	case []any:
		for i := range x {
			x[i] = dropZeros(x[i])
		}
	}
	return v
}

// TestSDKRoundTrip: every tool of every generated module, in every dialect
// and mode, decodes into the official SDK's param type and encodes back to
// the same JSON.
func TestSDKRoundTrip(t *testing.T) {
	for name, m := range modules() {
		for _, mode := range modes {
			t.Run(name+"/"+mode.name, func(t *testing.T) {
				items := catalog(t, m, mode.d, mode.opts)
				if len(items) == 0 {
					t.Fatal("empty catalog")
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
}

// TestSDKRoundTripFails: the check fails for a field the SDK does not know
// and for a value of the wrong type, in each dialect.
func TestSDKRoundTripFails(t *testing.T) {
	for _, c := range []struct {
		d    runtime.Dialect
		item string
	}{
		{runtime.DialectOpenAIChat, `{"type":"function","function":{"name":"a","parameters":{"type":"object"},"strict":false,"input_examples":[]}}`},
		{runtime.DialectOpenAI, `{"type":"function","name":"a","parameters":{"type":"object"},"strict":true,"examples":[]}`},
		{runtime.DialectAnthropic, `{"name":"a","input_schema":{"type":"object"},"strict":true,"examples":[{}]}`},
		{runtime.DialectAnthropic, `{"name":"a","input_schema":{"type":"object"},"defer_loading":"yes"}`},
		{runtime.DialectGemini, `{"functionDeclarations":[{"name":"a","description":"","parametersJSONSchema":{}}]}`},
		{runtime.DialectMCP, `{"name":"a","inputSchema":{"type":"object"},"annotations":{"readOnly":true}}`},
	} {
		back, err := roundTrip(c.d, []byte(c.item))
		if err == nil && reflect.DeepEqual(normalize(t, back, true), normalize(t, []byte(c.item), true)) {
			t.Errorf("%s: %s passes the check (SDK: %s)", c.d, c.item, back)
		}
	}
}

// TestSDKInputExamples: the example module's tools with examples: reach
// the Anthropic SDK's ToolParam.InputExamples, strict or not, as the
// generated Tool holds them; OmitExamples leaves them out.
func TestSDKInputExamples(t *testing.T) {
	want := map[string][]json.RawMessage{}
	for _, tl := range example.Module(example.New()).Tools {
		if len(tl.Examples) > 0 {
			want[tl.Name] = tl.Examples
		}
	}
	if len(want) == 0 {
		t.Fatal("the example module has no examples")
	}
	for _, opts := range []runtime.EncodeOptions{{}, {Strict: true}, {OmitExamples: true}} {
		got := map[string][]json.RawMessage{}
		for _, item := range catalog(t, example.Module(example.New()), runtime.DialectAnthropic, opts) {
			var p anthropic.ToolUnionParam
			if err := json.Unmarshal(item, &p); err != nil {
				t.Fatal(err)
			}
			if p.OfTool == nil {
				continue // a server tool
			}
			for _, ex := range p.OfTool.InputExamples {
				b, err := json.Marshal(ex)
				if err != nil {
					t.Fatal(err)
				}
				got[p.OfTool.Name] = append(got[p.OfTool.Name], b)
			}
		}
		w := want
		if opts.OmitExamples {
			w = map[string][]json.RawMessage{}
		}
		if !reflect.DeepEqual(normalize(t, mustJSON(t, got), false), normalize(t, mustJSON(t, w), false)) {
			t.Errorf("%+v: the SDK reads input_examples %s, want %s", opts, mustJSON(t, got), mustJSON(t, w))
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
