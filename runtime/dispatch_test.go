package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

// The pipeline tests record every hook the pipeline calls (the tool's
// Decode, Label, Permission and Execute; the policy; the gates; the
// approvals store; the fallback) and every event into one trace, and assert
// the exact trace: which steps ran, in which order, and that none ran after
// the step that stopped the call.

// pipeTrace is an ordered, concurrency-safe list of what ran.
type pipeTrace struct {
	mu    sync.Mutex
	steps []string
}

func (p *pipeTrace) add(s string) {
	p.mu.Lock()
	p.steps = append(p.steps, s)
	p.mu.Unlock()
}

func (p *pipeTrace) list() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.steps)
}

func (p *pipeTrace) reset() {
	p.mu.Lock()
	p.steps = nil
	p.mu.Unlock()
}

// pipeArgs are the arguments of the test tool.
type pipeArgs struct {
	Email string `json:"email,omitempty"`
	Limit int    `json:"limit,omitempty"`
}

func validatePipeArgs(a *pipeArgs) []Violation {
	var vs []Violation
	if a.Email != "" && !strings.Contains(a.Email, "@") {
		vs = append(vs, Violation{Path: "$.email", Message: fmt.Sprintf("must be an email address, got %q", a.Email)})
	}
	if a.Limit != 0 && (a.Limit < 1 || a.Limit > 100) {
		vs = append(vs, Violation{Path: "$.limit", Message: fmt.Sprintf("must be at most 100, got %d", a.Limit)})
	}
	return vs
}

type pipePolicy struct {
	trace   *pipeTrace
	enabled bool
	decide  func(prev Decision) Decision // nil: prev
}

func (p *pipePolicy) Enabled(ctx context.Context, call *Call, t *Tool) bool {
	p.trace.add("policy-enabled")
	return p.enabled
}

func (p *pipePolicy) Permission(ctx context.Context, call *Call, t *Tool, args any, prev Decision) Decision {
	p.trace.add("policy-permission:" + prev.Behavior.String())
	if p.decide != nil {
		return p.decide(prev)
	}
	return prev
}

type pipeGates struct {
	trace *pipeTrace
	mu    sync.Mutex
	open  map[string]bool
	err   error
	calls int
}

func (g *pipeGates) GateOpen(ctx context.Context, call *Call, gate string) (bool, error) {
	g.trace.add("gate:" + gate)
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls++
	return g.open[gate], g.err
}

func (g *pipeGates) set(gate string, open bool) {
	g.mu.Lock()
	g.open[gate] = open
	g.mu.Unlock()
}

// pipeApprovals is an in-memory pause-point store.
type pipeApprovals struct {
	trace  *pipeTrace
	mu     sync.Mutex
	points map[string]*pipePoint
	next   int
	err    error // returned by RequestApproval
}

type pipePoint struct {
	req      ApprovalRequest
	decision *Decision
	claimed  string // the attempt that claimed it
	finished bool
}

func (a *pipeApprovals) RequestApproval(ctx context.Context, req ApprovalRequest) (string, error) {
	a.trace.add("request-approval")
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err != nil {
		return "", a.err
	}
	a.next++
	id := fmt.Sprintf("pp-%d", a.next)
	a.points[id] = &pipePoint{req: req}
	return id, nil
}

func (a *pipeApprovals) Claim(ctx context.Context, c ClaimRequest) (ApprovalRequest, Decision, error) {
	a.trace.add("claim")
	a.mu.Lock()
	defer a.mu.Unlock()
	p, ok := a.points[c.PausePointID]
	switch {
	case !ok:
		return ApprovalRequest{}, Decision{}, ErrPausePointNotFound
	case c.By != p.req.UserID && c.By != "admin":
		return ApprovalRequest{}, Decision{}, ErrPausePointForbidden
	case p.decision == nil:
		return ApprovalRequest{}, Decision{}, ErrPausePointPending
	case p.finished || p.claimed != "" && p.claimed != c.Attempt:
		return ApprovalRequest{}, Decision{}, ErrPausePointConsumed
	}
	p.claimed = c.Attempt
	return p.req, *p.decision, nil
}

func (a *pipeApprovals) Finish(ctx context.Context, c ClaimRequest) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if p, ok := a.points[c.PausePointID]; ok && p.claimed == c.Attempt {
		p.finished = true
	}
	return nil
}

func (a *pipeApprovals) resolve(id string, d Decision) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.points[id].decision = &d
}

func (a *pipeApprovals) request(id string) ApprovalRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.points[id].req
}

// syncBuffer is a bytes.Buffer safe for a logger used from many goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// pipe is the harness: one recorded tool, stripe_list_customers, gated on
// "stripe" (open), in a registry with a recording policy (enabled, passes
// the tool's decision on), gates and approvals store.
type pipe struct {
	trace     *pipeTrace
	tool      *Tool
	policy    *pipePolicy
	gates     *pipeGates
	approvals *pipeApprovals
	log       *syncBuffer
	opts      Options
	reg       *Registry
	events    []Event
	evMu      sync.Mutex

	toolDecision Decision
	exec         func(ctx context.Context, call *Call, a *pipeArgs) (Result, error)
	decoded      [][]byte // what Decode received
}

const pipeTool = "stripe_list_customers"

func newPipe(t *testing.T) *pipe {
	t.Helper()
	tr := &pipeTrace{}
	p := &pipe{
		trace:     tr,
		policy:    &pipePolicy{trace: tr, enabled: true},
		gates:     &pipeGates{trace: tr, open: map[string]bool{"stripe": true}},
		approvals: &pipeApprovals{trace: tr, points: map[string]*pipePoint{}},
		log:       &syncBuffer{},
		exec: func(ctx context.Context, call *Call, a *pipeArgs) (Result, error) {
			return Text(fmt.Sprintf("customers for %q, limit %d", a.Email, a.Limit)), nil
		},
	}
	decode := DecodeJSON(validatePipeArgs)
	label := TypedLabel(func(a *pipeArgs) string {
		if a.Email != "" {
			return "Looking up " + a.Email + " in Stripe"
		}
		return "Pulling recent Stripe customers"
	})
	p.tool = &Tool{
		Name:        pipeTool,
		Description: "List recent customers.",
		Schema:      json.RawMessage(`{"type":"object"}`),
		Gate:        "stripe",
		GateMessage: "Stripe is not connected for this account.",
		Flags:       DefaultFlags(),
		Decode: func(data []byte) (any, error) {
			tr.add("decode")
			p.evMu.Lock()
			p.decoded = append(p.decoded, slices.Clone(data))
			p.evMu.Unlock()
			return decode(data)
		},
		Label: func(args any) string {
			tr.add("label")
			return label(args)
		},
		Permission: func(ctx context.Context, call *Call, args any) Decision {
			tr.add("permission")
			return p.toolDecision
		},
		Execute: TypedExecute(func(ctx context.Context, call *Call, a *pipeArgs) (Result, error) {
			tr.add("execute")
			return p.exec(ctx, call, a)
		}),
	}
	p.opts = Options{
		Gates:     p.gates,
		Policy:    p.policy,
		Approvals: p.approvals,
		Logger:    slog.New(slog.NewTextHandler(p.log, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	p.build(t)
	return p
}

// build (re)creates the registry from p.opts with p.tool in it.
func (p *pipe) build(t *testing.T) {
	t.Helper()
	p.reg = NewRegistry(p.opts)
	if err := p.reg.Add(p.tool); err != nil {
		t.Fatal(err)
	}
}

func (p *pipe) call() *Call {
	return &Call{
		UserID:         "u1",
		ConversationID: "c1",
		TurnIndex:      3,
		Events: func(e Event) {
			s := "event:" + string(e.Type)
			switch e.Type {
			case EventFinish:
				s += ":" + string(e.Status)
			case EventProgress:
				s += ":" + e.Message
			}
			p.trace.add(s)
			p.evMu.Lock()
			p.events = append(p.events, e)
			p.evMu.Unlock()
		},
	}
}

func (p *pipe) dispatch(t *testing.T, ctx context.Context, name, args string) (Outcome, error) {
	t.Helper()
	p.trace.reset()
	return p.reg.Dispatch(ctx, p.call(), ToolCall{ID: "call_1", Name: name, Arguments: json.RawMessage(args)})
}

func assertTrace(t *testing.T, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("trace\n got: %q\nwant: %q", got, want)
	}
}

func assertToolError(t *testing.T, out Outcome, err error, kind ErrorKind, text string) {
	t.Helper()
	if err != nil {
		t.Fatalf("Dispatch returned Go error %v, want a tool error", err)
	}
	if out.Status != StatusError || out.Err == nil || out.Err.Kind != kind {
		t.Fatalf("outcome = status %q, err %+v; want status error, kind %q", out.Status, out.Err, kind)
	}
	if !out.Result.IsError {
		t.Fatalf("result is not marked IsError: %+v", out.Result)
	}
	got := out.Result.String()
	if !strings.HasPrefix(got, "Error: ") {
		t.Fatalf("tool-error text does not start with %q: %q", "Error: ", got)
	}
	if text != "" && got != text {
		t.Fatalf("tool-error text\n got: %q\nwant: %q", got, text)
	}
}

// The prefix of every trace that reached the gate.
var pipeToGate = []string{"decode", "label", "event:start", "policy-enabled", "gate:stripe"}

func traceOf(parts ...any) []string {
	var out []string
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			out = append(out, v)
		case []string:
			out = append(out, v...)
		}
	}
	return out
}

