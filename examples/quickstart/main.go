// Command quickstart shows toolgen's round trip from the host's side, with no
// model and no network: it builds a registry, adds the example module
// (generated from generated/example/example.tools.yaml), prints the catalog
// the model would see, and dispatches the calls a model might make — one of
// them with arguments it got wrong, and its corrected retry.
//
//	go run ./examples/quickstart
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toolgen/toolgen/generated/example"
	"github.com/toolgen/toolgen/runtime"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

// script is what a model might call, in order.
var script = []struct{ note, name, args string }{
	{"add a task", example.ToolAdd, `{"title":"Write the README","priority":"high","tags":["docs"]}`},
	{"add another; priority takes its default", example.ToolAdd, `{"title":"Tidy go.mod","due":"2026-12-01"}`},
	{"arguments the model got wrong", example.ToolAdd, `{"title":"","priority":"urgent","due":"tomorrow","colour":"red"}`},
	{"the model reads the errors and corrects itself", example.ToolAdd, `{"title":"Ship it","priority":"normal","due":"2026-12-24"}`},
	{"search", example.ToolList, `{"query":"readme"}`},
	{"complete a task", example.ToolComplete, `{"id":1}`},
	{"delete a task", example.ToolDelete, `{"id":2}`},
	{"an id that does not exist", example.ToolDelete, `{"id":42}`},
	{"what is left", example.ToolList, `{}`},
	{"a tool no module owns", "tasks_archive", `{"id":1}`},
}

func run(ctx context.Context, w io.Writer) error {
	reg := runtime.NewRegistry(runtime.Options{})
	if err := reg.AddModule(example.Module(example.New())); err != nil {
		return err
	}
	call := &runtime.Call{
		UserID:         "demo-user",
		ConversationID: "quickstart",
		Events: func(e runtime.Event) {
			switch e.Type {
			case runtime.EventStart:
				fmt.Fprintf(w, "   ⋯ %s\n", e.Label)
			case runtime.EventFinish:
				fmt.Fprintf(w, "   ✓ finished: %s\n", e.Status)
			}
		},
	}

	fmt.Fprintln(w, "== The catalog the model sees")
	defs, err := reg.Definitions(ctx, call)
	if err != nil {
		return err
	}
	for _, d := range defs {
		fmt.Fprintf(w, "\n%s — %s\n   parameters: %s\n", d.Name, d.Description, d.Parameters)
	}

	fmt.Fprintln(w, "\n== The model's calls")
	for i, s := range script {
		fmt.Fprintf(w, "\n%d. %s\n   → %s %s\n", i+1, s.note, s.name, s.args)
		out, err := reg.Dispatch(ctx, call, runtime.ToolCall{
			ID: fmt.Sprintf("call_%d", i+1), Name: s.name, Arguments: json.RawMessage(s.args),
		})
		if err != nil {
			return err // fatal: only a cancelled context or runtime.Fatal gets here
		}
		fmt.Fprintf(w, "   ← [%s] %s\n", out.Status, strings.ReplaceAll(out.Result.String(), "\n", "\n     "))
	}
	return nil
}
