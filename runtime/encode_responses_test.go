package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// OpenAIOutputSchema sends a typed result's schema as output_schema on
// OpenAI Responses only; without the option, or without a ResultSchema,
// there is none, and a ResultSchema that is not an object is an error.
func TestEncodeOpenAIOutputSchema(t *testing.T) {
	typed := encodeTestTool("get_ticket", "Get a ticket.", deleteTicketSchema, DefaultFlags())
	typed.ResultSchema = json.RawMessage(`{ "properties": {"id": {"type": "string"}}, "type": "object" }`)
	plain := encodeTestTool("list_tickets", "List tickets.", listTicketsSchema, DefaultFlags())
	tools := []*Tool{typed, plain}
	out, err := EncodeTools(DialectOpenAI, tools, nil, EncodeOptions{OpenAIOutputSchema: true})
	if err != nil {
		t.Fatal(err)
	}
	items := decodeItems(t, out)
	if got := string(items[0]["output_schema"]); got != `{"properties":{"id":{"type":"string"}},"type":"object"}` {
		t.Errorf("output_schema = %s", got)
	}
	if _, ok := items[1]["output_schema"]; ok {
		t.Error("a tool without a result schema has output_schema")
	}
	for _, c := range []struct {
		d    Dialect
		opts EncodeOptions
	}{
		{DialectOpenAI, EncodeOptions{}},
		{DialectOpenAIChat, EncodeOptions{OpenAIOutputSchema: true}},
		{DialectAnthropic, EncodeOptions{OpenAIOutputSchema: true}},
	} {
		out, err := EncodeTools(c.d, tools, nil, c.opts)
		if err != nil || strings.Contains(string(out), "output_schema") {
			t.Errorf("%s %+v: %v %s", c.d, c.opts, err, out)
		}
	}
	typed.ResultSchema = json.RawMessage(`[1]`)
	if _, err := EncodeTools(DialectOpenAI, tools, nil, EncodeOptions{OpenAIOutputSchema: true}); err == nil ||
		!strings.Contains(err.Error(), `tool "get_ticket": result schema: not a JSON object`) {
		t.Errorf("array result schema: %v", err)
	}
}

