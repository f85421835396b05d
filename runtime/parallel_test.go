package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// itemArgs are the arguments of the test tool wrapped by Parallelize.
type itemArgs struct {
	N     int    `json:"n"`
	Sleep int    `json:"sleep,omitempty"` // microseconds
	Mode  string `json:"mode,omitempty"`
}

// strictDecode decodes itemArgs strictly: unknown keys and a negative n are
// violations (each reported), like a generated decoder would.
func strictDecode(data []byte) (any, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, &ValidationError{Violations: []Violation{{Path: "$", Message: "expected an object"}}}
	}
	a := &itemArgs{}
	var vs []Violation
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range raw {
			if !yield(k) {
				return
			}
		}
	}) {
		var err error
		switch k {
		case "n":
			err = json.Unmarshal(raw[k], &a.N)
		case "sleep":
			err = json.Unmarshal(raw[k], &a.Sleep)
		case "mode":
			err = json.Unmarshal(raw[k], &a.Mode)
		default:
			vs = append(vs, Violation{Path: "$", Message: fmt.Sprintf("unknown property %q", k)})
			continue
		}
		if err != nil {
			vs = append(vs, Violation{Path: "$." + k, Message: "wrong type"})
		}
	}
	if _, ok := raw["n"]; !ok {
		vs = append(vs, Violation{Path: "$", Message: `missing required property "n"`})
	} else if a.N < 0 {
		vs = append(vs, Violation{Path: "$.n", Message: "must be at least 0"})
	}
	if vs != nil {
		return a, &ValidationError{Violations: vs}
	}
	return a, nil
}

const itemSchema = `{"additionalProperties":false,"properties":{"mode":{"type":"string"},"n":{"minimum":0,"type":"integer"},"sleep":{"type":"integer"}},"required":["n"],"type":"object"}`

func newItemTool(exec func(ctx context.Context, call *Call, a *itemArgs) (Result, error)) *Tool {
	f := DefaultFlags()
	f.ReadOnly, f.ConcurrencySafe = true, true
	return &Tool{
		Name:        "square",
		Description: "Squares n.",
		Kind:        KindAgent,
		Provider:    "math",
		Gate:        "calc",
		GateMessage: "Calculator is not connected.",
		Flags:       f,
		Schema:      json.RawMessage(itemSchema),
		Decode:      strictDecode,
		Label: func(args any) string {
			if a, ok := args.(*itemArgs); ok && a != nil {
				return fmt.Sprintf("Squaring %d", a.N)
			}
			return ""
		},
		Execute: func(ctx context.Context, call *Call, args any) (Result, error) {
			return exec(ctx, call, args.(*itemArgs))
		},
	}
}

func squareExec(ctx context.Context, call *Call, a *itemArgs) (Result, error) {
	if a.Sleep > 0 {
		time.Sleep(time.Duration(a.Sleep) * time.Microsecond)
	}
	return Text(fmt.Sprint(a.N * a.N)), nil
}

func mustParallelize(t testing.TB, tool *Tool, opts ParallelizeOptions) *Tool {
	t.Helper()
	bt, err := Parallelize(tool, opts)
	if err != nil {
		t.Fatal(err)
	}
	return bt
}

// runBatch decodes raw with the batch tool and executes it.
func runBatch(ctx context.Context, t testing.TB, bt *Tool, call *Call, raw string) ([]BatchItemResult, error) {
	t.Helper()
	args, err := bt.Decode([]byte(raw))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	res, err := bt.Execute(ctx, call, args)
	if err != nil {
		return nil, err
	}
	var out []BatchItemResult
	if err := json.Unmarshal([]byte(res.String()), &out); err != nil {
		t.Fatalf("batch result is not JSON: %v\n%s", err, res.String())
	}
	return out, nil
}

func itemsJSON(items ...string) string { return `{"items":[` + strings.Join(items, ",") + `]}` }

