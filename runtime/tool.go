package runtime

import (
	"context"
	"encoding/json"
	"fmt"
)

// Kind says how a tool is presented to people. Execution is identical.
type Kind string

const (
	// KindTool is an ordinary tool (the zero Kind means KindTool).
	KindTool Kind = "tool"
	// KindAgent is a tool that delegates to a sub-agent; hosts render it as
	// subagent activity.
	KindAgent Kind = "agent"
)

// Source says where a tool in a Registry came from.
type Source int

const (
	// SourceLocal is a tool run in this process (generated or hand-written).
	SourceLocal Source = iota
	// SourceMCP is a tool served by an MCP server and proxied by Execute.
	SourceMCP
)

// Flags describe a tool's behaviour. They have no useful zero value: start
// from DefaultFlags, which holds the defaults of a tool that says nothing.
type Flags struct {
	// Enabled false hides the tool from the catalog and refuses its calls.
	Enabled bool
	// ReadOnly tools do not change anything outside the process.
	ReadOnly bool
	// Destructive tools may delete or overwrite, or spend money.
	Destructive bool
	// Idempotent tools may be repeated with the same arguments safely.
	Idempotent bool
	// OpenWorld tools reach systems outside the host's control.
	OpenWorld bool
	// ConcurrencySafe tools may run in parallel with other calls of the same
	// turn. A tool that says nothing is concurrency-safe iff it is read-only.
	ConcurrencySafe bool
	// RequiresApproval makes the permission step ask a human before the
	// tool runs (unless the tool's own check or the host denies first). The
	// Ask's reason, unless the tool's check asked with its own, is "the tool
	// requires approval before every call".
	RequiresApproval bool
}

// DefaultFlags returns the flags of a tool that says nothing: enabled and
// open-world, everything else false.
func DefaultFlags() Flags { return Flags{Enabled: true, OpenWorld: true} }

// Tool is one tool the model can call. Generated code builds Tools; so can
// hand-written code. The function fields receive the value Decode returned.
type Tool struct {
	// Name is what the model calls. Unique in a Registry.
	Name string
	// Description is prompt text sent to the model.
	Description string
	// Kind is presentation only (the zero value means KindTool).
	Kind Kind
	// Title is a display name for people (MCP's tool title); the model
	// reads Name and Description. Optional: "" shows the name. Only MCP
	// sends it.
	Title string
	// Icons are images a client may show for the tool (MCP's icons).
	// Optional. Only MCP sends them.
	Icons []Icon
	// Provider is the owning module's short id ("stripe"); set by AddModule.
	Provider string
	// Source is where the tool comes from (local or MCP); set by the
	// Registry's Add and AddMCP.
	Source Source

	// Schema is the JSON Schema of the argument object, compact and canonical.
	Schema json.RawMessage
	// ResultSchema is the JSON Schema of a typed result, if the tool has one.
	ResultSchema json.RawMessage
	// Examples are example argument objects (JSON objects the tool's
	// Decode accepts), shown to the model where the dialect has a place
	// for them: Anthropic's input_examples (see EncodeTools). Generated
	// tools carry the spec's examples:, compact and canonical.
	Examples []json.RawMessage

	// Gate names the connection the tool needs ("" = none). Tools whose gate
	// is closed for the caller are left out of the catalog, and a direct call
	// gets GateMessage.
	Gate string
	// GateMessage is what the model reads when a call meets the closed
	// gate. Empty: a sentence naming the tool and the gate.
	GateMessage string

	// Flags describe the tool (read-only, destructive, needs approval, …);
	// start from DefaultFlags when building a Tool by hand.
	Flags Flags

	// DeferLoading marks a tool of a large catalog whose definition the
	// model loads on demand, through tool search, instead of reading it in
	// every request. OpenAI Responses and Anthropic get it with
	// "defer_loading": true and their native tool-search tool added to the
	// catalog; the other dialects leave it out of a catalog that shows a
	// portable tool-search tool (NewToolSearch), which finds it. Calls are
	// dispatched as for any tool: deferring changes what the model is
	// shown first, never the pipeline.
	DeferLoading bool

	// Decode parses the raw JSON arguments into the tool's argument value,
	// applying defaults, and validates them. It reports every violation in a
	// *ValidationError. On error it still returns the value as far as it
	// could decode it (possibly nil), for Label. A tool sets Decode or
	// DecodeWith, or both: without Decode, the runtime decodes with
	// DecodeWith in the zero mode, which is Decode's reading (generated
	// tools set only DecodeWith). Code that decodes a tool's arguments
	// itself calls DecodeArgs, which knows the difference.
	Decode func(data []byte) (any, error)

	// DecodeWith is Decode in a decoding mode; in the zero mode it reads as
	// Decode does. Generated tools set it (and leave Decode nil). The
	// registry uses it when its Options ask for a mode (DropNullOptionals:
	// NullAsAbsent), and for every call of a tool without Decode;
	// otherwise it calls Decode.
	DecodeWith func(data []byte, mode DecodeMode) (any, error)

	// Label renders the short status label shown while the tool runs, from
	// the value Decode returned, or, when Decode failed, an *InvalidArgs
	// holding the partial value and the violations (show only what passed
	// its checks). It must be cheap and never panic. Optional: the tool's
	// name is used when nil or when it returns "".
	Label func(args any) string

	// Execute runs the tool. Required. Ordinary errors become tool-error
	// results for the model; see Fatal and Pause for the others.
	Execute func(ctx context.Context, call *Call, args any) (Result, error)

	// Permission is the tool's own permission check, run before the host's
	// policy. Optional: nil allows (or asks, with RequiresApproval).
	Permission func(ctx context.Context, call *Call, args any) Decision

	// ReadOnlyFor and ConcurrencySafeFor decide those flags from the input.
	// Optional: nil means Flags.ReadOnly and Flags.ConcurrencySafe.
	ReadOnlyFor        func(args any) bool
	ConcurrencySafeFor func(args any) bool

	// wrap is set on a tool that runs another one (a batch tool made by
	// Parallelize): the pipeline asks steps 4–6 about the wrapped tool too
	// (see wrapper.go).
	wrap *wrapping
	// search is set on a portable tool-search tool (NewToolSearch).
	search *toolSearch
	// moduleDescription is the Description of the module AddModule
	// registered the tool with.
	moduleDescription string
}

