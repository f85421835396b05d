package runtime

import (
	"context"
	"encoding/json"
	"testing"
)

// benchArgs is the decoded value of the benchmark tool.
type benchArgs struct{ Sum int }

// benchDecode is a small fixed-cost decoder: it sums the argument bytes.
func benchDecode(data []byte) (any, error) {
	a := &benchArgs{}
	for _, c := range data {
		a.Sum += int(c)
	}
	return a, nil
}

func benchExecute(ctx context.Context, call *Call, args any) (Result, error) {
	if args.(*benchArgs).Sum == 0 {
		return Text("empty"), nil
	}
	return Text("ok"), nil
}

type benchPolicy struct{}

func (benchPolicy) Enabled(context.Context, *Call, *Tool) bool { return true }
func (benchPolicy) Permission(_ context.Context, _ *Call, _ *Tool, _ any, prev Decision) Decision {
	return prev
}

// BenchmarkDispatch compares a full Dispatch (lookup, decode, label, start
// and finish events, enabled flag and policy, gate, tool permission and
// policy, execute, result shaping) with calling the same Decode and Execute
// directly. The difference is the pipeline's overhead per call.
func BenchmarkDispatch(b *testing.B) {
	tool := &Tool{
		Name:    "stripe_list_customers",
		Gate:    "stripe",
		Flags:   DefaultFlags(),
		Decode:  benchDecode,
		Execute: benchExecute,
		Label:   func(any) string { return "Pulling recent Stripe customers" },
		Permission: func(context.Context, *Call, any) Decision {
			return Allowed()
		},
	}
	reg := NewRegistry(Options{
		Gates:  GatesFunc(func(context.Context, *Call, string) (bool, error) { return true, nil }),
		Policy: benchPolicy{},
	})
	// A registry of realistic size, so the lookup is not into a map of one.
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p"} {
		if err := reg.Add(&Tool{Name: "tool_" + n, Flags: DefaultFlags(), Decode: benchDecode, Execute: benchExecute}); err != nil {
			b.Fatal(err)
		}
	}
	if err := reg.Add(tool); err != nil {
		b.Fatal(err)
	}
	events := 0
	call := &Call{UserID: "u1", ConversationID: "c1", Events: func(e Event) { events++ }}
	tc := ToolCall{ID: "call_1", Name: tool.Name, Arguments: json.RawMessage(`{"email":"a@b.co","limit":10}`)}
	ctx := context.Background()

	b.Run("direct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			v, err := tool.Decode(tc.Arguments)
			if err != nil {
				b.Fatal(err)
			}
			res, err := tool.Execute(ctx, call, v)
			if err != nil || len(res.Parts) != 1 {
				b.Fatal(res, err)
			}
		}
	})
	b.Run("dispatch", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			out, err := reg.Dispatch(ctx, call, tc)
			if err != nil || out.Status != StatusOK {
				b.Fatal(out, err)
			}
		}
	})
	b.Run("dispatch_parallel", func(b *testing.B) {
		b.ReportAllocs()
		pcall := &Call{UserID: "u1"} // no shared event counter across goroutines
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				out, err := reg.Dispatch(ctx, pcall, tc)
				if err != nil || out.Status != StatusOK {
					b.Error(out, err)
					return
				}
			}
		})
	})
	if events == 0 {
		b.Fatal("no events emitted")
	}
}
