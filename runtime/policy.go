package runtime

import (
	"context"
	"encoding/json"
)

// Behavior is a permission decision's verdict.
type Behavior int

const (
	// Allow lets the call run.
	Allow Behavior = iota
	// Deny refuses the call; the model reads the reason.
	Deny
	// Ask pauses the call for human approval.
	Ask
)

// String returns "allow", "deny" or "ask".
func (b Behavior) String() string {
	switch b {
	case Allow:
		return "allow"
	case Deny:
		return "deny"
	case Ask:
		return "ask"
	}
	return "unknown"
}

// Decision is the outcome of a permission check. The zero value allows.
type Decision struct {
	// Behavior is the verdict: Allow, Deny or Ask.
	Behavior Behavior
	// Reason explains a Deny (the model reads it) or an Ask (stored with
	// the pause point for the person who decides, and shown to the model
	// while the call waits). Ignored for Allow.
	Reason string
	// WholeBatch, on a Deny of one item of a wrapper's call (an item of a
	// batch tool made by Parallelize), denies the whole call, and the calls
	// that wrap it. Without it the denial is that item's error and the
	// other items run. Ignored elsewhere.
	WholeBatch bool
}

// Allowed returns a Decision that lets the call run.
func Allowed() Decision { return Decision{Behavior: Allow} }

// Denied returns a Decision that refuses the call; the model reads reason.
func Denied(reason string) Decision { return Decision{Behavior: Deny, Reason: reason} }

// AskApproval returns a Decision that pauses the call until a person
// approves or denies it (see Options.Approvals and Registry.Resume); reason
// says why approval is needed.
func AskApproval(reason string) Decision { return Decision{Behavior: Ask, Reason: reason} }

// Gates tells whether a tool's connection gate is open for a caller: is the
// underlying provider connected for this user?
type Gates interface {
	// GateOpen reports whether gate (a Tool.Gate, such as "stripe") is open
	// for call's user. It is asked only for gated tools. An error leaves the
	// tool out of the catalog and fails a call with a "try again later"
	// tool error, unless it is marked with Fatal.
	GateOpen(ctx context.Context, call *Call, gate string) (bool, error)
}

// GatesFunc adapts a function to Gates.
type GatesFunc func(ctx context.Context, call *Call, gate string) (bool, error)

// GateOpen returns f(ctx, call, gate).
func (f GatesFunc) GateOpen(ctx context.Context, call *Call, gate string) (bool, error) {
	return f(ctx, call, gate)
}

// Policy is the host's say over tools, consulted after each tool's own view.
type Policy interface {
	// Enabled may turn a tool off for a caller.
	Enabled(ctx context.Context, call *Call, t *Tool) bool
	// Permission decides on a call the tool itself allowed (or asked for).
	// prev is the tool's own decision.
	Permission(ctx context.Context, call *Call, t *Tool, args any, prev Decision) Decision
}

// PolicyFuncs adapts functions to Policy, for a host that wants a say in
// only one of its two questions: a nil EnabledFunc leaves every tool
// enabled, and a nil PermissionFunc keeps the tool's own decision. The zero
// value changes nothing.
//
//	runtime.Options{Policy: runtime.PolicyFuncs{
//		PermissionFunc: func(ctx context.Context, call *runtime.Call, t *runtime.Tool, args any, prev runtime.Decision) runtime.Decision {
//			if prev.Behavior == runtime.Allow && t.Flags.Destructive {
//				return runtime.AskApproval("a person approves every destructive action")
//			}
//			return prev
//		},
//	}}
type PolicyFuncs struct {
	// EnabledFunc is Policy.Enabled. Nil: every tool stays enabled.
	EnabledFunc func(ctx context.Context, call *Call, t *Tool) bool
	// PermissionFunc is Policy.Permission. Nil: prev, the tool's own
	// decision.
	PermissionFunc func(ctx context.Context, call *Call, t *Tool, args any, prev Decision) Decision
}

// Enabled returns p.EnabledFunc(ctx, call, t), or true when it is nil.
func (p PolicyFuncs) Enabled(ctx context.Context, call *Call, t *Tool) bool {
	if p.EnabledFunc == nil {
		return true
	}
	return p.EnabledFunc(ctx, call, t)
}

// Permission returns p.PermissionFunc(ctx, call, t, args, prev), or prev
// when it is nil.
func (p PolicyFuncs) Permission(ctx context.Context, call *Call, t *Tool, args any, prev Decision) Decision {
	if p.PermissionFunc == nil {
		return prev
	}
	return p.PermissionFunc(ctx, call, t, args, prev)
}

// ApprovalRequest is what is stored at a pause point when a call waits for a
// human: enough to run the original call later, exactly once.
type ApprovalRequest struct {
	// UserID, ConversationID and TurnIndex are the paused call's Call
	// fields; Resume runs the call with them again. UserID owns the pause
	// point.
	UserID         string
	ConversationID string
	TurnIndex      int
	// ToolCallID is the model's id of the tool call, Tool the tool's name.
	ToolCallID string
	Tool       string
	// Arguments are the call's raw JSON arguments, to be stored byte for
	// byte: Resume decodes them again.
	Arguments json.RawMessage
	// Label is the call's status label, for the person who decides.
	Label string
	// Reason is the Ask decision's reason: why approval is needed.
	Reason string
}

// ClaimRequest is what Registry.Resume asks an Approvals store to claim.
type ClaimRequest struct {
	// PausePointID is the pause point to claim.
	PausePointID string
	// By is who resumes: the UserID of the Call given to Resume ("" when it
	// has none). The store refuses a claimer who is neither the point's
	// owner nor authorised by the host, by the same rule as resolving.
	By string
	// Attempt names the resume attempt (ResumeOptions.Attempt, or a random
	// one). A point claimed by an attempt whose call has not finished may be
	// claimed again by the same attempt, so that a host that retries after
	// an error still runs the approved call; any other attempt loses.
	Attempt string
}

// Approvals stores pause points for calls whose permission decision is Ask.
type Approvals interface {
	// RequestApproval records a pending pause point and returns its id. It
	// is idempotent on the request's (UserID, ConversationID, ToolCallID):
	// while that tool call's point is pending, a retry returns its id
	// instead of recording another. A store that cannot record the point
	// returns an error that matches ErrApprovalStoreUnavailable.
	RequestApproval(ctx context.Context, req ApprovalRequest) (pausePointID string, err error)
	// Claim takes a resolved pause point for resumption, exactly once: it
	// returns the stored request and the human's decision (Allow or Deny
	// with the reviewer's note as Reason), and marks the point claimed by
	// c.Attempt so that another attempt's Claim fails with
	// ErrPausePointConsumed. The same attempt may claim it again until
	// Finish. A claimer who is neither the owner nor authorised fails with
	// ErrPausePointForbidden (and claims nothing), an approval past its
	// use-by time with ErrPausePointExpired. Registry.Resume wraps Claim's
	// errors with the pause point's id, so they need not repeat it.
	Claim(ctx context.Context, c ClaimRequest) (ApprovalRequest, Decision, error)
	// Finish records that the call claimed by c.Attempt has run (or was
	// stopped for good): from then on every Claim, the same attempt's too,
	// fails with ErrPausePointConsumed.
	Finish(ctx context.Context, c ClaimRequest) error
}
