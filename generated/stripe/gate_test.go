package stripe_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/generated/stripe"
	"github.com/toolgen/toolgen/runtime"
)

var allTools = []string{
	stripe.ToolListCustomers, stripe.ToolListPayments, stripe.ToolListSubscriptions,
	stripe.ToolCreatePaymentLink, stripe.ToolCreateInvoice, stripe.ToolCreateSubscription,
	stripe.ToolRevenueMetrics,
}

// validArgs holds arguments that pass validation, per tool.
var validArgs = map[string]string{
	stripe.ToolListCustomers:      `{"email":"jenny@example.com","limit":3}`,
	stripe.ToolListPayments:       `{}`,
	stripe.ToolListSubscriptions:  `{"status":"active"}`,
	stripe.ToolCreatePaymentLink:  `{"line_items":[{"price":"price_123","quantity":2}]}`,
	stripe.ToolCreateInvoice:      `{"customer_id":"cus_123","items":[{"description":"Consulting","amount_minor":50000}]}`,
	stripe.ToolCreateSubscription: `{"customer":"cus_123","price":"price_123"}`,
	stripe.ToolRevenueMetrics:     `{}`,
}

func catalogNames(t *testing.T, reg *runtime.Registry, user string) []string {
	t.Helper()
	tools, err := reg.Catalog(context.Background(), &runtime.Call{UserID: user})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	return names
}

func TestModuleMatchesSpec(t *testing.T) {
	m := stripe.Module(&stripe.Tools{})
	if m.Provider != "stripe" {
		t.Errorf("Provider = %q", m.Provider)
	}
	var names []string
	for _, tl := range m.Tools {
		names = append(names, tl.Name)
		if tl.Gate != stripe.GateName || tl.GateMessage != stripe.NotConnectedMessage {
			t.Errorf("%s: gate %q message %q; want %q, %q", tl.Name, tl.Gate, tl.GateMessage, stripe.GateName, stripe.NotConnectedMessage)
		}
		creates := strings.HasPrefix(tl.Name, "stripe_create_")
		f := tl.Flags
		if !f.Enabled || f.ReadOnly == creates || f.Destructive != creates || f.RequiresApproval != creates || f.ConcurrencySafe == creates {
			t.Errorf("%s: flags %+v; want read-only and concurrency-safe lists, destructive create tools that need approval", tl.Name, f)
		}
		if len(tl.Description) == 0 || len(tl.Description) > 120 {
			t.Errorf("%s: description %q should be short and operational", tl.Name, tl.Description)
		}
		if len(tl.Schema) == 0 {
			t.Errorf("%s: no schema", tl.Name)
		}
	}
	if !slices.Equal(names, allTools) {
		t.Errorf("tools = %v, want %v", names, allTools)
	}
}

func TestCatalogFollowsStripeKey(t *testing.T) {
	reg := newRegistry(t, &stripe.Tools{}, runtime.Options{})
	if got := catalogNames(t, reg, "bob"); !slices.Equal(got, []string{"ping"}) {
		t.Errorf("catalog without a Stripe key = %v, want only ping", got)
	}
	if got, want := catalogNames(t, reg, "alice"), append(slices.Clone(allTools), "ping"); !slices.Equal(got, want) {
		t.Errorf("catalog with a Stripe key = %v, want %v", got, want)
	}
	defs, err := reg.Definitions(context.Background(), &runtime.Call{UserID: "alice"})
	if err != nil || len(defs) != len(allTools)+1 {
		t.Fatalf("Definitions: %d, %v", len(defs), err)
	}
}

func TestGatesDelegatesOtherGates(t *testing.T) {
	ctx := context.Background()
	other := runtime.GatesFunc(func(_ context.Context, _ *runtime.Call, gate string) (bool, error) { return gate == "github", nil })
	g := stripe.Gates(testKeys, other)
	for _, c := range []struct {
		user, gate string
		want       bool
	}{{"alice", "stripe", true}, {"bob", "stripe", false}, {"bob", "github", true}, {"alice", "slack", false}} {
		if got, err := g.GateOpen(ctx, &runtime.Call{UserID: c.user}, c.gate); err != nil || got != c.want {
			t.Errorf("GateOpen(%s, %s) = %v, %v; want %v", c.user, c.gate, got, err, c.want)
		}
	}
	if open, _ := stripe.Gates(testKeys, nil).GateOpen(ctx, &runtime.Call{UserID: "alice"}, "github"); open {
		t.Error("a nil next must keep other gates closed")
	}
	if open, _ := stripe.Gates(keyMap{"dan": ""}, nil).GateOpen(ctx, &runtime.Call{UserID: "dan"}, "stripe"); open {
		t.Error("an empty key must not open the gate")
	}
}

