package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
)

// Connector makes the transport of one connection to an MCP server. It is
// called again for every reconnection, so it must return a fresh transport
// (a command is started anew).
type Connector func() sdk.Transport

// Command connects to the server that the command name with args runs,
// over its stdin and stdout.
func Command(name string, args ...string) Connector {
	return func() sdk.Transport {
		return &sdk.CommandTransport{Command: exec.Command(name, args...), TerminateDuration: 2 * time.Second}
	}
}

// HTTP connects to the streamable HTTP endpoint url; client nil is
// http.DefaultClient.
func HTTP(url string, client *http.Client) Connector {
	return func() sdk.Transport { return &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: client} }
}

// ImportOptions configure Import.
type ImportOptions struct {
	// Prefix is put before every remote name ("github_"), to keep servers
	// apart in one registry. Optional.
	Prefix string
	// Provider is set as the imported tools' Provider. Optional.
	Provider string
	// TrustReadOnly lets a tool's readOnlyHint make it read-only, and so
	// concurrency-safe in RunCalls. Annotations are the server's claims:
	// without TrustReadOnly no imported tool is read-only.
	TrustReadOnly bool
	// ProtocolVersion is the MCP version to ask for (default: the SDK's
	// latest).
	ProtocolVersion string
	// Logger receives the client's logs. Nil: none.
	Logger *slog.Logger
}

// Remote is an MCP server whose tools were imported into a registry. It
// keeps them in step with the server: on notifications/tools/list_changed
// it lists them again, and when the connection drops the next call
// reconnects (and lists again). Its methods are safe for concurrent use.
type Remote struct {
	reg     *runtime.Registry
	connect Connector
	opts    ImportOptions
	client  *sdk.Client

	dialMu sync.Mutex // one reconnection at a time

	mu       sync.Mutex
	cs       *sdk.ClientSession // nil while disconnected
	closed   bool
	tools    map[string]*imported // by local name
	problems []error

	progress sync.Map // progress token → *runtime.Call
	tokens   atomic.Uint64
	refresh  chan struct{}
	done     chan struct{}
}

// imported is one remote tool as registered.
type imported struct {
	remote string
	def    string // the definition it was built from, to see changes
	tool   *runtime.Tool
}

// Import connects to an MCP server, lists its tools (every page), and adds
// them to reg as MCP tools (runtime.SourceMCP). Each runs through the
// registry's pipeline like a local tool: its arguments are validated
// against the server's inputSchema, compiled once by a JSON Schema
// 2020-12 validator; then enabled, gate, permission and approval; then
// tools/call with the call's context (cancellation is forwarded), its
// progress forwarded to the call's events, its content mapped to result
// parts and isError to a tool error.
//
// A remote name that providers refuse (not 1 to 64 letters, digits, '_'
// or '-', with the prefix) gets a deterministic alias: the name with each
// other character replaced by '_', cut to 55 characters, then '_' and 8
// hex digits of its SHA-256; RemoteName maps it back. A name already in
// reg fails Import with the registry's duplicate error, adding nothing. A
// tool whose schema is not an object schema or does not compile is left
// out and reported by Problems.
func Import(ctx context.Context, reg *runtime.Registry, connect Connector, opts ImportOptions) (*Remote, error) {
	r := &Remote{reg: reg, connect: connect, opts: opts, tools: make(map[string]*imported),
		refresh: make(chan struct{}, 1), done: make(chan struct{})}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	r.client = sdk.NewClient(&sdk.Implementation{Name: "toolgen", Version: "1"}, &sdk.ClientOptions{
		Logger: logger,
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			select {
			case r.refresh <- struct{}{}:
			default:
			}
		},
		ProgressNotificationHandler: r.onProgress,
	})
	cs, err := r.dial(ctx)
	if err != nil {
		return nil, err
	}
	if err := r.sync(ctx, cs); err != nil {
		cs.Close()
		return nil, err
	}
	go r.refreshLoop()
	return r, nil
}

// dial connects and records the session.
func (r *Remote) dial(ctx context.Context) (*sdk.ClientSession, error) {
	cs, err := r.client.Connect(ctx, r.connect(), &sdk.ClientSessionOptions{ProtocolVersion: r.opts.ProtocolVersion})
	if err != nil {
		return nil, fmt.Errorf("runtime/mcp: connecting to the MCP server: %w", err)
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		cs.Close()
		return nil, errors.New("runtime/mcp: the remote is closed")
	}
	r.cs = cs
	r.mu.Unlock()
	go func() {
		cs.Wait()
		r.mu.Lock()
		if r.cs == cs {
			r.cs = nil
		}
		r.mu.Unlock()
	}()
	return cs, nil
}

