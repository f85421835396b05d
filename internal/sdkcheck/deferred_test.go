package sdkcheck

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen/toolgen/runtime"
)

// deferredRegistry registers module m with every tool deferred but the
// first, every gate open, the portable provider tools and extra.
func deferredRegistry(t *testing.T, m *runtime.Module, extra ...*runtime.Tool) *runtime.Registry {
	t.Helper()
	for i, tool := range m.Tools {
		tool.DeferLoading = i > 0
	}
	reg := runtime.NewRegistry(runtime.Options{Gates: runtime.GatesFunc(func(context.Context, *runtime.Call, string) (bool, error) {
		return true, nil
	})})
	if err := reg.AddModule(m); err != nil {
		t.Fatal(err)
	}
	if err := reg.Add(extra...); err != nil {
		t.Fatal(err)
	}
	if err := reg.AddProvider(runtime.ProviderTool{Name: runtime.WebSearch}, runtime.ProviderTool{Name: runtime.CodeExecution}); err != nil {
		t.Fatal(err)
	}
	return reg
}

func items(t *testing.T, raw []byte) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// sameThroughSDK checks that each item decodes into dialect d's SDK param
// type and encodes back to the same JSON.
func sameThroughSDK(t *testing.T, d runtime.Dialect, list []json.RawMessage) {
	t.Helper()
	for _, item := range list {
		back, err := roundTrip(d, item)
		if err != nil {
			t.Fatalf("the SDK does not take %s: %v", item, err)
		}
		dropZero := d == runtime.DialectGemini || d == runtime.DialectMCP
		if got, want := normalize(t, back, dropZero), normalize(t, item, dropZero); !reflect.DeepEqual(got, want) {
			t.Errorf("the SDK reads it otherwise:\n sent %s\n SDK  %s", item, back)
		}
	}
}

// TestSDKDeferred: with deferred tools, OpenAI Responses' function tools
// decode with FunctionToolParam.DeferLoading set and the added tool search
// as ToolUnionParam.OfToolSearch; Anthropic's as ToolParam.DeferLoading and
// OfToolSearchToolBm25_20251119; each re-encodes to the same JSON.
func TestSDKDeferred(t *testing.T) {
	ctx := context.Background()
	for name, m := range modules() {
		reg := deferredRegistry(t, m)
		for _, mode := range modes {
			if mode.d != runtime.DialectOpenAI && mode.d != runtime.DialectAnthropic || mode.opts.OpenAINamespaces {
				continue // namespaces: TestSDKNamespaces
			}
			t.Run(name+"/"+mode.name, func(t *testing.T) {
				raw, err := reg.EncodeCatalog(ctx, nil, mode.d, mode.opts)
				if err != nil {
					t.Fatal(err)
				}
				list := items(t, raw)
				sameThroughSDK(t, mode.d, list)
				deferred, searches := 0, 0
				for _, item := range list {
					switch mode.d {
					case runtime.DialectOpenAI:
						var p responses.ToolUnionParam
						if err := json.Unmarshal(item, &p); err != nil {
							t.Fatal(err)
						}
						switch {
						case p.OfFunction != nil && p.OfFunction.DeferLoading.Value:
							deferred++
						case p.OfToolSearch != nil:
							searches++
						}
					case runtime.DialectAnthropic:
						var p anthropic.ToolUnionParam
						if err := json.Unmarshal(item, &p); err != nil {
							t.Fatal(err)
						}
						switch {
						case p.OfTool != nil && p.OfTool.DeferLoading.Value:
							deferred++
						case p.OfToolSearchToolBm25_20251119 != nil:
							searches++
						}
					}
				}
				want := 0 // a module of one tool defers nothing
				if len(m.Tools) > 1 {
					want = 1
				}
				if deferred != len(m.Tools)-1 || searches != want {
					t.Errorf("%d deferred tools and %d tool searches, want %d and %d", deferred, searches, len(m.Tools)-1, want)
				}
			})
		}
	}
}