func TestDispatchAllStepsInOrder(t *testing.T) {
	p := newPipe(t)
	out, err := p.dispatch(t, context.Background(), pipeTool, `{"email":"a@b.co","limit":5}`)
	if err != nil {
		t.Fatal(err)
	}
	assertTrace(t, p.trace.list(), traceOf(pipeToGate, "permission", "policy-permission:allow", "execute", "event:finish:ok")...)
	if out.Status != StatusOK || out.Err != nil || out.Result.IsError {
		t.Fatalf("outcome %+v", out)
	}
	if got, want := out.Result.String(), `customers for "a@b.co", limit 5`; got != want {
		t.Fatalf("result %q, want %q", got, want)
	}
	if out.Label != "Looking up a@b.co in Stripe" || out.CallID != "call_1" || out.Tool != pipeTool {
		t.Fatalf("outcome identity %+v", out)
	}
	if out.Duration <= 0 {
		t.Fatalf("duration %v", out.Duration)
	}
	// Events carry the call id, tool and label; finish carries status and duration.
	if len(p.events) != 2 {
		t.Fatalf("events %+v", p.events)
	}
	for _, e := range p.events {
		if e.CallID != "call_1" || e.Tool != pipeTool || e.Label != out.Label {
			t.Fatalf("event %+v", e)
		}
	}
	if f := p.events[1]; f.Status != StatusOK || f.Duration != out.Duration {
		t.Fatalf("finish event %+v, outcome duration %v", f, out.Duration)
	}
}

