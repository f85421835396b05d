package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

// No wrapper is a way around steps 4–6: a host policy that names the
// wrapped tool ("tasks_delete") stops it inside every wrapper exactly as it
// stops a direct call. The table is every wrapper × every stop.

type delArgs struct {
	ID string `json:"id"`
}

// wrapHarness is a registry with tasks_delete (gated on "tasks"), the
// wrappers around it, a policy keyed by tool name and a recording approvals
// store.
type wrapHarness struct {
	inner *Tool
	reg   *Registry
	gates map[string]bool

	mu  sync.Mutex
	ran []string // ids tasks_delete ran for

	// enabled, permission: the host's policy, by tool name (nil: allow).
	disabled   map[string]bool
	permission func(t *Tool, args any, prev Decision) Decision
	store      *memApprovals
}

func newWrapHarness(t *testing.T) *wrapHarness {
	t.Helper()
	h := &wrapHarness{gates: map[string]bool{"tasks": true}, disabled: map[string]bool{}, store: newMemApprovals()}
	h.inner = &Tool{
		Name:   "tasks_delete",
		Schema: json.RawMessage(`{"additionalProperties":false,"properties":{"id":{"type":"string"}},"required":["id"],"type":"object"}`),
		Gate:   "tasks",
		Flags:  Flags{Enabled: true, Destructive: true},
		Decode: DecodeJSON[delArgs](nil),
		Execute: TypedExecute(func(ctx context.Context, call *Call, a *delArgs) (Result, error) {
			h.mu.Lock()
			h.ran = append(h.ran, a.ID)
			h.mu.Unlock()
			return Text("deleted " + a.ID), nil
		}),
	}
	h.reg = NewRegistry(Options{
		Gates: GatesFunc(func(ctx context.Context, call *Call, gate string) (bool, error) { return h.gates[gate], nil }),
		Policy: PolicyFuncs{
			EnabledFunc: func(ctx context.Context, call *Call, t *Tool) bool { return !h.disabled[t.Name] },
			PermissionFunc: func(ctx context.Context, call *Call, t *Tool, args any, prev Decision) Decision {
				if h.permission == nil {
					return prev
				}
				return h.permission(t, args, prev)
			},
		},
		Approvals: h.store,
	})
	return h
}

func (h *wrapHarness) runs() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := slices.Clone(h.ran)
	slices.Sort(out)
	return out
}

// neutral clears what a wrapper copied from the tool it wraps (its gate and
// enabled flag), so that only the pipeline's questions about the wrapped
// tool can stop it.
func neutral(w *Tool) *Tool {
	w.Gate, w.GateMessage = "", ""
	w.Flags.Enabled = true
	return w
}

// memApprovals is an in-memory Approvals store that approves on request.
type memApprovals struct {
	mu     sync.Mutex
	points map[string]*memPoint
	n      int
}

type memPoint struct {
	req      ApprovalRequest
	decision *Decision
	claimed  string // the attempt that claimed it
	done     bool
}

func newMemApprovals() *memApprovals { return &memApprovals{points: map[string]*memPoint{}} }

func (a *memApprovals) RequestApproval(ctx context.Context, req ApprovalRequest) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.n++
	id := fmt.Sprintf("pp-%d", a.n)
	a.points[id] = &memPoint{req: req}
	return id, nil
}

func (a *memApprovals) Claim(ctx context.Context, c ClaimRequest) (ApprovalRequest, Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	p, ok := a.points[c.PausePointID]
	switch {
	case !ok:
		return ApprovalRequest{}, Decision{}, ErrPausePointNotFound
	case c.By != p.req.UserID:
		return ApprovalRequest{}, Decision{}, ErrPausePointForbidden
	case p.decision == nil:
		return ApprovalRequest{}, Decision{}, ErrPausePointPending
	case p.done || p.claimed != "" && p.claimed != c.Attempt:
		return ApprovalRequest{}, Decision{}, ErrPausePointConsumed
	}
	p.claimed = c.Attempt
	return p.req, *p.decision, nil
}

