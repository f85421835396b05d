package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// pausedDelete registers tasks_delete (requires approval), dispatches it for
// u1 with id "a" and approves the pause point; it returns the point's id.
func pausedDelete(t *testing.T, h *wrapHarness) string {
	t.Helper()
	h.inner.Flags.RequiresApproval = true
	if err := h.reg.Add(h.inner); err != nil {
		t.Fatal(err)
	}
	out := dispatchOK(t, h, &Call{UserID: "u1", ConversationID: "c1"}, "tasks_delete", `{"id":"a"}`)
	if out.Status != StatusPaused {
		t.Fatalf("dispatch: %+v", out)
	}
	h.store.resolve(out.Pause.PausePointID, Allowed())
	return out.Pause.PausePointID
}

// lateClaims is a store whose Claim records the claim and then reports the
// context's error, as a database does when the deadline passes while the
// server applies the update.
type lateClaims struct {
	*memApprovals
	late int // how many Claims to fail after applying them
}

func (l *lateClaims) Claim(ctx context.Context, c ClaimRequest) (ApprovalRequest, Decision, error) {
	req, d, err := l.memApprovals.Claim(ctx, c)
	if err == nil && l.late > 0 {
		l.late--
		return ApprovalRequest{}, Decision{}, StoreError(context.DeadlineExceeded)
	}
	return req, d, err
}

func TestResumeRetrySafe(t *testing.T) {
	ctx := context.Background()
	owner := &Call{UserID: "u1"}
	t.Run("a claim applied after its deadline: the same attempt claims again and runs once", func(t *testing.T) {
		h := newWrapHarness(t)
		id := pausedDelete(t, h)
		h.reg.opts.Approvals = &lateClaims{memApprovals: h.store, late: 1}
		opts := ResumeOptions{Attempt: "req-42"}
		_, err := h.reg.ResumeWith(ctx, owner, id, opts)
		if !errors.Is(err, ErrApprovalStoreUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("first attempt: %v", err)
		}
		// Another resume loses, even though the first never ran the call.
		if _, err := h.reg.ResumeWith(ctx, owner, id, ResumeOptions{Attempt: "other"}); !errors.Is(err, ErrPausePointConsumed) {
			t.Fatalf("other attempt: %v", err)
		}
		out, err := h.reg.ResumeWith(ctx, owner, id, opts)
		if err != nil || out.Status != StatusOK || !slices.Equal(h.runs(), []string{"a"}) {
			t.Fatalf("retry: %+v %v, runs %v", out, err, h.runs())
		}
		// Finished: the same attempt cannot run it again.
		if _, err := h.reg.ResumeWith(ctx, owner, id, opts); !errors.Is(err, ErrPausePointConsumed) || len(h.runs()) != 1 {
			t.Fatalf("after finish: %v, runs %v", err, h.runs())
		}
	})
	t.Run("the context ends before the call runs: the same attempt runs it", func(t *testing.T) {
		h := newWrapHarness(t)
		id := pausedDelete(t, h)
		cctx, cancel := context.WithCancel(ctx)
		h.reg.opts.Gates = GatesFunc(func(ctx context.Context, call *Call, gate string) (bool, error) {
			cancel() // the deadline passes during the gate check
			return true, nil
		})
		opts := ResumeOptions{Attempt: "req-43"}
		if out, err := h.reg.ResumeWith(cctx, owner, id, opts); !errors.Is(err, context.Canceled) || out.Status != StatusFatal || len(h.runs()) != 0 {
			t.Fatalf("first attempt: %+v %v, runs %v", out, err, h.runs())
		}
		out, err := h.reg.ResumeWith(ctx, owner, id, opts)
		if err != nil || out.Status != StatusOK || !slices.Equal(h.runs(), []string{"a"}) {
			t.Fatalf("retry: %+v %v, runs %v", out, err, h.runs())
		}
	})
	t.Run("the call ran and failed fatally: a retry does not run it again", func(t *testing.T) {
		h := newWrapHarness(t)
		exec := h.inner.Execute
		h.inner.Execute = func(ctx context.Context, call *Call, args any) (Result, error) {
			exec(ctx, call, args)
			return Result{}, Fatal(errors.New("lost the connection after deleting"))
		}
		id := pausedDelete(t, h)
		opts := ResumeOptions{Attempt: "req-44"}
		if _, err := h.reg.ResumeWith(ctx, owner, id, opts); err == nil || !IsFatal(err) {
			t.Fatalf("first attempt: %v", err)
		}
		if _, err := h.reg.ResumeWith(ctx, owner, id, opts); !errors.Is(err, ErrPausePointConsumed) || len(h.runs()) != 1 {
			t.Fatalf("retry: %v, runs %v", err, h.runs())
		}
	})
	t.Run("without an attempt every resume is a different one", func(t *testing.T) {
		h := newWrapHarness(t)
		id := pausedDelete(t, h)
		h.reg.opts.Approvals = &lateClaims{memApprovals: h.store, late: 1}
		if _, err := h.reg.Resume(ctx, owner, id); !errors.Is(err, ErrApprovalStoreUnavailable) {
			t.Fatal(err)
		}
		if _, err := h.reg.Resume(ctx, owner, id); !errors.Is(err, ErrPausePointConsumed) || len(h.runs()) != 0 {
			t.Fatalf("%v, runs %v", err, h.runs())
		}
	})
}

