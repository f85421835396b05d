package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The catalog encoders: the tools a host sends in a model request, in the
// shape each provider's API takes (the request's "tools" value). The
// formats, as documented by each provider:
//
//   - OpenAI Chat Completions, https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools
//     and https://platform.openai.com/docs/guides/function-calling:
//     [{"type":"function","function":{"name","description","parameters","strict"}}].
//   - OpenAI Responses, https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools:
//     [{"type":"function","name","description","parameters","strict"}], and
//     built-in tools {"type":"web_search_preview",…}
//     (https://platform.openai.com/docs/guides/tools-web-search) and
//     {"type":"code_interpreter","container":{"type":"auto"},…}
//     (https://platform.openai.com/docs/guides/tools-code-interpreter).
//   - Anthropic Messages, https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use:
//     [{"name","description","input_schema"}], and server tools
//     {"type":"web_search_20250305","name":"web_search",…}
//     (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool).
//   - Gemini, https://ai.google.dev/api/caching#Tool and
//     https://ai.google.dev/gemini-api/docs/function-calling:
//     [{"functionDeclarations":[{"name","description","parameters"}]},
//     {"googleSearch":{}}, {"codeExecution":{}}].
//   - MCP, the result of tools/list,
//     https://modelcontextprotocol.io/specification/2025-11-25/server/tools:
//     [{"name","title","description","inputSchema","outputSchema","annotations":{…},"icons":[…]}].

// EncodeOptions tune EncodeTools and Registry.EncodeCatalog. The zero value
// sends each tool's schema as generated (converted to Gemini's subset for
// Gemini), with "strict": false on OpenAI.
type EncodeOptions struct {
	// Strict asks for strict function calling (the provider samples the
	// arguments under a grammar of the schema).
	//
	// OpenAI (both dialects): each tool's schema is rewritten by
	// OpenAIStrictSchema and sent with "strict": true; a tool whose schema
	// strict mode cannot carry (a map, say) is sent as generated with
	// "strict": false. Optional parameters become required and nullable,
	// so set Options.DropNullOptionals on the registry that dispatches
	// the calls.
	//
	// Anthropic: each tool's schema is rewritten by AnthropicStrictSchema
	// and sent with "strict": true, within Anthropic's per-request limits
	// of 20 strict tools, 24 optional parameters and 16 parameters with a
	// union type (anyOf or a type array) over all strict tools. Tools are
	// taken in catalog order: one that cannot be strict, or would take the
	// request over a limit, is sent as without Strict, and the next that
	// fits is strict again. Optional parameters stay optional.
	//
	// Gemini and MCP ignore it.
	//
	// A strict tool keeps its Examples: the strict schema only moves
	// constraints into the description, so an example of the tool's own
	// schema fits it.
	Strict bool
	// GeminiJSONSchema sends each Gemini function's schema as
	// parametersJsonSchema (full JSON Schema) instead of converting it to
	// the OpenAPI subset of parameters. Without it, only the tools the
	// subset cannot express go as parametersJsonSchema. Either way the
	// schema keeps every keyword, and those Google documents as ignored
	// there (default, exclusiveMinimum, exclusiveMaximum, multipleOf,
	// uniqueItems, formats other than date-time, date and time) also have
	// their sense written into the description. Other dialects ignore it.
	GeminiJSONSchema bool
	// MCPOutputSchema lists a tool's ResultSchema as its MCP outputSchema
	// when the result is an object (MCP allows no other). A server that
	// lists outputSchema must return each result as structuredContent
	// conforming to it, so this is for hosts that do. Other dialects ignore
	// it.
	MCPOutputSchema bool
	// OpenAIOutputSchema sends a tool's ResultSchema as its output_schema
	// on OpenAI Responses (the JSON the tool's string output holds, as
	// TypedExecuteJSON writes it). Off by default: it is prompt text the
	// model reads in every request. Other dialects ignore it.
	OpenAIOutputSchema bool
	// OmitExamples leaves the tools' Examples out of an Anthropic catalog
	// (input_examples), for a platform that refuses the field: it is
	// generally available on the Claude API, with no beta header (it was
	// the beta advanced-tool-use-2025-11-20 when it came), but a Claude
	// model served elsewhere (Amazon Bedrock, Google Vertex AI) may answer
	// "Extra inputs are not permitted". Other dialects ignore it: they
	// have no place for examples and never send them.
	OmitExamples bool
	// OpenAINamespaces groups the tools of each module (Tool.Provider)
	// under one namespace on OpenAI Responses,
	// {"type":"namespace","name":provider,"description":…,"tools":[…]},
	// where the module's tools were first shown; tools of no module stay
	// at the top level. The description is the Module's, else "Tools of
	// <provider>.". The tools inside keep their names, and the model's
	// function_call names the tool (its "namespace" field the module), so
	// calls are dispatched by name as ever. OpenAI recommends namespaces
	// with deferred tools: the model first sees only each namespace's
	// name and description. Off by default: it changes the shape of the
	// request, and only recent models take it. Other dialects ignore it.
	OpenAINamespaces bool
}

