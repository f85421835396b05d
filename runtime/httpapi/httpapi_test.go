package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// recorded is one request the test server saw.
type recorded struct {
	Method, Path, RawQuery, Body string
	Header                       http.Header
}

type server struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []recorded
}

func newServer(t *testing.T, h func(w http.ResponseWriter, r *http.Request)) *server {
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.reqs = append(s.reqs, recorded{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, string(body), r.Header.Clone()})
		s.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) last(t *testing.T) recorded {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.reqs) == 0 {
		t.Fatal("the server saw no request")
	}
	return s.reqs[len(s.reqs)-1]
}

func creds(c Credentials) CredentialSource {
	return CredentialFunc(func(ctx context.Context, call *runtime.Call) (Credentials, bool, error) {
		if call.UserID == "nobody" {
			return Credentials{}, false, nil
		}
		return c, true, nil
	})
}

func okJSON(body string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}
}

func TestEncodingStripeStyle(t *testing.T) {
	s := newServer(t, okJSON(`{"id":"cus_1","object":"customer","email":"a@b.c","extra":1}`))
	c := &Client{Credentials: creds(Credentials{BaseURL: s.URL, Username: "sk_test", Password: ""})}
	api := &API{Name: "stripe", Auth: Auth{Type: Basic}}
	op := &Operation{
		Tool: "stripe_update_customer", Method: "POST", Path: "/v1/customers/{customer}", Body: FormBody,
		Args: []Arg{
			{Param: "customer", Name: "customer", In: InPath},
			{Param: "email", Name: "email", In: InBody, Style: Form, Explode: true},
			{Param: "metadata", Name: "metadata", In: InBody, Style: DeepObject, Explode: true},
			{Param: "items", Name: "items", In: InBody, Style: DeepObject, Explode: true},
			{Param: "expand", Name: "expand", In: InQuery, Style: DeepObject, Explode: true},
			{Param: "tags", Name: "tags", In: InQuery, Style: Form, Explode: true},
			{Param: "ids", Name: "ids", In: InQuery, Style: Form},
			{Param: "pipes", Name: "pipes", In: InQuery, Style: PipeDelimited},
			{Param: "trace", Name: "X-Trace", In: InHeader},
			{Param: "absent", Name: "absent", In: InQuery, Style: Form, Explode: true},
		},
	}
	args := map[string]any{
		"customer": "cus 1/x",
		"email":    "a@b.c",
		"metadata": map[string]any{"plan": "pro", "seats": 3},
		"items":    []any{map[string]any{"price": "price_1", "quantity": 2}, map[string]any{"price": "price_2"}},
		"expand":   []any{"default_source", "invoice_settings.default_payment_method"},
		"tags":     []any{"a", "b"},
		"ids":      []any{1, 2},
		"pipes":    []any{"x", "y"},
		"trace":    "t-1",
	}
	type result struct {
		ID    string  `json:"id"`
		Email *string `json:"email,omitempty"`
	}
	var res result
	out, err := c.Do(context.Background(), &runtime.Call{UserID: "u"}, api, op, args, &res)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != `{"id":"cus_1","email":"a@b.c"}` {
		t.Errorf("result %s (projected to the typed result)", got)
	}
	r := s.last(t)
	if r.Method != "POST" || r.Path != "/v1/customers/cus%201%2Fx" {
		t.Errorf("request %s %s", r.Method, r.Path)
	}
	wantQuery := "expand[0]=default_source&expand[1]=invoice_settings.default_payment_method&tags=a&tags=b&ids=1,2&pipes=x|y"
	if q, _ := url.QueryUnescape(r.RawQuery); q != wantQuery {
		t.Errorf("query\n got %s\nwant %s", q, wantQuery)
	}
	wantBody := "email=a@b.c&metadata[plan]=pro&metadata[seats]=3&items[0][price]=price_1&items[0][quantity]=2&items[1][price]=price_2"
	if b, _ := url.QueryUnescape(r.Body); b != wantBody {
		t.Errorf("body\n got %s\nwant %s", b, wantBody)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" {
		t.Errorf("content type %q", ct)
	}
	if a := r.Header.Get("Authorization"); a != "Basic c2tfdGVzdDo=" {
		t.Errorf("authorization %q", a)
	}
	if r.Header.Get("X-Trace") != "t-1" {
		t.Errorf("header X-Trace %q", r.Header.Get("X-Trace"))
	}
}