// waitGoroutines waits for the goroutine count to drop back to want.
func waitGoroutines(t *testing.T, want int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		n := goruntime.NumGoroutine()
		if n <= want {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			buf = buf[:goruntime.Stack(buf, true)]
			t.Fatalf("goroutines: %d, want at most %d\n%s", n, want, buf)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestParallelizeOptions(t *testing.T) {
	tool := newItemTool(squareExec)
	bt := mustParallelize(t, tool, ParallelizeOptions{})
	if bt.Name != "square_batch" {
		t.Errorf("name = %q", bt.Name)
	}
	if !strings.Contains(bt.Description, "up to 50 inputs") || !strings.Contains(bt.Description, "8 at a time") || !strings.HasSuffix(bt.Description, "Squares n.") {
		t.Errorf("description = %q", bt.Description)
	}
	if bt.Kind != KindAgent || bt.Gate != "calc" || bt.GateMessage != tool.GateMessage || bt.Provider != "math" || bt.Flags != tool.Flags {
		t.Errorf("kind/gate/flags/provider not carried over: %+v", bt)
	}
	named := mustParallelize(t, tool, ParallelizeOptions{Name: "squares", Description: "Many squares."})
	if named.Name != "squares" || named.Description != "Many squares." {
		t.Errorf("explicit name/description ignored: %q %q", named.Name, named.Description)
	}

	bad := []struct {
		name string
		tool *Tool
		opts ParallelizeOptions
		want string
	}{
		{"nil tool", nil, ParallelizeOptions{}, "nil tool"},
		{"no execute", &Tool{Name: "x", Decode: strictDecode, Schema: json.RawMessage(`{}`)}, ParallelizeOptions{}, "needs Decode (or DecodeWith) and Execute"},
		{"no schema", &Tool{Name: "x", Decode: strictDecode, Execute: tool.Execute}, ParallelizeOptions{}, "no Schema"},
		{"bad schema", &Tool{Name: "x", Decode: strictDecode, Execute: tool.Execute, Schema: json.RawMessage(`{`)}, ParallelizeOptions{}, "not valid JSON"},
		{"negative max items", tool, ParallelizeOptions{MaxItems: -1}, "MaxItems"},
		{"negative max bytes", tool, ParallelizeOptions{MaxResultBytes: -5}, "MaxResultBytes"},
		{"bad name", tool, ParallelizeOptions{Name: "has space"}, "not allowed"},
		{"long name", tool, ParallelizeOptions{Name: strings.Repeat("a", 65)}, "longer than 64"},
	}
	for _, c := range bad {
		_, err := Parallelize(c.tool, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to mention %q", c.name, err, c.want)
		}
	}
}

func TestParallelizeSchema(t *testing.T) {
	bt := mustParallelize(t, newItemTool(squareExec), ParallelizeOptions{MaxItems: 7})
	want := `{"additionalProperties":false,"properties":{"items":{"description":"The inputs, one per call; each has the wrapped tool's arguments.","items":` + itemSchema + `,"maxItems":7,"minItems":1,"type":"array"}},"required":["items"],"type":"object"}`
	if string(bt.Schema) != want {
		t.Fatalf("schema\n got %s\nwant %s", bt.Schema, want)
	}
	// Canonical: decoding and re-encoding (maps sort keys) gives the same bytes.
	var v any
	if err := json.Unmarshal(bt.Schema, &v); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(v)
	if !bytes.Equal(again, bt.Schema) {
		t.Errorf("schema is not canonical:\n%s\n%s", bt.Schema, again)
	}
	// An indented wrapped schema is compacted.
	tool := newItemTool(squareExec)
	tool.Schema = json.RawMessage("{\n  \"type\": \"object\"\n}")
	bt = mustParallelize(t, tool, ParallelizeOptions{})
	if !strings.Contains(string(bt.Schema), `"items":{"type":"object"},"maxItems":50`) {
		t.Errorf("schema = %s", bt.Schema)
	}
}

func TestParallelizeDecode(t *testing.T) {
	bt := mustParallelize(t, newItemTool(squareExec), ParallelizeOptions{MaxItems: 3})
	cases := []struct {
		name string
		raw  string
		want []Violation
	}{
		{"malformed", `{"items":`, []Violation{{"$", ""}}},
		{"not an object", `[1]`, []Violation{{"$", "expected an object"}}},
		{"null", `null`, []Violation{{"$", "got null"}}},
		{"missing items", `{}`, []Violation{{"$", `missing required property "items"`}}},
		{"unknown key and items not array", `{"extra":1,"items":{}}`, []Violation{
			{"$", `unknown property "extra"`}, {"$.items", "expected an array of inputs, got object"}}},
		{"null items", `{"items":null}`, []Violation{{"$.items", "got null"}}},
		{"empty", `{"items":[]}`, []Violation{{"$.items", "at least 1 item"}}},
		{"too many", itemsJSON(`{"n":1}`, `{"n":2}`, `{"n":3}`, `{"n":4}`), []Violation{{"$.items", "at most 3 items, got 4"}}},
		{"every item violation", itemsJSON(`{"n":1}`, `{"n":-1,"x":2}`, `{"n":"a"}`), []Violation{
			{"$.items[1]", `unknown property "x"`}, {"$.items[1].n", "must be at least 0"},
			{"$.items[2].n", "wrong type"}}},
		{"item not an object", itemsJSON(`{"n":1}`, `7`), []Violation{{"$.items[1]", "expected an object"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := bt.Decode([]byte(c.raw))
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("err = %v, want a *ValidationError", err)
			}
			if len(ve.Violations) != len(c.want) {
				t.Fatalf("violations = %v, want %d like %v", ve.Violations, len(c.want), c.want)
			}
			for i, w := range c.want {
				got := ve.Violations[i]
				if got.Path != w.Path || !strings.Contains(got.Message, w.Message) {
					t.Errorf("violation %d = %v, want %s containing %q", i, got, w.Path, w.Message)
				}
			}
		})
	}
	args, err := bt.Decode([]byte(itemsJSON(`{"n":2}`, ` { "n" : 3 } `)))
	if err != nil {
		t.Fatal(err)
	}
	a := args.(*BatchArgs)
	if len(a.Items) != 2 || a.Items[1].(*itemArgs).N != 3 {
		t.Errorf("decoded = %+v", a)
	}
}

func TestRebasePath(t *testing.T) {
	for _, c := range [][3]string{
		{"$.items[2]", "$", "$.items[2]"},
		{"$.items[2]", "$.email", "$.items[2].email"},
		{"$.items[2]", "$[0].a", "$.items[2][0].a"},
		{"$.items[2]", "", "$.items[2]"},
		{"$.items[2]", "email", "$.items[2].email"},
	} {
		if got := rebasePath(c[0], c[1]); got != c[2] {
			t.Errorf("rebasePath(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

func TestParallelizeOrderUnderRandomDelays(t *testing.T) {
	bt := mustParallelize(t, newItemTool(squareExec), ParallelizeOptions{MaxConcurrency: 5})
	var items []string
	for i := range 40 {
		items = append(items, fmt.Sprintf(`{"n":%d,"sleep":%d}`, i, rand.IntN(3000)))
	}
	out, err := runBatch(context.Background(), t, bt, nil, itemsJSON(items...))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 40 {
		t.Fatalf("%d entries", len(out))
	}
	for i, e := range out {
		if e.Index != i || !e.OK || e.Output != fmt.Sprint(i*i) {
			t.Errorf("entry %d = %+v", i, e)
		}
		var in itemArgs
		if err := json.Unmarshal(e.Input, &in); err != nil || in.N != i {
			t.Errorf("entry %d input = %s", i, e.Input)
		}
	}
}

func TestParallelizeConcurrencyBound(t *testing.T) {
	for _, c := range []struct{ opt, want int }{{3, 3}, {-4, 1}, {0, 8}} {
		t.Run(fmt.Sprint(c.opt), func(t *testing.T) {
			var cur, peak, started atomic.Int64
			tool := newItemTool(func(ctx context.Context, call *Call, a *itemArgs) (Result, error) {
				n := cur.Add(1)
				for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
				}
				// The first items wait (a while) for the bound to fill up, so
				// that the peak does not depend on how a loaded machine
				// schedules the workers.
				if started.Add(1) <= int64(c.want) {
					for deadline := time.Now().Add(time.Second); cur.Load() < int64(c.want) && time.Now().Before(deadline); {
						time.Sleep(50 * time.Microsecond)
					}
				}
				time.Sleep(time.Millisecond)
				cur.Add(-1)
				return Text("ok"), nil
			})
			bt := mustParallelize(t, tool, ParallelizeOptions{MaxConcurrency: c.opt})
			items := make([]string, 3*c.want+2)
			for i := range items {
				items[i] = `{"n":1}`
			}
			out, err := runBatch(context.Background(), t, bt, nil, itemsJSON(items...))
			if err != nil {
				t.Fatal(err)
			}
			if len(out) != len(items) {
				t.Fatalf("%d entries", len(out))
			}
			if p := peak.Load(); p != int64(c.want) {
				t.Errorf("peak concurrency %d, want %d", p, c.want)
			}
		})
	}
}

func TestParallelizePerItemErrors(t *testing.T) {
	tool := newItemTool(func(ctx context.Context, call *Call, a *itemArgs) (Result, error) {
		switch a.Mode {
		case "error":
			return Result{}, errors.New("card declined")
		case "toolerror":
			return Result{}, &ToolError{Kind: ErrExecution, Message: "quota exceeded", Err: errors.New("inner")}
		case "result":
			return Result{Parts: []Part{TextPart("not found")}, IsError: true}, nil
		case "panic":
			panic("boom")
		case "pause":
			return Result{}, Pause("pp1", "needs a human")
		case "parts":
			return Parts(TextPart("a"), FilePart(File{Name: "f.txt", URL: "https://x/f.txt"})), nil
		}
		return Text("fine"), nil
	})
	bt := mustParallelize(t, tool, ParallelizeOptions{})
	out, err := runBatch(context.Background(), t, bt, nil, itemsJSON(
		`{"n":0}`, `{"n":1,"mode":"error"}`, `{"n":2,"mode":"toolerror"}`, `{"n":3,"mode":"result"}`,
		`{"n":4,"mode":"panic"}`, `{"n":5,"mode":"pause"}`, `{"n":6,"mode":"parts"}`))
	if err != nil {
		t.Fatal(err)
	}
	wantErr := map[int]string{1: "card declined", 2: "quota exceeded", 3: "not found", 4: "square panicked: boom", 5: "needs human approval"}
	for i, e := range out {
		if w, ok := wantErr[i]; ok {
			if e.OK || e.Error == nil || e.Error.Type != "execution" || !strings.Contains(e.Error.Message, w) || e.Output != nil {
				t.Errorf("entry %d = %+v, want error %q", i, e, w)
			}
			continue
		}
		if !e.OK || e.Error != nil {
			t.Errorf("entry %d = %+v, want ok", i, e)
		}
	}
	if out[0].Output != "fine" {
		t.Errorf("entry 0 output = %#v", out[0].Output)
	}
	parts, _ := json.Marshal(out[6].Output)
	if string(parts) != `[{"text":"a","type":"text"},{"file":{"name":"f.txt","url":"https://x/f.txt"},"type":"file"}]` {
		t.Errorf("parts output = %s", parts)
	}
}

// blockingTool returns a tool whose items block until their ctx is done,
// except the item with mode "fatal", which fails fatally once `started`
// items are running.
func blockingTool(started *atomic.Int64, sawDone *atomic.Int64, running chan struct{}) *Tool {
	return newItemTool(func(ctx context.Context, call *Call, a *itemArgs) (Result, error) {
		started.Add(1)
		running <- struct{}{}
		if a.Mode == "fatal" {
			return Result{}, Fatal(errors.New("ledger corrupted"))
		}
		<-ctx.Done()
		sawDone.Add(1)
		return Result{}, ctx.Err()
	})
}

func TestParallelizeFatalStopsBatch(t *testing.T) {
	before := goruntime.NumGoroutine()
	var started, sawDone atomic.Int64
	running := make(chan struct{}, 100)
	bt := mustParallelize(t, blockingTool(&started, &sawDone, running), ParallelizeOptions{MaxConcurrency: 3})
	items := []string{`{"n":0}`, `{"n":1}`, `{"n":2,"mode":"fatal"}`}
	for i := 3; i < 20; i++ {
		items = append(items, fmt.Sprintf(`{"n":%d}`, i))
	}
	_, err := runBatch(context.Background(), t, bt, nil, itemsJSON(items...))
	if !IsFatal(err) || !strings.Contains(err.Error(), "ledger corrupted") {
		t.Fatalf("err = %v, want the fatal error", err)
	}
	if s := started.Load(); s != 3 {
		t.Errorf("%d items started, want 3 (later items must not start)", s)
	}
	if d := sawDone.Load(); d != 2 {
		t.Errorf("%d running items saw ctx.Done, want 2", d)
	}
	waitGoroutines(t, before)
}

func TestParallelizeCancelStopsBatch(t *testing.T) {
	before := goruntime.NumGoroutine()
	var started, sawDone atomic.Int64
	running := make(chan struct{}, 100)
	bt := mustParallelize(t, blockingTool(&started, &sawDone, running), ParallelizeOptions{MaxConcurrency: 4})
	items := make([]string, 12)
	for i := range items {
		items[i] = fmt.Sprintf(`{"n":%d}`, i)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for range 4 {
			<-running
		}
		cancel()
	}()
	_, err := runBatch(ctx, t, bt, nil, itemsJSON(items...))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if s, d := started.Load(), sawDone.Load(); s != 4 || d != 4 {
		t.Errorf("started %d, saw done %d; want 4 and 4", s, d)
	}
	waitGoroutines(t, before)

	// Already cancelled: nothing starts.
	started.Store(0)
	_, err = runBatch(ctx, t, bt, nil, itemsJSON(items...))
	if !errors.Is(err, context.Canceled) || started.Load() != 0 {
		t.Errorf("pre-cancelled: err %v, %d started", err, started.Load())
	}
}

func TestParallelizeNoGoroutineLeft(t *testing.T) {
	before := goruntime.NumGoroutine()
	bt := mustParallelize(t, newItemTool(squareExec), ParallelizeOptions{MaxConcurrency: 6})
	for range 20 {
		if _, err := runBatch(context.Background(), t, bt, nil, itemsJSON(`{"n":1}`, `{"n":2,"sleep":100}`, `{"n":3}`)); err != nil {
			t.Fatal(err)
		}
	}
	waitGoroutines(t, before)
}

func TestParallelizeResultCap(t *testing.T) {
	big := strings.Repeat("x", 1000)
	tool := newItemTool(func(ctx context.Context, call *Call, a *itemArgs) (Result, error) {
		if a.Mode == "error" {
			return Result{}, errors.New(big)
		}
		return Text(big), nil
	})
	bt := mustParallelize(t, tool, ParallelizeOptions{MaxResultBytes: 5000})
	items := make([]string, 10)
	for i := range items {
		items[i] = fmt.Sprintf(`{"n":%d}`, i)
	}
	items[9] = `{"n":9,"mode":"error"}`
	args, _ := bt.Decode([]byte(itemsJSON(items...)))
	res, err := bt.Execute(context.Background(), nil, args)
	if err != nil {
		t.Fatal(err)
	}
	text := res.String()
	if len(text) > 5000 {
		t.Errorf("result is %d bytes, cap 5000", len(text))
	}
	var out []BatchItemResult
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatalf("truncated result is not valid JSON: %v", err)
	}
	if len(out) != 10 {
		t.Fatalf("%d entries, want all 10 (outputs dropped, not entries)", len(out))
	}
	kept := 0
	for i, e := range out {
		if e.Output == big {
			kept++
			if kept != i+1 {
				t.Errorf("entry %d kept after a dropped one: outputs must be dropped from the end", i)
			}
			continue
		}
		if e.Output != nil || e.Error != nil || !strings.Contains(e.Truncated, "5000 bytes") || e.Index != i || e.Input == nil {
			t.Errorf("entry %d = %+v, want a truncated marker and its input", i, e)
		}
	}
	if kept != 4 {
		t.Errorf("%d outputs kept, want 4 (the most that fit)", kept)
	}
	if out[9].OK {
		t.Errorf("entry 9 must keep ok=false after its error was dropped")
	}

	// A cap smaller than the entries' inputs drops inputs too, still valid JSON.
	bt = mustParallelize(t, tool, ParallelizeOptions{MaxResultBytes: 200})
	res, err = bt.Execute(context.Background(), nil, args)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid([]byte(res.String())) {
		t.Errorf("not valid JSON: %s", res.String())
	}
	if !strings.Contains(res.String(), `"input":null,"ok":true,"truncated":"input and output dropped`) {
		t.Errorf("no input truncation marker: %s", res.String())
	}
}

func TestParallelizePermissionLabelAndFlags(t *testing.T) {
	tool := newItemTool(squareExec)
	tool.Permission = func(ctx context.Context, call *Call, args any) Decision {
		switch a := args.(*itemArgs); {
		case a.N > 100:
			return Denied("too big")
		case a.N > 10:
			return AskApproval("big number")
		}
		return Allowed()
	}
	tool.ReadOnlyFor = func(args any) bool { return args.(*itemArgs).N%2 == 0 }
	tool.ConcurrencySafeFor = func(args any) bool { return args.(*itemArgs).N < 5 }
	bt := mustParallelize(t, tool, ParallelizeOptions{})
	dec := func(raw string) any {
		a, err := bt.Decode([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	// Through a registry the pipeline asks the item tool's permission for
	// every item (the batch tool has no Permission of its own): a denied
	// item is that item's error, an ask asks for the whole call (denied
	// here, since the registry has no Approvals store).
	if bt.Permission != nil {
		t.Error("the batch tool must leave Permission to the pipeline")
	}
	reg := NewRegistry(Options{Gates: GatesFunc(func(context.Context, *Call, string) (bool, error) { return true, nil })})
	if err := reg.Add(bt); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		raw, want string
		status    Status
	}{
		{itemsJSON(`{"n":1}`, `{"n":2}`), `[{"index":0,"input":{"n":1},"ok":true,"output":"1"},{"index":1,"input":{"n":2},"ok":true,"output":"4"}]`, StatusOK},
		{itemsJSON(`{"n":1}`, `{"n":20}`, `{"n":30}`), "Error: square_batch needs a person's approval, and approval is not available here, so the call did not run (item 1: big number).", StatusError},
		{itemsJSON(`{"n":3}`, `{"n":200}`), `[{"index":0,"input":{"n":3},"ok":true,"output":"9"},{"index":1,"input":{"n":200},"ok":false,"error":{"type":"permission_denied","message":"permission denied for square: too big."}}]`, StatusOK},
	} {
		out, err := reg.Dispatch(context.Background(), nil, ToolCall{ID: "1", Name: bt.Name, Arguments: json.RawMessage(c.raw)})
		if err != nil || out.Status != c.status || out.Result.String() != c.want {
			t.Errorf("dispatch(%s) = %s %q, %v; want %s %q", c.raw, out.Status, out.Result.String(), err, c.status, c.want)
		}
	}
	if !bt.IsReadOnly(dec(itemsJSON(`{"n":2}`, `{"n":4}`))) || bt.IsReadOnly(dec(itemsJSON(`{"n":2}`, `{"n":3}`))) {
		t.Error("ReadOnlyFor must hold for every item")
	}
	if !bt.IsConcurrencySafe(dec(itemsJSON(`{"n":2}`))) || bt.IsConcurrencySafe(dec(itemsJSON(`{"n":2}`, `{"n":9}`))) {
		t.Error("ConcurrencySafeFor must hold for every item")
	}
	if l := bt.Label(dec(itemsJSON(`{"n":7}`, `{"n":2}`, `{"n":3}`))); l != "Squaring 7 (+2 more)" {
		t.Errorf("label = %q", l)
	}
	if l := bt.Label(dec(itemsJSON(`{"n":7}`))); l != "Squaring 7" {
		t.Errorf("label = %q", l)
	}
	if l := bt.Label(nil); l != "square_batch" {
		t.Errorf("label(nil) = %q", l)
	}
	tool.Label = func(any) string { panic("bad label") }
	bt = mustParallelize(t, tool, ParallelizeOptions{})
	if l := bt.Label(dec(itemsJSON(`{"n":7}`, `{"n":1}`))); l != "square (+1 more)" {
		t.Errorf("label with panicking item label = %q", l)
	}
	// Without by-input functions the batch has none either: static flags apply.
	plain := mustParallelize(t, newItemTool(squareExec), ParallelizeOptions{})
	if plain.ReadOnlyFor != nil || plain.ConcurrencySafeFor != nil {
		t.Error("batch of a tool without by-input checks must not add any")
	}
}

func TestParallelizeForwardsProgressWithIndex(t *testing.T) {
	var late sync.WaitGroup
	release := make(chan struct{})
	tool := newItemTool(func(ctx context.Context, call *Call, a *itemArgs) (Result, error) {
		call.Progress(fmt.Sprintf("working on %d", a.N))
		call.Emit(Event{Type: EventProgress, Message: "data", Data: a.N * 10})
		if a.N == 1 {
			late.Add(1)
			go func() { // emits after the batch returned: must be dropped
				defer late.Done()
				<-release
				call.Progress("too late")
			}()
		}
		return Text("ok"), nil
	})
	bt := mustParallelize(t, tool, ParallelizeOptions{})
	var mu sync.Mutex
	var got []Event
	call := &Call{ToolCallID: "c1", ToolName: bt.Name, Events: func(e Event) {
		mu.Lock()
		got = append(got, e)
		mu.Unlock()
	}}
	if _, err := runBatch(context.Background(), t, bt, call, itemsJSON(`{"n":0}`, `{"n":1}`, `{"n":2}`)); err != nil {
		t.Fatal(err)
	}
	close(release)
	late.Wait()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 6 {
		t.Fatalf("%d events, want 6: %+v", len(got), got)
	}
	seen := map[string]bool{}
	for _, e := range got {
		bi, ok := e.Data.(BatchItem)
		if !ok || e.CallID != "c1" || e.Tool != "square_batch" || e.Type != EventProgress {
			t.Fatalf("event %+v", e)
		}
		switch e.Message {
		case "data":
			if bi.Data != bi.Index*10 {
				t.Errorf("event data %+v", bi)
			}
		case fmt.Sprintf("working on %d", bi.Index):
		default:
			t.Errorf("event %+v: message does not belong to item %d", e, bi.Index)
		}
		seen[e.Message] = true
	}
	if seen["too late"] {
		t.Error("an event emitted after the batch returned was forwarded")
	}
}

func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `quote " back \ slash`, "ctl \x00\x01\x1f\t\n\r", "é ünï 日本 😀", "bad \xff utf8 \xc3", "line\u2028sep\u2029", "<html>&"} {
		got := appendJSONString(nil, s)
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Errorf("%q: invalid JSON %s: %v", s, got, err)
			continue
		}
		want, _ := json.Marshal(s)
		var wantBack string
		_ = json.Unmarshal(want, &wantBack)
		if back != wantBack {
			t.Errorf("%q round-trips to %q, encoding/json to %q", s, back, wantBack)
		}
	}
}

func FuzzAppendJSONString(f *testing.F) {
	f.Add("a\"b\\c\x00\xff")
	f.Fuzz(func(t *testing.T, s string) {
		got := appendJSONString(nil, s)
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("%q: invalid JSON %s: %v", s, got, err)
		}
		want, _ := json.Marshal(s)
		var wantBack string
		_ = json.Unmarshal(want, &wantBack)
		if back != wantBack {
			t.Fatalf("%q round-trips to %q, want %q", s, back, wantBack)
		}
	})
}

func TestParallelizeRespectsRegistryResultLimit(t *testing.T) {
	big := strings.Repeat("y", 600)
	bt := mustParallelize(t, newItemTool(func(ctx context.Context, call *Call, a *itemArgs) (Result, error) {
		return Text(big), nil
	}), ParallelizeOptions{})
	r := NewRegistry(Options{Gates: GatesFunc(func(context.Context, *Call, string) (bool, error) { return true, nil }),
		Limits: Limits{MaxResultBytes: 2000}})
	if err := r.Add(bt); err != nil {
		t.Fatal(err)
	}
	out, err := r.Dispatch(context.Background(), nil, ToolCall{ID: "1", Name: bt.Name,
		Arguments: json.RawMessage(itemsJSON(`{"n":1}`, `{"n":2}`, `{"n":3}`, `{"n":4}`, `{"n":5}`))})
	if err != nil || out.Status != StatusOK {
		t.Fatalf("outcome %+v, %v", out, err)
	}
	text := out.Result.String()
	var entries []BatchItemResult
	if err := json.Unmarshal([]byte(text), &entries); err != nil || len(entries) != 5 {
		t.Fatalf("result is not the 5 entries as valid JSON (%v): %s", err, text)
	}
	if len(text) > 2000 || entries[0].Output != big || entries[4].Truncated == "" {
		t.Errorf("entries %+v", entries)
	}
}

func TestMustParallelize(t *testing.T) {
	if bt := MustParallelize(newItemTool(squareExec), ParallelizeOptions{Name: "squares"}); bt.Name != "squares" {
		t.Errorf("name %q", bt.Name)
	}
	defer func() {
		if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), "MaxItems") {
			t.Errorf("panic = %v, want the option error", p)
		}
	}()
	MustParallelize(newItemTool(squareExec), ParallelizeOptions{MaxItems: -1})
}

