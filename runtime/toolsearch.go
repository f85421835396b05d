package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Tool search for large catalogs. A tool with DeferLoading is one the model
// finds when it needs it instead of reading its definition in every
// request. OpenAI Responses and Anthropic search on their side (the
// catalog marks such tools and adds the provider's tool-search tool, see
// EncodeTools). For the dialects without a native search (Chat
// Completions, Gemini, MCP), NewToolSearch makes a portable one: a tool the
// host registers like any other, which the catalog shows in place of the
// deferred tools, and which returns the definitions of the deferred tools
// that match the model's query, encoded for the dialect, for the host to
// add to its next request.

// ToolSearchName is the default name of the portable tool-search tool.
const ToolSearchName = "tool_search"

// The number of tools one search returns: DefaultToolSearchResults unless
// ToolSearchOptions.MaxResults says otherwise, never more than
// MaxToolSearchResults; the model may ask for fewer with "limit".
const (
	DefaultToolSearchResults = 5
	MaxToolSearchResults     = 20
)

// maxToolSearchQuery is the longest query the search tool takes, in
// characters (Anthropic's tool search takes 200 too).
const maxToolSearchQuery = 200

// ToolSearchOptions configure NewToolSearch.
type ToolSearchOptions struct {
	// Name is the tool's name; empty means ToolSearchName.
	Name string
	// Dialect is the format of the definitions the tool returns:
	// DialectOpenAIChat, DialectGemini or DialectMCP (OpenAI Responses and
	// Anthropic have their own tool search). Required.
	Dialect Dialect
	// Encode are the options the host encodes its catalog with, so that a
	// definition found reads as it would in the catalog.
	Encode EncodeOptions
	// MaxResults bounds the tools one search returns (0 means
	// DefaultToolSearchResults; at most MaxToolSearchResults).
	MaxResults int
}

// toolSearch is the state of a portable tool-search tool.
type toolSearch struct {
	d    Dialect
	opts EncodeOptions
	max  int
}

// toolSearchArgs are the search tool's arguments.
type toolSearchArgs struct {
	Query string `json:"query"`
	Limit int    `json:"limit,omitempty"`
}

// NewToolSearch returns the portable tool-search tool for opts.Dialect. A
// host registers it beside its tools (reg.Add); from then on a catalog
// for that dialect that shows a deferred tool leaves the deferred tools out
// and shows the search tool instead (see EncodeTools), and a catalog that
// defers nothing leaves the search tool out.
//
// The tool takes {"query": string, "limit": integer}. It searches the
// deferred tools the catalog for the call would show (enabled, their gate
// open: a hidden or gated tool is never found) by their names,
// descriptions and parameter names (see Registry.SearchTools), and its
// result is the JSON array EncodeTools writes for the matching tools, best
// first: the host adds its elements to the tools of its next request (for
// Gemini, the declarations inside the array's functionDeclarations entry),
// and the model calls them there. Calls of a tool found are dispatched
// like any other: the pipeline's checks all apply.
func NewToolSearch(opts ToolSearchOptions) (*Tool, error) {
	switch opts.Dialect {
	case DialectOpenAIChat, DialectGemini, DialectMCP:
	case DialectOpenAI, DialectAnthropic:
		return nil, fmt.Errorf("runtime: NewToolSearch: %s has its own tool search, which its catalog adds where it defers a tool", opts.Dialect)
	default:
		return nil, fmt.Errorf("runtime: NewToolSearch: unknown dialect %q", opts.Dialect)
	}
	name := opts.Name
	if name == "" {
		name = ToolSearchName
	}
	if err := checkToolName(name); err != nil {
		return nil, fmt.Errorf("runtime: NewToolSearch: %w", err)
	}
	limit := opts.MaxResults
	switch {
	case limit == 0:
		limit = DefaultToolSearchResults
	case limit < 0 || limit > MaxToolSearchResults:
		return nil, fmt.Errorf("runtime: NewToolSearch: MaxResults %d is not between 1 and %d", limit, MaxToolSearchResults)
	}
	s := &toolSearch{d: opts.Dialect, opts: opts.Encode, max: limit}
	schema := fmt.Sprintf(`{"additionalProperties":false,"properties":{`+
		`"limit":{"description":"How many tools to return at most (default %d).","maximum":%d,"minimum":1,"type":"integer"},`+
		`"query":{"description":"What the tool should do, in a few words (for example: refund a charge).","maxLength":%d,"minLength":1,"type":"string"}`+
		`},"required":["query"],"type":"object"}`, limit, limit, maxToolSearchQuery)
	return &Tool{
		Name: name,
		Description: fmt.Sprintf("Search the tools that are not listed yet by what they do; returns the definitions "+
			"of up to %d matching tools, best first, which can be called by name from then on.", limit),
		Schema: json.RawMessage(schema),
		Flags:  Flags{Enabled: true, ReadOnly: true, Idempotent: true, ConcurrencySafe: true},
		Decode: s.decode,
		Label: func(args any) string {
			if a, ok := args.(*toolSearchArgs); ok && a.Query != "" {
				return "Searching tools for " + clipLabel(a.Query)
			}
			return "Searching tools"
		},
		Execute: s.execute,
		search:  s,
	}, nil
}

