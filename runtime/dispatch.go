package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"
)

// Dispatch runs one tool call from the model through the pipeline, in this
// order, each step stopping the call when it fails:
//
//  1. look the name up (constant time). A name no tool owns goes to
//     Options.Fallback; if nothing owns it the model gets an unknown-tool
//     error (with a "did you mean" when a registered name is close). A
//     provider tool cannot be run here and is an error too. No events are
//     emitted for a call stopped here (the fallback emits its own, if any).
//  2. decode the arguments, render the status label from the decoded value
//     (an *InvalidArgs when they failed to decode, so that refused values
//     are not shown; a nil or panicking Label falls back to the tool name)
//     and emit EventStart;
//  3. report the decoding verdict: arguments larger than
//     Limits.MaxArgumentBytes, or that Decode rejects, become an
//     ErrInvalidArgs tool error listing every violation with its path.
//     Empty or null arguments mean {};
//  4. the tool's Enabled flag, then Options.Policy.Enabled (ErrDisabled);
//  5. the tool's gate through Options.Gates (nil Gates: closed) (ErrGate);
//  6. the tool's Permission (RequiresApproval turns an allow into ask),
//     then, unless the tool denied, Options.Policy.Permission with the
//     tool's decision as prev. Deny is ErrDenied; ask stores a pause
//     point through Options.Approvals and pauses the call (StatusPaused,
//     Outcome.Pause set); without Approvals ask is denied. For a wrapper
//     (a batch tool made by Parallelize), steps 4 to 6 are asked about the
//     tool it wraps too, and step 6 for each item with its arguments: no
//     wrapper is a way around the host's policy (see Parallelize and
//     Decision.WholeBatch);
//  7. execute, with a copy of call whose ToolCallID, ToolName and Registry
//     are filled in; a panic becomes an ErrExecution tool error;
//  8. cap the result at Limits.MaxResultBytes and emit EventFinish.
//
// Every call that reached step 2 gets exactly one EventFinish, whatever its
// status, and it is the call's last event: the Events and Usage sinks of
// the call the executor sees are closed before it is sent. Ordinary failures are returned as an Outcome with StatusError and
// a tool-error Result for the model, and a nil error. Dispatch returns a
// non-nil error (and an Outcome with StatusFatal) only when the context is
// done before or during execution, or when an executor, gate, approvals
// store or fallback returns an error marked with Fatal.
//
// call may be nil; it is never modified.
func (r *Registry) Dispatch(ctx context.Context, call *Call, tc ToolCall) (Outcome, error) {
	return r.dispatch(ctx, call, tc, nil, nil)
}

// requiresApprovalReason is the reason of the Ask that Flags.RequiresApproval
// makes of an allowed call. The model reads it after "is waiting for a
// person's approval and has not run yet: ", and the person deciding reads
// it in ApprovalRequest.Reason, so it says why without repeating that.
const requiresApprovalReason = "the tool requires approval before every call"

// run is the state of one call going through the pipeline.
type run struct {
	r        *Registry
	t        *Tool
	scope    *scopedCall
	call     *Call // &scope.Call, the per-call copy
	start    time.Time
	started  bool // EventStart was emitted; EventFinish is owed
	executed bool // step 7 began: the executor was called
	out      Outcome
}

// scopedCall is the per-call copy of the host's Call. Its Events and Usage
// forward to the host's sinks only until the call ends: what goroutines an
// executor left behind emit or report later is dropped, so no sink of the
// host runs once Dispatch has returned.
type scopedCall struct {
	Call
	events func(Event) // the host's sinks
	usage  func(Usage)
	gate   eventGate
}

func (s *scopedCall) emit(e Event)   { gateSend(&s.gate, s.events, e) }
func (s *scopedCall) report(u Usage) { gateSend(&s.gate, s.usage, u) }

// send sends e, an event of the pipeline itself, to the host's Events sink
// (no executor runs yet, or any more, so nothing else can be sending).
func (s *scopedCall) send(e Event) {
	if s.events != nil {
		e.CallID, e.Tool = s.ToolCallID, s.ToolName
		s.events(e)
	}
}

// finish closes the sinks and then sends e, the call's last event, unless
// the call emitted no start event.
func (s *scopedCall) finish(e Event, started bool) {
	s.gate.close()
	if started {
		s.send(e)
	}
}

// callFor returns the per-call copy of call for tc.
func (r *Registry) callFor(call *Call, tc ToolCall) *scopedCall {
	s := new(scopedCall)
	if call != nil {
		s.Call = *call
	}
	s.ToolCallID, s.ToolName, s.Registry = tc.ID, tc.Name, r
	if s.Events != nil {
		s.events, s.Events = s.Events, s.emit
	}
	if s.Usage != nil {
		s.usage, s.Usage = s.Usage, s.report
	}
	return s
}

