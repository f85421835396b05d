package websearch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// braveAnswer is an LLM Context answer shaped like Brave's.
const braveAnswer = `{
  "grounding": {
    "generic": [
      {"url": "https://en.wikipedia.org/wiki/Go_(programming_language)", "title": "Go (programming language)", "snippets": ["Go is a statically typed, compiled language.", "It was designed at Google."]},
      {"url": "https://go.dev/", "title": "", "snippets": ["Build simple, secure, scalable systems with Go."]},
      {"url": "https://go.dev/doc/", "title": "Documentation", "snippets": null},
      {"url": "", "title": "no url", "snippets": ["dropped"]}
    ],
    "poi": {"url": "https://maps.example/gopher-cafe", "title": "Gopher Cafe", "snippets": ["Open 8-18"]},
    "map": [{"url": "https://maps.example/area", "title": "Area map", "snippets": []}]
  },
  "sources": {
    "https://go.dev/": {"title": "The Go Programming Language", "hostname": "go.dev", "age": null},
    "https://go.dev/doc/": {"title": "Documentation - The Go Programming Language", "hostname": "go.dev"}
  }
}`

// fakeBrave is a local server shaped like Brave's API.
type fakeBrave struct {
	mu       sync.Mutex
	requests []*http.Request
	handler  func(w http.ResponseWriter, r *http.Request)
}

