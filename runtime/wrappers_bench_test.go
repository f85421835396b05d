package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
)

// The benchmarks below compare the scheduling overhead of Parallelize and
// RunCalls, per item, with a plain sync.WaitGroup loop bounded by a
// semaphore doing the same work (same no-op tool, same bound). Run them in
// one go: go test -run '^$' -bench 'Parallelize|RunCalls' ./runtime

const benchItems = 50

func noopTool(name string) *Tool {
	f := DefaultFlags()
	f.ReadOnly, f.ConcurrencySafe = true, true
	return &Tool{
		Name:   name,
		Flags:  f,
		Schema: json.RawMessage(`{"additionalProperties":false,"properties":{"n":{"type":"integer"}},"required":["n"],"type":"object"}`),
		Decode: DecodeJSON[itemArgs](nil),
		Execute: func(ctx context.Context, call *Call, args any) (Result, error) {
			return Text("ok"), nil
		},
	}
}

// plainBounded runs f(i) for i in [0, n) with at most bound at once, the way
// one would write it by hand.
func plainBounded(n, bound int, f func(i int)) {
	sem := make(chan struct{}, bound)
	var wg sync.WaitGroup
	for i := range n {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			f(i)
		}()
	}
	wg.Wait()
}

func BenchmarkParallelize(b *testing.B) {
	tool := noopTool("noop")
	for _, bound := range []int{1, 8} {
		bt, err := Parallelize(tool, ParallelizeOptions{MaxConcurrency: bound})
		if err != nil {
			b.Fatal(err)
		}
		items := make([]string, benchItems)
		for i := range items {
			items[i] = fmt.Sprintf(`{"n":%d}`, i)
		}
		args, err := bt.Decode([]byte(itemsJSON(items...)))
		if err != nil {
			b.Fatal(err)
		}
		a := args.(*BatchArgs)
		ctx := context.Background()
		call := &Call{}

		b.Run(fmt.Sprintf("bound=%d/batch", bound), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bt.Execute(ctx, call, args); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchItems), "ns/item")
		})
		b.Run(fmt.Sprintf("bound=%d/plain", bound), func(b *testing.B) {
			b.ReportAllocs()
			results := make([]Result, benchItems)
			for b.Loop() {
				plainBounded(benchItems, bound, func(i int) {
					results[i], _ = tool.Execute(ctx, call, a.Items[i])
				})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchItems), "ns/item")
		})
	}
}

func BenchmarkRunCalls(b *testing.B) {
	r := NewRegistry(Options{})
	if err := r.Add(noopTool("noop")); err != nil {
		b.Fatal(err)
	}
	calls := make([]ToolCall, benchItems)
	for i := range calls {
		calls[i] = ToolCall{ID: fmt.Sprint(i), Name: "noop", Arguments: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))}
	}
	ctx := context.Background()
	call := &Call{}
	for _, bound := range []int{1, 8} {
		b.Run(fmt.Sprintf("bound=%d/runcalls", bound), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.RunCalls(ctx, call, calls, RunOptions{MaxConcurrency: bound}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchItems), "ns/item")
		})
		b.Run(fmt.Sprintf("bound=%d/plain", bound), func(b *testing.B) {
			b.ReportAllocs()
			out := make([]Outcome, benchItems)
			for b.Loop() {
				plainBounded(benchItems, bound, func(i int) {
					out[i], _ = r.Dispatch(ctx, call, calls[i])
				})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchItems), "ns/item")
		})
	}
}
