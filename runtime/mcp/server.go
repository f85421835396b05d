package mcp

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
)

// Meta keys this package reads and writes in a tools/call's _meta.
const (
	// MetaPausePoint is set in the _meta of a paused call's result to the
	// pause point's id (a string).
	MetaPausePoint = "toolgen/pausePointId"
	// MetaResume, set in a tools/call request's _meta to a pause point id,
	// resumes that paused call (Registry.Resume) instead of running a new
	// one, once a person has decided. The request's name and arguments are
	// ignored: the stored call runs. Only the pause point's owner (the
	// Call's UserID that Identify gives) may resume it.
	MetaResume = "toolgen/resume"
	// MetaAttempt, set in a resuming tools/call's _meta (with MetaResume,
	// or with the answer to an approval elicitation) to a string the client
	// keeps across its retries, names the resume attempt
	// (runtime.ResumeOptions.Attempt): a client whose resume failed or
	// whose response was lost (a timeout, a dropped connection) sends the
	// same request again with the same attempt, which claims the pause
	// point again and runs the approved call if it has not run; a resume
	// with another attempt loses. Without it a MetaResume gets a random
	// attempt, which no retry can reuse, and an elicitation answer one
	// derived from the pause point, the session id (over stateful HTTP) and
	// the caller, so that a retry of the same answer re-claims.
	MetaAttempt = "toolgen/attempt"
	// MetaErrorKind is set in the _meta of a tool-error result to its
	// runtime.ErrorKind, and MetaViolations to the violations of invalid
	// arguments.
	MetaErrorKind  = "toolgen/errorKind"
	MetaViolations = "toolgen/violations"
)

// approvalInput is the id of the elicitation a paused call asks for.
const approvalInput = "toolgen_approval"

// Request is who sends an MCP request, as Identify sees it.
type Request struct {
	// Session is the MCP session. In stateless HTTP mode it lasts for one
	// request only.
	Session *sdk.ServerSession
	// SessionID is the session's id ("" over stdio and in stateless mode).
	SessionID string
	// TokenInfo is the verified bearer token over HTTP when the handler is
	// wrapped by the go-sdk's auth.RequireBearerToken; nil otherwise.
	TokenInfo *auth.TokenInfo
	// Header is the HTTP request's header; nil over stdio.
	Header http.Header
}

// Resolver records a person's decision on a pause point, in the store the
// registry's Options.Approvals claims from. With a hitl.Store:
//
//	func(ctx context.Context, call *runtime.Call, id string, approve bool, note string) error {
//		_, err := store.Resolve(ctx, id, hitl.Resolution{Approve: approve, Note: note, By: call.UserID})
//		return err
//	}
type Resolver func(ctx context.Context, call *runtime.Call, pausePointID string, approve bool, note string) error

// ServerOptions configure a Server. The zero value serves the registry to
// an anonymous caller (a zero runtime.Call) with no elicitation.
type ServerOptions struct {
	// Name and Version identify the server to clients (default "toolgen"
	// and "dev").
	Name, Version string
	// Instructions are sent to clients at initialization. Optional.
	Instructions string
	// Identify returns the runtime.Call a request runs with: its UserID,
	// ConversationID, Values and sinks, so gates, policy and approvals are
	// per user as in Dispatch. It is called for every tools/list and
	// tools/call (over HTTP, from the request's authentication). An error
	// fails the request with a JSON-RPC error. Nil: a zero Call.
	Identify func(ctx context.Context, req Request) (*runtime.Call, error)
	// Resolve records the person's decision when a paused call is offered
	// to them by elicitation. Nil: no elicitation; a paused call's result
	// says it waits, and the host resumes it with MetaResume.
	Resolve Resolver
	// Encode tunes the tools/list encoding (runtime.DialectMCP). The
	// server always sets MCPOutputSchema, since it returns typed results as
	// structuredContent.
	Encode runtime.EncodeOptions
	// PageSize is the number of tools per tools/list page (default 500).
	PageSize int
	// Logger receives the SDK's and the server's logs. Nil: none.
	Logger *slog.Logger
}

// Server serves a runtime.Registry as an MCP server: tools/list is the
// caller's Catalog, tools/call runs Registry.Dispatch. One Server serves
// any number of sessions over any transports.
type Server struct {
	reg  *runtime.Registry
	opts ServerOptions
	srv  *sdk.Server
	stop func()

	mu     sync.Mutex
	mirror map[string]*runtime.Tool // the tools the SDK server knows, by name
}

