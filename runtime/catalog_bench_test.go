package runtime

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
)

// benchCatalogRegistry is a registry of n tools behind one open gate, each
// with the golden create_ticket schema (about 1.1 KB of catalog per tool),
// in five modules (namespaces on OpenAI Responses), and the two provider
// tools.
func benchCatalogRegistry(b testing.TB, n int) *Registry {
	r := NewRegistry(Options{Gates: GatesFunc(func(context.Context, *Call, string) (bool, error) { return true, nil })})
	for i := range n {
		t := encodeTestTool("create_ticket_"+strconv.Itoa(i), "Open a ticket in tracker number "+strconv.Itoa(i)+".",
			createTicketSchema, DefaultFlags())
		t.Gate = "tickets"
		if err := r.AddModule(&Module{Provider: "tracker" + strconv.Itoa(i*5/n), Tools: []*Tool{t}}); err != nil {
			b.Fatal(err)
		}
	}
	if err := r.AddProvider(ProviderTool{Name: WebSearch}, ProviderTool{Name: CodeExecution}); err != nil {
		b.Fatal(err)
	}
	return r
}

var catalogModes = []struct {
	name string
	d    Dialect
	opts EncodeOptions
}{
	{"anthropic", DialectAnthropic, EncodeOptions{}},
	{"anthropic_strict", DialectAnthropic, EncodeOptions{Strict: true}},
	{"openai", DialectOpenAI, EncodeOptions{}},
	{"openai_strict", DialectOpenAI, EncodeOptions{Strict: true}},
	{"openai_namespaces", DialectOpenAI, EncodeOptions{OpenAINamespaces: true}},
	{"openai_chat", DialectOpenAIChat, EncodeOptions{}},
	{"gemini", DialectGemini, EncodeOptions{}},
	{"gemini_jsonschema", DialectGemini, EncodeOptions{GeminiJSONSchema: true}},
	{"mcp", DialectMCP, EncodeOptions{}},
}

// BenchmarkCatalogPerRequest is the catalog of 50 gated tools as a host
// builds it for every request, per dialect and mode, next to the two
// yardsticks of the same output in the same run: json.Marshal of the
// catalog as []map[string]any (what a host building it by hand would do)
// and a plain copy of its bytes (the floor: a request must at least write
// them). The catalog is prepared before the timer starts; preparing is
// BenchmarkCatalogPrepare.
func BenchmarkCatalogPerRequest(b *testing.B) {
	r := benchCatalogRegistry(b, 50)
	ctx := context.Background()
	call := &Call{UserID: "u"}
	for _, m := range catalogModes {
		out, err := r.EncodeCatalog(ctx, call, m.d, m.opts)
		if err != nil {
			b.Fatal(err)
		}
		var maps []map[string]any
		if err := json.Unmarshal(out, &maps); err != nil {
			b.Fatal(err)
		}
		b.Run(m.name+"/catalog", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(out)))
			for b.Loop() {
				if _, err := r.EncodeCatalog(ctx, call, m.d, m.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(m.name+"/marshal_maps", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(out)))
			for b.Loop() {
				if _, err := json.Marshal(maps); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(m.name+"/copy", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(out)))
			for b.Loop() {
				dst := make([]byte, len(out))
				copy(dst, out)
				sinkBytes = dst
			}
		})
	}
}

var sinkBytes []byte

// BenchmarkCatalogPrepare is the one-time work per dialect and mode: every
// tool of the 50-tool catalog encoded (EncodeTools over the same tools).
func BenchmarkCatalogPrepare(b *testing.B) {
	r := benchCatalogRegistry(b, 50)
	tools, provider := r.Executable(), r.Provider()
	for _, m := range catalogModes {
		b.Run(m.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := EncodeTools(m.d, tools, provider, m.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCatalogAllocsConstant: a request allocates as much for 5 tools as for
// 500.
func TestCatalogAllocsConstant(t *testing.T) {
	ctx := context.Background()
	for _, m := range catalogModes {
		var allocs []float64
		for _, n := range []int{5, 500} {
			r := benchCatalogRegistry(t, n)
			if _, err := r.EncodeCatalog(ctx, nil, m.d, m.opts); err != nil {
				t.Fatal(err)
			}
			allocs = append(allocs, testing.AllocsPerRun(20, func() {
				if _, err := r.EncodeCatalog(ctx, nil, m.d, m.opts); err != nil {
					t.Fatal(err)
				}
			}))
		}
		if allocs[0] != allocs[1] {
			t.Errorf("%s: %v allocations for 5 tools, %v for 500", m.name, allocs[0], allocs[1])
		}
	}
}