func (f *fakeBrave) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.requests = append(f.requests, r.Clone(context.Background()))
	f.mu.Unlock()
	if r.Header.Get("X-Subscription-Token") != "good-key" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"type":"ErrorResponse","error":{"id":"x","status":401,"code":"SUBSCRIPTION_TOKEN_INVALID","detail":"The provided subscription token is invalid."},"time":1}`))
		return
	}
	if f.handler != nil {
		f.handler(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(braveAnswer))
}

func (f *fakeBrave) last() *http.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests[len(f.requests)-1]
}

func newFake(t *testing.T, h func(w http.ResponseWriter, r *http.Request)) (*fakeBrave, *httptest.Server) {
	t.Helper()
	f := &fakeBrave{handler: h}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func newTestBrave(t *testing.T, srv *httptest.Server, opts BraveOptions) *Brave {
	t.Helper()
	if opts.APIKey == "" {
		opts.APIKey = "good-key"
	}
	opts.Endpoint = srv.URL + "/res/v1/llm/context"
	opts.HTTPClient = srv.Client()
	b, err := NewBrave(opts)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestNewBraveOptions(t *testing.T) {
	b, err := NewBrave(BraveOptions{APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if b.endpoint != DefaultBraveEndpoint || b.maxResults != 5 || b.timeout != 10*time.Second || b.client != http.DefaultClient {
		t.Errorf("defaults: %+v", b)
	}
	if got := b.params.Encode(); got != "maximum_number_of_urls=5" {
		t.Errorf("default parameters: %s", got)
	}
	for _, c := range []struct {
		opts BraveOptions
		want string
	}{
		{BraveOptions{}, "APIKey is required"},
		{BraveOptions{APIKey: "  "}, "APIKey is required"},
		{BraveOptions{APIKey: "k", MaxResults: 51}, "MaxResults must be between 1 and 50, got 51"},
		{BraveOptions{APIKey: "k", MaxResults: -1}, "MaxResults"},
		{BraveOptions{APIKey: "k", CandidateCount: 60}, "CandidateCount must be between 1 and 50"},
		{BraveOptions{APIKey: "k", MaxTokens: 100}, "MaxTokens must be between 1024 and 32768"},
		{BraveOptions{APIKey: "k", MaxSnippets: 101}, "MaxSnippets"},
		{BraveOptions{APIKey: "k", MaxTokensPerURL: 9000}, "MaxTokensPerURL"},
		{BraveOptions{APIKey: "k", MaxSnippetsPerURL: -3}, "MaxSnippetsPerURL"},
		{BraveOptions{APIKey: "k", ContextThresholdMode: "loose"}, "ContextThresholdMode"},
		{BraveOptions{APIKey: "k", Country: "USA"}, "Country"},
		{BraveOptions{APIKey: "k", SearchLanguage: "english"}, "SearchLanguage"},
		{BraveOptions{APIKey: "k", Freshness: "pq"}, "Freshness must be pd, pw, pm, py or YYYY-MM-DDtoYYYY-MM-DD"},
		{BraveOptions{APIKey: "k", Freshness: "2024-13-01to2024-12-31"}, "Freshness"},
		{BraveOptions{APIKey: "k", Freshness: "2024-12-31to2024-01-01"}, "starts after it ends"},
		{BraveOptions{APIKey: "k", Timeout: -time.Second}, "Timeout"},
		{BraveOptions{APIKey: "k", Endpoint: "ftp://x"}, "Endpoint"},
	} {
		if _, err := NewBrave(c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err = %v, want %q", c.opts, err, c.want)
		}
	}
	for _, f := range []string{"pd", "pw", "pm", "py", "2022-04-01to2022-07-30", "2024-01-01to2024-01-01"} {
		if _, err := NewBrave(BraveOptions{APIKey: "k", Freshness: f}); err != nil {
			t.Errorf("freshness %q: %v", f, err)
		}
	}
}

func TestBraveRequest(t *testing.T) {
	f, srv := newFake(t, nil)
	b := newTestBrave(t, srv, BraveOptions{
		MaxResults: 3, CandidateCount: 20, MaxTokens: 4096, MaxSnippets: 30, MaxTokensPerURL: 1024,
		MaxSnippetsPerURL: 5, ContextThresholdMode: "strict", Country: "de", SearchLanguage: "DE",
		Freshness: "pw",
	})
	if _, err := b.Search(context.Background(), Request{Query: "  golang generics  "}); err != nil {
		t.Fatal(err)
	}
	r := f.last()
	if r.Method != http.MethodGet || r.URL.Path != "/res/v1/llm/context" {
		t.Errorf("%s %s", r.Method, r.URL.Path)
	}
	if r.Header.Get("X-Subscription-Token") != "good-key" || r.Header.Get("Accept") != "application/json" {
		t.Errorf("headers: %v", r.Header)
	}
	want := url.Values{
		"q": {"golang generics"}, "maximum_number_of_urls": {"3"}, "count": {"20"},
		"maximum_number_of_tokens": {"4096"}, "maximum_number_of_snippets": {"30"},
		"maximum_number_of_tokens_per_url": {"1024"}, "maximum_number_of_snippets_per_url": {"5"},
		"context_threshold_mode": {"strict"}, "country": {"DE"}, "search_lang": {"de"}, "freshness": {"pw"},
	}
	if got := r.URL.Query(); !reflect.DeepEqual(got, want) {
		t.Errorf("query parameters\n got %v\nwant %v", got, want)
	}

	// Unset options are not sent.
	b = newTestBrave(t, srv, BraveOptions{})
	if _, err := b.Search(context.Background(), Request{Query: "x"}); err != nil {
		t.Fatal(err)
	}
	if got := f.last().URL.Query(); !reflect.DeepEqual(got, url.Values{"q": {"x"}, "maximum_number_of_urls": {"5"}}) {
		t.Errorf("minimal parameters: %v", got)
	}
}

func TestBraveResultMapping(t *testing.T) {
	_, srv := newFake(t, nil)
	b := newTestBrave(t, srv, BraveOptions{MaxResults: 50})
	resp, err := b.Search(context.Background(), Request{Query: "go"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Result{
		{Title: "Go (programming language)", URL: "https://en.wikipedia.org/wiki/Go_(programming_language)", Snippets: []string{"Go is a statically typed, compiled language.", "It was designed at Google."}},
		{Title: "The Go Programming Language", URL: "https://go.dev/", Snippets: []string{"Build simple, secure, scalable systems with Go."}},
		{Title: "Documentation", URL: "https://go.dev/doc/", Snippets: []string{}},
		{Title: "Gopher Cafe", URL: "https://maps.example/gopher-cafe", Snippets: []string{"Open 8-18"}},
		{Title: "Area map", URL: "https://maps.example/area", Snippets: []string{}},
	}
	if !reflect.DeepEqual(resp.Results, want) {
		t.Errorf("results\n got %+v\nwant %+v", resp.Results, want)
	}

	// MaxResults caps what is returned, even if Brave sends more.
	b = newTestBrave(t, srv, BraveOptions{MaxResults: 2})
	resp, err = b.Search(context.Background(), Request{Query: "go"})
	if err != nil || len(resp.Results) != 2 || resp.Results[1].URL != "https://go.dev/" {
		t.Errorf("capped results: %+v, %v", resp.Results, err)
	}

	// An empty answer is no results, not an error.
	_, srv = newFake(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"grounding":{"generic":[]},"sources":{}}`))
	})
	b = newTestBrave(t, srv, BraveOptions{})
	resp, err = b.Search(context.Background(), Request{Query: "nothing"})
	if err != nil || len(resp.Results) != 0 {
		t.Errorf("empty answer: %+v, %v", resp, err)
	}
}