func TestJSONBodyAndAuth(t *testing.T) {
	s := newServer(t, okJSON(`{"ok":true, "n": 12345678901234567890}`))
	for _, tc := range []struct {
		auth  Auth
		creds Credentials
		check func(r recorded) string
	}{
		{Auth{Type: Bearer}, Credentials{Token: "tok"}, func(r recorded) string { return r.Header.Get("Authorization") }},
		{Auth{Type: APIKeyHeader, Name: "X-Api-Key"}, Credentials{APIKey: "k1"}, func(r recorded) string { return r.Header.Get("X-Api-Key") }},
		{Auth{Type: APIKeyQuery, Name: "key"}, Credentials{APIKey: "k2"}, func(r recorded) string { return r.RawQuery }},
	} {
		c := &Client{Credentials: creds(tc.creds), UserAgent: "toolgen-test", Header: http.Header{"Stripe-Version": {"2023-10-16"}}}
		api := &API{BaseURL: s.URL + "/api/", Auth: tc.auth}
		op := &Operation{Tool: "t", Method: "PATCH", Path: "/things/{id}", Body: JSONBody, Args: []Arg{
			{Param: "id", Name: "id", In: InPath},
			{Param: "body_id", Name: "id", In: InBody},
			{Param: "note", Name: "note", In: InBody},
			{Param: "count", Name: "count", In: InBody},
		}}
		out, err := c.Do(context.Background(), &runtime.Call{}, api, op, map[string]any{"id": 7, "body_id": "b", "count": json.Number("12345678901234567890"), "note": nil}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if out.String() != `{"ok":true,"n":12345678901234567890}` {
			t.Errorf("untyped result %s", out.String())
		}
		r := s.last(t)
		if r.Path != "/api/things/7" || r.Body != `{"count":12345678901234567890,"id":"b","note":null}` || r.Header.Get("Content-Type") != "application/json" || r.Header.Get("User-Agent") != "toolgen-test" || r.Header.Get("Stripe-Version") != "2023-10-16" {
			t.Errorf("request %s %s %s", r.Path, r.Body, r.Header)
		}
		want := map[AuthType]string{Bearer: "Bearer tok", APIKeyHeader: "k1", APIKeyQuery: "key=k2"}[tc.auth.Type]
		if got := tc.check(r); got != want {
			t.Errorf("auth %v: %q, want %q", tc.auth, got, want)
		}
	}
}

func TestWholeBody(t *testing.T) {
	s := newServer(t, okJSON(`[]`))
	c := &Client{Credentials: creds(Credentials{BaseURL: s.URL})}
	op := &Operation{Tool: "t", Method: "PUT", Path: "/tags", Body: JSONBody, Args: []Arg{{Param: "tags", Name: "tags", In: InWholeBody}}}
	if _, err := c.Do(context.Background(), &runtime.Call{}, &API{}, op, map[string]any{"tags": []string{"a", "b"}}, nil); err != nil {
		t.Fatal(err)
	}
	if b := s.last(t).Body; b != `["a","b"]` {
		t.Errorf("body %s", b)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		status int
		header map[string]string
		body   string
		want   string
	}{
		{404, nil, `{"error":{"message":"No such customer: 'cus_x'","type":"invalid_request_error"}}`, "the stripe API answered 404 Not Found: No such customer: 'cus_x'"},
		{429, map[string]string{"Retry-After": "30"}, `{"message":"slow down"}`, "the stripe API answered 429 Too Many Requests: slow down (retry after 30s)"},
		{400, nil, `{"title":"Bad Request","detail":"name is required"}`, "the stripe API answered 400 Bad Request: name is required"},
		{422, nil, `{"errors":[{"field":"x","message":"x is taken"}]}`, "the stripe API answered 422 Unprocessable Entity: x is taken"},
		{401, nil, `{"error":"invalid_token","error_description":"expired"}`, "the stripe API answered 401 Unauthorized: expired"},
		{502, nil, `<html>bad gateway</html>`, "the stripe API answered 502 Bad Gateway"},
		{500, nil, `plain failure`, "the stripe API answered 500 Internal Server Error: plain failure"},
	} {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
			for k, v := range tc.header {
				w.Header().Set(k, v)
			}
			w.WriteHeader(tc.status)
			io.WriteString(w, tc.body)
		})
		c := &Client{Credentials: creds(Credentials{BaseURL: s.URL})}
		_, err := c.Do(context.Background(), &runtime.Call{}, &API{Name: "stripe"}, &Operation{Tool: "t", Method: "GET", Path: "/x"}, nil, nil)
		var te *runtime.ToolError
		var se *StatusError
		if !errors.As(err, &te) || !errors.As(err, &se) || te.Kind != runtime.ErrExecution || se.StatusCode != tc.status {
			t.Errorf("%d: error %#v", tc.status, err)
			continue
		}
		if te.Message != tc.want {
			t.Errorf("%d: message\n got %q\nwant %q", tc.status, te.Message, tc.want)
		}
	}
	if d := retryAfter(time.Unix(1000, 0).UTC().Format(http.TimeFormat), time.Unix(940, 0)); d != time.Minute {
		t.Errorf("Retry-After as a date: %v", d)
	}
}

