package runtime

import (
	"context"
	"log/slog"
)

// Catalog returns the tools the model may be shown for call: local and MCP
// tools that are enabled (their flag, then Options.Policy.Enabled) and whose
// gate is open for the caller (Options.Gates; nil Gates: gated tools are left
// out), in registration order. Each distinct gate is checked once.
//
// A gate check that fails leaves that gate's tools out (and is logged);
// Catalog returns an error only when the context is done or a gate check
// returns an error marked with Fatal.
func (r *Registry) Catalog(ctx context.Context, call *Call) ([]*Tool, error) {
	tools := r.Executable()
	n := 0
	err := r.filter(ctx, call, len(tools), func(i int) *Tool { return tools[i] }, func(i int) {
		tools[n] = tools[i]
		n++
	})
	if err != nil {
		return nil, err
	}
	// Clear the tail so dropped tools are not kept alive by the array.
	clear(tools[n:])
	return tools[:n], nil
}

// filter calls keep(i), in order, for each of the n tools tool(i) that the
// catalog for call shows (see Catalog), checking each distinct gate once.
// It allocates the same whatever n is.
func (r *Registry) filter(ctx context.Context, call *Call, n int, tool func(int) *Tool, keep func(int)) error {
	cc := new(Call)
	if call != nil {
		*cc = *call
	}
	cc.Registry = r
	type gateState struct {
		name string
		open bool
	}
	var buf [8]gateState
	gates := buf[:0]
	// open checks gate once per filter call.
	open := func(gate string) (bool, error) {
		for _, g := range gates {
			if g.name == gate {
				return g.open, nil
			}
		}
		ok := false
		if r.opts.Gates != nil {
			var err error
			ok, err = r.opts.Gates.GateOpen(ctx, cc, gate)
			if err != nil {
				if IsFatal(err) {
					return false, err
				}
				if cerr := ctx.Err(); cerr != nil {
					return false, cerr
				}
				if l := r.opts.Logger; l != nil {
					l.LogAttrs(ctx, slog.LevelWarn, "runtime: gate check failed; leaving its tools out of the catalog",
						slog.String("gate", gate), slog.Any("error", err))
				}
				ok = false
			}
		}
		gates = append(gates, gateState{gate, ok})
		return ok, nil
	}
next:
	for i := range n {
		t := tool(i)
		// A wrapper (a batch tool) is shown only when every tool it wraps
		// would be.
		if off, _ := r.disabledIn(ctx, cc, t); off != nil {
			continue
		}
		for w := t; w != nil; w = w.wrapped() {
			if w.Gate == "" {
				continue
			}
			ok, err := open(w.Gate)
			if err != nil {
				return err
			}
			if !ok {
				continue next
			}
		}
		keep(i)
	}
	return ctx.Err()
}

// Definitions returns the schema-only shapes of the Catalog's tools, for a
// model provider's request.
func (r *Registry) Definitions(ctx context.Context, call *Call) ([]Definition, error) {
	tools, err := r.Catalog(ctx, call)
	if err != nil {
		return nil, err
	}
	defs := make([]Definition, len(tools))
	for i, t := range tools {
		defs[i] = t.Definition()
	}
	return defs, nil
}
