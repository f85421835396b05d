package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
)

// ErrDuplicate is returned (wrapped) when a name is already registered.
var ErrDuplicate = errors.New("duplicate tool name")

// Limits bound what a call may carry. Zero fields take the defaults.
//
// Nesting depth needs no limit here: generated decoders follow the schema,
// whose depth is fixed, and skip or keep free-form values (unknown keys,
// additionalProperties) only up to 64 levels deep.
type Limits struct {
	// MaxArgumentBytes caps the raw JSON arguments (default 1 MiB).
	MaxArgumentBytes int
	// MaxResultBytes caps a result's total size (default 1 MiB); longer text
	// is truncated with a marker saying so.
	MaxResultBytes int
}

// The limits a zero Limits field stands for.
const (
	DefaultMaxArgumentBytes = 1 << 20
	DefaultMaxResultBytes   = 1 << 20
)

func (l Limits) withDefaults() Limits {
	if l.MaxArgumentBytes <= 0 {
		l.MaxArgumentBytes = DefaultMaxArgumentBytes
	}
	if l.MaxResultBytes <= 0 {
		l.MaxResultBytes = DefaultMaxResultBytes
	}
	return l
}

// Fallback runs calls for names no registered tool owns: the host's legacy
// ("native") catalog during a migration to modules.
type Fallback interface {
	// Dispatch runs the call and reports whether it owns the name. A false
	// ok makes Dispatch return an unknown-tool error to the model.
	Dispatch(ctx context.Context, call *Call, tc ToolCall) (r Result, ok bool, err error)
}

// FallbackNamer is implemented by a Fallback that can list the names it
// serves. Dispatch then considers them too when it suggests a name for an
// unknown tool ("did you mean").
type FallbackNamer interface {
	Names() []string
}

// FallbackFunc adapts a function to Fallback.
type FallbackFunc func(ctx context.Context, call *Call, tc ToolCall) (Result, bool, error)

// Dispatch returns f(ctx, call, tc).
func (f FallbackFunc) Dispatch(ctx context.Context, call *Call, tc ToolCall) (Result, bool, error) {
	return f(ctx, call, tc)
}

// Options configure a Registry. The zero value is usable: no gates are open
// (gated tools are unavailable), no host policy, "ask" decisions are denied
// because nothing can store a pause point, no fallback, default limits.
type Options struct {
	// Gates answers connection-gate checks. Nil: every gate is closed.
	Gates Gates
	// Policy is the host's say on enabled tools and permissions. Optional.
	Policy Policy
	// Approvals stores pause points for calls that need approval. Nil:
	// such calls are denied with a reason saying approval is unavailable.
	Approvals Approvals
	// Fallback serves names no tool owns (the native catalog). Optional.
	Fallback Fallback
	// Limits bound arguments and results.
	Limits Limits
	// DropNullOptionals makes the pipeline read every null the model sent
	// for an optional property whose schema does not accept null as if the
	// property were absent: generated decoders do it as they read
	// (Tool.DecodeWith with NullAsAbsent, no extra pass); for a tool
	// without DecodeWith those nulls are removed against its Schema before
	// Decode. Set it when the catalog is sent with EncodeOptions.Strict:
	// strict mode makes every property required, so the model sends null
	// where it means "absent". Zero: nulls reach the decoders, which
	// reject them.
	DropNullOptionals bool
	// Logger receives debug logs of the pipeline. Nil: no logs.
	Logger *slog.Logger
}

// ToolCall is one tool call from the model.
type ToolCall struct {
	// ID is the provider's id of the call, echoed in the Outcome and events
	// so the host can pair the result with the call.
	ID string `json:"id"`
	// Name is the tool the model called.
	Name string `json:"name"`
	// Arguments are the raw JSON arguments as the model sent them; empty
	// or null means {}.
	Arguments json.RawMessage `json:"arguments"`
}

// Registry holds local, MCP and provider tools in one name space and
// dispatches calls to them. It is safe for concurrent use.
type Registry struct {
	opts   Options
	limits Limits

	mu       sync.RWMutex
	tools    map[string]*Tool // local and MCP
	order    []string         // registration order of every name (all three kinds)
	provider map[string]ProviderTool

	watch watchers // see OnChange

	// gen counts the changes of the tools (under mu), retiring the
	// prepared catalogs made before (catalog_prepared.go).
	gen      atomic.Uint64
	prepMu   sync.Mutex
	prepared map[encodeKey]*prepared
}

// NewRegistry returns an empty registry configured by opts.
func NewRegistry(opts Options) *Registry {
	return &Registry{
		opts:     opts,
		limits:   opts.Limits.withDefaults(),
		tools:    make(map[string]*Tool),
		provider: make(map[string]ProviderTool),
	}
}

// Options returns the registry's options.
func (r *Registry) Options() Options { return r.opts }

