package mcp

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/generated/example"
	"github.com/toolgen/toolgen/generated/hitl"
	"github.com/toolgen/toolgen/runtime"
)

// byHeader identifies the caller by the X-User header (a stand-in for a
// bearer token's user, as auth.RequireBearerToken would give in TokenInfo).
func byHeader(_ context.Context, r Request) (*runtime.Call, error) {
	if r.TokenInfo != nil && r.TokenInfo.UserID != "" {
		return &runtime.Call{UserID: r.TokenInfo.UserID}, nil
	}
	u := r.Header.Get("X-User")
	if u == "" {
		return nil, errors.New("no X-User header")
	}
	return &runtime.Call{UserID: u, ConversationID: "http"}, nil
}

type userHeader struct {
	user string
	next http.RoundTripper
}

func (u userHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-User", u.user)
	return u.next.RoundTrip(r)
}

func connectHTTP(t testing.TB, endpoint, user string, copts *sdk.ClientOptions, version string) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, copts)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint:   endpoint,
		HTTPClient: &http.Client{Transport: userHeader{user, http.DefaultTransport}},
	}, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestServerHTTP(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		for _, v := range protocols {
			name := "stateful"
			if stateless {
				name = "stateless"
			}
			t.Run(name+"/protocol="+v, func(t *testing.T) {
				f := newFixture(t, nil)
				srv := NewServer(f.reg, ServerOptions{Identify: byHeader, Resolve: f.resolver()})
				defer srv.Close()
				hs := httptest.NewServer(srv.HTTPHandler(&sdk.StreamableHTTPOptions{Stateless: stateless}))
				t.Cleanup(hs.Close)

				progress := make(chan string, 10)
				alice := connectHTTP(t, hs.URL, "alice", &sdk.ClientOptions{
					ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
						return &sdk.ElicitResult{Action: "accept"}, nil
					},
					ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
						progress <- r.Params.Message
					},
				}, v)
				bob := connectHTTP(t, hs.URL, "bob", nil, v)
				if n := names(t, alice); len(n) != 11 {
					t.Errorf("alice's tools: %v", n)
				}
				if n := names(t, bob); len(n) != 10 {
					t.Errorf("bob's tools (crm_lookup gated out): %v", n)
				}
				if res := callTool(t, alice, "crm_lookup", `{}`); text(res) != "found" {
					t.Errorf("alice: crm_lookup: %q", text(res))
				}
				if res := callTool(t, bob, example.ToolAdd, `{"title":""}`); !res.IsError || res.Meta[MetaErrorKind] != string(runtime.ErrInvalidArgs) {
					t.Errorf("invalid call: %q", text(res))
				}
				_, err := bob.CallTool(context.Background(), &sdk.CallToolParams{Name: "nope", Arguments: map[string]any{}})
				var rpc *jsonrpc.Error
				if !errors.As(err, &rpc) || rpc.Code != jsonrpc.CodeInvalidParams {
					t.Errorf("unknown tool: %v", err)
				}
				// Over stateless HTTP a server cannot send requests, so the
				// SDK's legacy-protocol elicitation (a request back to the
				// client) needs a session; the latest protocol carries the
				// approval in the result and works without one.
				if !stateless || v == "" {
					if res := callTool(t, alice, "needs_approval", `{}`); text(res) != "ran after approval" {
						t.Errorf("approval: %q", text(res))
					}
				}
				// Progress reaches the client on the call's own stream, also
				// when stateless.
				params := &sdk.CallToolParams{Name: "progress", Arguments: map[string]any{}}
				params.SetProgressToken("p1")
				if res, err := alice.CallTool(context.Background(), params); err != nil || text(res) != "done" {
					t.Fatalf("progress: %v %v", res, err)
				}
				for _, want := range []string{"half way", "almost"} {
					select {
					case got := <-progress:
						if got != want {
							t.Errorf("progress %q, want %q", got, want)
						}
					case <-time.After(5 * time.Second):
						t.Fatalf("no progress notification %q", want)
					}
				}
				// Likewise a stateless server cannot tie the legacy
				// protocol's notifications/cancelled (a request of its own)
				// to the call; with the latest protocol the call's HTTP
				// request closing cancels it.
				if !stateless || v == "" {
					testProgressAndCancelHTTP(t, f, alice)
				}
			})
		}
	}
}

func testProgressAndCancelHTTP(t *testing.T, f *fixture, cs *sdk.ClientSession) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "slow", Arguments: map[string]any{}})
		done <- err
	}()
	<-f.slowStarted
	cancel()
	<-f.slowCancel
	if err := <-done; err == nil {
		t.Error("a cancelled call returned no error")
	}
}

const postgresEnv = "TOOLGEN_TEST_POSTGRES_DSN"

// postgresStores returns n hitl stores on one fresh PostgreSQL schema, as n
// server instances would have.
func postgresStores(t *testing.T, n int) []*hitl.Store {
	t.Helper()
	dsn := os.Getenv(postgresEnv)
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set but CI=true", postgresEnv)
		}
		t.Skipf("%s is not set", postgresEnv)
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "mcp_test_" + hex.EncodeToString(b[:])
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		admin.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
		admin.Close()
	})
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	var stores []*hitl.Store
	for range n {
		s, err := hitl.Open(context.Background(), "pgx", u.String(), hitl.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		stores = append(stores, s)
	}
	return stores
}

