package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Agent is a sub-agent an agent tool delegates to: our view of whatever
// agent framework runs it. A fresh Agent serves one call.
type Agent interface {
	// Send gives the agent the prompt and runs it to the end of its turn,
	// passing each of its own events (tool calls, progress) to events as
	// they happen. The result reports whether it succeeded, its response
	// and its usage. Send must return when ctx is done. Its result's Usage
	// is reported even when it returns an error.
	Send(ctx context.Context, prompt string, events func(Event)) (AgentResult, error)
}

// AgentFunc adapts a function to Agent.
type AgentFunc func(ctx context.Context, prompt string, events func(Event)) (AgentResult, error)

// Send calls f.
func (f AgentFunc) Send(ctx context.Context, prompt string, events func(Event)) (AgentResult, error) {
	return f(ctx, prompt, events)
}

// AgentResult is how a sub-agent's turn ended.
type AgentResult struct {
	// OK reports success. When false, Error says what went wrong.
	OK bool
	// Response is the agent's answer: a string is returned as text, a Result
	// as is, json.RawMessage as its text, anything else as JSON.
	Response any
	// Error is the failure message when OK is false.
	Error string
	// Usage is what the agent consumed.
	Usage Usage
}

// AgentErrorKind says how a sub-agent failed.
type AgentErrorKind int

const (
	// AgentFailed: the agent reported a failure (not OK) or Send returned an
	// ordinary error. The model reads "Subagent failed: …".
	AgentFailed AgentErrorKind = iota
	// AgentFatal: Send returned an error marked with Fatal. The agent tool
	// returns the AgentError marked with Fatal in turn.
	AgentFatal
	// AgentAborted: the agent stopped because its context was cancelled or
	// its deadline passed. The agent tool returns it marked with Fatal, and
	// it wraps context.Canceled or context.DeadlineExceeded.
	AgentAborted
)

// AgentError is a sub-agent's failure, rebuilt by the agent tool: it
// carries the failure's message and the agent's usage and nothing else, so
// no part of the child's conversation (messages, partial output, its error
// values) reaches the parent.
type AgentError struct {
	Kind    AgentErrorKind
	Message string
	Usage   Usage
	// abort is context.Canceled or context.DeadlineExceeded for AgentAborted.
	abort error
}

func (e *AgentError) Error() string {
	switch e.Kind {
	case AgentFatal:
		return "Subagent failed fatally: " + e.Message
	case AgentAborted:
		return "Subagent aborted: " + e.Message
	}
	return "Subagent failed: " + e.Message
}

// Unwrap returns context.Canceled or context.DeadlineExceeded for an
// aborted agent, and nil otherwise.
func (e *AgentError) Unwrap() error { return e.abort }

// AgentToolOptions configure AgentTool.
type AgentToolOptions struct {
	// Name and Description of the tool; both required.
	Name        string
	Description string
	// Schema is the JSON Schema of the tool's argument object; required.
	Schema json.RawMessage
	// Decode decodes the arguments. Optional: nil decodes them strictly as a
	// JSON object into a map[string]any (the schema is not enforced; use a
	// generated or DecodeJSON decoder for that).
	Decode func(data []byte) (any, error)
	// Label renders the status label. Optional: the tool's name.
	Label func(args any) string
	// Flags of the tool. Nil: DefaultFlags().
	Flags *Flags
	// CreateAgent returns a fresh agent for one call, given the decoded
	// input. Required.
	CreateAgent func(ctx context.Context, input any, call *Call) (Agent, error)
	// Prompt is the prompt sent to the agent, or PromptFunc computes it from
	// the input; at most one may be set. Neither: "Complete this delegated
	// task. Input: <input as JSON>".
	Prompt     string
	PromptFunc func(input any) string
}

// AgentTool returns a tool of kind KindAgent that delegates each call to a
// fresh sub-agent. Other Tool fields (Gate, Permission, …) may be set on the
// returned tool before it is registered.
//
// While the agent runs, each of its events is forwarded through the call's
// emitter as an EventChild event (Event.Child holds it); forwarding ends
// when the call returns, and later events are dropped. The agent's usage is
// reported through Call.ReportUsage. A result that is not OK becomes the
// error "Subagent failed: …". Errors from the agent are rebuilt as
// *AgentError (see there); fatal and abort errors are returned marked with
// Fatal. ctx is passed to the agent, so cancellation reaches it.
func AgentTool(opts AgentToolOptions) (*Tool, error) {
	switch {
	case opts.Name == "":
		return nil, errors.New("runtime: AgentTool: Name is required")
	case opts.Description == "":
		return nil, fmt.Errorf("runtime: AgentTool %q: Description is required", opts.Name)
	case opts.CreateAgent == nil:
		return nil, fmt.Errorf("runtime: AgentTool %q: CreateAgent is required", opts.Name)
	case len(bytes.TrimSpace(opts.Schema)) == 0:
		return nil, fmt.Errorf("runtime: AgentTool %q: Schema is required", opts.Name)
	case !json.Valid(opts.Schema):
		return nil, fmt.Errorf("runtime: AgentTool %q: Schema is not valid JSON", opts.Name)
	case opts.Prompt != "" && opts.PromptFunc != nil:
		return nil, fmt.Errorf("runtime: AgentTool %q: set Prompt or PromptFunc, not both", opts.Name)
	}
	if err := checkToolName(opts.Name); err != nil {
		return nil, fmt.Errorf("runtime: AgentTool: %w", err)
	}
	flags := DefaultFlags()
	if opts.Flags != nil {
		flags = *opts.Flags
	}
	decode := opts.Decode
	if decode == nil {
		decode = decodeObject
	}
	a := &agentTool{name: opts.Name, create: opts.CreateAgent, promptFunc: opts.PromptFunc}
	if opts.Prompt != "" {
		a.promptFunc = func(any) string { return opts.Prompt }
	}
	return &Tool{
		Name:        opts.Name,
		Description: opts.Description,
		Kind:        KindAgent,
		Schema:      opts.Schema,
		Flags:       flags,
		Decode:      decode,
		Label:       opts.Label,
		Execute:     a.execute,
	}, nil
}

