package hitl

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// Status is where a pause point stands.
type Status string

const (
	// StatusPending: waiting for a human decision.
	StatusPending Status = "pending"
	// StatusApproved: a human allowed the paused action.
	StatusApproved Status = "approved"
	// StatusDenied: a human refused the paused action.
	StatusDenied Status = "denied"
	// StatusExpired: nobody decided within the pause point's TTL.
	StatusExpired Status = "expired"
)

// Resolved reports whether s is a human decision (approved or denied).
func (s Status) Resolved() bool { return s == StatusApproved || s == StatusDenied }

// PausePoint is one stored pause point: a tool call waiting for a human.
type PausePoint struct {
	// ID identifies the pause point: 32 lower-case hex digits (16 random
	// bytes), safe in URLs. Create fills it in.
	ID string
	// UserID is the owner: the user whose call paused. Required.
	UserID string
	// ConversationID, TurnIndex and ToolCallID locate the paused call.
	ConversationID string
	TurnIndex      int
	ToolCallID     string
	// Tool is the name of the paused tool. Required.
	Tool string
	// Arguments are the call's JSON arguments, stored byte for byte.
	Arguments json.RawMessage
	// Label is the call's status label, for the reviewer's UI.
	Label string
	// Reason says what is awaited (why approval is needed).
	Reason string

	// Status is pending until someone resolves the point or it expires.
	Status Status
	// Note is the reviewer's note given with the decision.
	Note string
	// ResolvedBy is who approved or denied.
	ResolvedBy string

	// CreatedAt, ResolvedAt (approval, denial or expiry), ExpiresAt and
	// ConsumedAt (when the decision was claimed to resume the turn) are UTC,
	// in whole microseconds; the zero time means "not yet".
	CreatedAt  time.Time
	ResolvedAt time.Time
	ExpiresAt  time.Time
	ConsumedAt time.Time

	// ClaimedBy is who claimed the decision (the owner, or a resolver
	// Options.Authorize accepts). FinishedAt is when the claimed call was
	// reported as run (runtime.Approvals.Finish); a point consumed but not
	// finished is one whose resumed call may not have run, and only the
	// attempt that claimed it can claim it again.
	ClaimedBy  string
	FinishedAt time.Time

	claimAttempt string // the resume attempt that claimed it
}

// forbidden is ErrForbidden: the resolve rule's own message, and the
// runtime's sentinel for errors.Is.
type forbidden struct{}

func (forbidden) Error() string        { return "not allowed to resolve this pause point" }
func (forbidden) Is(target error) bool { return target == runtime.ErrPausePointForbidden }

// Consumed reports whether the point's decision has been claimed.
func (p PausePoint) Consumed() bool { return !p.ConsumedAt.IsZero() }

// Resolution is a human's decision on a pause point.
type Resolution struct {
	// Approve allows the paused action; false denies it.
	Approve bool
	// Note explains the decision; for a denial the model reads it.
	Note string
	// By is who decides: the owner, or a resolver Options.Authorize accepts.
	By string
}

func (r Resolution) status() Status {
	if r.Approve {
		return StatusApproved
	}
	return StatusDenied
}

// The errors of the Store's operations, returned wrapped with the pause
// point's id; test them with errors.Is. Apart from ErrAlreadyResolved they
// are the runtime's own pause-point errors, so that
// runtime.Registry.Resume's wrapped errors match both names.
var (
	// ErrNotFound: no pause point has the id (runtime.ErrPausePointNotFound).
	ErrNotFound = runtime.ErrPausePointNotFound
	// ErrNotResolved: the point is still pending, so there is nothing to
	// claim (runtime.ErrPausePointPending).
	ErrNotResolved = runtime.ErrPausePointPending
	// ErrConsumed: the point's decision was already claimed
	// (runtime.ErrPausePointConsumed).
	ErrConsumed = runtime.ErrPausePointConsumed
	// ErrForbidden: the resolver (or the caller resuming) is neither the
	// owner nor authorised. It matches runtime.ErrPausePointForbidden too.
	ErrForbidden error = forbidden{}
	// ErrAlreadyResolved: the point was already resolved with the other decision.
	ErrAlreadyResolved = errors.New("pause point already resolved")
	// ErrExpired: the point expired before anyone decided, or its approval
	// was not used within Options.ClaimWindow (runtime.ErrPausePointExpired).
	ErrExpired = runtime.ErrPausePointExpired
	// ErrUnavailable: the database could not be read or written (down,
	// locked, timed out); every such error of the Store matches it, and
	// keeps its cause (runtime.ErrApprovalStoreUnavailable). Retrying is
	// safe: Create is idempotent per tool call and a Claim can be retried
	// by the same attempt.
	ErrUnavailable = runtime.ErrApprovalStoreUnavailable
)
