package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
)

const agentSchema = `{"additionalProperties":false,"properties":{"task":{"type":"string"}},"required":["task"],"type":"object"}`

// childConversationError is an error of a child agent that holds its
// conversation; none of it may reach the parent.
type childConversationError struct {
	Messages []string
	err      error
}

func (e *childConversationError) Error() string { return e.err.Error() }
func (e *childConversationError) Unwrap() error { return e.err }

// agentRecorder collects what an agent tool sent through its call.
type agentRecorder struct {
	mu     sync.Mutex
	events []Event
	usage  []Usage
}

func (r *agentRecorder) call() *Call {
	return &Call{
		ToolCallID: "call-1", ToolName: "research",
		Events: func(e Event) { r.mu.Lock(); r.events = append(r.events, e); r.mu.Unlock() },
		Usage:  func(u Usage) { r.mu.Lock(); r.usage = append(r.usage, u); r.mu.Unlock() },
	}
}

func (r *agentRecorder) snapshot() ([]Event, []Usage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...), append([]Usage(nil), r.usage...)
}

func newAgentTool(t *testing.T, opts AgentToolOptions, agent Agent) *Tool {
	t.Helper()
	if opts.Name == "" {
		opts.Name = "research"
	}
	if opts.Description == "" {
		opts.Description = "Researches a question with a sub-agent."
	}
	if opts.Schema == nil {
		opts.Schema = json.RawMessage(agentSchema)
	}
	if opts.CreateAgent == nil {
		opts.CreateAgent = func(ctx context.Context, input any, call *Call) (Agent, error) { return agent, nil }
	}
	tool, err := AgentTool(opts)
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func execAgent(t *testing.T, tool *Tool, call *Call, ctx context.Context, raw string) (Result, error) {
	t.Helper()
	args, err := tool.Decode([]byte(raw))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return tool.Execute(ctx, call, args)
}

func TestAgentToolBasics(t *testing.T) {
	var gotPrompt string
	var created int
	tool := newAgentTool(t, AgentToolOptions{
		CreateAgent: func(ctx context.Context, input any, call *Call) (Agent, error) {
			created++
			return AgentFunc(func(ctx context.Context, prompt string, events func(Event)) (AgentResult, error) {
				gotPrompt = prompt
				return AgentResult{OK: true, Response: "Paris"}, nil
			}), nil
		},
	}, nil)
	if tool.Kind != KindAgent || tool.Name != "research" || string(tool.Schema) != agentSchema || tool.Flags != DefaultFlags() {
		t.Errorf("tool = %+v", tool)
	}
	for range 2 {
		res, err := execAgent(t, tool, nil, context.Background(), `{"task":"capital of France?"}`)
		if err != nil || res.String() != "Paris" {
			t.Fatalf("res %q, err %v", res.String(), err)
		}
	}
	if created != 2 {
		t.Errorf("CreateAgent ran %d times for 2 calls, want a fresh agent per call", created)
	}
	if want := `Complete this delegated task. Input: {"task":"capital of France?"}`; gotPrompt != want {
		t.Errorf("prompt = %q, want %q", gotPrompt, want)
	}

	echo := AgentFunc(func(ctx context.Context, prompt string, events func(Event)) (AgentResult, error) {
		return AgentResult{OK: true, Response: prompt}, nil
	})
	tool = newAgentTool(t, AgentToolOptions{Prompt: "Do the thing."}, echo)
	if res, _ := execAgent(t, tool, nil, context.Background(), `{"task":"x"}`); res.String() != "Do the thing." {
		t.Errorf("Prompt: %q", res.String())
	}
	tool = newAgentTool(t, AgentToolOptions{PromptFunc: func(in any) string { return "Task: " + in.(map[string]any)["task"].(string) }}, echo)
	if res, _ := execAgent(t, tool, nil, context.Background(), `{"task":"x"}`); res.String() != "Task: x" {
		t.Errorf("PromptFunc: %q", res.String())
	}
}

func TestAgentToolOptionsErrors(t *testing.T) {
	create := func(ctx context.Context, input any, call *Call) (Agent, error) { return nil, nil }
	ok := AgentToolOptions{Name: "a", Description: "d", Schema: json.RawMessage(`{}`), CreateAgent: create}
	for _, c := range []struct {
		mod  func(*AgentToolOptions)
		want string
	}{
		{func(o *AgentToolOptions) { o.Name = "" }, "Name is required"},
		{func(o *AgentToolOptions) { o.Name = "9lives" }, "not allowed"},
		{func(o *AgentToolOptions) { o.Description = "" }, "Description is required"},
		{func(o *AgentToolOptions) { o.CreateAgent = nil }, "CreateAgent is required"},
		{func(o *AgentToolOptions) { o.Schema = nil }, "Schema is required"},
		{func(o *AgentToolOptions) { o.Schema = json.RawMessage(`{`) }, "not valid JSON"},
		{func(o *AgentToolOptions) { o.Prompt, o.PromptFunc = "p", func(any) string { return "" } }, "not both"},
	} {
		o := ok
		c.mod(&o)
		if _, err := AgentTool(o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
	if _, err := AgentTool(ok); err != nil {
		t.Errorf("valid options: %v", err)
	}
}

func TestAgentToolDefaultDecode(t *testing.T) {
	tool := newAgentTool(t, AgentToolOptions{}, nil)
	if _, err := tool.Decode([]byte(`[1,2]`)); err == nil {
		t.Error("an array decoded as agent input")
	}
	var ve *ValidationError
	if _, err := tool.Decode([]byte(`{"task":`)); !errors.As(err, &ve) {
		t.Errorf("malformed JSON: %v", err)
	}
	v, err := tool.Decode([]byte(`{"task":"x","n":1}`))
	if err != nil || v.(map[string]any)["task"] != "x" {
		t.Errorf("decoded %v, %v", v, err)
	}
}

func TestAgentToolForwardsChildEventsUntilCallEnds(t *testing.T) {
	release := make(chan struct{})
	lateDone := make(chan struct{})
	agent := AgentFunc(func(ctx context.Context, prompt string, events func(Event)) (AgentResult, error) {
		events(Event{Type: EventStart, CallID: "child-1", Tool: "search", Label: "Searching"})
		events(Event{Type: EventFinish, CallID: "child-1", Tool: "search", Status: StatusOK})
		go func() { // a straggler emitting after the call ended
			defer close(lateDone)
			<-release
			events(Event{Type: EventProgress, Message: "too late"})
		}()
		return AgentResult{OK: true, Response: "done", Usage: Usage{InputTokens: 100, OutputTokens: 20}}, nil
	})
	tool := newAgentTool(t, AgentToolOptions{}, agent)
	rec := &agentRecorder{}
	if _, err := execAgent(t, tool, rec.call(), context.Background(), `{"task":"x"}`); err != nil {
		t.Fatal(err)
	}
	close(release)
	<-lateDone
	events, usage := rec.snapshot()
	if len(events) != 2 {
		t.Fatalf("events = %+v, want the two emitted during the call", events)
	}
	for i, e := range events {
		if e.Type != EventChild || e.CallID != "call-1" || e.Tool != "research" || e.Child == nil || e.Child.CallID != "child-1" {
			t.Errorf("event %d = %+v", i, e)
		}
	}
	if events[0].Child.Label != "Searching" || events[1].Child.Status != StatusOK {
		t.Errorf("child events: %+v %+v", events[0].Child, events[1].Child)
	}
	if len(usage) != 1 || usage[0] != (Usage{InputTokens: 100, OutputTokens: 20}) {
		t.Errorf("usage = %+v", usage)
	}
}

func TestAgentToolFailures(t *testing.T) {
	secret := []string{"user: my password is hunter2", "assistant: partial answer"}
	cases := []struct {
		name      string
		res       AgentResult
		err       error
		wantMsg   string
		wantFatal bool
		wantIs    error
	}{
		{"not ok", AgentResult{Error: "no sources found", Usage: Usage{InputTokens: 5}}, nil, "Subagent failed: no sources found", false, nil},
		{"not ok without message", AgentResult{}, nil, "Subagent failed: the agent reported a failure without a message", false, nil},
		{"ordinary error", AgentResult{Usage: Usage{InputTokens: 5}}, &childConversationError{secret, errors.New("model overloaded")}, "Subagent failed: model overloaded", false, nil},
		{"fatal", AgentResult{Usage: Usage{InputTokens: 5}}, Fatal(&childConversationError{secret, errors.New("budget exhausted")}), "Subagent failed fatally: budget exhausted", true, nil},
		{"abort", AgentResult{Usage: Usage{InputTokens: 5}}, &childConversationError{secret, context.Canceled}, "Subagent aborted: context canceled", true, context.Canceled},
		{"deadline", AgentResult{}, &childConversationError{secret, context.DeadlineExceeded}, "Subagent aborted: context deadline exceeded", true, context.DeadlineExceeded},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tool := newAgentTool(t, AgentToolOptions{}, AgentFunc(func(ctx context.Context, prompt string, events func(Event)) (AgentResult, error) {
				return c.res, c.err
			}))
			rec := &agentRecorder{}
			_, err := execAgent(t, tool, rec.call(), context.Background(), `{"task":"x"}`)
			var ae *AgentError
			if !errors.As(err, &ae) || err.Error() != c.wantMsg {
				t.Fatalf("err = %v, want %q", err, c.wantMsg)
			}
			if IsFatal(err) != c.wantFatal {
				t.Errorf("IsFatal = %v", IsFatal(err))
			}
			if c.wantIs != nil && !errors.Is(err, c.wantIs) {
				t.Errorf("errors.Is(err, %v) = false", c.wantIs)
			}
			var leaked *childConversationError
			if errors.As(err, &leaked) || strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the child's conversation reached the parent: %#v", err)
			}
			if ae.Usage != c.res.Usage {
				t.Errorf("usage in error = %+v, want %+v", ae.Usage, c.res.Usage)
			}
			if _, usage := rec.snapshot(); c.res.Usage != (Usage{}) && (len(usage) != 1 || usage[0] != c.res.Usage) {
				t.Errorf("reported usage = %+v", usage)
			}
		})
	}
}