// decodeObject decodes a JSON object strictly into a map[string]any.
func decodeObject(data []byte) (any, error) {
	var m map[string]any
	if err := decodeStrict(data, &m); err != nil {
		return nil, err
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// AgentExecute returns a Tool.Execute that delegates each call to a fresh
// agent from create, with the prompt computed by prompt (nil: the default
// prompt), exactly as the tools AgentTool returns do. Generated code uses it
// for `kind: agent` tools; name is the tool's name, for error messages.
func AgentExecute(name string, create func(ctx context.Context, input any, call *Call) (Agent, error), prompt func(input any) string) func(ctx context.Context, call *Call, input any) (Result, error) {
	a := &agentTool{name: name, create: create, promptFunc: prompt}
	return a.execute
}

type agentTool struct {
	name       string
	create     func(ctx context.Context, input any, call *Call) (Agent, error)
	promptFunc func(input any) string
}

func (a *agentTool) prompt(input any) string {
	if a.promptFunc != nil {
		return a.promptFunc(input)
	}
	return DefaultAgentPrompt(input)
}

// DefaultAgentPrompt is the prompt an agent tool sends when it has no prompt
// of its own: "Complete this delegated task. Input: " and the input as JSON
// (or as %v, should it not encode). Generated prompt functions fall back to
// it when a placeholder has no value.
func DefaultAgentPrompt(input any) string {
	b, err := json.Marshal(input)
	if err != nil {
		b = fmt.Appendf(nil, "%v", input)
	}
	return "Complete this delegated task. Input: " + string(b)
}

func (a *agentTool) execute(ctx context.Context, call *Call, input any) (Result, error) {
	if a.create == nil {
		return Result{}, fmt.Errorf("%s: no agent factory", a.name)
	}
	agent, err := a.create(ctx, input, call)
	if err != nil {
		return Result{}, err
	}
	if agent == nil {
		return Result{}, fmt.Errorf("%s: CreateAgent returned no agent", a.name)
	}
	gate := &eventGate{}
	defer gate.close()
	events := func(e Event) {
		if call == nil || call.Events == nil {
			return
		}
		child := e
		gate.send(call.Emit, Event{Type: EventChild, Child: &child})
	}
	res, err := agent.Send(ctx, a.prompt(input), events)
	usage := res.Usage
	var childErr *AgentError
	if err != nil && usage == (Usage{}) && errors.As(err, &childErr) {
		usage = childErr.Usage // a nested agent tool's failure
	}
	if usage != (Usage{}) {
		call.ReportUsage(usage)
	}
	if err != nil {
		return Result{}, rebuildAgentError(ctx, err, usage)
	}
	if !res.OK {
		msg := res.Error
		if msg == "" {
			msg = "the agent reported a failure without a message"
		}
		return Result{}, &AgentError{Kind: AgentFailed, Message: msg, Usage: usage}
	}
	return agentResponse(res.Response)
}

// rebuildAgentError turns the child's error into a new *AgentError holding
// only its message and usage.
func rebuildAgentError(ctx context.Context, err error, usage Usage) error {
	ae := &AgentError{Kind: AgentFailed, Message: err.Error(), Usage: usage}
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		ae.Kind = AgentAborted
		ae.abort = context.Canceled
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
			ae.abort = context.DeadlineExceeded
		}
		return Fatal(ae)
	case IsFatal(err):
		ae.Kind = AgentFatal
		return Fatal(ae)
	}
	return ae
}

// agentResponse turns an agent's response into the tool's result.
func agentResponse(v any) (Result, error) {
	switch r := v.(type) {
	case nil:
		return Text(""), nil
	case string:
		return Text(r), nil
	case Result:
		return r, nil
	case json.RawMessage:
		return Text(string(r)), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return Result{}, fmt.Errorf("the agent's response could not be encoded as JSON: %w", err)
	}
	return Text(string(b)), nil
}
