package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Defaults of ParallelizeOptions.
const (
	DefaultBatchMaxItems       = 50
	DefaultBatchMaxConcurrency = 8
	DefaultBatchMaxResultBytes = 20 << 20
)

// ParallelizeOptions configure Parallelize. The zero value gives the
// defaults.
type ParallelizeOptions struct {
	// Name is the batch tool's name. Empty: "<tool>_batch".
	Name string
	// Description is the batch tool's prompt text. Empty: a sentence about
	// batching followed by the wrapped tool's description.
	Description string
	// MaxItems is the most items one call may carry. 0: 50; negative is an
	// error.
	MaxItems int
	// MaxConcurrency is the most items run at once. 0: 8; a negative value
	// means 1 (items run one at a time).
	MaxConcurrency int
	// MaxResultBytes caps the batch result's JSON. 0: 20 MiB; negative is an
	// error. When the entries do not fit, outputs are dropped from the last
	// item backwards and those entries are marked "truncated" (the result
	// stays valid JSON). When the batch runs through a Registry whose
	// Limits.MaxResultBytes (1 MiB by default) is lower, that lower cap is
	// applied the same way.
	MaxResultBytes int
}

// BatchArgs is the decoded argument value of a batch tool made by
// Parallelize: one decoded value (what the wrapped tool's Decode returned)
// and the raw JSON per item.
type BatchArgs struct {
	Items  []any
	Inputs []json.RawMessage

	// denied holds, per item, the permission error of an item the
	// pipeline's step 6 denied (nil: allowed); the executor reports it
	// instead of running the item.
	denied []*ToolError
}

// BatchItemResult is one entry of a batch tool's result, which is a JSON
// array of them in input order.
type BatchItemResult struct {
	// Index is the item's position in the call's items.
	Index int `json:"index"`
	// Input is the item's arguments as the model sent them.
	Input json.RawMessage `json:"input"`
	// OK reports whether the item succeeded.
	OK bool `json:"ok"`
	// Output is the wrapped tool's result: a string for a single text part,
	// else the list of parts.
	Output any `json:"output,omitempty"`
	// Error is set when OK is false.
	Error *BatchItemError `json:"error,omitempty"`
	// Truncated says why the output (or error) was dropped to respect the
	// batch's MaxResultBytes.
	Truncated string `json:"truncated,omitempty"`
}

// BatchItemError is the error of one failed batch item.
type BatchItemError struct {
	// Type is "execution" (the item ran and failed) or "permission_denied"
	// (the host's policy or the tool's own check denied the item, which did
	// not run).
	Type    string `json:"type"`
	Message string `json:"message"`
}

// BatchItem is the Data of an event that an item of a batch emitted: the
// batch tool forwards its items' progress and child events with the item's
// index and the item event's own Data.
type BatchItem struct {
	Index int
	Data  any
}

