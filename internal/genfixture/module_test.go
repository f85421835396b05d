package genfixture

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime"
)

func TestLabels(t *testing.T) {
	long := strings.Repeat("x", 70) + "@example.com"
	cases := []struct {
		name  string
		label func(any) string
		args  any
		want  string
	}{
		{"nil", createInvoiceLabel, nil, "Drafting an invoice"},
		{"wrong type", createInvoiceLabel, &SearchArgs{Query: "x"}, "Drafting an invoice"},
		{"typed nil", createInvoiceLabel, (*CreateInvoiceArgs)(nil), "Drafting an invoice"},
		{"partial: no email", createInvoiceLabel, &CreateInvoiceArgs{Currency: "eur"}, "Drafting an invoice"},
		{"inline fallback", createInvoiceLabel, &CreateInvoiceArgs{Email: "ada@example.com"}, "Invoicing ada@example.com in usd"},
		{"full", createInvoiceLabel, &CreateInvoiceArgs{Email: "ada@example.com", Currency: "eur"}, "Invoicing ada@example.com in eur"},
		{"control characters", createInvoiceLabel, &CreateInvoiceArgs{Email: "a\nb@c.d", Currency: "eur"}, "Invoicing a b@c.d in eur"},
		{"search", searchLabel, &SearchArgs{Query: "acme"}, "Searching for acme"},
		{"search without fallback text uses the tool name", searchLabel, &SearchArgs{}, "fx_search"},
		{"constant", pingLabel, nil, "fx_ping"},
	}
	for _, c := range cases {
		if got := c.label(c.args); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	got := createInvoiceLabel(&CreateInvoiceArgs{Email: long, Currency: "eur"})
	want := "Invoicing " + strings.Repeat("x", 59) + "… in eur"
	if got != want || utf8.RuneCountInString(got) != len("Invoicing ")+60+len(" in eur") {
		t.Errorf("long value: %q", got)
	}
}

// The label of a call whose arguments failed to decode shows only the
// values that passed their checks: never what the call refused.
func TestLabelOfARefusedCall(t *testing.T) {
	reg := runtime.NewRegistry(runtime.Options{})
	if err := reg.AddModule(Module(&Tools{})); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ args, want string }{
		// currency is refused: its placeholder's inline fallback shows.
		{`{"email": "ada@example.com", "currency": "jpy"}`, "Invoicing ada@example.com in usd"},
		// email is refused: the whole label falls back.
		{`{"email": "teleport", "currency": "eur", "items": []}`, "Drafting an invoice"},
		// A violation elsewhere leaves both values.
		{`{"email": "ada@example.com", "currency": "eur", "memo": 7}`, "Invoicing ada@example.com in eur"},
		// Malformed JSON says nothing about where: nothing is shown.
		{`{"email": "ada@example.com", "currency": "eur"`, "Drafting an invoice"},
	} {
		out, err := reg.Dispatch(context.Background(), &runtime.Call{}, runtime.ToolCall{ID: "c", Name: "fx_create_invoice", Arguments: json.RawMessage(c.args)})
		if err != nil || out.Err == nil || out.Err.Kind != runtime.ErrInvalidArgs {
			t.Fatalf("%s: %+v, %v", c.args, out, err)
		}
		if out.Label != c.want {
			t.Errorf("%s: label %q, want %q", c.args, out.Label, c.want)
		}
	}
}