// EncodeTools returns the tool list dialect d's API takes in a request's
// "tools" field (for MCP: the "tools" of a tools/list result), as compact
// JSON with the tools in the given order and the provider tools after them.
// The output is byte-stable: a schema the dialect takes as it is goes
// compacted, key order kept (generated schemas are canonical, keys sorted);
// a rewritten schema (Gemini, strict) and a provider tool's config come
// with sorted keys.
//
// Per dialect:
//
//   - DialectOpenAIChat: function tools only; provider tools mapped from a
//     portable name are left out (Chat Completions has none: register the
//     web_search fallback instead, see NeedsWebSearchFallback), and other
//     names pass through as {"type":name,…config}.
//   - DialectOpenAI (Responses): function tools, then provider tools as
//     {"type":native,…config}; code_interpreter gets
//     "container":{"type":"auto"} unless its config sets a container.
//   - DialectAnthropic: tools with input_schema (and "strict": true, see
//     EncodeOptions.Strict), and their Examples as input_examples
//     (https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools,
//     "Providing tool use examples"; see EncodeOptions.OmitExamples),
//     then server tools as
//     {"type":native,"name":…,…config}. The name is config's "name" if set,
//     else the portable name (web_search), else the registered name without
//     a "_YYYYMMDD" version suffix (computer_20250124 → computer).
//     code_execution has no Anthropic equivalent in the portable table and is
//     left out; a host opts into Anthropic's versioned code-execution
//     server tool by registering its type (code_execution_20250825 or a
//     later one), sent as {"type":…,"name":"code_execution"}.
//   - DialectGemini: one {"functionDeclarations":[…]} entry (absent when no
//     function tool is given), then one {native:config} entry per provider
//     tool. Schemas are converted by GeminiSchema; a tool without
//     parameters has none; a tool whose schema the subset cannot express
//     is sent with parametersJsonSchema (see EncodeOptions.GeminiJSONSchema).
//     Some Gemini models reject a request that mixes googleSearch with
//     function declarations; EncodeTools does not know the model and sends
//     what it is given.
//   - DialectMCP: tools with title and icons (Tool.Title, Tool.Icons; the
//     other dialects have neither and leave them out), inputSchema and
//     annotations from Flags (readOnlyHint, destructiveHint,
//     idempotentHint, openWorldHint, always all four, since MCP's defaults
//     differ from toolgen's), plus
//     outputSchema with EncodeOptions.MCPOutputSchema. Annotations show
//     the static Flags, not ReadOnlyFor. Provider tools are not MCP tools
//     and are left out.
//
// A tool's Examples go to Anthropic alone: OpenAI's function tools,
// Gemini's FunctionDeclaration and MCP's Tool (through protocol revision
// 2026-07-28) have no field for them, so those catalogs leave them out
// and read the same with or without them.
//
// Config is passed through raw (its field names are not portable); on
// OpenAI and Anthropic a "type" key in it is an error, since the encoder
// writes the type (Gemini takes config inside the entry). A tool
// with a nil Schema is sent as taking an empty object.
//
// Unions and references ($ref, $defs, anyOf, oneOf, discriminator, type
// arrays) are rewritten per dialect as encode_union.go describes: a root
// union of objects is flattened into one object for every dialect but MCP,
// oneOf becomes anyOf where only anyOf is taken, and references are kept
// where the dialect takes them and inlined (Gemini parameters) where not.
//
// EncodeTools returns an error, naming the tool, for a schema that is not a
// JSON object of "type":"object" or a union of objects, a $ref that points
// to nothing, outside the schema or round a cycle of references (with its
// JSON path), an Anthropic example that is not a JSON object, a name the
// dialect's API rejects (OpenAI
// and Anthropic: ^[a-zA-Z0-9_-]{1,64}$; Gemini: a letter or underscore,
// then letters, digits, "_", ".", ":" or "-", 64 at most), a name given
// twice, a config that cannot be encoded, or an unknown dialect.
func EncodeTools(d Dialect, tools []*Tool, provider []ProviderTool, opts EncodeOptions) (json.RawMessage, error) {
	switch d {
	case DialectOpenAI, DialectOpenAIChat, DialectAnthropic, DialectGemini, DialectMCP:
	default:
		return nil, fmt.Errorf("runtime: encoding tools: unknown dialect %q", d)
	}
	e := encoder{d: d, opts: opts, names: make(map[string]bool, len(tools)+len(provider))}
	enc := make([]encodedTool, len(tools))
	for i, t := range tools {
		if t == nil {
			return nil, fmt.Errorf("runtime: encoding tools for %s: nil tool", d)
		}
		enc[i] = e.tool(t)
		err := enc[i].err
		if err == nil {
			err = e.claim(t.Name)
		}
		if err != nil {
			return nil, toolError(d, t.Name, err)
		}
	}
	tail, err := e.providerTools(provider)
	if err != nil {
		return nil, err
	}
	w := newCatalogWriter(d, len(tools), hasNativeToolSearch(d, provider))
	if d == DialectOpenAI && opts.OpenAINamespaces {
		groups, heads, errs := namespaces(tools)
		for i := range enc {
			if enc[i].group = groups[i]; groups[i] > 0 && errs[groups[i]-1] != nil {
				return nil, toolError(d, tools[i].Name, errs[groups[i]-1])
			}
		}
		w.heads = heads
	}
	for i := range enc {
		w.add(&enc[i])
	}
	return w.write(tail), nil
}