// Parallelize returns a tool that runs t over a list of inputs in one call:
// its arguments are {"items": [<t's arguments>, ...]}, its items run with
// bounded concurrency, and its result lists one BatchItemResult per item in
// input order. Ordinary item errors (and panics) are reported per item; a
// Fatal error or the cancellation of ctx stops the whole batch (items not
// started do not start, running ones see their context cancelled) and is
// returned once every running item has returned.
//
// The batch tool keeps t's Kind, Flags, Gate, GateMessage and Provider.
// Run through a Registry it is exactly as permitted as the calls it
// contains: the pipeline asks enabled and the gate about t as well, and
// permission (t's own check, then the host's policy) for every item with
// its arguments; a denied item is that item's error (or, with
// Decision.WholeBatch, the whole call's) and any Ask pauses the whole call
// (see Options.Approvals). Its read-only and concurrency-safe verdicts hold
// when they hold for every item. Its label is the first item's label plus
// " (+N more)".
func Parallelize(t *Tool, opts ParallelizeOptions) (*Tool, error) {
	if t == nil {
		return nil, errors.New("runtime: Parallelize: nil tool")
	}
	if !t.hasDecode() || t.Execute == nil {
		return nil, fmt.Errorf("runtime: Parallelize: tool %q needs Decode (or DecodeWith) and Execute", t.Name)
	}
	if len(bytes.TrimSpace(t.Schema)) == 0 {
		return nil, fmt.Errorf("runtime: Parallelize: tool %q has no Schema", t.Name)
	}
	if !json.Valid(t.Schema) {
		return nil, fmt.Errorf("runtime: Parallelize: tool %q: Schema is not valid JSON", t.Name)
	}
	b := &batchTool{tool: t}
	switch {
	case opts.MaxItems < 0:
		return nil, fmt.Errorf("runtime: Parallelize: MaxItems must be at least 1, got %d", opts.MaxItems)
	case opts.MaxItems == 0:
		b.maxItems = DefaultBatchMaxItems
	default:
		b.maxItems = opts.MaxItems
	}
	switch {
	case opts.MaxConcurrency < 0:
		b.maxConc = 1
	case opts.MaxConcurrency == 0:
		b.maxConc = DefaultBatchMaxConcurrency
	default:
		b.maxConc = opts.MaxConcurrency
	}
	switch {
	case opts.MaxResultBytes < 0:
		return nil, fmt.Errorf("runtime: Parallelize: MaxResultBytes must be positive, got %d", opts.MaxResultBytes)
	case opts.MaxResultBytes == 0:
		b.maxBytes = DefaultBatchMaxResultBytes
	default:
		b.maxBytes = opts.MaxResultBytes
	}
	name := opts.Name
	if name == "" {
		name = t.Name + "_batch"
	}
	if err := checkToolName(name); err != nil {
		return nil, fmt.Errorf("runtime: Parallelize: %w", err)
	}
	b.name = name
	desc := opts.Description
	if desc == "" {
		desc = fmt.Sprintf("Runs %s on up to %d inputs in one call (%d at a time) and returns one result per input, in input order, each with ok and its output or error.", t.Name, b.maxItems, b.maxConc)
		if d := strings.TrimSpace(t.Description); d != "" {
			desc += " Each input: " + d
		}
	}
	schema, err := batchSchema(t.Schema, b.maxItems)
	if err != nil {
		return nil, fmt.Errorf("runtime: Parallelize: tool %q: %w", t.Name, err)
	}
	bt := &Tool{
		Name:        name,
		Description: desc,
		Kind:        t.Kind,
		Provider:    t.Provider,
		Schema:      schema,
		Gate:        t.Gate,
		GateMessage: t.GateMessage,
		Flags:       t.Flags,
		// A deferred tool's batch is found through tool search too.
		DeferLoading: t.DeferLoading,
		Decode:       b.decode,
		Label:        b.label,
		Execute:      b.execute,
	}
	// Permission stays nil: the pipeline asks t's permission and the host's
	// policy for every item (see wrapping).
	bt.wrap = &wrapping{tool: t, items: batchItems, refuse: refuseBatchItems}
	if t.ReadOnlyFor != nil {
		bt.ReadOnlyFor = b.all(t.IsReadOnly)
	}
	if t.ConcurrencySafeFor != nil {
		bt.ConcurrencySafeFor = b.all(t.IsConcurrencySafe)
	}
	return bt, nil
}

// MustParallelize is like Parallelize but panics when Parallelize fails. It
// is for generated code, whose batch options the spec loader has already
// validated, and for package initialisation.
func MustParallelize(t *Tool, opts ParallelizeOptions) *Tool {
	bt, err := Parallelize(t, opts)
	if err != nil {
		panic(err)
	}
	return bt
}