func TestModuleWiring(t *testing.T) {
	impl := &Tools{}
	m := Module(impl)
	if m.Provider != "fx" || len(m.Tools) != 3 {
		t.Fatalf("module %+v", m)
	}
	if Module(impl) == m || Module(impl).Tools[0] == m.Tools[0] {
		t.Error("Module must return a fresh module")
	}
	inv, search, ping := m.Tools[0], m.Tools[1], m.Tools[2]
	if inv.Name != ToolCreateInvoice || inv.Kind != runtime.KindTool || inv.Gate != "crm" ||
		inv.GateMessage != "The CRM is not connected for this account." || inv.Description != "Create and send an invoice for a customer." {
		t.Errorf("invoice tool %+v", inv)
	}
	wantFlags := runtime.Flags{Enabled: true, Destructive: true, OpenWorld: true}
	if inv.Flags != wantFlags {
		t.Errorf("invoice flags %+v, want %+v", inv.Flags, wantFlags)
	}
	if ping.Gate != "" || ping.Flags != (runtime.Flags{Enabled: true, ReadOnly: true, OpenWorld: true, ConcurrencySafe: true}) {
		t.Errorf("ping %+v", ping)
	}
	for _, tool := range m.Tools {
		if !json.Valid(tool.Schema) {
			t.Errorf("%s: schema is not JSON", tool.Name)
		}
		if tool.Label == nil || tool.DecodeWith == nil || tool.Execute == nil {
			t.Errorf("%s: missing functions", tool.Name)
		}
	}
	if string(inv.Schema) != createInvoiceSchema || string(inv.ResultSchema) != createInvoiceResultSchema || search.ResultSchema != nil {
		t.Error("schemas not wired")
	}

	// Decode returns the typed value; Execute marshals the typed result.
	args, err := inv.DecodeArgs([]byte(minimal))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := args.(*CreateInvoiceArgs); !ok {
		t.Fatalf("Decode gave %T", args)
	}
	res, err := inv.Execute(context.Background(), &runtime.Call{}, args)
	if err != nil || res.String() != `{"invoice_id":"in_1","total":15000,"status":"open"}` {
		t.Errorf("execute: %v %v", res, err)
	}
	if _, err := inv.Execute(context.Background(), nil, &SearchArgs{}); err == nil || !strings.Contains(err.Error(), "want *genfixture.CreateInvoiceArgs") {
		t.Errorf("execute with wrong args: %v", err)
	}
	if _, err := inv.Execute(context.Background(), nil, (*CreateInvoiceArgs)(nil)); err == nil || !strings.Contains(err.Error(), "want *genfixture.CreateInvoiceArgs") {
		t.Errorf("execute with nil args: %v", err)
	}
	// Generated tools decode with DecodeWith alone; each module's tools
	// run the executor that module was made with.
	if inv.Decode != nil {
		t.Error("generated tool sets Decode")
	}
	counted := &countingTools{Tools: &Tools{}}
	other := Module(counted)
	if _, err := other.Tools[0].Execute(context.Background(), &runtime.Call{}, args); err != nil || counted.calls != 1 {
		t.Errorf("second module's tool: %v, %d calls of its executor", err, counted.calls)
	}
	if _, err := inv.Execute(context.Background(), &runtime.Call{}, args); err != nil || counted.calls != 1 {
		t.Errorf("first module's tool ran the second module's executor: %v", err)
	}

	// Permission and by-input flags go to the hand-written methods.
	if inv.Permission == nil || search.Permission != nil {
		t.Fatal("permission wiring")
	}
	if d := inv.Permission(context.Background(), nil, &CreateInvoiceArgs{DiscountPercent: ptr(60.0)}); d.Behavior != runtime.Deny {
		t.Errorf("permission %v", d)
	}
	if d := inv.Permission(context.Background(), nil, &CreateInvoiceArgs{Currency: "gbp"}); d.Behavior != runtime.Ask {
		t.Errorf("permission %v", d)
	}
	if d := inv.Permission(context.Background(), nil, "junk"); d.Behavior != runtime.Deny {
		t.Errorf("permission on junk %v", d)
	}
	if search.ReadOnlyFor == nil || search.ConcurrencySafeFor == nil || inv.ReadOnlyFor != nil {
		t.Fatal("by-input wiring")
	}
	if !search.IsReadOnly(&SearchArgs{}) || search.IsReadOnly(&SearchArgs{IncludeDeleted: ptr(true)}) || search.IsReadOnly(nil) {
		t.Error("ReadOnlyFor does not follow SearchReadOnly")
	}
	if !search.IsConcurrencySafe(&SearchArgs{}) || search.IsConcurrencySafe(&SearchArgs{IncludeDeleted: ptr(true)}) {
		t.Error("ConcurrencySafeFor does not follow SearchConcurrencySafe")
	}
}

type gates map[string]bool

func (g gates) GateOpen(ctx context.Context, call *runtime.Call, gate string) (bool, error) {
	return g[gate], nil
}

