package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/toolgen/toolgen/examples/nativecatalog"
	"github.com/toolgen/toolgen/generated/example"
	"github.com/toolgen/toolgen/generated/hitl"
	_ "github.com/toolgen/toolgen/generated/hitl/sqlite" // the pause points live in SQLite
	"github.com/toolgen/toolgen/generated/stripe"
	"github.com/toolgen/toolgen/internal/stripemock"
	"github.com/toolgen/toolgen/runtime"
)

// options configure run. The zero value plays the demo without Stripe, with
// the pause points in a temporary directory.
type options struct {
	// StripeURL is the base URL of a running stripe-mock. Empty: the Stripe
	// part is skipped, and StripeSkipped (if set) says why.
	StripeURL     string
	StripeSkipped string
	// Dir holds the SQLite file of pause points. Empty: a temporary
	// directory, removed when run returns.
	Dir string
}

// The people of the demo: ada has connected Stripe, sam has not.
const (
	userWithStripe    = "ada"
	userWithoutStripe = "sam"
	conversation      = "conv-demo"
)

// demo is the state of one run: the registry and everything around it.
type demo struct {
	p       *transcript
	reg     *runtime.Registry
	store   *hitl.Store // the agent's connection to the pause points
	dbPath  string
	legacy  *nativecatalog.Catalog
	stripe  bool // the Stripe part is played
	nextID  int  // tool call ids
	ada     *runtime.Call
	sam     *runtime.Call
	pausing runtime.ToolCall // the destructive call that pauses
	pauseID string           // and its pause point
}

// run plays the scripted turn, writing the transcript to w. It returns an
// error when a step does not behave as scripted.
func run(ctx context.Context, w io.Writer, opts options) error {
	d := &demo{p: &transcript{w: w}, stripe: opts.StripeURL != ""}
	dir := opts.Dir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "toolgen-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	d.dbPath = filepath.Join(dir, "pausepoints.db")
	store, err := hitl.Open(ctx, "sqlite", d.dbPath, hitl.Options{})
	if err != nil {
		return err
	}
	defer store.Close()
	d.store = store

	// The host's connected accounts: ada's Stripe key, when there is a
	// Stripe to talk to.
	keys := stripe.KeySourceFunc(func(ctx context.Context, call *runtime.Call) (string, bool, error) {
		if d.stripe && call.UserID == userWithStripe {
			return stripemock.TestKey, true, nil
		}
		return "", false, nil
	})
	d.legacy = &nativecatalog.Catalog{Tasks: []string{"Renew the domain (from the old task store)"}}
	d.reg = runtime.NewRegistry(runtime.Options{
		Gates:     stripe.Gates(keys, nil),
		Policy:    askBeforeDestructive{},
		Approvals: store,
		Fallback:  d.legacy,
	})
	stripeTools := &stripe.Tools{Keys: keys, BaseURL: opts.StripeURL, MaxNetworkRetries: -1}
	for _, m := range []*runtime.Module{
		stripe.Module(stripeTools),
		hitl.Module(&hitl.Tools{Store: store}),
		example.Module(example.New()),
	} {
		if err := d.reg.AddModule(m); err != nil {
			return err
		}
	}
	d.ada = &runtime.Call{UserID: userWithStripe, ConversationID: conversation, TurnIndex: 1, Events: d.p.event}
	d.sam = &runtime.Call{UserID: userWithoutStripe, ConversationID: conversation, TurnIndex: 1, Events: d.p.event}

	d.intro(opts)
	steps := []func(context.Context) error{
		d.catalogWithoutStripe,
		d.gateClosed,
		d.catalogWithStripe,
		d.parallelStep,
		d.validationAndRetry,
		d.destructivePauses,
		d.approvalInSQLite,
		d.resume,
		d.askedAndDenied,
		d.nativeFallback,
		d.unknownTools,
	}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return fmt.Errorf("step %d: %w", d.p.n, err)
		}
	}
	d.p.printf("\nEvery step behaved as scripted.\n")
	return nil
}

// askBeforeDestructive is the host's policy: a person approves every
// destructive call (the stripe create tools ask by themselves already).
type askBeforeDestructive struct{}

func (askBeforeDestructive) Enabled(context.Context, *runtime.Call, *runtime.Tool) bool { return true }

