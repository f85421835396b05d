package runtime

import (
	"context"
	"log/slog"
)

// A wrapper is a tool that runs another tool: a batch tool made by
// Parallelize runs the tool it wraps once per item. A wrapper is never a way
// around the pipeline's steps 4–6: the pipeline asks them about the wrapped
// tool as well as about the wrapper itself, so a host policy that disables
// or denies "tasks_delete" stops "tasks_delete_batch" in the same way.
//
//   - enabled (step 4): the wrapper and every tool it wraps must be enabled,
//     by their flags and by Options.Policy.Enabled;
//   - gate (step 5): every gate along the chain must be open;
//   - permission (step 6): for each item, the wrapped tool's own check (and
//     RequiresApproval), then Options.Policy.Permission with the wrapped tool
//     and the item's arguments. A Deny of an item is that item's error and
//     the other items run, unless the Decision has WholeBatch set, which
//     denies the whole call (and the calls that wrap it). An Ask of any item asks for the whole call,
//     which pauses at one pause point; once a person approved it, Resume
//     runs it with every item's Ask satisfied (a Deny still denies). Then
//     the wrapper's own Permission, if it has one, and the host's policy
//     with the wrapper and its whole arguments, with the items' verdict as
//     prev.
type wrapping struct {
	// tool is the wrapped tool.
	tool *Tool
	// items returns the wrapped tool's decoded arguments, one per item, of
	// the wrapper's decoded arguments args.
	items func(args any) []any
	// refuse returns a copy of args whose items are items and in which the
	// items whose entry in denied is not nil are recorded as denied with that
	// error: the wrapper's executor reports them and does not run them.
	refuse func(args any, items []any, denied []*ToolError) any
}

// wrapped returns the tool t runs, when t is a wrapper; else nil.
func (t *Tool) wrapped() *Tool {
	if t == nil || t.wrap == nil {
		return nil
	}
	return t.wrap.tool
}

// disabledIn returns the first tool of t's chain (t, the tool it wraps, …)
// that is disabled for call, by its flag or (byPolicy) by the host's policy;
// nil when all are enabled.
func (r *Registry) disabledIn(ctx context.Context, call *Call, t *Tool) (off *Tool, byPolicy bool) {
	pol := r.opts.Policy
	for w := t; w != nil; w = w.wrapped() {
		if !w.Flags.Enabled {
			return w, false
		}
		if pol != nil && !pol.Enabled(ctx, call, w) {
			return w, true
		}
	}
	return nil, false
}

// gatesOf returns the distinct gates of t's chain, with the tool that names
// each first.
func gatesOf(t *Tool) []*Tool {
	var out []*Tool
next:
	for w := t; w != nil; w = w.wrapped() {
		if w.Gate == "" {
			continue
		}
		for _, g := range out {
			if g.Gate == w.Gate {
				continue next
			}
		}
		out = append(out, w)
	}
	return out
}

// enabled is step 4 for x.t and the tools it wraps.
func (x *run) enabled(ctx context.Context) *ToolError {
	off, byPolicy := x.r.disabledIn(ctx, x.call, x.t)
	if off == nil {
		return nil
	}
	te := disabledError(x.t.Name, byPolicy)
	if off != x.t {
		te.Message = wrappedDisabledMessage(x.t.Name, off.Name, byPolicy)
	}
	return te
}

// gate is step 5 for x.t and the tools it wraps: a closed gate is a tool
// error, a fatal gate check (or a done context) a Go error.
func (x *run) gate(ctx context.Context) (*ToolError, error) {
	for _, w := range gatesOf(x.t) {
		open := false
		var err error
		if g := x.r.opts.Gates; g != nil {
			open, err = g.GateOpen(ctx, x.call, w.Gate)
		}
		if err != nil {
			if IsFatal(err) || ctx.Err() != nil {
				return nil, err
			}
			x.log(ctx, slog.LevelWarn, "gate check failed", slog.String("gate", w.Gate), slog.Any("error", err))
			te := gateUncheckedError(w, err)
			te.Tool = x.t.Name
			return te, nil
		}
		if !open {
			te := gateClosedError(w)
			te.Tool = x.t.Name
			return te, nil
		}
	}
	return nil, nil
}