// clipLabel clips s to 64 characters for a status label.
func clipLabel(s string) string {
	if utf8.RuneCountInString(s) <= 64 {
		return s
	}
	return string([]rune(s)[:64]) + "…"
}

func (s *toolSearch) decode(data []byte) (any, error) {
	var in struct {
		Query *string `json:"query"`
		Limit *int    `json:"limit"`
	}
	if err := decodeStrict(data, &in); err != nil {
		return nil, err
	}
	a := &toolSearchArgs{Limit: s.max}
	var vs []Violation
	if in.Query != nil {
		a.Query = *in.Query
	}
	switch n := utf8.RuneCountInString(a.Query); {
	case in.Query == nil:
		vs = append(vs, Violation{Path: "$.query", Message: "is required: say what the tool should do"})
	case strings.TrimSpace(a.Query) == "":
		vs = append(vs, Violation{Path: "$.query", Message: "must not be blank: say what the tool should do"})
	case n > maxToolSearchQuery:
		vs = append(vs, Violation{Path: "$.query", Message: fmt.Sprintf("must be at most %d characters, got %d", maxToolSearchQuery, n)})
	}
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > s.max {
			vs = append(vs, Violation{Path: "$.limit", Message: fmt.Sprintf("must be between 1 and %d, got %d", s.max, *in.Limit)})
		}
		a.Limit = *in.Limit
	}
	if vs != nil {
		return a, &ValidationError{Violations: vs}
	}
	return a, nil
}

func (s *toolSearch) execute(ctx context.Context, call *Call, args any) (Result, error) {
	a, ok := args.(*toolSearchArgs)
	if !ok || a == nil {
		return Result{}, fmt.Errorf("tool search: arguments of type %T", args)
	}
	if call == nil || call.Registry == nil {
		return Result{}, errors.New("tool search: the call has no registry to search")
	}
	out, err := call.Registry.encodeSearch(ctx, call, s.d, s.opts, a.Query, a.Limit)
	if err != nil {
		return Result{}, err
	}
	return Text(string(out)), nil
}

// SearchTools returns the deferred tools (Tool.DeferLoading) that the
// catalog for call would show and that match query, best first, at most
// limit of them (limit ≤ 0 means DefaultToolSearchResults). It is the search
// of NewToolSearch's tool, for hosts that search by themselves.
//
// The search is by words, case-folded: the query's words are matched
// against the words of each tool's name (split at '_', '-', '.' and
// camelCase), description and parameter names, a plural "s" ignored and
// common English words left out. A word matching a name word counts three
// times as much as one matching the description, a whole word twice as
// much as a prefix of one (three letters at least); a tool's score is the
// sum over the query's words, and ties keep registration order. A tool
// none of whose words matches is not returned.
func (r *Registry) SearchTools(ctx context.Context, call *Call, query string, limit int) ([]*Tool, error) {
	if limit <= 0 {
		limit = DefaultToolSearchResults
	}
	p, err := r.preparedCatalog(DialectMCP, EncodeOptions{})
	if err != nil {
		return nil, err
	}
	hits, err := r.searchPrepared(ctx, call, p, query, limit)
	if err != nil {
		return nil, err
	}
	out := make([]*Tool, len(hits))
	for i, h := range hits {
		out[i] = p.tools[h]
	}
	return out, nil
}

// encodeSearch returns the tools array of dialect d for the deferred tools
// matching query, at most limit (see SearchTools).
func (r *Registry) encodeSearch(ctx context.Context, call *Call, d Dialect, opts EncodeOptions, query string, limit int) (json.RawMessage, error) {
	p, err := r.preparedCatalog(d, opts)
	if err != nil {
		return nil, err
	}
	hits, err := r.searchPrepared(ctx, call, p, query, limit)
	if err != nil {
		return nil, err
	}
	w := newCatalogWriter(d, len(hits), false)
	w.results = true
	for _, h := range hits {
		if err := p.enc[h].err; err != nil {
			return nil, toolError(d, p.tools[h].Name, err)
		}
		w.add(&p.enc[h])
	}
	return w.write(nil), nil
}

// searchPrepared returns the indexes in p.tools of the deferred tools the
// catalog for call shows that match query, best first, at most limit.
func (r *Registry) searchPrepared(ctx context.Context, call *Call, p *prepared, query string, limit int) ([]int, error) {
	ix := p.searchIndex()
	shown := make([]bool, len(p.tools))
	err := r.filter(ctx, call, len(p.tools), func(i int) *Tool { return p.tools[i] }, func(i int) {
		t := p.tools[i]
		shown[i] = t.DeferLoading && t.search == nil
	})
	if err != nil {
		return nil, err
	}
	return ix.search(query, shown, limit), nil
}

