package runtime

import (
	"context"
	"testing"
)

func TestOnChange(t *testing.T) {
	r := NewRegistry(Options{})
	n := 0
	stop := r.OnChange(func() {
		n++
		r.Len() // the lock is released: reading does not deadlock
	})
	tool := func(name string) *Tool {
		return &Tool{Name: name, Flags: DefaultFlags(), Decode: func([]byte) (any, error) { return nil, nil },
			Execute: func(context.Context, *Call, any) (Result, error) { return Text("ok"), nil }}
	}
	if err := r.Add(tool("a")); err != nil {
		t.Fatal(err)
	}
	if err := r.AddMCP(tool("b"), tool("c")); err != nil {
		t.Fatal(err)
	}
	if err := r.Add(tool("a")); err == nil {
		t.Fatal("duplicate accepted")
	}
	if err := r.AddProvider(ProviderTool{Name: "web_search"}); err != nil {
		t.Fatal(err)
	}
	r.Remove("b")
	r.Remove("nothing")
	if n != 4 {
		t.Fatalf("OnChange ran %d times, want 4 (add, add, provider, remove; not the failed add or the no-op remove)", n)
	}
	stop()
	r.Remove("a")
	if n != 4 {
		t.Fatalf("OnChange ran after stop")
	}
}
