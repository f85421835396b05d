package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/generated/example"
	"github.com/toolgen/toolgen/generated/hitl"
	_ "github.com/toolgen/toolgen/generated/hitl/postgres"
	_ "github.com/toolgen/toolgen/generated/hitl/sqlite"
	"github.com/toolgen/toolgen/runtime"
)

// fixture is a registry with the example module and test tools, and what
// its tools observed.
type fixture struct {
	reg   *runtime.Registry
	store *hitl.Store

	approvedRuns atomic.Int32 // runs of needs_approval
	slowStarted  chan struct{}
	slowCancel   chan struct{} // closed when slow saw ctx.Done
	slowOnce     *sync.Once
}

func decodeAny(data []byte) (any, error) {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, &runtime.ValidationError{Violations: []runtime.Violation{{Path: "$", Message: err.Error()}}}
	}
	return m, nil
}

func newFixture(t testing.TB, store *hitl.Store) *fixture {
	t.Helper()
	return newFixtureWith(t, store, nil)
}

// newFixtureWith is newFixture whose registry claims through
// wrap(store) when wrap is not nil.
func newFixtureWith(t testing.TB, store *hitl.Store, wrap func(runtime.Approvals) runtime.Approvals) *fixture {
	t.Helper()
	if store == nil {
		var err error
		store, err = hitl.Open(context.Background(), "sqlite", filepath.Join(t.TempDir(), "hitl.db"), hitl.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
	}
	f := &fixture{store: store, slowStarted: make(chan struct{}, 1), slowCancel: make(chan struct{})}
	var approvals runtime.Approvals = store
	if wrap != nil {
		approvals = wrap(store)
	}
	f.reg = runtime.NewRegistry(runtime.Options{
		Approvals: approvals,
		Gates: runtime.GatesFunc(func(_ context.Context, c *runtime.Call, gate string) (bool, error) {
			return gate == "crm" && c.UserID == "alice", nil
		}),
	})
	if err := f.reg.AddModule(example.Module(example.New())); err != nil {
		t.Fatal(err)
	}
	flags := runtime.DefaultFlags()
	obj := json.RawMessage(`{"properties":{},"type":"object"}`)
	f.slowOnce = new(sync.Once)
	tools := []*runtime.Tool{
		{Name: "slow", Description: "Reports progress, then waits to be cancelled.", Schema: obj, Flags: flags, Decode: decodeAny,
			Execute: func(ctx context.Context, c *runtime.Call, _ any) (runtime.Result, error) {
				c.Progress("step 1")
				c.Progress("step 2")
				f.slowStarted <- struct{}{}
				select {
				case <-ctx.Done():
					f.slowOnce.Do(func() { close(f.slowCancel) })
					return runtime.Result{}, ctx.Err()
				case <-time.After(10 * time.Second):
					return runtime.Text("not cancelled"), nil
				}
			}},
		{Name: "progress", Description: "Reports progress and returns.", Schema: obj, Flags: flags, Decode: decodeAny,
			Execute: func(ctx context.Context, c *runtime.Call, _ any) (runtime.Result, error) {
				c.Progress("half way")
				c.Progress("almost")
				return runtime.Text("done"), nil
			}},
		{Name: "boom", Description: "Fails fatally.", Schema: obj, Flags: flags, Decode: decodeAny,
			Execute: func(context.Context, *runtime.Call, any) (runtime.Result, error) {
				return runtime.Result{}, runtime.Fatal(errors.New("the database is gone"))
			}},
		{Name: "typed", Description: "Returns a typed result.", Schema: obj, Flags: flags, Decode: decodeAny,
			ResultSchema: json.RawMessage(`{"properties":{"n":{"type":"integer"}},"required":["n"],"type":"object"}`),
			Execute: func(context.Context, *runtime.Call, any) (runtime.Result, error) {
				return runtime.JSON(map[string]int{"n": 7})
			}},
		{Name: "files", Description: "Returns files.", Schema: obj, Flags: flags, Decode: decodeAny,
			Execute: func(context.Context, *runtime.Call, any) (runtime.Result, error) {
				return runtime.Parts(runtime.TextPart("three files"),
					runtime.FilePart(runtime.File{Name: "a.png", MediaType: "image/png", Data: []byte("PNG")}),
					runtime.FilePart(runtime.File{Name: "b.wav", MediaType: "audio/wav", Data: []byte("WAV")}),
					runtime.FilePart(runtime.File{Name: "c.pdf", MediaType: "application/pdf", Data: []byte("PDF")}),
					runtime.FilePart(runtime.File{Name: "d", URL: "https://example.com/d"}),
				), nil
			}},
		{Name: "crm_lookup", Description: "Needs the crm connection.", Schema: obj, Flags: flags, Gate: "crm", Decode: decodeAny,
			Execute: func(context.Context, *runtime.Call, any) (runtime.Result, error) { return runtime.Text("found"), nil }},
		{Name: "needs_approval", Description: "Runs after a person approves.", Schema: obj, Decode: decodeAny,
			Flags: runtime.Flags{Enabled: true, RequiresApproval: true},
			Execute: func(_ context.Context, c *runtime.Call, _ any) (runtime.Result, error) {
				f.approvedRuns.Add(1)
				if c.Approval == nil {
					return runtime.Text("ran without approval"), nil
				}
				return runtime.Text("ran after approval"), nil
			}},
		{Name: "disabled", Description: "Never listed.", Schema: obj, Flags: runtime.Flags{}, Decode: decodeAny,
			Execute: func(context.Context, *runtime.Call, any) (runtime.Result, error) { return runtime.Text("no"), nil }},
	}
	if err := f.reg.Add(tools...); err != nil {
		t.Fatal(err)
	}
	return f
}

// byClientName identifies the caller by the client's name.
func byClientName(_ context.Context, r Request) (*runtime.Call, error) {
	user := ""
	if p := r.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
		user = p.ClientInfo.Name
	}
	return &runtime.Call{UserID: user, ConversationID: "mcp"}, nil
}

