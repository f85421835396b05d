// Package mcp speaks the Model Context Protocol for a runtime.Registry, on
// the official SDK (github.com/modelcontextprotocol/go-sdk), in both
// directions.
//
// Serving: NewServer makes a Server for a registry. tools/list is the
// caller's Catalog in the DialectMCP encoding (gated-out and disabled tools
// absent); tools/call runs Registry.Dispatch, the whole pipeline, with the
// runtime.Call that ServerOptions.Identify returns for the session (over
// HTTP, from the request's authentication):
//
//   - invalid arguments are a result with isError listing every violation
//     (also in _meta "toolgen/violations"); an unknown tool is JSON-RPC
//     error -32602; a fatal error is JSON-RPC internal error -32603;
//   - progress events become notifications/progress when the client sent a
//     progress token; notifications/cancelled cancels the call's context;
//   - a typed result (a tool with a ResultSchema) is structuredContent plus
//     the same JSON as text; file parts are image, audio, embedded-resource
//     or resource-link content;
//   - a call that asks for approval pauses as in Dispatch (the pause point
//     is stored through Options.Approvals, and its id is in the result's
//     _meta "toolgen/pausePointId"). With ServerOptions.Resolve and a
//     client that supports elicitation, the person is asked in the client:
//     accept resumes the call, decline denies it, and the store records the
//     decision either way. Otherwise the result says the call waits, and
//     the host resumes it later with a tools/call whose _meta
//     "toolgen/resume" names the pause point.
//
// The registry's changes (Registry.OnChange) become
// notifications/tools/list_changed. Server.Run serves stdio
// (sdk.StdioTransport), Server.HTTPHandler streamable HTTP, optionally
// stateless so several instances can share one client, given one shared
// Approvals store.
//
// Importing: Import connects to an MCP server (Command for stdio, HTTP for
// streamable HTTP), lists its tools (every page) and adds them to a
// registry as MCP tools that run through the same pipeline as local ones:
// their arguments are validated against the server's inputSchema, compiled
// once per tool by a JSON Schema 2020-12 validator (a $ref outside the
// schema is refused); tools/call gets the call's context (cancellation is
// forwarded), progress reaches the call's events, content becomes result
// parts and isError a tool error. Annotations are untrusted hints: absent
// ones mean not read-only, destructive, open world, and readOnlyHint counts
// only with ImportOptions.TrustReadOnly. Names get an optional prefix; a
// name the providers refuse gets a deterministic alias (Alias, and
// Remote.RemoteName back); a name already registered is the registry's
// duplicate error. The Remote lists the tools again on tools/list_changed
// and reconnects after a dropped connection; while the server is gone its
// tools fail as tool errors.
package mcp
