package hitl

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/toolgen/toolgen/runtime"
)

// The Store is the runtime's pause-point store for "ask" decisions.
var _ runtime.Approvals = (*Store)(nil)

// RequestApproval stores a pending pause point for a call whose permission
// decision was "ask", and returns its id. It implements runtime.Approvals.
func (s *Store) RequestApproval(ctx context.Context, req runtime.ApprovalRequest) (string, error) {
	p, err := s.Create(ctx, PausePoint{
		UserID:         req.UserID,
		ConversationID: req.ConversationID,
		TurnIndex:      req.TurnIndex,
		ToolCallID:     req.ToolCallID,
		Tool:           req.Tool,
		Arguments:      req.Arguments,
		Label:          req.Label,
		Reason:         req.Reason,
	})
	if err != nil {
		return "", err
	}
	return p.ID, nil
}

// Claim takes the decision on a resolved pause point for resuming the turn,
// exactly once: it marks the point consumed and returns the stored request
// and the decision — Allow, or Deny with the reviewer's note as the reason.
// It implements runtime.Approvals.
//
// A second Claim fails with ErrConsumed, a pending point with ErrNotResolved,
// an expired one (or one past its TTL) with ErrExpired, an unknown id with
// ErrNotFound. Concurrent Claims are decided by one conditional UPDATE:
// exactly one succeeds.
//
// The claim is taken before the approved call runs, so a destructive call
// never runs twice: if the process stops between Claim and the end of the
// call, a later Resume fails with ErrConsumed and the call does not run
// again. The row keeps the decision and ConsumedAt, for the host to find
// such calls and tell the user.
//
// Claim's errors do not name the pause point: Registry.Resume, which calls
// it, wraps them with the id (`runtime: resume pause point "pp_1": hitl:
// claim: it is still waiting for a decision: pause point not resolved yet`).
func (s *Store) Claim(ctx context.Context, id string) (runtime.ApprovalRequest, runtime.Decision, error) {
	now := s.now()
	p, err := scanPoint(s.db.QueryRowContext(ctx, s.q.claim, s.dialect.timeArg(now), id))
	switch {
	case err == nil:
		return request(p), decision(p), nil
	case !errors.Is(err, sql.ErrNoRows):
		return runtime.ApprovalRequest{}, runtime.Decision{}, fmt.Errorf("hitl: claim: %w", err)
	}
	// Nothing to claim: say why.
	if p, err = s.expireIfDue(ctx, id, now); err != nil {
		return runtime.ApprovalRequest{}, runtime.Decision{}, fmt.Errorf("hitl: claim: %w", err)
	}
	switch {
	case p.Consumed():
		err = fmt.Errorf("hitl: claim: its decision was claimed at %s: %w", p.ConsumedAt.Format("2006-01-02T15:04:05.000000Z07:00"), ErrConsumed)
	case p.Status == StatusExpired:
		err = fmt.Errorf("hitl: claim: it expired before anyone decided: %w", ErrExpired)
	case p.Status == StatusPending:
		err = fmt.Errorf("hitl: claim: it is still waiting for a decision: %w", ErrNotResolved)
	default:
		err = fmt.Errorf("hitl: claim: the update changed no row but the point is %s and unclaimed", p.Status)
	}
	return runtime.ApprovalRequest{}, runtime.Decision{}, err
}

// request is the runtime's view of a stored pause point.
func request(p PausePoint) runtime.ApprovalRequest {
	return runtime.ApprovalRequest{
		UserID:         p.UserID,
		ConversationID: p.ConversationID,
		TurnIndex:      p.TurnIndex,
		ToolCallID:     p.ToolCallID,
		Tool:           p.Tool,
		Arguments:      p.Arguments,
		Label:          p.Label,
		Reason:         p.Reason,
	}
}

// decision is the human's decision on a resolved point, for the runtime.
func decision(p PausePoint) runtime.Decision {
	if p.Status == StatusApproved {
		return runtime.Decision{Behavior: runtime.Allow, Reason: p.Note}
	}
	return runtime.Denied(denialReason(p))
}

// denialReason is what the model reads about a denial: the reviewer's note,
// or that they gave none.
func denialReason(p PausePoint) string {
	if p.Note != "" {
		return p.Note
	}
	return "no reason given"
}