// session returns the live session, reconnecting (and listing the tools
// again) if the connection dropped.
func (r *Remote) session(ctx context.Context) (*sdk.ClientSession, error) {
	r.mu.Lock()
	cs, closed := r.cs, r.closed
	r.mu.Unlock()
	if closed {
		return nil, errors.New("the connection to its MCP server was closed")
	}
	if cs != nil {
		return cs, nil
	}
	r.dialMu.Lock()
	defer r.dialMu.Unlock()
	r.mu.Lock()
	cs = r.cs
	r.mu.Unlock()
	if cs != nil { // another call reconnected meanwhile
		return cs, nil
	}
	cs, err := r.dial(ctx)
	if err != nil {
		return nil, err
	}
	if err := r.sync(ctx, cs); err != nil {
		return nil, err
	}
	return cs, nil
}

func (r *Remote) refreshLoop() {
	for {
		select {
		case <-r.done:
			return
		case <-r.refresh:
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			if err := r.Refresh(ctx); err != nil && r.opts.Logger != nil {
				r.opts.Logger.Warn("runtime/mcp: listing the server's tools again failed", "error", err)
			}
			cancel()
		}
	}
}

// Refresh lists the server's tools again and brings the registry in step:
// new tools are added, removed ones removed, changed ones replaced.
func (r *Remote) Refresh(ctx context.Context) error {
	cs, err := r.session(ctx)
	if err != nil {
		return err
	}
	return r.sync(ctx, cs)
}

// sync lists every page of the server's tools and updates the registry.
func (r *Remote) sync(ctx context.Context, cs *sdk.ClientSession) error {
	var remote []*sdk.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("runtime/mcp: listing the server's tools: %w", err)
		}
		remote = append(remote, t)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var problems []error
	next := make(map[string]*imported, len(remote))
	var add []*runtime.Tool
	for _, t := range remote {
		def, err := json.Marshal(t)
		if err != nil {
			problems = append(problems, fmt.Errorf("tool %q: %w", t.Name, err))
			continue
		}
		local := Alias(r.opts.Prefix + t.Name)
		if _, dup := next[local]; dup {
			problems = append(problems, fmt.Errorf("tool %q: its name %q is another tool's too; left out", t.Name, local))
			continue
		}
		if old := r.tools[local]; old != nil && old.def == string(def) {
			next[local] = old
			continue
		}
		tool, err := r.build(local, t)
		if err != nil {
			problems = append(problems, fmt.Errorf("tool %q: %w; left out", t.Name, err))
			continue
		}
		next[local] = &imported{remote: t.Name, def: string(def), tool: tool}
		add = append(add, tool)
	}
	// Remove what went or changed, then add what is new or changed.
	for name, old := range r.tools {
		if next[name] != old {
			r.reg.Remove(name)
		}
	}
	if err := r.reg.AddMCP(add...); err != nil {
		// Nothing was added: keep the unchanged tools only.
		for name, imp := range next {
			if r.tools[name] != imp {
				delete(next, name)
			}
		}
		r.tools = next
		return fmt.Errorf("runtime/mcp: importing the server's tools: %w", err)
	}
	r.tools, r.problems = next, problems
	return nil
}

