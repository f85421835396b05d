package runtime

import (
	"errors"
	"strings"
)

// ErrorKind classifies a tool-error result: which pipeline step stopped the call.
type ErrorKind string

const (
	ErrUnknownTool ErrorKind = "unknown_tool" // step 1: no tool of that name
	// ErrProviderTool: step 1, the name is a provider tool, which the model
	// provider runs itself; the host cannot execute it.
	ErrProviderTool ErrorKind = "provider_tool"
	ErrInvalidArgs  ErrorKind = "invalid_arguments" // step 3: see ToolError.Violations
	ErrDisabled     ErrorKind = "disabled"          // step 4: the tool's flag or the host's policy
	ErrGate         ErrorKind = "gate"              // step 5: the gate is closed or could not be checked
	// ErrDenied: step 6, the tool's check or the host's policy denied the
	// call, a person denied it, or it needed approval and none could be
	// asked for.
	ErrDenied ErrorKind = "permission_denied"
	// ErrApprovalStore: step 6, the call needed a person's approval and the
	// Approvals store could not record it (or, for a tool that pauses by
	// itself, could not be written). Nothing ran. The model reads a short,
	// stable message; the cause is in ToolError.Err, which matches
	// ErrApprovalStoreUnavailable. It is not fatal to the turn (other
	// calls run, the model may try again later); a store that wants the
	// turn stopped returns its errors marked with Fatal.
	ErrApprovalStore ErrorKind = "approval_store_unavailable"
	ErrExecution     ErrorKind = "execution" // step 7: the executor failed or panicked
	// ErrResultSize: a result too large to return. Dispatch itself never
	// fails a call for this (step 8 truncates an oversized result, saying
	// so); an executor may return a ToolError of this kind.
	ErrResultSize ErrorKind = "result_too_large"
)

// Violation is one reason arguments are invalid, at a JSON path such as
// "$.items[2].email".
type Violation struct {
	// Path is where the violation is: "$" is the argument object itself.
	Path string `json:"path"`
	// Message says what is wrong, for the model ("must be at least 1, got 0").
	Message string `json:"message"`
}

// String returns "path: message".
func (v Violation) String() string { return v.Path + ": " + v.Message }

// ValidationError lists every violation found in a tool's arguments.
type ValidationError struct {
	// Violations are in the order they were found.
	Violations []Violation
}

// Error lists the violations on one line.
func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("invalid arguments: ")
	for i, v := range e.Violations {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(v.String())
	}
	return b.String()
}

// ToolError is an ordinary failure of a call, reported to the model as a
// tool-error result it can read and act on.
type ToolError struct {
	// Kind is the pipeline step that stopped the call.
	Kind ErrorKind
	// Tool is the name the model called.
	Tool string
	// Message is what the model reads, after "Error: " (see Text).
	Message string
	// Violations are set for ErrInvalidArgs.
	Violations []Violation
	// Err is the underlying error, if any (an executor's error, say).
	Err error
}

// Error returns the message.
func (e *ToolError) Error() string { return e.Message }

// Unwrap returns the underlying error, Err.
func (e *ToolError) Unwrap() error { return e.Err }

// fatalError marks an error that must stop the turn.
type fatalError struct{ err error }

func (e *fatalError) Error() string { return e.err.Error() }
func (e *fatalError) Unwrap() error { return e.err }

// Fatal marks err as fatal: Dispatch returns it to the host as a Go error
// instead of showing it to the model. Fatal(nil) is nil.
func Fatal(err error) error {
	if err == nil {
		return nil
	}
	return &fatalError{err}
}

// IsFatal reports whether err (or an error it wraps) was marked by Fatal.
func IsFatal(err error) bool {
	var f *fatalError
	return errors.As(err, &f)
}

// PauseError is returned by an executor (or produced by the permission step)
// to pause the turn at a durable pause point until a human decides.
type PauseError struct {
	// PausePointID identifies the stored pause point.
	PausePointID string
	// Reason says what is awaited, for the host's UI.
	Reason string
}

func (e *PauseError) Error() string {
	return "paused for approval (pause point " + e.PausePointID + ")"
}

// Pause returns the error an executor returns to pause the turn at the
// given pause point.
func Pause(pausePointID, reason string) error {
	return &PauseError{PausePointID: pausePointID, Reason: reason}
}