// dispatch runs the pipeline. pre, when not nil, holds the arguments
// already decoded by RunCalls (see turn.go); it is used when it was decoded
// for the tool tc names now, so no call is decoded twice.
func (r *Registry) dispatch(ctx context.Context, call *Call, tc ToolCall, approval *Approval, pre *preDecoded) (Outcome, error) {
	x := r.newRun(call, tc, approval)
	return x.pipeline(ctx, tc, pre)
}

// newRun returns the state of a call of tc about to go through the
// pipeline.
func (r *Registry) newRun(call *Call, tc ToolCall, approval *Approval) *run {
	x := &run{r: r, start: time.Now(), scope: r.callFor(call, tc)}
	x.call = &x.scope.Call
	x.call.Approval = approval
	x.out.CallID, x.out.Tool = tc.ID, tc.Name
	return x
}

// pipeline runs the steps (see Dispatch).
func (x *run) pipeline(ctx context.Context, tc ToolCall, pre *preDecoded) (Outcome, error) {
	r, approval := x.r, x.call.Approval

	// 1. Look the name up.
	r.mu.RLock()
	t, ok := r.tools[tc.Name]
	isProvider := false
	if !ok {
		_, isProvider = r.provider[tc.Name]
	}
	r.mu.RUnlock()
	if !ok {
		x.out.Label = tc.Name
		if isProvider {
			return x.fail(providerToolError(tc.Name))
		}
		return x.fallback(ctx, tc)
	}
	x.t = t

	// 2. Decode (its verdict is reported in step 3), label, start event.
	var args any
	var argErr *ToolError
	if n := len(tc.Arguments); n > r.limits.MaxArgumentBytes {
		argErr = argumentsTooLargeError(t.Name, n, r.limits.MaxArgumentBytes)
	} else {
		var v, pv any
		var err error
		if pre != nil && pre.tool == t {
			v, err, pv = pre.args, pre.err, pre.panicValue
		} else {
			v, err, pv = x.decode(r.arguments(t, tc.Arguments))
		}
		args = v
		switch {
		case pv != nil:
			argErr = decodePanicError(t.Name, pv)
		case err != nil:
			argErr = invalidArgumentsError(t.Name, err)
			if approval != nil {
				argErr = resumedArgumentsError(argErr, approval.PausePointID)
			}
		}
	}
	// A call that failed to decode is labelled from what passed its
	// checks (an *InvalidArgs), never from the refused values.
	if argErr != nil {
		x.out.Label = x.label(&InvalidArgs{Args: args, Violations: argErr.Violations})
	} else {
		x.out.Label = x.label(args)
	}
	x.begin()

	// 3. Arguments.
	if argErr != nil {
		return x.fail(argErr)
	}

	// 4. Enabled (for a wrapper, it and every tool it wraps; see wrapper.go).
	if te := x.enabled(ctx); te != nil {
		return x.fail(te)
	}

	// 5. Gate (every gate along a wrapper's chain).
	if te, err := x.gate(ctx); err != nil {
		return x.fatal(err)
	} else if te != nil {
		return x.fail(te)
	}

	// 6. Permission. A call a person approved (Resume) is asked again: a
	// denial still stops it, an ask is satisfied by the approval.
	d, args, _, te := x.permit(ctx, t, args, approval != nil)
	if te != nil {
		return x.fail(te)
	}
	switch d.Behavior {
	case Allow:
	case Ask:
		return x.ask(ctx, tc, d.Reason)
	default:
		return x.fail(deniedError(t.Name, d.Reason))
	}

	// 7. Execute.
	if err := ctx.Err(); err != nil {
		return x.fatal(err)
	}
	x.executed = true
	res, err, pv := x.execute(ctx, args)
	if pv != nil {
		return x.fail(executionPanicError(t.Name, pv))
	}
	if err != nil {
		var pause *PauseError
		switch {
		case IsFatal(err):
			return x.fatal(err)
		case errors.As(err, &pause):
			return x.pause(pause, false)
		case ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
			return x.fatal(err)
		case errors.Is(err, ErrApprovalStoreUnavailable):
			// A tool that pauses by itself (wait_for_approval) could not
			// write its pause point.
			x.log(ctx, slog.LevelError, "the approvals store failed", slog.Any("error", err))
			return x.fail(approvalStoreError(t.Name, err))
		default:
			return x.fail(executionError(t.Name, err))
		}
	}

	// 8. Shape the result, finish.
	return x.ok(res)
}

