package hitl

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// sendMoney is a requires_approval tool that counts its executions.
type sendMoney struct {
	mu    sync.Mutex
	runs  []sendArgs
	calls []*runtime.Call
}

type sendArgs struct {
	To     string `json:"to"`
	Amount int    `json:"amount"`
}

func (s *sendMoney) tool() *runtime.Tool {
	flags := runtime.DefaultFlags()
	flags.Destructive = true
	flags.RequiresApproval = true
	return &runtime.Tool{
		Name:        "send_money",
		Description: "Send money to someone.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"to":{"type":"string"},"amount":{"type":"integer"}},"required":["to","amount"],"additionalProperties":false}`),
		Flags:       flags,
		Decode: runtime.DecodeJSON(func(a *sendArgs) []runtime.Violation {
			if a.To == "" {
				return []runtime.Violation{{Path: "$.to", Message: "required"}}
			}
			return nil
		}),
		Label: runtime.TypedLabel(func(a *sendArgs) string { return "Sending money to " + a.To }),
		Execute: runtime.TypedExecute(func(ctx context.Context, call *runtime.Call, a *sendArgs) (runtime.Result, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.runs = append(s.runs, *a)
			s.calls = append(s.calls, call)
			return runtime.Text("sent"), nil
		}),
	}
}

func (s *sendMoney) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.runs)
}

func askRegistry(t *testing.T, store *Store, tool *sendMoney) *runtime.Registry {
	t.Helper()
	reg := runtime.NewRegistry(runtime.Options{Approvals: store})
	if err := reg.Add(tool.tool()); err != nil {
		t.Fatal(err)
	}
	return reg
}

// adaCall is the owner's call that resumes her pause points.
var adaCall = &runtime.Call{UserID: "ada"}

// pauseSend dispatches send_money and checks that it paused at a stored point.
func pauseSend(t *testing.T, reg *runtime.Registry, store *Store, callID, args string) string {
	t.Helper()
	ctx := context.Background()
	call := &runtime.Call{UserID: "ada", ConversationID: "conv-7", TurnIndex: 4}
	out, err := reg.Dispatch(ctx, call, runtime.ToolCall{ID: callID, Name: "send_money", Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != runtime.StatusPaused || out.Pause == nil || out.Pause.PausePointID == "" {
		t.Fatalf("a requires_approval call: status %s, pause %+v, result %q; want paused at a pause point", out.Status, out.Pause, out.Result)
	}
	id := out.Pause.PausePointID
	p, err := store.Get(ctx, id)
	if err != nil {
		t.Fatalf("the pause point %s the outcome names is not stored: %v", id, err)
	}
	if p.Status != StatusPending || p.UserID != "ada" || p.ConversationID != "conv-7" || p.TurnIndex != 4 ||
		p.ToolCallID != callID || p.Tool != "send_money" || string(p.Arguments) != args || p.Label != "Sending money to bob" {
		t.Errorf("stored pause point = %+v (arguments %s)", p, p.Arguments)
	}
	return id
}

// TestAskApproveRunsOnce: a requires_approval call pauses at a stored point;
// after approval Resume runs it exactly once, with its original arguments.
func TestAskApproveRunsOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		store := open(Options{})
		tool := &sendMoney{}
		reg := askRegistry(t, store, tool)
		args := `{"to": "bob", "amount": 500}`
		id := pauseSend(t, reg, store, "call_1", args)
		if n := tool.count(); n != 0 {
			t.Fatalf("the tool ran %d times before approval", n)
		}

		// Not decided yet: Resume refuses and nothing runs.
		if _, err := reg.Resume(ctx, adaCall, id); !errors.Is(err, ErrNotResolved) || !errors.Is(err, runtime.ErrPausePointPending) {
			t.Fatalf("Resume of a pending point: %v, want ErrNotResolved", err)
		}
		if _, err := store.Resolve(ctx, id, Resolution{Approve: true, Note: "rent", By: "ada"}); err != nil {
			t.Fatal(err)
		}
		out, err := reg.Resume(ctx, &runtime.Call{UserID: "ada", ModelTier: "large"}, id)
		if err != nil {
			t.Fatal(err)
		}
		if out.Status != runtime.StatusOK || out.Result.String() != "sent" || out.CallID != "call_1" {
			t.Fatalf("Resume after approval: %s %q (call %q), want ok \"sent\" for call_1", out.Status, out.Result, out.CallID)
		}
		if n := tool.count(); n != 1 {
			t.Fatalf("the tool ran %d times, want once", n)
		}
		if tool.runs[0] != (sendArgs{To: "bob", Amount: 500}) {
			t.Errorf("the tool ran with %+v, want the original arguments", tool.runs[0])
		}
		c := tool.calls[0]
		if c.UserID != "ada" || c.ConversationID != "conv-7" || c.TurnIndex != 4 || c.ModelTier != "large" ||
			c.Approval == nil || c.Approval.PausePointID != id || c.Approval.Note != "rent" {
			t.Errorf("the resumed call = %+v, approval %+v", c, c.Approval)
		}

		// Exactly once: a second Resume fails and runs nothing.
		if _, err := reg.Resume(ctx, adaCall, id); !errors.Is(err, ErrConsumed) || !errors.Is(err, runtime.ErrPausePointConsumed) {
			t.Fatalf("second Resume: %v, want ErrConsumed", err)
		}
		if n := tool.count(); n != 1 {
			t.Fatalf("after a second Resume the tool ran %d times, want once", n)
		}
	})
}