func (askBeforeDestructive) Permission(_ context.Context, _ *runtime.Call, t *runtime.Tool, _ any, prev runtime.Decision) runtime.Decision {
	if prev.Behavior == runtime.Allow && t.Flags.Destructive {
		return runtime.AskApproval("the host asks a person before any destructive action")
	}
	return prev
}

func (d *demo) intro(opts options) {
	d.p.printf("toolgen demo: a scripted conversation through the runtime: the model's calls, turn by turn, come from a script (no LLM)\n\n")
	var mods []string
	for _, m := range []string{stripe.Provider, hitl.Provider, example.Provider} {
		n := 0
		for _, t := range d.reg.Local() {
			if t.Provider == m {
				n++
			}
		}
		mods = append(mods, fmt.Sprintf("%s (%d)", m, n))
	}
	d.p.note("registry     modules %s, then the native catalog (%s) for names no module owns",
		strings.Join(mods, ", "), strings.Join(d.legacy.Names(), ", "))
	d.p.note("approvals    a person approves each call of a tool whose spec says requires_approval (stripe's create tools),")
	d.p.note("             and the host's policy asks one for every other destructive call (tasks_delete)")
	d.p.note("pause points SQLite, %s", d.dbPath)
	if d.stripe {
		d.p.note("Stripe       stripe-mock at %s; %s has connected Stripe, %s has not", opts.StripeURL, userWithStripe, userWithoutStripe)
		d.p.note("             (stripe-mock answers with canned sample objects: ids, amounts and dates in its results are its own)")
	} else {
		why := opts.StripeSkipped
		if why == "" {
			why = "no stripe-mock URL was given"
		}
		for i, line := range wrap("SKIPPED: "+why, 90) {
			if i == 0 {
				d.p.note("Stripe       %s", line)
			} else {
				d.p.note("             %s", line)
			}
		}
		d.p.note("             Nobody has Stripe connected; the steps that would call Stripe use the tasks module instead.")
	}
}

// id returns the next tool call id.
func (d *demo) id() string {
	d.nextID++
	return fmt.Sprintf("call_%d", d.nextID)
}

func (d *demo) toolCall(name, args string) runtime.ToolCall {
	return runtime.ToolCall{ID: d.id(), Name: name, Arguments: json.RawMessage(args)}
}

// dispatch prints the model's call, runs it, and prints what the model reads.
func (d *demo) dispatch(ctx context.Context, call *runtime.Call, tc runtime.ToolCall) (runtime.Outcome, error) {
	d.p.modelCalls(tc)
	out, err := d.reg.Dispatch(ctx, call, tc)
	if err != nil {
		return out, fmt.Errorf("%s: fatal error: %w", tc.Name, err)
	}
	d.p.result(out)
	return out, nil
}

// catalog prints the tools the model is shown for call: the registry's,
// then the native catalog's for names no module owns.
func (d *demo) catalog(ctx context.Context, call *runtime.Call) ([]string, error) {
	defs, err := d.reg.Definitions(ctx, call)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, def := range defs {
		source := "module"
		if t, ok := d.reg.Get(def.Name); ok {
			source = t.Provider
		}
		d.p.definition(source, def)
		names = append(names, def.Name)
	}
	for _, def := range d.legacy.Definitions(d.reg.Has) {
		d.p.definition("native", def)
		names = append(names, def.Name)
	}
	return names, nil
}

func stripeNames(names []string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, "stripe_") {
			out = append(out, n)
		}
	}
	return out
}

func (d *demo) catalogWithoutStripe(ctx context.Context) error {
	d.p.heading(fmt.Sprintf("The catalog the model is shown for %s, who has not connected Stripe", userWithoutStripe))
	d.p.note("(a summary, one line per tool: the model gets each tool's name, description and JSON Schema; step 3 shows one as it is sent)")
	names, err := d.catalog(ctx, d.sam)
	if err != nil {
		return err
	}
	d.p.note("(no stripe_* tool: the stripe gate is closed for %s; tasks_list appears once, as the module's)", userWithoutStripe)
	if s := stripeNames(names); len(s) > 0 {
		return fmt.Errorf("stripe tools %v in the catalog of a user without Stripe", s)
	}
	for _, want := range []string{hitl.ToolWaitForApproval, example.ToolList, example.ToolDelete, nativecatalog.ToolGetTime, nativecatalog.ToolEcho} {
		if !slices.Contains(names, want) {
			return fmt.Errorf("catalog %v lacks %s", names, want)
		}
	}
	if n := countOf(names, example.ToolList); n != 1 {
		return fmt.Errorf("tasks_list appears %d times in the catalog", n)
	}
	return nil
}