// Each case stops the call at one step; the trace proves no later step ran.
func TestDispatchStopsAtEachStep(t *testing.T) {
	type tc struct {
		name  string
		setup func(p *pipe, t *testing.T)
		args  string
		trace []string
		kind  ErrorKind
		text  string
	}
	cases := []tc{
		{
			name:  "3 invalid arguments",
			args:  `{"email":"a@b.co","limit":500}`,
			trace: traceOf("decode", "label", "event:start", "event:finish:error"),
			kind:  ErrInvalidArgs,
			text:  "Error: invalid arguments for stripe_list_customers:\n- $.limit: must be at most 100, got 500",
		},
		{
			name:  "3 every violation listed",
			args:  `{"email":"nobody","limit":500}`,
			trace: traceOf("decode", "label", "event:start", "event:finish:error"),
			kind:  ErrInvalidArgs,
			text:  "Error: invalid arguments for stripe_list_customers:\n- $.email: must be an email address, got \"nobody\"\n- $.limit: must be at most 100, got 500",
		},
		{
			name: "3 oversize arguments are not decoded",
			setup: func(p *pipe, t *testing.T) {
				p.opts.Limits.MaxArgumentBytes = 32
				p.build(t)
			},
			args:  `{"email":"someone.with.a.long.name@example.com"}`,
			trace: traceOf("label", "event:start", "event:finish:error"),
			kind:  ErrInvalidArgs,
			text:  "Error: arguments for stripe_list_customers are too large: 48 bytes, the limit is 32 bytes.",
		},
		{
			name:  "3 malformed JSON",
			args:  `{"limit": 5,`,
			trace: traceOf("decode", "label", "event:start", "event:finish:error"),
			kind:  ErrInvalidArgs,
			text:  "Error: invalid arguments for stripe_list_customers:\n- $: malformed JSON: the arguments end too early",
		},
		{
			name:  "3 wrong type",
			args:  `{"limit":"ten"}`,
			trace: traceOf("decode", "label", "event:start", "event:finish:error"),
			kind:  ErrInvalidArgs,
			text:  "Error: invalid arguments for stripe_list_customers:\n- $.limit: must be an integer, got string",
		},
		{
			name:  "3 unknown field",
			args:  `{"limt":5}`,
			trace: traceOf("decode", "label", "event:start", "event:finish:error"),
			kind:  ErrInvalidArgs,
			text:  "Error: invalid arguments for stripe_list_customers:\n- $: unknown field \"limt\" is not allowed",
		},
		{
			name:  "3 invalid arguments stop the call before a disabled tool's flag is read",
			setup: func(p *pipe, t *testing.T) { p.tool.Flags.Enabled = false },
			args:  `{"limit":500}`,
			trace: traceOf("decode", "label", "event:start", "event:finish:error"),
			kind:  ErrInvalidArgs,
			text:  "Error: invalid arguments for stripe_list_customers:\n- $.limit: must be at most 100, got 500",
		},
		{
			name:  "4 disabled by flag",
			setup: func(p *pipe, t *testing.T) { p.tool.Flags.Enabled = false },
			args:  `{}`,
			trace: traceOf("decode", "label", "event:start", "event:finish:error"),
			kind:  ErrDisabled,
			text:  "Error: tool stripe_list_customers is disabled.",
		},
		{
			name:  "4 disabled by policy",
			setup: func(p *pipe, t *testing.T) { p.policy.enabled = false },
			args:  `{}`,
			trace: traceOf("decode", "label", "event:start", "policy-enabled", "event:finish:error"),
			kind:  ErrDisabled,
			text:  "Error: tool stripe_list_customers is not available to this user here.",
		},
		{
			name:  "5 gate closed",
			setup: func(p *pipe, t *testing.T) { p.gates.set("stripe", false) },
			args:  `{}`,
			trace: traceOf(pipeToGate, "event:finish:error"),
			kind:  ErrGate,
			text:  "Error: Stripe is not connected for this account.",
		},
		{
			name: "5 gate closed, default message",
			setup: func(p *pipe, t *testing.T) {
				p.gates.set("stripe", false)
				p.tool.GateMessage = ""
			},
			args:  `{}`,
			trace: traceOf(pipeToGate, "event:finish:error"),
			kind:  ErrGate,
			text:  "Error: stripe_list_customers needs the \"stripe\" connection, which is not set up for this account.",
		},
		{
			name: "5 nil gates are closed",
			setup: func(p *pipe, t *testing.T) {
				p.opts.Gates = nil
				p.build(t)
			},
			args:  `{}`,
			trace: traceOf("decode", "label", "event:start", "policy-enabled", "event:finish:error"),
			kind:  ErrGate,
			text:  "Error: Stripe is not connected for this account.",
		},
		{
			name:  "5 gate check fails",
			setup: func(p *pipe, t *testing.T) { p.gates.err = errors.New("dial tcp 10.0.0.1:5432: connection refused") },
			args:  `{}`,
			trace: traceOf(pipeToGate, "event:finish:error"),
			kind:  ErrGate,
			text:  "Error: could not check whether the \"stripe\" connection is set up, so stripe_list_customers did not run; try again later.",
		},
		{
			name:  "6 tool denies, policy not consulted",
			setup: func(p *pipe, t *testing.T) { p.toolDecision = Denied("only admins may list customers") },
			args:  `{}`,
			trace: traceOf(pipeToGate, "permission", "event:finish:error"),
			kind:  ErrDenied,
			text:  "Error: permission denied for stripe_list_customers: only admins may list customers.",
		},
		{
			name: "6 policy denies",
			setup: func(p *pipe, t *testing.T) {
				p.policy.decide = func(Decision) Decision { return Denied("read-only workspace") }
			},
			args:  `{}`,
			trace: traceOf(pipeToGate, "permission", "policy-permission:allow", "event:finish:error"),
			kind:  ErrDenied,
			text:  "Error: permission denied for stripe_list_customers: read-only workspace.",
		},
		{
			name: "6 requires approval, no approvals store",
			setup: func(p *pipe, t *testing.T) {
				p.tool.Flags.RequiresApproval = true
				p.opts.Approvals = nil
				p.build(t)
			},
			args:  `{}`,
			trace: traceOf(pipeToGate, "permission", "policy-permission:ask", "event:finish:error"),
			kind:  ErrDenied,
			text:  "Error: stripe_list_customers needs a person's approval, and approval is not available here, so the call did not run (the tool requires approval before every call).",
		},
		{
			name: "6 approval request cannot be stored",
			setup: func(p *pipe, t *testing.T) {
				p.tool.Flags.RequiresApproval = true
				p.approvals.err = errors.New("database is locked")
			},
			args:  `{}`,
			trace: traceOf(pipeToGate, "permission", "policy-permission:ask", "request-approval", "event:finish:error"),
			kind:  ErrApprovalStore,
			text:  "Error: stripe_list_customers needs a person's approval, but the approval could not be recorded, so the call did not run; try again later.",
		},
		{
			name: "7 executor error",
			setup: func(p *pipe, t *testing.T) {
				p.exec = func(context.Context, *Call, *pipeArgs) (Result, error) {
					return Result{}, errors.New("stripe: invalid API key provided")
				}
			},
			args:  `{}`,
			trace: traceOf(pipeToGate, "permission", "policy-permission:allow", "execute", "event:finish:error"),
			kind:  ErrExecution,
			text:  "Error: stripe: invalid API key provided",
		},
		{
			name: "7 executor panic",
			setup: func(p *pipe, t *testing.T) {
				p.exec = func(context.Context, *Call, *pipeArgs) (Result, error) { panic("nil map write") }
			},
			args:  `{}`,
			trace: traceOf(pipeToGate, "permission", "policy-permission:allow", "execute", "event:finish:error"),
			kind:  ErrExecution,
			text:  "Error: stripe_list_customers failed unexpectedly: nil map write.",
		},
		{
			name: "7 executor's own deadline is an ordinary error while ctx is live",
			setup: func(p *pipe, t *testing.T) {
				p.exec = func(context.Context, *Call, *pipeArgs) (Result, error) {
					return Result{}, fmt.Errorf("stripe request: %w", context.DeadlineExceeded)
				}
			},
			args:  `{}`,
			trace: traceOf(pipeToGate, "permission", "policy-permission:allow", "execute", "event:finish:error"),
			kind:  ErrExecution,
			text:  "Error: stripe request: context deadline exceeded",
		},
		{
			name: "7 executor returns an error result",
			setup: func(p *pipe, t *testing.T) {
				p.exec = func(context.Context, *Call, *pipeArgs) (Result, error) {
					return Result{Parts: []Part{TextPart("Error: no such customer")}, IsError: true}, nil
				}
			},
			args:  `{}`,
			trace: traceOf(pipeToGate, "permission", "policy-permission:allow", "execute", "event:finish:error"),
			kind:  ErrExecution,
			text:  "Error: no such customer",
		},
		{
			name: "7 executor chooses its tool error",
			setup: func(p *pipe, t *testing.T) {
				p.exec = func(context.Context, *Call, *pipeArgs) (Result, error) {
					return Result{}, &ToolError{Kind: ErrDenied, Message: "this customer is locked"}
				}
			},
			args:  `{}`,
			trace: traceOf(pipeToGate, "permission", "policy-permission:allow", "execute", "event:finish:error"),
			kind:  ErrDenied,
			text:  "Error: this customer is locked",
		},
	}
	// RunCalls looks calls up and decodes them ahead (to know which may run
	// in parallel), then dispatches them: the same steps, in the same order,
	// must run for each call.
	for _, via := range []string{"Dispatch", "RunCalls"} {
		for _, c := range cases {
			t.Run(via+"/"+c.name, func(t *testing.T) {
				p := newPipe(t)
				if c.setup != nil {
					c.setup(p, t)
				}
				var out Outcome
				var err error
				if via == "Dispatch" {
					out, err = p.dispatch(t, context.Background(), pipeTool, c.args)
				} else {
					p.trace.reset()
					var outs []Outcome
					outs, err = p.reg.RunCalls(context.Background(), p.call(),
						[]ToolCall{{ID: "call_1", Name: pipeTool, Arguments: json.RawMessage(c.args)}}, RunOptions{})
					out = outs[0]
				}
				assertTrace(t, p.trace.list(), c.trace...)
				assertToolError(t, out, err, c.kind, c.text)
			})
		}
	}
}

func TestRunCallsRunsEveryStepInOrder(t *testing.T) {
	p := newPipe(t)
	p.tool.Flags.RequiresApproval = true
	p.policy.decide = func(prev Decision) Decision {
		if prev.Behavior == Ask {
			return Allowed() // the host lets this one through
		}
		return prev
	}
	outs, err := p.reg.RunCalls(context.Background(), p.call(), []ToolCall{
		{ID: "call_1", Name: pipeTool, Arguments: json.RawMessage(`{"limit":5}`)},
	}, RunOptions{})
	if err != nil || outs[0].Status != StatusOK {
		t.Fatalf("%+v %v", outs, err)
	}
	assertTrace(t, p.trace.list(), traceOf(pipeToGate, "permission", "policy-permission:ask", "execute", "event:finish:ok")...)
}

func TestDispatchInvalidArgumentsKeepViolationsAndLabel(t *testing.T) {
	p := newPipe(t)
	out, err := p.dispatch(t, context.Background(), pipeTool, `{"email":"x@y.z","limit":0,"limit":101}`)
	assertToolError(t, out, err, ErrInvalidArgs, "")
	want := []Violation{{Path: "$.limit", Message: "must be at most 100, got 101"}}
	if !slices.Equal(out.Err.Violations, want) {
		t.Fatalf("violations %+v, want %+v", out.Err.Violations, want)
	}
	// The label of a refused call is not rendered from the value decoded
	// so far: TypedLabel gets an *InvalidArgs, so the tool's name is shown.
	if out.Label != pipeTool {
		t.Fatalf("label %q", out.Label)
	}
	var ve *ValidationError
	if !errors.As(out.Err, &ve) {
		t.Fatalf("tool error does not wrap the *ValidationError: %#v", out.Err.Err)
	}
}

