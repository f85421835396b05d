package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// A prepared catalog is the work of EncodeCatalog that does not depend on
// the request, done once per registry, dialect and options: every tool
// encoded (name checked, schema checked and rewritten, JSON written) and
// the provider tools' tail. A request then filters the tools for its call
// and copies their bytes; it costs about as much as copying the catalog,
// with a fixed number of allocations whatever the number of tools.
//
// Preparing at first use rather than at generate time keeps one code path
// for generated, hand-written and MCP tools, and keeps each dialect's
// rewritten schema out of the generated code (a module would otherwise
// carry one copy of every schema per dialect and mode).

// encodeKey is a dialect and the options it reads; the others are zeroed,
// so that catalogs that would be equal share one preparation.
type encodeKey struct {
	d    Dialect
	opts EncodeOptions
}

func makeEncodeKey(d Dialect, opts EncodeOptions) encodeKey {
	k := EncodeOptions{}
	switch d {
	case DialectOpenAI:
		k.Strict, k.OpenAIOutputSchema, k.OpenAINamespaces = opts.Strict, opts.OpenAIOutputSchema, opts.OpenAINamespaces
	case DialectOpenAIChat:
		k.Strict = opts.Strict
	case DialectAnthropic:
		k.Strict, k.OmitExamples = opts.Strict, opts.OmitExamples
	case DialectGemini:
		k.GeminiJSONSchema = opts.GeminiJSONSchema
	case DialectMCP:
		k.MCPOutputSchema = opts.MCPOutputSchema
	}
	return encodeKey{d: d, opts: k}
}

// prepared is one prepared catalog.
type prepared struct {
	key   encodeKey
	gen   uint64        // the registry's generation it was made from
	tools []*Tool       // local and MCP tools, in registration order
	enc   []encodedTool // tools[i] encoded (its error returned only if the catalog shows it)
	tail  []byte        // the provider tools, each preceded by a comma
	// tailErr is why the provider tools cannot be encoded.
	tailErr error
	// nativeSearch: the provider tools hold the dialect's own tool search.
	nativeSearch bool
	// heads are the namespaces' opening bytes (OpenAINamespaces).
	heads [][]byte
	// The index of a portable tool search, built at the first search.
	searchState
	// clash: a provider tool's name in d clashes with another tool's;
	// whether that matters depends on which tools the request shows, so
	// such a catalog is encoded by EncodeTools every time.
	clash bool
}

// preparedCatalog returns the registry's prepared catalog for d and opts,
// preparing it if the registry has none or has changed since.
func (r *Registry) preparedCatalog(d Dialect, opts EncodeOptions) (*prepared, error) {
	switch d {
	case DialectOpenAI, DialectOpenAIChat, DialectAnthropic, DialectGemini, DialectMCP:
	default:
		return nil, fmt.Errorf("runtime: encoding tools: unknown dialect %q", d)
	}
	key := makeEncodeKey(d, opts)
	r.prepMu.Lock()
	defer r.prepMu.Unlock()
	if p := r.prepared[key]; p != nil && p.gen == r.gen.Load() {
		return p, nil
	}
	r.mu.RLock()
	gen := r.gen.Load()
	tools := r.listLocked(func(*Tool) bool { return true })
	provider := r.providerLocked()
	r.mu.RUnlock()

	p := &prepared{key: key, gen: gen, tools: tools, enc: make([]encodedTool, len(tools))}
	e := encoder{d: d, opts: key.opts, names: make(map[string]bool, len(tools)+len(provider))}
	for i, t := range tools {
		p.enc[i] = e.tool(t)
		e.names[t.Name] = true // unique in the registry
	}
	if d == DialectOpenAI && key.opts.OpenAINamespaces {
		groups, heads, errs := namespaces(tools)
		for i := range p.enc {
			p.enc[i].group = groups[i]
			if g := groups[i]; g > 0 && errs[g-1] != nil && p.enc[i].err == nil {
				p.enc[i].err = errs[g-1]
			}
		}
		p.heads = heads
	}
	p.tail, p.tailErr = e.providerTools(provider)
	p.nativeSearch = hasNativeToolSearch(d, provider)
	if errors.Is(p.tailErr, ErrDuplicate) {
		p.clash = true
	}
	if r.prepared == nil {
		r.prepared = make(map[encodeKey]*prepared)
	}
	r.prepared[key] = p
	return p, nil
}

// encodePrepared writes the catalog for call from p.
func (r *Registry) encodePrepared(ctx context.Context, call *Call, p *prepared) (json.RawMessage, error) {
	if p.clash {
		tools, err := r.Catalog(ctx, call)
		if err != nil {
			return nil, err
		}
		return EncodeTools(p.key.d, tools, r.Provider(), p.key.opts)
	}
	w := newCatalogWriter(p.key.d, len(p.tools), p.nativeSearch)
	w.heads = p.heads
	var failed error
	err := r.filter(ctx, call, len(p.tools), func(i int) *Tool { return p.tools[i] }, func(i int) {
		switch {
		case failed != nil:
		case p.enc[i].err != nil:
			failed = toolError(p.key.d, p.tools[i].Name, p.enc[i].err)
		default:
			w.add(&p.enc[i])
		}
	})
	switch {
	case err != nil:
		return nil, err
	case failed != nil:
		return nil, failed
	case p.tailErr != nil:
		return nil, p.tailErr
	}
	return w.write(p.tail), nil
}