// TestSDKToolSearch: on Chat Completions, Gemini and MCP, a catalog with
// the portable tool search and what a search returns decode into the
// SDK's param types and re-encode to the same JSON.
func TestSDKToolSearch(t *testing.T) {
	ctx := context.Background()
	for _, d := range []runtime.Dialect{runtime.DialectOpenAIChat, runtime.DialectGemini, runtime.DialectMCP} {
		search, err := runtime.NewToolSearch(runtime.ToolSearchOptions{Dialect: d, MaxResults: 20})
		if err != nil {
			t.Fatal(err)
		}
		reg := deferredRegistry(t, modules()["stripe"], search)
		raw, err := reg.EncodeCatalog(ctx, nil, d, runtime.EncodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sameThroughSDK(t, d, items(t, raw))
		out, err := reg.Dispatch(ctx, &runtime.Call{UserID: "u"}, runtime.ToolCall{Name: runtime.ToolSearchName,
			Arguments: json.RawMessage(`{"query":"customers"}`)})
		if err != nil || out.Status != runtime.StatusOK {
			t.Fatalf("%s: %v %+v", d, err, out)
		}
		found := items(t, []byte(out.Result.String()))
		if len(found) == 0 {
			t.Fatalf("%s: nothing found for customers", d)
		}
		sameThroughSDK(t, d, found)
	}
}

// TestSDKOutputSchema: with EncodeOptions.OpenAIOutputSchema, a tool with a
// typed result decodes with FunctionToolParam.OutputSchema holding it.
func TestSDKOutputSchema(t *testing.T) {
	total := 0
	defer func() {
		if total == 0 {
			t.Error("no module has a typed result")
		}
	}()
	for name, m := range modules() {
		typed := 0
		for _, tool := range m.Tools {
			if len(tool.ResultSchema) > 0 {
				typed++
			}
		}
		list := catalog(t, m, runtime.DialectOpenAI, runtime.EncodeOptions{OpenAIOutputSchema: true})
		sameThroughSDK(t, runtime.DialectOpenAI, list)
		got := 0
		for _, item := range list {
			var p responses.ToolUnionParam
			if err := json.Unmarshal(item, &p); err != nil {
				t.Fatal(err)
			}
			if p.OfFunction != nil && p.OfFunction.OutputSchema != nil {
				got++
			}
		}
		total += got
		if got != typed {
			t.Errorf("%s: %d tools with output_schema, want the %d with a typed result", name, got, typed)
		}
	}
}

// TestSDKNamespaces: with OpenAINamespaces, each module's tools decode as
// one ToolUnionParam.OfNamespace named after the module, its functions
// (deferred ones with DeferLoading) inside; a function_call the model
// makes in a namespace (responses.ResponseFunctionToolCall, namespace set)
// is dispatched by its name.
func TestSDKNamespaces(t *testing.T) {
	ctx := context.Background()
	for name, m := range modules() {
		reg := deferredRegistry(t, m)
		for _, strict := range []bool{false, true} {
			raw, err := reg.EncodeCatalog(ctx, nil, runtime.DialectOpenAI, runtime.EncodeOptions{OpenAINamespaces: true, Strict: strict})
			if err != nil {
				t.Fatal(err)
			}
			list := items(t, raw)
			sameThroughSDK(t, runtime.DialectOpenAI, list)
			var namespaces []string
			inside, deferred := 0, 0
			for _, item := range list {
				var p responses.ToolUnionParam
				if err := json.Unmarshal(item, &p); err != nil {
					t.Fatal(err)
				}
				if p.OfFunction != nil {
					t.Errorf("%s: function %s outside its module's namespace", name, p.OfFunction.Name)
				}
				if ns := p.OfNamespace; ns != nil {
					namespaces = append(namespaces, ns.Name)
					for _, f := range ns.Tools {
						if f.OfFunction == nil {
							t.Fatalf("%s: namespace entry is not a function: %s", name, item)
						}
						inside++
						if f.OfFunction.DeferLoading.Value {
							deferred++
						}
					}
				}
			}
			if len(namespaces) != 1 || namespaces[0] != m.Provider || inside != len(m.Tools) || deferred != len(m.Tools)-1 {
				t.Errorf("%s: namespaces %v holding %d tools (%d deferred), want [%s] holding %d (%d)",
					name, namespaces, inside, deferred, m.Provider, len(m.Tools), len(m.Tools)-1)
			}
		}
	}

	// The model's call of a tool in a namespace names the tool.
	reg := deferredRegistry(t, modules()["example"])
	tool := reg.Executable()[0]
	item := `{"type":"function_call","call_id":"call_1","namespace":"` + tool.Provider + `","name":"` + tool.Name + `","arguments":"{}"}`
	var fc responses.ResponseFunctionToolCall
	if err := json.Unmarshal([]byte(item), &fc); err != nil {
		t.Fatal(err)
	}
	if fc.Namespace != tool.Provider {
		t.Fatalf("namespace %q", fc.Namespace)
	}
	out, err := reg.Dispatch(ctx, &runtime.Call{UserID: "u"}, runtime.ToolCall{ID: fc.CallID, Name: fc.Name, Arguments: json.RawMessage(fc.Arguments)})
	if err != nil || out.Tool != tool.Name || out.Err != nil && out.Err.Kind == runtime.ErrUnknownTool {
		t.Errorf("dispatching %s: %v %+v", item, err, out)
	}
}
