package mcp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/generated/example"
	"github.com/toolgen/toolgen/generated/hitl"
	"github.com/toolgen/toolgen/generated/stripe"
	"github.com/toolgen/toolgen/internal/stripemock"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/websearch"
)

// fakeSearch is a web search backend that finds one page per query.
type fakeSearch struct{}

func (fakeSearch) Name() string { return "fake" }

func (fakeSearch) Search(_ context.Context, req websearch.Request) (websearch.Response, error) {
	return websearch.Response{Results: []websearch.Result{{Title: "About " + req.Query, URL: "https://example.com/" + req.Query,
		Snippets: []string{"All about " + req.Query + "."}}}}, nil
}

// shipped returns a registry of the shipped modules: tasks, hitl, web
// search (a typed result) on a fake backend, and stripe on stripe-mock at
// stripeURL, its gate open for every user.
func shipped(t testing.TB, stripeURL string) *runtime.Registry {
	t.Helper()
	store, err := hitl.Open(context.Background(), "sqlite", filepath.Join(t.TempDir(), "hitl.db"), hitl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	keys := stripe.KeySourceFunc(func(context.Context, *runtime.Call) (string, bool, error) {
		return stripemock.TestKey, true, nil
	})
	reg := runtime.NewRegistry(runtime.Options{Approvals: store, Gates: stripe.Gates(keys, nil)})
	now := func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }
	for _, m := range []*runtime.Module{
		example.Module(example.New()),
		hitl.Module(&hitl.Tools{Store: store}),
		websearch.Module(&websearch.Tools{Backend: fakeSearch{}}),
		stripe.Module(&stripe.Tools{Keys: keys, BaseURL: stripeURL, MaxNetworkRetries: -1, Now: now}),
	} {
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
	base := stripemock.Start(t)
	local := shipped(t, base)
	served := shipped(t, base)
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

	typed := 0 // calls of tools with a typed result (structuredContent on the wire)
	for _, c := range []struct{ name, args string }{
		{example.ToolAdd, `{"title":"Write the README","tags":["docs"]}`},
		{example.ToolAdd, `{"title":"","priority":"urgent"}`},
		{example.ToolList, `{}`},
		{example.ToolComplete, `{"id":1}`},
		{example.ToolDelete, `{"id":1}`},
		{example.ToolDelete, `{"id":42}`},
		{hitl.ToolWaitForApproval, `{"action":"Send invoice INV-42"}`},
		{websearch.ToolWebSearch, `{"query":"  mcp  "}`},
		{stripe.ToolListCustomers, `{"limit":3}`},
		{stripe.ToolListPayments, `{}`},
		{stripe.ToolListSubscriptions, `{}`},
		{stripe.ToolRevenueMetrics, `{}`},
		{stripe.ToolCreateSubscription, `{"customer":"cus_123","price":"price_123"}`},
		{stripe.ToolListCustomers, `{"limit":500}`},
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
		if lt, _ := local.Get(c.name); len(lt.ResultSchema) > 0 && lo.Status == runtime.StatusOK {
			typed++
		}
	}
	if typed == 0 {
		t.Error("no call of a tool with a typed result")
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