func TestDispatchEmptyArgumentsMeanEmptyObject(t *testing.T) {
	for _, args := range []string{"", "null", "  ", " null\n"} {
		p := newPipe(t)
		out, err := p.dispatch(t, context.Background(), pipeTool, args)
		if err != nil || out.Status != StatusOK {
			t.Fatalf("args %q: %+v, %v", args, out, err)
		}
		if len(p.decoded) != 1 || string(p.decoded[0]) != "{}" {
			t.Fatalf("args %q: Decode got %q, want {}", args, p.decoded)
		}
	}
	// Arguments that are not an object are still Decode's to reject.
	p := newPipe(t)
	out, err := p.dispatch(t, context.Background(), pipeTool, `[1]`)
	assertToolError(t, out, err, ErrInvalidArgs, "Error: invalid arguments for stripe_list_customers:\n- $: must be an object, got array")
}

func TestDispatchLabel(t *testing.T) {
	t.Run("nil label is the tool name", func(t *testing.T) {
		p := newPipe(t)
		p.tool.Label = nil
		out, err := p.dispatch(t, context.Background(), pipeTool, `{}`)
		if err != nil || out.Status != StatusOK || out.Label != pipeTool || p.events[0].Label != pipeTool {
			t.Fatalf("%+v %v events %+v", out, err, p.events)
		}
	})
	t.Run("empty label is the tool name", func(t *testing.T) {
		p := newPipe(t)
		p.tool.Label = func(any) string { return "" }
		out, _ := p.dispatch(t, context.Background(), pipeTool, `{}`)
		if out.Label != pipeTool {
			t.Fatalf("label %q", out.Label)
		}
	})
	t.Run("panicking label is recovered and the call goes on", func(t *testing.T) {
		p := newPipe(t)
		p.tool.Label = func(args any) string {
			p.trace.add("label")
			var m map[string]string
			m["x"] = "boom" // panics
			return ""
		}
		out, err := p.dispatch(t, context.Background(), pipeTool, `{}`)
		if err != nil || out.Status != StatusOK || out.Label != pipeTool {
			t.Fatalf("%+v %v", out, err)
		}
		assertTrace(t, p.trace.list(), traceOf(pipeToGate, "permission", "policy-permission:allow", "execute", "event:finish:ok")...)
		if !strings.Contains(p.log.String(), "label panicked") {
			t.Fatalf("panic not logged: %s", p.log.String())
		}
	})
	t.Run("label sees InvalidArgs on undecodable arguments", func(t *testing.T) {
		p := newPipe(t)
		var seen []any
		p.tool.Decode = func([]byte) (any, error) { return nil, errors.New("unexpected end of JSON input") }
		p.tool.Label = func(args any) string { seen = append(seen, args); return "x" }
		out, err := p.dispatch(t, context.Background(), pipeTool, `{`)
		assertToolError(t, out, err, ErrInvalidArgs, "Error: invalid arguments for stripe_list_customers:\n- $: unexpected end of JSON input")
		if len(seen) != 1 {
			t.Fatalf("label saw %v", seen)
		}
		ia, ok := seen[0].(*InvalidArgs)
		if !ok || ia.Args != nil || len(ia.Violations) != 1 || ia.Violations[0].Path != "$" || !ia.Rejected("email") {
			t.Fatalf("label saw %#v", seen[0])
		}
	})
}

func TestDispatchDecodePanic(t *testing.T) {
	p := newPipe(t)
	p.tool.Decode = func([]byte) (any, error) {
		p.trace.add("decode")
		panic("index out of range")
	}
	out, err := p.dispatch(t, context.Background(), pipeTool, `{}`)
	assertTrace(t, p.trace.list(), "decode", "label", "event:start", "event:finish:error")
	assertToolError(t, out, err, ErrInvalidArgs, "Error: could not decode the arguments for stripe_list_customers: the decoder failed unexpectedly.")
}

func TestDispatchUnknownTool(t *testing.T) {
	t.Run("did you mean", func(t *testing.T) {
		p := newPipe(t)
		out, err := p.dispatch(t, context.Background(), "stripe_list_customer", `{}`)
		assertTrace(t, p.trace.list()) // no hook, no event
		assertToolError(t, out, err, ErrUnknownTool, `Error: unknown tool "stripe_list_customer". Did you mean "stripe_list_customers"?`)
	})
	t.Run("nothing close", func(t *testing.T) {
		p := newPipe(t)
		out, err := p.dispatch(t, context.Background(), "send_email", `{}`)
		assertTrace(t, p.trace.list())
		assertToolError(t, out, err, ErrUnknownTool, `Error: unknown tool "send_email".`)
	})
	t.Run("provider tool", func(t *testing.T) {
		p := newPipe(t)
		p.opts.Fallback = FallbackFunc(func(context.Context, *Call, ToolCall) (Result, bool, error) {
			p.trace.add("fallback")
			return Text("native"), true, nil
		})
		p.build(t)
		if err := p.reg.AddProvider(ProviderTool{Name: "web_search"}); err != nil {
			t.Fatal(err)
		}
		out, err := p.dispatch(t, context.Background(), "web_search", `{"query":"go"}`)
		assertTrace(t, p.trace.list()) // the fallback is not asked either
		assertToolError(t, out, err, ErrProviderTool, `Error: "web_search" is a provider tool: the model provider runs it, this host cannot execute it.`)
	})
}

func TestDispatchFallback(t *testing.T) {
	type fb struct {
		res   Result
		owned bool
		err   error
	}
	setup := func(t *testing.T, f fb) (*pipe, *Call) {
		p := newPipe(t)
		var seen Call
		p.opts.Fallback = FallbackFunc(func(ctx context.Context, call *Call, tc ToolCall) (Result, bool, error) {
			p.trace.add("fallback:" + tc.Name + ":" + string(tc.Arguments))
			seen = *call
			return f.res, f.owned, f.err
		})
		p.build(t)
		return p, &seen
	}
	t.Run("owns the name", func(t *testing.T) {
		p, seen := setup(t, fb{res: Text("native result"), owned: true})
		out, err := p.dispatch(t, context.Background(), "scrape_page", `{"url":"x"}`)
		assertTrace(t, p.trace.list(), `fallback:scrape_page:{"url":"x"}`)
		if err != nil || out.Status != StatusOK || out.Result.String() != "native result" {
			t.Fatalf("%+v %v", out, err)
		}
		if seen.ToolCallID != "call_1" || seen.ToolName != "scrape_page" || seen.Registry != p.reg || seen.UserID != "u1" {
			t.Fatalf("fallback's call %+v", seen)
		}
	})
	t.Run("owned name is not a registered tool's", func(t *testing.T) {
		p, _ := setup(t, fb{res: Text("native"), owned: true})
		if _, err := p.dispatch(t, context.Background(), pipeTool, `{}`); err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(p.trace.list(), func(s string) bool { return strings.HasPrefix(s, "fallback") }) {
			t.Fatalf("module tool went to the fallback: %q", p.trace.list())
		}
	})
	t.Run("does not own the name", func(t *testing.T) {
		p, _ := setup(t, fb{owned: false})
		out, err := p.dispatch(t, context.Background(), "stripe_list_custmers", `{}`)
		assertTrace(t, p.trace.list(), `fallback:stripe_list_custmers:{}`)
		assertToolError(t, out, err, ErrUnknownTool, `Error: unknown tool "stripe_list_custmers". Did you mean "stripe_list_customers"?`)
	})
	t.Run("ordinary error", func(t *testing.T) {
		p, _ := setup(t, fb{owned: true, err: errors.New("page not found")})
		out, err := p.dispatch(t, context.Background(), "scrape_page", `{}`)
		assertToolError(t, out, err, ErrExecution, "Error: page not found")
	})
	t.Run("fatal error", func(t *testing.T) {
		p, _ := setup(t, fb{owned: true, err: Fatal(errors.New("db gone"))})
		out, err := p.dispatch(t, context.Background(), "scrape_page", `{}`)
		if !IsFatal(err) || out.Status != StatusFatal {
			t.Fatalf("%+v %v", out, err)
		}
	})
	t.Run("result is capped", func(t *testing.T) {
		p, _ := setup(t, fb{owned: true, res: Text(strings.Repeat("x", 500))})
		p.opts.Limits.MaxResultBytes = 200
		p.build(t) // keeps the fallback set by setup
		out, _ := p.dispatch(t, context.Background(), "scrape_page", `{}`)
		if n := len(out.Result.String()); n > 200 || !strings.Contains(out.Result.String(), "[truncated: the result was 500 bytes") {
			t.Fatalf("len %d: %q", n, out.Result.String())
		}
	})
}

