package genfixture

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// benchCall is a realistic fx_create_invoice call (about 900 bytes): seven lines (nested
// objects with a named type and a tag array), an enum, bounded numbers,
// optional fields and a date-time.
const benchCall = `{
 "email": "billing@acme-industries.example",
 "customer_id": "123e4567-e89b-12d3-a456-426614174000",
 "currency": "eur",
 "due": "2024-03-01T17:00:00Z",
 "memo": "Q1 retainer and hardware, as agreed.",
 "discount_percent": 7.5,
 "items": [
  {"description": "Retainer, January", "unit_price": {"amount": 250000, "currency": "eur"}, "tags": ["retainer", "q1"]},
  {"description": "Retainer, February", "unit_price": {"amount": 250000, "currency": "eur"}, "tags": ["retainer", "q1"]},
  {"description": "Laptop", "quantity": 3, "unit_price": {"amount": 189900}, "taxable": true},
  {"description": "Monitor", "quantity": 6, "unit_price": {"amount": 32900}, "taxable": true},
  {"description": "Docking station", "quantity": 3, "unit_price": {"amount": 21900}},
  {"description": "On-site setup", "quantity": 8, "unit_price": {"amount": 9500}, "tags": ["services"]},
  {"description": "Travel", "unit_price": {"amount": 41250}, "taxable": false}
 ],
 "metadata": {"po": "PO-2024-0117"}
}`

// BenchmarkDecode compares, in one run, the generated one-pass decoder
// (decode + every check) with encoding/json.Unmarshal into the same struct
// without any validation.
func BenchmarkDecode(b *testing.B) {
	data := []byte(benchCall)
	b.Run("generated", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DecodeCreateInvoiceArgs(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding_json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var a CreateInvoiceArgs
			if err := json.Unmarshal(data, &a); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDispatch measures, in one run, what the runtime's pipeline adds
// to a generated tool: the same realistic call decoded and executed by
// calling the module's Tool functions directly, then through
// Registry.Dispatch (lookup, decode, label, start event, enabled, gate, the
// tool's own permission, execute, result cap, finish event). The difference
// of the two is the pipeline's overhead (target: under 1 µs).
func BenchmarkDispatch(b *testing.B) {
	data := []byte(benchCall)
	mod := Module(&Tools{})
	var tool *runtime.Tool
	for _, t := range mod.Tools {
		if t.Name == ToolCreateInvoice {
			tool = t
		}
	}
	reg := runtime.NewRegistry(runtime.Options{
		Gates: runtime.GatesFunc(func(context.Context, *runtime.Call, string) (bool, error) { return true, nil }),
	})
	if err := reg.AddModule(mod); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var events int
	call := &runtime.Call{UserID: "u1", Events: func(runtime.Event) { events++ }}
	tc := runtime.ToolCall{ID: "call_1", Name: ToolCreateInvoice, Arguments: data}

	b.Run("direct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			args, err := tool.DecodeArgs(data)
			if err != nil {
				b.Fatal(err)
			}
			_ = tool.Label(args)
			if d := tool.Permission(ctx, call, args); d.Behavior != runtime.Allow {
				b.Fatal(d)
			}
			if _, err := tool.Execute(ctx, call, args); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("dispatch", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			out, err := reg.Dispatch(ctx, call, tc)
			if err != nil || out.Status != runtime.StatusOK {
				b.Fatal(out.Status, out.Result.String(), err)
			}
		}
	})
}
