package runtime

import (
	"context"
	"encoding/json"
	"errors"
	goruntime "runtime"
	"strings"
	"testing"
)

// Hostile inputs (issue 7 §5): what a call costs and how long its error is
// are bounded by the input's size times a small constant and by the caps.

// hostileCall is a 10 MB unknown tool name.
func hostileUnknownName() ToolCall {
	return ToolCall{ID: "call_1", Name: strings.Repeat("x", 10<<20), Arguments: json.RawMessage(`{}`)}
}

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var a, b goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&a)
	f()
	goruntime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestHostileUnknownToolName: a 10 MB unknown name is not echoed whole (the
// message quotes 64 characters of it) and costs no more than a few times
// its size (it cost 285 MiB and 2.6 s).
func TestHostileUnknownToolName(t *testing.T) {
	reg := NewRegistry(Options{})
	tc := hostileUnknownName()
	var out Outcome
	n := allocated(func() {
		var err error
		out, err = reg.Dispatch(context.Background(), &Call{}, tc)
		if err != nil {
			t.Fatal(err)
		}
	})
	if out.Err == nil || out.Err.Kind != ErrUnknownTool {
		t.Fatalf("outcome %+v", out.Err)
	}
	msg := out.Result.String()
	if len(msg) > 300 || !strings.Contains(msg, strings.Repeat("x", 64)+"…") || len(out.Err.Message) > 300 || len(out.Err.Tool) > 300 {
		t.Errorf("error of %d bytes (message %d, tool %d): %.200s", len(msg), len(out.Err.Message), len(out.Err.Tool), msg)
	}
	if ratio := float64(n) / float64(len(tc.Name)); ratio > 4 {
		t.Errorf("allocated %d bytes for a %d-byte name: %.1f× (want ≤ 4×)", n, len(tc.Name), ratio)
	}
}

func BenchmarkHostileUnknownToolName(b *testing.B) {
	reg := NewRegistry(Options{})
	tc := hostileUnknownName()
	b.ReportAllocs()
	var total uint64
	for b.Loop() {
		total += allocated(func() { reg.Dispatch(context.Background(), &Call{}, tc) })
	}
	b.ReportMetric(float64(total)/float64(b.N)/float64(len(tc.Name)), "alloc/input")
}

// TestToolErrorsThroughResultCap: every tool error the model reads goes
// through Limits.MaxResultBytes — an executor's error message and a host
// policy's denial reason, however long, are cut like any result.
func TestToolErrorsThroughResultCap(t *testing.T) {
	const limit = 4096
	huge := strings.Repeat("e", 3<<20)
	reg := NewRegistry(Options{
		Limits: Limits{MaxResultBytes: limit},
		Policy: PolicyFuncs{PermissionFunc: func(ctx context.Context, call *Call, tool *Tool, args any, prev Decision) Decision {
			if tool.Name == "denied" {
				return Denied(huge)
			}
			return prev
		}},
	})
	tool := func(name string) *Tool {
		return &Tool{Name: name, Flags: DefaultFlags(),
			Decode: func([]byte) (any, error) { return nil, nil },
			Execute: func(context.Context, *Call, any) (Result, error) {
				return Result{}, errors.New(huge)
			}}
	}
	if err := reg.Add(tool("failing"), tool("denied")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"failing", "denied"} {
		out, err := reg.Dispatch(context.Background(), &Call{UserID: "ada"}, ToolCall{ID: "c", Name: name, Arguments: json.RawMessage(`{}`)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if out.Err == nil {
			t.Fatalf("%s: no tool error: %+v", name, out)
		}
		if n := len(out.Result.String()); n > limit {
			t.Errorf("%s: the model reads %d bytes of error, over the %d-byte result cap", name, n, limit)
		}
	}
}