func TestDispatchGateFatal(t *testing.T) {
	p := newPipe(t)
	p.gates.err = Fatal(errors.New("secrets store unreachable"))
	out, err := p.dispatch(t, context.Background(), pipeTool, `{}`)
	assertTrace(t, p.trace.list(), traceOf(pipeToGate, "event:finish:fatal")...)
	if !IsFatal(err) || out.Status != StatusFatal {
		t.Fatalf("%+v %v", out, err)
	}
}

func TestDispatchGateErrorIsLogged(t *testing.T) {
	p := newPipe(t)
	p.gates.err = errors.New("connection refused")
	out, err := p.dispatch(t, context.Background(), pipeTool, `{}`)
	assertToolError(t, out, err, ErrGate, "")
	if strings.Contains(out.Result.String(), "connection refused") {
		t.Fatalf("infrastructure error leaked to the model: %q", out.Result.String())
	}
	if !errors.Is(out.Err, p.gates.err) {
		t.Fatalf("tool error does not wrap the gate error for the host")
	}
	if l := p.log.String(); !strings.Contains(l, "gate check failed") || !strings.Contains(l, "connection refused") ||
		!strings.Contains(l, "call finished") || !strings.Contains(l, "status=error") || !strings.Contains(l, "error_kind=gate") {
		t.Fatalf("log %q", l)
	}
}

func TestDispatchPermissionAsk(t *testing.T) {
	t.Run("requires approval pauses with a pause point", func(t *testing.T) {
		p := newPipe(t)
		p.tool.Flags.RequiresApproval = true
		out, err := p.dispatch(t, context.Background(), pipeTool, ` `)
		if err != nil {
			t.Fatal(err)
		}
		assertTrace(t, p.trace.list(), traceOf(pipeToGate, "permission", "policy-permission:ask", "request-approval", "event:finish:paused")...)
		if out.Status != StatusPaused || out.Pause == nil || out.Pause.PausePointID != "pp-1" || out.Err != nil {
			t.Fatalf("%+v", out)
		}
		if got := out.Result.String(); got != "The call of stripe_list_customers is waiting for a person's approval and has not run yet: the tool requires approval before every call. Its result will be reported once a person has decided; do not call it again in the meantime." || out.Result.IsError {
			t.Fatalf("result %+v", out.Result)
		}
		req := p.approvals.request("pp-1")
		want := ApprovalRequest{UserID: "u1", ConversationID: "c1", TurnIndex: 3, ToolCallID: "call_1", Tool: pipeTool,
			Arguments: json.RawMessage(`{}`), Label: "Pulling recent Stripe customers", Reason: "the tool requires approval before every call"}
		if fmt.Sprint(req) != fmt.Sprint(want) {
			t.Fatalf("stored request\n got %+v\nwant %+v", req, want)
		}
	})
	t.Run("tool asks", func(t *testing.T) {
		p := newPipe(t)
		p.toolDecision = AskApproval("refunds over $100 need a manager")
		out, err := p.dispatch(t, context.Background(), pipeTool, `{}`)
		if err != nil || out.Status != StatusPaused || out.Pause.Reason != "refunds over $100 need a manager" {
			t.Fatalf("%+v %v", out, err)
		}
	})
	t.Run("policy turns allow into ask", func(t *testing.T) {
		p := newPipe(t)
		p.policy.decide = func(prev Decision) Decision { return AskApproval("first use") }
		out, err := p.dispatch(t, context.Background(), pipeTool, `{}`)
		if err != nil || out.Status != StatusPaused {
			t.Fatalf("%+v %v", out, err)
		}
	})
	t.Run("policy turns ask into allow", func(t *testing.T) {
		p := newPipe(t)
		p.tool.Flags.RequiresApproval = true
		p.policy.decide = func(prev Decision) Decision { return Allowed() }
		out, err := p.dispatch(t, context.Background(), pipeTool, `{}`)
		if err != nil || out.Status != StatusOK {
			t.Fatalf("%+v %v", out, err)
		}
	})
	t.Run("no policy", func(t *testing.T) {
		p := newPipe(t)
		p.opts.Policy = nil
		p.build(t)
		p.tool.Flags.RequiresApproval = true
		out, err := p.dispatch(t, context.Background(), pipeTool, `{}`)
		assertTrace(t, p.trace.list(), "decode", "label", "event:start", "gate:stripe", "permission", "request-approval", "event:finish:paused")
		if err != nil || out.Status != StatusPaused {
			t.Fatalf("%+v %v", out, err)
		}
	})
	t.Run("fatal approvals error", func(t *testing.T) {
		p := newPipe(t)
		p.tool.Flags.RequiresApproval = true
		p.approvals.err = Fatal(errors.New("disk full"))
		out, err := p.dispatch(t, context.Background(), pipeTool, `{}`)
		if !IsFatal(err) || out.Status != StatusFatal {
			t.Fatalf("%+v %v", out, err)
		}
	})
}

func TestDispatchPermissionPanic(t *testing.T) {
	p := newPipe(t)
	p.tool.Permission = func(context.Context, *Call, any) Decision {
		p.trace.add("permission")
		panic("boom")
	}
	out, err := p.dispatch(t, context.Background(), pipeTool, `{}`)
	assertTrace(t, p.trace.list(), traceOf(pipeToGate, "permission", "event:finish:error")...)
	assertToolError(t, out, err, ErrDenied, "Error: permission denied for stripe_list_customers: its permission check failed unexpectedly.")
}