func TestLimitsAndCancellation(t *testing.T) {
	block := make(chan struct{})
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			io.WriteString(w, `"`+strings.Repeat("x", 200)+`"`)
		case "/slow":
			select {
			case <-block:
			case <-r.Context().Done():
			}
		}
	})
	defer close(block)
	c := &Client{Credentials: creds(Credentials{BaseURL: s.URL}), MaxResponseBytes: 100}
	_, err := c.Do(context.Background(), &runtime.Call{}, &API{}, &Operation{Tool: "t", Method: "GET", Path: "/big"}, nil, nil)
	var te *runtime.ToolError
	if !errors.As(err, &te) || te.Kind != runtime.ErrResultSize {
		t.Errorf("big body: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = c.Do(ctx, &runtime.Call{}, &API{}, &Operation{Tool: "t", Method: "GET", Path: "/slow"}, nil, nil)
	if !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &te) {
		t.Errorf("deadline: %v", err)
	}
	_, err = c.Do(context.Background(), &runtime.Call{UserID: "nobody"}, &API{Name: "pets"}, &Operation{Tool: "t", Method: "GET", Path: "/x"}, nil, nil)
	if !errors.As(err, &te) || te.Kind != runtime.ErrGate || !errors.Is(err, ErrNoCredentials) || te.Message != "pets is not connected for this account." {
		t.Errorf("no credentials: %v", err)
	}
}

func TestGates(t *testing.T) {
	g := Gates("pets", creds(Credentials{}), runtime.GatesFunc(func(ctx context.Context, call *runtime.Call, gate string) (bool, error) {
		return gate == "other", nil
	}))
	for _, tc := range []struct {
		user, gate string
		want       bool
	}{{"u", "pets", true}, {"nobody", "pets", false}, {"u", "other", true}, {"u", "third", false}} {
		if got, err := g.GateOpen(context.Background(), &runtime.Call{UserID: tc.user}, tc.gate); err != nil || got != tc.want {
			t.Errorf("%s %s: %v %v", tc.user, tc.gate, got, err)
		}
	}
	if ok, _ := Gates("pets", nil, nil).GateOpen(context.Background(), &runtime.Call{}, "x"); ok {
		t.Error("nil next opened a gate")
	}
}

