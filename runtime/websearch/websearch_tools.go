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
	"strings"

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
// The query is trimmed (the generated decoder has checked its length, 1-400
// characters); a blank query is an invalid-arguments error, reported like
// the decoder's own. The backend's results come back with empty snippet
// lists rather than null ones.
func (t *Tools) WebSearch(ctx context.Context, call *runtime.Call, args *WebSearchArgs) (*WebSearchResult, error) {
	if t.Backend == nil {
		return nil, errors.New("web search is not configured on this host (no search backend)")
	}
	q := strings.TrimSpace(args.Query)
	if q == "" {
		v := runtime.Violation{Path: "$.query", Message: "must not be blank: give the words to search for"}
		return nil, &runtime.ToolError{Kind: runtime.ErrInvalidArgs, Tool: ToolWebSearch, Violations: []runtime.Violation{v},
			Message: "invalid arguments for " + ToolWebSearch + ":\n- " + v.String()}
	}
	resp, err := t.Backend.Search(ctx, Request{Query: q})
	if err != nil {
		return nil, err
	}
	out := &WebSearchResult{Query: q, Results: resp.Results}
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
