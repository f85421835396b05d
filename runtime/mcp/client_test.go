package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
)

// serverEnv makes the test binary an MCP server over stdio (see TestMain).
const serverEnv = "TOOLGEN_MCP_TEST_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) != "" {
		err := remoteServer(func() { os.Exit(3) }, nil).Run(context.Background(), &sdk.StdioTransport{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const (
	pickSchema = `{"type":"object",` +
		`"$defs":{"point":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x"]}},` +
		`"properties":{"choice":{"anyOf":[{"const":"a"},{"type":"integer","minimum":10}]},"at":{"$ref":"#/$defs/point"},` +
		`"mode":{"const":"fast"}},"required":["choice"],"additionalProperties":false}`
	longName = "a_tool_name_that_is_far_too_long_for_the_providers_to_accept_as_it_is"
)

// remoteServer is a plain go-sdk server with schemas outside toolgen's own
// subset. die is what the die tool does; slowCancelled, when not nil, is
// closed when slow sees its context cancelled.
func remoteServer(die func(), slowCancelled chan struct{}) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "remote", Version: "1"}, &sdk.ServerOptions{PageSize: 2})
	echo := func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "got " + string(req.Params.Arguments)}}}, nil
	}
	no, yes := false, true
	s.AddTool(&sdk.Tool{Name: "pick", Description: "Pick one.", InputSchema: json.RawMessage(pickSchema)}, echo)
	s.AddTool(&sdk.Tool{Name: "files.read", Description: "Read a file.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &no, OpenWorldHint: &no, Title: "Read"},
		Title:       "Read a file",
		Icons:       []sdk.Icon{{Source: "https://example.com/file.png", MIMEType: "image/png", Sizes: []string{"32x32"}, Theme: sdk.IconThemeDark}}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.TextContent{Text: "contents"},
				&sdk.ImageContent{MIMEType: "image/png", Data: []byte("PNG")},
			}}, nil
		})
	s.AddTool(&sdk.Tool{Name: longName, InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: &yes}}, echo)
	s.AddTool(&sdk.Tool{Name: "fails", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "no such file"}}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "slow", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: tok, Message: "warming up", Progress: 1})
			}
			select {
			case <-ctx.Done():
				if slowCancelled != nil {
					close(slowCancelled)
				}
				return nil, ctx.Err()
			case <-time.After(20 * time.Second):
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "slept"}}}, nil
			}
		})
	s.AddTool(&sdk.Tool{Name: "die", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			die()
			return nil, errors.New("dead")
		})
	s.AddTool(&sdk.Tool{Name: "bad_ref", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`)}, echo)
	return s
}

// stdioServer starts the test binary as the remote server, anew each time.
func stdioServer() sdk.Transport {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serverEnv+"=1")
	return &sdk.CommandTransport{Command: cmd, TerminateDuration: time.Second}
}

var callIDs atomic.Int64

func dispatch(t testing.TB, reg *runtime.Registry, call *runtime.Call, name, args string) runtime.Outcome {
	t.Helper()
	id := "c" + strconv.FormatInt(callIDs.Add(1), 10) // pause points are per tool call id
	out, err := reg.Dispatch(context.Background(), call, runtime.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("dispatch %s: %v", name, err)
	}
	return out
}

func TestImport(t *testing.T) {
	var cancelled chan struct{} // the HTTP server's slow saw its context cancelled
	transports := map[string]func(t *testing.T) Connector{
		"stdio": func(*testing.T) Connector { return stdioServer },
		"http": func(t *testing.T) Connector {
			cancelled = make(chan struct{})
			srv := remoteServer(func() {}, cancelled)
			hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
			t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() })
			return HTTP(hs.URL, nil)
		},
	}
	for name, transport := range transports {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			reg := runtime.NewRegistry(runtime.Options{})
			remote, err := Import(ctx, reg, transport(t), ImportOptions{Prefix: "r_", TrustReadOnly: true, Provider: "remote"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { remote.Close() })

			// Names: every page, prefixed, aliased where providers refuse them.
			dotted, long := Alias("r_files.read"), Alias("r_"+longName)
			want := []string{"r_pick", dotted, long, "r_fails", "r_slow", "r_die"}
			got := remote.Tools()
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("imported %v, want %v", got, want)
			}
			if !strings.HasPrefix(dotted, "r_files_read_") || len(long) != 64 {
				t.Errorf("aliases %q, %q", dotted, long)
			}
			if n, ok := remote.RemoteName(dotted); !ok || n != "files.read" {
				t.Errorf("RemoteName(%q) = %q, %v", dotted, n, ok)
			}
			if p := remote.Problems(); len(p) != 1 || !strings.Contains(p[0].Error(), "bad_ref") {
				t.Errorf("problems = %v, want bad_ref's $ref refused", p)
			}
			if _, err := runtime.EncodeTools(runtime.DialectAnthropic, reg.Executable(), nil, runtime.EncodeOptions{}); err != nil {
				t.Errorf("the imported catalog does not encode for Anthropic: %v", err)
			}

			// Flags: no annotations → the safe defaults; trusted readOnlyHint.
			pick, _ := reg.Get("r_pick")
			if pick.Source != runtime.SourceMCP || pick.Provider != "remote" || !pick.Flags.Destructive || !pick.Flags.OpenWorld || pick.Flags.ReadOnly || pick.Flags.ConcurrencySafe {
				t.Errorf("r_pick: source %v flags %+v", pick.Source, pick.Flags)
			}
			read, _ := reg.Get(dotted)
			if !read.Flags.ReadOnly || !read.Flags.ConcurrencySafe || read.Flags.Destructive || read.Flags.OpenWorld {
				t.Errorf("files.read flags %+v", read.Flags)
			}
			wantIcons := []runtime.Icon{{Src: "https://example.com/file.png", MIMEType: "image/png", Sizes: []string{"32x32"}, Theme: "dark"}}
			if read.Title != "Read a file" || !reflect.DeepEqual(read.Icons, wantIcons) {
				t.Errorf("files.read: title %q, icons %+v; want the remote tool's", read.Title, read.Icons)
			}

			// Calls: valid, invalid (every violation, the server never asked), isError.
			if out := dispatch(t, reg, nil, "r_pick", `{"choice":12,"at":{"x":1.5}}`); out.Status != runtime.StatusOK || out.Result.String() != `got {"choice":12,"at":{"x":1.5}}` {
				t.Errorf("r_pick: %s %q", out.Status, out.Result.String())
			}
			out := dispatch(t, reg, nil, "r_pick", `{"choice":"b","at":{"y":"up"},"mode":"slow","extra":1}`)
			paths := map[string]bool{}
			if out.Err != nil {
				for _, v := range out.Err.Violations {
					paths[v.Path] = true
				}
			}
			if out.Err == nil || out.Err.Kind != runtime.ErrInvalidArgs || !paths["$.choice"] || !paths["$.at"] || !paths["$.at.y"] || !paths["$.mode"] || !paths["$"] {
				t.Errorf("invalid r_pick: %v\n%s", paths, out.Result.String())
			}
			if out := dispatch(t, reg, nil, dotted, `{"path":"/tmp/x"}`); out.Status != runtime.StatusOK || len(out.Result.Parts) != 2 || string(out.Result.Parts[1].File.Data) != "PNG" {
				t.Errorf("files.read: %+v", out.Result)
			}
			if out := dispatch(t, reg, nil, "r_fails", `{}`); out.Status != runtime.StatusError || out.Err.Kind != runtime.ErrExecution || !strings.Contains(out.Result.String(), "no such file") {
				t.Errorf("fails: %s %q", out.Status, out.Result.String())
			}

			// Progress is forwarded; cancellation ends the call.
			var mu sync.Mutex
			var progress []string
			call := &runtime.Call{Events: func(e runtime.Event) {
				if e.Type == runtime.EventProgress {
					mu.Lock()
					progress = append(progress, e.Message)
					mu.Unlock()
				}
			}}
			cctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
			_, err = reg.Dispatch(cctx, call, runtime.ToolCall{Name: "r_slow", Arguments: json.RawMessage(`{}`)})
			cancel()
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("slow with a deadline: %v", err)
			}
			mu.Lock()
			if !slices.Equal(progress, []string{"warming up"}) {
				t.Errorf("progress = %q", progress)
			}
			mu.Unlock()

			if name != "stdio" {
				select {
				case <-cancelled:
				case <-time.After(5 * time.Second):
					t.Error("the HTTP server's handler was not cancelled")
				}
				return
			}
			// The server dies mid-call: a tool error; the next call reconnects.
			out = dispatch(t, reg, nil, "r_die", `{}`)
			if out.Status != runtime.StatusError || out.Err.Kind != runtime.ErrExecution {
				t.Errorf("die: %s %q", out.Status, out.Result.String())
			}
			if out := dispatch(t, reg, nil, "r_pick", `{"choice":"a"}`); out.Status != runtime.StatusOK {
				t.Errorf("after the server died: %s %q", out.Status, out.Result.String())
			}
		})
	}
}

func TestImportCancellationReachesServer(t *testing.T) {
	cancelled := make(chan struct{})
	srv := remoteServer(func() {}, cancelled)
	reg := runtime.NewRegistry(runtime.Options{})
	remote, err := Import(context.Background(), reg, inMemory(srv), ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := reg.Dispatch(ctx, nil, runtime.ToolCall{Name: "slow"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow: %v", err)
	}
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the server's handler was not cancelled")
	}
}

// inMemory connects to srv in memory, anew each time.
func inMemory(srv *sdk.Server) Connector {
	return func() sdk.Transport {
		ct, st := sdk.NewInMemoryTransports()
		if _, err := srv.Connect(context.Background(), st, nil); err != nil {
			panic(err)
		}
		return ct
	}
}

func TestImportNames(t *testing.T) {
	reg := runtime.NewRegistry(runtime.Options{})
	if err := reg.Add(&runtime.Tool{Name: "pick", Flags: runtime.DefaultFlags(), Decode: decodeAny,
		Execute: func(context.Context, *runtime.Call, any) (runtime.Result, error) { return runtime.Text("local"), nil }}); err != nil {
		t.Fatal(err)
	}
	n := reg.Len()
	_, err := Import(context.Background(), reg, inMemory(remoteServer(func() {}, nil)), ImportOptions{})
	if !errors.Is(err, runtime.ErrDuplicate) || !strings.Contains(err.Error(), `"pick"`) || reg.Len() != n {
		t.Fatalf("import over a local pick: %v; %d tools, want %d", err, reg.Len(), n)
	}
	for in, want := range map[string]string{
		"ok_name-1":  "ok_name-1",
		"files.read": "files_read_" + Alias("files.read")[len("files_read_"):],
	} {
		if got := Alias(in); got != want || Alias(in) != got {
			t.Errorf("Alias(%q) = %q, want %q (and stable)", in, got, want)
		}
	}
	if Alias("a/b") == Alias("a.b") {
		t.Error("a/b and a.b share an alias")
	}
}

func TestImportListChangedAndDeadServer(t *testing.T) {
	srv := remoteServer(func() {}, nil)
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	reg := runtime.NewRegistry(runtime.Options{})
	remote, err := Import(context.Background(), reg, HTTP(hs.URL, nil), ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer remote.Close()
	srv.AddTool(&sdk.Tool{Name: "added", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "new"}}}, nil
		})
	srv.RemoveTools("fails")
	deadline := time.Now().Add(5 * time.Second)
	for !reg.Has("added") || reg.Has("fails") {
		if time.Now().After(deadline) {
			t.Fatalf("after list_changed: added %v, fails %v", reg.Has("added"), reg.Has("fails"))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if out := dispatch(t, reg, nil, "added", `{}`); out.Result.String() != "new" {
		t.Errorf("added: %q", out.Result.String())
	}

	// The server goes away for good: its tools fail as tool errors.
	hs.CloseClientConnections()
	hs.Close()
	for range 2 {
		out := dispatch(t, reg, nil, "pick", `{"choice":"a"}`)
		if out.Status != runtime.StatusError || out.Err.Kind != runtime.ErrExecution {
			t.Errorf("pick on a dead server: %s %q", out.Status, out.Result.String())
		}
	}
	remote.Close()
	if reg.Has("pick") {
		t.Error("Close left the tools in the registry")
	}
}
