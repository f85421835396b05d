package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
)

// invokeServer is a go-sdk server whose tools answer Invoke's cases, and a
// client session connected to it in memory.
func invokeServer(t *testing.T) (*sdk.ClientSession, chan json.RawMessage) {
	t.Helper()
	got := make(chan json.RawMessage, 10)
	s := sdk.NewServer(&sdk.Implementation{Name: "invoke", Version: "1"}, nil)
	obj := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&sdk.Tool{Name: "rec.get", InputSchema: obj}, func(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		got <- r.Params.Arguments
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a record"}},
			StructuredContent: map[string]any{"id": 7, "name": "seven", "extra": true}}, nil
	})
	s.AddTool(&sdk.Tool{Name: "text_only", InputSchema: obj}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: `{"id":8,"name":"eight"}`}}}, nil
	})
	s.AddTool(&sdk.Tool{Name: "wrong", InputSchema: obj}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{StructuredContent: map[string]any{"id": "not a number"}}, nil
	})
	s.AddTool(&sdk.Tool{Name: "fails", InputSchema: obj}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "no such record"}}}, nil
	})
	ct, st := sdk.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, got
}

type recArgs struct {
	ID   int    `json:"id"`
	Note string `json:"note,omitempty"`
}

type rec struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

func TestInvoke(t *testing.T) {
	cs, got := invokeServer(t)
	ctx := context.Background()
	call := &runtime.Call{ToolName: "remote_get"}

	out, err := Invoke(ctx, cs, call, "rec.get", &recArgs{ID: 7}, new(rec))
	if err != nil || out.String() != `{"id":7,"name":"seven"}` || string(<-got) != `{"id":7}` {
		t.Errorf("typed: %q %v", out.String(), err)
	}
	// No typed result: the content as the server sent it.
	if out, err := Invoke(ctx, cs, call, "rec.get", &recArgs{ID: 7}, nil); err != nil || out.String() != "a record" {
		t.Errorf("untyped: %q %v", out.String(), err)
	}
	<-got
	if out, err := Invoke(ctx, cs, call, "text_only", &recArgs{}, new(rec)); err != nil || out.String() != `{"id":8,"name":"eight"}` {
		t.Errorf("typed from text: %q %v", out.String(), err)
	}
	var te *runtime.ToolError
	if _, err := Invoke(ctx, cs, call, "wrong", &recArgs{}, new(rec)); !errors.As(err, &te) || te.Kind != runtime.ErrExecution || te.Tool != "remote_get" {
		t.Errorf("a result of the wrong shape: %v", err)
	}
	if out, err := Invoke(ctx, cs, call, "fails", &recArgs{}, new(rec)); err != nil || !out.IsError || out.String() != "no such record" {
		t.Errorf("isError: %+v %v", out, err)
	}
	if _, err := Invoke(ctx, cs, call, "missing", &recArgs{}, nil); err == nil || runtime.IsFatal(err) {
		t.Errorf("unknown remote tool: %v", err)
	}
	if _, err := Invoke(ctx, nil, call, "rec.get", &recArgs{}, nil); !runtime.IsFatal(err) {
		t.Errorf("nil caller: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Invoke(cctx, cs, call, "rec.get", &recArgs{}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