func TestDispatchExecutorOutcomes(t *testing.T) {
	toExecute := traceOf(pipeToGate, "permission", "policy-permission:allow", "execute")
	t.Run("fatal", func(t *testing.T) {
		p := newPipe(t)
		base := errors.New("stripe account revoked")
		p.exec = func(context.Context, *Call, *pipeArgs) (Result, error) { return Result{}, Fatal(base) }
		out, err := p.dispatch(t, context.Background(), pipeTool, `{}`)
		assertTrace(t, p.trace.list(), traceOf(toExecute, "event:finish:fatal")...)
		if !IsFatal(err) || !errors.Is(err, base) || out.Status != StatusFatal {
			t.Fatalf("%+v %v", out, err)
		}
	})
	t.Run("pause", func(t *testing.T) {
		p := newPipe(t)
		p.exec = func(context.Context, *Call, *pipeArgs) (Result, error) {
			return Result{}, fmt.Errorf("waiting: %w", Pause("pp-9", "manager sign-off"))
		}
		out, err := p.dispatch(t, context.Background(), pipeTool, `{}`)
		assertTrace(t, p.trace.list(), traceOf(toExecute, "event:finish:paused")...)
		if err != nil || out.Status != StatusPaused || out.Pause.PausePointID != "pp-9" || out.Pause.Reason != "manager sign-off" {
			t.Fatalf("%+v %v", out, err)
		}
		if got := out.Result.String(); got != "The call of stripe_list_customers is waiting for a person's approval: manager sign-off. Its result will be reported once a person has decided; do not call it again in the meantime." {
			t.Fatalf("result %q", got)
		}
	})
	t.Run("panic is logged with its stack", func(t *testing.T) {
		p := newPipe(t)
		p.exec = func(context.Context, *Call, *pipeArgs) (Result, error) { panic(errors.New("bad state")) }
		out, err := p.dispatch(t, context.Background(), pipeTool, `{}`)
		assertToolError(t, out, err, ErrExecution, "Error: stripe_list_customers failed unexpectedly: bad state.")
		var pe *PanicError
		if !errors.As(out.Err, &pe) {
			t.Fatalf("tool error does not carry the panic: %#v", out.Err)
		}
		if l := p.log.String(); !strings.Contains(l, "executor panicked") || !strings.Contains(l, "goroutine") || !strings.Contains(l, "dispatch_test.go") {
			t.Fatalf("log lacks the stack: %s", l)
		}
	})
	t.Run("progress and the per-call copy", func(t *testing.T) {
		p := newPipe(t)
		var seen *Call
		p.exec = func(ctx context.Context, call *Call, a *pipeArgs) (Result, error) {
			seen = call
			call.Progress("page 1")
			call.Progress("page 2")
			return Text("done"), nil
		}
		host := p.call()
		host.ToolCallID = "stale"
		p.trace.reset()
		out, err := p.reg.Dispatch(context.Background(), host, ToolCall{ID: "call_7", Name: pipeTool})
		if err != nil || out.Status != StatusOK {
			t.Fatal(out, err)
		}
		assertTrace(t, p.trace.list(), traceOf(toExecute, "event:progress:page 1", "event:progress:page 2", "event:finish:ok")...)
		if seen == host || seen.ToolCallID != "call_7" || seen.ToolName != pipeTool || seen.Registry != p.reg || seen.UserID != "u1" {
			t.Fatalf("executor's call %+v", seen)
		}
		if host.ToolCallID != "stale" || host.Registry != nil {
			t.Fatalf("host's call was modified: %+v", host)
		}
		for _, e := range p.events {
			if e.CallID != "call_7" || e.Tool != pipeTool {
				t.Fatalf("event %+v", e)
			}
		}
	})
	t.Run("nil call", func(t *testing.T) {
		p := newPipe(t)
		out, err := p.reg.Dispatch(context.Background(), nil, ToolCall{ID: "x", Name: pipeTool})
		if err != nil || out.Status != StatusOK {
			t.Fatal(out, err)
		}
	})
}

func TestDispatchContext(t *testing.T) {
	toPermission := traceOf(pipeToGate, "permission", "policy-permission:allow")
	t.Run("cancelled before execution", func(t *testing.T) {
		p := newPipe(t)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		out, err := p.dispatch(t, ctx, pipeTool, `{}`)
		assertTrace(t, p.trace.list(), traceOf(toPermission, "event:finish:fatal")...)
		if !errors.Is(err, context.Canceled) || out.Status != StatusFatal {
			t.Fatalf("%+v %v", out, err)
		}
	})
	t.Run("cancelled during execution", func(t *testing.T) {
		p := newPipe(t)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		running := make(chan struct{})
		p.exec = func(ctx context.Context, _ *Call, _ *pipeArgs) (Result, error) {
			close(running)
			<-ctx.Done()
			return Result{}, fmt.Errorf("listing customers: %w", ctx.Err())
		}
		go func() {
			<-running
			cancel()
		}()
		out, err := p.dispatch(t, ctx, pipeTool, `{}`)
		assertTrace(t, p.trace.list(), traceOf(toPermission, "execute", "event:finish:fatal")...)
		if !errors.Is(err, context.Canceled) || out.Status != StatusFatal {
			t.Fatalf("%+v %v", out, err)
		}
	})
	t.Run("deadline during execution", func(t *testing.T) {
		p := newPipe(t)
		// Long enough to reach the executor on a loaded machine.
		ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
		defer cancel()
		p.exec = func(ctx context.Context, _ *Call, _ *pipeArgs) (Result, error) {
			<-ctx.Done()
			return Result{}, ctx.Err()
		}
		out, err := p.dispatch(t, ctx, pipeTool, `{}`)
		assertTrace(t, p.trace.list(), traceOf(toPermission, "execute", "event:finish:fatal")...)
		if !errors.Is(err, context.DeadlineExceeded) || out.Status != StatusFatal {
			t.Fatalf("%+v %v", out, err)
		}
	})
	t.Run("executor finishing despite a late cancel succeeds", func(t *testing.T) {
		p := newPipe(t)
		ctx, cancel := context.WithCancel(context.Background())
		p.exec = func(context.Context, *Call, *pipeArgs) (Result, error) {
			cancel()
			return Text("done anyway"), nil
		}
		out, err := p.dispatch(t, ctx, pipeTool, `{}`)
		if err != nil || out.Status != StatusOK {
			t.Fatalf("%+v %v", out, err)
		}
	})
}

// Every call that reached step 2 has exactly one start and one finish, in
// that order; a call stopped at step 1 has none.
func TestDispatchEventsPair(t *testing.T) {
	p := newPipe(t)
	exec := []func(context.Context, *Call, *pipeArgs) (Result, error){
		func(context.Context, *Call, *pipeArgs) (Result, error) { return Text("ok"), nil },
		func(context.Context, *Call, *pipeArgs) (Result, error) { return Result{}, errors.New("x") },
		func(context.Context, *Call, *pipeArgs) (Result, error) { return Result{}, Fatal(errors.New("x")) },
		func(context.Context, *Call, *pipeArgs) (Result, error) { return Result{}, Pause("p", "") },
		func(context.Context, *Call, *pipeArgs) (Result, error) { panic("x") },
	}
	calls := []struct {
		name, args string
	}{{pipeTool, `{}`}, {pipeTool, `{"limit":-1}`}, {pipeTool, `{`}, {"nope", `{}`}}
	for _, e := range exec {
		p.exec = e
		for _, c := range calls {
			p.events = nil
			_, _ = p.dispatch(t, context.Background(), c.name, c.args)
			if c.name == "nope" {
				if len(p.events) != 0 {
					t.Fatalf("unknown tool emitted %+v", p.events)
				}
				continue
			}
			if len(p.events) != 2 || p.events[0].Type != EventStart || p.events[1].Type != EventFinish || p.events[1].Status == "" {
				t.Fatalf("%s %s: events %+v", c.name, c.args, p.events)
			}
		}
	}
}

func TestDispatchResultShaping(t *testing.T) {
	t.Run("text is truncated with a marker", func(t *testing.T) {
		p := newPipe(t)
		p.opts.Limits.MaxResultBytes = 200
		p.build(t)
		long := strings.Repeat("é", 500) // 1000 bytes
		p.exec = func(context.Context, *Call, *pipeArgs) (Result, error) { return Text(long), nil }
		out, err := p.dispatch(t, context.Background(), pipeTool, `{}`)
		if err != nil || out.Status != StatusOK {
			t.Fatal(out, err)
		}
		got := out.Result.String()
		if len(got) > 200 || !utf8.ValidString(got) {
			t.Fatalf("len %d, valid %v", len(got), utf8.ValidString(got))
		}
		if !strings.HasSuffix(got, "\n[truncated: the result was 1000 bytes, the limit is 200 bytes]") || !strings.HasPrefix(got, "éé") {
			t.Fatalf("result %q", got)
		}
	})
	t.Run("a file that does not fit becomes a note", func(t *testing.T) {
		p := newPipe(t)
		p.opts.Limits.MaxResultBytes = 400
		p.build(t)
		p.exec = func(context.Context, *Call, *pipeArgs) (Result, error) {
			return Parts(TextPart("Here is the report."), FilePart(File{Name: "report.pdf", MediaType: "application/pdf", Data: make([]byte, 5000)}), TextPart("Done.")), nil
		}
		out, _ := p.dispatch(t, context.Background(), pipeTool, `{}`)
		parts := out.Result.Parts
		if len(parts) != 3 || parts[1].Type != PartText || parts[0].Text != "Here is the report." {
			t.Fatalf("parts %+v", parts)
		}
		if want := `[file "report.pdf" (5000 bytes) omitted: it does not fit in the result size limit]`; parts[1].Text != want {
			t.Fatalf("note %q, want %q", parts[1].Text, want)
		}
		if parts[2].Text != "Done.\n[truncated: the result was 5024 bytes, the limit is 400 bytes]" {
			t.Fatalf("last part %q", parts[2].Text)
		}
		total := 0
		for i := range parts {
			total += partSize(&parts[i])
		}
		if total > 400 {
			t.Fatalf("total %d", total)
		}
	})
}

