package websearch

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// stubBackend records queries and answers with fixed results or an error.
type stubBackend struct {
	mu      sync.Mutex
	queries []string
	resp    Response
	err     error
}

func (s *stubBackend) Name() string { return "stub" }

func (s *stubBackend) Search(ctx context.Context, req Request) (Response, error) {
	s.mu.Lock()
	s.queries = append(s.queries, req.Query)
	s.mu.Unlock()
	return s.resp, s.err
}

func dispatch(t *testing.T, reg *runtime.Registry, args string) runtime.Outcome {
	t.Helper()
	out, err := reg.Dispatch(context.Background(), nil, runtime.ToolCall{ID: "1", Name: "web_search", Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestToolShape(t *testing.T) {
	if _, err := NewTool(nil); err == nil {
		t.Error("nil backend accepted")
	}
	tool, err := NewTool(&stubBackend{})
	if err != nil {
		t.Fatal(err)
	}
	f := tool.Flags
	if tool.Name != "web_search" || tool.Provider != "websearch" || tool.Kind != runtime.KindTool || !f.Enabled || !f.ReadOnly || !f.ConcurrencySafe || !f.OpenWorld || !f.Idempotent || f.Destructive || f.RequiresApproval {
		t.Errorf("tool = %+v", tool)
	}
	for _, s := range []json.RawMessage{tool.Schema, tool.ResultSchema} {
		var v any
		if err := json.Unmarshal(s, &v); err != nil {
			t.Fatalf("schema %s: %v", s, err)
		}
		again, _ := json.Marshal(v)
		if string(again) != string(s) {
			t.Errorf("schema is not canonical:\n%s\n%s", s, again)
		}
	}
}

func TestToolSearches(t *testing.T) {
	b := &stubBackend{resp: Response{Results: []Result{
		{Title: "Go", URL: "https://go.dev/", Snippets: []string{"Build simple systems."}},
		{Title: "No snippets", URL: "https://example.com/"},
	}}}
	tool, _ := NewTool(b)
	reg := runtime.NewRegistry(runtime.Options{})
	if err := reg.Add(tool); err != nil {
		t.Fatal(err)
	}
	out := dispatch(t, reg, `{"query":"  golang  "}`)
	if out.Status != runtime.StatusOK || !strings.HasPrefix(out.Label, "Searching the web for") {
		t.Fatalf("outcome = %+v", out)
	}
	want := `{"query":"golang","results":[{"title":"Go","url":"https://go.dev/","snippets":["Build simple systems."]},{"title":"No snippets","url":"https://example.com/","snippets":[]}]}`
	if got := out.Result.String(); got != want {
		t.Errorf("result\n got %s\nwant %s", got, want)
	}
	if len(b.queries) != 1 || b.queries[0] != "golang" {
		t.Errorf("backend saw %q, want the trimmed query", b.queries)
	}

	b.resp = Response{}
	if got := dispatch(t, reg, `{"query":"nothing"}`).Result.String(); got != `{"query":"nothing","results":[]}` {
		t.Errorf("no results: %s", got)
	}
}

func TestToolValidation(t *testing.T) {
	b := &stubBackend{}
	tool, _ := NewTool(b)
	reg := runtime.NewRegistry(runtime.Options{})
	if err := reg.Add(tool); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ args, want string }{
		{`{}`, `$: missing required property "query"`},
		{`{"query":""}`, "$.query: must be at least 1 character long after trimming white space, got 0"},
		{`{"query":"   "}`, "$.query: must be at least 1 character long after trimming white space, got 0"},
		{`{"query":"` + strings.Repeat("é", 401) + `"}`, "$.query: must be at most 400 characters long after trimming white space, got 401"},
		{`{"query":1}`, "$.query: expected string, got number"},
		{`{"query":"x","site":"go.dev"}`, `$: unknown property "site"`},
	} {
		out := dispatch(t, reg, c.args)
		if out.Status != runtime.StatusError || out.Err.Kind != runtime.ErrInvalidArgs || !strings.Contains(out.Result.String(), c.want) {
			t.Errorf("%s: %s, want %q", c.args, out.Result.String(), c.want)
		}
	}
	if len(b.queries) != 0 {
		t.Errorf("invalid calls reached the backend: %q", b.queries)
	}
	// 400 characters padded with white space are fine, and reach the
	// backend trimmed.
	q := strings.Repeat("é", 400)
	if out := dispatch(t, reg, `{"query":"  `+q+` \t"}`); out.Status != runtime.StatusOK || !strings.Contains(out.Result.String(), `{"query":"`+q+`",`) {
		t.Errorf("400 characters: %s", out.Result.String())
	}
	if len(b.queries) != 1 || b.queries[0] != q {
		t.Errorf("backend saw %q", b.queries)
	}
}

// TestBlankQueryStopsAtDecode: a blank query is caught by the generated
// decoder (trim: true, then minLength 1), i.e. at the pipeline's decode
// step: one invalid-arguments violation at $.query, no call of the backend,
// and no execution (with no backend at all, reaching the executor would
// give its "not configured" error instead).
func TestBlankQueryStopsAtDecode(t *testing.T) {
	_, err := DecodeWebSearchArgs([]byte(`{"query":" \n\t\u00a0 "}`))
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) || len(ve.Violations) != 1 || ve.Violations[0].Path != "$.query" {
		t.Fatalf("decoding a blank query: %v", err)
	}
	b := &stubBackend{}
	for name, reg := range map[string]*runtime.Registry{"with a backend": registryOf(t, &Tools{Backend: b}), "without one": registryOf(t, &Tools{})} {
		out := dispatch(t, reg, `{"query":" \n\t\u00a0 "}`)
		if out.Status != runtime.StatusError || out.Err == nil || out.Err.Kind != runtime.ErrInvalidArgs ||
			!reflect.DeepEqual(out.Err.Violations, ve.Violations) {
			t.Errorf("%s: %+v", name, out)
		}
	}
	if len(b.queries) != 0 {
		t.Errorf("a blank query reached the backend: %q", b.queries)
	}
}

func registryOf(t *testing.T, impl Executor) *runtime.Registry {
	t.Helper()
	reg := runtime.NewRegistry(runtime.Options{})
	if err := reg.AddModule(Module(impl)); err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestToolBackendErrorReadsWell(t *testing.T) {
	_, srv := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	tool, _ := NewTool(newTestBrave(t, srv, BraveOptions{}))
	reg := runtime.NewRegistry(runtime.Options{})
	if err := reg.Add(tool); err != nil {
		t.Fatal(err)
	}
	out := dispatch(t, reg, `{"query":"go"}`)
	if out.Status != runtime.StatusError || out.Result.String() != "Error: web search is rate limited (HTTP 429); retry after 3 seconds" {
		t.Errorf("outcome: %q", out.Result.String())
	}
	if !errors.Is(out.Err, ErrRateLimited) {
		t.Errorf("the tool error does not wrap ErrRateLimited: %v", out.Err)
	}
}
