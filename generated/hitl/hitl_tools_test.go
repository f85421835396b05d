package hitl

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

func hitlRegistry(t *testing.T, store *Store) *runtime.Registry {
	t.Helper()
	reg := runtime.NewRegistry(runtime.Options{Approvals: store})
	if err := reg.AddModule(Module(&Tools{Store: store})); err != nil {
		t.Fatal(err)
	}
	return reg
}

func waitCall(id, args string) runtime.ToolCall {
	return runtime.ToolCall{ID: id, Name: "wait_for_approval", Arguments: json.RawMessage(args)}
}

var ada = &runtime.Call{UserID: "ada", ConversationID: "conv-9", TurnIndex: 2}

// TestWaitForApprovalPauses: dispatching wait_for_approval pauses the turn at
// a stored pause point that describes the action.
func TestWaitForApprovalPauses(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		store := open(Options{})
		reg := hitlRegistry(t, store)
		var events []runtime.Event
		call := *ada
		call.Events = func(e runtime.Event) { events = append(events, e) }
		out, err := reg.Dispatch(ctx, &call, waitCall("call_w1",
			`{"action":"Send invoice INV-42 to ada@example.com","details":"1,200.00 EUR, due in 14 days","risk":"high"}`))
		if err != nil {
			t.Fatal(err)
		}
		if out.Status != runtime.StatusPaused || out.Pause == nil {
			t.Fatalf("wait_for_approval: %s %q, want paused", out.Status, out.Result)
		}
		const label = "Waiting for approval: Send invoice INV-42 to ada@example.com"
		if out.Label != label {
			t.Errorf("label %q, want %q", out.Label, label)
		}
		if len(events) != 2 || events[0].Label != label || events[1].Status != runtime.StatusPaused {
			t.Errorf("events %+v, want start and a paused finish", events)
		}
		id := out.Pause.PausePointID
		p, err := store.Get(ctx, id)
		if err != nil {
			t.Fatalf("the outcome's pause point %q is not stored: %v", id, err)
		}
		if p.Status != StatusPending || p.UserID != "ada" || p.ConversationID != "conv-9" || p.TurnIndex != 2 ||
			p.ToolCallID != "call_w1" || p.Tool != "wait_for_approval" || p.Label != label ||
			p.Reason != "Send invoice INV-42 to ada@example.com (risk: high)" || out.Pause.Reason != p.Reason {
			t.Errorf("stored %+v", p)
		}
		var args map[string]string
		if err := json.Unmarshal(p.Arguments, &args); err != nil || args["action"] != "Send invoice INV-42 to ada@example.com" ||
			args["details"] != "1,200.00 EUR, due in 14 days" || args["risk"] != "high" {
			t.Errorf("stored arguments %s (%v)", p.Arguments, err)
		}
		if !strings.Contains(out.Result.String(), "waiting for a person's approval") {
			t.Errorf("the model reads %q", out.Result)
		}

		// The same tool call dispatched again pauses on the same point.
		again, err := reg.Dispatch(ctx, ada, waitCall("call_w1", `{"action":"Send invoice INV-42 to ada@example.com","risk":"high"}`))
		if err != nil || again.Pause == nil || again.Pause.PausePointID != id {
			t.Fatalf("re-dispatch of the same call: %+v, %v; want a pause on %s", again.Pause, err, id)
		}
		if pending, _ := store.ListPending(ctx, "ada"); len(pending) != 1 {
			t.Errorf("%d pending points after a re-dispatch, want 1", len(pending))
		}
		// The default risk is stored when the model leaves it out.
		out, err = reg.Dispatch(ctx, ada, waitCall("call_w2", `{"action":"Delete the staging database"}`))
		if err != nil || out.Pause == nil {
			t.Fatalf("%+v, %v", out, err)
		}
		p, _ = store.Get(ctx, out.Pause.PausePointID)
		if !strings.Contains(string(p.Arguments), `"risk":"medium"`) || p.Reason != "Delete the staging database (risk: medium)" {
			t.Errorf("without a risk: arguments %s, reason %q; want the default medium", p.Arguments, p.Reason)
		}
	})
}