// encodedTool is one function tool encoded for a dialect and options.
type encodedTool struct {
	frag []byte // the tool's element of the tools array (Gemini: of functionDeclarations)
	err  error  // why it cannot be encoded (frag is nil)
	// With Anthropic strict: alt is the tool without strict, sent when
	// the request's strict budget is spent (nil when frag is not strict:
	// the tool cannot be strict), and optional and unions are what frag
	// spends of that budget.
	alt              []byte
	optional, unions int
	// deferred: the tool has DeferLoading (on OpenAI Responses and
	// Anthropic, frag says so); search: it is a portable tool-search tool
	// (NewToolSearch). Which of them a request shows is the
	// catalogWriter's choice (see write).
	deferred, search bool
	// group is the tool's namespace: 1 + its index in the writer's heads,
	// 0 for none (see EncodeOptions.OpenAINamespaces).
	group int32
}

// catalogWriter collects the function tools a request shows, in order,
// keeping Anthropic strict's per-request budget.
type catalogWriter struct {
	d     Dialect
	shown []shownTool
	// Anthropic strict: what the tools sent strict so far spend.
	strict, optional, unions int
	// deferred and searches count the shown tools with DeferLoading and
	// the portable tool-search tools; nativeSearch: the provider tools
	// hold the dialect's own tool search, so write adds none.
	deferred, searches int
	nativeSearch       bool
	// results: the writer writes a tool search's results, every tool as
	// it is (no search tool added or left out).
	results bool
	// heads are the opening bytes of each namespace, up to its tools.
	heads [][]byte
}

// shownTool is one function tool a request shows.
type shownTool struct {
	frag             []byte
	deferred, search bool
	group            int32
}

// newCatalogWriter returns a writer for up to n tools of dialect d;
// nativeSearch says whether the provider tools hold d's own tool search.
func newCatalogWriter(d Dialect, n int, nativeSearch bool) catalogWriter {
	return catalogWriter{d: d, shown: make([]shownTool, 0, n), nativeSearch: nativeSearch}
}

// The per-request limits of Anthropic strict tool use
// (https://platform.claude.com/docs/en/build-with-claude/structured-outputs,
// "Schema complexity limits"): strict tools, optional parameters and
// parameters with a union type (anyOf or a type array), counted over all
// the strict tools of a request.
const (
	anthropicStrictMaxTools    = 20
	anthropicStrictMaxOptional = 24
	anthropicStrictMaxUnions   = 16
)

// add shows tool t (encoded without error). When t could be strict but
// is shown without, it says why: the per-request limit t would pass (see
// strictOverflow).
func (w *catalogWriter) add(t *encodedTool) (limit string) {
	if t.deferred {
		w.deferred++
	}
	if t.search {
		w.searches++
	}
	frag := t.frag
	if t.alt != nil {
		if limit = w.strictOverflow(t); limit != "" {
			frag = t.alt
		} else {
			w.strict, w.optional, w.unions = w.strict+1, w.optional+t.optional, w.unions+t.unions
		}
	}
	s := shownTool{frag: frag, deferred: t.deferred, search: t.search}
	if w.heads != nil {
		s.group = t.group
	}
	w.shown = append(w.shown, s)
	return limit
}

// The native tool-search tools the catalog adds when it shows a deferred
// tool: OpenAI Responses' hosted tool_search
// (https://developers.openai.com/api/docs/guides/tools-tool-search) and
// Anthropic's BM25 tool search server tool
// (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool;
// natural-language queries, which suit descriptions written for a model).
// A host that registers its own (a provider tool named tool_search on
// OpenAI, tool_search_tool_regex_20251119 or another version on
// Anthropic) gets that one instead.
const (
	openAIToolSearch    = `{"type":"tool_search"}`
	anthropicToolSearch = `{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}`
)

