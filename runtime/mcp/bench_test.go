package mcp

import (
	"context"
	"encoding/json"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/generated/example"
	"github.com/toolgen/toolgen/runtime"
)

// BenchmarkCall compares a tools/call through the server, in memory with
// the go-sdk client, against the direct Dispatch it makes: the ratio is
// the protocol's cost per call.
func BenchmarkCall(b *testing.B) {
	reg := runtime.NewRegistry(runtime.Options{})
	if err := reg.AddModule(example.Module(example.New())); err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"query":"readme","limit":5}`)
	ctx := context.Background()
	b.Run("dispatch", func(b *testing.B) {
		call := &runtime.Call{UserID: "ada"}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := reg.Dispatch(ctx, call, runtime.ToolCall{ID: "c", Name: example.ToolList, Arguments: args}); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, v := range protocols {
		// The SDK alone: a bare go-sdk server whose tool handler answers
		// at once, to tell the transport's cost from the server's.
		b.Run("sdk-only/protocol="+v, func(b *testing.B) {
			s := sdk.NewServer(&sdk.Implementation{Name: "bare", Version: "1"}, nil)
			s.AddTool(&sdk.Tool{Name: example.ToolList, InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
					return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "[]"}}}, nil
				})
			ct, st := sdk.NewInMemoryTransports()
			ss, err := s.Connect(ctx, st, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer ss.Close()
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "ada", Version: "1"}, nil).Connect(ctx, ct, &sdk.ClientSessionOptions{ProtocolVersion: v})
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			params := &sdk.CallToolParams{Name: example.ToolList, Arguments: args}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := cs.CallTool(ctx, params); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("mcp-in-memory/protocol="+v, func(b *testing.B) {
			srv := NewServer(reg, ServerOptions{Identify: func(context.Context, Request) (*runtime.Call, error) {
				return &runtime.Call{UserID: "ada"}, nil
			}})
			defer srv.Close()
			cs := connect(b, srv, "ada", nil, v)
			params := &sdk.CallToolParams{Name: example.ToolList, Arguments: args}
			b.ReportAllocs()
			for b.Loop() {
				res, err := cs.CallTool(ctx, params)
				if err != nil || res.IsError {
					b.Fatal(err, res)
				}
			}
		})
	}
}

// BenchmarkValidate compares an imported tool's validation (its
// inputSchema compiled by the JSON Schema validator) against the
// generated decoder of the same schema, on valid arguments.
func BenchmarkValidate(b *testing.B) {
	tool := example.Module(example.New()).Tools[1] // tasks_add
	if tool.Name != example.ToolAdd {
		b.Fatal(tool.Name)
	}
	v, err := compileSchema(tool.Schema)
	if err != nil {
		b.Fatal(err)
	}
	args := []byte(`{"title":"Write the README","priority":"high","due":"2026-12-24","tags":["docs","release"]}`)
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := tool.DecodeArgs(args); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("imported", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := v.decode(args); err != nil {
				b.Fatal(err)
			}
		}
	})
}