func (a *memApprovals) Finish(ctx context.Context, c ClaimRequest) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if p, ok := a.points[c.PausePointID]; ok && p.claimed == c.Attempt {
		p.done = true
	}
	return nil
}

func (a *memApprovals) resolve(id string, d Decision) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.points[id].decision = &d
}

// wrapperCase builds one wrapper around h.inner and calls it with the ids
// "a" and "b" (a wrapper of one call: "b"), returning what the call came
// to.
type wrapperCase struct {
	name string
	// call dispatches the wrapper; it returns the outcome a stop shows in:
	// the wrapper call's own, or (sub-agent) the inner call's.
	call func(t *testing.T, h *wrapHarness) Outcome
	// batch says a Deny of one item is that item's error (the wrapper takes
	// items); otherwise the wrapper holds one inner call.
	batch bool
}

func dispatchOK(t *testing.T, h *wrapHarness, call *Call, name, args string) Outcome {
	t.Helper()
	out, err := h.reg.Dispatch(context.Background(), call, ToolCall{ID: "call_1", Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("dispatch %s: %v", name, err)
	}
	return out
}

var wrapperCases = []wrapperCase{
	{
		name:  "batch",
		batch: true,
		call: func(t *testing.T, h *wrapHarness) Outcome {
			if err := h.reg.Add(neutral(mustParallelize(t, h.inner, ParallelizeOptions{}))); err != nil {
				t.Fatal(err)
			}
			return dispatchOK(t, h, &Call{UserID: "u1"}, "tasks_delete_batch", `{"items":[{"id":"a"},{"id":"b"}]}`)
		},
	},
	{
		name:  "batch in RunCalls",
		batch: true,
		call: func(t *testing.T, h *wrapHarness) Outcome {
			if err := h.reg.Add(neutral(mustParallelize(t, h.inner, ParallelizeOptions{}))); err != nil {
				t.Fatal(err)
			}
			outs, err := h.reg.RunCalls(context.Background(), &Call{UserID: "u1"}, []ToolCall{
				{ID: "call_1", Name: "tasks_delete_batch", Arguments: json.RawMessage(`{"items":[{"id":"a"},{"id":"b"}]}`)},
			}, RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			return outs[0]
		},
	},
	{
		name:  "batch of a batch",
		batch: true,
		call: func(t *testing.T, h *wrapHarness) Outcome {
			b1 := neutral(mustParallelize(t, h.inner, ParallelizeOptions{}))
			b2 := neutral(mustParallelize(t, b1, ParallelizeOptions{Name: "tasks_delete_batches"}))
			if err := h.reg.Add(b2); err != nil {
				t.Fatal(err)
			}
			out := dispatchOK(t, h, &Call{UserID: "u1"}, "tasks_delete_batches", `{"items":[{"items":[{"id":"a"},{"id":"b"}]}]}`)
			// Unwrap the outer entry, so the result reads like a batch's.
			var outer []BatchItemResult
			if out.Status == StatusOK && json.Unmarshal([]byte(out.Result.String()), &outer) == nil && len(outer) == 1 && outer[0].OK {
				out.Result = Text(outer[0].Output.(string))
			}
			return out
		},
	},
	{
		name:  "sub-agent dispatching through the registry",
		batch: false,
		call: func(t *testing.T, h *wrapHarness) Outcome {
			var inner Outcome
			agent, err := AgentTool(AgentToolOptions{
				Name: "cleanup", Description: "Cleans up.", Schema: json.RawMessage(`{"type":"object"}`),
				CreateAgent: func(ctx context.Context, input any, call *Call) (Agent, error) {
					return AgentFunc(func(ctx context.Context, prompt string, events func(Event)) (AgentResult, error) {
						// The sub-agent's own tool call goes through the
						// host's registry with the call it was given.
						out, err := call.Registry.Dispatch(ctx, call, ToolCall{ID: "child_1", Name: "tasks_delete", Arguments: json.RawMessage(`{"id":"b"}`)})
						inner = out
						return AgentResult{OK: err == nil, Response: out.Result.String()}, err
					}), nil
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := h.reg.Add(agent, h.inner); err != nil {
				t.Fatal(err)
			}
			// The parent call carries an approval, as a resumed call would:
			// the child must not inherit it.
			dispatchOK(t, h, &Call{UserID: "u1", Approval: &Approval{PausePointID: "pp-x"}}, "cleanup", `{}`)
			return inner
		},
	},
	{
		name:  "batch of an agent tool",
		batch: true,
		call: func(t *testing.T, h *wrapHarness) Outcome {
			// The wrapped tool is itself an agent tool named tasks_delete.
			del := h.inner
			agent, err := AgentTool(AgentToolOptions{
				Name: "tasks_delete", Description: "Deletes by delegation.", Schema: h.inner.Schema,
				Decode: h.inner.Decode,
				CreateAgent: func(ctx context.Context, input any, call *Call) (Agent, error) {
					return AgentFunc(func(ctx context.Context, prompt string, events func(Event)) (AgentResult, error) {
						res, err := del.Execute(ctx, call, input)
						return AgentResult{OK: err == nil, Response: res}, err
					}), nil
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			agent.Gate, agent.Flags = h.inner.Gate, h.inner.Flags
			agent.Permission = h.inner.Permission
			h.inner = agent
			if err := h.reg.Add(neutral(mustParallelize(t, agent, ParallelizeOptions{}))); err != nil {
				t.Fatal(err)
			}
			return dispatchOK(t, h, &Call{UserID: "u1"}, "tasks_delete_batch", `{"items":[{"id":"a"},{"id":"b"}]}`)
		},
	},
}

// denyB is a policy that denies tasks_delete for id "b".
func denyB(whole bool) func(t *Tool, args any, prev Decision) Decision {
	return func(t *Tool, args any, prev Decision) Decision {
		if a, ok := args.(*delArgs); ok && t.Name == "tasks_delete" && a.ID == "b" {
			return Decision{Behavior: Deny, Reason: "b is protected", WholeBatch: whole}
		}
		return prev
	}
}

func TestWrappersCannotBypassPolicy(t *testing.T) {
	stops := []struct {
		name  string
		setup func(h *wrapHarness)
		// check the outcome; runs is what tasks_delete ran for.
		check func(t *testing.T, c wrapperCase, out Outcome, runs []string)
	}{
		{
			name:  "none (control)",
			setup: func(h *wrapHarness) {},
			check: func(t *testing.T, c wrapperCase, out Outcome, runs []string) {
				want := []string{"a", "b"}
				if !c.batch {
					want = want[1:]
				}
				if out.Status != StatusOK || !slices.Equal(runs, want) {
					t.Errorf("status %s, runs %v: %s", out.Status, runs, out.Result.String())
				}
			},
		},
		{
			name:  "4 disabled by its flag",
			setup: func(h *wrapHarness) { h.inner.Flags.Enabled = false },
			check: wantStopped(ErrDisabled, "tasks_delete", "disabled"),
		},
		{
			name:  "4 disabled by the host's policy",
			setup: func(h *wrapHarness) { h.disabled["tasks_delete"] = true },
			check: wantStopped(ErrDisabled, "tasks_delete", "not available"),
		},
		{
			name:  "5 its gate is closed",
			setup: func(h *wrapHarness) { h.gates["tasks"] = false },
			check: wantStopped(ErrGate, "tasks", ""),
		},
		{
			name: "6 its own check denies b",
			setup: func(h *wrapHarness) {
				h.inner.Permission = func(ctx context.Context, call *Call, args any) Decision {
					return denyB(false)(h.inner, args, Allowed())
				}
			},
			check: wantItemDenied,
		},
		{
			name:  "6 the host's policy denies b",
			setup: func(h *wrapHarness) { h.permission = denyB(false) },
			check: wantItemDenied,
		},
		{
			name:  "6 the host's policy denies b for the whole call",
			setup: func(h *wrapHarness) { h.permission = denyB(true) },
			check: func(t *testing.T, c wrapperCase, out Outcome, runs []string) {
				if !c.batch {
					wantItemDenied(t, c, out, runs)
					return
				}
				wantStopped(ErrDenied, "b is protected", "")(t, c, out, runs)
			},
		},
		{
			name: "6 the host's policy asks",
			setup: func(h *wrapHarness) {
				h.permission = func(t *Tool, args any, prev Decision) Decision {
					if t.Name == "tasks_delete" {
						return AskApproval("deletions need a person")
					}
					return prev
				}
			},
			check: func(t *testing.T, c wrapperCase, out Outcome, runs []string) {
				if out.Status != StatusPaused || out.Pause == nil || len(runs) != 0 {
					t.Errorf("status %s, pause %+v, runs %v; want paused before anything ran", out.Status, out.Pause, runs)
				}
				if !strings.Contains(out.Pause.Reason, "deletions need a person") {
					t.Errorf("pause reason %q", out.Pause.Reason)
				}
			},
		},
	}
	for _, c := range wrapperCases {
		for _, s := range stops {
			t.Run(c.name+"/"+s.name, func(t *testing.T) {
				h := newWrapHarness(t)
				s.setup(h)
				out := c.call(t, h)
				s.check(t, c, out, h.runs())
			})
		}
	}
}

// wantStopped: the call stopped with kind before tasks_delete ran, and the
// model reads msg and also.
func wantStopped(kind ErrorKind, msg, also string) func(t *testing.T, c wrapperCase, out Outcome, runs []string) {
	return func(t *testing.T, c wrapperCase, out Outcome, runs []string) {
		t.Helper()
		text := out.Result.String()
		if out.Status != StatusError || out.Err == nil || out.Err.Kind != kind || len(runs) != 0 {
			t.Fatalf("status %s, err %+v, runs %v: %s; want a %s error before anything ran", out.Status, out.Err, runs, text, kind)
		}
		if !strings.Contains(text, msg) || !strings.Contains(text, also) {
			t.Errorf("model reads %q, want it to mention %q and %q", text, msg, also)
		}
	}
}

// wantItemDenied: "b" was denied; in a batch that is b's error and a ran.
func wantItemDenied(t *testing.T, c wrapperCase, out Outcome, runs []string) {
	t.Helper()
	if !c.batch {
		wantStopped(ErrDenied, "b is protected", "")(t, c, out, runs)
		return
	}
	if len(runs) != 0 && !slices.Equal(runs, []string{"a"}) {
		t.Fatalf("runs %v, want only a", runs)
	}
	var entries []BatchItemResult
	if err := json.Unmarshal([]byte(out.Result.String()), &entries); err != nil || len(entries) != 2 {
		t.Fatalf("status %s, result %s (%v)", out.Status, out.Result.String(), err)
	}
	if !entries[0].OK || entries[1].OK || entries[1].Error == nil || entries[1].Error.Type != "permission_denied" ||
		entries[1].Error.Message != "permission denied for tasks_delete: b is protected." || !slices.Equal(runs, []string{"a"}) {
		t.Errorf("entries %s, runs %v", out.Result.String(), runs)
	}
}

// The catalog shows a wrapper only when the tool it wraps would be shown.
func TestCatalogHidesWrapperOfHiddenTool(t *testing.T) {
	for _, stop := range []string{"none", "flag", "policy", "gate"} {
		h := newWrapHarness(t)
		bt := neutral(mustParallelize(t, h.inner, ParallelizeOptions{}))
		if err := h.reg.Add(bt); err != nil {
			t.Fatal(err)
		}
		switch stop {
		case "flag":
			h.inner.Flags.Enabled = false
		case "policy":
			h.disabled["tasks_delete"] = true
		case "gate":
			h.gates["tasks"] = false
		}
		tools, err := h.reg.Catalog(context.Background(), &Call{UserID: "u1"})
		if err != nil {
			t.Fatal(err)
		}
		if shown := len(tools) == 1; shown != (stop == "none") {
			t.Errorf("%s: catalog %v", stop, tools)
		}
	}
}