func (f *fixture) resolver() Resolver {
	return func(ctx context.Context, c *runtime.Call, id string, approve bool, note string) error {
		_, err := f.store.Resolve(ctx, id, hitl.Resolution{Approve: approve, Note: note, By: c.UserID})
		return err
	}
}

// connect serves srv in memory to a client named user.
func connect(t testing.TB, srv *Server, user string, copts *sdk.ClientOptions, version string) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	c := sdk.NewClient(&sdk.Implementation{Name: user, Version: "1"}, copts)
	cs, err := c.Connect(ctx, ct, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// protocols are the protocol versions the tests speak: the SDK's latest
// (stateless, input requests in results) and the last with initialize.
var protocols = []string{"", "2025-11-25"}

func names(t testing.TB, cs *sdk.ClientSession) []string {
	t.Helper()
	var out []string
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tool.Name)
	}
	return out
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

func callTool(t testing.TB, cs *sdk.ClientSession, name, args string) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

func TestServerListMatchesCatalog(t *testing.T) {
	f := newFixture(t, nil)
	srv := NewServer(f.reg, ServerOptions{Identify: byClientName, PageSize: 3})
	defer srv.Close()
	for _, v := range protocols {
		t.Run("protocol="+v, func(t *testing.T) {
			alice := connect(t, srv, "alice", nil, v)
			bob := connect(t, srv, "bob", nil, v)
			got := names(t, alice)
			want := []string{"tasks_list", "tasks_add", "tasks_complete", "tasks_delete", "slow", "progress", "boom", "typed", "files", "crm_lookup", "needs_approval"}
			if !slices.Equal(got, want) {
				t.Errorf("alice's tools (3 a page) = %v, want %v", got, want)
			}
			gotBob := names(t, bob)
			if slices.Contains(gotBob, "crm_lookup") || slices.Contains(gotBob, "disabled") || len(gotBob) != len(want)-1 {
				t.Errorf("bob's tools = %v: the gated tool (closed for bob) and the disabled one must be absent", gotBob)
			}

			// Each entry is the catalog's DialectMCP encoding.
			raw, err := f.reg.EncodeCatalog(context.Background(), &runtime.Call{UserID: "alice"}, runtime.DialectMCP, runtime.EncodeOptions{MCPOutputSchema: true})
			if err != nil {
				t.Fatal(err)
			}
			var local []map[string]any
			json.Unmarshal(raw, &local)
			var remote []map[string]any
			for tool, err := range alice.Tools(context.Background(), nil) {
				if err != nil {
					t.Fatal(err)
				}
				b, _ := json.Marshal(tool)
				var m map[string]any
				json.Unmarshal(b, &m)
				remote = append(remote, m)
			}
			lb, _ := json.Marshal(local)
			rb, _ := json.Marshal(remote)
			if string(lb) != string(rb) {
				t.Errorf("tools/list differs from the catalog:\n got %s\nwant %s", rb, lb)
			}
			// The example spec's title: and icons: reach the client.
			for tool, err := range alice.Tools(context.Background(), nil) {
				if err != nil {
					t.Fatal(err)
				}
				switch tool.Name {
				case "tasks_list":
					if tool.Title != "List tasks" || len(tool.Icons) != 1 || !strings.HasPrefix(tool.Icons[0].Source, "data:image/svg+xml;base64,") ||
						!slices.Equal(tool.Icons[0].Sizes, []string{"any"}) {
						t.Errorf("tasks_list: title %q, icons %+v", tool.Title, tool.Icons)
					}
				case "tasks_add":
					if tool.Title != "" || tool.Icons != nil {
						t.Errorf("tasks_add (neither in the spec): title %q, icons %+v", tool.Title, tool.Icons)
					}
				}
			}

			// A gated tool called anyway is the gate's tool error.
			res := callTool(t, bob, "crm_lookup", `{}`)
			if !res.IsError || res.Meta[MetaErrorKind] != string(runtime.ErrGate) {
				t.Errorf("bob calling crm_lookup: %+v, want a gate tool error", res)
			}
			if res := callTool(t, alice, "crm_lookup", `{}`); res.IsError || text(res) != "found" {
				t.Errorf("alice calling crm_lookup: %q", text(res))
			}
		})
	}
}

