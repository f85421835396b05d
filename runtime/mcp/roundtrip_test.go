package mcp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/generated/example"
	"github.com/toolgen/toolgen/generated/hitl"
	"github.com/toolgen/toolgen/runtime"
)

// shipped returns a registry of the shipped modules that need no network
// (tasks and hitl; stripe's tools are gated on a key).
func shipped(t testing.TB) *runtime.Registry {
	t.Helper()
	store, err := hitl.Open(context.Background(), "sqlite", filepath.Join(t.TempDir(), "hitl.db"), hitl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	reg := runtime.NewRegistry(runtime.Options{Approvals: store})
	for _, m := range []*runtime.Module{example.Module(example.New()), hitl.Module(&hitl.Tools{Store: store})} {
		if err := reg.AddModule(m); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// TestRoundTrip serves the shipped modules, imports them back into another
// registry, and checks that every tool's catalog entry and a call of each
// match the local ones.
func TestRoundTrip(t *testing.T) {
	local := shipped(t)
	served := shipped(t)
	srv := NewServer(served, ServerOptions{Identify: func(context.Context, Request) (*runtime.Call, error) {
		return &runtime.Call{UserID: "ada"}, nil
	}})
	defer srv.Close()
	imported := runtime.NewRegistry(runtime.Options{})
	remote, err := Import(context.Background(), imported, func() sdk.Transport {
		ct, st := sdk.NewInMemoryTransports()
		if _, err := srv.Connect(context.Background(), st); err != nil {
			t.Fatal(err)
		}
		return ct
	}, ImportOptions{TrustReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()

	call := &runtime.Call{UserID: "ada"}
	want, err := local.Catalog(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	got, err := imported.Catalog(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("imported %d tools, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		// MCP's annotations carry no approval requirement: the serving
		// registry still asks for it; the importing one cannot know.
		wf := w.Flags
		wf.RequiresApproval = false
		if g.Name != w.Name || g.Description != w.Description || !sameJSON(g.Schema, w.Schema) || g.Flags != wf ||
			(len(w.ResultSchema) > 0) != (len(g.ResultSchema) > 0) || (len(w.ResultSchema) > 0 && !sameJSON(g.ResultSchema, w.ResultSchema)) {
			t.Errorf("tool %d:\n got %s %q %s %+v %s\nwant %s %q %s %+v %s", i,
				g.Name, g.Description, g.Schema, g.Flags, g.ResultSchema, w.Name, w.Description, w.Schema, wf, w.ResultSchema)
		}
		lm, _ := runtime.EncodeTools(runtime.DialectMCP, []*runtime.Tool{w}, nil, runtime.EncodeOptions{MCPOutputSchema: true})
		im, _ := runtime.EncodeTools(runtime.DialectMCP, []*runtime.Tool{g}, nil, runtime.EncodeOptions{MCPOutputSchema: true})
		if !sameJSON(lm, im) {
			t.Errorf("MCP entries differ:\n got %s\nwant %s", im, lm)
		}
	}

	for _, c := range []struct{ name, args string }{
		{example.ToolAdd, `{"title":"Write the README","tags":["docs"]}`},
		{example.ToolAdd, `{"title":"","priority":"urgent"}`},
		{example.ToolList, `{}`},
		{example.ToolComplete, `{"id":1}`},
		{example.ToolDelete, `{"id":1}`},
		{example.ToolDelete, `{"id":42}`},
		{hitl.ToolWaitForApproval, `{"action":"Send invoice INV-42"}`},
	} {
		lo := dispatch(t, local, call, c.name, c.args)
		io := dispatch(t, imported, call, c.name, c.args)
		if lo.Err != nil && lo.Err.Kind == runtime.ErrInvalidArgs {
			// The importing registry validates against the inputSchema
			// itself (the call never leaves it), in the validator's words:
			// the same violations at the same paths.
			if io.Err == nil || io.Err.Kind != runtime.ErrInvalidArgs || !reflect.DeepEqual(paths(io.Err.Violations), paths(lo.Err.Violations)) {
				t.Errorf("%s %s: imported %+v, local %+v", c.name, c.args, io.Err, lo.Err)
			}
			continue
		}
		if lo.Result.String() != io.Result.String() || lo.Result.IsError != io.Result.IsError {
			t.Errorf("%s %s:\n imported %s %q\n    local %s %q", c.name, c.args, io.Status, io.Result.String(), lo.Status, lo.Result.String())
		}
		// A pause on the server is a result the importing registry reads
		// (with the pause point's id in its _meta, which parts drop).
		want := lo.Status
		if want == runtime.StatusPaused {
			want = runtime.StatusOK
		}
		if io.Status != want {
			t.Errorf("%s: status %s, local %s", c.name, io.Status, lo.Status)
		}
	}
}

func paths(vs []runtime.Violation) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Path)
	}
	slices.Sort(out)
	return out
}