// build makes the registry tool for remote tool t under the name local.
func (r *Remote) build(local string, t *sdk.Tool) (*runtime.Tool, error) {
	schema, err := json.Marshal(t.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	var top map[string]any
	if err := json.Unmarshal(schema, &top); err != nil || top["type"] != "object" {
		return nil, errors.New(`its inputSchema is not {"type":"object",…}`)
	}
	v, err := compileSchema(schema)
	if err != nil {
		return nil, err
	}
	tool := &runtime.Tool{
		Name:        local,
		Title:       t.Title,
		Icons:       icons(t.Icons),
		Description: t.Description,
		Provider:    r.opts.Provider,
		Schema:      schema,
		Flags:       flagsOf(t.Annotations, r.opts.TrustReadOnly),
		Decode:      v.decode,
	}
	if t.OutputSchema != nil {
		if out, err := json.Marshal(t.OutputSchema); err == nil && !bytes.Equal(out, []byte("null")) {
			tool.ResultSchema = out
		}
	}
	remote := t.Name
	tool.Execute = func(ctx context.Context, call *runtime.Call, args any) (runtime.Result, error) {
		return r.call(ctx, call, remote, args.(json.RawMessage))
	}
	return tool, nil
}

// icons are a remote tool's icons as the runtime holds them.
func icons(in []sdk.Icon) []runtime.Icon {
	if len(in) == 0 {
		return nil
	}
	out := make([]runtime.Icon, len(in))
	for i, ic := range in {
		out[i] = runtime.Icon{Src: ic.Source, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: string(ic.Theme)}
	}
	return out
}

// flagsOf turns annotations into flags. MCP's defaults for absent hints,
// which are also the safe ones, apply: not read-only, destructive, not
// idempotent, open world. readOnlyHint counts only when trusted.
func flagsOf(a *sdk.ToolAnnotations, trustReadOnly bool) runtime.Flags {
	f := runtime.Flags{Enabled: true, Destructive: true, OpenWorld: true}
	if a == nil {
		return f
	}
	if a.DestructiveHint != nil {
		f.Destructive = *a.DestructiveHint
	}
	if a.OpenWorldHint != nil {
		f.OpenWorld = *a.OpenWorldHint
	}
	f.Idempotent = a.IdempotentHint
	if a.ReadOnlyHint && trustReadOnly {
		f.ReadOnly, f.ConcurrencySafe, f.Destructive = true, true, false
	}
	return f
}

// call runs tools/call for a validated call.
func (r *Remote) call(ctx context.Context, call *runtime.Call, remote string, args json.RawMessage) (runtime.Result, error) {
	cs, err := r.session(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return runtime.Result{}, ctx.Err()
		}
		return runtime.Result{}, fmt.Errorf("its MCP server is unavailable: %w", err)
	}
	params := &sdk.CallToolParams{Name: remote, Arguments: args}
	token := "toolgen-" + strconv.FormatUint(r.tokens.Add(1), 10)
	params.SetProgressToken(token)
	r.progress.Store(token, call)
	defer r.progress.Delete(token)
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return runtime.Result{}, cerr
		}
		var rpc *jsonrpc.Error
		if errors.As(err, &rpc) {
			return runtime.Result{}, fmt.Errorf("its MCP server refused the call: %w", err)
		}
		// The transport failed: drop the session, so the next call
		// reconnects.
		r.mu.Lock()
		if r.cs == cs {
			r.cs = nil
		}
		r.mu.Unlock()
		cs.Close()
		return runtime.Result{}, fmt.Errorf("the connection to its MCP server failed during the call: %w", err)
	}
	return result(res), nil
}

func (r *Remote) onProgress(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
	tok, ok := req.Params.ProgressToken.(string)
	if !ok {
		return
	}
	if c, ok := r.progress.Load(tok); ok {
		c.(*runtime.Call).Emit(runtime.Event{Type: runtime.EventProgress, Message: req.Params.Message})
	}
}

// Tools returns the local names of the imported tools.
func (r *Remote) Tools() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.tools))
	for name := range r.tools {
		out = append(out, name)
	}
	return out
}

// RemoteName returns the server's name of the imported tool local.
func (r *Remote) RemoteName(local string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if imp, ok := r.tools[local]; ok {
		return imp.remote, true
	}
	return "", false
}

// Problems returns why tools of the last listing were left out.
func (r *Remote) Problems() []error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]error(nil), r.problems...)
}

// Close disconnects and removes the imported tools from the registry.
func (r *Remote) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	cs := r.cs
	r.cs = nil
	tools := r.tools
	r.tools = nil
	r.mu.Unlock()
	close(r.done)
	for name := range tools {
		r.reg.Remove(name)
	}
	if cs != nil {
		return cs.Close()
	}
	return nil
}

// Alias returns name if the providers take it as a tool name (1 to 64
// letters, digits, '_' or '-'), else a deterministic valid alias: name
// with every other character replaced by '_', cut to 55 characters, then
// '_' and the first 8 hex digits of name's SHA-256.
func Alias(name string) string {
	ok := name != "" && len(name) <= 64
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' {
			b.WriteByte(c)
			continue
		}
		ok = false
		b.WriteByte('_')
	}
	if ok {
		return name
	}
	s := b.String()
	if len(s) > 55 {
		s = s[:55]
	}
	sum := sha256.Sum256([]byte(name))
	return s + "_" + hex.EncodeToString(sum[:4])
}