func TestDirectCallWithoutKeyGetsGateMessage(t *testing.T) {
	rec := newRecorder(t, "")
	reg := newRegistry(t, &stripe.Tools{BaseURL: rec.URL, MaxNetworkRetries: -1}, runtime.Options{Policy: allowPolicy{}})
	for _, name := range allTools {
		out := dispatch(t, reg, "bob", name, validArgs[name])
		toolErr(t, out, runtime.ErrGate)
		if got, want := out.Result.String(), "Error: "+stripe.NotConnectedMessage; got != want {
			t.Errorf("%s: result %q, want %q", name, got, want)
		}
	}
	if reqs := rec.take(); len(reqs) != 0 {
		t.Errorf("calls without a key reached Stripe: %v", paths(reqs))
	}
}

func TestKeyLookupFailure(t *testing.T) {
	rec := newRecorder(t, "")
	broken := stripe.KeySourceFunc(func(context.Context, *runtime.Call) (string, bool, error) {
		return "", false, errors.New("vault sealed")
	})
	reg := newRegistry(t, &stripe.Tools{Keys: broken, BaseURL: rec.URL}, runtime.Options{})
	if got := catalogNames(t, reg, "alice"); !slices.Equal(got, []string{"ping"}) {
		t.Errorf("catalog when the key lookup fails = %v, want only ping", got)
	}
	out := dispatch(t, reg, "alice", stripe.ToolListCustomers, `{}`)
	toolErr(t, out, runtime.ErrGate)
	if len(rec.take()) != 0 {
		t.Error("a failed key lookup reached Stripe")
	}
}

func TestExecutorChecksKeyItself(t *testing.T) {
	// The gate is the registry's business, but an executor called with the
	// gate open and then no key (revoked in between) or a failed lookup
	// still refuses, without reaching Stripe.
	for _, c := range []struct {
		name string
		ok   bool
		err  error
		want string
	}{
		{"key gone", false, nil, "Error: " + stripe.NotConnectedMessage},
		{"lookup failed", false, errors.New("vault sealed"), "Error: could not check the Stripe connection for this account; try again later."},
	} {
		rec := newRecorder(t, "")
		calls := 0
		keys := stripe.KeySourceFunc(func(_ context.Context, call *runtime.Call) (string, bool, error) {
			calls++
			if calls == 1 {
				return "sk_test_once", true, nil // the gate's look-up
			}
			return "", c.ok, c.err
		})
		reg := newRegistry(t, &stripe.Tools{Keys: keys, BaseURL: rec.URL}, runtime.Options{})
		out := dispatch(t, reg, "alice", stripe.ToolListCustomers, `{}`)
		toolErr(t, out, runtime.ErrGate)
		if out.Result.String() != c.want || len(rec.take()) != 0 {
			t.Errorf("%s: result %q, want %q", c.name, out.Result.String(), c.want)
		}
	}
}

