package runtime_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/toolgen/toolgen/generated/stripe"
	"github.com/toolgen/toolgen/runtime"
)

// strictModelCall returns the arguments a model in OpenAI's strict mode
// sends where it means base: every property of every object is present
// (strict mode requires them all), and those base leaves out are null. It
// fails t where the strict schema would not let the model send that: an
// object that does not require all its properties or allows others, a
// property of base the schema does not have, or a null the property's
// schema does not accept.
func strictModelCall(t *testing.T, schema map[string]any, base any, path string) any {
	t.Helper()
	switch v := base.(type) {
	case map[string]any:
		props, _ := schema["properties"].(map[string]any)
		required, _ := schema["required"].([]any)
		if len(required) != len(props) || schema["additionalProperties"] != false {
			t.Errorf("%s: strict schema requires %v of %d properties, additionalProperties %v",
				path, required, len(props), schema["additionalProperties"])
		}
		for name := range v {
			if _, ok := props[name]; !ok {
				t.Errorf("%s: the strict schema has no property %q", path, name)
			}
		}
		out := make(map[string]any, len(required))
		for _, r := range required {
			name := r.(string)
			ps, _ := props[name].(map[string]any)
			if val, ok := v[name]; ok {
				out[name] = strictModelCall(t, ps, val, path+"."+name)
				continue
			}
			if !strictAllowsNull(ps) {
				t.Errorf("%s.%s: left out, but the strict schema does not accept null: %v", path, name, ps)
			}
			out[name] = nil
		}
		return out
	case []any:
		items, _ := schema["items"].(map[string]any)
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = strictModelCall(t, items, e, path+"[]")
		}
		return out
	}
	return base
}

// strictAllowsNull reports whether a strict-mode schema accepts null: its
// type (or an anyOf alternative) is null, and its enum, if any, lists null.
func strictAllowsNull(s map[string]any) bool {
	if enum, ok := s["enum"].([]any); ok && !slices.Contains(enum, nil) {
		return false
	}
	switch t := s["type"].(type) {
	case string:
		return t == "null"
	case []any:
		return slices.Contains(t, any("null"))
	}
	alts, _ := s["anyOf"].([]any)
	return slices.ContainsFunc(alts, func(a any) bool {
		m, ok := a.(map[string]any)
		return ok && strictAllowsNull(m)
	})
}

// stripeRecorder is a stripe.Executor that records the two tools the
// round trip calls (any other method is nil and would panic).
type stripeRecorder struct {
	stripe.Executor
	invoice *stripe.CreateInvoiceArgs
	link    *stripe.CreatePaymentLinkArgs
}

func (s *stripeRecorder) CreateInvoice(_ context.Context, _ *runtime.Call, a *stripe.CreateInvoiceArgs) (runtime.Result, error) {
	s.invoice = a
	return runtime.Text("in_1"), nil
}

func (s *stripeRecorder) CreatePaymentLink(_ context.Context, _ *runtime.Call, a *stripe.CreatePaymentLinkArgs) (runtime.Result, error) {
	s.link = a
	return runtime.Text("plink_1"), nil
}

// allowAll is a host policy that approves every call (the two tools
// require approval).
type allowAll struct{}

func (allowAll) Enabled(context.Context, *runtime.Call, *runtime.Tool) bool { return true }
func (allowAll) Permission(context.Context, *runtime.Call, *runtime.Tool, any, runtime.Decision) runtime.Decision {
	return runtime.Allowed()
}

// TestStrictModeRoundTrip runs OpenAI's strict mode end to end on generated
// tools: the catalog is encoded with EncodeOptions.Strict, the model's call
// is built from the strict schema it was sent (every property present,
// null for each one left out, in nested line items too), and a registry
// with Options.DropNullOptionals dispatches it: the executor sees the
// defaults of the left-out properties. Without DropNullOptionals the same
// call is rejected before the executor.
func TestStrictModeRoundTrip(t *testing.T) {
	ctx, call := context.Background(), &runtime.Call{UserID: "u1"}
	gates := runtime.GatesFunc(func(context.Context, *runtime.Call, string) (bool, error) { return true, nil })
	rec := &stripeRecorder{}
	reg := runtime.NewRegistry(runtime.Options{Gates: gates, Policy: allowAll{}, DropNullOptionals: true})
	plain := runtime.NewRegistry(runtime.Options{Gates: gates, Policy: allowAll{}})
	for _, r := range []*runtime.Registry{reg, plain} {
		if err := r.AddModule(stripe.Module(rec)); err != nil {
			t.Fatal(err)
		}
	}

	raw, err := reg.EncodeCatalog(ctx, call, runtime.DialectOpenAI, runtime.EncodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	var catalog []struct {
		Name       string         `json:"name"`
		Parameters map[string]any `json:"parameters"`
		Strict     bool           `json:"strict"`
	}
	if err := json.Unmarshal(raw, &catalog); err != nil {
		t.Fatal(err)
	}
	strictSchema := func(name string) map[string]any {
		for _, c := range catalog {
			if c.Name == name {
				if !c.Strict {
					t.Fatalf("%s is not strict in the catalog: %s", name, raw)
				}
				return c.Parameters
			}
		}
		t.Fatalf("%s not in the catalog: %s", name, raw)
		return nil
	}

	for _, c := range []struct {
		tool  string
		base  string
		check func(t *testing.T)
	}{
		{stripe.ToolCreateInvoice, `{"customer_email":"ada@example.com","items":[{"description":"Consulting","amount_minor":1999}]}`,
			func(t *testing.T) {
				a := rec.invoice
				if a == nil || a.Currency != "usd" || a.DaysUntilDue != 30 || !a.Send || a.CustomerID != nil ||
					a.Memo != nil || len(a.Items) != 1 || a.Items[0].Quantity != 1 || a.Items[0].AmountMinor != 1999 {
					t.Errorf("executor got %+v", a)
				}
			}},
		{stripe.ToolCreatePaymentLink, `{"line_items":[{"price":"price_1"},{"amount_minor":500,"currency":"eur","name":"Tea","quantity":3}]}`,
			func(t *testing.T) {
				a := rec.link
				if a == nil || len(a.LineItems) != 2 || a.AfterCompletionURL != nil {
					t.Fatalf("executor got %+v", a)
				}
				first, second := a.LineItems[0], a.LineItems[1]
				if first.Price == nil || *first.Price != "price_1" || first.Quantity != 1 || first.AmountMinor != nil ||
					first.Currency != nil || first.Name != nil || second.Quantity != 3 || second.Price != nil {
					t.Errorf("line items %+v %+v", first, second)
				}
			}},
	} {
		t.Run(c.tool, func(t *testing.T) {
			var base any
			if err := json.Unmarshal([]byte(c.base), &base); err != nil {
				t.Fatal(err)
			}
			args, err := json.Marshal(strictModelCall(t, strictSchema(c.tool), base, "$"))
			if err != nil {
				t.Fatal(err)
			}
			tc := runtime.ToolCall{ID: "c1", Name: c.tool, Arguments: args}

			*rec = stripeRecorder{}
			out, err := plain.Dispatch(ctx, call, tc)
			if err != nil || out.Err == nil || out.Err.Kind != runtime.ErrInvalidArgs || rec.invoice != nil || rec.link != nil {
				t.Fatalf("strict-mode nulls without DropNullOptionals: %+v %v", out, err)
			}

			out, err = reg.Dispatch(ctx, call, tc)
			if err != nil || out.Status != runtime.StatusOK {
				t.Fatalf("dispatch of %s: %+v %v", args, out, err)
			}
			c.check(t)
		})
	}
}