func TestShapeResult(t *testing.T) {
	small := Parts(TextPart("a"), FilePart(File{Name: "f", Data: []byte("12345")}))
	if got := shapeResult(small, 6); &got.Parts[0] != &small.Parts[0] {
		t.Fatal("a result within the limit was copied")
	}
	cases := []struct {
		name  string
		res   Result
		limit int
		want  []Part
	}{
		{
			name:  "file alone, note does not fit",
			res:   FileResult(File{Name: "big.bin", Data: make([]byte, 1000)}),
			limit: 100,
			want:  []Part{TextPart("[truncated: the result was 1000 bytes, the limit is 100 bytes]")},
		},
		{
			name:  "parts after a cut are dropped",
			res:   Parts(TextPart(strings.Repeat("a", 100)), TextPart("b")),
			limit: 80,
			want:  []Part{TextPart(strings.Repeat("a", 80-len(truncationMarker(101, 80))) + truncationMarker(101, 80))},
		},
		{
			name:  "limit smaller than the marker",
			res:   Text(strings.Repeat("a", 100)),
			limit: 10,
			want:  []Part{TextPart("[truncated: the result was 100 bytes, the limit is 10 bytes]")},
		},
		{
			name:  "error flag kept",
			res:   Result{Parts: []Part{TextPart(strings.Repeat("a", 100))}, IsError: true},
			limit: 90,
			want:  []Part{TextPart(strings.Repeat("a", 90-len(truncationMarker(100, 90))) + truncationMarker(100, 90))},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := shapeResult(c.res, c.limit)
			if fmt.Sprint(got.Parts) != fmt.Sprint(c.want) || got.IsError != c.res.IsError {
				t.Fatalf("got %+v, want %+v", got.Parts, c.want)
			}
		})
	}
}

func TestCutUTF8(t *testing.T) {
	s := "aé€😀"
	for n := 0; n <= len(s)+1; n++ {
		got := cutUTF8(s, n)
		if len(got) > n || !utf8.ValidString(got) || !strings.HasPrefix(s, got) {
			t.Fatalf("cutUTF8(%q, %d) = %q", s, n, got)
		}
	}
}