func countOf(names []string, name string) int {
	n := 0
	for _, x := range names {
		if x == name {
			n++
		}
	}
	return n
}

func (d *demo) gateClosed(ctx context.Context) error {
	d.p.heading(fmt.Sprintf("%s's model calls a Stripe tool anyway", userWithoutStripe))
	out, err := d.dispatch(ctx, d.sam, d.toolCall(stripe.ToolListCustomers, `{}`))
	if err != nil {
		return err
	}
	if out.Status != runtime.StatusError || out.Err == nil || out.Err.Kind != runtime.ErrGate ||
		!strings.Contains(out.Result.String(), stripe.NotConnectedMessage) {
		return fmt.Errorf("want the gate message, got [%s] %s", out.Status, out.Result.String())
	}
	d.p.note("The gate stopped the call before any Stripe client was made.")
	return nil
}

func (d *demo) catalogWithStripe(ctx context.Context) error {
	if !d.stripe {
		return nil
	}
	d.p.heading(fmt.Sprintf("The catalog for %s, who has connected Stripe", userWithStripe))
	names, err := d.catalog(ctx, d.ada)
	if err != nil {
		return err
	}
	if s := stripeNames(names); len(s) != 7 {
		return fmt.Errorf("%s's catalog has stripe tools %v, want all seven", userWithStripe, s)
	}
	// The payload itself, as a host sends it to Anthropic's Messages API
	// (the native catalog's tools go after the registry's): one entry of it.
	payload, err := d.reg.EncodeCatalog(ctx, d.ada, runtime.DialectAnthropic, runtime.EncodeOptions{})
	if err != nil {
		return err
	}
	var entries []json.RawMessage
	if err := json.Unmarshal(payload, &entries); err != nil {
		return fmt.Errorf("the encoded catalog: %w", err)
	}
	var entry json.RawMessage
	for _, e := range entries {
		var head struct{ Name string }
		if json.Unmarshal(e, &head) == nil && head.Name == stripe.ToolListCustomers {
			entry = e
		}
	}
	if entry == nil {
		return fmt.Errorf("the encoded catalog lacks %s", stripe.ToolListCustomers)
	}
	d.p.note("What is sent: EncodeCatalog encodes the registry's %d tools for Anthropic as one JSON array (%d bytes; the host appends the native catalog's); its %s entry:", len(entries), len(payload), stripe.ToolListCustomers)
	d.p.note("  %s", entry)
	return nil
}

