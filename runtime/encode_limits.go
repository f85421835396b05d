package runtime

import (
	"fmt"
	"slices"
	"unicode/utf8"
)

// The limits a dialect's API puts on a request's function tools beyond one
// tool's name and schema (which EncodeTools checks, and falls back from
// strict for): how many tools a request may carry, how long a description
// may be, and Anthropic strict's per-request budget. EncodeTools sends what
// it is given whatever these say, since which tools go into a request is
// the host's choice (gates, deferred loading); CheckLimits says which of
// them a list of tools passes, and toolgen reports the same findings at the
// spec's positions when it generates a module.
//
// The limits, as each provider documents or enforces them:
//
//   - OpenAI (Chat Completions and Responses): at most 128 tools in a
//     request ("Invalid 'tools': array too long. Expected an array with
//     maximum length 128", code array_above_max_length). A function's
//     description has been refused past 1,024 characters ("Invalid
//     'tools[0].function.description': string too long. Expected a string
//     with maximum length 1024", code string_above_max_length); the API
//     reference documents no limit and current models take longer ones, so
//     a longer description is reported as a risk, not a refusal.
//     Strict mode's limits (5,000 properties, 10 levels of objects, 1,000
//     enum values, 120,000 characters of names and enum values, 15,000
//     characters in an enum of more than 250 strings) are documented per
//     schema, so they are per tool: OpenAIStrictSchema refuses a schema past
//     them and EncodeTools sends that tool without strict.
//   - Anthropic: no limit on the number of tools or on a description is
//     documented. Strict tool use takes at most 20 strict tools, 24
//     optional parameters and 16 parameters with a union type per request
//     (https://platform.claude.com/docs/en/build-with-claude/structured-outputs,
//     "Schema complexity limits"); EncodeTools sends a tool that would pass
//     them without strict.
//   - Gemini: "Maximum 128 function declarations can be provided"
//     (Vertex AI, Tool.functionDeclarations); no limit on a description is
//     documented.
//   - MCP: none.
//
// No dialect documents a limit on a parameter's description, or on enums,
// property counts or nesting outside strict mode (Gemini warns only that
// "very large or deeply nested schemas" may be rejected); the rewrites
// follow at most 64 levels of subschemas (see maxSchemaDepth).
const (
	// OpenAIMaxTools is how many tools OpenAI takes in one request.
	OpenAIMaxTools = 128
	// OpenAIMaxDescription is the length, in characters, past which
	// OpenAI has refused a function's description.
	OpenAIMaxDescription = 1024
	// GeminiMaxFunctions is how many function declarations Gemini takes in
	// one request.
	GeminiMaxFunctions = 128
	// AnthropicStrictMaxTools, AnthropicStrictMaxOptional and
	// AnthropicStrictMaxUnions are Anthropic strict tool use's per-request
	// limits: strict tools, optional parameters and parameters with a
	// union type (anyOf or a type array), over all strict tools.
	AnthropicStrictMaxTools    = anthropicStrictMaxTools
	AnthropicStrictMaxOptional = anthropicStrictMaxOptional
	AnthropicStrictMaxUnions   = anthropicStrictMaxUnions
)

// A LimitIssue is one limit a list of tools passes, found by CheckLimits.
type LimitIssue struct {
	// Tool is the index, in the list given, of the tool the issue is
	// about: for a per-request limit, the first tool past it.
	Tool int
	// Limit names the limit passed: "description" (a tool's description,
	// OpenAIMaxDescription), "tools" (tools in a request, OpenAIMaxTools or
	// GeminiMaxFunctions), or Anthropic strict's per-request budget, whose
	// tool is sent without strict: "strict_tools", "strict_optional" or
	// "strict_unions" (AnthropicStrictMaxTools and the others).
	Limit string
	// Refused is true when the provider refuses a request carrying the
	// tools (for a per-request limit: all of them), false when it has
	// refused such a request before or sends the tool weakened.
	Refused bool
	// Msg says what passes which limit, without the tool's name:
	// "129 tools, more than the 128 openai takes in a request".
	Msg string
}

