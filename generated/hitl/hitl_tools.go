// This file is yours: toolgen only adds stubs for new tools to it and never
// changes what is written here.
//
// Tools implements Executor, the interface generated from hitl.tools.yaml.

package hitl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolgen/toolgen/runtime"
)

// Tools is the hitl module's executor: wait_for_approval stores a pause
// point in Store and pauses the turn.
type Tools struct {
	// Store keeps the pause points. Required.
	Store *Store
}

var _ Executor = (*Tools)(nil)

// approvalResult is what the model reads once a person approved.
type approvalResult struct {
	Approved     bool   `json:"approved"`
	Action       string `json:"action"`
	ApprovedBy   string `json:"approved_by,omitempty"`
	Note         string `json:"note,omitempty"`
	PausePointID string `json:"pause_point_id"`
}

// WaitForApproval runs the wait_for_approval tool: it writes a pending pause
// point for the calling user (owner, conversation, turn and tool call id from
// call) and returns runtime.Pause with its id, so that Dispatch reports the
// call as paused.
//
// Dispatching the same tool call again while its point is pending pauses on
// that point instead of writing another (Create is idempotent per tool
// call). When the store cannot write, the error matches ErrUnavailable: the
// model reads that the approval could not be recorded, and the host gets the
// cause in the outcome's error (kind runtime.ErrApprovalStore). When runtime.Registry.Resume runs
// the call after a person approved (call.Approval is set), it returns the
// decision to the model instead of pausing again; a denial never reaches the
// executor (Resume reports it as a permission_denied tool error with the
// reviewer's note).
func (t *Tools) WaitForApproval(ctx context.Context, call *runtime.Call, args *WaitForApprovalArgs) (runtime.Result, error) {
	if t == nil || t.Store == nil {
		return runtime.Result{}, runtime.Fatal(errors.New("hitl: wait_for_approval: Tools.Store is nil"))
	}
	if call == nil || call.UserID == "" {
		return runtime.Result{}, runtime.Fatal(errors.New("hitl: wait_for_approval: the call has no UserID, so nobody could approve it"))
	}
	if a := call.Approval; a != nil {
		res := approvalResult{Approved: true, Action: args.Action, Note: a.Note, PausePointID: a.PausePointID}
		if p, err := t.Store.Get(ctx, a.PausePointID); err == nil {
			res.ApprovedBy = p.ResolvedBy
		}
		return runtime.JSON(res)
	}

	tool := call.ToolName
	if tool == "" {
		tool = "wait_for_approval"
	}

	// The arguments, defaults applied, for the reviewer's UI and for Resume,
	// which decodes them again.
	arguments, err := json.Marshal(args)
	if err != nil {
		return runtime.Result{}, fmt.Errorf("hitl: wait_for_approval: %w", err)
	}
	label := "Waiting for approval: " + args.Action
	if call.Registry != nil {
		if rt, ok := call.Registry.Get(tool); ok && rt.Label != nil {
			label = rt.Label(args)
		}
	}
	reason := args.Action
	if args.Risk != "" {
		reason += " (risk: " + string(args.Risk) + ")"
	}
	p, err := t.Store.Create(ctx, PausePoint{
		UserID:         call.UserID,
		ConversationID: call.ConversationID,
		TurnIndex:      call.TurnIndex,
		ToolCallID:     call.ToolCallID,
		Tool:           tool,
		Arguments:      arguments,
		Label:          label,
		Reason:         reason,
	})
	if err != nil {
		return runtime.Result{}, err
	}
	return runtime.Result{}, runtime.Pause(p.ID, reason)
}
