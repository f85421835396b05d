package websearch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/websearch"
)

// A host whose model provider has no native web search registers the
// web_search fallback over Brave Search. (The endpoint here is a local
// stand-in for https://api.search.brave.com/res/v1/llm/context.)
func ExampleNewBrave() {
	brave := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"grounding":{"generic":[{"url":"https://go.dev/","title":"The Go Programming Language","snippets":["Go is an open source programming language."]}]},"sources":{}}`)
	}))
	defer brave.Close()

	backend, err := websearch.NewBrave(websearch.BraveOptions{
		APIKey:     "BRAVE_SEARCH_API_KEY",
		Endpoint:   brave.URL, // leave empty in production
		MaxResults: 3,
		Freshness:  "pm",
	})
	if err != nil {
		panic(err)
	}
	reg := runtime.NewRegistry(runtime.Options{})
	if reg.NeedsWebSearchFallback(runtime.DialectMCP) {
		tool, err := websearch.NewTool(backend)
		if err != nil {
			panic(err)
		}
		if err := reg.Add(tool); err != nil {
			panic(err)
		}
	}
	out, err := reg.Dispatch(context.Background(), nil, runtime.ToolCall{
		ID: "1", Name: "web_search", Arguments: json.RawMessage(`{"query":"golang"}`),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Label)
	fmt.Println(out.Result.String())
	// Output:
	// Searching the web for golang
	// {"query":"golang","results":[{"title":"The Go Programming Language","url":"https://go.dev/","snippets":["Go is an open source programming language."]}]}
}