// CheckLimits reports the limits of dialect d (see OpenAIMaxTools and the
// others) that tools, sent together in one request encoded with opts,
// pass, in the order of the tools. Tools EncodeTools would refuse are an
// error, as there.
func CheckLimits(d Dialect, tools []*Tool, opts EncodeOptions) ([]LimitIssue, error) {
	e := encoder{d: d, opts: opts}
	return checkLimits(d, tools, opts, func(i int) encodedTool { return e.tool(tools[i]) })
}

// checkLimits is CheckLimits, with encode(i) giving tools[i] encoded in d
// and opts (for Anthropic strict).
func checkLimits(d Dialect, tools []*Tool, opts EncodeOptions, encode func(i int) encodedTool) ([]LimitIssue, error) {
	var issues []LimitIssue
	switch d {
	case DialectOpenAI, DialectOpenAIChat:
		for i, t := range tools {
			if n := utf8.RuneCountInString(t.Description); n > OpenAIMaxDescription {
				issues = append(issues, LimitIssue{Tool: i, Limit: "description",
					Msg: fmt.Sprintf("a description of %d characters, more than the %d %s has refused (string_above_max_length)", n, OpenAIMaxDescription, d)})
			}
		}
		if len(tools) > OpenAIMaxTools {
			issues = append(issues, LimitIssue{Tool: OpenAIMaxTools, Limit: "tools", Refused: true,
				Msg: fmt.Sprintf("%d tools, more than the %d %s takes in a request", len(tools), OpenAIMaxTools, d)})
		}
	case DialectGemini:
		if len(tools) > GeminiMaxFunctions {
			issues = append(issues, LimitIssue{Tool: GeminiMaxFunctions, Limit: "tools", Refused: true,
				Msg: fmt.Sprintf("%d function declarations, more than the %d gemini takes in a request", len(tools), GeminiMaxFunctions)})
		}
	case DialectAnthropic:
		if !opts.Strict {
			break
		}
		w := catalogWriter{d: d}
		for i, t := range tools {
			if t == nil {
				return nil, fmt.Errorf("runtime: checking tools for %s: nil tool", d)
			}
			enc := encode(i)
			if enc.err != nil {
				return nil, toolError(d, t.Name, enc.err)
			}
			if limit := w.add(&enc); limit != "" {
				// w is as before t: a tool past the budget spends none of it.
				issues = append(issues, LimitIssue{Tool: i, Limit: limit, Msg: w.overflowMessage(limit, &enc)})
			}
		}
	case DialectMCP:
	default:
		return nil, fmt.Errorf("runtime: checking tools: unknown dialect %q", d)
	}
	slices.SortStableFunc(issues, func(a, b LimitIssue) int { return a.Tool - b.Tool })
	return issues, nil
}

// strictOverflow says which of Anthropic strict's per-request limits tool t
// would pass if it were sent strict after the tools w has sent strict: the
// LimitIssue.Limit name, "" when it fits. It allocates nothing: it runs for
// every tool of every request.
func (w *catalogWriter) strictOverflow(t *encodedTool) string {
	switch {
	case w.strict+1 > anthropicStrictMaxTools:
		return "strict_tools"
	case w.optional+t.optional > anthropicStrictMaxOptional:
		return "strict_optional"
	case w.unions+t.unions > anthropicStrictMaxUnions:
		return "strict_unions"
	}
	return ""
}

// overflowMessage says how tool t passes limit (strictOverflow's answer)
// after the tools w has sent strict.
func (w *catalogWriter) overflowMessage(limit string, t *encodedTool) string {
	budget := func(n, spent, max int, what string) string {
		if n > max {
			return fmt.Sprintf("%d %s, more than the %d anthropic strict takes in a request", n, what, max)
		}
		return fmt.Sprintf("%d %s, which would make %d in the request's strict tools, more than the %d anthropic strict takes", n, what, spent+n, max)
	}
	switch limit {
	case "strict_tools":
		return fmt.Sprintf("it would be strict tool %d, more than the %d anthropic strict takes in a request", w.strict+1, anthropicStrictMaxTools)
	case "strict_optional":
		return budget(t.optional, w.optional, anthropicStrictMaxOptional, "optional parameters")
	}
	return budget(t.unions, w.unions, anthropicStrictMaxUnions, "union parameters")
}
