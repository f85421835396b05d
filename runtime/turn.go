package runtime

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
)

// DefaultRunMaxConcurrency is how many concurrency-safe calls RunCalls runs
// at once when RunOptions.MaxConcurrency is 0.
const DefaultRunMaxConcurrency = 8

// RunOptions configure RunCalls. The zero value runs up to 8
// concurrency-safe calls at once.
type RunOptions struct {
	// MaxConcurrency bounds how many concurrency-safe calls run at once.
	// 0: DefaultRunMaxConcurrency; a negative value means 1 (every call
	// runs alone, in order).
	MaxConcurrency int
}

// RunCalls runs the tool calls of one model turn, each through the
// Dispatch pipeline, and returns their outcomes in the model's order.
//
// Calls whose tool is concurrency-safe for their input
// (Tool.IsConcurrencySafe over the decoded arguments) run in parallel, at
// most opts.MaxConcurrency at once. Any other call runs alone: it starts
// when every earlier call has finished, and later calls start when it has
// finished. Calls that fail fast without side effects count as safe: a name
// no tool owns when the registry has no Fallback (with a Fallback, the
// fallback may do anything, so the call runs alone), a provider tool, and
// arguments that do not decode. Arguments are decoded once, here; Dispatch's
// steps then run in their usual order for each call.
//
// When a call pauses for approval or fails fatally, or ctx is done, the
// calls that have not started are not run: each gets an Outcome with
// StatusSkipped whose Result tells the model why (calls already running
// finish normally). Skipped calls emit no events. The returned error is the
// fatal error of the earliest fatal call in the model's order, or ctx's
// error when the turn was cancelled before a call could start; it is nil
// when calls merely paused. The outcomes are always one per call.
func (r *Registry) RunCalls(ctx context.Context, call *Call, calls []ToolCall, opts RunOptions) ([]Outcome, error) {
	conc := opts.MaxConcurrency
	switch {
	case conc == 0:
		conc = DefaultRunMaxConcurrency
	case conc < 0:
		conc = 1
	}
	tr := &turnRun{
		r:       r,
		ctx:     ctx,
		call:    call,
		conc:    conc,
		calls:   make([]turnCall, len(calls)),
		out:     make([]Outcome, len(calls)),
		errs:    make([]error, len(calls)),
		started: make([]bool, len(calls)),
	}
	for i, tc := range calls {
		tr.calls[i] = r.prepareCall(tc)
	}
	for i, n := 0, len(calls); i < n; {
		if tr.stopped.Load() {
			break
		}
		if !tr.calls[i].safe {
			tr.runOne(i)
			i++
			continue
		}
		j := i + 1
		for j < n && tr.calls[j].safe {
			j++
		}
		tr.runGroup(i, j)
		i = j
	}
	var err error
	for i := range tr.out {
		if !tr.started[i] {
			tr.out[i] = tr.skipped(i)
		} else if err == nil && tr.errs[i] != nil {
			err = tr.errs[i]
		}
	}
	if err == nil {
		err = tr.cancelErr
	}
	return tr.out, err
}

// turnCall is one call of a turn, looked up and decoded ahead of running.
type turnCall struct {
	tc   ToolCall
	pre  preDecoded
	safe bool
}

// prepareCall looks tc's tool up, decodes its arguments (as Dispatch's
// step 2 would) and decides whether it may run in parallel.
func (r *Registry) prepareCall(tc ToolCall) turnCall {
	p := turnCall{tc: tc}
	r.mu.RLock()
	t, ok := r.tools[tc.Name]
	_, isProvider := r.provider[tc.Name]
	r.mu.RUnlock()
	if !ok {
		p.safe = isProvider || r.opts.Fallback == nil
		return p
	}
	if len(tc.Arguments) > r.limits.MaxArgumentBytes {
		p.safe = true // rejected at step 3
		return p
	}
	x := run{r: r, t: t}
	x.out.CallID, x.out.Tool = tc.ID, tc.Name
	v, err, pv := x.decode(r.arguments(t, tc.Arguments))
	p.pre = preDecoded{tool: t, args: v, err: err, panicValue: pv}
	p.safe = err != nil || pv != nil || concurrencySafe(t, v)
	return p
}