// NewServer returns a Server for reg. Close stops it watching reg.
func NewServer(reg *runtime.Registry, opts ServerOptions) *Server {
	if opts.Name == "" {
		opts.Name = "toolgen"
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.PageSize <= 0 {
		opts.PageSize = 500
	}
	opts.Encode.MCPOutputSchema = true
	s := &Server{reg: reg, opts: opts, mirror: make(map[string]*runtime.Tool)}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s.srv = sdk.NewServer(&sdk.Implementation{Name: opts.Name, Version: opts.Version}, &sdk.ServerOptions{
		Instructions: opts.Instructions,
		Logger:       logger,
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}},
	})
	s.srv.AddReceivingMiddleware(s.listMiddleware)
	s.stop = reg.OnChange(s.sync)
	s.sync()
	return s
}

// SDK returns the go-sdk server, for transports this package does not wrap.
func (s *Server) SDK() *sdk.Server { return s.srv }

// Close stops watching the registry. Sessions keep running until their
// transports close.
func (s *Server) Close() { s.stop() }

// Run serves one session over t (sdk.StdioTransport for stdio) until the
// client disconnects or ctx is done.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error { return s.srv.Run(ctx, t) }

// Connect starts one session over t and returns it (for in-memory
// transports in tests, say).
func (s *Server) Connect(ctx context.Context, t sdk.Transport) (*sdk.ServerSession, error) {
	return s.srv.Connect(ctx, t, nil)
}

// HTTPHandler returns a streamable HTTP handler serving s (opts may be
// nil). With opts.Stateless the server keeps no session state between
// requests, so several instances behind a load balancer can serve one
// client (give them one shared Approvals store, such as hitl on
// PostgreSQL); a call is then cancelled by closing its HTTP request
// (PropagateRequestCancellation is always set), since a stateless server
// cannot tie a notifications/cancelled to a call of another request.
func (s *Server) HTTPHandler(opts *sdk.StreamableHTTPOptions) http.Handler {
	var o sdk.StreamableHTTPOptions
	if opts != nil {
		o = *opts
	}
	o.PropagateRequestCancellation = true
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.srv }, &o)
}

// ToolsChanged tells every session that its tool list may have changed
// (notifications/tools/list_changed): the server does so by itself when
// the registry changes, and a host calls it when something else changes a
// catalog, such as a gate opening.
func (s *Server) ToolsChanged() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, t := range s.mirror {
		s.addLocked(name, t) // replacing a tool makes the SDK notify
		return
	}
}

// sync mirrors the registry's local and MCP tools into the SDK server, so
// tools/call reaches them and the SDK sends list_changed when they change.
// tools/list itself is answered by listMiddleware, per caller.
func (s *Server) sync() {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := make(map[string]*runtime.Tool)
	for _, t := range s.reg.Executable() {
		now[t.Name] = t
	}
	var gone []string
	for name := range s.mirror {
		if now[name] == nil {
			gone = append(gone, name)
			delete(s.mirror, name)
		}
	}
	if len(gone) > 0 {
		s.srv.RemoveTools(gone...)
	}
	for name, t := range now {
		if s.mirror[name] != t {
			s.addLocked(name, t)
		}
	}
}

func (s *Server) addLocked(name string, t *runtime.Tool) {
	s.mirror[name] = t
	// The SDK checks only that the schema is an object schema; tools/list
	// sends the registry's own encoding.
	s.srv.AddTool(&sdk.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return s.call(ctx, req)
		})
}

// listMiddleware answers tools/list with the caller's catalog.
func (s *Server) listMiddleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		lr, ok := req.(*sdk.ListToolsRequest)
		if !ok || method != "tools/list" {
			return next(ctx, method, req)
		}
		return s.list(ctx, lr)
	}
}

// mcpTool is one entry of DialectMCP's encoding.
type mcpTool struct {
	Name         string               `json:"name"`
	Title        string               `json:"title,omitempty"`
	Description  string               `json:"description,omitempty"`
	InputSchema  json.RawMessage      `json:"inputSchema"`
	OutputSchema json.RawMessage      `json:"outputSchema,omitempty"`
	Annotations  *sdk.ToolAnnotations `json:"annotations,omitempty"`
	Icons        []sdk.Icon           `json:"icons,omitempty"`
}