// nativeToolSearch is dialect d's own tool-search tool ("" if it has none).
func nativeToolSearch(d Dialect) string {
	switch d {
	case DialectOpenAI:
		return openAIToolSearch
	case DialectAnthropic:
		return anthropicToolSearch
	}
	return ""
}

// isNativeToolSearch reports whether provider tool p is dialect d's own
// tool search.
func isNativeToolSearch(d Dialect, p ProviderTool) bool {
	if nativeToolSearch(d) == "" {
		return false
	}
	native, ok := NativeToolName(d, p.Name)
	return ok && strings.HasPrefix(native, "tool_search")
}

// hasNativeToolSearch reports whether the provider tools hold d's own
// tool search.
func hasNativeToolSearch(d Dialect, provider []ProviderTool) bool {
	for _, p := range provider {
		if isNativeToolSearch(d, p) {
			return true
		}
	}
	return false
}

// write returns the tools array: the shown tools, then tail, the provider
// tools, each preceded by a comma.
//
// Deferred loading: on OpenAI Responses and Anthropic a deferred tool is
// sent (its frag says defer_loading) and, when one is shown, the
// dialect's tool search comes after the function tools. Elsewhere, a
// catalog that shows a deferred tool and a portable tool-search tool
// leaves the deferred tools out (the search finds them); without a search
// tool they are sent like any other, so none is out of reach. A portable
// search tool is shown only where it leaves something out.
func (w *catalogWriter) write(tail []byte) []byte {
	native := nativeToolSearch(w.d)
	hideDeferred := !w.results && native == "" && w.deferred > 0 && w.searches > 0
	showSearch := w.results || hideDeferred
	extra := ""
	if !w.results && native != "" && w.deferred > 0 && !w.nativeSearch {
		extra = native
	}
	size := len(tail) + len(extra) + len(`[{"functionDeclarations":[]},]`)
	for _, f := range w.shown {
		size += len(f.frag) + 1
	}
	for _, h := range w.heads {
		size += len(h) + len("]},")
	}
	skip := func(f *shownTool) bool { return f.deferred && hideDeferred || f.search && !showSearch }
	var done []bool // the namespaces written
	if len(w.heads) > 0 {
		done = make([]bool, len(w.heads))
	}
	buf := make([]byte, 0, size)
	buf = append(buf, '[')
	gemini := w.d == DialectGemini
	n := 0
	for i := range w.shown {
		f := &w.shown[i]
		if skip(f) || f.group > 0 && done[f.group-1] {
			continue
		}
		switch {
		case n > 0:
			buf = append(buf, ',')
		case gemini:
			buf = append(buf, `{"functionDeclarations":[`...)
		}
		n++
		if f.group == 0 {
			buf = append(buf, f.frag...)
			continue
		}
		// A namespace, where its first tool is: all its tools.
		done[f.group-1] = true
		buf = append(buf, w.heads[f.group-1]...)
		for j, k := i, 0; j < len(w.shown); j++ {
			if g := &w.shown[j]; g.group == f.group && !skip(g) {
				if k > 0 {
					buf = append(buf, ',')
				}
				buf = append(buf, g.frag...)
				k++
			}
		}
		buf = append(buf, "]}"...)
	}
	if gemini && n > 0 {
		buf = append(buf, "]}"...)
	}
	if extra != "" {
		if len(buf) > 1 {
			buf = append(buf, ',')
		}
		buf = append(buf, extra...)
	}
	if len(tail) > 0 {
		if len(buf) == 1 {
			tail = tail[1:]
		}
		buf = append(buf, tail...)
	}
	return append(buf, ']')
}

// toolError is the error EncodeTools returns for tool name.
func toolError(d Dialect, name string, err error) error {
	return fmt.Errorf("runtime: encoding tools for %s: tool %q: %w", d, name, err)
}

// providerTools encodes the provider tools d has, each preceded by a comma,
// and claims their names.
func (e *encoder) providerTools(provider []ProviderTool) ([]byte, error) {
	var tail []byte
	for _, p := range provider {
		raw, err := e.providerTool(p)
		if err != nil {
			return nil, fmt.Errorf("runtime: encoding tools for %s: provider tool %q: %w", e.d, p.Name, err)
		}
		if raw != nil {
			tail = append(append(tail, ','), raw...)
		}
	}
	return tail, nil
}