// TestAskConcurrentResume: many hosts resume the same approved call at once;
// it runs exactly once.
func TestAskConcurrentResume(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		const n = 16
		ctx := context.Background()
		store := open(Options{})
		tool := &sendMoney{}
		reg := askRegistry(t, store, tool)
		id := pauseSend(t, reg, store, "call_2", `{"to":"bob","amount":1}`)
		if _, err := store.Resolve(ctx, id, Resolution{Approve: true, By: "ada"}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, errs[i] = reg.Resume(ctx, adaCall, id)
			}()
		}
		close(start)
		wg.Wait()
		ok := 0
		for i, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, ErrConsumed):
				t.Errorf("Resume %d: %v", i, err)
			}
		}
		if ok != 1 || tool.count() != 1 {
			t.Errorf("%d Resumes succeeded and the tool ran %d times; want 1 and 1", ok, tool.count())
		}
	})
}

// TestAskDeny: after a denial the model reads that a person denied the call
// and why, and the tool never runs.
func TestAskDeny(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		store := open(Options{})
		tool := &sendMoney{}
		reg := askRegistry(t, store, tool)
		id := pauseSend(t, reg, store, "call_3", `{"to":"bob","amount":99999}`)
		if _, err := store.Resolve(ctx, id, Resolution{Note: "that is the whole budget", By: "ada"}); err != nil {
			t.Fatal(err)
		}
		out, err := reg.Resume(ctx, adaCall, id)
		if err != nil {
			t.Fatal(err)
		}
		text := out.Result.String()
		if out.Status != runtime.StatusError || !out.Result.IsError || out.Err == nil || out.Err.Kind != runtime.ErrDenied ||
			!strings.Contains(text, "denied") || !strings.Contains(text, "that is the whole budget") {
			t.Errorf("Resume after denial: %s, error result %v, %+v, text %q; want a permission_denied error with the note", out.Status, out.Result.IsError, out.Err, text)
		}
		if n := tool.count(); n != 0 {
			t.Errorf("a denied call ran %d times", n)
		}
		if _, err := reg.Resume(ctx, adaCall, id); !errors.Is(err, ErrConsumed) {
			t.Errorf("second Resume of a denial: %v, want ErrConsumed", err)
		}
	})
}

// TestAskSurvivesRestart: the pause point outlives the process that paused;
// a new Store and registry on the same database resume it.
func TestAskSurvivesRestart(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		first := open(Options{})
		tool := &sendMoney{}
		id := pauseSend(t, askRegistry(t, first, tool), first, "call_4", `{"to":"bob","amount":7}`)
		if err := first.Close(); err != nil {
			t.Fatal(err)
		}

		second := open(Options{})
		pending, err := second.ListPending(ctx, "ada")
		if err != nil || len(pending) != 1 || pending[0].ID != id {
			t.Fatalf("ListPending after restart = %+v, %v; want the paused call", pending, err)
		}
		if _, err := second.Resolve(ctx, id, Resolution{Approve: true, By: "ada"}); err != nil {
			t.Fatal(err)
		}
		out, err := askRegistry(t, second, tool).Resume(ctx, adaCall, id)
		if err != nil || out.Status != runtime.StatusOK {
			t.Fatalf("Resume after restart: %+v, %v", out, err)
		}
		if tool.count() != 1 || tool.runs[0] != (sendArgs{To: "bob", Amount: 7}) {
			t.Errorf("after restart the tool ran %+v, want once with the original arguments", tool.runs)
		}
	})
}

// TestResumeErrorsNameThePointOnce: a refused Resume says which pause point
// once (the runtime names it; the store's Claim does not repeat it), keeps
// errors.Is working through both layers, and says why.
func TestResumeErrorsNameThePointOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
		store := open(Options{TTL: time.Hour, Now: func() time.Time { return now }})
		reg := askRegistry(t, store, &sendMoney{})
		pending := pauseSend(t, reg, store, "call_p", `{"to":"bob","amount":1}`)
		consumed := pauseSend(t, reg, store, "call_c", `{"to":"bob","amount":2}`)
		if _, err := store.Resolve(ctx, consumed, Resolution{Approve: true, By: "ada"}); err != nil {
			t.Fatal(err)
		}
		if _, err := reg.Resume(ctx, adaCall, consumed); err != nil {
			t.Fatal(err)
		}
		check := func(id string, want error, why string) {
			t.Helper()
			_, err := reg.Resume(ctx, adaCall, id)
			if !errors.Is(err, want) {
				t.Fatalf("Resume(%q) = %v, want %v", id, err, want)
			}
			msg := err.Error()
			if n := strings.Count(msg, id); n != 1 {
				t.Errorf("Resume(%q) error names the point %d times: %s", id, n, msg)
			}
			if prefix := `runtime: resume pause point "` + id + `": hitl: claim: ` + why; !strings.HasPrefix(msg, prefix) {
				t.Errorf("Resume(%q) error = %s\nwant it to start %s", id, msg, prefix)
			}
		}
		check(pending, ErrNotResolved, "it is still waiting for a decision: ")
		check(consumed, ErrConsumed, "its decision was claimed at ")
		check("pp_nope", ErrNotFound, "pause point not found")
		now = now.Add(2 * time.Hour)
		check(pending, ErrExpired, "it expired before anyone decided: ")
	})
}
