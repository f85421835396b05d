package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// turnArgs are the arguments of every tool of the turn tests.
type turnArgs struct {
	N     int `json:"n"`
	Sleep int `json:"sleep,omitempty"` // microseconds
}

// turnLab records what the turn tests' tools did.
type turnLab struct {
	running atomic.Int64 // calls executing now
	peak    atomic.Int64
	clock   atomic.Int64 // logical time for start/end stamps
	decodes atomic.Int64
	waiting atomic.Int64 // "wait" calls blocked on their ctx
	// meet, when > 0, makes a safe call with a sleep first wait (up to half
	// a second) until that many calls run at once, so tests about overlap
	// and peaks do not depend on how the scheduler happens to interleave
	// goroutines on a loaded machine.
	meet int64

	mu       sync.Mutex
	spans    map[string][2]int64 // call id → start, end stamps
	overlaps []string            // an unsafe call saw another call running
	events   []Event
}

func newTurnLab() *turnLab { return &turnLab{spans: map[string][2]int64{}} }

func (l *turnLab) enter() int64 {
	n := l.running.Add(1)
	for p := l.peak.Load(); n > p && !l.peak.CompareAndSwap(p, n); p = l.peak.Load() {
	}
	return n
}

// tool returns a tool named name; exclusive tools check that nothing else
// runs alongside them.
func (l *turnLab) tool(name string, safe func(*turnArgs) bool, exec func(ctx context.Context, a *turnArgs) (Result, error)) *Tool {
	f := DefaultFlags()
	t := &Tool{
		Name:   name,
		Flags:  f,
		Schema: json.RawMessage(`{"type":"object"}`),
		Decode: func(data []byte) (any, error) {
			l.decodes.Add(1)
			return DecodeJSON[turnArgs](func(a *turnArgs) []Violation {
				if a.N < 0 {
					return []Violation{{Path: "$.n", Message: "must be at least 0"}}
				}
				return nil
			})(data)
		},
		Label: func(args any) string {
			if a, ok := args.(*turnArgs); ok && a != nil {
				return fmt.Sprintf("%s %d", name, a.N)
			}
			return ""
		},
		ConcurrencySafeFor: func(args any) bool { return safe(args.(*turnArgs)) },
	}
	t.Execute = func(ctx context.Context, call *Call, args any) (Result, error) {
		a := args.(*turnArgs)
		start := l.clock.Add(1)
		exclusive := !safe(a)
		if n := l.enter(); exclusive && n != 1 {
			l.note("%s started while %d other calls ran", call.ToolCallID, n-1)
		}
		if a.Sleep > 0 {
			if l.meet > 0 && !exclusive {
				for deadline := time.Now().Add(500 * time.Millisecond); l.running.Load() < l.meet && time.Now().Before(deadline); {
					time.Sleep(50 * time.Microsecond)
				}
			}
			time.Sleep(time.Duration(a.Sleep) * time.Microsecond)
		}
		res, err := Text(fmt.Sprintf("%s:%d", name, a.N)), error(nil)
		if exec != nil {
			res, err = exec(ctx, a)
		}
		if n := l.running.Load(); exclusive && n != 1 {
			l.note("%s saw %d other calls start while it ran", call.ToolCallID, n-1)
		}
		l.running.Add(-1)
		end := l.clock.Add(1)
		l.mu.Lock()
		l.spans[call.ToolCallID] = [2]int64{start, end}
		l.mu.Unlock()
		return res, err
	}
	return t
}

