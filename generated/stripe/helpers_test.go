package stripe_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/toolgen/toolgen/generated/stripe"
	"github.com/toolgen/toolgen/runtime"
)

// keyMap is a KeySource: user id → Stripe key; a missing user has no key.
type keyMap map[string]string

func (k keyMap) StripeKey(ctx context.Context, call *runtime.Call) (string, bool, error) {
	key, ok := k[call.UserID]
	return key, ok, nil
}

var testKeys = keyMap{"alice": "sk_test_alice", "carol": "sk_test_carol"}

// memApprovals is a tiny in-memory runtime.Approvals for the tests.
type memApprovals struct {
	mu        sync.Mutex
	next      int
	reqs      map[string]runtime.ApprovalRequest
	decisions map[string]runtime.Decision
	claimed   map[string]bool
}

func newApprovals() *memApprovals {
	return &memApprovals{reqs: map[string]runtime.ApprovalRequest{}, decisions: map[string]runtime.Decision{}, claimed: map[string]bool{}}
}

func (m *memApprovals) RequestApproval(ctx context.Context, req runtime.ApprovalRequest) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.next++
	id := fmt.Sprintf("pp_%d", m.next)
	m.reqs[id] = req
	return id, nil
}

func (m *memApprovals) decide(id string, d runtime.Decision) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.decisions[id] = d
}

func (m *memApprovals) Claim(ctx context.Context, c runtime.ClaimRequest) (runtime.ApprovalRequest, runtime.Decision, error) {
	id := c.PausePointID
	m.mu.Lock()
	defer m.mu.Unlock()
	req, ok := m.reqs[id]
	switch d, decided := m.decisions[id]; {
	case !ok:
		return req, d, runtime.ErrPausePointNotFound
	case !decided:
		return req, d, runtime.ErrPausePointPending
	case m.claimed[id]:
		return req, d, runtime.ErrPausePointConsumed
	case c.By != req.UserID:
		return req, d, runtime.ErrPausePointForbidden
	default:
		m.claimed[id] = true
		return req, d, nil
	}
}

func (m *memApprovals) Finish(context.Context, runtime.ClaimRequest) error { return nil }

// allowPolicy grants what a tool asks approval for (a host that trusts
// its users), so create tools run without pausing.
type allowPolicy struct{}

func (allowPolicy) Enabled(context.Context, *runtime.Call, *runtime.Tool) bool { return true }
func (allowPolicy) Permission(_ context.Context, _ *runtime.Call, _ *runtime.Tool, _ any, prev runtime.Decision) runtime.Decision {
	if prev.Behavior == runtime.Ask {
		return runtime.Allowed()
	}
	return prev
}

// request is one HTTP request the recorder saw.
type request struct {
	Method, Path string
	Query        url.Values
	Form         url.Values
	Auth         string
	Idempotency  string
}

func (r request) String() string { return r.Method + " " + r.Path }

// recorder is a loopback HTTP server that records every request and then
// answers it: by override when that returns true, else by proxying to the
// target (stripe-mock), else with a 500.
type recorder struct {
	*httptest.Server
	mu       sync.Mutex
	reqs     []request
	override func(w http.ResponseWriter, r *http.Request, form url.Values) bool
}

func newRecorder(t *testing.T, target string) *recorder {
	t.Helper()
	rec := &recorder{}
	var proxy *httputil.ReverseProxy
	if target != "" {
		u, err := url.Parse(target)
		if err != nil {
			t.Fatal(err)
		}
		proxy = httputil.NewSingleHostReverseProxy(u)
	}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		form, _ := url.ParseQuery(string(body))
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Form: form,
			Auth: r.Header.Get("Authorization"), Idempotency: r.Header.Get("Idempotency-Key")})
		override := rec.override
		rec.mu.Unlock()
		if override != nil && override(w, r, form) {
			return
		}
		if proxy == nil {
			http.Error(w, `{"error":{"type":"api_error","message":"no upstream"}}`, http.StatusInternalServerError)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(rec.Close)
	return rec
}

// take returns the requests recorded so far and forgets them.
func (rec *recorder) take() []request {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	r := rec.reqs
	rec.reqs = nil
	return r
}

func (rec *recorder) setOverride(f func(w http.ResponseWriter, r *http.Request, form url.Values) bool) {
	rec.mu.Lock()
	rec.override = f
	rec.mu.Unlock()
}

func paths(reqs []request) []string {
	out := make([]string, len(reqs))
	for i, r := range reqs {
		out[i] = r.String()
	}
	return out
}

// newRegistry builds the host's registry: the stripe module with testKeys,
// its gate answered by the same keys, and a local ungated tool.
func newRegistry(t *testing.T, tools *stripe.Tools, opts runtime.Options) *runtime.Registry {
	t.Helper()
	if tools.Keys == nil {
		tools.Keys = testKeys
	}
	opts.Gates = stripe.Gates(tools.Keys, nil)
	reg := runtime.NewRegistry(opts)
	if err := reg.AddModule(stripe.Module(tools)); err != nil {
		t.Fatal(err)
	}
	ping := &runtime.Tool{
		Name: "ping", Description: "Answers pong.", Flags: runtime.DefaultFlags(),
		Decode: runtime.DecodeJSON[struct{}](nil),
		Execute: func(context.Context, *runtime.Call, any) (runtime.Result, error) {
			return runtime.Text("pong"), nil
		},
	}
	if err := reg.Add(ping); err != nil {
		t.Fatal(err)
	}
	return reg
}

var callSeq struct {
	mu sync.Mutex
	n  int
}

// dispatch runs one tool call for user with a fresh tool call id.
func dispatch(t *testing.T, reg *runtime.Registry, user, tool, args string) runtime.Outcome {
	t.Helper()
	callSeq.mu.Lock()
	callSeq.n++
	id := fmt.Sprintf("call_%d", callSeq.n)
	callSeq.mu.Unlock()
	return dispatchID(t, reg, user, id, tool, args)
}

func dispatchID(t *testing.T, reg *runtime.Registry, user, id, tool, args string) runtime.Outcome {
	t.Helper()
	out, err := reg.Dispatch(context.Background(), &runtime.Call{UserID: user, ConversationID: "conv"},
		runtime.ToolCall{ID: id, Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("Dispatch %s: %v", tool, err)
	}
	return out
}

// okJSON checks that out succeeded and decodes its JSON result into v.
func okJSON(t *testing.T, out runtime.Outcome, v any) {
	t.Helper()
	if out.Status != runtime.StatusOK {
		t.Fatalf("%s: status %s, result %q", out.Tool, out.Status, out.Result.String())
	}
	dec := json.NewDecoder(strings.NewReader(out.Result.String()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: result %s: %v", out.Tool, out.Result.String(), err)
	}
}

// toolErr checks that out is a tool error of kind.
func toolErr(t *testing.T, out runtime.Outcome, kind runtime.ErrorKind) *runtime.ToolError {
	t.Helper()
	if out.Status != runtime.StatusError || out.Err == nil || out.Err.Kind != kind || !out.Result.IsError {
		t.Fatalf("%s: status %s, err %+v, result %q; want a %s tool error", out.Tool, out.Status, out.Err, out.Result.String(), kind)
	}
	return out.Err
}

// money is the Money shape as results carry it.
type money struct {
	AmountMinor int64  `json:"amount_minor"`
	Currency    string `json:"currency"`
	Display     string `json:"display"`
}