// parallelStep is the model's first step: several calls at once, run by
// RunCalls (read-only calls in parallel, the others in order).
func (d *demo) parallelStep(ctx context.Context) error {
	var calls []runtime.ToolCall
	if d.stripe {
		d.p.heading(fmt.Sprintf("%s's model returns three calls at once (RunCalls: the two read-only ones run in parallel)", userWithStripe))
		calls = []runtime.ToolCall{
			d.toolCall(stripe.ToolListCustomers, `{"limit":3}`),
			d.toolCall(stripe.ToolRevenueMetrics, `{}`),
			d.toolCall(example.ToolAdd, `{"title":"Invoice Jenny for the March consulting","priority":"high"}`),
		}
	} else {
		d.p.heading(fmt.Sprintf("%s's model returns three calls at once (RunCalls: the writes run in order)", userWithStripe))
		calls = []runtime.ToolCall{
			d.toolCall(example.ToolAdd, `{"title":"Invoice Jenny for the March consulting","priority":"high"}`),
			d.toolCall(example.ToolAdd, `{"title":"Archive the 2025 receipts","due":"2026-04-30"}`),
			d.toolCall(example.ToolList, `{"status":"open"}`),
		}
	}
	d.p.modelCalls(calls...)
	outs, err := d.reg.RunCalls(ctx, d.ada, calls, runtime.RunOptions{})
	if err != nil {
		return fmt.Errorf("RunCalls: fatal error: %w", err)
	}
	d.p.note("The results, in the model's order:")
	for _, out := range outs {
		d.p.result(out)
	}
	for _, out := range outs {
		if out.Status != runtime.StatusOK {
			return fmt.Errorf("%s (%s): [%s] %s", out.CallID, out.Tool, out.Status, out.Result.String())
		}
	}
	if d.stripe && !strings.Contains(outs[0].Result.String(), `"cus_`) {
		return fmt.Errorf("stripe_list_customers returned no customer: %s", outs[0].Result.String())
	}
	if d.stripe {
		var rev struct {
			Subscriptions int `json:"subscriptions_counted"`
			Charges       int `json:"charges_counted"`
			OpenInvoices  int `json:"open_invoices"`
		}
		if err := json.Unmarshal([]byte(outs[1].Result.String()), &rev); err != nil || !strings.Contains(outs[1].Result.String(), `"mrr"`) {
			return fmt.Errorf("stripe_revenue_metrics returned no MRR: %s", outs[1].Result.String())
		}
		d.p.note("stripe-mock ignores the lists' filters and answers each with its one canned sample object: the same")
		d.p.note("active subscription for both statuses, a charge and an invoice from 2009 (the invoice a draft). So the")
		d.p.note("figures are subscriptions_counted %d, charges_counted %d and open_invoices %d, as the last progress line says.",
			rev.Subscriptions, rev.Charges, rev.OpenInvoices)
	}
	return nil
}

func (d *demo) validationAndRetry(ctx context.Context) error {
	d.p.heading("A call with invalid arguments, and the model's corrected retry")
	name, bad, good := example.ToolAdd, `{"title":"","priority":"urgent","due":"next week","colour":"red"}`,
		`{"title":"Call the accountant","priority":"normal","due":"2026-04-02"}`
	paths := []string{"$.title", "$.priority", "$.due", "$"}
	if d.stripe {
		name, bad, good = stripe.ToolListCustomers, `{"email":"jenny.rosen(at)example","limit":500}`,
			`{"email":"jenny.rosen@example.com","limit":5}`
		paths = []string{"$.email", "$.limit"}
	}
	out, err := d.dispatch(ctx, d.ada, d.toolCall(name, bad))
	if err != nil {
		return err
	}
	if out.Status != runtime.StatusError || out.Err == nil || out.Err.Kind != runtime.ErrInvalidArgs {
		return fmt.Errorf("want invalid arguments, got [%s] %s", out.Status, out.Result.String())
	}
	var got []string
	for _, v := range out.Err.Violations {
		got = append(got, v.Path)
	}
	if !slices.Equal(got, paths) {
		return fmt.Errorf("violations at %v, want %v", got, paths)
	}
	d.p.note("The executor never ran. The model reads every violation and tries again:")
	out, err = d.dispatch(ctx, d.ada, d.toolCall(name, good))
	if err != nil {
		return err
	}
	if out.Status != runtime.StatusOK {
		return fmt.Errorf("the retry: [%s] %s", out.Status, out.Result.String())
	}
	return nil
}

func (d *demo) destructivePauses(ctx context.Context) error {
	d.p.heading("A destructive call pauses for a person's approval")
	if d.stripe {
		d.pausing = d.toolCall(stripe.ToolCreateInvoice,
			`{"customer_email":"jenny.rosen@example.com","items":[{"description":"Consulting, March 2026","amount_minor":240000}],"memo":"Thank you!","days_until_due":14}`)
		d.p.note("stripe_create_invoice is destructive and requires_approval in its spec.")
	} else {
		d.pausing = d.toolCall(example.ToolDelete, `{"id":2}`)
		d.p.note("tasks_delete is destructive, and the host's policy asks a person first.")
	}
	out, err := d.dispatch(ctx, d.ada, d.pausing)
	if err != nil {
		return err
	}
	if out.Status != runtime.StatusPaused || out.Pause == nil || out.Pause.PausePointID == "" {
		return fmt.Errorf("want a pause, got [%s] %s", out.Status, out.Result.String())
	}
	d.p.note("The turn pauses at pause point %s; the host tells the user and waits.", out.Pause.PausePointID)
	d.pauseID = out.Pause.PausePointID
	return nil
}

