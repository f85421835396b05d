package runtime

import (
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