func TestServerCall(t *testing.T) {
	f := newFixture(t, nil)
	srv := NewServer(f.reg, ServerOptions{Identify: byClientName})
	defer srv.Close()
	for _, v := range protocols {
		t.Run("protocol="+v, func(t *testing.T) {
			cs := connect(t, srv, "alice", nil, v)

			res := callTool(t, cs, example.ToolAdd, `{"title":"Write the README `+v+`","tags":["docs"]}`)
			if res.IsError || !strings.Contains(text(res), `"title":"Write the README`) {
				t.Errorf("tasks_add: %+v %q", res, text(res))
			}

			// Invalid arguments: one tool-error result listing every violation.
			res = callTool(t, cs, example.ToolAdd, `{"title":"","priority":"urgent","due":"tomorrow","colour":"red"}`)
			vs, _ := res.Meta[MetaViolations].([]any)
			if !res.IsError || res.Meta[MetaErrorKind] != string(runtime.ErrInvalidArgs) || len(vs) != 4 {
				t.Errorf("invalid tasks_add: isError=%v meta=%v", res.IsError, res.Meta)
			}
			for _, p := range []string{"$.title", "$.priority", "$.due", "colour"} {
				if !strings.Contains(text(res), p) {
					t.Errorf("the invalid-arguments text does not mention %s:\n%s", p, text(res))
				}
			}

			// Unknown tool: JSON-RPC invalid params.
			_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "tasks_archive", Arguments: map[string]any{}})
			var rpc *jsonrpc.Error
			if !errors.As(err, &rpc) || rpc.Code != jsonrpc.CodeInvalidParams {
				t.Errorf("unknown tool: err = %v, want JSON-RPC %d", err, jsonrpc.CodeInvalidParams)
			}
			// A disabled tool is not served either.
			_, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "disabled", Arguments: map[string]any{}})
			if err == nil {
				if r := callTool(t, cs, "disabled", `{}`); !r.IsError {
					t.Errorf("disabled tool ran")
				}
			}

			// Fatal: JSON-RPC internal error, without the Go error's text.
			_, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "boom", Arguments: map[string]any{}})
			if !errors.As(err, &rpc) || rpc.Code != jsonrpc.CodeInternalError || strings.Contains(rpc.Message, "database") {
				t.Errorf("fatal: err = %v, want JSON-RPC %d without the cause", err, jsonrpc.CodeInternalError)
			}

			// Typed result: structuredContent and the same JSON as text.
			res = callTool(t, cs, "typed", `{}`)
			sc, _ := json.Marshal(res.StructuredContent)
			if string(sc) != `{"n":7}` || text(res) != `{"n":7}` {
				t.Errorf("typed: structured %s, text %q", sc, text(res))
			}

			// Files: image, audio, embedded resource, resource link.
			res = callTool(t, cs, "files", `{}`)
			if len(res.Content) != 5 {
				t.Fatalf("files: %d content blocks, want 5", len(res.Content))
			}
			img, ok1 := res.Content[1].(*sdk.ImageContent)
			aud, ok2 := res.Content[2].(*sdk.AudioContent)
			emb, ok3 := res.Content[3].(*sdk.EmbeddedResource)
			link, ok4 := res.Content[4].(*sdk.ResourceLink)
			if !ok1 || !ok2 || !ok3 || !ok4 || string(img.Data) != "PNG" || img.MIMEType != "image/png" ||
				string(aud.Data) != "WAV" || string(emb.Resource.Blob) != "PDF" || emb.Resource.MIMEType != "application/pdf" ||
				link.URI != "https://example.com/d" {
				t.Errorf("files: %#v", res.Content)
			}
			// and back: the client side maps them to the same parts.
			back := result(res)
			if len(back.Parts) != 5 || back.Parts[3].File.Name != "c.pdf" || string(back.Parts[1].File.Data) != "PNG" || back.Parts[4].File.URL != "https://example.com/d" {
				t.Errorf("files mapped back: %+v", back.Parts)
			}
		})
	}
}