// arguments returns the raw arguments of a call of t as its Decode gets
// them: empty and null mean {}, and with Options.DropNullOptionals, for a
// tool without DecodeWith (which reads those nulls itself), the nulls of
// optional properties are removed.
func (r *Registry) arguments(t *Tool, data []byte) []byte {
	data = normalizeArguments(data)
	if r.opts.DropNullOptionals && t.DecodeWith == nil {
		data = dropNullOptionals(t.Schema, data)
	}
	return data
}

// normalizeArguments maps empty and null arguments to {}. Only JSON white
// space (space, tab, CR, LF) may surround them: "\v", "\f", U+00A0 or
// U+2028 leave the arguments as they are, malformed.
func normalizeArguments(data []byte) []byte {
	if len(data) > 0 && data[0] == '{' {
		return data
	}
	trimmed := bytes.Trim(data, " \t\r\n")
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return []byte("{}")
	}
	return data
}

// decode runs the tool's Decode (or DecodeWith), recovering a panic.
func (x *run) decode(data []byte) (v any, err error, panicValue any) {
	defer func() {
		if p := recover(); p != nil {
			x.logPanic("decode panicked", p)
			v, err, panicValue = nil, nil, p
		}
	}()
	if x.r.opts.DropNullOptionals && x.t.DecodeWith != nil {
		v, err = x.t.DecodeWith(data, NullAsAbsent)
	} else {
		v, err = x.t.DecodeArgs(data)
	}
	return v, err, nil
}

// label renders the status label; it never fails.
func (x *run) label(args any) (l string) {
	if x.t.Label == nil {
		return x.t.Name
	}
	defer func() {
		if p := recover(); p != nil {
			x.logPanic("label panicked", p)
			l = x.t.Name
		}
	}()
	if l = x.t.Label(args); l == "" {
		l = x.t.Name
	}
	return l
}

// permission runs t's own permission check, recovering a panic.
func (x *run) permission(ctx context.Context, t *Tool, args any) (d Decision, panicValue any) {
	defer func() {
		if p := recover(); p != nil {
			x.logPanic("permission check panicked", p)
			d, panicValue = Denied("permission check failed"), p
		}
	}()
	return t.Permission(ctx, x.call, args), nil
}

// execute runs the executor, recovering a panic.
func (x *run) execute(ctx context.Context, args any) (res Result, err error, panicValue any) {
	defer func() {
		if p := recover(); p != nil {
			x.logPanic("executor panicked", p)
			res, err, panicValue = Result{}, nil, p
		}
	}()
	res, err = x.t.Execute(ctx, x.call, args)
	return res, err, nil
}

// ask stores a pause point for a call whose permission decision is Ask.
func (x *run) ask(ctx context.Context, tc ToolCall, reason string) (Outcome, error) {
	ap := x.r.opts.Approvals
	if ap == nil {
		return x.fail(approvalUnavailableError(x.t.Name, reason))
	}
	req := ApprovalRequest{
		UserID:         x.call.UserID,
		ConversationID: x.call.ConversationID,
		TurnIndex:      x.call.TurnIndex,
		ToolCallID:     tc.ID,
		Tool:           x.t.Name,
		Arguments:      append(json.RawMessage(nil), normalizeArguments(tc.Arguments)...),
		Label:          x.out.Label,
		Reason:         reason,
	}
	id, err := ap.RequestApproval(ctx, req)
	if err != nil {
		if IsFatal(err) || ctx.Err() != nil {
			return x.fatal(err)
		}
		x.log(ctx, slog.LevelError, "storing the approval request failed", slog.Any("error", err))
		return x.fail(approvalStoreError(x.t.Name, err))
	}
	return x.pause(&PauseError{PausePointID: id, Reason: reason}, true)
}

// fallback hands a name no tool owns to Options.Fallback.
func (x *run) fallback(ctx context.Context, tc ToolCall) (Outcome, error) {
	if fb := x.r.opts.Fallback; fb != nil {
		res, owned, err := fb.Dispatch(ctx, x.call, tc)
		if err != nil && (IsFatal(err) || ctx.Err() != nil) {
			return x.fatal(err)
		}
		if owned {
			var pause *PauseError
			switch {
			case err == nil:
				return x.ok(res)
			case errors.As(err, &pause):
				return x.pause(pause, false)
			default:
				return x.fail(executionError(tc.Name, err))
			}
		}
	}
	names := x.r.executableNames()
	if n, ok := x.r.opts.Fallback.(FallbackNamer); ok {
		names = append(names, n.Names()...)
	}
	return x.fail(unknownToolError(tc.Name, suggest(tc.Name, names)))
}

// executableNames lists the names of local and MCP tools.
func (r *Registry) executableNames() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.tools))
	for _, n := range r.order {
		if _, ok := r.tools[n]; ok {
			names = append(names, n)
		}
	}
	return names
}