// roundRobin sends each HTTP request to the next instance, as a load
// balancer with no session affinity would, and counts them.
type roundRobin struct {
	mu    sync.Mutex
	next  int
	hs    []http.Handler
	calls []int // tools/call requests per instance
}

func (rr *roundRobin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rr.mu.Lock()
	i := rr.next
	rr.next = (rr.next + 1) % len(rr.hs)
	rr.mu.Unlock()
	rr.hs[i].ServeHTTP(w, r)
}

func TestServerStatelessAcrossInstances(t *testing.T) {
	stores := postgresStores(t, 2)
	var runs atomic.Int32 // stays 0: the fixtures count their own runs
	var rr roundRobin
	var fixtures []*fixture
	var paused [2]atomic.Int32 // paused calls per instance
	for i, st := range stores {
		f := newFixture(t, st)
		fixtures = append(fixtures, f)
		identify := func(ctx context.Context, r Request) (*runtime.Call, error) {
			c, err := byHeader(ctx, r)
			if c != nil {
				c.Events = func(e runtime.Event) {
					if e.Type == runtime.EventFinish && e.Status == runtime.StatusPaused {
						paused[i].Add(1)
					}
				}
			}
			return c, err
		}
		srv := NewServer(f.reg, ServerOptions{Identify: identify, Resolve: f.resolver()})
		t.Cleanup(srv.Close)
		rr.hs = append(rr.hs, srv.HTTPHandler(&sdk.StreamableHTTPOptions{Stateless: true}))
	}
	hs := httptest.NewServer(&rr)
	t.Cleanup(hs.Close)
	total := func() int32 { return fixtures[0].approvedRuns.Load() + fixtures[1].approvedRuns.Load() + runs.Load() }

	// 1. Elicitation: the pause is stored by one instance, the answer comes
	// back in a new request that the other instance takes.
	asked := 0
	cs := connectHTTP(t, hs.URL, "alice", &sdk.ClientOptions{
		ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			asked++
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"note": "fine"}}, nil
		},
	}, "")
	res := callTool(t, cs, "needs_approval", `{}`)
	if text(res) != "ran after approval" || asked != 1 || total() != 1 {
		t.Fatalf("elicited approval: %q, asked %d, runs %d", text(res), asked, total())
	}
	for i := range 2 {
		if paused[i].Load() == 1 && fixtures[1-i].approvedRuns.Load() != 1 {
			t.Fatalf("instance %d paused the call, but instance %d did not run it (runs %d, %d)", i, 1-i,
				fixtures[0].approvedRuns.Load(), fixtures[1].approvedRuns.Load())
		}
	}
	if paused[0].Load()+paused[1].Load() != 1 {
		t.Fatalf("paused %d and %d times", paused[0].Load(), paused[1].Load())
	}

	// 2. No elicitation: one instance pauses, the person approves in the
	// store, the resume lands on the other instance; a second resume is refused.
	plain := connectHTTP(t, hs.URL, "alice", nil, "")
	res = callTool(t, plain, "needs_approval", `{}`)
	id, _ := res.Meta[MetaPausePoint].(string)
	if id == "" {
		t.Fatalf("no pause point: %q", text(res))
	}
	if _, err := stores[1].Resolve(context.Background(), id, hitl.Resolution{Approve: true, By: "alice"}); err != nil {
		t.Fatal(err)
	}
	before := [2]int32{fixtures[0].approvedRuns.Load(), fixtures[1].approvedRuns.Load()}
	r1 := callToolMeta(t, plain, "needs_approval", sdk.Meta{MetaResume: id})
	r2 := callToolMeta(t, plain, "needs_approval", sdk.Meta{MetaResume: id})
	if text(r1) != "ran after approval" || !r2.IsError || !strings.Contains(text(r2), "already consumed") || total() != 2 {
		t.Fatalf("resume across instances: %q then %q; runs %d", text(r1), text(r2), total())
	}
	after := [2]int32{fixtures[0].approvedRuns.Load(), fixtures[1].approvedRuns.Load()}
	if after[0]-before[0]+after[1]-before[1] != 1 {
		t.Fatalf("runs per instance before %v after %v", before, after)
	}
	// Another user cannot resume it, even once approved.
	mallory := connectHTTP(t, hs.URL, "mallory", nil, "")
	res = callTool(t, plain, "needs_approval", `{}`)
	id, _ = res.Meta[MetaPausePoint].(string)
	if _, err := stores[0].Resolve(context.Background(), id, hitl.Resolution{Approve: true, By: "alice"}); err != nil {
		t.Fatal(err)
	}
	if r := callToolMeta(t, mallory, "needs_approval", sdk.Meta{MetaResume: id}); !r.IsError || !strings.Contains(text(r), "neither its owner nor authorised") {
		t.Errorf("mallory resumed alice's approved call: %q", text(r))
	}
	if r := callToolMeta(t, plain, "needs_approval", sdk.Meta{MetaResume: id}); text(r) != "ran after approval" || total() != 3 {
		t.Errorf("alice's resume after mallory's attempt: %q", text(r))
	}
}
