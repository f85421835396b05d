package genfixture

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// TestStrictModeNulls: with OpenAI's strict mode every property is
// required, so the model sends null for the ones it leaves out. A registry
// with Options.DropNullOptionals treats those nulls as absent (defaults
// apply, the executor sees nil), through Dispatch and RunCalls alike; without
// it the generated decoder rejects them.
func TestStrictModeNulls(t *testing.T) {
	gates := runtime.GatesFunc(func(context.Context, *runtime.Call, string) (bool, error) { return true, nil })
	strictArgs := json.RawMessage(`{"query":"Acme","limit":null,"include_deleted":null}`)
	tc := runtime.ToolCall{ID: "c1", Name: ToolSearch, Arguments: strictArgs}

	lenient := runtime.NewRegistry(runtime.Options{Gates: gates, DropNullOptionals: true})
	if err := lenient.AddModule(Module(&Tools{})); err != nil {
		t.Fatal(err)
	}
	out, err := lenient.Dispatch(context.Background(), nil, tc)
	if err != nil || out.Status != runtime.StatusOK || out.Result.String() != "acme-1,acme-2,acme-3" {
		t.Fatalf("dispatch with DropNullOptionals: %+v %v", out, err)
	}
	outs, err := lenient.RunCalls(context.Background(), nil, []runtime.ToolCall{tc}, runtime.RunOptions{})
	if err != nil || outs[0].Status != runtime.StatusOK {
		t.Fatalf("RunCalls with DropNullOptionals: %+v %v", outs, err)
	}
	// A null for a required property is still an error.
	bad := runtime.ToolCall{ID: "c2", Name: ToolSearch, Arguments: json.RawMessage(`{"query":null,"limit":null}`)}
	if out, err := lenient.Dispatch(context.Background(), nil, bad); err != nil || out.Err == nil || out.Err.Kind != runtime.ErrInvalidArgs {
		t.Fatalf("null for a required property: %+v %v", out, err)
	}

	plain := runtime.NewRegistry(runtime.Options{Gates: gates})
	if err := plain.AddModule(Module(&Tools{})); err != nil {
		t.Fatal(err)
	}
	out, err = plain.Dispatch(context.Background(), nil, tc)
	if err != nil || out.Err == nil || out.Err.Kind != runtime.ErrInvalidArgs {
		t.Fatalf("dispatch without DropNullOptionals: %+v %v", out, err)
	}
}