func TestSuggest(t *testing.T) {
	names := []string{"stripe_list_customers", "stripe_list_payments", "web_search", "ls"}
	for in, want := range map[string]string{
		"stripe_list_customer":  "stripe_list_customers",
		"Stripe_List_Customers": "stripe_list_customers",
		"stripe_list_payment":   "stripe_list_payments",
		"websearch":             "web_search",
		"lx":                    "ls",
		"stripe_create_invoice": "",
		"search":                "",
		"":                      "",
	} {
		if got := suggest(in, names); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestResume(t *testing.T) {
	pause := func(t *testing.T, p *pipe, args string) string {
		t.Helper()
		p.tool.Flags.RequiresApproval = true
		out, err := p.dispatch(t, context.Background(), pipeTool, args)
		if err != nil || out.Status != StatusPaused {
			t.Fatalf("%+v %v", out, err)
		}
		return out.Pause.PausePointID
	}
	t.Run("approved runs the original call exactly once", func(t *testing.T) {
		p := newPipe(t)
		id := pause(t, p, `{"email":"a@b.co","limit":7}`)
		p.approvals.resolve(id, Decision{Behavior: Allow, Reason: "ok by Sam"})
		var seen []*Call
		p.exec = func(ctx context.Context, call *Call, a *pipeArgs) (Result, error) {
			seen = append(seen, call)
			return Text(fmt.Sprintf("%s/%d", a.Email, a.Limit)), nil
		}
		p.trace.reset()
		// Someone who is neither the owner nor authorised is refused, and
		// claims nothing.
		other := p.call()
		other.UserID = "someone-else"
		if _, err := p.reg.Resume(context.Background(), other, id); !errors.Is(err, ErrPausePointForbidden) || len(seen) != 0 {
			t.Fatalf("resume by another user: %v, runs %d", err, len(seen))
		}
		p.trace.reset()
		// An authorised resolver ("admin" in this store) resumes the
		// owner's call, in a later turn: the call runs as the owner, in
		// its own conversation and turn.
		later := p.call()
		later.UserID, later.ConversationID, later.TurnIndex = "admin", "c2", 9
		out, err := p.reg.Resume(context.Background(), later, id)
		if err != nil || out.Status != StatusOK || out.Result.String() != "a@b.co/7" || out.CallID != "call_1" {
			t.Fatalf("%+v %v", out, err)
		}
		// The pipeline is asked again up to permission; the approval
		// satisfies the ask.
		assertTrace(t, p.trace.list(), "claim", "decode", "label", "event:start", "policy-enabled", "gate:stripe", "permission", "policy-permission:ask", "execute", "event:finish:ok")
		c := seen[0]
		if c.UserID != "u1" || c.ConversationID != "c1" || c.TurnIndex != 3 || c.ToolCallID != "call_1" {
			t.Fatalf("resumed call %+v", c)
		}
		if c.Approval == nil || *c.Approval != (Approval{PausePointID: id, Note: "ok by Sam"}) {
			t.Fatalf("approval %+v", c.Approval)
		}
		// A second Resume fails and does not run the tool.
		out, err = p.reg.Resume(context.Background(), later, id)
		if !errors.Is(err, ErrPausePointConsumed) || len(seen) != 1 {
			t.Fatalf("second resume: %+v %v, runs %d", out, err, len(seen))
		}
	})
	t.Run("approved but the gate closed since", func(t *testing.T) {
		p := newPipe(t)
		id := pause(t, p, `{}`)
		p.approvals.resolve(id, Decision{Behavior: Allow})
		p.gates.set("stripe", false)
		p.trace.reset()
		out, err := p.reg.Resume(context.Background(), p.call(), id)
		assertTrace(t, p.trace.list(), "claim", "decode", "label", "event:start", "policy-enabled", "gate:stripe", "event:finish:error")
		assertToolError(t, out, err, ErrGate, "Error: Stripe is not connected for this account.")
	})
	t.Run("approved but the tool was disabled since", func(t *testing.T) {
		p := newPipe(t)
		id := pause(t, p, `{}`)
		p.approvals.resolve(id, Decision{Behavior: Allow})
		p.tool.Flags.Enabled = false
		p.trace.reset()
		out, err := p.reg.Resume(context.Background(), p.call(), id)
		assertTrace(t, p.trace.list(), "claim", "decode", "label", "event:start", "event:finish:error")
		assertToolError(t, out, err, ErrDisabled, "Error: tool stripe_list_customers is disabled.")
	})
	t.Run("approved but the tool was removed since", func(t *testing.T) {
		p := newPipe(t)
		id := pause(t, p, `{}`)
		p.approvals.resolve(id, Decision{Behavior: Allow})
		p.reg.Remove(pipeTool)
		out, err := p.reg.Resume(context.Background(), p.call(), id)
		assertToolError(t, out, err, ErrUnknownTool, `Error: unknown tool "stripe_list_customers".`)
	})
	t.Run("denied", func(t *testing.T) {
		p := newPipe(t)
		id := pause(t, p, `{"email":"a@b.co"}`)
		p.approvals.resolve(id, Denied("we do not export customer lists"))
		p.trace.reset()
		out, err := p.reg.Resume(context.Background(), p.call(), id)
		assertTrace(t, p.trace.list(), "claim", "event:start", "event:finish:error")
		assertToolError(t, out, err, ErrDenied, "Error: a person denied the call of stripe_list_customers: we do not export customer lists.")
		if out.Label != "Looking up a@b.co in Stripe" || out.CallID != "call_1" {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("errors", func(t *testing.T) {
		p := newPipe(t)
		if _, err := p.reg.Resume(context.Background(), nil, "pp-404"); !errors.Is(err, ErrPausePointNotFound) || !strings.Contains(err.Error(), "pp-404") {
			t.Fatalf("unknown id: %v", err)
		}
		id := pause(t, p, `{}`)
		if _, err := p.reg.Resume(context.Background(), p.call(), id); !errors.Is(err, ErrPausePointPending) {
			t.Fatalf("pending: %v", err)
		}
		p.opts.Approvals = nil
		p.build(t)
		if _, err := p.reg.Resume(context.Background(), nil, id); !errors.Is(err, ErrApprovalsUnavailable) {
			t.Fatalf("no store: %v", err)
		}
	})
}

// Many goroutines dispatch while another adds and removes tools; run with
// -race.
func TestDispatchConcurrentWithRegistryChanges(t *testing.T) {
	p := newPipe(t)
	p.opts.Policy = nil
	p.build(t)
	var events sync.Map
	call := &Call{Events: func(e Event) {
		if e.Type == EventFinish {
			events.Store(e.CallID, e.Status)
		}
	}}
	flaky := func() *Tool {
		return &Tool{Name: "flaky", Flags: DefaultFlags(),
			Decode:  func([]byte) (any, error) { return nil, nil },
			Execute: func(context.Context, *Call, any) (Result, error) { return Text("flaky"), nil }}
	}
	stop := make(chan struct{})
	var churn sync.WaitGroup
	churn.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if i%2 == 0 {
				_ = p.reg.Add(flaky())
			} else {
				p.reg.Remove("flaky")
			}
			if _, err := p.reg.Catalog(context.Background(), nil); err != nil {
				t.Error(err)
			}
		}
	})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				id := fmt.Sprintf("g%d-%d", g, i)
				out, err := p.reg.Dispatch(context.Background(), call, ToolCall{ID: id, Name: pipeTool, Arguments: json.RawMessage(`{"limit":3}`)})
				if err != nil || out.Status != StatusOK {
					t.Errorf("%s: %+v %v", id, out, err)
					return
				}
				out, err = p.reg.Dispatch(context.Background(), call, ToolCall{ID: id + "f", Name: "flaky"})
				if err != nil || !(out.Status == StatusOK || out.Err != nil && out.Err.Kind == ErrUnknownTool) {
					t.Errorf("%s flaky: %+v %v", id, out, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	churn.Wait()
	n := 0
	events.Range(func(k, v any) bool { n++; return true })
	if n < 8*200 {
		t.Fatalf("finish events for %d calls, want at least %d", n, 8*200)
	}
}

// namedFallback is a legacy catalog that lists its names.
type namedFallback struct{ names []string }

func (f namedFallback) Dispatch(ctx context.Context, call *Call, tc ToolCall) (Result, bool, error) {
	if slices.Contains(f.names, tc.Name) {
		return Text("legacy " + tc.Name), true, nil
	}
	return Result{}, false, nil
}

func (f namedFallback) Names() []string { return f.names }

func TestUnknownToolSuggestsFallbackNames(t *testing.T) {
	reg := NewRegistry(Options{Fallback: namedFallback{names: []string{"scrape_page", "get_time"}}})
	out, err := reg.Dispatch(context.Background(), nil, ToolCall{ID: "c1", Name: "scrape_pag", Arguments: json.RawMessage(`{}`)})
	assertToolError(t, out, err, ErrUnknownTool, `Error: unknown tool "scrape_pag". Did you mean "scrape_page"?`)
	out, err = reg.Dispatch(context.Background(), nil, ToolCall{ID: "c2", Name: "scrape_page"})
	if err != nil || out.Status != StatusOK || out.Result.String() != "legacy scrape_page" {
		t.Fatalf("%+v %v", out, err)
	}
}

func TestDeniedTextEndsOneSentence(t *testing.T) {
	for note, want := range map[string]string{
		"":                 "a person denied the call of x.",
		"not now":          "a person denied the call of x: not now.",
		"Wait until paid.": "a person denied the call of x: Wait until paid.",
		"Why?":             "a person denied the call of x: Why?",
	} {
		if got := humanDeniedError("x", note).Message; got != want {
			t.Errorf("note %q: %q, want %q", note, got, want)
		}
	}
}

// An executor may leave a goroutine behind that still holds its Call. What
// that goroutine emits or reports after the call ended is dropped: once
// Dispatch has returned, no sink of the host is called (a host may close
// the channel its sink writes to), and the finish event is the call's last.
func TestDispatchSinksQuietAfterTheCallEnds(t *testing.T) {
	p := newPipe(t)
	release, lateDone := make(chan struct{}), make(chan struct{})
	p.exec = func(ctx context.Context, call *Call, a *pipeArgs) (Result, error) {
		call.Progress("working")
		call.ReportUsage(Usage{InputTokens: 1})
		go func() {
			defer close(lateDone)
			<-release
			call.Progress("too late")
			call.Emit(Event{Type: EventProgress, Message: "too late, direct"})
			call.Events(Event{Type: EventProgress, Message: "too late, raw sink"})
			call.ReportUsage(Usage{InputTokens: 1000})
			call.Usage(Usage{InputTokens: 1000})
		}()
		return Text("done"), nil
	}
	var mu sync.Mutex
	var usage []Usage
	host := p.call()
	host.Usage = func(u Usage) {
		mu.Lock()
		usage = append(usage, u)
		mu.Unlock()
	}
	p.trace.reset()
	out, err := p.reg.Dispatch(context.Background(), host, ToolCall{ID: "call_1", Name: pipeTool, Arguments: json.RawMessage(`{}`)})
	if err != nil || out.Status != StatusOK {
		t.Fatal(out, err)
	}
	close(release)
	<-lateDone
	assertTrace(t, p.trace.list(), traceOf(pipeToGate, "permission", "policy-permission:allow", "execute", "event:progress:working", "event:finish:ok")...)
	mu.Lock()
	defer mu.Unlock()
	if len(usage) != 1 || usage[0].InputTokens != 1 {
		t.Fatalf("usage reports %+v, want only the one made during the call", usage)
	}
	p.evMu.Lock()
	defer p.evMu.Unlock()
	if last := p.events[len(p.events)-1]; last.Type != EventFinish || last.CallID != "call_1" || last.Tool != pipeTool || last.Label == "" {
		t.Fatalf("last event %+v", last)
	}
}

// A host sink that panics while the executor emits is the executor's panic
// (recovered, an execution error); it must not leave the call's sinks locked.
func TestDispatchPanickingSink(t *testing.T) {
	p := newPipe(t)
	p.exec = func(ctx context.Context, call *Call, a *pipeArgs) (Result, error) {
		call.Progress("boom")
		return Text("unreachable"), nil
	}
	var finished atomic.Bool
	host := &Call{Events: func(e Event) {
		switch e.Type {
		case EventProgress:
			panic("sink failed")
		case EventFinish:
			finished.Store(true)
		}
	}}
	done := make(chan struct{})
	var out Outcome
	var err error
	go func() {
		defer close(done)
		out, err = p.reg.Dispatch(context.Background(), host, ToolCall{ID: "c", Name: pipeTool})
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Dispatch is stuck after a panicking sink")
	}
	assertToolError(t, out, err, ErrExecution, "Error: stripe_list_customers failed unexpectedly: sink failed.")
	if !finished.Load() {
		t.Error("no finish event after the panicking sink")
	}
}
