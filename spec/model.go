// Package spec is the model of a toolgen tool spec (`*.tools.yaml`), its YAML
// loader and its validation. It generates no code: package gen does that from
// the model built here.
//
// Every element of the model carries the position it was read from, so that
// every error can be reported as `file:line:col: message`.
package spec

import (
	"fmt"

	"github.com/toolgen/toolgen/runtime/wire"
)

// Version is the spec format version this package reads (`toolgen: 1`).
const Version = 1

// Pos is a position in a spec file. Line and Col are 1-based; the zero Pos
// means "unknown".
type Pos struct {
	File string
	Line int
	Col  int
}

// String formats p as "file:line:col"; the column is left out when it is
// unknown (0), as for a YAML syntax error, and the line too when it is.
func (p Pos) String() string {
	switch {
	case p.File == "" && p.Col == 0:
		return fmt.Sprintf("%d", p.Line)
	case p.File == "":
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// File is one loaded and validated spec file.
type File struct {
	Pos Pos
	// Path is the spec file's path as it was given to the loader.
	Path string
	// Version is the format version (`toolgen:`); always 1 today.
	Version int
	// Provider is the module's short id (`provider:`), used in logs, labels
	// and as the prefix stripped from tool names to make Go names.
	Provider string
	// Package is the Go package name of the generated code (`package:`,
	// default: the base name of the spec's directory, made a valid identifier).
	Package string
	// Gate is the default connection gate of the module's tools (`gate:`);
	// empty means ungated.
	Gate string
	// GateMessage is what the model reads when a gate is closed (`gate_message:`).
	GateMessage string
	// Description documents the module (`description:`), optional.
	Description string
	// Types are the reusable named types (`types:`), in file order.
	Types []*NamedType
	// Tools are the module's tools, in file order.
	Tools []*Tool
	// HTTP is how the module's HTTP-bound tools reach their API (`http:`,
	// see http.go); nil when no tool is bound.
	HTTP *HTTPModule
	// MCP names the MCP server of the module's MCP-bound tools (`mcp:`,
	// see mcp.go); nil when no tool is bound.
	MCP *MCPModule
	// Initialisms are the module's own initialisms (`initialisms:`), in
	// file order: words that Go names write in capitals besides Go's own
	// (ID, URL, HTTP, …). File.GoName applies them.
	Initialisms []string
	// Targets are the dialects the module is checked against at generate
	// time (`targets:`, see targets.go), in file order; nil means all of
	// Dialects (TargetDialects).
	Targets []Target
	// DeferLoading is the module's default for its tools' DeferLoading
	// (`defer_loading:`, default false).
	DeferLoading bool
	// Icons are the module's default for its tools' Icons (`icons:`, see
	// icons.go); nil: none.
	Icons []Icon
	// Keys holds where each module-level key was written (see KeyPos).
	Keys map[string]Pos
}

// NamedType is a reusable schema declared under `types:`; parameters refer to
// it with `$ref: "#/types/<Name>"` and it becomes one shared Go type.
type NamedType struct {
	Pos    Pos
	Name   string // as written; a valid Go identifier after GoName
	GoName string // exported Go type name: the schema's go_name, else made from Name
	Schema *Schema
	// Recursive marks a type on a reference cycle (a tree's node refers to
	// itself through its children): the cycle can end (see recursive.go),
	// and the schema literal refers to the type by $ref instead of
	// inlining it.
	Recursive bool
}

// Kind says how a tool is presented; execution is the same for both.
type Kind string

const (
	KindTool  Kind = "tool"
	KindAgent Kind = "agent"
)

// Tool is one tool of a spec.
type Tool struct {
	Pos         Pos
	Name        string // the name the model calls (`name:`)
	GoName      string // Go identifier stem: `go_name:`, else the name without the provider prefix, CamelCase ("ListCustomers")
	Description string
	Kind        Kind

	// Params is the tool's argument object: Type is always TypeObject, its
	// properties are the `params:` map in file order and its Required list is
	// the tool's `required:` list.
	Params *Schema

	// Status is the status label template (`status:`), with {param}
	// placeholders; StatusParts is it compiled. StatusFallback (`status_fallback:`)
	// is shown when a placeholder's parameter is absent.
	Status         string
	StatusParts    []LabelPart
	StatusFallback string

	// Gate is the effective connection gate ("" = ungated): the tool's own
	// `gate:` if given (`gate: none` clears it), else the module's.
	// GateMessage is the tool's `gate_message:`, else the module's; it is
	// "" when the tool is ungated.
	Gate        string
	GateMessage string

	Flags Flags

	// DeferLoading marks a tool of a large catalog that the model finds
	// through tool search instead of reading it in every request
	// (`defer_loading:`, default the module's): runtime.Tool.DeferLoading.
	DeferLoading bool

	// Title is the tool's display name for people (`title:`), MCP's tool
	// title; "" shows the name. The model reads Name and Description.
	Title string
	// Icons are the images a client may show for the tool (`icons:`, see
	// icons.go), the module's unless the tool lists its own; an empty
	// list shows none.
	Icons []Icon

	// Result is the optional typed result schema (`result:`). Agent tools
	// have none: the sub-agent's response is their result.
	Result *Schema

	// Examples are example argument objects (`examples:`), in file order,
	// each checked against Params (see Example); nil when there are none.
	Examples []*Example

	// Batch asks for a batch wrapper tool (`batch:`); nil if not asked.
	Batch *Batch
	// Prompt is the prompt template of an agent tool (`prompt:`, kind agent
	// only; never empty), with the placeholders of a status label;
	// PromptParts is it compiled. Values are inserted whole (not clipped as
	// in a label). When a placeholder without its own fallback has no value,
	// the agent gets the default prompt instead ("Complete this delegated
	// task. Input: <arguments as JSON>"), as it does without a prompt.
	Prompt      string
	PromptParts []LabelPart

	// HTTP binds the tool to an HTTP API operation (`http:`, see http.go):
	// its executor is generated. Nil for a hand-written executor.
	HTTP *HTTPBinding
	// MCP binds the tool to a remote MCP server's tool (`mcp:`, see
	// mcp.go): its executor is generated. Nil otherwise.
	MCP *MCPBinding
	// Keys holds where each of the tool's keys was written (see KeyPos).
	Keys map[string]Pos
}

// LabelPart is one piece of a compiled label template: literal text, or a
// placeholder naming a top-level parameter.
//
// Template syntax: "{param}" inserts a parameter's value, "{param|text}"
// inserts text when the parameter is absent, "{{" and "}}" are literal braces.
// When a placeholder without its own fallback has no value, the whole label
// is the tool's status_fallback (or, without one, the tool's name).
type LabelPart struct {
	Text        string // literal text when Param == ""
	Param       string // parameter name of a {placeholder}
	Fallback    string // text of "{param|text}"
	HasFallback bool
	Pos         Pos
}

// FlagMode is how a flag's value is decided.
type FlagMode int

const (
	// Static: the flag's value is Value.
	Static FlagMode = iota
	// ByInput: hand-written code decides per call from the arguments
	// (allowed for read_only and concurrency_safe: `read_only: by_input`).
	ByInput
)

// Flag is a boolean tool flag, possibly decided per input.
type Flag struct {
	Mode  FlagMode
	Value bool
	Set   bool // written in the spec (false: the default applies)
	Pos   Pos
}

// Flags are a tool's behaviour flags with the defaults of DESIGN.md applied:
// enabled true, read_only false, destructive false, idempotent false,
// open_world true, concurrency_safe = read_only, requires_approval false.
type Flags struct {
	Enabled          Flag
	ReadOnly         Flag
	Destructive      Flag
	Idempotent       Flag
	OpenWorld        Flag
	ConcurrencySafe  Flag
	RequiresApproval Flag
	// PermissionCheck (`permission_check: true`) adds a hand-written
	// permission method for the tool to the executor interface.
	PermissionCheck bool
}

// Batch holds the options of a tool's batch wrapper (`batch:`). The loader
// fills in the defaults of options the spec leaves out (name <tool>_batch,
// MaxItems 50, MaxConcurrency 8, MaxResultBytes 20 MiB: DefaultBatch*), so
// every field but Description is set; an empty Description means the
// runtime's default description.
type Batch struct {
	Pos            Pos
	Name           string
	Description    string
	MaxItems       int
	MaxConcurrency int
	MaxResultBytes int
}

// Type is a JSON Schema primitive type name.
type Type string

const (
	TypeString  Type = "string"
	TypeInteger Type = "integer"
	TypeNumber  Type = "number"
	TypeBoolean Type = "boolean"
	TypeArray   Type = "array"
	TypeObject  Type = "object"
)

// Schema is the supported subset of JSON Schema. Keywords keep their JSON
// Schema spelling in YAML. Exactly one of Type, Ref or Union is set.
type Schema struct {
	Pos Pos

	Type Type
	// Ref is the name of the referenced NamedType ("Name" of
	// `$ref: "#/types/Name"`); RefType is it resolved. Beside a $ref a
	// schema holds only Description, Nullable and a default.
	Ref     string
	RefType *NamedType
	// Union is the schema's oneOf or anyOf (see union.go); beside it a
	// schema holds only Description, GoName and Nullable.
	Union *Union

	Description string
	Nullable    bool // `nullable: true` or `type: [T, "null"]`

	// GoName is the schema's `go_name:` (toolgen's own key, not sent to
	// the model), "" when it has none: the Go name of the field of a
	// property, of a named type, or of the type of array items or map
	// values.
	GoName string

	// Default is the default value, checked against the schema and of the
	// Go type matching it: string, int64 (integer), float64 (number), bool,
	// []any or map[string]any (holding values of those types), or nil for a
	// `default: null` of a nullable schema.
	Default    any
	HasDefault bool

	// Enum lists the allowed values (string, int64 for integer, float64 for
	// number), unique, in file order; never null.
	Enum []any

	// Const is the one allowed value (`const:`, HasConst set), of the Go
	// type a default would have (string, int64, float64, bool, []any,
	// map[string]any); never null.
	Const    any
	HasConst bool

	// string
	MinLength *int
	MaxLength *int
	Pattern   string
	Format    string // date-time, date, email, uri, uuid
	// Trim (`trim: true`, toolgen's own key, not JSON Schema: it is not
	// sent to the model) removes leading and trailing white space (as
	// strings.TrimSpace does) from the value as it is decoded, before every
	// other check (length, pattern, format, enum); the value keeps the
	// trimmed text. A default or enum value of a trimmed schema must be
	// trimmed already.
	Trim bool

	// integer and number: exact, kept digit for digit
	// (9007199254740993 stays 9007199254740993).
	Minimum          *wire.Decimal
	Maximum          *wire.Decimal
	ExclusiveMinimum *wire.Decimal
	ExclusiveMaximum *wire.Decimal
	MultipleOf       *wire.Decimal

	// array
	Items       *Schema
	MinItems    *int
	MaxItems    *int
	UniqueItems bool

	// object
	Properties []*Property // in file order
	Required   []string
	// AdditionalProperties: false (the default, strict), true (any extra
	// keys kept as raw JSON), or a schema the extra values must match.
	AdditionalProperties       bool
	AdditionalPropertiesSchema *Schema
	// AllOf are the parts of an `allOf:` (type object only) as written;
	// the loader has merged their properties, required lists and
	// descriptions into this schema (see allof.go), so code generation
	// reads only the merged object.
	AllOf []*Schema
	// Keys holds where each of the schema's keywords was written (see
	// KeyPos).
	Keys map[string]Pos
}

// Property is a named property of an object schema.
type Property struct {
	Pos      Pos
	Name     string // JSON name
	GoName   string // exported Go field name ("UserID"): the schema's go_name, else made from Name
	Required bool   // listed in the parent's `required:`
	Schema   *Schema
}

// Resolved returns s with references followed: the schema that describes the
// value's shape.
func (s *Schema) Resolved() *Schema {
	for s != nil && s.RefType != nil {
		s = s.RefType.Schema
	}
	return s
}

// Property returns the property named name, or nil.
func (s *Schema) Property(name string) *Property {
	for _, p := range s.Properties {
		if p.Name == name {
			return p
		}
	}
	return nil
}