func TestBraveErrors(t *testing.T) {
	cases := []struct {
		name    string
		key     string
		handler func(w http.ResponseWriter, r *http.Request)
		kind    error
		status  int
		retry   time.Duration
		msg     []string
	}{
		{"bad key", "wrong-key", nil, ErrUnauthorized, 401, 0,
			[]string{"rejected the API key (HTTP 401)", "The provided subscription token is invalid.", "will not help"}},
		{"forbidden", "", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusForbidden) }, ErrUnauthorized, 403, 0,
			[]string{"HTTP 403"}},
		{"rate limited, Retry-After", "", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
		}, ErrRateLimited, 429, 7 * time.Second, []string{"rate limited (HTTP 429)", "retry after 7 seconds"}},
		{"rate limited, X-RateLimit-Reset", "", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-RateLimit-Reset", "1, 1419704")
			w.WriteHeader(http.StatusTooManyRequests)
		}, ErrRateLimited, 429, time.Second, []string{"retry after 1 second"}},
		{"rate limited, no hint", "", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTooManyRequests) },
			ErrRateLimited, 429, 0, []string{"wait a little"}},
		{"server error", "", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusBadGateway) },
			ErrUnavailable, 502, 0, []string{"HTTP 502", "try again shortly"}},
		{"validation", "", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnprocessableEntity)
			w.Write([]byte(`{"type":"ErrorResponse","error":{"status":422,"code":"VALIDATION","detail":"Unable to validate request parameter(s)"}}`))
		}, ErrBadRequest, 422, 0, []string{"HTTP 422", "Unable to validate request parameter(s)", "change the query"}},
		{"malformed JSON", "", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"grounding": [`)) },
			ErrBadResponse, 200, 0, []string{"could not be read"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, srv := newFake(t, c.handler)
			b := newTestBrave(t, srv, BraveOptions{APIKey: c.key})
			_, err := b.Search(context.Background(), Request{Query: "go"})
			var we *Error
			if !errors.As(err, &we) || !errors.Is(err, c.kind) {
				t.Fatalf("err = %v (%T), want %v", err, err, c.kind)
			}
			if we.StatusCode != c.status || we.RetryAfter != c.retry || we.Backend != "brave" {
				t.Errorf("error = %+v", we)
			}
			for _, m := range c.msg {
				if !strings.Contains(we.Error(), m) {
					t.Errorf("message %q lacks %q", we.Error(), m)
				}
			}
		})
	}
}

func TestRetryAfterHTTPDate(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	h := http.Header{"Retry-After": {now.Add(90 * time.Second).Format(http.TimeFormat)}}
	if d, ok := retryAfter(h, now); !ok || d != 90*time.Second {
		t.Errorf("retryAfter = %v, %v", d, ok)
	}
	if humanDuration(90*time.Second) != "90 seconds" || humanDuration(5*time.Minute) != "5 minutes" || humanDuration(0) != "a moment" {
		t.Error("humanDuration")
	}
}

func TestBraveTimeoutAndCancel(t *testing.T) {
	release := make(chan struct{})
	_, srv := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)

	b := newTestBrave(t, srv, BraveOptions{Timeout: 50 * time.Millisecond})
	start := time.Now()
	_, err := b.Search(context.Background(), Request{Query: "slow"})
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "timed out after 50ms") {
		t.Fatalf("err = %v, want a timeout", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("timeout took %v", d)
	}

	// The caller's cancellation is not a timeout: ctx's error comes back.
	b = newTestBrave(t, srv, BraveOptions{Timeout: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(30*time.Millisecond, cancel)
	_, err = b.Search(ctx, Request{Query: "slow"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	var we *Error
	if errors.As(err, &we) {
		t.Errorf("cancellation reported as %v", we)
	}
}

func TestBraveUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	endpoint := srv.URL
	srv.Close() // nothing listens there now
	b, err := NewBrave(BraveOptions{APIKey: "k", Endpoint: endpoint})
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.Search(context.Background(), Request{Query: "x"})
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "could not reach Brave Search") {
		t.Errorf("err = %v", err)
	}
}

func TestBraveEmptyQuery(t *testing.T) {
	f, srv := newFake(t, nil)
	b := newTestBrave(t, srv, BraveOptions{})
	if _, err := b.Search(context.Background(), Request{Query: "   "}); !errors.Is(err, ErrBadRequest) {
		t.Errorf("err = %v", err)
	}
	if len(f.requests) != 0 {
		t.Error("an empty query was sent")
	}
}