// permit is step 6 for a call of t with args: the tool's own check (for a
// wrapper, each item's through the wrapped tool, then its own Permission),
// RequiresApproval turning an allow into an ask, then, unless the tool
// denied, the host's policy with the tool's decision as prev. approved says
// a person approved the call (Resume): an Ask is then satisfied.
//
// It returns the decision, the arguments the executor is to get (a
// wrapper's with its denied items recorded) and whether they differ from
// args; a panic of t's own check is returned as te (the call is denied).
func (x *run) permit(ctx context.Context, t *Tool, args any, approved bool) (d Decision, out any, changed bool, te *ToolError) {
	d, out = Allowed(), args
	if t.wrap != nil {
		d, out, changed = x.permitItems(ctx, t.wrap, args, approved)
		if d.Behavior == Deny {
			return d, out, changed, nil
		}
	}
	if t.Permission != nil {
		own, pv := x.permission(ctx, t, out)
		if pv != nil {
			return Denied(""), out, changed, permissionPanicError(t.Name, pv)
		}
		if own.Behavior == Deny || own.Behavior == Ask && d.Behavior == Allow {
			d = own
		} else if own.Behavior != Allow && own.Behavior != Ask {
			d = own // an unknown verdict is a denial below
		}
	}
	if d.Behavior == Allow && t.Flags.RequiresApproval {
		d = AskApproval(requiresApprovalReason)
	}
	if d.Behavior == Deny {
		// The host's policy decides only on calls the tool allowed or asked
		// for.
		return d, out, changed, nil
	}
	if pol := x.r.opts.Policy; pol != nil {
		d = pol.Permission(ctx, x.call, t, out, d)
	}
	if d.Behavior == Ask && approved {
		d = Allowed()
	}
	return d, out, changed, nil
}

// permitItems asks step 6 for each item of a wrapper's call (see wrapping).
func (x *run) permitItems(ctx context.Context, w *wrapping, args any, approved bool) (Decision, any, bool) {
	items := w.items(args)
	var denied []*ToolError
	var next []any
	ask, askReason := -1, ""
	for i, it := range items {
		d, nit, changed, te := x.permit(ctx, w.tool, it, approved)
		if changed {
			if next == nil {
				next = append([]any(nil), items...)
			}
			next[i] = nit
		}
		if te == nil {
			switch d.Behavior {
			case Allow:
				continue
			case Ask:
				if ask < 0 {
					ask, askReason = i, d.Reason
				}
				continue
			}
			if d.WholeBatch {
				// Denies this wrapper's call and, when it is itself an item
				// of a wrapper, that one's too.
				return Decision{Behavior: Deny, Reason: itemReason(i, d.Reason), WholeBatch: true}, args, false
			}
			te = deniedError(w.tool.Name, d.Reason)
		}
		if denied == nil {
			denied = make([]*ToolError, len(items))
		}
		denied[i] = te
	}
	changed := denied != nil || next != nil
	if changed {
		if next == nil {
			next = items
		}
		args = w.refuse(args, next, denied)
	}
	if ask >= 0 {
		return AskApproval(itemReason(ask, askReason)), args, changed
	}
	return Allowed(), args, changed
}

// wrappedDisabledMessage is what the model reads when a wrapper's call stops
// because a tool it wraps is disabled.
func wrappedDisabledMessage(tool, inner string, byPolicy bool) string {
	if byPolicy {
		return "tool " + tool + " is not available to this user here (it runs " + inner + ", which is not)."
	}
	return "tool " + tool + " is disabled (it runs " + inner + ", which is disabled)."
}
