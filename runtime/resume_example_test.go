package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/toolgen/toolgen/runtime"
)

// memApprovals is an in-memory pause-point store (generated/hitl has the
// durable one, on SQLite or PostgreSQL).
type memApprovals struct {
	mu     sync.Mutex
	points map[string]*memPoint
}

type memPoint struct {
	req      runtime.ApprovalRequest
	decision *runtime.Decision
	claimed  string // the attempt that claimed it
	finished bool
}

func (m *memApprovals) RequestApproval(ctx context.Context, req runtime.ApprovalRequest) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	id := fmt.Sprintf("pp%d", len(m.points)+1)
	m.points[id] = &memPoint{req: req}
	return id, nil
}

func (m *memApprovals) Claim(ctx context.Context, c runtime.ClaimRequest) (runtime.ApprovalRequest, runtime.Decision, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.points[c.PausePointID]
	switch {
	case !ok:
		return runtime.ApprovalRequest{}, runtime.Decision{}, runtime.ErrPausePointNotFound
	case c.By != p.req.UserID: // only the owner resumes here
		return runtime.ApprovalRequest{}, runtime.Decision{}, runtime.ErrPausePointForbidden
	case p.decision == nil:
		return runtime.ApprovalRequest{}, runtime.Decision{}, runtime.ErrPausePointPending
	case p.finished || p.claimed != "" && p.claimed != c.Attempt:
		return runtime.ApprovalRequest{}, runtime.Decision{}, runtime.ErrPausePointConsumed
	}
	p.claimed = c.Attempt // the same attempt may claim again until Finish
	return p.req, *p.decision, nil
}

func (m *memApprovals) Finish(ctx context.Context, c runtime.ClaimRequest) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if p, ok := m.points[c.PausePointID]; ok && p.claimed == c.Attempt {
		p.finished = true
	}
	return nil
}

// decide is what the host's approval UI does when a person decides.
func (m *memApprovals) decide(id string, d runtime.Decision) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.points[id].decision = &d
}

type refundArgs struct {
	Amount int `json:"amount"`
}

// A call that needs a person's approval pauses: the model reads that it
// waits, and the host shows the pause point to a person. Once they have
// decided, Resume runs the original call (or reports the denial) exactly
// once; the host gives its result to the model in the next turn.
func ExampleRegistry_Resume() {
	store := &memApprovals{points: map[string]*memPoint{}}
	reg := runtime.NewRegistry(runtime.Options{Approvals: store})
	err := reg.Add(&runtime.Tool{
		Name:   "refund",
		Schema: json.RawMessage(`{"type":"object"}`),
		Flags:  runtime.Flags{Enabled: true, Destructive: true, RequiresApproval: true},
		Decode: runtime.DecodeJSON[refundArgs](nil),
		Execute: runtime.TypedExecute(func(ctx context.Context, call *runtime.Call, a *refundArgs) (runtime.Result, error) {
			return runtime.Text(fmt.Sprintf("refunded %d (approved: %s)", a.Amount, call.Approval.Note)), nil
		}),
	})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	call := &runtime.Call{UserID: "u1", ConversationID: "c1"}

	out, err := reg.Dispatch(ctx, call, runtime.ToolCall{ID: "t1", Name: "refund", Arguments: json.RawMessage(`{"amount":500}`)})
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Status, out.Pause.PausePointID)
	fmt.Println(out.Result)

	store.decide(out.Pause.PausePointID, runtime.Decision{Behavior: runtime.Allow, Reason: "ok by Sam"})
	out, err = reg.Resume(ctx, call, out.Pause.PausePointID)
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Status, out.CallID, out.Result)

	_, err = reg.Resume(ctx, call, "pp1")
	fmt.Println(err)
	// Output:
	// paused pp1
	// The call of refund is waiting for a person's approval and has not run yet: the tool requires approval before every call. Its result will be reported once a person has decided; do not call it again in the meantime.
	// ok t1 refunded 500 (approved: ok by Sam)
	// runtime: resume pause point "pp1": pause point already consumed
}