// EncodeCatalog returns the Catalog for call (enabled tools whose gate is
// open, in registration order) followed by the registry's provider tools,
// encoded for dialect d as EncodeTools does, byte for byte. Errors are
// Catalog's and EncodeTools'.
//
// Each tool is encoded (its schema checked and rewritten for d and opts)
// once, the first time the registry encodes a catalog for that dialect and
// those options; a request then only filters the tools for call and copies
// their prepared bytes. Registering or removing a tool starts afresh. A
// tool's Name, Title, Description, Icons, Schema, ResultSchema, Examples
// and static Flags must therefore not change once it is registered
// (Enabled may: it is read on every request).
func (r *Registry) EncodeCatalog(ctx context.Context, call *Call, d Dialect, opts EncodeOptions) (json.RawMessage, error) {
	p, err := r.preparedCatalog(d, opts)
	if err != nil {
		return nil, err
	}
	return r.encodePrepared(ctx, call, p)
}

type encoder struct {
	d     Dialect
	opts  EncodeOptions
	names map[string]bool // names given so far, to refuse duplicates
}

type openAIChatTool struct {
	Type     string         `json:"type"`
	Function openAIFunction `json:"function"`
}

type openAIFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

// openAIResponsesTool is a Responses API function tool: the Chat
// Completions function's fields, next to "type" instead of inside
// "function". "strict" is always written: the Responses API defaults it to
// true, Chat Completions to false.
type openAIResponsesTool struct {
	Type string `json:"type"`
	openAIFunction
	DeferLoading bool            `json:"defer_loading,omitempty"`
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
}

type anthropicTool struct {
	Name          string            `json:"name"`
	Description   string            `json:"description,omitempty"`
	InputSchema   json.RawMessage   `json:"input_schema"`
	Strict        bool              `json:"strict,omitempty"`
	InputExamples []json.RawMessage `json:"input_examples,omitempty"`
	// DeferLoading: see Tool.DeferLoading.
	DeferLoading bool `json:"defer_loading,omitempty"`
}

// geminiFunction is a FunctionDeclaration
// (https://ai.google.dev/api/caching#FunctionDeclaration): "description" is
// required there, so it is written even when empty; "parameters" and
// "parametersJsonSchema" are mutually exclusive, and both are left out for
// a function without parameters.
type geminiFunction struct {
	Name                 string          `json:"name"`
	Description          string          `json:"description"`
	Parameters           json.RawMessage `json:"parameters,omitempty"`
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema,omitempty"`
}

// mcpTool is an MCP Tool (protocol revision 2025-11-25): title and icons
// as the tool gives them, left out when it has none.
type mcpTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  mcpAnnotations  `json:"annotations"`
	Icons        []Icon          `json:"icons,omitempty"`
}

// mcpAnnotations are MCP's ToolAnnotations. MCP's defaults for absent hints
// (destructive true) differ from toolgen's, so all four are always sent.
type mcpAnnotations struct {
	ReadOnlyHint    bool `json:"readOnlyHint"`
	DestructiveHint bool `json:"destructiveHint"`
	IdempotentHint  bool `json:"idempotentHint"`
	OpenWorldHint   bool `json:"openWorldHint"`
}

// emptyObjectSchema stands in for a nil Schema.
const emptyObjectSchema = `{"properties":{},"type":"object"}`

// validName reports whether name is 1 to 64 characters, each a letter, a
// digit, '_', '-' or one of extra, and starts with a letter or '_' when
// letterFirst.
func validName(name, extra string, letterFirst bool) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
		switch {
		case letter:
		case i == 0 && letterFirst:
			return false
		case '0' <= c && c <= '9' || c == '-' || strings.IndexByte(extra, c) >= 0:
		default:
			return false
		}
	}
	return true
}

// checkName checks name against the dialect's documented rule. OpenAI: "a-z, A-Z, 0-9, or contain underscores and dashes, with a
// maximum length of 64" (function.name). Anthropic: ^[a-zA-Z0-9_-]{1,64}$
// (tool use, "Specifying client tools"). Gemini: "a-z, A-Z, 0-9, or
// contain underscores, colons, dots, and dashes, with a maximum length of
// 64" (FunctionDeclaration.name); Vertex AI adds "must start with a letter
// or an underscore", which is kept so one catalog serves both. MCP sets no
// rule.
func (e *encoder) checkName(name string) error {
	switch e.d {
	case DialectOpenAI, DialectOpenAIChat, DialectAnthropic:
		if !validName(name, "", false) {
			return fmt.Errorf("%s takes tool names of 1 to 64 letters, digits, '_' or '-'", e.d)
		}
	case DialectGemini:
		if !validName(name, ".:", true) {
			return errors.New("gemini takes function names of at most 64 letters, digits, '_', '.', ':' or '-', starting with a letter or '_'")
		}
	}
	if name == "" {
		return errors.New("empty name")
	}
	return nil
}

func (e *encoder) claim(name string) error {
	if name == "" {
		return errors.New("empty name")
	}
	if e.names[name] {
		return fmt.Errorf("%w: %q", ErrDuplicate, name)
	}
	e.names[name] = true
	return nil
}