// TestWaitForApprovalResume: after approval Resume tells the model who
// approved and their note; after denial it says it was denied and why.
func TestWaitForApprovalResume(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		store := open(Options{})
		reg := hitlRegistry(t, store)
		out, err := reg.Dispatch(ctx, ada, waitCall("call_a", `{"action":"Refund order 1009"}`))
		if err != nil || out.Pause == nil {
			t.Fatalf("%+v, %v", out, err)
		}
		id := out.Pause.PausePointID
		if _, err := store.Resolve(ctx, id, Resolution{Approve: true, Note: "customer is right", By: "ada"}); err != nil {
			t.Fatal(err)
		}
		res, err := reg.Resume(ctx, ada, id)
		if err != nil {
			t.Fatal(err)
		}
		want := `{"approved":true,"action":"Refund order 1009","approved_by":"ada","note":"customer is right","pause_point_id":"` + id + `"}`
		if res.Status != runtime.StatusOK || res.Result.String() != want {
			t.Errorf("Resume after approval: %s %s\nwant %s", res.Status, res.Result, want)
		}
		if pending, _ := store.ListPending(ctx, "ada"); len(pending) != 0 {
			t.Errorf("resuming paused again: %d pending points", len(pending))
		}
		if _, err := reg.Resume(ctx, ada, id); !errors.Is(err, ErrConsumed) {
			t.Errorf("second Resume: %v, want ErrConsumed", err)
		}

		out, _ = reg.Dispatch(ctx, ada, waitCall("call_d", `{"action":"Email all customers"}`))
		id = out.Pause.PausePointID
		if _, err := store.Resolve(ctx, id, Resolution{Note: "not before the launch", By: "ada"}); err != nil {
			t.Fatal(err)
		}
		res, err = reg.Resume(ctx, ada, id)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != runtime.StatusError || res.Err == nil || res.Err.Kind != runtime.ErrDenied ||
			!strings.Contains(res.Result.String(), "denied") || !strings.Contains(res.Result.String(), "not before the launch") {
			t.Errorf("Resume after denial: %s %+v %q", res.Status, res.Err, res.Result)
		}
	})
}

// TestWaitForApprovalInvalid: bad arguments never reach the executor, so no
// pause point is written.
func TestWaitForApprovalInvalid(t *testing.T) {
	ctx := context.Background()
	store := sqliteBackend().setup(t)(Options{})
	reg := hitlRegistry(t, store)
	for _, args := range []string{
		`{}`,
		`{"action":""}`,
		`{"action":"` + strings.Repeat("x", 201) + `"}`,
		`{"action":"x","risk":"extreme"}`,
		`{"action":"x","colour":"red"}`,
	} {
		out, err := reg.Dispatch(ctx, ada, waitCall("c", args))
		if err != nil {
			t.Fatal(err)
		}
		if out.Status != runtime.StatusError || out.Err == nil || out.Err.Kind != runtime.ErrInvalidArgs {
			t.Errorf("%s: %s %+v, want invalid arguments", args, out.Status, out.Err)
		}
	}
	if pending, _ := store.ListPending(ctx, "ada"); len(pending) != 0 {
		t.Errorf("invalid calls wrote %d pause points", len(pending))
	}
}

// TestWaitForApprovalMisconfigured: a host error is a Go error, not a result.
func TestWaitForApprovalMisconfigured(t *testing.T) {
	ctx := context.Background()
	reg := runtime.NewRegistry(runtime.Options{})
	if err := reg.AddModule(Module(&Tools{})); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Dispatch(ctx, ada, waitCall("c", `{"action":"x"}`)); err == nil || !strings.Contains(err.Error(), "Store is nil") {
		t.Errorf("Dispatch with no Store: %v, want a fatal error naming Store", err)
	}
	store := sqliteBackend().setup(t)(Options{})
	reg = hitlRegistry(t, store)
	if _, err := reg.Dispatch(ctx, &runtime.Call{}, waitCall("c", `{"action":"x"}`)); err == nil || !strings.Contains(err.Error(), "UserID") {
		t.Errorf("Dispatch without a user: %v, want a fatal error naming UserID", err)
	}
}