func (s *Server) list(ctx context.Context, req *sdk.ListToolsRequest) (*sdk.ListToolsResult, error) {
	call, err := s.identify(ctx, req.Session, req.Extra)
	if err != nil {
		return nil, err
	}
	raw, err := s.reg.EncodeCatalog(ctx, call, runtime.DialectMCP, s.opts.Encode)
	if err != nil {
		return nil, err
	}
	var all []mcpTool
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil, fmt.Errorf("runtime/mcp: decoding the catalog: %w", err)
	}
	start := 0
	if req.Params != nil && req.Params.Cursor != "" {
		start, err = strconv.Atoi(req.Params.Cursor)
		if err != nil || start < 0 || start > len(all) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("invalid cursor %q", req.Params.Cursor)}
		}
	}
	end := min(start+s.opts.PageSize, len(all))
	res := &sdk.ListToolsResult{Tools: make([]*sdk.Tool, 0, end-start)}
	for _, t := range all[start:end] {
		tool := &sdk.Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: t.InputSchema,
			Annotations: t.Annotations, Icons: t.Icons}
		if t.OutputSchema != nil {
			tool.OutputSchema = t.OutputSchema
		}
		res.Tools = append(res.Tools, tool)
	}
	if end < len(all) {
		res.NextCursor = strconv.Itoa(end)
	}
	return res, nil
}

// identify returns a fresh copy of the caller's Call.
func (s *Server) identify(ctx context.Context, ss *sdk.ServerSession, extra *sdk.RequestExtra) (*runtime.Call, error) {
	c := new(runtime.Call)
	if s.opts.Identify == nil {
		return c, nil
	}
	r := Request{Session: ss}
	if ss != nil {
		r.SessionID = ss.ID()
	}
	if extra != nil {
		r.TokenInfo, r.Header = extra.TokenInfo, extra.Header
	}
	got, err := s.opts.Identify(ctx, r)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "identifying the caller: " + err.Error()}
	}
	if got != nil {
		*c = *got
	}
	return c, nil
}

// call runs one tools/call.
func (s *Server) call(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	p := req.Params
	call, err := s.identify(ctx, req.Session, req.Extra)
	if err != nil {
		return nil, err
	}
	if tok := p.GetProgressToken(); tok != nil {
		forwardProgress(ctx, call, req.Session, tok)
	}

	// The answer to an approval offered by elicitation.
	if p.RequestState != "" {
		if resp, ok := p.InputResponses[approvalInput]; ok {
			attempt, _ := p.Meta[MetaAttempt].(string)
			if attempt == "" {
				attempt = elicitAttempt(p.RequestState, req.Session, call)
			}
			return s.decide(ctx, call, p.RequestState, resp, attempt)
		}
	}
	// A host resuming a call a person decided on elsewhere (Resume
	// refuses a caller who does not own the pause point).
	if id, ok := p.Meta[MetaResume].(string); ok && id != "" {
		attempt, _ := p.Meta[MetaAttempt].(string)
		out, err := s.reg.ResumeWith(ctx, call, id, runtime.ResumeOptions{Attempt: attempt})
		if err != nil && out.Status == "" {
			// Claim refused: not found, still pending, already consumed.
			return errorResult(err.Error(), nil), nil
		}
		return s.result(ctx, req, out, err)
	}

	// MCP calls have no id of their own; the pause point and events need one.
	tc := runtime.ToolCall{ID: "mcp_" + rand.Text(), Name: p.Name, Arguments: p.Arguments}
	out, err := s.reg.Dispatch(ctx, call, tc)
	return s.result(ctx, req, out, err)
}

// decide records the person's answer to an approval elicitation and
// resumes the call.
func (s *Server) decide(ctx context.Context, call *runtime.Call, id string, resp sdk.InputResponse, attempt string) (*sdk.CallToolResult, error) {
	er, ok := resp.(*sdk.ElicitResult)
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "the approval answer is not an elicitation result"}
	}
	approve := er.Action == "accept"
	note, _ := er.Content["note"].(string)
	if !approve && note == "" {
		note = "the person " + er.Action + "d it in the MCP client"
		if er.Action == "cancel" {
			note = "the person dismissed the approval request in the MCP client"
		}
	}
	if err := s.opts.Resolve(ctx, call, id, approve, note); err != nil {
		return errorResult("recording the decision on pause point "+id+" failed: "+err.Error(), nil), nil
	}
	// Resolving again with the same decision is a no-op, so a retried
	// answer reaches the claim, which the same attempt may repeat.
	out, err := s.reg.ResumeWith(ctx, call, id, runtime.ResumeOptions{Attempt: attempt})
	if err != nil && out.Status == "" {
		return errorResult(err.Error(), nil), nil
	}
	return s.outcome(out, err)
}

