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

// Decision is the outcome of a permission check.
type Decision struct {
	Behavior Behavior
	Reason   string
}

// Allowed, Denied and AskApproval build Decisions.
func Allowed() Decision                  { return Decision{Behavior: Allow} }
func Denied(reason string) Decision      { return Decision{Behavior: Deny, Reason: reason} }
func AskApproval(reason string) Decision { return Decision{Behavior: Ask, Reason: reason} }

// Gates tells whether a tool's connection gate is open for a caller: is the
// underlying provider connected for this user?
type Gates interface {
	GateOpen(ctx context.Context, call *Call, gate string) (bool, error)
}

// GatesFunc adapts a function to Gates.
type GatesFunc func(ctx context.Context, call *Call, gate string) (bool, error)

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

// ApprovalRequest is what is stored at a pause point when a call waits for a
// human: enough to run the original call later, exactly once.
type ApprovalRequest struct {
	UserID         string
	ConversationID string
	TurnIndex      int
	ToolCallID     string
	Tool           string
	Arguments      json.RawMessage
	Label          string
	Reason         string
}

// Approvals stores pause points for calls whose permission decision is Ask.
type Approvals interface {
	// RequestApproval records a pending pause point and returns its id.
	RequestApproval(ctx context.Context, req ApprovalRequest) (pausePointID string, err error)
	// Claim takes a resolved pause point for resumption, exactly once: it
	// returns the stored request and the human's decision (Allow or Deny
	// with the reviewer's note as Reason), and marks the point consumed so
	// a second Claim fails.
	Claim(ctx context.Context, pausePointID string) (ApprovalRequest, Decision, error)
}
