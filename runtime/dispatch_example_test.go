package runtime_test

import (
	"context"
	"fmt"

	"github.com/toolgen/toolgen/runtime"
)

type greetArgs struct {
	Name string `json:"name"`
}

// A hand-written tool, built with the typed helpers, dispatched twice: once
// with arguments the model got wrong, once right.
func ExampleRegistry_Dispatch() {
	reg := runtime.NewRegistry(runtime.Options{})
	err := reg.Add(&runtime.Tool{
		Name:  "greet",
		Flags: runtime.DefaultFlags(),
		Decode: runtime.DecodeJSON(func(a *greetArgs) []runtime.Violation {
			if a.Name == "" {
				return []runtime.Violation{{Path: "$.name", Message: "is required"}}
			}
			return nil
		}),
		Label: runtime.TypedLabel(func(a *greetArgs) string {
			if a.Name == "" {
				return "" // the tool's name is shown
			}
			return "Greeting " + a.Name
		}),
		Execute: runtime.TypedExecute(func(ctx context.Context, call *runtime.Call, a *greetArgs) (runtime.Result, error) {
			return runtime.Text("Hello, " + a.Name + "!"), nil
		}),
	})
	if err != nil {
		panic(err)
	}
	call := &runtime.Call{UserID: "u1", Events: func(e runtime.Event) {
		if e.Type == runtime.EventStart {
			fmt.Println("start:", e.Label)
		}
	}}
	for _, args := range []string{`{"nmae":"Ada"}`, `{"name":"Ada"}`} {
		out, err := reg.Dispatch(context.Background(), call, runtime.ToolCall{ID: "1", Name: "greet", Arguments: []byte(args)})
		if err != nil {
			panic(err) // fatal: cancelled, or a Fatal error
		}
		fmt.Printf("%s: %s\n", out.Status, out.Result)
	}
	out, _ := reg.Dispatch(context.Background(), call, runtime.ToolCall{ID: "2", Name: "greeet"})
	fmt.Printf("%s: %s\n", out.Status, out.Result)
	// Output:
	// start: greet
	// error: Error: invalid arguments for greet:
	// - $: unknown field "nmae" is not allowed
	// start: Greeting Ada
	// ok: Hello, Ada!
	// error: Error: unknown tool "greeet". Did you mean "greet"?
}