// searchIndex is an inverted index of a prepared catalog's tools: each
// word of a name, description or parameter name, and the tools it is in.
type searchIndex struct {
	n     int         // the number of tools
	terms []string    // the words, sorted
	posts [][]posting // posts[i]: the tools holding terms[i]
	names []string    // each tool's name as words, joined by spaces
}

// posting is a tool holding a word, with the weight of the field it is in
// (the best one, when it is in several).
type posting struct {
	tool   int32
	weight int32
}

// The weights of the fields a word is found in.
const (
	weightName        = 3
	weightDescription = 1
)

// searchIndex returns p's search index, building it at first use.
func (p *prepared) searchIndex() *searchIndex {
	p.searchOnce.Do(func() { p.search = buildSearchIndex(p.tools) })
	return p.search
}

func buildSearchIndex(tools []*Tool) *searchIndex {
	ix := &searchIndex{n: len(tools), names: make([]string, len(tools))}
	byTerm := map[string][]posting{}
	var words []string
	for i, t := range tools {
		add := func(weight int32) {
			for _, w := range words {
				ps := byTerm[w]
				if k := len(ps) - 1; k >= 0 && ps[k].tool == int32(i) {
					ps[k].weight = max(ps[k].weight, weight)
					continue
				}
				byTerm[w] = append(ps, posting{tool: int32(i), weight: weight})
			}
		}
		words = searchWords(t.Name, words[:0])
		ix.names[i] = strings.Join(words, " ")
		add(weightName)
		words = searchWords(t.Description, words[:0])
		for _, param := range paramNames(t.Schema) {
			words = searchWords(param, words)
		}
		add(weightDescription)
	}
	ix.terms = make([]string, 0, len(byTerm))
	for w := range byTerm {
		ix.terms = append(ix.terms, w)
	}
	sort.Strings(ix.terms)
	ix.posts = make([][]posting, len(ix.terms))
	for i, w := range ix.terms {
		ix.posts[i] = byTerm[w]
	}
	return ix
}

// paramNames returns the top-level property names of a tool's schema.
func paramNames(schema json.RawMessage) []string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// maxQueryWords bounds the words of a query that are looked up.
const maxQueryWords = 32

// search returns the indexes of the tools with shown[i] that match query,
// best first, at most limit.
func (ix *searchIndex) search(query string, shown []bool, limit int) []int {
	words := searchWords(query, nil)
	if len(words) > maxQueryWords {
		words = words[:maxQueryWords]
	}
	score := make([]int32, ix.n)
	best := make([]int32, ix.n) // this word's best weight per tool
	var touched []int32
	for qi, q := range words {
		if slices.Contains(words[:qi], q) {
			continue
		}
		i := sort.SearchStrings(ix.terms, q)
		for j := i; j < len(ix.terms) && strings.HasPrefix(ix.terms[j], q); j++ {
			exact := ix.terms[j] == q
			if !exact && len(q) < 3 {
				break // the exact term sorts first
			}
			for _, p := range ix.posts[j] {
				w := p.weight
				if exact {
					w *= 2
				}
				if best[p.tool] == 0 {
					touched = append(touched, p.tool)
				}
				best[p.tool] = max(best[p.tool], w)
			}
		}
		for _, t := range touched {
			score[t] += best[t]
			best[t] = 0
		}
		touched = touched[:0]
	}
	// The whole query as a tool's name ("create ticket" for create_ticket)
	// puts that tool first.
	if whole := strings.Join(words, " "); whole != "" {
		for i, name := range ix.names {
			if score[i] > 0 && name == whole {
				score[i] += 1 << 20
			}
		}
	}
	var hits []int
	for i, s := range score {
		if s > 0 && shown[i] {
			hits = append(hits, i)
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return score[hits[a]] > score[hits[b]] })
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits
}

// searchStopWords are left out of names, descriptions and queries.
var searchStopWords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true,
	"for": true, "from": true, "in": true, "into": true, "is": true, "it": true, "its": true, "of": true,
	"on": true, "or": true, "that": true, "the": true, "this": true, "to": true, "with": true,
	"tool": true, "tools": true,
}

// searchWords appends to dst the words of s: runs of letters and digits,
// split where a lower-case letter or digit meets an upper-case one
// (listCustomers), lower-cased, a trailing plural "s" dropped (not "ss"),
// stop words left out.
func searchWords(s string, dst []string) []string {
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := strings.ToLower(s[start:end])
		start = -1
		if len(w) > 3 && w[len(w)-1] == 's' && w[len(w)-2] != 's' {
			w = w[:len(w)-1]
		}
		if !searchStopWords[w] {
			dst = append(dst, w)
		}
	}
	prevLower := false
	for i, r := range s {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case !word:
			flush(i)
		case start < 0:
			start = i
		case prevLower && unicode.IsUpper(r):
			flush(i)
			start = i
		}
		prevLower = word && !unicode.IsUpper(r)
	}
	flush(len(s))
	return dst
}

// searchState is the part of a prepared catalog built at its first search.
type searchState struct {
	searchOnce sync.Once
	search     *searchIndex
}
