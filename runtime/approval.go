package runtime

import "errors"

// Errors about pause points. An Approvals store returns (or wraps) them from
// Claim, and Resume returns them wrapped, so hosts can tell the cases apart
// with errors.Is.
var (
	// ErrPausePointNotFound: no pause point has that id.
	ErrPausePointNotFound = errors.New("pause point not found")
	// ErrPausePointPending: the pause point exists but no person has
	// decided yet.
	ErrPausePointPending = errors.New("pause point not resolved yet")
	// ErrPausePointConsumed: the pause point was already claimed; a
	// resolved call runs at most once.
	ErrPausePointConsumed = errors.New("pause point already consumed")
	// ErrApprovalsUnavailable: the registry has no Approvals store, so
	// nothing can be resumed.
	ErrApprovalsUnavailable = errors.New("no approvals store configured")
)

// Approval records that a person approved a paused call. Resume sets
// Call.Approval to one when it runs the original call.
type Approval struct {
	// PausePointID is the pause point the call waited at.
	PausePointID string
	// Note is the reviewer's note, if any.
	Note string
}
