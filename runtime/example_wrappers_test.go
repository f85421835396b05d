package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/runtime"
)

// lookupArgs are the arguments of a small hand-written tool.
type lookupArgs struct {
	Email string `json:"email"`
}

func lookupTool() *runtime.Tool {
	flags := runtime.DefaultFlags()
	flags.ReadOnly, flags.ConcurrencySafe = true, true
	return &runtime.Tool{
		Name:        "lookup_customer",
		Description: "Look a customer up by email.",
		Schema:      json.RawMessage(`{"additionalProperties":false,"properties":{"email":{"type":"string"}},"required":["email"],"type":"object"}`),
		Flags:       flags,
		Decode: runtime.DecodeJSON[lookupArgs](func(a *lookupArgs) []runtime.Violation {
			if !strings.Contains(a.Email, "@") {
				return []runtime.Violation{{Path: "$.email", Message: "must be an email address"}}
			}
			return nil
		}),
		Label: runtime.TypedLabel(func(a *lookupArgs) string { return "Looking up " + a.Email }),
		Execute: runtime.TypedExecute(func(ctx context.Context, call *runtime.Call, a *lookupArgs) (runtime.Result, error) {
			if strings.HasPrefix(a.Email, "nobody") {
				return runtime.Result{}, fmt.Errorf("no customer with email %s", a.Email)
			}
			return runtime.Text("customer " + strings.Split(a.Email, "@")[0]), nil
		}),
	}
}