// Icon is an image a client may show for a tool: MCP's Icon (protocol
// revision 2025-11-25,
// https://modelcontextprotocol.io/specification/2025-11-25/basic/index#icons).
type Icon struct {
	// Src is an https: or http: URL of the image, or a data: URI of
	// base64-encoded image data. Required.
	Src string `json:"src"`
	// MIMEType is the image's type ("image/png"), for a source whose own
	// is missing or generic.
	MIMEType string `json:"mimeType,omitempty"`
	// Sizes are the sizes the image is drawn for: "48x48", or "any" for a
	// scalable format. None: any size.
	Sizes []string `json:"sizes,omitempty"`
	// Theme is the background the image is drawn for: "light" or "dark".
	Theme string `json:"theme,omitempty"`
}

// DecodeMode tunes how Tool.DecodeWith reads arguments. The zero value
// is Decode's reading.
type DecodeMode uint8

const (
	// NullAsAbsent reads a null sent for an optional property that does
	// not take null as if the property were left out (its default
	// applies), where Decode reports it as a violation. It is what a
	// model in a strict mode means by it: strict schemas make every
	// property required, so the model sends null for "absent" (see
	// EncodeOptions.Strict and Options.DropNullOptionals). A property that
	// takes null reads it as null.
	NullAsAbsent DecodeMode = 1 << iota
)

// DecodeArgs decodes and validates the raw JSON arguments of a call of t as
// its Decode does: with Decode, or, for a tool without one, with DecodeWith
// in the zero mode. It returns an error when t has neither.
func (t *Tool) DecodeArgs(data []byte) (any, error) {
	switch {
	case t.Decode != nil:
		return t.Decode(data)
	case t.DecodeWith != nil:
		return t.DecodeWith(data, 0)
	}
	return nil, fmt.Errorf("runtime: tool %q has neither Decode nor DecodeWith", t.Name)
}

// hasDecode reports whether t can decode its arguments: it has Decode or
// DecodeWith.
func (t *Tool) hasDecode() bool { return t.Decode != nil || t.DecodeWith != nil }

// IsReadOnly reports whether a call of t with args is read-only.
func (t *Tool) IsReadOnly(args any) bool {
	if t.ReadOnlyFor != nil {
		return t.ReadOnlyFor(args)
	}
	return t.Flags.ReadOnly
}

// IsConcurrencySafe reports whether a call of t with args may run in
// parallel with other calls.
func (t *Tool) IsConcurrencySafe(args any) bool {
	if t.ConcurrencySafeFor != nil {
		return t.ConcurrencySafeFor(args)
	}
	return t.Flags.ConcurrencySafe
}

// Definition is the schema-only shape of a tool sent to a model provider.
type Definition struct {
	// Name and Description are the tool's.
	Name        string `json:"name"`
	Description string `json:"description"`
	// Parameters is the JSON Schema of the argument object.
	Parameters json.RawMessage `json:"parameters"`
}

// Definition returns the schema-only shape of t.
func (t *Tool) Definition() Definition {
	return Definition{Name: t.Name, Description: t.Description, Parameters: t.Schema}
}

// Module is a self-contained bundle of tools under one provider id, as
// generated from one spec file.
type Module struct {
	// Provider is the module's short id ("stripe"). AddModule copies it
	// into each tool's Tool.Provider, where a host can read it (to group
	// tools or label its logs); the pipeline itself does not use it.
	Provider string
	// Description says what the module is for (the spec's description).
	// Optional; it describes the module's namespace on OpenAI Responses
	// (EncodeOptions.OpenAINamespaces).
	Description string
	// Tools in spec order.
	Tools []*Tool
}

// ProviderTool is a tool executed by the model provider itself (web search,
// code execution), sent by portable name and raw config.
type ProviderTool struct {
	// Name is a portable name ("web_search", "code_execution") or a
	// provider's native name, passed through unchanged.
	Name string
	// Config is passed through raw; its fields are not portable.
	Config map[string]any
}