// tool encodes one function tool. It checks the name but does not claim
// it.
func (e *encoder) tool(t *Tool) encodedTool {
	item, err := e.toolItem(t)
	if err != nil {
		return encodedTool{err: err}
	}
	out := encodedTool{deferred: t.DeferLoading, search: t.search != nil}
	if st, ok := item.(anthropicStrictTool); ok {
		if out.alt, err = marshalCompact(st.plain); err != nil {
			return encodedTool{err: err}
		}
		item, out.optional, out.unions = st.strict, st.optional, st.unions
	}
	if out.frag, err = marshalCompact(item); err != nil {
		return encodedTool{err: err}
	}
	return out
}

// anthropicStrictTool is a tool Anthropic can take strict, in both forms.
type anthropicStrictTool struct {
	strict, plain    anthropicTool
	optional, unions int
}

func (e *encoder) toolItem(t *Tool) (any, error) {
	if err := e.checkName(t.Name); err != nil {
		return nil, err
	}
	raw := []byte(t.Schema)
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte(emptyObjectSchema)
	}
	schema, err := parseSchema(raw)
	if err != nil {
		return nil, err
	}
	var info refInfo
	if bytes.Contains(raw, []byte(`"$ref"`)) {
		if info, err = analyzeRefs(schema); err != nil {
			return nil, err
		}
	}
	a, err := e.rootSchema(schema, info)
	if err != nil {
		return nil, err
	}
	// The schema as generated (its root flattened), compacted: what is
	// sent where the dialect takes it as it is.
	var params json.RawMessage
	if a.flattened {
		params, err = marshalCompact(a.schema)
	} else {
		var compact bytes.Buffer
		if err = json.Compact(&compact, raw); err != nil {
			err = fmt.Errorf("invalid schema: %v", err)
		}
		params = compact.Bytes()
	}
	if err != nil {
		return nil, err
	}
	var examples []json.RawMessage
	if e.d == DialectAnthropic && !e.opts.OmitExamples {
		if examples, err = compactExamples(t.Examples); err != nil {
			return nil, err
		}
	}
	if err := e.rewrite(&a, info); err != nil {
		return nil, err
	}
	sent := params // what the dialect's function (Anthropic: strict one) takes
	if a.out != nil {
		if sent, err = marshalCompact(a.out); err != nil {
			return nil, err
		}
	}

	switch e.d {
	case DialectOpenAI, DialectOpenAIChat:
		f := openAIFunction{Name: t.Name, Description: t.Description, Parameters: sent, Strict: a.strict}
		if e.d == DialectOpenAIChat {
			return openAIChatTool{Type: "function", Function: f}, nil
		}
		rt := openAIResponsesTool{Type: "function", openAIFunction: f, DeferLoading: t.DeferLoading}
		if e.opts.OpenAIOutputSchema {
			if rt.OutputSchema, err = objectJSON(t.ResultSchema); err != nil {
				return nil, fmt.Errorf("result schema: %w", err)
			}
		}
		return rt, nil

	case DialectAnthropic:
		plain := anthropicTool{Name: t.Name, Description: t.Description, InputSchema: params, DeferLoading: t.DeferLoading,
			InputExamples: examples}
		if !a.strict {
			return plain, nil
		}
		strict := plain
		strict.Strict = true
		strict.InputSchema = sent
		return anthropicStrictTool{strict: strict, plain: plain, optional: a.cost.optional, unions: a.cost.unions}, nil

	case DialectGemini:
		g := geminiFunction{Name: t.Name, Description: t.Description}
		switch {
		case a.none:
		case a.jsonSchema:
			g.ParametersJSONSchema = sent
		default:
			g.Parameters = sent
		}
		return g, nil

	default: // DialectMCP
		m := mcpTool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: params, Icons: t.Icons,
			Annotations: mcpAnnotations{
				ReadOnlyHint:    t.Flags.ReadOnly,
				DestructiveHint: t.Flags.Destructive,
				IdempotentHint:  t.Flags.Idempotent,
				OpenWorldHint:   t.Flags.OpenWorld,
			}}
		if e.opts.MCPOutputSchema && len(bytes.TrimSpace(t.ResultSchema)) > 0 {
			rs, err := parseSchema(t.ResultSchema)
			if err != nil {
				return nil, fmt.Errorf("result schema: %w", err)
			}
			if isObjectSchema(rs) {
				var buf bytes.Buffer
				if err := json.Compact(&buf, t.ResultSchema); err != nil {
					return nil, fmt.Errorf("result schema: %v", err)
				}
				m.OutputSchema = buf.Bytes()
			}
		}
		return m, nil
	}
}

