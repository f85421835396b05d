package runtime

import "time"

// Outcome is how one tool call ended, as Dispatch reports it.
type Outcome struct {
	// CallID and Tool identify the call.
	CallID string
	Tool   string
	// Label is the status label rendered for the call.
	Label string
	// Status is ok, error (a tool-error result for the model), paused,
	// fatal (Dispatch also returned a Go error for the host), or — from
	// RunCalls only — skipped (not run because an earlier call of the turn
	// paused or failed fatally; Result tells the model so).
	Status Status
	// Result is what the model reads: the tool's result, or the formatted
	// tool error (IsError set), or a note that the call awaits approval.
	Result Result
	// Err classifies a StatusError outcome (which step stopped the call).
	Err *ToolError
	// Pause is set when Status is StatusPaused.
	Pause *PauseError
	// Duration is the time from lookup to finish.
	Duration time.Duration
}