func TestAgentToolResponses(t *testing.T) {
	for _, c := range []struct {
		resp any
		want string
	}{
		{"text", "text"},
		{nil, ""},
		{map[string]any{"b": 1, "a": []int{1, 2}}, `{"a":[1,2],"b":1}`},
		{json.RawMessage(`{"x":1}`), `{"x":1}`},
		{Parts(TextPart("a"), TextPart("b")), "a\nb"},
		{42, "42"},
	} {
		tool := newAgentTool(t, AgentToolOptions{}, AgentFunc(func(ctx context.Context, prompt string, events func(Event)) (AgentResult, error) {
			return AgentResult{OK: true, Response: c.resp}, nil
		}))
		res, err := execAgent(t, tool, nil, context.Background(), `{"task":"x"}`)
		if err != nil || res.String() != c.want {
			t.Errorf("response %#v: got %q, %v; want %q", c.resp, res.String(), err, c.want)
		}
	}
	tool := newAgentTool(t, AgentToolOptions{}, AgentFunc(func(ctx context.Context, prompt string, events func(Event)) (AgentResult, error) {
		return AgentResult{OK: true, Response: func() {}}, nil
	}))
	if _, err := execAgent(t, tool, nil, context.Background(), `{"task":"x"}`); err == nil || !strings.Contains(err.Error(), "could not be encoded") {
		t.Errorf("unencodable response: %v", err)
	}
}

