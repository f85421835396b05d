package runtime

// Dialect names a model provider's tool-calling API.
type Dialect string

const (
	// DialectOpenAI is OpenAI's Responses API (POST /v1/responses), which
	// has the provider tools web_search_preview and code_interpreter.
	DialectOpenAI Dialect = "openai"
	// DialectOpenAIChat is OpenAI's Chat Completions API (POST
	// /v1/chat/completions). It takes function tools only: its web search
	// is a request option of the search models, not a tool, so no portable
	// provider tool maps to it (NeedsWebSearchFallback is true).
	DialectOpenAIChat Dialect = "openai_chat"
	// DialectAnthropic is Anthropic's Messages API.
	DialectAnthropic Dialect = "anthropic"
	// DialectGemini is Google's Gemini API (generateContent).
	DialectGemini Dialect = "gemini"
	// DialectMCP serves tools over the Model Context Protocol, which has no
	// provider-executed tools.
	DialectMCP Dialect = "mcp"
)

// Portable names of provider-executed tools.
const (
	WebSearch     = "web_search"
	CodeExecution = "code_execution"
)

// NativeToolName returns the name dialect d uses for a provider tool with
// the given portable name: web_search is web_search_20250305 on Anthropic,
// web_search_preview on OpenAI and googleSearch on Gemini; code_execution is
// code_interpreter on OpenAI and codeExecution on Gemini. ok is false when a
// portable name has no equivalent in d (code_execution on Anthropic, any of
// them on OpenAI Chat Completions and MCP). A name that is not portable
// passes through unchanged.
func NativeToolName(d Dialect, portable string) (name string, ok bool) {
	switch portable {
	case WebSearch:
		switch d {
		case DialectAnthropic:
			return "web_search_20250305", true
		case DialectOpenAI:
			return "web_search_preview", true
		case DialectGemini:
			return "googleSearch", true
		}
		return "", false
	case CodeExecution:
		switch d {
		case DialectOpenAI:
			return "code_interpreter", true
		case DialectGemini:
			return "codeExecution", true
		}
		return "", false
	}
	return portable, true
}

// NativeProviderTool is a provider tool as sent to one dialect: its native
// name and its raw config.
type NativeProviderTool struct {
	// Name is the dialect's native name.
	Name string
	// Portable is the name the tool was registered under.
	Portable string
	// Config is passed through raw.
	Config map[string]any
}

// ProviderToolsFor returns the registry's provider tools under dialect d's
// native names, in registration order, leaving out those d has no
// equivalent for.
func (r *Registry) ProviderToolsFor(d Dialect) []NativeProviderTool {
	var out []NativeProviderTool
	for _, t := range r.Provider() {
		if name, ok := NativeToolName(d, t.Name); ok {
			out = append(out, NativeProviderTool{Name: name, Portable: t.Name, Config: t.Config})
		}
	}
	return out
}

// NeedsWebSearchFallback reports whether a model speaking dialect d would
// have no web search from this registry: no local or MCP tool is named
// web_search, and either no web_search provider tool is registered or d has
// no native web search. A host then registers a web_search fallback tool
// (see package runtime/websearch); since names are unique across local, MCP
// and provider tools, it first removes a registered web_search provider
// tool.
func (r *Registry) NeedsWebSearchFallback(d Dialect) bool {
	r.mu.RLock()
	_, local := r.tools[WebSearch]
	_, provider := r.provider[WebSearch]
	r.mu.RUnlock()
	if local {
		return false
	}
	if !provider {
		return true
	}
	_, native := NativeToolName(d, WebSearch)
	return !native
}