func TestServerProgressAndCancel(t *testing.T) {
	f := newFixture(t, nil)
	srv := NewServer(f.reg, ServerOptions{Identify: byClientName})
	defer srv.Close()
	for _, v := range protocols {
		t.Run("protocol="+v, func(t *testing.T) { testProgressAndCancel(t, f, srv, v) })
	}
}

func testProgressAndCancel(t *testing.T, f *fixture, srv *Server, version string) {
	var mu sync.Mutex
	var got []string
	cs := connect(t, srv, "alice", &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, r.Params.Message)
			mu.Unlock()
		},
	}, version)
	params := &sdk.CallToolParams{Name: "progress", Arguments: map[string]any{}}
	params.SetProgressToken("tok-1")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || text(res) != "done" {
		t.Fatalf("progress: %v %v", res, err)
	}
	// Notifications are handled asynchronously: they may trail the result.
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := slices.Clone(got)
		mu.Unlock()
		if len(n) >= 2 || time.Now().After(deadline) {
			if !slices.Equal(n, []string{"half way", "almost"}) {
				t.Errorf("progress notifications = %q", n)
			}
			break
		}
		time.Sleep(5 * time.Millisecond)
	}

	// Cancellation mid-call reaches the executor's context.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "slow", Arguments: map[string]any{}})
		done <- err
	}()
	<-f.slowStarted
	cancel()
	select {
	case <-f.slowCancel:
		f.slowCancel = make(chan struct{})
		f.slowOnce = new(sync.Once)
	case <-time.After(5 * time.Second):
		t.Fatal("the executor's context was not cancelled")
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call returned %v", err)
	}
}

func TestServerApprovalElicitation(t *testing.T) {
	for _, v := range protocols {
		for _, action := range []string{"accept", "decline"} {
			t.Run("protocol="+v+"/"+action, func(t *testing.T) {
				f := newFixture(t, nil)
				srv := NewServer(f.reg, ServerOptions{Identify: byClientName, Resolve: f.resolver()})
				defer srv.Close()
				var asked []string
				cs := connect(t, srv, "alice", &sdk.ClientOptions{
					ElicitationHandler: func(_ context.Context, r *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
						asked = append(asked, r.Params.Message)
						return &sdk.ElicitResult{Action: action, Content: map[string]any{"note": "checked by alice"}}, nil
					},
				}, v)
				res := callTool(t, cs, "needs_approval", `{}`)
				if len(asked) != 1 || !strings.Contains(asked[0], "needs_approval") || !strings.Contains(asked[0], "requires approval") {
					t.Errorf("elicitation messages = %q", asked)
				}
				pending, err := f.store.ListPending(context.Background(), "alice")
				if err != nil || len(pending) != 0 {
					t.Errorf("pending after the decision: %v %v", pending, err)
				}
				switch action {
				case "accept":
					if res.IsError || text(res) != "ran after approval" || f.approvedRuns.Load() != 1 {
						t.Errorf("accepted: %q (isError %v), runs %d", text(res), res.IsError, f.approvedRuns.Load())
					}
				case "decline":
					if !res.IsError || res.Meta[MetaErrorKind] != string(runtime.ErrDenied) || !strings.Contains(text(res), "checked by alice") || f.approvedRuns.Load() != 0 {
						t.Errorf("declined: %q (meta %v), runs %d", text(res), res.Meta, f.approvedRuns.Load())
					}
				}
			})
		}
	}
}