// Parallelize turns a tool into a batch tool: the model sends many inputs in
// one call, they run with bounded concurrency, and the result lists one
// entry per input, in order. Errors stay with their item.
func ExampleParallelize() {
	batch, err := runtime.Parallelize(lookupTool(), runtime.ParallelizeOptions{MaxConcurrency: 4})
	if err != nil {
		panic(err)
	}
	reg := runtime.NewRegistry(runtime.Options{})
	if err := reg.Add(batch); err != nil {
		panic(err)
	}
	out, err := reg.Dispatch(context.Background(), nil, runtime.ToolCall{
		ID:        "call_1",
		Name:      "lookup_customer_batch",
		Arguments: json.RawMessage(`{"items":[{"email":"ada@example.com"},{"email":"nobody@example.com"}]}`),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Label)
	fmt.Println(out.Result.String())
	// Output:
	// Looking up ada@example.com (+1 more)
	// [{"index":0,"input":{"email":"ada@example.com"},"ok":true,"output":"customer ada"},{"index":1,"input":{"email":"nobody@example.com"},"ok":false,"error":{"type":"execution","message":"no customer with email nobody@example.com"}}]
}

// RunCalls runs all the tool calls of one model turn: calls that are
// concurrency-safe for their input run in parallel, the others alone and in
// order, and the outcomes come back in the model's order. A call that needs
// approval pauses the turn; the calls after it are skipped, and say so.
func ExampleRegistry_RunCalls() {
	write := &runtime.Tool{
		Name:   "refund",
		Schema: json.RawMessage(`{"type":"object"}`),
		Flags:  runtime.Flags{Enabled: true, Destructive: true, RequiresApproval: true},
		Decode: runtime.DecodeJSON[map[string]any](nil),
		Execute: func(ctx context.Context, call *runtime.Call, args any) (runtime.Result, error) {
			return runtime.Text("refunded"), nil
		},
	}
	reg := runtime.NewRegistry(runtime.Options{Approvals: approvals{}})
	if err := reg.Add(lookupTool(), write); err != nil {
		panic(err)
	}
	outcomes, err := reg.RunCalls(context.Background(), &runtime.Call{UserID: "u1"}, []runtime.ToolCall{
		{ID: "a", Name: "lookup_customer", Arguments: json.RawMessage(`{"email":"ada@example.com"}`)},
		{ID: "b", Name: "lookup_customer", Arguments: json.RawMessage(`{"email":"bob@example.com"}`)},
		{ID: "c", Name: "refund", Arguments: json.RawMessage(`{"amount":500}`)},
		{ID: "d", Name: "lookup_customer", Arguments: json.RawMessage(`{"email":"eve@example.com"}`)},
	}, runtime.RunOptions{})
	if err != nil {
		panic(err)
	}
	for _, o := range outcomes {
		if o.Status == runtime.StatusPaused {
			fmt.Printf("%s %-7s pause point %s\n", o.CallID, o.Status, o.Pause.PausePointID)
			continue
		}
		fmt.Printf("%s %-7s %s\n", o.CallID, o.Status, o.Result.String())
	}
	// Output:
	// a ok      customer ada
	// b ok      customer bob
	// c paused  pause point pp_c
	// d skipped Error: not run: lookup_customer was skipped because call "c" (refund) is waiting for a person's approval. Nothing was done for this call; call it again if it is still needed.
}

// approvals stores nothing; it only hands out pause point ids.
type approvals struct{}

func (approvals) RequestApproval(ctx context.Context, req runtime.ApprovalRequest) (string, error) {
	return "pp_" + req.ToolCallID, nil
}

func (approvals) Claim(ctx context.Context, c runtime.ClaimRequest) (runtime.ApprovalRequest, runtime.Decision, error) {
	return runtime.ApprovalRequest{}, runtime.Decision{}, runtime.ErrPausePointNotFound
}

func (approvals) Finish(ctx context.Context, c runtime.ClaimRequest) error { return nil }

// AgentTool delegates a call to a fresh sub-agent. Its events reach the
// parent call as child events, its usage is reported, and a failure comes
// back as "Subagent failed: …".
func ExampleAgentTool() {
	research, err := runtime.AgentTool(runtime.AgentToolOptions{
		Name:        "research",
		Description: "Research a question and answer it with sources.",
		Schema:      json.RawMessage(`{"additionalProperties":false,"properties":{"question":{"type":"string"}},"required":["question"],"type":"object"}`),
		CreateAgent: func(ctx context.Context, input any, call *runtime.Call) (runtime.Agent, error) {
			// A real host builds its agent here (model, tools, system prompt).
			return runtime.AgentFunc(func(ctx context.Context, prompt string, events func(runtime.Event)) (runtime.AgentResult, error) {
				events(runtime.Event{Type: runtime.EventStart, Tool: "web_search", Label: "Searching the web"})
				return runtime.AgentResult{
					OK:       true,
					Response: map[string]any{"answer": "Paris", "prompt": prompt},
					Usage:    runtime.Usage{InputTokens: 1200, OutputTokens: 80},
				}, nil
			}), nil
		},
	})
	if err != nil {
		panic(err)
	}
	reg := runtime.NewRegistry(runtime.Options{})
	if err := reg.Add(research); err != nil {
		panic(err)
	}
	call := &runtime.Call{
		Events: func(e runtime.Event) {
			if e.Type == runtime.EventChild {
				fmt.Println("child:", e.Child.Tool, e.Child.Label)
			}
		},
		Usage: func(u runtime.Usage) { fmt.Println("usage:", u.InputTokens, u.OutputTokens) },
	}
	out, err := reg.Dispatch(context.Background(), call, runtime.ToolCall{ID: "1", Name: "research", Arguments: json.RawMessage(`{"question":"Capital of France?"}`)})
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Result.String())
	// Output:
	// child: web_search Searching the web
	// usage: 1200 80
	// {"answer":"Paris","prompt":"Complete this delegated task. Input: {\"question\":\"Capital of France?\"}"}
}

// NativeToolName maps a portable provider tool name to a provider's own.
func ExampleNativeToolName() {
	for _, d := range []runtime.Dialect{runtime.DialectAnthropic, runtime.DialectOpenAI, runtime.DialectGemini} {
		ws, _ := runtime.NativeToolName(d, runtime.WebSearch)
		ce, ok := runtime.NativeToolName(d, runtime.CodeExecution)
		fmt.Printf("%-9s web_search=%s code_execution=%s (%v)\n", d, ws, ce, ok)
	}
	// Output:
	// anthropic web_search=web_search_20250305 code_execution= (false)
	// openai    web_search=web_search_preview code_execution=code_interpreter (true)
	// gemini    web_search=googleSearch code_execution=codeExecution (true)
}
