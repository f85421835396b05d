package mcp

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/generated/hitl"
	"github.com/toolgen/toolgen/runtime"
)

// lateClaims applies a Claim and then, for the first `late` Claims, has
// the client give up on its request (its context is cancelled, so the SDK
// sends notifications/cancelled) and returns once the server's context is
// done: the claim is recorded, but the call never runs and the client sees
// no answer.
type lateClaims struct {
	runtime.Approvals
	late     int
	giveUp   func() // cancels the client's request
	attempts []string
}

func (l *lateClaims) Claim(ctx context.Context, c runtime.ClaimRequest) (runtime.ApprovalRequest, runtime.Decision, error) {
	l.attempts = append(l.attempts, c.Attempt)
	req, d, err := l.Approvals.Claim(ctx, c)
	if err != nil || l.late == 0 {
		return req, d, err
	}
	l.late--
	l.giveUp()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		return runtime.ApprovalRequest{}, runtime.Decision{}, errors.New("the server's context was not cancelled")
	}
	return runtime.ApprovalRequest{}, runtime.Decision{}, runtime.StoreError(ctx.Err())
}

// pausedApproved pauses a needs_approval call of alice's and approves it.
func pausedApproved(t *testing.T, f *fixture, cs *sdk.ClientSession) string {
	t.Helper()
	res := callTool(t, cs, "needs_approval", `{}`)
	id, _ := res.Meta[MetaPausePoint].(string)
	if id == "" {
		t.Fatalf("not paused: %q %v", text(res), res.Meta)
	}
	if _, err := f.store.Resolve(context.Background(), id, hitl.Resolution{Approve: true, By: "alice"}); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestServerResumeRetry(t *testing.T) {
	for _, v := range protocols {
		t.Run("protocol="+v, func(t *testing.T) {
			var late *lateClaims
			f := newFixtureWith(t, nil, func(a runtime.Approvals) runtime.Approvals {
				late = &lateClaims{Approvals: a}
				return late
			})
			srv := NewServer(f.reg, ServerOptions{Identify: byClientName})
			defer srv.Close()
			cs := connect(t, srv, "alice", nil, v)
			id := pausedApproved(t, f, cs)

			resume := func(ctx context.Context, attempt string) (*sdk.CallToolResult, error) {
				return cs.CallTool(ctx, &sdk.CallToolParams{Name: "needs_approval", Arguments: map[string]any{},
					Meta: sdk.Meta{MetaResume: id, MetaAttempt: attempt}})
			}
			ctx, cancel := context.WithCancel(context.Background())
			late.late, late.giveUp = 1, cancel
			if res, err := resume(ctx, "retry-1"); !errors.Is(err, context.Canceled) {
				t.Fatalf("first attempt: %v %v", res, err)
			}
			if n := f.approvedRuns.Load(); n != 0 {
				t.Fatalf("the call ran %d times in the cancelled attempt", n)
			}
			// Another attempt loses: the first holds the claim.
			if res, err := resume(context.Background(), "retry-2"); err != nil || !res.IsError || !strings.Contains(text(res), "consumed") {
				t.Fatalf("other attempt: %v %v", text(res), err)
			}
			// So does a resume that names no attempt.
			if r := callToolMeta(t, cs, "needs_approval", sdk.Meta{MetaResume: id}); !r.IsError || !strings.Contains(text(r), "consumed") {
				t.Fatalf("resume without an attempt: %q", text(r))
			}
			res, err := resume(context.Background(), "retry-1")
			if err != nil || res.IsError || text(res) != "ran after approval" || f.approvedRuns.Load() != 1 {
				t.Fatalf("retry: %v %v, runs %d", res, err, f.approvedRuns.Load())
			}
			// Finished: not even the same attempt runs it again.
			if res, err := resume(context.Background(), "retry-1"); err != nil || !res.IsError || !strings.Contains(text(res), "consumed") || f.approvedRuns.Load() != 1 {
				t.Fatalf("after the run: %v %v, runs %d", text(res), err, f.approvedRuns.Load())
			}
			if late.attempts[0] != "retry-1" || late.attempts[1] != "retry-2" {
				t.Errorf("attempts claimed: %q", late.attempts)
			}
		})
	}
}

func TestServerElicitationRetry(t *testing.T) {
	var late *lateClaims
	f := newFixtureWith(t, nil, func(a runtime.Approvals) runtime.Approvals {
		late = &lateClaims{Approvals: a}
		return late
	})
	srv := NewServer(f.reg, ServerOptions{Identify: byClientName, Resolve: f.resolver()})
	defer srv.Close()
	// No elicitation handler: the client answers the input request itself,
	// as one that lost the first answer's response resends it.
	cs := connect(t, srv, "alice", nil, "")
	res := callTool(t, cs, "needs_approval", `{}`)
	id, _ := res.Meta[MetaPausePoint].(string)
	if id == "" {
		t.Fatalf("not paused: %q", text(res))
	}
	answer := func(ctx context.Context, attempt string) (*sdk.CallToolResult, error) {
		var meta sdk.Meta
		if attempt != "" {
			meta = sdk.Meta{MetaAttempt: attempt}
		}
		return cs.CallTool(ctx, &sdk.CallToolParams{Name: "needs_approval", Arguments: map[string]any{},
			Meta: meta, RequestState: id,
			InputResponses: sdk.InputResponseMap{approvalInput: &sdk.ElicitResult{Action: "accept"}}})
	}
	ctx, cancel := context.WithCancel(context.Background())
	late.late, late.giveUp = 1, cancel
	if res, err := answer(ctx, ""); !errors.Is(err, context.Canceled) {
		t.Fatalf("first answer: %v %v", res, err)
	}
	// An answer naming another attempt loses.
	if res, err := answer(context.Background(), "someone-else"); err != nil || !res.IsError || !strings.Contains(text(res), "consumed") {
		t.Fatalf("answer with another attempt: %v %v", text(res), err)
	}
	// The same answer again derives the same attempt: it runs the call.
	res, err := answer(context.Background(), "")
	if err != nil || res.IsError || text(res) != "ran after approval" || f.approvedRuns.Load() != 1 {
		t.Fatalf("retried answer: %v %v, runs %d", res, err, f.approvedRuns.Load())
	}
	if len(late.attempts) != 3 || late.attempts[0] != late.attempts[2] || !strings.HasPrefix(late.attempts[0], "mcp-elicit-") {
		t.Errorf("attempts claimed: %q", late.attempts)
	}
	if res, err := answer(context.Background(), ""); err != nil || !res.IsError || !strings.Contains(text(res), "consumed") || f.approvedRuns.Load() != 1 {
		t.Fatalf("answer after the run: %v %v", text(res), err)
	}
}