// TestDispatch runs the generated module through the runtime's pipeline.
func TestDispatch(t *testing.T) {
	impl := &Tools{}
	var mu sync.Mutex
	var events []runtime.Event
	reg := runtime.NewRegistry(runtime.Options{Gates: gates{"crm": true}})
	if err := reg.AddModule(Module(impl)); err != nil {
		t.Fatal(err)
	}
	if err := reg.AddModule(Module(impl)); !errors.Is(err, runtime.ErrDuplicate) {
		t.Errorf("second AddModule: %v", err)
	}
	call := &runtime.Call{UserID: "u1", Events: func(e runtime.Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}}
	ctx := context.Background()

	out, err := reg.Dispatch(ctx, call, runtime.ToolCall{ID: "c1", Name: ToolCreateInvoice, Arguments: json.RawMessage(minimal)})
	if err != nil || out.Status != runtime.StatusOK || out.Label != "Invoicing ada@example.com in usd" ||
		out.Result.String() != `{"invoice_id":"in_1","total":15000,"status":"open"}` {
		t.Errorf("ok call: %+v %v", out, err)
	}
	if len(events) != 2 || events[0].Type != runtime.EventStart || events[0].Label != out.Label {
		t.Errorf("events %+v", events)
	}

	// Invalid arguments: every violation with its path; the executor is not reached.
	out, err = reg.Dispatch(ctx, call, runtime.ToolCall{ID: "c2", Name: ToolCreateInvoice,
		Arguments: json.RawMessage(`{"email": "nope", "items": [{"description": "x", "quantity": 5000, "unit_price": {"amount": 1}}], "extra": 1}`)})
	if err != nil || out.Status != runtime.StatusError || out.Err == nil || out.Err.Kind != runtime.ErrInvalidArgs || len(out.Err.Violations) != 3 {
		t.Fatalf("invalid call: %+v %v", out, err)
	}
	text := out.Result.String()
	for _, want := range []string{"$.email: must be an email address", "$.items[0].quantity: must be at most 1000, got 5000", `$: unknown property "extra"`} {
		if !strings.Contains(text, want) {
			t.Errorf("model text lacks %q:\n%s", want, text)
		}
	}
	// The refused email is not shown: the label falls back.
	if out.Label != "Drafting an invoice" {
		t.Errorf("label of an invalid call %q", out.Label)
	}

	// The tool's own permission check.
	out, _ = reg.Dispatch(ctx, call, runtime.ToolCall{ID: "c3", Name: ToolCreateInvoice,
		Arguments: json.RawMessage(`{"email": "a@b.co", "discount_percent": 80, "items": [{"description": "x", "unit_price": {"amount": 1}}]}`)})
	if out.Err == nil || out.Err.Kind != runtime.ErrDenied || !strings.Contains(out.Result.String(), "needs a manager") {
		t.Errorf("denied call: %+v", out)
	}

	// Ungated tools run without the gate; gated ones need it.
	out, _ = reg.Dispatch(ctx, call, runtime.ToolCall{ID: "c4", Name: ToolPing})
	if out.Status != runtime.StatusOK || out.Result.String() != "pong" {
		t.Errorf("ping: %+v", out)
	}
	closed := runtime.NewRegistry(runtime.Options{})
	if err := closed.AddModule(Module(impl)); err != nil {
		t.Fatal(err)
	}
	out, _ = closed.Dispatch(ctx, call, runtime.ToolCall{ID: "c5", Name: ToolSearch, Arguments: json.RawMessage(`{"query": "acme"}`)})
	if out.Err == nil || out.Err.Kind != runtime.ErrGate || !strings.Contains(out.Result.String(), "The CRM is not connected") {
		t.Errorf("closed gate: %+v", out)
	}
	if got := impl.Executed; strings.Join(got, ",") != "fx_create_invoice,fx_ping" {
		t.Errorf("executed %v", got)
	}
}

// countingTools is Tools counting its CreateInvoice calls.
type countingTools struct {
	*Tools
	calls int
}

func (c *countingTools) CreateInvoice(ctx context.Context, call *runtime.Call, args *CreateInvoiceArgs) (*CreateInvoiceResult, error) {
	c.calls++
	return c.Tools.CreateInvoice(ctx, call, args)
}