// On resume the pipeline is asked again up to permission.
func TestResumeAsksThePipelineAgain(t *testing.T) {
	ctx := context.Background()
	owner := &Call{UserID: "u1"}
	for _, c := range []struct {
		name   string
		change func(h *wrapHarness)
		kind   ErrorKind
		text   string
	}{
		{"the tool was disabled", func(h *wrapHarness) { h.inner.Flags.Enabled = false }, ErrDisabled, "Error: tool tasks_delete is disabled."},
		{"the host's policy disables it", func(h *wrapHarness) { h.disabled["tasks_delete"] = true }, ErrDisabled, "Error: tool tasks_delete is not available to this user here."},
		{"its gate closed", func(h *wrapHarness) { h.gates["tasks"] = false }, ErrGate, `Error: tasks_delete needs the "tasks" connection, which is not set up for this account.`},
		{"the host's policy now denies", func(h *wrapHarness) {
			h.permission = func(t *Tool, args any, prev Decision) Decision { return Denied("deletions are frozen") }
		}, ErrDenied, "Error: permission denied for tasks_delete: deletions are frozen."},
		{"its own check now denies", func(h *wrapHarness) {
			h.inner.Permission = func(context.Context, *Call, any) Decision { return Denied("locked") }
		}, ErrDenied, "Error: permission denied for tasks_delete: locked."},
		{"its schema no longer accepts the stored arguments", func(h *wrapHarness) {
			h.inner.Decode = DecodeJSON(func(a *delArgs) []Violation {
				if len(a.ID) < 3 {
					return []Violation{{Path: "$.id", Message: "must be at least 3 characters"}}
				}
				return nil
			})
		}, ErrInvalidArgs, "Error: invalid arguments for tasks_delete: a person approved this call (pause point \"pp-1\"), but its arguments no longer fit the tool's schema, which changed while the call waited:\n- $.id: must be at least 3 characters"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newWrapHarness(t)
			id := pausedDelete(t, h)
			c.change(h)
			out, err := h.reg.Resume(ctx, owner, id)
			if err != nil || out.Status != StatusError || out.Err.Kind != c.kind || out.Result.String() != c.text || len(h.runs()) != 0 {
				t.Fatalf("%s %v %q, runs %v; want %s %q", out.Status, err, out.Result.String(), h.runs(), c.kind, c.text)
			}
		})
	}
	t.Run("a policy that asks is satisfied by the approval", func(t *testing.T) {
		h := newWrapHarness(t)
		id := pausedDelete(t, h)
		h.permission = func(t *Tool, args any, prev Decision) Decision { return AskApproval("always ask") }
		out, err := h.reg.Resume(ctx, owner, id)
		if err != nil || out.Status != StatusOK || !slices.Equal(h.runs(), []string{"a"}) {
			t.Fatalf("%+v %v", out, err)
		}
	})
	t.Run("a batch's items are asked again", func(t *testing.T) {
		h := newWrapHarness(t)
		h.inner.Flags.RequiresApproval = true
		if err := h.reg.Add(mustParallelize(t, h.inner, ParallelizeOptions{})); err != nil {
			t.Fatal(err)
		}
		out := dispatchOK(t, h, owner, "tasks_delete_batch", `{"items":[{"id":"a"},{"id":"b"}]}`)
		if out.Status != StatusPaused {
			t.Fatalf("%+v", out)
		}
		h.store.resolve(out.Pause.PausePointID, Allowed())
		h.permission = denyB(false)
		out, err := h.reg.Resume(ctx, owner, out.Pause.PausePointID)
		if err != nil || out.Status != StatusOK || !slices.Equal(h.runs(), []string{"a"}) ||
			!strings.Contains(out.Result.String(), `"error":{"type":"permission_denied","message":"permission denied for tasks_delete: b is protected."}`) {
			t.Fatalf("%+v %v, runs %v", out.Result.String(), err, h.runs())
		}
	})
	t.Run("only the owner resumes", func(t *testing.T) {
		h := newWrapHarness(t)
		id := pausedDelete(t, h)
		for _, c := range []*Call{nil, {}, {UserID: "u2"}} {
			if _, err := h.reg.Resume(ctx, c, id); !errors.Is(err, ErrPausePointForbidden) {
				t.Fatalf("resume by %+v: %v", c, err)
			}
		}
		if out, err := h.reg.Resume(ctx, owner, id); err != nil || out.Status != StatusOK {
			t.Fatalf("owner: %+v %v", out, err)
		}
	})
}

