package genfixture

import (
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// Hostile inputs (issue 7 §5): decoding costs at most a few times the
// input's size, and error texts are bounded by the violation cap and by
// quoting at most 64 characters of any name or value.

// hostileInputs are the shapes the issue found, each about as large as
// given: name → tool (a batch tool ends in _batch) and arguments.
func hostileInputs() []struct{ name, tool, args string } {
	line := `{"description":"x","unit_price":{"amount":1}}`
	var b strings.Builder
	gen := func(n int, f func(i int)) string {
		b.Reset()
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			f(i)
		}
		return b.String()
	}
	return []struct{ name, tool, args string }{
		{"100k unknown keys", ToolCreateInvoice, `{"email":"a@b.co","items":[` + line + `],` +
			gen(100000, func(i int) { b.WriteString(`"unknown_key_` + strconv.Itoa(i) + `":0`) }) + `}`},
		{"items past maxItems", ToolCreateInvoice, `{"email":"a@b.co","items":[` + gen(100000, func(int) { b.WriteString(line) }) + `]}`},
		{"unique tags past maxItems", ToolCreateInvoice, `{"email":"a@b.co","items":[{"description":"x","unit_price":{"amount":1},"tags":[` +
			gen(300000, func(i int) { b.WriteString(`"t` + strconv.Itoa(i%7) + `"`) }) + `]}]}`},
		{"huge integer", ToolCreateInvoice, `{"email":"a@b.co","items":[{"description":"x","unit_price":{"amount":` + strings.Repeat("9", 1<<20) + `}}]}`},
		{"huge unknown key", ToolCreateInvoice, `{"email":"a@b.co","items":[` + line + `],"` + strings.Repeat("k", 1<<20) + `":1}`},
		{"metadata violations", ToolCreateInvoice, `{"email":"a@b.co","items":[` + line + `],"metadata":{` +
			gen(50000, func(i int) { b.WriteString(`"m` + strconv.Itoa(i) + `":1`) }) + `}}`},
		{"300k empty batch items", ToolCreateInvoice + "_batch", `{"items":[` + gen(300000, func(int) { b.WriteString("{}") }) + `]}`},
		{"batch items with violations", ToolCreateInvoice + "_batch", `{"items":[` + gen(50, func(int) {
			b.WriteString(`{"items":[` + strings.Repeat(`{"quantity":"x"},`, 40) + `{}]}`)
		}) + `]}`},
	}
}

// textBound marks inputs of many small violations: their cost is that of
// the capped error text (1,000 violations, each longer than the bytes that
// caused it), not a multiple of their size.
var textBound = map[string]bool{"batch items with violations": true}

// hostileDecoders are the fixture's decoders by tool name, with a batch
// tool of create_invoice.
func hostileDecoders(t testing.TB) map[string]func([]byte) (any, error) {
	mod := Module(&Tools{})
	out := map[string]func([]byte) (any, error){}
	for _, tl := range mod.Tools {
		out[tl.Name] = tl.DecodeArgs
		if tl.Name == ToolCreateInvoice {
			bt, err := runtime.Parallelize(tl, runtime.ParallelizeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			out[tl.Name+"_batch"] = bt.Decode
		}
	}
	return out
}

func allocated(f func()) uint64 {
	var a, b goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&a)
	f()
	goruntime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestHostileErrorSizes pins the error sizes and the allocation ratio of
// each hostile input.
func TestHostileErrorSizes(t *testing.T) {
	dec := hostileDecoders(t)
	for _, h := range hostileInputs() {
		t.Run(h.name, func(t *testing.T) {
			var err error
			data := []byte(h.args)
			n := allocated(func() { _, err = dec[h.tool](data) })
			ve, ok := err.(*runtime.ValidationError)
			if !ok {
				t.Fatalf("err = %v", err)
			}
			size := 0
			for _, v := range ve.Violations {
				size += len(v.Path) + len(v.Message)
				if len(v.Path) > 200 || len(v.Message) > 400 {
					t.Errorf("violation of %d+%d bytes: %.120s…", len(v.Path), len(v.Message), v.Message)
				}
			}
			if len(ve.Violations) > 1001 || size > 1001*400 {
				t.Errorf("%d violations, %d bytes", len(ve.Violations), size)
			}
			ratio := float64(n) / float64(len(h.args))
			t.Logf("%d bytes in, %d violations (%d bytes of text), %.2f× allocated", len(h.args), len(ve.Violations), size, ratio)
			if ratio > 4 && !textBound[h.name] {
				t.Errorf("allocated %.1f× the input (want ≤ 4×)", ratio)
			}
		})
	}
}

// BenchmarkHostile reports bytes allocated ÷ input bytes (alloc/input) of
// each hostile input.
func BenchmarkHostile(b *testing.B) {
	dec := hostileDecoders(b)
	for _, h := range hostileInputs() {
		b.Run(strings.ReplaceAll(h.name, " ", "_"), func(b *testing.B) {
			data := []byte(h.args)
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			var total uint64
			for b.Loop() {
				total += allocated(func() { dec[h.tool](data) })
			}
			b.ReportMetric(float64(total)/float64(b.N)/float64(len(data)), "alloc/input")
		})
	}
}