// begin emits the start event.
func (x *run) begin() {
	x.started = true
	x.scope.send(Event{Type: EventStart, Label: x.out.Label})
}

// end records the duration, closes the call's sinks and emits the finish
// event, if a start was.
func (x *run) end() (Outcome, error) {
	x.out.Duration = time.Since(x.start)
	x.scope.finish(Event{Type: EventFinish, Label: x.out.Label, Status: x.out.Status, Duration: x.out.Duration}, x.started)
	if l := x.r.opts.Logger; l != nil && l.Enabled(context.Background(), slog.LevelDebug) {
		attrs := []slog.Attr{slog.String("status", string(x.out.Status)), slog.Duration("duration", x.out.Duration)}
		if x.out.Err != nil {
			attrs = append(attrs, slog.String("error_kind", string(x.out.Err.Kind)))
		}
		x.log(context.Background(), slog.LevelDebug, "call finished", attrs...)
	}
	return x.out, nil
}

// ok finishes a call whose executor returned res (step 8).
func (x *run) ok(res Result) (Outcome, error) {
	x.out.Result = shapeResult(res, x.r.limits.MaxResultBytes)
	x.out.Status = StatusOK
	if res.IsError {
		x.out.Status = StatusError
		x.out.Err = resultError(x.out.Tool, x.out.Result)
	}
	return x.end()
}

// fail finishes a call stopped by te.
func (x *run) fail(te *ToolError) (Outcome, error) {
	x.out.Status = StatusError
	x.out.Err = te
	// A tool error goes through the result cap like any result: its
	// message may quote what an executor or the host's policy wrote.
	x.out.Result = shapeResult(te.Result(), x.r.limits.MaxResultBytes)
	return x.end()
}

// pause finishes a call that waits for approval at pe; notRun says the
// permission step paused it before the executor ran.
func (x *run) pause(pe *PauseError, notRun bool) (Outcome, error) {
	x.out.Status = StatusPaused
	x.out.Pause = pe
	x.out.Result = shapeResult(awaitingApprovalResult(x.out.Tool, pe.Reason, notRun), x.r.limits.MaxResultBytes)
	return x.end()
}

// fatal finishes a call with a Go error for the host.
func (x *run) fatal(err error) (Outcome, error) {
	x.out.Status = StatusFatal
	out, _ := x.end()
	return out, err
}

func (x *run) log(ctx context.Context, level slog.Level, msg string, attrs ...slog.Attr) {
	l := x.r.opts.Logger
	if l == nil {
		return
	}
	attrs = append(attrs, slog.String("tool", x.out.Tool), slog.String("call_id", x.out.CallID))
	l.LogAttrs(ctx, level, "runtime: "+msg, attrs...)
}

// logPanic logs a recovered panic with its stack. It runs in the deferred
// function, so the stack is the panicking goroutine's.
func (x *run) logPanic(msg string, p any) {
	if x.r.opts.Logger == nil {
		return
	}
	x.log(context.Background(), slog.LevelError, msg,
		slog.String("panic", fmt.Sprint(p)), slog.String("stack", string(debug.Stack())))
}

// shapeResult caps res at limit bytes (text bytes plus file data and URL
// bytes). Text that does not fit is cut at a UTF-8 boundary and a marker
// says the result was truncated and from how many bytes; a file part that
// does not fit is replaced by a text note. A result within the limit is
// returned unchanged.
func shapeResult(res Result, limit int) Result {
	total := 0
	for i := range res.Parts {
		total += partSize(&res.Parts[i])
	}
	if total <= limit {
		return res
	}
	marker := truncationMarker(total, limit)
	budget := max(limit-len(marker), 0)
	out := make([]Part, 0, len(res.Parts)+1)
	for _, p := range res.Parts {
		size := partSize(&p)
		if size <= budget {
			out = append(out, p)
			budget -= size
			continue
		}
		switch p.Type {
		case PartText:
			if cut := cutUTF8(p.Text, budget); cut != "" {
				out = append(out, TextPart(cut))
			}
			budget = 0 // what follows the cut would read as if nothing were cut
		case PartFile:
			if note := omittedFileNote(p.File, size); len(note) <= budget {
				out = append(out, TextPart(note))
				budget -= len(note)
			}
		}
	}
	if n := len(out); n > 0 && out[n-1].Type == PartText {
		out[n-1].Text += marker
	} else {
		out = append(out, TextPart(marker[1:]))
	}
	return Result{Parts: out, IsError: res.IsError}
}

func partSize(p *Part) int {
	switch {
	case p.Type == PartFile && p.File != nil:
		return len(p.File.Data) + len(p.File.URL)
	default:
		return len(p.Text)
	}
}

// cutUTF8 returns the longest prefix of s of at most n bytes that does not
// split a UTF-8 sequence.
func cutUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