// approvalInSQLite shows the pause point as stored, and the user's decision.
func (d *demo) approvalInSQLite(ctx context.Context) error {
	id := d.pauseID
	d.p.heading("The pause point in SQLite, and the user's decision")
	// The approval UI is another process in a real host: it opens the
	// same database with its own Store.
	ui, err := hitl.Open(ctx, "sqlite", d.dbPath, hitl.Options{})
	if err != nil {
		return err
	}
	defer ui.Close()
	pending, err := ui.ListPending(ctx, userWithStripe)
	if err != nil {
		return err
	}
	d.p.note("The approval UI (its own connection to %s) lists %d pending pause point(s) for %s:", filepath.Base(d.dbPath), len(pending), userWithStripe)
	if len(pending) != 1 || pending[0].ID != id {
		return fmt.Errorf("pending pause points %+v, want just %s", pending, id)
	}
	d.row(pending[0])
	if pending[0].Status != hitl.StatusPending || string(pending[0].Arguments) == "" {
		return fmt.Errorf("stored pause point %+v", pending[0])
	}

	if _, err = d.reg.Resume(ctx, d.ada, id); !errors.Is(err, runtime.ErrPausePointPending) {
		return fmt.Errorf("Resume before a decision: %v, want ErrPausePointPending", err)
	}
	d.p.note("Resuming now is refused: %v", err)
	if _, err = ui.Resolve(ctx, id, hitl.Resolution{Approve: true, By: userWithoutStripe}); !errors.Is(err, hitl.ErrForbidden) {
		return fmt.Errorf("%s approving %s's pause point: %v, want ErrForbidden", userWithoutStripe, userWithStripe, err)
	}
	d.p.note("%s tries to approve it: %v", userWithoutStripe, err)
	p, err := ui.Resolve(ctx, id, hitl.Resolution{Approve: true, Note: "Go ahead.", By: userWithStripe})
	if err != nil {
		return err
	}
	d.p.note("%s approves it with a note; the row now reads:", userWithStripe)
	d.row(p)
	if p.Status != hitl.StatusApproved || p.ResolvedBy != userWithStripe {
		return fmt.Errorf("resolved pause point %+v", p)
	}
	return nil
}

// row prints a stored pause point.
func (d *demo) row(p hitl.PausePoint) {
	d.p.field("id", p.ID)
	d.p.field("status", p.Status)
	d.p.field("owner", fmt.Sprintf("%s (conversation %s, turn %d, tool call %s)", p.UserID, p.ConversationID, p.TurnIndex, p.ToolCallID))
	d.p.field("tool", p.Tool)
	d.p.field("label", p.Label)
	d.p.field("reason", p.Reason)
	d.p.field("arguments", string(p.Arguments))
	if p.Status.Resolved() {
		d.p.field("resolved", fmt.Sprintf("by %s at %s, note %q", p.ResolvedBy, p.ResolvedAt.Format(time.RFC3339), p.Note))
	} else {
		d.p.field("expires", p.ExpiresAt.Format(time.RFC3339))
	}
}

func (d *demo) resume(ctx context.Context) error {
	id := d.pauseID
	d.p.heading("Registry.Resume runs the original call, exactly once")
	d.p.printf("host → Resume(%q)\n", id)
	out, err := d.reg.Resume(ctx, d.ada, id)
	if err != nil {
		return fmt.Errorf("Resume: %w", err)
	}
	d.p.result(out)
	if out.Status != runtime.StatusOK || out.Tool != d.pausing.Name {
		return fmt.Errorf("the resumed call: [%s] %s", out.Status, out.Result.String())
	}
	if d.stripe {
		if !strings.Contains(out.Result.String(), `"in_`) {
			return fmt.Errorf("the resumed invoice call returned no invoice: %s", out.Result.String())
		}
		d.p.note("stripe-mock answers with its canned sample invoice, so status, total and due date are its own;")
		d.p.note("a real Stripe account would return the sent invoice: open, 2400.00 USD, due in 14 days.")
	}
	p, err := d.store.Get(ctx, id)
	if err != nil {
		return err
	}
	if !p.Consumed() {
		return fmt.Errorf("pause point %s is not marked consumed after Resume", id)
	}
	d.p.note("The pause point is now consumed (at %s).", p.ConsumedAt.Format(time.RFC3339))
	if _, err = d.reg.Resume(ctx, d.ada, id); !errors.Is(err, runtime.ErrPausePointConsumed) {
		return fmt.Errorf("a second Resume: %v, want ErrPausePointConsumed", err)
	}
	d.p.note("A second Resume is refused: %v", err)
	return nil
}