// elicitAttempt is the resume attempt of an elicitation answer that names
// none: the same for a retry of the answer to pause point id in the same
// session by the same caller. Over stdio, in memory and in stateless HTTP
// mode a session has no id, so it is the same for the caller's every
// answer on the point: one client per user, whose answers are retries.
func elicitAttempt(id string, ss *sdk.ServerSession, call *runtime.Call) string {
	sid := ""
	if ss != nil {
		sid = ss.ID()
	}
	h := sha256.Sum256([]byte("toolgen/mcp elicitation\x00" + id + "\x00" + sid + "\x00" + call.UserID))
	return "mcp-elicit-" + hex.EncodeToString(h[:16])
}

// result maps a Dispatch outcome to the tools/call answer, offering a
// paused call to the person by elicitation when the client can.
func (s *Server) result(ctx context.Context, req *sdk.CallToolRequest, out runtime.Outcome, err error) (*sdk.CallToolResult, error) {
	if err == nil && out.Status == runtime.StatusPaused && s.opts.Resolve != nil && canElicit(req) {
		return &sdk.CallToolResult{
			InputRequests: sdk.InputRequestMap{approvalInput: &sdk.ElicitParams{
				Mode:    "form",
				Message: approvalMessage(out),
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{"note":{"type":"string",` +
					`"title":"Note","description":"Why you approve or decline (optional)"}}}`),
			}},
			RequestState: out.Pause.PausePointID,
		}, nil
	}
	return s.outcome(out, err)
}

func canElicit(req *sdk.CallToolRequest) bool {
	caps := req.ClientCapabilities()
	return caps != nil && caps.Elicitation != nil
}

func approvalMessage(out runtime.Outcome) string {
	msg := "Approve " + out.Label + "?"
	if out.Label != out.Tool {
		msg = "Approve " + out.Label + " (" + out.Tool + ")?"
	}
	if out.Pause.Reason != "" {
		msg += " " + out.Pause.Reason + "."
	}
	return msg
}

func (s *Server) outcome(out runtime.Outcome, err error) (*sdk.CallToolResult, error) {
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		if l := s.opts.Logger; l != nil {
			l.Error("runtime/mcp: tool call failed fatally", "tool", out.Tool, "error", err)
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error running " + out.Tool}
	}
	switch out.Status {
	case runtime.StatusError:
		if out.Err != nil && out.Err.Kind == runtime.ErrUnknownTool {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: out.Result.String()}
		}
		res := &sdk.CallToolResult{IsError: true, Content: content(out.Result)}
		if out.Err != nil {
			res.Meta = sdk.Meta{MetaErrorKind: string(out.Err.Kind)}
			if len(out.Err.Violations) > 0 {
				res.Meta[MetaViolations] = out.Err.Violations
			}
		}
		return res, nil
	case runtime.StatusPaused:
		return &sdk.CallToolResult{Content: content(out.Result), Meta: sdk.Meta{MetaPausePoint: out.Pause.PausePointID}}, nil
	}
	res := &sdk.CallToolResult{Content: content(out.Result)}
	if t, ok := s.reg.Get(out.Tool); ok && len(t.ResultSchema) > 0 {
		res.StructuredContent = structured(out.Result)
	}
	return res, nil
}

// errorResult is a tool-error result with text msg.
func errorResult(msg string, meta sdk.Meta) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: msg}}, Meta: meta}
}

// structured returns a typed result's JSON object (its one text part), or
// nil when the result is not one.
func structured(r runtime.Result) any {
	if len(r.Parts) != 1 || r.Parts[0].Type != runtime.PartText {
		return nil
	}
	text := r.Parts[0].Text
	if len(text) == 0 || text[0] != '{' || !json.Valid([]byte(text)) {
		return nil
	}
	return json.RawMessage(text)
}

// forwardProgress makes call's progress events notifications/progress on
// ss for token.
func forwardProgress(ctx context.Context, call *runtime.Call, ss *sdk.ServerSession, token any) {
	prev := call.Events
	var mu sync.Mutex
	n := 0
	call.Events = func(e runtime.Event) {
		if prev != nil {
			prev(e)
		}
		if e.Type != runtime.EventProgress {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		n++
		_ = ss.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Message: e.Message, Progress: float64(n)})
	}
}