func TestServerApprovalWithoutElicitation(t *testing.T) {
	f := newFixture(t, nil)
	srv := NewServer(f.reg, ServerOptions{Identify: byClientName, Resolve: f.resolver()})
	defer srv.Close()
	cs := connect(t, srv, "alice", nil, "") // no elicitation capability
	mallory := connect(t, srv, "mallory", nil, "")
	res := callTool(t, cs, "needs_approval", `{}`)
	id, _ := res.Meta[MetaPausePoint].(string)
	if res.IsError || id == "" || !strings.Contains(text(res), "waiting for a person's approval") {
		t.Fatalf("paused call: %q meta %v", text(res), res.Meta)
	}
	p, err := f.store.Get(context.Background(), id)
	if err != nil || p.Status != hitl.StatusPending || p.Tool != "needs_approval" || p.UserID != "alice" {
		t.Fatalf("stored pause point: %+v %v", p, err)
	}
	resume := func() *sdk.CallToolResult {
		return callToolMeta(t, cs, "needs_approval", sdk.Meta{MetaResume: id})
	}
	if r := resume(); !r.IsError || !strings.Contains(text(r), "not resolved") {
		t.Errorf("resume before the decision: %q", text(r))
	}
	if _, err := f.store.Resolve(context.Background(), id, hitl.Resolution{Approve: true, By: "alice"}); err != nil {
		t.Fatal(err)
	}
	if r := callToolMeta(t, mallory, "needs_approval", sdk.Meta{MetaResume: id}); !r.IsError || !strings.Contains(text(r), "neither its owner nor authorised") {
		t.Errorf("mallory resuming alice's approved call: %q", text(r))
	}
	if r := resume(); r.IsError || text(r) != "ran after approval" {
		t.Errorf("resume: %q", text(r))
	}
	if r := resume(); !r.IsError || !strings.Contains(text(r), "already consumed") || f.approvedRuns.Load() != 1 {
		t.Errorf("second resume: %q; runs %d", text(r), f.approvedRuns.Load())
	}
}

func callToolMeta(t testing.TB, cs *sdk.ClientSession, name string, meta sdk.Meta) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Meta: meta, Name: name, Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

func TestServerListChanged(t *testing.T) {
	f := newFixture(t, nil)
	srv := NewServer(f.reg, ServerOptions{Identify: byClientName})
	defer srv.Close()
	for _, v := range protocols {
		t.Run("protocol="+v, func(t *testing.T) {
			changed := make(chan struct{}, 10)
			cs := connect(t, srv, "alice", &sdk.ClientOptions{
				ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} },
			}, v)
			before := names(t, cs)
			f.reg.Remove("boom")
			select {
			case <-changed:
			case <-time.After(5 * time.Second):
				t.Fatal("no tools/list_changed after Remove")
			}
			after := names(t, cs)
			if len(after) != len(before)-1 || slices.Contains(after, "boom") {
				t.Errorf("after removing boom: %v", after)
			}
			// Put it back for the next protocol.
			if err := f.reg.Add(&runtime.Tool{Name: "boom", Schema: json.RawMessage(`{"type":"object"}`), Flags: runtime.DefaultFlags(), Decode: decodeAny,
				Execute: func(context.Context, *runtime.Call, any) (runtime.Result, error) { return runtime.Text(""), nil }}); err != nil {
				t.Fatal(err)
			}
			select {
			case <-changed:
			case <-time.After(5 * time.Second):
				t.Fatal("no tools/list_changed after Add")
			}
		})
	}
}