func TestAgentToolCreateAgentErrors(t *testing.T) {
	tool := newAgentTool(t, AgentToolOptions{CreateAgent: func(ctx context.Context, input any, call *Call) (Agent, error) {
		return nil, errors.New("no model configured")
	}}, nil)
	if _, err := execAgent(t, tool, nil, context.Background(), `{"task":"x"}`); err == nil || err.Error() != "no model configured" {
		t.Errorf("err = %v", err)
	}
	tool = newAgentTool(t, AgentToolOptions{CreateAgent: func(ctx context.Context, input any, call *Call) (Agent, error) {
		return nil, nil
	}}, nil)
	if _, err := execAgent(t, tool, nil, context.Background(), `{"task":"x"}`); err == nil || !strings.Contains(err.Error(), "no agent") {
		t.Errorf("err = %v", err)
	}
}

func TestAgentToolCancellationReachesChild(t *testing.T) {
	sent, sawDone := make(chan struct{}), make(chan struct{})
	agent := AgentFunc(func(ctx context.Context, prompt string, events func(Event)) (AgentResult, error) {
		close(sent)
		<-ctx.Done()
		close(sawDone)
		return AgentResult{Usage: Usage{OutputTokens: 7}}, ctx.Err()
	})
	r := NewRegistry(Options{})
	if err := r.Add(newAgentTool(t, AgentToolOptions{}, agent)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-sent // cancel while the child runs, not before the call reaches it
		cancel()
	}()
	rec := &agentRecorder{}
	out, err := r.Dispatch(ctx, rec.call(), ToolCall{ID: "t1", Name: "research", Arguments: json.RawMessage(`{"task":"x"}`)})
	select {
	case <-sawDone:
	default:
		t.Fatal("the child did not see its context cancelled")
	}
	if !errors.Is(err, context.Canceled) || !IsFatal(err) || out.Status != StatusFatal {
		t.Errorf("err = %v, status %s", err, out.Status)
	}
	if _, usage := rec.snapshot(); len(usage) != 1 || usage[0].OutputTokens != 7 {
		t.Errorf("usage = %+v", usage)
	}
}

