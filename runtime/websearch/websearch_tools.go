// This file is yours: toolgen wrote these stubs once and only adds stubs for
// new tools. It never changes what you write here.
//
// Tools implements Executor, the interface generated from websearch.tools.yaml:
// replace each stub's body with the tool's work. When you add a tool to the
// spec, `go generate` appends its stub at the end of this file; when you remove
// one, it tells you which method to delete. Methods may live in any file of the
// package.

package websearch

import (
	"context"
	"errors"

	"github.com/toolgen/toolgen/runtime"
)

// Tools implements Executor, the tools of websearch.tools.yaml, over a
// search Backend.
type Tools struct {
	// Backend runs the searches. Required.
	Backend Backend
}

var _ Executor = (*Tools)(nil)

// WebSearch runs the web_search tool: Search the web for current information.
// Returns the most relevant pages, each with its title, URL and text snippets.
//
// The query arrives trimmed and 1-400 characters long: the spec says trim:
// true, so the generated decoder trims it before checking its length, and a
// blank query is an invalid-arguments error at the decode step that never
// gets here. The backend's results come back with empty snippet lists rather
// than null ones.
func (t *Tools) WebSearch(ctx context.Context, call *runtime.Call, args *WebSearchArgs) (*WebSearchResult, error) {
	if t.Backend == nil {
		return nil, errors.New("web search is not configured on this host (no search backend)")
	}
	resp, err := t.Backend.Search(ctx, Request{Query: args.Query})
	if err != nil {
		return nil, err
	}
	out := &WebSearchResult{Query: args.Query, Results: resp.Results}
	if out.Results == nil {
		out.Results = []Result{}
	}
	for i := range out.Results {
		if out.Results[i].Snippets == nil {
			out.Results[i].Snippets = []string{}
		}
	}
	return out, nil
}
