// Package websearch serves the portable web_search tool on model providers
// that have no native web search: a small Backend interface, a Brave Search
// backend, and the web_search fallback tool over any Backend.
//
// A host registers the fallback only where it is needed:
//
//	if reg.NeedsWebSearchFallback(runtime.DialectMCP) {
//		tool, err := websearch.NewTool(brave)
//		...
//		err = reg.Add(tool)
//	}
package websearch

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime"
)

// Backend runs web searches for the web_search tool.
type Backend interface {
	// Name identifies the backend in logs and errors ("brave").
	Name() string
	// Search runs one query. Errors should read well to a model (see
	// Error); a done ctx ends the search with ctx's error.
	Search(ctx context.Context, req Request) (Response, error)
}

// Request is one search.
type Request struct {
	Query string `json:"query"`
}

// Response is what a search found, best first.
type Response struct {
	Results []Result `json:"results"`
}

// Result is one web page found.
type Result struct {
	Title    string   `json:"title"`
	URL      string   `json:"url"`
	Snippets []string `json:"snippets"`
}

// Limits of the web_search tool's query, in characters after trimming.
const (
	MinQueryLength = 1
	MaxQueryLength = 400
)

// ToolName is the portable name of the fallback tool.
const ToolName = runtime.WebSearch

// Args are the arguments of the web_search tool.
type Args struct {
	// Query is the search query, trimmed.
	Query string `json:"query"`
}

// ToolResult is the JSON the web_search tool returns.
type ToolResult struct {
	Query   string   `json:"query"`
	Results []Result `json:"results"`
}

const toolSchema = `{"additionalProperties":false,"properties":{"query":{"description":"What to search the web for: a few precise keywords or a question (1-400 characters).","maxLength":400,"minLength":1,"type":"string"}},"required":["query"],"type":"object"}`

const toolResultSchema = `{"additionalProperties":false,"properties":{"query":{"type":"string"},"results":{"items":{"additionalProperties":false,"properties":{"snippets":{"items":{"type":"string"},"type":"array"},"title":{"type":"string"},"url":{"type":"string"}},"required":["title","url","snippets"],"type":"object"},"type":"array"}},"required":["query","results"],"type":"object"}`

// NewTool returns the web_search fallback tool over b: it takes {query}
// (trimmed, 1-400 characters) and returns JSON {query, results: [{title,
// url, snippets}]}. It is read-only, idempotent, concurrency-safe and
// open-world. Register it only for providers without native web search
// (see runtime.Registry.NeedsWebSearchFallback).
func NewTool(b Backend) (*runtime.Tool, error) {
	if b == nil {
		return nil, errors.New("websearch: NewTool: nil backend")
	}
	flags := runtime.DefaultFlags()
	flags.ReadOnly, flags.Idempotent, flags.ConcurrencySafe, flags.OpenWorld = true, true, true, true
	return &runtime.Tool{
		Name:         ToolName,
		Description:  "Search the web for current information. Returns the most relevant pages, each with its title, URL and text snippets.",
		Schema:       []byte(toolSchema),
		ResultSchema: []byte(toolResultSchema),
		Flags:        flags,
		Decode:       runtime.DecodeJSON[Args](validateArgs),
		Label:        runtime.TypedLabel(label),
		Execute: runtime.TypedExecute(func(ctx context.Context, call *runtime.Call, a *Args) (runtime.Result, error) {
			resp, err := b.Search(ctx, Request{Query: a.Query})
			if err != nil {
				return runtime.Result{}, err
			}
			out := ToolResult{Query: a.Query, Results: resp.Results}
			if out.Results == nil {
				out.Results = []Result{}
			}
			for i := range out.Results {
				if out.Results[i].Snippets == nil {
					out.Results[i].Snippets = []string{}
				}
			}
			return runtime.JSON(out)
		}),
	}, nil
}

// validateArgs trims the query and checks its length.
func validateArgs(a *Args) []runtime.Violation {
	a.Query = strings.TrimSpace(a.Query)
	switch n := utf8.RuneCountInString(a.Query); {
	case n < MinQueryLength:
		return []runtime.Violation{{Path: "$.query", Message: "is required and must not be empty"}}
	case n > MaxQueryLength:
		return []runtime.Violation{{Path: "$.query", Message: "must be at most 400 characters, got " + strconv.Itoa(n)}}
	}
	return nil
}

func label(a *Args) string {
	q := strings.TrimSpace(a.Query)
	if q == "" {
		return "Searching the web"
	}
	if utf8.RuneCountInString(q) > 60 {
		q = string([]rune(q)[:60]) + "…"
	}
	return "Searching the web for " + q
}