func TestAgentToolThroughDispatch(t *testing.T) {
	agent := AgentFunc(func(ctx context.Context, prompt string, events func(Event)) (AgentResult, error) {
		events(Event{Type: EventProgress, Message: "thinking"})
		return AgentResult{OK: false, Error: "could not find it"}, nil
	})
	r := NewRegistry(Options{})
	if err := r.Add(newAgentTool(t, AgentToolOptions{}, agent)); err != nil {
		t.Fatal(err)
	}
	rec := &agentRecorder{}
	out, err := r.Dispatch(context.Background(), rec.call(), ToolCall{ID: "t1", Name: "research", Arguments: json.RawMessage(`{"task":"x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != StatusError || out.Result.String() != "Error: Subagent failed: could not find it" {
		t.Errorf("outcome %+v", out)
	}
	events, _ := rec.snapshot()
	var types []string
	for _, e := range events {
		types = append(types, string(e.Type))
	}
	if strings.Join(types, ",") != "start,child,finish" || events[1].Child.Message != "thinking" || events[1].CallID != "t1" {
		t.Errorf("events = %+v", events)
	}
}

func TestAgentExecute(t *testing.T) {
	type args struct{ Task string }
	exec := AgentExecute("research",
		func(ctx context.Context, input any, call *Call) (Agent, error) {
			a := input.(*args)
			return AgentFunc(func(ctx context.Context, prompt string, events func(Event)) (AgentResult, error) {
				return AgentResult{OK: true, Response: prompt + " / " + a.Task}, nil
			}), nil
		},
		func(input any) string { return "Research: " + input.(*args).Task })
	res, err := exec(context.Background(), nil, &args{Task: "go"})
	if err != nil || res.String() != "Research: go / go" {
		t.Errorf("res %q, err %v", res.String(), err)
	}
	exec = AgentExecute("research", func(ctx context.Context, input any, call *Call) (Agent, error) {
		return AgentFunc(func(ctx context.Context, prompt string, events func(Event)) (AgentResult, error) {
			return AgentResult{OK: true, Response: prompt}, nil
		}), nil
	}, nil)
	if res, _ := exec(context.Background(), nil, map[string]any{"task": "go"}); res.String() != `Complete this delegated task. Input: {"task":"go"}` {
		t.Errorf("default prompt: %q", res.String())
	}
	if _, err := AgentExecute("research", nil, nil)(context.Background(), nil, nil); err == nil {
		t.Error("nil factory accepted")
	}
}

// A child that is itself an agent tool fails with an *AgentError carrying
// its usage; that usage is reported once, by the parent.
func TestAgentToolNestedFailureUsage(t *testing.T) {
	inner := &AgentError{Kind: AgentFailed, Message: "no sources", Usage: Usage{InputTokens: 40, OutputTokens: 2}}
	tool := newAgentTool(t, AgentToolOptions{}, AgentFunc(func(ctx context.Context, prompt string, events func(Event)) (AgentResult, error) {
		return AgentResult{}, inner
	}))
	rec := &agentRecorder{}
	_, err := execAgent(t, tool, rec.call(), context.Background(), `{"task":"x"}`)
	var ae *AgentError
	if !errors.As(err, &ae) || ae == inner || ae.Usage != inner.Usage {
		t.Fatalf("err = %#v, want a rebuilt *AgentError with the child's usage", err)
	}
	if _, usage := rec.snapshot(); len(usage) != 1 || usage[0] != inner.Usage {
		t.Errorf("usage = %+v, want the nested agent's", usage)
	}
}