func (l *turnLab) note(format string, args ...any) {
	l.mu.Lock()
	l.overlaps = append(l.overlaps, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}

func (l *turnLab) call() *Call {
	return &Call{UserID: "u1", Events: func(e Event) {
		l.mu.Lock()
		l.events = append(l.events, e)
		l.mu.Unlock()
	}}
}

var (
	safeAlways  = func(*turnArgs) bool { return true }
	safeNever   = func(*turnArgs) bool { return false }
	safeIfEvenN = func(a *turnArgs) bool { return a.N%2 == 0 }
)

type turnApprovals struct{ n atomic.Int64 }

func (a *turnApprovals) RequestApproval(ctx context.Context, req ApprovalRequest) (string, error) {
	return fmt.Sprintf("pp-%d", a.n.Add(1)), nil
}

func (a *turnApprovals) Claim(ctx context.Context, c ClaimRequest) (ApprovalRequest, Decision, error) {
	return ApprovalRequest{}, Decision{}, errors.New("not used")
}

func (a *turnApprovals) Finish(ctx context.Context, c ClaimRequest) error {
	return errors.New("not used")
}

// turnRegistry builds the registry of the turn tests: "read" (safe), "write"
// (never safe), "maybe" (safe for even n), "approve" (needs approval),
// "explode" (fatal), "wait" (blocks until ctx is done) and "hold" (safe,
// blocks until released).
func turnRegistry(t testing.TB, l *turnLab, opts Options, release chan struct{}) *Registry {
	t.Helper()
	if opts.Approvals == nil {
		opts.Approvals = &turnApprovals{}
	}
	r := NewRegistry(opts)
	approve := l.tool("approve", safeAlways, nil)
	approve.Flags.RequiresApproval = true
	tools := []*Tool{
		l.tool("read", safeAlways, nil),
		l.tool("write", safeNever, nil),
		l.tool("maybe", safeIfEvenN, nil),
		approve,
		l.tool("explode", safeNever, func(ctx context.Context, a *turnArgs) (Result, error) {
			return Result{}, Fatal(errors.New("database is gone"))
		}),
		l.tool("wait", safeNever, func(ctx context.Context, a *turnArgs) (Result, error) {
			l.waiting.Add(1)
			<-ctx.Done()
			return Result{}, ctx.Err()
		}),
		l.tool("hold", safeAlways, func(ctx context.Context, a *turnArgs) (Result, error) {
			<-release
			return Text("held"), nil
		}),
	}
	if err := r.Add(tools...); err != nil {
		t.Fatal(err)
	}
	if err := r.AddProvider(ProviderTool{Name: "web_search"}); err != nil {
		t.Fatal(err)
	}
	return r
}

// calls builds tool calls from "name:n" or "name:n:sleepµs" specs; the ids
// are c0, c1, ...
func calls(specs ...string) []ToolCall {
	out := make([]ToolCall, len(specs))
	for i, s := range specs {
		parts := strings.Split(s, ":")
		args := `{"n":` + parts[1]
		if len(parts) > 2 {
			args += `,"sleep":` + parts[2]
		}
		if parts[1] == "bad" {
			args = `{"n":"x"`
		}
		out[i] = ToolCall{ID: fmt.Sprintf("c%d", i), Name: parts[0], Arguments: json.RawMessage(args + "}")}
	}
	return out
}

func statuses(out []Outcome) string {
	s := make([]string, len(out))
	for i, o := range out {
		s[i] = string(o.Status)
	}
	return strings.Join(s, " ")
}

func TestRunCallsOrder(t *testing.T) {
	l := newTurnLab()
	r := turnRegistry(t, l, Options{}, nil)
	var specs []string
	for i := range 30 {
		name := []string{"read", "read", "read", "maybe", "write"}[i%5]
		specs = append(specs, fmt.Sprintf("%s:%d:%d", name, i, rand.IntN(2000)))
	}
	out, err := r.RunCalls(context.Background(), l.call(), calls(specs...), RunOptions{MaxConcurrency: 4})
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range out {
		name := strings.Split(specs[i], ":")[0]
		if o.CallID != fmt.Sprintf("c%d", i) || o.Status != StatusOK || o.Result.String() != fmt.Sprintf("%s:%d", name, i) {
			t.Errorf("outcome %d = %+v", i, o)
		}
		if o.Label != fmt.Sprintf("%s %d", name, i) {
			t.Errorf("outcome %d label %q", i, o.Label)
		}
	}
	if len(l.overlaps) > 0 {
		t.Errorf("exclusive calls overlapped: %v", l.overlaps)
	}
	if d := l.decodes.Load(); d != 30 {
		t.Errorf("arguments decoded %d times for 30 calls, want once each", d)
	}
	// Events: a start and a finish per call, with the call's id.
	starts, finishes := map[string]int{}, map[string]int{}
	for _, e := range l.events {
		switch e.Type {
		case EventStart:
			starts[e.CallID]++
		case EventFinish:
			finishes[e.CallID]++
		}
	}
	for i := range 30 {
		id := fmt.Sprintf("c%d", i)
		if starts[id] != 1 || finishes[id] != 1 {
			t.Errorf("%s: %d starts, %d finishes", id, starts[id], finishes[id])
		}
	}
}

func TestRunCallsSafeCallsRunInParallel(t *testing.T) {
	for _, c := range []struct{ opt, want int }{{3, 3}, {0, 8}, {-1, 1}} {
		t.Run(fmt.Sprint(c.opt), func(t *testing.T) {
			l := newTurnLab()
			l.meet = int64(c.want)
			r := turnRegistry(t, l, Options{}, nil)
			specs := make([]string, 3*c.want+1)
			for i := range specs {
				specs[i] = fmt.Sprintf("read:%d:3000", i)
			}
			out, err := r.RunCalls(context.Background(), nil, calls(specs...), RunOptions{MaxConcurrency: c.opt})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(statuses(out), "error") {
				t.Fatalf("statuses: %s", statuses(out))
			}
			if p := l.peak.Load(); p != int64(c.want) {
				t.Errorf("peak %d concurrent safe calls, want %d", p, c.want)
			}
		})
	}
}

func TestRunCallsUnsafeCallsRunAlone(t *testing.T) {
	l := newTurnLab()
	l.meet = 2
	r := turnRegistry(t, l, Options{}, nil)
	specs := []string{"read:0:2000", "read:1:2000", "write:2:1000", "read:3:2000", "maybe:4:2000", "maybe:5:1000", "write:6:500", "write:7:500", "read:8:1000", "read:9:1000"}
	out, err := r.RunCalls(context.Background(), nil, calls(specs...), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s := statuses(out); strings.Count(s, "ok") != len(specs) {
		t.Fatalf("statuses: %s", s)
	}
	if len(l.overlaps) > 0 {
		t.Errorf("exclusive calls overlapped: %v", l.overlaps)
	}
	span := func(i int) [2]int64 { return l.spans[fmt.Sprintf("c%d", i)] }
	// Each exclusive call (2, 5: odd n for "maybe", 6, 7) starts after every
	// earlier call ended and ends before any later call started.
	for _, x := range []int{2, 5, 6, 7} {
		for i := range specs {
			switch {
			case i < x && span(i)[1] > span(x)[0]:
				t.Errorf("call %d ended after exclusive call %d started", i, x)
			case i > x && span(i)[0] < span(x)[1]:
				t.Errorf("call %d started before exclusive call %d ended", i, x)
			}
		}
	}
	// Safe neighbours did run together: 0 and 1, 3 and 4, 8 and 9.
	for _, p := range [][2]int{{0, 1}, {3, 4}, {8, 9}} {
		a, b := span(p[0]), span(p[1])
		if a[1] < b[0] || b[1] < a[0] {
			t.Errorf("safe calls %d and %d did not overlap: %v %v", p[0], p[1], a, b)
		}
	}
}

func TestRunCallsFailFastCallsCountAsSafe(t *testing.T) {
	l := newTurnLab()
	l.meet = 2
	r := turnRegistry(t, l, Options{}, nil)
	// read, unknown tool, provider tool, invalid args of an unsafe tool,
	// read: all in one parallel group, so both reads overlap.
	cs := calls("read:0:20000", "nosuch:1", "web_search:2", "write:bad", "read:4:20000")
	out, err := r.RunCalls(context.Background(), nil, cs, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s := statuses(out); s != "ok error error error ok" {
		t.Fatalf("statuses: %s", s)
	}
	if out[1].Err.Kind != ErrUnknownTool || out[2].Err.Kind != ErrProviderTool || out[3].Err.Kind != ErrInvalidArgs {
		t.Errorf("error kinds: %v %v %v", out[1].Err.Kind, out[2].Err.Kind, out[3].Err.Kind)
	}
	if l.peak.Load() != 2 {
		t.Errorf("peak %d: the reads around fail-fast calls must run together", l.peak.Load())
	}

	// With a fallback an unknown name may have side effects: it runs alone.
	var fbOverlap atomic.Bool
	fb := FallbackFunc(func(ctx context.Context, call *Call, tc ToolCall) (Result, bool, error) {
		if l.running.Load() != 0 {
			fbOverlap.Store(true)
		}
		time.Sleep(5 * time.Millisecond)
		if l.running.Load() != 0 {
			fbOverlap.Store(true)
		}
		return Text("legacy"), true, nil
	})
	l = newTurnLab()
	r = turnRegistry(t, l, Options{Fallback: fb}, nil)
	out, err = r.RunCalls(context.Background(), nil, calls("read:0:5000", "legacy_tool:1", "read:2:5000"), RunOptions{})
	if err != nil || statuses(out) != "ok ok ok" {
		t.Fatalf("err %v, statuses %s", err, statuses(out))
	}
	if fbOverlap.Load() {
		t.Error("a fallback call ran alongside other calls")
	}
}

func TestRunCallsInputDependentSafety(t *testing.T) {
	l := newTurnLab()
	l.meet = 2
	r := turnRegistry(t, l, Options{}, nil)
	cs := calls("maybe:0:10000", "maybe:2:10000", "maybe:1:1000", "maybe:4:10000", "maybe:6:10000")
	if _, err := r.RunCalls(context.Background(), nil, cs, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(l.overlaps) > 0 {
		t.Errorf("maybe with odd n overlapped: %v", l.overlaps)
	}
	if l.peak.Load() != 2 {
		t.Errorf("peak %d, want 2 (even-n calls in pairs around the odd one)", l.peak.Load())
	}
}

func TestRunCallsPauseSkipsLaterCalls(t *testing.T) {
	l := newTurnLab()
	r := turnRegistry(t, l, Options{}, nil)
	out, err := r.RunCalls(context.Background(), l.call(), calls("read:0", "write:1", "approve:2", "read:3", "write:4"), RunOptions{MaxConcurrency: 1})
	if err != nil {
		t.Fatalf("a pause is not an error: %v", err)
	}
	if s := statuses(out); s != "ok ok paused skipped skipped" {
		t.Fatalf("statuses: %s", s)
	}
	if out[2].Pause == nil || out[2].Pause.PausePointID != "pp-1" {
		t.Errorf("paused outcome: %+v", out[2])
	}
	for _, o := range out[3:] {
		text := o.Result.String()
		if !o.Result.IsError || !strings.HasPrefix(text, "Error: not run:") || !strings.Contains(text, `call "c2" (approve) is waiting for a person's approval`) {
			t.Errorf("skipped result: %q", text)
		}
	}
	if out[3].Label != "read 3" || out[3].CallID != "c3" || out[3].Tool != "read" {
		t.Errorf("skipped outcome identity: %+v", out[3])
	}
	for _, e := range l.events {
		if e.CallID == "c3" || e.CallID == "c4" {
			t.Errorf("skipped call emitted %+v", e)
		}
	}
	if _, ok := l.spans["c3"]; ok {
		t.Error("a skipped call ran")
	}
}

func TestRunCallsPauseInParallelGroup(t *testing.T) {
	l := newTurnLab()
	release := make(chan struct{})
	r := turnRegistry(t, l, Options{}, release)
	// hold:0 runs while approve:1 pauses; read:2.. have not started (bound 2).
	go func() {
		for l.running.Load() == 0 {
			time.Sleep(100 * time.Microsecond)
		}
		time.Sleep(20 * time.Millisecond)
		close(release)
	}()
	out, err := r.RunCalls(context.Background(), nil, calls("hold:0", "approve:1", "read:2", "read:3", "read:4"), RunOptions{MaxConcurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s := statuses(out); s != "ok paused skipped skipped skipped" {
		t.Fatalf("statuses: %s (a running call finishes, unstarted ones are skipped)", s)
	}
}

func TestRunCallsFatalSkipsLaterCalls(t *testing.T) {
	l := newTurnLab()
	r := turnRegistry(t, l, Options{}, nil)
	out, err := r.RunCalls(context.Background(), nil, calls("read:0", "explode:1", "read:2", "write:3"), RunOptions{})
	if !IsFatal(err) || !strings.Contains(err.Error(), "database is gone") {
		t.Fatalf("err = %v, want the fatal error", err)
	}
	if s := statuses(out); s != "ok fatal skipped skipped" {
		t.Fatalf("statuses: %s", s)
	}
	if !strings.Contains(out[2].Result.String(), `call "c1" (explode) failed`) {
		t.Errorf("skipped result: %q", out[2].Result.String())
	}
}

func TestRunCallsCancellation(t *testing.T) {
	before := goruntime.NumGoroutine()
	l := newTurnLab()
	r := turnRegistry(t, l, Options{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for l.waiting.Load() == 0 {
			time.Sleep(100 * time.Microsecond)
		}
		cancel()
	}()
	out, err := r.RunCalls(ctx, nil, calls("read:0", "wait:1", "read:2", "read:3"), RunOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if s := statuses(out); s != "ok fatal skipped skipped" {
		t.Fatalf("statuses: %s", s)
	}

	// Cancelled before anything starts: every call is skipped.
	out, err = r.RunCalls(ctx, nil, calls("read:0", "write:1"), RunOptions{})
	if !errors.Is(err, context.Canceled) || statuses(out) != "skipped skipped" {
		t.Fatalf("pre-cancelled: err %v, statuses %s", err, statuses(out))
	}
	if !strings.Contains(out[0].Result.String(), "the turn was cancelled before this call started") {
		t.Errorf("skipped result: %q", out[0].Result.String())
	}
	waitGoroutines(t, before)
}

func TestRunCallsEmpty(t *testing.T) {
	r := NewRegistry(Options{})
	out, err := r.RunCalls(context.Background(), nil, nil, RunOptions{})
	if err != nil || len(out) != 0 {
		t.Fatalf("out %v, err %v", out, err)
	}
}

func TestRunCallsReturnsTheEarliestFatalError(t *testing.T) {
	l := newTurnLab()
	r := NewRegistry(Options{})
	secondFailed := make(chan struct{})
	boom := l.tool("boom", safeAlways, func(ctx context.Context, a *turnArgs) (Result, error) {
		if a.N == 1 {
			close(secondFailed)
			return Result{}, Fatal(errors.New("second call failed"))
		}
		<-secondFailed // the first call in the model's order fails last
		return Result{}, Fatal(errors.New("first call failed"))
	})
	if err := r.Add(boom); err != nil {
		t.Fatal(err)
	}
	out, err := r.RunCalls(context.Background(), nil, calls("boom:0", "boom:1", "boom:2"), RunOptions{MaxConcurrency: 2})
	if !IsFatal(err) || err.Error() != "first call failed" {
		t.Fatalf("err = %v, want the fatal error of the earliest call", err)
	}
	if s := statuses(out); s != "fatal fatal skipped" {
		t.Fatalf("statuses: %s", s)
	}
}

// prepareCall decides which calls may run alongside others.
func TestRunCallsPrepareSafety(t *testing.T) {
	l := newTurnLab()
	r := turnRegistry(t, l, Options{Limits: Limits{MaxArgumentBytes: 64}}, nil)
	picky := l.tool("picky", safeAlways, nil)
	picky.ConcurrencySafeFor = func(any) bool { panic("cannot tell") }
	if err := r.Add(picky); err != nil {
		t.Fatal(err)
	}
	withFallback := turnRegistry(t, newTurnLab(), Options{Fallback: FallbackFunc(func(context.Context, *Call, ToolCall) (Result, bool, error) {
		return Text("legacy"), true, nil
	})}, nil)
	for _, c := range []struct {
		name string
		r    *Registry
		tc   ToolCall
		safe bool
	}{
		{"safe tool", r, calls("read:1")[0], true},
		{"unsafe tool", r, calls("write:1")[0], false},
		{"safe for this input", r, calls("maybe:2")[0], true},
		{"unsafe for this input", r, calls("maybe:1")[0], false},
		{"safety check panics", r, calls("picky:1")[0], false},
		{"invalid arguments fail fast", r, calls("write:bad")[0], true},
		{"oversize arguments fail fast", r, ToolCall{Name: "write", Arguments: json.RawMessage(`{"n":1,"pad":"` + strings.Repeat("x", 64) + `"}`)}, true},
		{"unknown tool fails fast", r, calls("nosuch:1")[0], true},
		{"provider tool fails fast", r, calls("web_search:1")[0], true},
		{"unknown tool may be the fallback's", withFallback, calls("nosuch:1")[0], false},
	} {
		if got := c.r.prepareCall(c.tc).safe; got != c.safe {
			t.Errorf("%s: safe = %v, want %v", c.name, got, c.safe)
		}
	}
}

// A call's arguments decoded ahead of the turn are used only by the tool
// they were decoded for: when an earlier call of the turn replaced that
// tool, the new one decodes them again.
func TestRunCallsToolReplacedDuringTheTurn(t *testing.T) {
	type v2Args struct {
		N int `json:"n"`
	}
	l := newTurnLab()
	r := NewRegistry(Options{})
	v2Decodes := 0
	v2 := &Tool{Name: "read", Flags: DefaultFlags(),
		Decode: func(data []byte) (any, error) {
			v2Decodes++
			return DecodeJSON[v2Args](nil)(data)
		},
		Execute: TypedExecute(func(ctx context.Context, call *Call, a *v2Args) (Result, error) {
			return Text(fmt.Sprint("v2:", a.N)), nil
		}),
	}
	upgrade := l.tool("upgrade", safeNever, func(ctx context.Context, a *turnArgs) (Result, error) {
		r.Remove("read")
		return Text("upgraded"), r.Add(v2)
	})
	if err := r.Add(l.tool("read", safeAlways, nil), upgrade); err != nil {
		t.Fatal(err)
	}
	out, err := r.RunCalls(context.Background(), nil, calls("upgrade:0", "read:7"), RunOptions{})
	if err != nil || statuses(out) != "ok ok" {
		t.Fatalf("err %v, outcomes %+v", err, out)
	}
	if got := out[1].Result.String(); got != "v2:7" || v2Decodes != 1 {
		t.Fatalf("second call: %q after %d decodes by the new tool, want v2:7 after 1", got, v2Decodes)
	}
}
