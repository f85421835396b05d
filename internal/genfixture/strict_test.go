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

// TestDecodeNullAsAbsent: the generated DecodeWith in NullAsAbsent mode
// reads a null for an optional property as no value (the default applies,
// a pointer stays nil), reads the same arguments as Decode otherwise, and
// still reports a null for a required property.
func TestDecodeNullAsAbsent(t *testing.T) {
	tool := Module(&Tools{}).Tools[0]
	for _, tl := range Module(&Tools{}).Tools {
		if tl.Name == ToolSearch {
			tool = tl
		}
	}
	v, err := tool.DecodeWith([]byte(`{"query":"Acme","limit":null,"include_deleted":null}`), runtime.NullAsAbsent)
	a := v.(*SearchArgs)
	if err != nil || a.Limit != 10 || a.IncludeDeleted != nil || a.Query != "Acme" {
		t.Fatalf("NullAsAbsent: %+v %v", a, err)
	}
	if _, err := tool.DecodeWith([]byte(`{"query":"Acme","limit":null}`), 0); err == nil {
		t.Error("mode 0 took a null for limit")
	}
	if _, err := tool.DecodeWith([]byte(`{"query":null}`), runtime.NullAsAbsent); err == nil {
		t.Error("NullAsAbsent took a null for the required query")
	}
	v, err = tool.DecodeWith([]byte(`{"query":"Acme","limit":3}`), runtime.NullAsAbsent)
	if a := v.(*SearchArgs); err != nil || a.Limit != 3 {
		t.Errorf("a value in NullAsAbsent mode: %+v %v", a, err)
	}
}
