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
	// ErrPausePointForbidden: the caller of Resume is neither the pause
	// point's owner nor authorised to resume it; nothing was claimed.
	ErrPausePointForbidden = errors.New("not allowed to resume this pause point")
	// ErrPausePointExpired: nobody decided within the pause point's TTL, or
	// its approval was not used within the store's use-by window.
	ErrPausePointExpired = errors.New("pause point expired")
	// ErrApprovalStoreUnavailable: the Approvals store could not be read or
	// written (its database is down, locked or timed out). It is the only
	// pause-point error worth retrying: see Registry.Resume. A call that
	// needed approval and met it fails with an ErrApprovalStore tool error
	// whose Err matches it.
	ErrApprovalStoreUnavailable = errors.New("approval store unavailable")
)

// StoreError wraps an error of an Approvals store's database so that it
// matches ErrApprovalStoreUnavailable with errors.Is while keeping its
// cause (errors.Is and errors.As see through it).
func StoreError(err error) error {
	if err == nil {
		return nil
	}
	return &storeError{err}
}

type storeError struct{ err error }

func (e *storeError) Error() string        { return e.err.Error() }
func (e *storeError) Unwrap() error        { return e.err }
func (e *storeError) Is(target error) bool { return target == ErrApprovalStoreUnavailable }

// Approval records that a person approved a paused call. Resume sets
// Call.Approval to one when it runs the original call.
type Approval struct {
	// PausePointID is the pause point the call waited at.
	PausePointID string
	// Note is the reviewer's note, if any.
	Note string
}