// askedAndDenied: the model asks for approval itself, and the user says no.
func (d *demo) askedAndDenied(ctx context.Context) error {
	d.p.heading("The model asks for approval itself (wait_for_approval), and the user denies")
	out, err := d.dispatch(ctx, d.ada, d.toolCall(hitl.ToolWaitForApproval,
		`{"action":"Delete task 1 (Invoice Jenny for the March consulting)","details":"The task is still open.","risk":"high"}`))
	if err != nil {
		return err
	}
	if out.Status != runtime.StatusPaused || out.Pause == nil {
		return fmt.Errorf("want a pause, got [%s] %s", out.Status, out.Result.String())
	}
	id := out.Pause.PausePointID
	p, err := d.store.Resolve(ctx, id, hitl.Resolution{Approve: false, Note: "Keep it until Jenny has paid", By: userWithStripe})
	if err != nil {
		return err
	}
	d.p.note("%s denies pause point %s: status %s, note %q", userWithStripe, id, p.Status, p.Note)
	d.p.printf("host → Resume(%q)\n", id)
	out, err = d.reg.Resume(ctx, d.ada, id)
	if err != nil {
		return fmt.Errorf("Resume: %w", err)
	}
	d.p.result(out)
	if out.Err == nil || out.Err.Kind != runtime.ErrDenied || !strings.Contains(out.Result.String(), "Keep it until Jenny has paid") {
		return fmt.Errorf("want the denial with its note, got [%s] %s", out.Status, out.Result.String())
	}
	return nil
}

func (d *demo) nativeFallback(ctx context.Context) error {
	d.p.heading("Legacy tools served by the native catalog, the registry's fallback")
	out, err := d.dispatch(ctx, d.ada, d.toolCall(nativecatalog.ToolGetTime, `{"timezone":"Europe/Paris"}`))
	if err != nil {
		return err
	}
	if out.Status != runtime.StatusOK || !strings.Contains(out.Result.String(), `"timezone":"Europe/Paris"`) {
		return fmt.Errorf("get_time: [%s] %s", out.Status, out.Result.String())
	}
	out, err = d.dispatch(ctx, d.ada, d.toolCall(nativecatalog.ToolEcho, `{"text":"still served by the legacy switch"}`))
	if err != nil {
		return err
	}
	if out.Status != runtime.StatusOK || out.Result.String() != "still served by the legacy switch" {
		return fmt.Errorf("echo: [%s] %s", out.Status, out.Result.String())
	}
	d.p.note("tasks_list is still a case of the legacy switch, but the tasks module owns the name now; the module serves it:")
	out, err = d.dispatch(ctx, d.ada, d.toolCall(example.ToolList, `{"limit":3}`))
	if err != nil {
		return err
	}
	if out.Status != runtime.StatusOK || !strings.Contains(out.Result.String(), `"total":`) || strings.Contains(out.Result.String(), "legacy") {
		return fmt.Errorf("tasks_list was not served by the module: [%s] %s", out.Status, out.Result.String())
	}
	return nil
}

func (d *demo) unknownTools(ctx context.Context) error {
	d.p.heading("Names nobody owns")
	for _, tc := range []runtime.ToolCall{
		d.toolCall("tasks_archive", `{"id":1}`),
		d.toolCall("tasks_lst", `{}`),
	} {
		out, err := d.dispatch(ctx, d.ada, tc)
		if err != nil {
			return err
		}
		if out.Err == nil || out.Err.Kind != runtime.ErrUnknownTool || !strings.Contains(out.Result.String(), `unknown tool "`+tc.Name+`"`) {
			return fmt.Errorf("%s: want an unknown-tool error, got [%s] %s", tc.Name, out.Status, out.Result.String())
		}
	}
	return nil
}