// argSchema is what dialect and options send of a tool's argument schema.
type argSchema struct {
	// schema is the schema as generated, its root flattened (objectRoot,
	// mcpRoot) when flattened is set: sent where the dialect takes it as
	// it is.
	schema    map[string]any
	flattened bool
	// out is the dialect's rewrite of schema, sent instead of it; nil
	// when schema is sent (Anthropic strict: the strict form, the plain
	// one sends schema).
	out map[string]any
	// strict: out is strict mode's (OpenAI: sent strict; Anthropic: the
	// tool can be strict, within a request's budget, which cost is what
	// it spends of). notStrict says why strict mode cannot carry schema.
	strict    bool
	notStrict error
	cost      strictCost
	// Gemini: jsonSchema, sent as parametersJsonSchema; none, without
	// parameters.
	jsonSchema, none bool
}

// rootSchema is root, a tool's argument schema as decoded, with info
// (analyzeRefs'), as e's dialect takes it before any rewrite: its root
// flattened where the dialect needs that.
func (e *encoder) rootSchema(root map[string]any, info refInfo) (argSchema, error) {
	var a argSchema
	var err error
	if e.d == DialectMCP {
		a.schema, a.flattened, err = mcpRoot(root, info)
	} else {
		a.schema, a.flattened, err = objectRoot(root, info)
	}
	return a, err
}

// rewrite completes a (rootSchema's) with the rewrite of its schema for
// e's dialect and options.
func (e *encoder) rewrite(a *argSchema, info refInfo) error {
	var err error
	schema := a.schema
	switch e.d {
	case DialectOpenAI, DialectOpenAIChat:
		if e.opts.Strict {
			out, err := strictRoot(schema, info)
			switch {
			case err == nil:
				a.out, a.strict = out, true
			case errors.Is(err, ErrUnsupportedSchema):
				a.notStrict = err
			default:
				return err
			}
		}

	case DialectAnthropic:
		if e.opts.Strict {
			out, cost, err := anthropicStrictRoot(schema, info)
			switch {
			case err == nil:
				a.out, a.strict, a.cost = out, true, cost
			case errors.Is(err, ErrUnsupportedSchema):
				a.notStrict = err
			default:
				return err
			}
		}

	case DialectGemini:
		if e.opts.GeminiJSONSchema {
			if noParameters(schema) {
				a.none = true
				return nil
			}
			a.jsonSchema = true
			a.out, err = geminiJSONSchema(schema, info)
			return err
		}
		out, err := geminiRoot(schema, info)
		switch {
		case err == nil && out != nil:
			a.out = out
		case err == nil: // no parameters
			a.none = true
		case errors.Is(err, ErrUnsupportedSchema):
			a.jsonSchema = true
			if a.out, err = geminiJSONSchema(schema, info); err != nil {
				return err
			}
		default:
			return err
		}
	}
	return nil
}

// compactExamples is examples compacted, each checked to be a JSON object
// (nil for none).
func compactExamples(examples []json.RawMessage) ([]json.RawMessage, error) {
	if len(examples) == 0 {
		return nil, nil
	}
	out := make([]json.RawMessage, len(examples))
	for i, ex := range examples {
		var buf bytes.Buffer
		if err := json.Compact(&buf, ex); err != nil {
			return nil, fmt.Errorf("example %d: %v", i+1, err)
		}
		if buf.Len() == 0 || buf.Bytes()[0] != '{' {
			return nil, fmt.Errorf("example %d is not a JSON object: an example is an argument object", i+1)
		}
		out[i] = buf.Bytes()
	}
	return out, nil
}

// objectRoot returns schema as the dialects that take only an object at
// the top level (all but MCP) need it, flattened by flattenRoot, and
// whether that changed it.
func objectRoot(schema map[string]any, info refInfo) (map[string]any, bool, error) {
	flat, changed, err := flattenRoot(schema, info)
	if err != nil {
		return nil, false, err
	}
	if !isObjectSchema(flat) {
		return nil, false, errors.New(`invalid schema: the top level must be {"type":"object"} or a union of objects`)
	}
	if !changed {
		return schema, false, nil
	}
	return flat, true, nil
}

// mcpRoot is objectRoot for MCP, whose inputSchema must be "type":"object"
// but may be a union: a root union of objects is kept, with
// "type":"object" added when it has none; a root $ref is replaced by the
// schema it names.
func mcpRoot(schema map[string]any, info refInfo) (map[string]any, bool, error) {
	if isObjectSchema(schema) {
		return schema, false, nil
	}
	out, changed, err := resolveRootRef(schema, info)
	if err != nil {
		return nil, false, err
	}
	key, _, _, _, err := rootAlternatives(out)
	if err != nil {
		return nil, false, err
	}
	if key == "" && !isObjectSchema(out) {
		return nil, false, errors.New(`invalid schema: the top level must be {"type":"object"} or a union of objects`)
	}
	if _, hasType := out["type"]; !hasType {
		typed := make(map[string]any, len(out)+1)
		for k, v := range out {
			typed[k] = v
		}
		typed["type"] = "object"
		out, changed = typed, true
	}
	return out, changed, nil
}