// A batch tool is dispatched like any other tool: its items are validated
// at step 3, the wrapped tool's flags and gate apply at steps 4 and 5, its
// permission (for every item) at step 6, and nothing runs after the step
// that stopped the call.
func TestParallelizeThroughThePipeline(t *testing.T) {
	const batch = pipeTool + "_batch"
	// The policy is asked about the batch tool and the tool it wraps.
	upToGate := []string{"decode", "decode", "label", "event:start", "policy-enabled", "policy-enabled", "gate:stripe"}
	cases := []struct {
		name   string
		setup  func(p *pipe)
		items  string
		trace  []string
		status Status
		kind   ErrorKind
		text   string
	}{
		{
			name:  "every step",
			items: itemsJSON(`{"limit":1}`, `{"limit":2}`),
			// Per item: the tool's check, the policy with the item; then
			// the policy with the batch.
			trace:  traceOf(upToGate, "permission", "policy-permission:allow", "permission", "policy-permission:allow", "policy-permission:allow", "execute", "execute", "event:finish:ok"),
			status: StatusOK,
		},
		{
			name:   "3 an invalid item",
			items:  itemsJSON(`{"limit":1}`, `{"limit":500}`),
			trace:  traceOf("decode", "decode", "label", "event:start", "event:finish:error"),
			status: StatusError,
			kind:   ErrInvalidArgs,
			text:   "Error: invalid arguments for " + batch + ":\n- $.items[1].limit: must be at most 100, got 500",
		},
		{
			name:   "4 the wrapped tool is disabled",
			setup:  func(p *pipe) { p.tool.Flags.Enabled = false },
			items:  itemsJSON(`{"limit":1}`),
			trace:  traceOf("decode", "label", "event:start", "event:finish:error"),
			status: StatusError,
			kind:   ErrDisabled,
		},
		{
			name:   "5 the wrapped tool's gate is closed",
			setup:  func(p *pipe) { p.gates.set("stripe", false) },
			items:  itemsJSON(`{"limit":1}`, `{"limit":2}`),
			trace:  traceOf(upToGate, "event:finish:error"),
			status: StatusError,
			kind:   ErrGate,
			text:   "Error: Stripe is not connected for this account.",
		},
		{
			name:  "6 the wrapped tool denies every item",
			setup: func(p *pipe) { p.toolDecision = Denied("only admins") },
			items: itemsJSON(`{"limit":1}`, `{"limit":2}`),
			// Each denial is its item's error; nothing runs.
			trace:  traceOf(upToGate, "permission", "permission", "policy-permission:allow", "event:finish:ok"),
			status: StatusOK,
		},
		{
			name:   "6 the wrapped tool requires approval",
			setup:  func(p *pipe) { p.tool.Flags.RequiresApproval = true },
			items:  itemsJSON(`{"limit":1}`),
			trace:  traceOf("decode", "label", "event:start", "policy-enabled", "policy-enabled", "gate:stripe", "permission", "policy-permission:ask", "policy-permission:ask", "request-approval", "event:finish:paused"),
			status: StatusPaused,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPipe(t)
			if c.setup != nil {
				c.setup(p)
			}
			p.reg = NewRegistry(p.opts)
			if err := p.reg.Add(mustParallelize(t, p.tool, ParallelizeOptions{})); err != nil {
				t.Fatal(err)
			}
			out, err := p.dispatch(t, context.Background(), batch, c.items)
			assertTrace(t, p.trace.list(), c.trace...)
			if c.status == StatusError {
				assertToolError(t, out, err, c.kind, c.text)
			} else if err != nil || out.Status != c.status {
				t.Fatalf("outcome %+v, %v; want status %s", out, err, c.status)
			}
		})
	}
}

