package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
)

// Caller calls a remote MCP server's tools: a connected
// *sdk.ClientSession of the go-sdk satisfies it. The generated module of a
// spec with mcp: bindings (toolgen import mcp) takes one, and its bound
// tools' executors call through it with Invoke.
type Caller interface {
	CallTool(ctx context.Context, params *sdk.CallToolParams) (*sdk.CallToolResult, error)
}

// Invoke runs the remote tool named tool through c with args (marshalled
// to JSON: the generated Args struct of an MCP-bound tool) for call, and
// returns its result as Import's tools do: content as result parts,
// isError as a tool error. With typed not nil (the generated Result
// struct of a tool whose spec has one), the remote's structuredContent —
// or its one text block, when it sends none — is decoded into typed and
// returned as runtime.JSON, so the model sees exactly the typed fields; a
// result that does not decode is an execution tool error. Cancelling ctx
// cancels the remote call (the go-sdk sends notifications/cancelled) and
// returns ctx's error.
func Invoke(ctx context.Context, c Caller, call *runtime.Call, tool string, args, typed any) (runtime.Result, error) {
	if c == nil {
		return runtime.Result{}, runtime.Fatal(fmt.Errorf("runtime/mcp: %s: no MCP caller: the module was given a nil Caller", tool))
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return runtime.Result{}, runtime.Fatal(fmt.Errorf("runtime/mcp: %s: encoding the arguments: %w", tool, err))
	}
	res, err := c.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: json.RawMessage(raw)})
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return runtime.Result{}, cerr
		}
		var rpc *jsonrpc.Error
		if errors.As(err, &rpc) {
			return runtime.Result{}, fmt.Errorf("its MCP server refused the call: %w", err)
		}
		return runtime.Result{}, fmt.Errorf("the connection to its MCP server failed during the call: %w", err)
	}
	out := result(res)
	if typed == nil || res.IsError {
		return out, nil
	}
	var data []byte
	switch {
	case res.StructuredContent != nil:
		data, err = json.Marshal(res.StructuredContent)
	case len(out.Parts) == 1 && out.Parts[0].Type == runtime.PartText:
		data = []byte(out.Parts[0].Text)
	default:
		err = errors.New("it sent neither structuredContent nor one text block")
	}
	if err == nil {
		err = json.Unmarshal(data, typed)
	}
	if err != nil {
		te := &runtime.ToolError{Kind: runtime.ErrExecution, Err: err,
			Message: "the MCP server's result is not the JSON the tool expects: " + err.Error()}
		if call != nil {
			te.Tool = call.ToolName
		}
		return runtime.Result{}, te
	}
	return runtime.JSON(typed)
}
