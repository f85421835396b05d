package runtime

import "time"

// Call is the tool context: who is calling, in which conversation and turn,
// and where progress, events and usage go. A host makes one per turn (or per
// request); Dispatch copies it for each tool call and fills in ToolCallID and
// ToolName, so executors may read those.
type Call struct {
	// UserID is who the model acts for: gates and policies ask about this
	// user, and a pause point belongs to them.
	UserID string
	// ConversationID and TurnIndex locate the model turn, for pause points,
	// logs and the host's own bookkeeping.
	ConversationID string
	TurnIndex      int
	// ModelTier is the host's name for the model in use ("fast", "large"),
	// for policies and executors that depend on it. Optional.
	ModelTier string

	// Registry is the registry dispatching the call (set by Dispatch).
	Registry *Registry

	// Events receives the pipeline's start, progress, child and finish
	// events. Optional; it must be safe for concurrent use when calls run
	// in parallel. Dispatch calls it only while the call runs: the finish
	// event is a call's last, and what an executor's leftover goroutines
	// emit after it is dropped, so a host may close what Events writes to
	// once Dispatch (or RunCalls) has returned.
	Events func(Event)
	// Usage receives usage reports (for example a sub-agent's tokens).
	// Optional; same concurrency and lifetime rules as Events.
	Usage func(Usage)

	// Values holds the host's own values, for its executors and policies.
	Values map[string]any

	// ToolCallID and ToolName identify the tool call being run (set by Dispatch).
	ToolCallID string
	ToolName   string

	// Approval is set by Resume when the call runs after a person approved
	// it at a pause point; nil otherwise. A tool that pauses by itself (it
	// returns Pause) reads it to know the wait is over.
	Approval *Approval
}

// Value returns c.Values[key], or nil.
func (c *Call) Value(key string) any {
	if c == nil {
		return nil
	}
	return c.Values[key]
}

// Progress emits a progress event with a message for the running tool call.
func (c *Call) Progress(message string) {
	c.Emit(Event{Type: EventProgress, Message: message})
}

// Emit sends e to the Events sink, filling in the call's id and tool name.
func (c *Call) Emit(e Event) {
	if c == nil || c.Events == nil {
		return
	}
	if e.CallID == "" {
		e.CallID = c.ToolCallID
	}
	if e.Tool == "" {
		e.Tool = c.ToolName
	}
	c.Events(e)
}

// ReportUsage sends u to the Usage sink.
func (c *Call) ReportUsage(u Usage) {
	if c != nil && c.Usage != nil {
		c.Usage(u)
	}
}

// EventType is the type of a pipeline event.
type EventType string

const (
	EventStart    EventType = "start"
	EventProgress EventType = "progress"
	EventChild    EventType = "child" // a nested agent's own event, in Child
	EventFinish   EventType = "finish"
)

// Status is how a call ended.
type Status string

const (
	StatusOK     Status = "ok"
	StatusError  Status = "error"  // a tool-error result was returned to the model
	StatusPaused Status = "paused" // waiting for human approval
	StatusFatal  Status = "fatal"  // a Go error was returned to the host
	// StatusSkipped: RunCalls did not run the call because an earlier call
	// of the turn paused or failed fatally, or the turn was cancelled.
	StatusSkipped Status = "skipped"
)

// Event is one event of a tool call's life.
type Event struct {
	// Type says which part of the call's life this is.
	Type EventType
	// CallID and Tool identify the call (filled in by Call.Emit).
	CallID string
	Tool   string
	// Label is the status label (start and finish).
	Label string
	// Message is a progress message.
	Message string
	// Data is an optional typed progress payload.
	Data any
	// Child is a nested agent's event (EventChild).
	Child *Event
	// Status and Duration are set on finish.
	Status   Status
	Duration time.Duration
}

// Usage is what a model call consumed.
type Usage struct {
	// InputTokens and OutputTokens are the tokens the model read and wrote.
	InputTokens  int64
	OutputTokens int64
	// Cost in the host's currency unit, when known.
	Cost float64
}

// Add returns u + v.
func (u Usage) Add(v Usage) Usage {
	return Usage{InputTokens: u.InputTokens + v.InputTokens, OutputTokens: u.OutputTokens + v.OutputTokens, Cost: u.Cost + v.Cost}
}