// providerTool encodes one provider tool, or returns nil when dialect d has
// no equivalent of it.
func (e *encoder) providerTool(p ProviderTool) (json.RawMessage, error) {
	if e.d == DialectMCP {
		return nil, nil
	}
	native, ok := NativeToolName(e.d, p.Name)
	if !ok {
		return nil, nil
	}
	if _, ok := p.Config["type"]; ok && e.d != DialectGemini {
		return nil, errors.New(`config sets "type", which the encoder writes`)
	}
	var head []member
	config := p.Config
	switch e.d {
	case DialectOpenAI, DialectOpenAIChat:
		if err := e.claim(native); err != nil {
			return nil, err
		}
		head = append(head, member{"type", native})
		if native == "code_interpreter" {
			if _, ok := config["container"]; !ok {
				head = append(head, member{"container", map[string]any{"type": "auto"}})
			}
		}
	case DialectAnthropic:
		name := anthropicServerName(p.Name)
		if v, ok := config["name"]; ok {
			s, ok := v.(string)
			if !ok {
				return nil, errors.New(`config "name" must be a string`)
			}
			name = s
			config = withoutKey(config, "name")
		}
		if err := e.claim(name); err != nil {
			return nil, err
		}
		head = append(head, member{"type", native}, member{"name", name})
	case DialectGemini:
		if err := e.claim(native); err != nil {
			return nil, err
		}
		body, err := object(nil, config)
		if err != nil {
			return nil, err
		}
		return object([]member{{native, json.RawMessage(body)}}, nil)
	}
	return object(head, config)
}

// anthropicServerName is the "name" of an Anthropic server tool registered
// under name: a portable name as is, a native type without its date suffix.
func anthropicServerName(name string) string {
	if name == WebSearch || name == CodeExecution {
		return name
	}
	if i := strings.LastIndexByte(name, '_'); i > 0 && len(name)-i-1 == 8 {
		if _, err := strconv.ParseUint(name[i+1:], 10, 32); err == nil {
			return name[:i]
		}
	}
	return name
}

func withoutKey(m map[string]any, key string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

type member struct {
	key   string
	value any
}

// object writes a JSON object with the head members first, in order, then
// rest's members with sorted keys.
func object(head []member, rest map[string]any) (json.RawMessage, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	write := func(k string, v any) error {
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		kb, err := marshalCompact(k)
		if err != nil {
			return err
		}
		vb, err := marshalCompact(v)
		if err != nil {
			return fmt.Errorf("config %q: %v", k, err)
		}
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(vb)
		return nil
	}
	for _, m := range head {
		if err := write(m.key, m.value); err != nil {
			return nil, err
		}
	}
	for _, k := range sortedKeys(rest) {
		if err := write(k, rest[k]); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// objectJSON returns raw compacted when it is a JSON object, and nil when
// it is empty; anything else is an error.
func objectJSON(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, nil
	}
	if raw[0] != '{' {
		return nil, errors.New("not a JSON object")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// namespaces groups tools by module for OpenAI Responses namespaces
// (EncodeOptions.OpenAINamespaces): each tool's namespace (1 + an index
// in heads; 0 for a tool of no module), and for each namespace, in the
// order of first appearance, its opening bytes up to its tools and why it
// cannot be sent (nil if it can).
func namespaces(tools []*Tool) (groups []int32, heads [][]byte, errs []error) {
	groups = make([]int32, len(tools))
	index := map[string]int32{}
	for i, t := range tools {
		if t.Provider == "" {
			continue
		}
		g, ok := index[t.Provider]
		if !ok {
			desc := t.moduleDescription
			if desc == "" {
				desc = "Tools of " + t.Provider + "."
			}
			head, err := object([]member{{"type", "namespace"}, {"name", t.Provider}, {"description", desc}}, nil)
			if err == nil && !validName(t.Provider, "", false) {
				err = fmt.Errorf("namespace %q: openai takes namespace names of 1 to 64 letters, digits, '_' or '-'", t.Provider)
			}
			// {"type":"namespace",…} becomes {"type":"namespace",…,"tools":[
			head = append(head[:len(head)-1], `,"tools":[`...)
			heads, errs = append(heads, head), append(errs, err)
			g = int32(len(heads))
			index[t.Provider] = g
		}
		groups[i] = g
	}
	return groups, heads, errs
}
