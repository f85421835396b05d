package main

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/generated/example"
	"github.com/toolgen/toolgen/generated/hitl"
)

// buildServer builds this command into a temporary directory.
func buildServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcpserver")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func text(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestStdio runs the built binary as an MCP client's subprocess would.
func TestStdio(t *testing.T) {
	bin := buildServer(t)
	db := filepath.Join(t.TempDir(), "hitl.db")
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("protocol="+version, func(t *testing.T) {
			ctx := context.Background()
			cmd := exec.Command(bin, "-user", "ada", "-db", db)
			cmd.Env = append(cmd.Environ(), "STRIPE_API_KEY=")
			var asked []string
			client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{
				ElicitationHandler: func(_ context.Context, r *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
					asked = append(asked, r.Params.Message)
					return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"note": "go ahead"}}, nil
				},
			})
			cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, &sdk.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()

			var names []string
			for tool, err := range cs.Tools(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				names = append(names, tool.Name)
			}
			want := []string{example.ToolList, example.ToolAdd, example.ToolComplete, example.ToolDelete, hitl.ToolWaitForApproval}
			if !slices.Equal(names, want) {
				t.Errorf("tools = %v, want %v (stripe's are gated out without a key)", names, want)
			}

			call := func(name, args string) (*sdk.CallToolResult, error) {
				return cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
			}
			res, err := call(example.ToolAdd, `{"title":"Ship the MCP server","priority":"high"}`)
			if err != nil || res.IsError || !strings.Contains(text(res), `"id":1`) {
				t.Errorf("tasks_add: %v %q", err, text(res))
			}
			res, err = call(example.ToolAdd, `{"title":"","priority":"urgent"}`)
			if err != nil || !res.IsError || !strings.Contains(text(res), "$.title") || !strings.Contains(text(res), "$.priority") {
				t.Errorf("invalid tasks_add: %v %q", err, text(res))
			}
			_, err = call("stripe_nothing", `{}`)
			var rpc *jsonrpc.Error
			if !errors.As(err, &rpc) || rpc.Code != jsonrpc.CodeInvalidParams {
				t.Errorf("unknown tool: %v", err)
			}
			res, err = call(hitl.ToolWaitForApproval, `{"action":"Send invoice INV-42","risk":"high"}`)
			if err != nil || res.IsError || len(asked) != 1 || !strings.Contains(asked[0], "Send invoice INV-42") ||
				!strings.Contains(text(res), `"approved":true`) || !strings.Contains(text(res), `"note":"go ahead"`) {
				t.Errorf("wait_for_approval: %v %q, asked %q", err, text(res), asked)
			}
		})
	}
}