// checkToolName applies the name rules every major provider accepts:
// letters, digits, '_' and '-', at most 64 bytes, starting with a letter or
// '_'.
func checkToolName(name string) error {
	if name == "" {
		return errors.New("empty tool name")
	}
	if len(name) > 64 {
		return fmt.Errorf("tool name %q is longer than 64 characters", name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if letter || i > 0 && (c >= '0' && c <= '9' || c == '-') {
			continue
		}
		return fmt.Errorf("tool name %q: character %q at %d is not allowed (letters, digits, '_' and '-'; first a letter or '_')", name, c, i)
	}
	return nil
}

// batchSchema builds {items: array of item, 1..maxItems}, strict, compact and
// with sorted keys.
func batchSchema(item json.RawMessage, maxItems int) (json.RawMessage, error) {
	var compact bytes.Buffer
	if err := json.Compact(&compact, item); err != nil {
		return nil, err
	}
	type arr struct {
		Description string          `json:"description"`
		Items       json.RawMessage `json:"items"`
		MaxItems    int             `json:"maxItems"`
		MinItems    int             `json:"minItems"`
		Type        string          `json:"type"`
	}
	type obj struct {
		AdditionalProperties bool           `json:"additionalProperties"`
		Properties           map[string]arr `json:"properties"`
		Required             []string       `json:"required"`
		Type                 string         `json:"type"`
	}
	s, err := json.Marshal(obj{
		Properties: map[string]arr{"items": {
			Description: "The inputs, one per call; each has the wrapped tool's arguments.",
			Items:       compact.Bytes(), MaxItems: maxItems, MinItems: 1, Type: "array",
		}},
		Required: []string{"items"},
		Type:     "object",
	})
	return s, err
}

type batchTool struct {
	tool     *Tool
	name     string
	maxItems int
	maxConc  int
	maxBytes int
}

// decode parses {"items":[...]} strictly and decodes each item as the
// wrapped tool's Decode does (Tool.DecodeArgs), reporting every violation
// of every item with its path re-based under $.items[i].
func (b *batchTool) decode(data []byte) (any, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, &ValidationError{Violations: []Violation{{Path: "$", Message: jsonProblem(err, "an object with an \"items\" array")}}}
	}
	if top == nil {
		return nil, &ValidationError{Violations: []Violation{{Path: "$", Message: "expected an object with an \"items\" array, got null"}}}
	}
	var vs violations
	if dup, ok := duplicateKey(data); ok {
		// As generated decoders do: JSON Schema would read the last one.
		vs.add("$", "duplicate property "+strconv.Quote(clipName(dup)))
	}
	for _, k := range slices.Sorted(maps.Keys(top)) {
		if k != "items" {
			vs.add("$", "unknown property "+strconv.Quote(clipName(k))+` (only "items" is allowed)`)
		}
	}
	raw, ok := top["items"]
	if !ok {
		vs.add("$", `missing required property "items"`)
		return nil, vs.err()
	}
	n, isArray := countItems(raw)
	switch {
	case !isArray:
		vs.add("$.items", "expected an array of inputs, got "+jsonKind(raw))
		return nil, vs.err()
	case n == 0:
		vs.add("$.items", "must have at least 1 item, got 0")
	case n > b.maxItems:
		// Counted, not decoded: past maxItems nothing more is built.
		vs.add("$.items", fmt.Sprintf("must have at most %d items, got %d", b.maxItems, n))
		return nil, vs.err()
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		vs.add("$.items", "expected an array of inputs, got "+jsonKind(raw))
		return nil, vs.err()
	}
	args := &BatchArgs{Items: make([]any, len(items)), Inputs: items}
	for i, it := range items {
		if vs.dropped > 0 {
			break // past the violation cap: decode no more items
		}
		v, err := b.tool.DecodeArgs(it)
		args.Items[i] = v
		if err == nil {
			continue
		}
		prefix := "$.items[" + strconv.Itoa(i) + "]"
		var ve *ValidationError
		if errors.As(err, &ve) {
			for _, x := range ve.Violations {
				vs.add(rebasePath(prefix, x.Path), x.Message)
			}
		} else {
			vs.add(prefix, err.Error())
		}
	}
	if err := vs.err(); err != nil {
		return args, err
	}
	return args, nil
}

// maxBatchViolations caps the violations of one batch call, as
// wire.MaxViolations caps a generated decoder's.
const maxBatchViolations = 1000

// violations collects a batch call's violations up to maxBatchViolations;
// past it only a count grows.
type violations struct {
	vs      []Violation
	dropped int
}

func (v *violations) add(path, msg string) {
	if len(v.vs) >= maxBatchViolations {
		v.dropped++
		return
	}
	v.vs = append(v.vs, Violation{Path: path, Message: msg})
}

func (v *violations) err() error {
	if len(v.vs) == 0 {
		return nil
	}
	if v.dropped > 0 {
		v.vs = append(v.vs, Violation{Path: "$", Message: "and " + strconv.Itoa(v.dropped) + " more violations"})
	}
	return &ValidationError{Violations: v.vs}
}