// concurrencySafe asks t about args; a panicking check means "not safe".
func concurrencySafe(t *Tool, args any) (safe bool) {
	defer func() {
		if recover() != nil {
			safe = false
		}
	}()
	return t.IsConcurrencySafe(args)
}

// turnRun is the state of one RunCalls.
type turnRun struct {
	r       *Registry
	ctx     context.Context
	call    *Call
	conc    int
	calls   []turnCall
	out     []Outcome
	errs    []error
	started []bool

	stopped   atomic.Bool
	mu        sync.Mutex
	why       string // why later calls are skipped (first stop wins)
	cancelErr error  // ctx's error, when it stopped the turn
}

// runGroup runs the safe calls [i, j) with at most tr.conc at once.
func (tr *turnRun) runGroup(i, j int) {
	workers := min(tr.conc, j-i)
	if workers == 1 {
		for k := i; k < j && !tr.stopped.Load(); k++ {
			tr.runOne(k)
		}
		return
	}
	var next atomic.Int64
	next.Store(int64(i))
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			for !tr.stopped.Load() {
				k := int(next.Add(1) - 1)
				if k >= j {
					return
				}
				tr.runOne(k)
			}
		}()
	}
	wg.Wait()
}

// runOne dispatches call k, unless the turn was cancelled, and stops the
// turn when the call paused or failed fatally.
func (tr *turnRun) runOne(k int) {
	if err := tr.ctx.Err(); err != nil {
		tr.stop("the turn was cancelled before this call started", err)
		return
	}
	p := &tr.calls[k]
	tr.started[k] = true
	out, err := tr.r.dispatchDecoded(tr.ctx, tr.call, p.tc, &p.pre)
	tr.out[k], tr.errs[k] = out, err
	switch {
	case err != nil:
		tr.stop("call "+strconv.Quote(p.tc.ID)+" ("+p.tc.Name+") failed and the turn was stopped", nil)
	case out.Status == StatusPaused:
		tr.stop("call "+strconv.Quote(p.tc.ID)+" ("+p.tc.Name+") is waiting for a person's approval", nil)
	}
}

func (tr *turnRun) stop(why string, cancelErr error) {
	tr.mu.Lock()
	if tr.why == "" {
		tr.why = why
	}
	if cancelErr != nil && tr.cancelErr == nil {
		tr.cancelErr = cancelErr
	}
	tr.mu.Unlock()
	tr.stopped.Store(true)
}

// skipped is the outcome of call k, which did not run.
func (tr *turnRun) skipped(k int) Outcome {
	p := &tr.calls[k]
	label := p.tc.Name
	if t := p.pre.tool; t != nil && t.Label != nil && p.pre.panicValue == nil {
		label = safeLabel(t.Label, labelArgs(p.pre.args, p.pre.err), t.Name)
	}
	return Outcome{
		CallID: p.tc.ID,
		Tool:   p.tc.Name,
		Label:  label,
		Status: StatusSkipped,
		Result: Result{
			Parts: []Part{TextPart(errorPrefix + "not run: " + p.tc.Name + " was skipped because " + tr.why +
				". Nothing was done for this call; call it again if it is still needed.")},
			IsError: true,
		},
	}
}

// preDecoded is a call's arguments decoded ahead of Dispatch (by RunCalls),
// for the tool they were decoded for.
type preDecoded struct {
	tool       *Tool
	args       any
	err        error
	panicValue any
}

// dispatchDecoded dispatches tc, reusing pre when it was decoded for the
// tool tc now names.
func (r *Registry) dispatchDecoded(ctx context.Context, call *Call, tc ToolCall, pre *preDecoded) (Outcome, error) {
	return r.dispatch(ctx, call, tc, nil, pre)
}
