package runtime

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// ResumeOptions configure ResumeWith.
type ResumeOptions struct {
	// Attempt names this resume attempt, so that it can be retried: a
	// Resume that failed with an error (a timeout, the store down) and is
	// retried with the same Attempt claims the point again and runs the
	// approved call, if it has not run; any other Resume of the point loses
	// with ErrPausePointConsumed. Use an id the host keeps across its
	// retries: the id of the request or job that resumes, or one made once
	// per pause point and decision. Empty: a fresh random attempt, which no
	// retry can reuse.
	Attempt string
	// FinishTimeout bounds recording, after the call, that it has run (see
	// Approvals.Finish); it runs even when ctx is done by then. Zero: 10
	// seconds.
	FinishTimeout time.Duration
}

// Resume is ResumeWith with the zero ResumeOptions (a random attempt).
func (r *Registry) Resume(ctx context.Context, call *Call, pausePointID string) (Outcome, error) {
	return r.ResumeWith(ctx, call, pausePointID, ResumeOptions{})
}

// ResumeWith continues a call that paused for approval, once a person
// decided. It claims the pause point through Options.Approvals for call's
// user (exactly once: a second, different Resume of the same id fails) and
// then:
//
//   - approved: runs the original call (its tool, arguments and tool call id,
//     and the user, conversation and turn stored with it) through the same
//     pipeline: lookup, decode (against the tool's current schema), enabled,
//     gate and permission all run again, since the tool may have been
//     removed or disabled, its gate closed or the host's policy changed in
//     the meantime; an ask is satisfied by the approval, a deny still
//     denies. Stored arguments the tool's schema no longer accepts get an
//     ErrInvalidArgs error that says the schema changed while the call
//     waited, naming the pause point. The executor sees Call.Approval set.
//   - denied: returns an ErrDenied tool error saying a person denied the
//     call, with their note.
//
// Only the pause point's owner may resume it, or a caller the store
// authorises (hitl.Options.Authorize: the same rule as resolving); anyone
// else gets ErrPausePointForbidden and nothing is claimed. call supplies
// the caller's UserID and the sinks, Values and ModelTier of the resumed
// call (it may be a later turn's); its ConversationID and TurnIndex, and
// UserID for the call itself, are replaced by the ones stored with the
// pause point.
//
// Once the call has run (or was stopped by the pipeline), ResumeWith tells
// the store, which then refuses every later claim. When ResumeWith returns
// an error, the host should:
//
//   - ErrApprovalStoreUnavailable, or a context error (a deadline): retry
//     with the same ResumeOptions.Attempt. The store may have recorded the
//     claim although the call timed out; the same attempt claims again and
//     runs the call, exactly once. If the call itself ran and then failed
//     fatally, the retry gets ErrPausePointConsumed instead: the call is not
//     run twice.
//   - ErrPausePointPending: nobody decided yet; resume after the decision.
//   - ErrPausePointConsumed: another resume has claimed it (or this attempt
//     already finished it); do not run it again. Its outcome is the other
//     resume's to report.
//   - ErrPausePointExpired, ErrPausePointNotFound, ErrPausePointForbidden:
//     final; tell the user (and the model, as the tool result for the call,
//     that it did not run).
//
// Errors from Claim are returned wrapped with the pause point's id
// (`runtime: resume pause point "pp_1": …`); without an Approvals store
// ResumeWith fails with ErrApprovalsUnavailable. A process that stops
// between Claim and Finish leaves the call claimed by its attempt: a retry
// of that attempt runs it (if it had run, twice); another attempt never
// does.
func (r *Registry) ResumeWith(ctx context.Context, call *Call, pausePointID string, opts ResumeOptions) (Outcome, error) {
	ap := r.opts.Approvals
	if ap == nil {
		return Outcome{}, fmt.Errorf("runtime: resume pause point %q: %w", pausePointID, ErrApprovalsUnavailable)
	}
	c := ClaimRequest{PausePointID: pausePointID, Attempt: opts.Attempt}
	if call != nil {
		c.By = call.UserID
	}
	if c.Attempt == "" {
		c.Attempt = randomAttempt()
	}
	req, d, err := ap.Claim(ctx, c)
	if err != nil {
		return Outcome{}, fmt.Errorf("runtime: resume pause point %q: %w", pausePointID, err)
	}
	var cc Call
	if call != nil {
		cc = *call
	}
	cc.UserID, cc.ConversationID, cc.TurnIndex = req.UserID, req.ConversationID, req.TurnIndex
	tc := ToolCall{ID: req.ToolCallID, Name: req.Tool, Arguments: req.Arguments}
	var x *run
	var out Outcome
	switch d.Behavior {
	case Allow:
		x = r.newRun(&cc, tc, &Approval{PausePointID: pausePointID, Note: d.Reason})
		out, err = x.pipeline(ctx, tc, nil)
	case Deny:
		x = r.newRun(&cc, tc, nil)
		x.out.Label = req.Label
		if x.out.Label == "" {
			x.out.Label = tc.Name
		}
		x.begin()
		out, err = x.fail(humanDeniedError(tc.Name, d.Reason))
	default:
		return Outcome{}, fmt.Errorf("runtime: resume pause point %q: decision is %q: %w",
			pausePointID, d.Behavior, ErrPausePointPending)
	}
	if err != nil && !x.executed {
		// Nothing ran (the context ended before the executor, or a gate
		// check failed fatally): the same attempt may claim it again.
		return out, err
	}
	timeout := opts.FinishTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	if ferr := ap.Finish(fctx, c); ferr != nil && r.opts.Logger != nil {
		// The outcome stands: the host has it and will not retry. Only a
		// retry of this same attempt could now run the call again.
		r.opts.Logger.LogAttrs(ctx, slog.LevelError, "runtime: recording that a resumed call ran failed",
			slog.String("pause_point", pausePointID), slog.String("tool", tc.Name), slog.Any("error", ferr))
	}
	return out, err
}

// randomAttempt returns a fresh attempt name.
func randomAttempt() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return "ra_" + hex.EncodeToString(b[:])
}

// approvalStoreError is the tool error of a call whose approval could not be
// recorded: a short, stable message for the model; the cause for the host.
func approvalStoreError(tool string, err error) *ToolError {
	if !errors.Is(err, ErrApprovalStoreUnavailable) {
		err = StoreError(err)
	}
	return &ToolError{Kind: ErrApprovalStore, Tool: tool, Err: err,
		Message: tool + " needs a person's approval, but the approval could not be recorded, so the call did not run; try again later."}
}
