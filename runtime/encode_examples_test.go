package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// Examples go to Anthropic as input_examples, compacted, in the strict
// and the plain form; OmitExamples leaves them out; every other dialect
// writes the same bytes with or without them.
func TestEncodeExamples(t *testing.T) {
	withExamples := func() *Tool {
		tl := encodeTestTool("list_tickets", "List.", listTicketsSchema, DefaultFlags())
		tl.Examples = []json.RawMessage{json.RawMessage("{ \"limit\" : 5 }"), json.RawMessage(`{}`)}
		return tl
	}
	bare := encodeTestTool("list_tickets", "List.", listTicketsSchema, DefaultFlags())
	for _, c := range []struct {
		d    Dialect
		opts EncodeOptions
		sent bool
	}{
		{DialectAnthropic, EncodeOptions{}, true},
		{DialectAnthropic, EncodeOptions{Strict: true}, true},
		{DialectAnthropic, EncodeOptions{OmitExamples: true}, false},
		{DialectAnthropic, EncodeOptions{Strict: true, OmitExamples: true}, false},
		{DialectOpenAI, EncodeOptions{}, false},
		{DialectOpenAI, EncodeOptions{Strict: true}, false},
		{DialectOpenAIChat, EncodeOptions{}, false},
		{DialectGemini, EncodeOptions{}, false},
		{DialectGemini, EncodeOptions{GeminiJSONSchema: true}, false},
		{DialectMCP, EncodeOptions{MCPOutputSchema: true}, false},
	} {
		got, err := EncodeTools(c.d, []*Tool{withExamples()}, nil, c.opts)
		if err != nil {
			t.Fatalf("%s %+v: %v", c.d, c.opts, err)
		}
		without, err := EncodeTools(c.d, []*Tool{bare}, nil, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if !c.sent {
			if !bytes.Equal(got, without) {
				t.Errorf("%s %+v: the examples changed the catalog:\n%s\n%s", c.d, c.opts, got, without)
			}
			continue
		}
		var items []struct {
			Strict        bool              `json:"strict"`
			InputExamples []json.RawMessage `json:"input_examples"`
		}
		if err := json.Unmarshal(got, &items); err != nil {
			t.Fatal(err)
		}
		if len(items) != 1 || items[0].Strict != c.opts.Strict {
			t.Fatalf("%s %+v: %s", c.d, c.opts, got)
		}
		ex := items[0].InputExamples
		if len(ex) != 2 || string(ex[0]) != `{"limit":5}` || string(ex[1]) != `{}` {
			t.Errorf("%s %+v: input_examples %s", c.d, c.opts, ex)
		}
		// The prepared catalog writes the same bytes.
		r := NewRegistry(Options{})
		if err := r.Add(withExamples()); err != nil {
			t.Fatal(err)
		}
		prep, err := r.EncodeCatalog(context.Background(), nil, c.d, c.opts)
		if err != nil || !bytes.Equal(prep, got) {
			t.Errorf("EncodeCatalog %s %+v: %v\n%s\nwant %s", c.d, c.opts, err, prep, got)
		}
	}
	// A strict tool past the request's strict budget is sent plain, with
	// its examples still.
	var many []*Tool
	for i := range anthropicStrictMaxTools + 1 {
		tl := withExamples()
		tl.Name = "t" + string(rune('a'+i))
		many = append(many, tl)
	}
	out, err := EncodeTools(DialectAnthropic, many, nil, EncodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if flags := strictFlags(t, out); flags != strings.Repeat("S", anthropicStrictMaxTools)+"-" {
		t.Fatalf("strict flags %s", flags)
	}
	if n := strings.Count(string(out), `"input_examples":[{"limit":5},{}]`); n != len(many) {
		t.Errorf("%d of %d tools carry their examples: %s", n, len(many), out)
	}
}

// An example that is not a JSON object cannot go to Anthropic; the error
// names the tool and the example. The other dialects do not read them.
func TestEncodeExamplesInvalid(t *testing.T) {
	for _, c := range []struct{ example, want string }{
		{`[1]`, `tool "t": example 1 is not a JSON object`},
		{`"x"`, `tool "t": example 1 is not a JSON object`},
		{`{"a":`, `tool "t": example 1: unexpected end of JSON input`},
	} {
		tl := encodeTestTool("t", "T.", listTicketsSchema, DefaultFlags())
		tl.Examples = []json.RawMessage{json.RawMessage(c.example)}
		_, err := EncodeTools(DialectAnthropic, []*Tool{tl}, nil, EncodeOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.example, err, c.want)
		}
		if _, err := EncodeTools(DialectAnthropic, []*Tool{tl}, nil, EncodeOptions{OmitExamples: true}); err != nil {
			t.Errorf("%s with OmitExamples: %v", c.example, err)
		}
		if _, err := EncodeTools(DialectOpenAI, []*Tool{tl}, nil, EncodeOptions{}); err != nil {
			t.Errorf("%s for OpenAI: %v", c.example, err)
		}
	}
}
