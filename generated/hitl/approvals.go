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
// Like Create, it is idempotent per tool call: a retry returns the pending
// point the first attempt wrote. A request without a UserID is refused with
// an error marked runtime.Fatal (the host's mistake: nobody could approve).
func (s *Store) RequestApproval(ctx context.Context, req runtime.ApprovalRequest) (string, error) {
	if req.UserID == "" {
		// A host mistake, not an outage: retrying cannot help.
		return "", runtime.Fatal(errors.New("hitl: the call has no UserID, so nobody could approve it"))
	}
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
// exactly once: it marks the point consumed by c.Attempt and returns the
// stored request and the decision — Allow, or Deny with the reviewer's note
// as the reason. It implements runtime.Approvals.
//
// Only the owner (c.By == UserID) or a claimer Options.Authorize accepts
// may claim (else ErrForbidden, and nothing is claimed). An approval can be
// claimed until ResolvedAt + Options.ClaimWindow (else ErrExpired). A point
// claimed by another attempt, or finished, fails with ErrConsumed; the
// attempt that claimed it can claim it again until Finish, so a Resume
// retried after a timeout (whose claim the database may have applied
// anyway) still runs the approved call. A pending point fails with
// ErrNotResolved, an expired one with ErrExpired, an unknown id with
// ErrNotFound, a database error with ErrUnavailable; an empty c.Attempt is
// an error (Registry.Resume always gives one). Concurrent Claims are decided
// by one conditional UPDATE: exactly one attempt wins.
//
// The claim is taken before the approved call runs and finished after it,
// so a destructive call never runs twice for two attempts: if the process
// stops between Claim and Finish, only a retry of the same attempt can run
// it. The row keeps the decision, ConsumedAt and FinishedAt, for the host to
// find claimed calls that never finished and tell the user.
//
// Claim's errors do not name the pause point: Registry.Resume, which calls
// it, wraps them with the id (`runtime: resume pause point "pp_1": hitl:
// claim: it is still waiting for a decision: pause point not resolved yet`).
func (s *Store) Claim(ctx context.Context, c runtime.ClaimRequest) (runtime.ApprovalRequest, runtime.Decision, error) {
	fail := func(err error) (runtime.ApprovalRequest, runtime.Decision, error) {
		return runtime.ApprovalRequest{}, runtime.Decision{}, err
	}
	p, err := s.point(ctx, c.PausePointID)
	switch {
	case errors.Is(err, ErrNotFound):
		return fail(fmt.Errorf("hitl: claim: %w", ErrNotFound))
	case err != nil:
		return fail(storeErr("claim", err))
	case c.By == "":
		return fail(fmt.Errorf("hitl: claim: no claimer given: %w", ErrForbidden))
	case c.By != p.UserID && (s.opts.Authorize == nil || !s.opts.Authorize(ctx, c.By, p)):
		return fail(fmt.Errorf("hitl: claim: %q is neither its owner nor authorised: %w", c.By, ErrForbidden))
	case c.Attempt == "":
		return fail(errors.New("hitl: claim: no resume attempt given"))
	}
	now := s.now()
	d := s.dialect
	p, err = scanPoint(s.w.QueryRowContext(ctx, s.q.claim,
		d.timeArg(now), c.By, c.Attempt, c.PausePointID, d.timeArg(now.Add(-s.opts.ClaimWindow)), c.Attempt))
	switch {
	case err == nil:
		return request(p), decision(p), nil
	case !errors.Is(err, sql.ErrNoRows):
		return fail(storeErr("claim", err))
	}
	// Nothing to claim: say why.
	if p, err = s.expireIfDue(ctx, c.PausePointID, now); err != nil {
		return fail(storeErr("claim", err))
	}
	const layout = "2006-01-02T15:04:05.000000Z07:00"
	switch {
	case !p.FinishedAt.IsZero() && p.claimAttempt == c.Attempt:
		err = fmt.Errorf("hitl: claim: this attempt's call finished at %s: %w", p.FinishedAt.Format(layout), ErrConsumed)
	case p.Consumed():
		err = fmt.Errorf("hitl: claim: its decision was claimed at %s: %w", p.ConsumedAt.Format(layout), ErrConsumed)
	case p.Status == StatusExpired:
		err = fmt.Errorf("hitl: claim: it expired before anyone decided: %w", ErrExpired)
	case p.Status == StatusPending:
		err = fmt.Errorf("hitl: claim: it is still waiting for a decision: %w", ErrNotResolved)
	case p.Status == StatusApproved:
		err = fmt.Errorf("hitl: claim: its approval at %s was not used by %s: %w",
			p.ResolvedAt.Format(layout), p.ResolvedAt.Add(s.opts.ClaimWindow).Format(layout), ErrExpired)
	default:
		err = fmt.Errorf("hitl: claim: the update changed no row but the point is %s and unclaimed", p.Status)
	}
	return fail(err)
}

// Finish records that the call claimed by c.Attempt has run: from then on
// every Claim of the point fails with ErrConsumed. It implements
// runtime.Approvals; Registry.Resume calls it after the call. Finishing a
// point the attempt did not claim, or finishing twice, changes nothing.
func (s *Store) Finish(ctx context.Context, c runtime.ClaimRequest) error {
	if _, err := s.w.ExecContext(ctx, s.q.finish, s.dialect.timeArg(s.now()), c.PausePointID, c.Attempt); err != nil {
		return storeErr("finish claim", err)
	}
	return nil
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
