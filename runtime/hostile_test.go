package runtime

import (
	"context"
	"encoding/json"
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