// countItems counts the items of the JSON array raw (valid JSON) without
// decoding them; isArray is false if raw is not an array.
func countItems(raw []byte) (n int, isArray bool) {
	i := 0
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	if i == len(raw) || raw[i] != '[' {
		return 0, false
	}
	depth, inString, some := 0, false, false
	for ; i < len(raw); i++ {
		c := raw[i]
		switch {
		case inString:
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
		case c == '"':
			inString = true
			some = some || depth == 1
		case c == '[' || c == '{':
			if depth == 1 {
				some = true
			}
			depth++
		case c == ']' || c == '}':
			depth--
			if depth == 0 {
				if some {
					n++
				}
				return n, true
			}
		case c == ',' && depth == 1:
			n++
		case c != ' ' && c != '\t' && c != '\n' && c != '\r' && depth == 1:
			some = true
		}
	}
	return n, true
}

// duplicateKey returns the first key that repeats in the JSON object data
// (valid JSON); ok is false when none does. It scans the text, copying
// nothing but the top-level keys.
func duplicateKey(data []byte) (string, bool) {
	seen := map[string]bool{}
	depth, inString, start, isKey := 0, false, 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inString:
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
				if isKey {
					k := string(data[start:i])
					if seen[k] {
						return k, true
					}
					seen[k] = true
				}
			}
		case c == '"':
			inString, start = true, i+1
			isKey = depth == 1 && expectKey(data, start-1)
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		}
	}
	return "", false
}

// expectKey reports whether the string starting at data[i] is an object
// key: the last non-space byte before it is '{' or ','.
func expectKey(data []byte, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch data[j] {
		case ' ', '\t', '\n', '\r':
			continue
		case '{', ',':
			return true
		}
		return false
	}
	return false
}

// rebasePath puts a violation path of an item ("$", "$.email", "$[0]")
// under prefix ("$.items[3]").
func rebasePath(prefix, p string) string {
	if rest, ok := strings.CutPrefix(p, "$"); ok {
		return prefix + rest
	}
	if p == "" {
		return prefix
	}
	return prefix + "." + p
}

// jsonProblem describes an encoding/json error for a model.
func jsonProblem(err error, want string) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("malformed JSON at byte %d: %s", se.Offset, se.Error())
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("expected %s, got %s", want, te.Value)
	}
	return "malformed JSON: " + err.Error()
}

// jsonKind names the JSON type of raw for an error message.
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

func batchArgsOf(args any) *BatchArgs {
	switch a := args.(type) {
	case *BatchArgs:
		return a
	case BatchArgs:
		return &a
	}
	return nil
}

func (b *batchTool) label(args any) string {
	var item0 any
	ia, _ := args.(*InvalidArgs)
	if ia != nil {
		args = ia.Args
	}
	a := batchArgsOf(args)
	if a == nil || len(a.Items) == 0 {
		return b.name
	}
	item0 = a.Items[0]
	if ia != nil {
		item0 = ia.item(0, item0)
	}
	first := b.tool.Name
	if b.tool.Label != nil {
		first = safeLabel(b.tool.Label, item0, b.tool.Name)
	}
	if n := len(a.Items) - 1; n > 0 {
		return first + " (+" + strconv.Itoa(n) + " more)"
	}
	return first
}

// safeLabel calls label, falling back to def when it panics or returns "".
func safeLabel(label func(any) string, args any, def string) (s string) {
	defer func() {
		if recover() != nil {
			s = def
		}
	}()
	if s = label(args); s == "" {
		s = def
	}
	return s
}

// batchItems returns the decoded items of batch arguments.
func batchItems(args any) []any {
	if a := batchArgsOf(args); a != nil {
		return a.Items
	}
	return nil
}

// refuseBatchItems returns a copy of batch arguments with items and the
// denied items recorded.
func refuseBatchItems(args any, items []any, denied []*ToolError) any {
	a := batchArgsOf(args)
	if a == nil {
		return args
	}
	c := *a
	c.Items, c.denied = items, denied
	return &c
}

func itemReason(i int, reason string) string {
	if reason == "" {
		return "item " + strconv.Itoa(i)
	}
	return "item " + strconv.Itoa(i) + ": " + reason
}

func (b *batchTool) all(pred func(any) bool) func(any) bool {
	return func(args any) bool {
		a := batchArgsOf(args)
		if a == nil {
			return false
		}
		for _, it := range a.Items {
			if !pred(it) {
				return false
			}
		}
		return true
	}
}