// A deferred tool's batch tool is deferred too.
func TestParallelizeKeepsDeferLoading(t *testing.T) {
	tool := encodeTestTool("get_ticket", "Get a ticket.", deleteTicketSchema, DefaultFlags())
	tool.DeferLoading = true
	bt, err := Parallelize(tool, ParallelizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !bt.DeferLoading {
		t.Error("the batch tool of a deferred tool is not deferred")
	}
}

// namespaceRegistry holds two modules and a tool of none, interleaved:
// tickets (create_ticket, list_tickets deferred, delete_ticket), billing
// (billing_refund, with no description) and the loose tool ping.
func namespaceRegistry(t testing.TB) *Registry {
	r := NewRegistry(Options{})
	create := encodeTestTool("create_ticket", "Open a ticket in the tracker.", createTicketSchema, DefaultFlags())
	list := encodeTestTool("list_tickets", "List recent tickets.", listTicketsSchema, DefaultFlags())
	list.DeferLoading = true
	list.ResultSchema = json.RawMessage(`{"properties":{"ids":{"items":{"type":"string"},"type":"array"}},"type":"object"}`)
	del := encodeTestTool("delete_ticket", "Delete a ticket for good.", deleteTicketSchema, DefaultFlags())
	refund := encodeTestTool("billing_refund", "Refund a charge.", deleteTicketSchema, DefaultFlags())
	ping := encodeTestTool("ping", "Check the service answers.", "", DefaultFlags())
	for _, err := range []error{
		r.AddModule(&Module{Provider: "tickets", Description: "The ticket tracker: open, list and delete tickets.", Tools: []*Tool{create}}),
		r.Add(ping),
		r.AddModule(&Module{Provider: "billing", Tools: []*Tool{refund}}),
		r.AddModule(&Module{Provider: "tickets", Description: "The ticket tracker: open, list and delete tickets.", Tools: []*Tool{list, del}}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// TestEncodeNamespaces: with OpenAINamespaces, each module's tools are one
// namespace where the first of them was; the golden file holds it with a
// deferred tool (defer_loading inside the namespace, tool_search after)
// and an output schema.
func TestEncodeNamespaces(t *testing.T) {
	ctx := context.Background()
	r := namespaceRegistry(t)
	opts := EncodeOptions{OpenAINamespaces: true, OpenAIOutputSchema: true}
	got, err := r.EncodeCatalog(ctx, nil, DialectOpenAI, opts)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "openai_responses_namespaces.json", got)
	tools, _ := r.Catalog(ctx, nil)
	for _, strict := range []bool{false, true} {
		opts.Strict = strict
		want, err := EncodeTools(DialectOpenAI, tools, nil, opts)
		got, gerr := r.EncodeCatalog(ctx, nil, DialectOpenAI, opts)
		if err != nil || gerr != nil || !bytes.Equal(got, want) {
			t.Errorf("strict %v: prepared\n%s %v\nEncodeTools\n%s %v", strict, got, gerr, want, err)
		}
	}
	// Other dialects and OpenAI without the option have no namespace.
	for _, m := range catalogModes {
		if m.opts.OpenAINamespaces {
			continue
		}
		out, err := r.EncodeCatalog(ctx, nil, m.d, m.opts)
		if err != nil || bytes.Contains(out, []byte(`"namespace"`)) {
			t.Errorf("%s: %v %s", m.name, err, out)
		}
	}
	out, _ := r.EncodeCatalog(ctx, nil, DialectOpenAIChat, EncodeOptions{OpenAINamespaces: true})
	if bytes.Contains(out, []byte(`"namespace"`)) {
		t.Errorf("chat completions: %s", out)
	}
	// A namespace whose tools are all hidden is not sent.
	for _, name := range []string{"create_ticket", "list_tickets", "delete_ticket"} {
		mustGet(t, r, name).Flags.Enabled = false
	}
	out, _ = r.EncodeCatalog(ctx, nil, DialectOpenAI, EncodeOptions{OpenAINamespaces: true})
	if bytes.Contains(out, []byte(`"tickets"`)) || bytes.Contains(out, []byte("tool_search")) || !bytes.Contains(out, []byte(`"billing"`)) {
		t.Errorf("tickets hidden: %s", out)
	}
	// A module id OpenAI would refuse is an error naming the tool.
	bad := NewRegistry(Options{})
	if err := bad.AddModule(&Module{Provider: "bad id", Tools: []*Tool{encodeTestTool("x", "X.", "", DefaultFlags())}}); err != nil {
		t.Fatal(err)
	}
	for _, enc := range []func() error{
		func() error {
			_, err := bad.EncodeCatalog(ctx, nil, DialectOpenAI, EncodeOptions{OpenAINamespaces: true})
			return err
		},
		func() error {
			_, err := EncodeTools(DialectOpenAI, bad.Executable(), nil, EncodeOptions{OpenAINamespaces: true})
			return err
		},
	} {
		if err := enc(); err == nil || !strings.Contains(err.Error(), `tool "x": namespace "bad id": openai takes namespace names`) {
			t.Errorf("bad module id: %v", err)
		}
	}
}

// A request with namespaces allocates as much for 5 tools as for 500.
func TestNamespacesAllocsConstant(t *testing.T) {
	ctx := context.Background()
	opts := EncodeOptions{OpenAINamespaces: true}
	var allocs []float64
	for _, n := range []int{5, 500} {
		r := benchCatalogRegistry(t, n)
		if _, err := r.EncodeCatalog(ctx, nil, DialectOpenAI, opts); err != nil {
			t.Fatal(err)
		}
		allocs = append(allocs, testing.AllocsPerRun(20, func() {
			if _, err := r.EncodeCatalog(ctx, nil, DialectOpenAI, opts); err != nil {
				t.Fatal(err)
			}
		}))
	}
	if allocs[0] != allocs[1] {
		t.Errorf("%v allocations for 5 tools, %v for 500", allocs[0], allocs[1])
	}
}