func TestValidationErrorsNeverReachStripe(t *testing.T) {
	rec := newRecorder(t, "")
	reg := newRegistry(t, &stripe.Tools{BaseURL: rec.URL, MaxNetworkRetries: -1}, runtime.Options{Policy: allowPolicy{}})
	for _, c := range []struct {
		tool, args string
		kind       runtime.ErrorKind
		paths      []string
		contains   string
	}{
		{stripe.ToolListCustomers, `{"limit":500}`, runtime.ErrInvalidArgs, []string{"$.limit"}, "100"},
		{stripe.ToolListCustomers, `{"limit":0}`, runtime.ErrInvalidArgs, []string{"$.limit"}, ""},
		{stripe.ToolListCustomers, `{"email":"not-an-email"}`, runtime.ErrInvalidArgs, []string{"$.email"}, "email"},
		{stripe.ToolListCustomers, `{"limt":5}`, runtime.ErrInvalidArgs, []string{"$"}, `unknown property "limt"`},
		{stripe.ToolListPayments, `{"created_after":"31/01/2024","customer":"bob"}`, runtime.ErrInvalidArgs, []string{"$.created_after", "$.customer"}, ""},
		{stripe.ToolListSubscriptions, `{"status":"Active"}`, runtime.ErrInvalidArgs, []string{"$.status"}, "past_due"},
		{stripe.ToolCreatePaymentLink, `{"line_items":[]}`, runtime.ErrInvalidArgs, []string{"$.line_items"}, ""},
		{stripe.ToolCreatePaymentLink, `{"line_items":[{"quantity":0,"price":"price_1"}]}`, runtime.ErrInvalidArgs, []string{"$.line_items[0].quantity"}, ""},
		{stripe.ToolCreateInvoice, `{"customer_id":"cus_1","items":[{"description":"x"}]}`, runtime.ErrInvalidArgs, []string{"$.items[0]"}, `missing required property "amount_minor"`},
		{stripe.ToolCreateSubscription, `{"customer":"cus_1","price":"price_1","collection_method":"invoice"}`, runtime.ErrInvalidArgs, []string{"$.collection_method"}, ""},
		{stripe.ToolCreateSubscription, `{"price":"price_1","trial_period_days":1000}`, runtime.ErrInvalidArgs, []string{"$", "$.trial_period_days"}, `missing required property "customer"`},
		// What the schema cannot say is checked by the executors, with
		// the same located form.
		{stripe.ToolCreatePaymentLink, `{"line_items":[{"amount_minor":500}]}`, runtime.ErrInvalidArgs, []string{"$.line_items[0]"}, "missing currency, name"},
		{stripe.ToolCreatePaymentLink, `{"line_items":[{"price":"price_1","amount_minor":500}]}`, runtime.ErrInvalidArgs, []string{"$.line_items[0]"}, "not both"},
		{stripe.ToolCreatePaymentLink, `{"line_items":[{"amount_minor":500,"currency":"usd","name":"A"},{"amount_minor":500,"currency":"eur","name":"B"}]}`,
			runtime.ErrInvalidArgs, []string{"$.line_items[1].currency"}, "one currency"},
		{stripe.ToolCreateInvoice, `{"items":[{"description":"x","amount_minor":1}]}`, runtime.ErrInvalidArgs, []string{"$"}, "customer_id or customer_email"},
		{stripe.ToolCreateInvoice, `{"customer_id":"cus_1","customer_email":"a@b.co","customer_name":"A","items":[{"description":"x","amount_minor":1}]}`,
			runtime.ErrInvalidArgs, []string{"$"}, "not both"},
		{stripe.ToolCreateInvoice, `{"customer_id":"cus_1","customer_name":"A","items":[{"description":"x","amount_minor":1}]}`,
			runtime.ErrInvalidArgs, []string{"$.customer_name"}, "only used with customer_email"},
	} {
		out := dispatch(t, reg, "alice", c.tool, c.args)
		te := toolErr(t, out, c.kind)
		var got []string
		for _, v := range te.Violations {
			got = append(got, v.Path)
		}
		for _, p := range c.paths {
			if !slices.Contains(got, p) {
				t.Errorf("%s %s: violations at %v, want one at %s (%s)", c.tool, c.args, got, p, out.Result.String())
			}
		}
		if text := out.Result.String(); !strings.Contains(text, c.contains) || !strings.HasPrefix(text, "Error: invalid arguments for "+c.tool) {
			t.Errorf("%s %s: result %q, want the located violations mentioning %q", c.tool, c.args, text, c.contains)
		}
	}
	if reqs := rec.take(); len(reqs) != 0 {
		t.Errorf("invalid calls reached Stripe: %v", paths(reqs))
	}
}

func TestStatusLabels(t *testing.T) {
	rec := newRecorder(t, "")
	reg := newRegistry(t, &stripe.Tools{BaseURL: rec.URL, MaxNetworkRetries: -1}, runtime.Options{})
	for _, c := range []struct{ tool, args, want string }{
		{stripe.ToolListCustomers, `{"email":"jenny@example.com"}`, "Looking up jenny@example.com in Stripe"},
		{stripe.ToolListCustomers, `{}`, "Pulling recent Stripe customers"},
		{stripe.ToolListCustomers, `{"limit":"x"}`, "Pulling recent Stripe customers"},
		{stripe.ToolCreateInvoice, `{"customer_email":"ann@example.com","items":[]}`, "Drafting invoice for ann@example.com"},
		{stripe.ToolCreateInvoice, `{"customer_id":"cus_1"}`, "Drafting invoice for the customer"},
		{stripe.ToolListSubscriptions, `{"status":"past_due"}`, "Listing past_due Stripe subscriptions"},
		{stripe.ToolListSubscriptions, `{}`, "Listing Stripe subscriptions"},
		{stripe.ToolListPayments, `{}`, "Listing Stripe payments for the account"},
		{stripe.ToolListPayments, `{"customer":"cus_42"}`, "Listing Stripe payments for cus_42"},
		{stripe.ToolCreateSubscription, `{"customer":"cus_42","price":"price_7"}`, "Subscribing cus_42 to price_7"},
		{stripe.ToolCreateSubscription, `{"customer":"cus_42"}`, "Creating a Stripe subscription"},
		{stripe.ToolCreatePaymentLink, `{}`, "Creating a Stripe payment link"},
		{stripe.ToolRevenueMetrics, `{}`, "Computing Stripe revenue metrics"},
	} {
		// bob has no key: the label is rendered before the gate stops the call.
		if out := dispatch(t, reg, "bob", c.tool, c.args); out.Label != c.want {
			t.Errorf("%s %s: label %q, want %q", c.tool, c.args, out.Label, c.want)
		}
	}
}