// failingStore cannot write.
type failingStore struct{ memApprovals }

func (*failingStore) RequestApproval(ctx context.Context, req ApprovalRequest) (string, error) {
	return "", errors.New("database is locked (5) (SQLITE_BUSY)")
}

// A store that is down has its own error kind: the model reads a short,
// stable message, the host gets the cause.
func TestApprovalStoreDown(t *testing.T) {
	h := newWrapHarness(t)
	h.reg.opts.Approvals = &failingStore{}
	h.inner.Flags.RequiresApproval = true
	// A tool that pauses by itself and meets the store down.
	waits := &Tool{
		Name: "wait", Schema: json.RawMessage(`{"type":"object"}`), Flags: DefaultFlags(),
		Decode: DecodeJSON[map[string]any](nil),
		Execute: func(ctx context.Context, call *Call, args any) (Result, error) {
			return Result{}, StoreError(errors.New("hitl: create pause point: database is locked (5) (SQLITE_BUSY)"))
		},
	}
	if err := h.reg.Add(h.inner, waits); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"tasks_delete", "wait"} {
		out, err := h.reg.Dispatch(context.Background(), &Call{UserID: "u1"}, ToolCall{ID: "1", Name: name, Arguments: json.RawMessage(`{"id":"a"}`)})
		if err != nil || out.Status != StatusError || out.Err.Kind != ErrApprovalStore {
			t.Fatalf("%s: %+v %v", name, out, err)
		}
		if !errors.Is(out.Err, ErrApprovalStoreUnavailable) || !strings.Contains(out.Err.Err.Error(), "SQLITE_BUSY") {
			t.Errorf("%s: the host's error %v does not match the sentinel or lost its cause", name, out.Err.Err)
		}
		want := "Error: " + name + " needs a person's approval, but the approval could not be recorded, so the call did not run; try again later."
		if out.Result.String() != want {
			t.Errorf("%s: the model reads %q", name, out.Result.String())
		}
	}
	if len(h.runs()) != 0 {
		t.Errorf("runs %v", h.runs())
	}
}
