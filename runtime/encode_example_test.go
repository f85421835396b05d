package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolgen/toolgen/runtime"
)

// One registry, encoded for each provider's request: a hand-written tool
// with an optional parameter, and the portable web_search provider tool.
func ExampleRegistry_EncodeCatalog() {
	reg := runtime.NewRegistry(runtime.Options{DropNullOptionals: true})
	flags := runtime.DefaultFlags()
	flags.ReadOnly = true
	err := reg.Add(&runtime.Tool{
		Name:        "weather",
		Description: "Current weather for a city.",
		Schema: json.RawMessage(`{"additionalProperties":false,"properties":{` +
			`"city":{"type":"string"},"unit":{"enum":["C","F"],"type":"string"}},"required":["city"],"type":"object"}`),
		Flags:  flags,
		Decode: func(data []byte) (any, error) { return data, nil },
		Execute: func(_ context.Context, _ *runtime.Call, args any) (runtime.Result, error) {
			return runtime.Text(fmt.Sprintf("sunny, for %s", args)), nil
		},
	})
	if err == nil {
		err = reg.AddProvider(runtime.ProviderTool{Name: runtime.WebSearch})
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, call := context.Background(), &runtime.Call{UserID: "u1"}
	for _, d := range []runtime.Dialect{runtime.DialectAnthropic, runtime.DialectGemini, runtime.DialectMCP} {
		tools, err := reg.EncodeCatalog(ctx, call, d, runtime.EncodeOptions{})
		fmt.Printf("%s: %s %v\n", d, tools, err)
	}

	// OpenAI in strict mode: the optional unit becomes required and
	// nullable, so the model sends null for it; with
	// Options.DropNullOptionals the tool reads that null as absent.
	tools, err := reg.EncodeCatalog(ctx, call, runtime.DialectOpenAI, runtime.EncodeOptions{Strict: true})
	fmt.Printf("openai strict: %s %v\n", tools, err)
	out, err := reg.Dispatch(ctx, call, runtime.ToolCall{ID: "c1", Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo","unit":null}`)})
	fmt.Printf("result: %s %v\n", out.Result.String(), err)
	// Output:
	// anthropic: [{"name":"weather","description":"Current weather for a city.","input_schema":{"additionalProperties":false,"properties":{"city":{"type":"string"},"unit":{"enum":["C","F"],"type":"string"}},"required":["city"],"type":"object"}},{"type":"web_search_20250305","name":"web_search"}] <nil>
	// gemini: [{"functionDeclarations":[{"name":"weather","description":"Current weather for a city.","parameters":{"properties":{"city":{"type":"STRING"},"unit":{"enum":["C","F"],"format":"enum","type":"STRING"}},"required":["city"],"type":"OBJECT"}}]},{"googleSearch":{}}] <nil>
	// mcp: [{"name":"weather","description":"Current weather for a city.","inputSchema":{"additionalProperties":false,"properties":{"city":{"type":"string"},"unit":{"enum":["C","F"],"type":"string"}},"required":["city"],"type":"object"},"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":false,"openWorldHint":true}}] <nil>
	// openai strict: [{"type":"function","name":"weather","description":"Current weather for a city.","parameters":{"additionalProperties":false,"properties":{"city":{"type":"string"},"unit":{"enum":["C","F",null],"type":["string","null"]}},"required":["city","unit"],"type":"object"},"strict":true},{"type":"web_search_preview"}] <nil>
	// result: sunny, for {"city":"Oslo"} <nil>
}
