package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// withOnly is newItemTool with DecodeWith in place of Decode, as generated
// tools are; modes records the mode of every DecodeWith call.
func withOnly(modes *[]DecodeMode) *Tool {
	tool := newItemTool(squareExec)
	tool.Decode = nil
	tool.DecodeWith = func(data []byte, mode DecodeMode) (any, error) {
		*modes = append(*modes, mode)
		return strictDecode(data)
	}
	return tool
}

// TestDecodeWithOnly: a tool without Decode is decoded with DecodeWith in
// the zero mode, by Tool.DecodeArgs, by the registry's pipeline and by a
// batch tool over it; a tool with neither is refused by Add and
// Parallelize, and DecodeArgs reports it.
func TestDecodeWithOnly(t *testing.T) {
	var modes []DecodeMode
	tool := withOnly(&modes)

	v, err := tool.DecodeArgs([]byte(`{"n":3}`))
	if a, ok := v.(*itemArgs); err != nil || !ok || a.N != 3 {
		t.Fatalf("DecodeArgs = %#v, %v", v, err)
	}
	_, err = tool.DecodeArgs([]byte(`{"n":-1}`))
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Violations[0].Path != "$.n" {
		t.Fatalf("DecodeArgs of a bad value: %v", err)
	}
	if len(modes) != 2 || modes[0] != 0 || modes[1] != 0 {
		t.Fatalf("DecodeArgs used modes %v, want the zero mode", modes)
	}

	r := NewRegistry(Options{Gates: GatesFunc(func(context.Context, *Call, string) (bool, error) { return true, nil })})
	batch := mustParallelize(t, tool, ParallelizeOptions{})
	if err := r.Add(tool, batch); err != nil {
		t.Fatal(err)
	}
	modes = nil
	out, err := r.Dispatch(context.Background(), &Call{}, ToolCall{Name: "square", Arguments: json.RawMessage(`{"n":4}`)})
	if err != nil || out.Result.String() != "16" || len(modes) != 1 || modes[0] != 0 {
		t.Fatalf("dispatch: %q, %v, modes %v", out.Result.String(), err, modes)
	}
	out, err = r.Dispatch(context.Background(), &Call{}, ToolCall{Name: "square", Arguments: json.RawMessage(`{"n":"x"}`)})
	if err != nil || !out.Result.IsError || !strings.Contains(out.Result.String(), "$.n") {
		t.Fatalf("dispatch of bad arguments: %q, %v", out.Result.String(), err)
	}

	modes = nil
	items, err := runBatch(context.Background(), t, batch, &Call{}, itemsJSON(`{"n":2}`, `{"n":5}`))
	if err != nil || len(items) != 2 || len(modes) != 2 {
		t.Fatalf("batch: %+v, %v, modes %v", items, err, modes)
	}
	if _, err := batch.Decode([]byte(itemsJSON(`{"n":-2}`))); !errors.As(err, &ve) || ve.Violations[0].Path != "$.items[0].n" {
		t.Fatalf("batch of a bad item: %v", err)
	}

	neither := newItemTool(squareExec)
	neither.Decode = nil
	if _, err := neither.DecodeArgs([]byte(`{}`)); err == nil || !strings.Contains(err.Error(), "neither Decode nor DecodeWith") {
		t.Errorf("DecodeArgs of a tool without decoders: %v", err)
	}
	if err := NewRegistry(Options{}).Add(neither); err == nil || !strings.Contains(err.Error(), "needs Decode (or DecodeWith) and Execute") {
		t.Errorf("Add of a tool without decoders: %v", err)
	}
	if _, err := Parallelize(neither, ParallelizeOptions{}); err == nil {
		t.Error("Parallelize of a tool without decoders: no error")
	}
}