// eventGate forwards events (or usage reports) to a sink until it is
// closed; what is sent after close (by goroutines an executor left behind)
// is dropped. close waits for the sends in progress, so no sink runs once
// close has returned.
type eventGate struct {
	mu     sync.RWMutex
	closed bool
}

func (g *eventGate) send(sink func(Event), e Event) { gateSend(g, sink, e) }

// gateSend calls sink(v) unless g is closed.
func gateSend[T any](g *eventGate, sink func(T), v T) {
	g.mu.RLock()
	defer g.mu.RUnlock() // a panicking sink must not leave close blocked
	if !g.closed {
		sink(v)
	}
}

func (g *eventGate) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

// batchItemCall is the Call an item runs with: the batch call's, with events
// re-addressed to the batch call and tagged with the item's index.
type batchItemCall struct {
	Call
	index  int
	parent *Call
	gate   *eventGate
}

func (c *batchItemCall) forward(e Event) {
	e.CallID, e.Tool = c.parent.ToolCallID, c.parent.ToolName
	e.Data = BatchItem{Index: c.index, Data: e.Data}
	c.gate.send(c.parent.Events, e)
}

// batchRun is the shared state of one batch execution.
type batchRun struct {
	b       *batchTool
	ctx     context.Context
	cancel  context.CancelFunc
	call    *Call
	args    *BatchArgs
	gate    *eventGate
	next    atomic.Int64
	stopped atomic.Bool
	entries []BatchItemResult
	calls   []batchItemCall

	errOnce sync.Once
	err     error
}

func (r *batchRun) stop(err error) {
	r.errOnce.Do(func() { r.err = err })
	r.stopped.Store(true)
	r.cancel()
}

func (b *batchTool) execute(ctx context.Context, call *Call, args any) (Result, error) {
	a := batchArgsOf(args)
	if a == nil {
		return Result{}, fmt.Errorf("%s: arguments are %T, not batch arguments", b.name, args)
	}
	n := len(a.Items)
	if call == nil {
		call = &Call{}
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &batchRun{b: b, ctx: runCtx, cancel: cancel, call: call, args: a,
		entries: make([]BatchItemResult, n), calls: make([]batchItemCall, n)}
	if call.Events != nil {
		r.gate = &eventGate{}
		defer r.gate.close()
	}
	workers := min(b.maxConc, n)
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go r.worker(&wg)
	}
	wg.Wait()
	if r.err != nil {
		return Result{}, r.err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	limit := b.maxBytes
	if call.Registry != nil {
		// Stay within the registry's own cap too, so that the result is
		// never cut in the middle of its JSON after it is returned.
		limit = min(limit, call.Registry.limits.MaxResultBytes)
	}
	return Text(string(encodeBatch(r.entries, limit))), nil
}

func (r *batchRun) worker(wg *sync.WaitGroup) {
	defer wg.Done()
	n := int64(len(r.entries))
	for !r.stopped.Load() {
		i := r.next.Add(1) - 1
		if i >= n || r.ctx.Err() != nil {
			return
		}
		r.runItem(int(i))
	}
}

func (r *batchRun) runItem(i int) {
	e := &r.entries[i]
	e.Index, e.Input = i, r.args.Inputs[i]
	if i < len(r.args.denied) && r.args.denied[i] != nil {
		e.Error = &BatchItemError{Type: string(ErrDenied), Message: r.args.denied[i].Message}
		return
	}
	ic := &r.calls[i]
	*ic = batchItemCall{Call: *r.call, index: i, parent: r.call, gate: r.gate}
	if r.gate != nil {
		ic.Events = ic.forward
	}
	res, err := callExecute(r.ctx, r.b.tool, &ic.Call, r.args.Items[i])
	switch {
	case err == nil && !res.IsError:
		e.OK = true
		e.Output = resultOutput(res)
	case err == nil:
		e.Error = &BatchItemError{Type: "execution", Message: res.String()}
	case IsFatal(err):
		r.stop(err)
	case r.ctx.Err() != nil:
		// Cancelled: by the caller (reported after the run) or by another
		// item's fatal error (already recorded).
		r.stop(r.ctx.Err())
	default:
		e.Error = &BatchItemError{Type: "execution", Message: itemErrorMessage(err)}
	}
}

// callExecute runs t.Execute, turning a panic into an error.
func callExecute(ctx context.Context, t *Tool, call *Call, args any) (res Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = Result{}, fmt.Errorf("%s panicked: %v", t.Name, p)
		}
	}()
	return t.Execute(ctx, call, args)
}