// Add registers local tools. It fails, adding none, if a name is empty,
// already registered, or repeated, or a tool lacks Execute or has neither
// Decode nor DecodeWith.
func (r *Registry) Add(tools ...*Tool) error { return r.add(SourceLocal, nil, tools) }

// AddMCP registers tools served by an MCP server (same rules as Add).
func (r *Registry) AddMCP(tools ...*Tool) error { return r.add(SourceMCP, nil, tools) }

// AddModule registers every tool of m, setting their Provider.
func (r *Registry) AddModule(m *Module) error {
	if m == nil {
		return errors.New("runtime: nil module")
	}
	return r.add(SourceLocal, m, m.Tools)
}

// add registers tools from source src, of module m if it is not nil.
func (r *Registry) add(src Source, m *Module, tools []*Tool) (err error) {
	defer func() { r.watch.changed(err == nil && len(tools) > 0) }()
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := make(map[string]bool, len(tools))
	for _, t := range tools {
		switch {
		case t == nil:
			return errors.New("runtime: nil tool")
		case t.Name == "":
			return errors.New("runtime: tool with an empty name")
		case !t.hasDecode() || t.Execute == nil:
			return fmt.Errorf("runtime: tool %q needs Decode (or DecodeWith) and Execute", t.Name)
		case seen[t.Name] || r.hasLocked(t.Name):
			return fmt.Errorf("runtime: %w: %q", ErrDuplicate, t.Name)
		}
		seen[t.Name] = true
	}
	r.gen.Add(1)
	for _, t := range tools {
		t.Source = src
		if m != nil {
			if m.Provider != "" {
				t.Provider = m.Provider
			}
			t.moduleDescription = m.Description
		}
		r.tools[t.Name] = t
		r.order = append(r.order, t.Name)
	}
	return nil
}

// AddProvider registers provider-executed tools (same name space).
func (r *Registry) AddProvider(tools ...ProviderTool) (err error) {
	defer func() { r.watch.changed(err == nil && len(tools) > 0) }()
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := make(map[string]bool, len(tools))
	for _, t := range tools {
		if t.Name == "" {
			return errors.New("runtime: provider tool with an empty name")
		}
		if seen[t.Name] || r.hasLocked(t.Name) {
			return fmt.Errorf("runtime: %w: %q", ErrDuplicate, t.Name)
		}
		seen[t.Name] = true
	}
	r.gen.Add(1)
	for _, t := range tools {
		r.provider[t.Name] = t
		r.order = append(r.order, t.Name)
	}
	return nil
}

func (r *Registry) hasLocked(name string) bool {
	if _, ok := r.tools[name]; ok {
		return true
	}
	_, ok := r.provider[name]
	return ok
}

// Remove removes the named tool of any kind and reports whether it existed.
func (r *Registry) Remove(name string) (ok bool) {
	defer func() { r.watch.changed(ok) }()
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.hasLocked(name) {
		return false
	}
	r.gen.Add(1)
	delete(r.tools, name)
	delete(r.provider, name)
	for i, n := range r.order {
		if n == name {
			r.order = append(r.order[:i:i], r.order[i+1:]...)
			break
		}
	}
	return true
}

// Has reports whether a tool of any kind has the name.
func (r *Registry) Has(name string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.hasLocked(name)
}

// Get returns the local or MCP tool of that name (not provider tools).
func (r *Registry) Get(name string) (*Tool, bool) {
	r.mu.RLock()
	t, ok := r.tools[name]
	r.mu.RUnlock()
	return t, ok
}

// GetProvider returns the provider tool of that name.
func (r *Registry) GetProvider(name string) (ProviderTool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.provider[name]
	return t, ok
}

// Executable returns the local and MCP tools in registration order.
func (r *Registry) Executable() []*Tool { return r.list(func(t *Tool) bool { return true }) }

// Local returns the local tools in registration order.
func (r *Registry) Local() []*Tool {
	return r.list(func(t *Tool) bool { return t.Source == SourceLocal })
}

// MCP returns the MCP tools in registration order.
func (r *Registry) MCP() []*Tool { return r.list(func(t *Tool) bool { return t.Source == SourceMCP }) }

func (r *Registry) list(keep func(*Tool) bool) []*Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.listLocked(keep)
}

func (r *Registry) listLocked(keep func(*Tool) bool) []*Tool {
	var out []*Tool
	for _, n := range r.order {
		if t, ok := r.tools[n]; ok && keep(t) {
			out = append(out, t)
		}
	}
	return out
}

// Provider returns the provider tools in registration order.
func (r *Registry) Provider() []ProviderTool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.providerLocked()
}

func (r *Registry) providerLocked() []ProviderTool {
	var out []ProviderTool
	for _, n := range r.order {
		if t, ok := r.provider[n]; ok {
			out = append(out, t)
		}
	}
	return out
}

// Len returns the number of tools of all three kinds.
func (r *Registry) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.tools) + len(r.provider)
}