func TestPagination(t *testing.T) {
	items := make([]string, 7)
	for i := range items {
		items[i] = fmt.Sprintf("it_%d", i)
	}
	page := func(after string, n int) ([]string, bool) {
		start := 0
		for i, id := range items {
			if id == after {
				start = i + 1
			}
		}
		end := min(start+n, len(items))
		return items[start:end], end < len(items)
	}
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		n, _ := strconv.Atoi(q.Get("limit"))
		var objs []map[string]any
		switch r.URL.Path {
		case "/cursor":
			got, more := page(q.Get("starting_after"), n)
			for _, id := range got {
				objs = append(objs, map[string]any{"id": id})
			}
			json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": objs, "has_more": more})
		case "/link":
			got, more := page(q.Get("after"), n)
			for _, id := range got {
				objs = append(objs, map[string]any{"id": id})
			}
			next := ""
			if more {
				next = "/link?limit=" + q.Get("limit") + "&after=" + got[len(got)-1]
			}
			json.NewEncoder(w).Encode(map[string]any{"results": objs, "next": next})
		case "/token":
			got, more := page(q.Get("page_token"), n)
			for _, id := range got {
				objs = append(objs, map[string]any{"id": id})
			}
			tok := ""
			if more {
				tok = got[len(got)-1]
			}
			json.NewEncoder(w).Encode(map[string]any{"items": objs, "nextPageToken": tok})
		}
	})
	c := &Client{Credentials: creds(Credentials{BaseURL: s.URL})}
	limit := Arg{Param: "limit", Name: "limit", In: InQuery, Style: Form, Explode: true}
	type list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
		HasMore bool `json:"has_more"`
	}
	for _, tc := range []struct {
		name     string
		op       *Operation
		maxPages int
		want     string
		requests int
	}{
		{"cursor 2 pages", &Operation{Tool: "t", Method: "GET", Path: "/cursor", Args: []Arg{limit, {Param: "starting_after", Name: "starting_after", In: InQuery, Style: Form, Explode: true}},
			Paginate: &Paginate{Style: Cursor, Items: "data", MaxPages: "max_pages", HasMore: "has_more", Cursor: "starting_after", CursorField: "id"}},
			2, `{"data":[{"id":"it_0"},{"id":"it_1"},{"id":"it_2"},{"id":"it_3"},{"id":"it_4"},{"id":"it_5"}],"has_more":true,"object":"list"}`, 2},
		{"cursor to the end", &Operation{Tool: "t", Method: "GET", Path: "/cursor", Args: []Arg{limit},
			Paginate: &Paginate{Style: Cursor, Items: "data", MaxPages: "max_pages", HasMore: "has_more", Cursor: "starting_after", CursorField: "id"}},
			10, `{"data":[{"id":"it_0"},{"id":"it_1"},{"id":"it_2"},{"id":"it_3"},{"id":"it_4"},{"id":"it_5"},{"id":"it_6"}],"has_more":false,"object":"list"}`, 3},
		{"cursor one page", &Operation{Tool: "t", Method: "GET", Path: "/cursor", Args: []Arg{limit},
			Paginate: &Paginate{Style: Cursor, Items: "data", MaxPages: "max_pages", HasMore: "has_more", Cursor: "starting_after", CursorField: "id"}},
			0, `{"data":[{"id":"it_0"},{"id":"it_1"},{"id":"it_2"}],"has_more":true,"object":"list"}`, 1},
		{"next link", &Operation{Tool: "t", Method: "GET", Path: "/link", Args: []Arg{limit},
			Paginate: &Paginate{Style: NextLink, Items: "results", MaxPages: "max_pages", Next: "next"}},
			5, `{"next":"","results":[{"id":"it_0"},{"id":"it_1"},{"id":"it_2"},{"id":"it_3"},{"id":"it_4"},{"id":"it_5"},{"id":"it_6"}]}`, 3},
		{"page token", &Operation{Tool: "t", Method: "GET", Path: "/token", Args: []Arg{limit},
			Paginate: &Paginate{Style: PageToken, Items: "items", MaxPages: "max_pages", Token: "page_token", NextToken: "nextPageToken"}},
			2, `{"items":[{"id":"it_0"},{"id":"it_1"},{"id":"it_2"},{"id":"it_3"},{"id":"it_4"},{"id":"it_5"}],"nextPageToken":"it_5"}`, 2},
	} {
		s.mu.Lock()
		s.reqs = nil
		s.mu.Unlock()
		args := map[string]any{"limit": 3}
		if tc.maxPages > 0 {
			args["max_pages"] = tc.maxPages
		}
		out, err := c.Do(context.Background(), &runtime.Call{}, &API{}, tc.op, args, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if out.String() != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, out.String(), tc.want)
		}
		if len(s.reqs) != tc.requests {
			t.Errorf("%s: %d requests, want %d", tc.name, len(s.reqs), tc.requests)
		}
		if strings.Contains(tc.name, "cursor 2") {
			var l list
			if _, err := c.Do(context.Background(), &runtime.Call{}, &API{}, tc.op, args, &l); err != nil || len(l.Data) != 6 || !l.HasMore {
				t.Errorf("typed: %+v %v", l, err)
			}
		}
	}
}

func TestNextLinkStaysOnHost(t *testing.T) {
	other := newServer(t, okJSON(`{"results":[{"id":"stolen"}]}`))
	s := newServer(t, okJSON(`{"results":[{"id":"a"}],"next":"`+other.URL+`/x"}`))
	c := &Client{Credentials: creds(Credentials{BaseURL: s.URL, Token: "secret"})}
	op := &Operation{Tool: "t", Method: "GET", Path: "/p", Paginate: &Paginate{Style: NextLink, Items: "results", MaxPages: "max_pages", Next: "next"}}
	out, err := c.Do(context.Background(), &runtime.Call{}, &API{Auth: Auth{Type: Bearer}}, op, map[string]any{"max_pages": 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(other.reqs) != 0 || strings.Contains(out.String(), "stolen") {
		t.Errorf("followed a next link to another host: %s", out.String())
	}
}

func TestEncodingErrors(t *testing.T) {
	s := newServer(t, okJSON(`{}`))
	c := &Client{Credentials: creds(Credentials{BaseURL: s.URL})}
	for _, tc := range []struct {
		op   *Operation
		args map[string]any
	}{
		{&Operation{Tool: "t", Method: "GET", Path: "/x/{id}", Args: []Arg{{Param: "id", Name: "id", In: InPath}}}, map[string]any{"id": ""}},
		{&Operation{Tool: "t", Method: "GET", Path: "/x/{id}", Args: []Arg{{Param: "id", Name: "id", In: InPath}}}, map[string]any{"id": []any{1}}},
		{&Operation{Tool: "t", Method: "GET", Path: "/x", Args: []Arg{{Param: "a", Name: "a", In: InQuery, Style: Form}}}, map[string]any{"a": []any{map[string]any{}}}},
	} {
		_, err := c.Do(context.Background(), &runtime.Call{}, &API{}, tc.op, tc.args, nil)
		var te *runtime.ToolError
		if !errors.As(err, &te) || !strings.HasPrefix(te.Message, "the request could not be built") {
			t.Errorf("%v: %v", tc.args, err)
		}
	}
}