func TestParallelizeDefaultResultCapIs20MiB(t *testing.T) {
	if DefaultBatchMaxResultBytes != 20<<20 {
		t.Fatalf("DefaultBatchMaxResultBytes = %d", DefaultBatchMaxResultBytes)
	}
	half := strings.Repeat("z", 21<<19) // 10.5 MiB: one fits in 20 MiB, two do not
	bt := mustParallelize(t, newItemTool(func(ctx context.Context, call *Call, a *itemArgs) (Result, error) {
		return Text(half), nil
	}), ParallelizeOptions{})
	args, err := bt.Decode([]byte(itemsJSON(`{"n":0}`, `{"n":1}`)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := bt.Execute(context.Background(), nil, args)
	if err != nil {
		t.Fatal(err)
	}
	text := res.String()
	if len(text) > 20<<20 || len(text) < 10<<20 {
		t.Fatalf("result is %d bytes, want the first output (10.5 MiB) within 20 MiB", len(text))
	}
	if !strings.HasSuffix(text, `"truncated":"output dropped: the batch result would exceed its limit of 20971520 bytes"}]`) {
		t.Errorf("result ends %q", text[len(text)-120:])
	}
}

func TestParallelizeForwardsItemUsage(t *testing.T) {
	bt := mustParallelize(t, newItemTool(func(ctx context.Context, call *Call, a *itemArgs) (Result, error) {
		call.ReportUsage(Usage{InputTokens: int64(a.N)})
		return Text("ok"), nil
	}), ParallelizeOptions{})
	var total atomic.Int64
	call := &Call{Usage: func(u Usage) { total.Add(u.InputTokens) }}
	if _, err := runBatch(context.Background(), t, bt, call, itemsJSON(`{"n":1}`, `{"n":20}`, `{"n":300}`)); err != nil {
		t.Fatal(err)
	}
	if got := total.Load(); got != 321 {
		t.Errorf("usage reported %d tokens, want 321 (every item's)", got)
	}
}