func itemErrorMessage(err error) string {
	var pe *PauseError
	if errors.As(err, &pe) {
		return "this item needs human approval, which cannot be given inside a batch; call the tool on its own for it"
	}
	var te *ToolError
	if errors.As(err, &te) && te.Message != "" {
		return te.Message
	}
	return err.Error()
}

// resultOutput is a result as a batch entry's output: the text of a single
// text part, else the parts.
func resultOutput(res Result) any {
	if len(res.Parts) == 1 && res.Parts[0].Type == PartText {
		return res.Parts[0].Text
	}
	if len(res.Parts) == 0 {
		return ""
	}
	return res.Parts
}

// encodeBatch renders entries as a JSON array of at most maxBytes, dropping
// outputs and errors (then inputs) from the last entry backwards when they
// do not fit, and marking each such entry truncated.
func encodeBatch(entries []BatchItemResult, maxBytes int) []byte {
	// The common case: everything fits; encode into one buffer.
	buf := make([]byte, 0, 64*len(entries)+2)
	buf = append(buf, '[')
	for i := range entries {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendBatchEntry(buf, &entries[i])
	}
	buf = append(buf, ']')
	if len(buf) <= maxBytes {
		return buf
	}
	enc := make([][]byte, len(entries))
	total := len(entries) + 1 // brackets and commas
	if len(entries) == 0 {
		total = 2
	}
	for i := range entries {
		enc[i] = appendBatchEntry(nil, &entries[i])
		total += len(enc[i])
	}
	note := "output dropped: the batch result would exceed its limit of " + strconv.Itoa(maxBytes) + " bytes"
	for pass := 0; pass < 2 && total > maxBytes; pass++ {
		for i := len(entries) - 1; i >= 0 && total > maxBytes; i-- {
			e := &entries[i]
			if pass == 0 {
				if e.Output == nil && e.Error == nil {
					continue
				}
				e.Truncated = note
			} else {
				if e.Input == nil {
					continue
				}
				e.Input = nil
				e.Truncated = "input and " + note
			}
			e.Output, e.Error = nil, nil
			total -= len(enc[i])
			enc[i] = appendBatchEntry(nil, e)
			total += len(enc[i])
		}
	}
	out := make([]byte, 0, total)
	out = append(out, '[')
	for i, b := range enc {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
	}
	return append(out, ']')
}

// appendBatchEntry appends e as JSON; it matches what encoding/json gives for
// BatchItemResult, without reflection for the common case of text output.
func appendBatchEntry(dst []byte, e *BatchItemResult) []byte {
	dst = append(dst, `{"index":`...)
	dst = strconv.AppendInt(dst, int64(e.Index), 10)
	dst = append(dst, `,"input":`...)
	if e.Input == nil {
		dst = append(dst, "null"...)
	} else {
		dst = appendCompactJSON(dst, e.Input)
	}
	dst = append(dst, `,"ok":`...)
	dst = strconv.AppendBool(dst, e.OK)
	switch o := e.Output.(type) {
	case nil:
	case string:
		dst = append(dst, `,"output":`...)
		dst = appendJSONString(dst, o)
	default:
		b, err := json.Marshal(o)
		if err != nil {
			b = appendJSONString(nil, "output could not be encoded: "+err.Error())
		}
		dst = append(dst, `,"output":`...)
		dst = append(dst, b...)
	}
	if e.Error != nil {
		dst = append(dst, `,"error":{"type":`...)
		dst = appendJSONString(dst, e.Error.Type)
		dst = append(dst, `,"message":`...)
		dst = appendJSONString(dst, e.Error.Message)
		dst = append(dst, '}')
	}
	if e.Truncated != "" {
		dst = append(dst, `,"truncated":`...)
		dst = appendJSONString(dst, e.Truncated)
	}
	return append(dst, '}')
}

func appendCompactJSON(dst []byte, raw json.RawMessage) []byte {
	buf := bytes.NewBuffer(dst)
	if err := json.Compact(buf, raw); err != nil {
		return appendJSONString(dst, string(raw))
	}
	return buf.Bytes()
}

// appendJSONString appends s as a JSON string. Invalid UTF-8 becomes
// U+FFFD, like encoding/json.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
