package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var allDialects = []Dialect{DialectOpenAI, DialectOpenAIChat, DialectAnthropic, DialectGemini, DialectMCP}

// plainCases are schemas PlainSchema must call plain (true) or not.
var plainCases = []struct {
	schema string
	plain  bool
}{
	{createTicketSchema, true},
	{listTicketsSchema, true},
	{deleteTicketSchema, true},
	{edgeSchema, true},
	{nested(11), true},
	{deepArrays(3), true},
	{`{"type":"object"}`, true},
	{` { "type" : "object" , "properties" : { } } `, true},
	{`{"properties":{"a b\"c\u00e9":{"description":"say \"$ref\\\" é","type":"string"}},"type":"object"}`, true},
	{`{"properties":{"anyOf":{"type":"string"},"$defs":{"type":"integer"}},"type":"object"}`, true}, // property names, not keywords
	{`{"properties":{"d":{"default":{"anyOf":[1],"$defs":{}},"type":"object","additionalProperties":true}},"type":"object"}`, true},
	{`{"properties":{"c":{"const":3},"n":{"type":"null"},"x":{}},"type":"object"}`, true},
	{`{"properties":{"e":{"enum":["x",1,null,{"a":[]}],"format":"enum","type":["string","null"]}},"type":"object"}`, true},
	{`{"properties":{"a":{"type":"string"}},"required":["a","b","a"],"type":"object"}`, true},
	{`{"type":"string","type":"object"}`, true}, // the last one counts, as when decoded

	{`{"type":"object","type":"string"}`, false},
	{`{"type":["object","null"]}`, false},
	{`{"properties":{}}`, false},
	{`{"type":"object"} x`, false},
	{`{"type":"object",}`, false},
	{`{"type":"object"`, false},
	{`[{"type":"object"}]`, false},
	{``, false},
	{`{"typ\u0065":"object"}`, false},
	{`{"type":"objec\u0074"}`, false},
	{`{"type":"thing","properties":{}}`, false},
	{`{"properties":{"a":{"type":"strin"}},"type":"object"}`, false},
	{`{"properties":{"a":{"type":["string","integer"]}},"type":"object"}`, false},
	{`{"properties":{"a":{"type":[]}},"type":"object"}`, false},
	{`{"properties":{"a":{"type":7}},"type":"object"}`, false},
	{`{"properties":{"a":"string"},"type":"object"}`, false},
	{`{"properties":[],"type":"object"}`, false},
	{`{"properties":{"a":{"items":[{"type":"string"}],"type":"array"}},"type":"object"}`, false},
	{`{"properties":{"a":{"enum":"x","type":"string"}},"type":"object"}`, false},
	{`{"required":[1],"type":"object"}`, false},
	{`{"required":"a","type":"object"}`, false},
	{`{"properties":{"a":{"anyOf":[{"type":"string"}]}},"type":"object"}`, false},
	{`{"properties":{"a":{"oneOf":[{"type":"string"}]}},"type":"object"}`, false},
	{`{"anyOf":[{"type":"object"}],"type":"object"}`, false},
	{`{"$defs":{"A":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/A"}},"type":"object"}`, false},
	{`{"properties":{"a":{"description":"x \"$ref","type":"string"}},"type":"object"}`, false}, // the bytes "$ref" anywhere
	{`{"properties":{"a":{"additionalProperties":"no","type":"object"}},"type":"object"}`, false},
	{`{"properties":{"a":{"description":"tab	here","type":"string"}},"type":"object"}`, false},
	{`{"properties":{"a":{"description":"bad \x escape","type":"string"}},"type":"object"}`, false},
	{`{"properties":{"a":{"minimum":01,"type":"integer"}},"type":"object"}`, false},
	{`{"properties":{"a":{"minimum":1.,"type":"integer"}},"type":"object"}`, false},
	{"{\"description\":\"\xff\",\"type\":\"object\"}", false},
	{nested(plainMaxDepth + 1), false},
}

// TestPlainSchema: PlainSchema says plain exactly for the cases above,
// and every schema it calls plain is encoded without error in every
// dialect's plain mode; several it does not call plain are refused by
// some dialect (the claim is not empty).
func TestPlainSchema(t *testing.T) {
	refused := 0
	for _, c := range plainCases {
		if got := PlainSchema(json.RawMessage(c.schema)); got != c.plain {
			t.Errorf("PlainSchema(%.120s) = %v, want %v", c.schema, got, c.plain)
		}
		if err := plainEncodes(c.schema); err != nil {
			if c.plain {
				t.Errorf("plain schema %.120s: %v", c.schema, err)
			}
			refused++
		}
	}
	if refused < 10 {
		t.Errorf("only %d of the schemas that are not plain are refused by a dialect", refused)
	}
}

// plainEncodes encodes a tool with schema in every dialect's plain mode.
func plainEncodes(schema string) error {
	tool := &Tool{Name: "t", Description: "d", Schema: json.RawMessage(schema)}
	for _, d := range allDialects {
		if _, err := EncodeTools(d, []*Tool{tool}, nil, EncodeOptions{}); err != nil {
			return err
		}
	}
	return nil
}

func TestPlainSchemaAllocs(t *testing.T) {
	raw := json.RawMessage(edgeSchema)
	if n := testing.AllocsPerRun(100, func() { PlainSchema(raw) }); n != 0 {
		t.Errorf("PlainSchema allocates %v times", n)
	}
}

// FuzzPlainSchema: a schema PlainSchema calls plain is encoded without
// error in every dialect's plain mode.
//
//	go test ./runtime -run '^$' -fuzz FuzzPlainSchema -fuzztime 30s
func FuzzPlainSchema(f *testing.F) {
	for _, c := range plainCases {
		f.Add(c.schema)
	}
	f.Fuzz(func(t *testing.T, schema string) {
		if PlainSchema(json.RawMessage(schema)) {
			if err := plainEncodes(schema); err != nil {
				t.Errorf("plain schema %s: %v", schema, err)
			}
		}
	})
}

// TestCheckToolName: CheckToolName refuses the names EncodeTools refuses,
// with its reason, dialect by dialect.
func TestCheckToolName(t *testing.T) {
	names := []string{"ping", "x_ping", "x-ping", "x.ping", "x:ping", "1ping", "_ping", "", "ü", "a b",
		strings.Repeat("a", 64), strings.Repeat("a", 65)}
	for _, d := range allDialects {
		for _, name := range names {
			_, encErr := EncodeTools(d, []*Tool{{Name: name}}, nil, EncodeOptions{})
			err := CheckToolName(d, name)
			switch {
			case (err == nil) != (encErr == nil):
				t.Errorf("%s %q: CheckToolName %v, EncodeTools %v", d, name, err, encErr)
			case err != nil && !strings.HasSuffix(encErr.Error(), ": "+err.Error()):
				t.Errorf("%s %q: CheckToolName %q, EncodeTools %q", d, name, err, encErr)
			}
		}
	}
	if err := CheckToolName("cohere", "ping"); err == nil {
		t.Error("an unknown dialect is taken")
	}
}

// sentCases are schemas whose Sent is compared with EncodeTools: the
// plain cases, the union fixture, and schemas past strict limits.
func sentCases(t testing.TB) []string {
	var list []string
	for _, c := range plainCases {
		list = append(list, c.schema)
	}
	for _, tool := range unionTools(t) {
		list = append(list, string(tool.Schema))
	}
	var optional, unions, required []string
	for i := range 25 {
		optional = append(optional, fmt.Sprintf(`"p%02d":{"type":"string"}`, i))
		unions = append(unions, fmt.Sprintf(`"u%02d":{"type":["string","null"]}`, i))
		required = append(required, fmt.Sprintf(`"u%02d"`, i))
	}
	list = append(list,
		`{"properties":{`+strings.Join(optional, ",")+`},"type":"object"}`,
		`{"properties":{`+strings.Join(unions, ",")+`},"required":[`+strings.Join(required, ",")+`],"type":"object"}`,
		`{"properties":{"m":{"additionalProperties":{"type":"string"},"type":"object"}},"type":"object"}`,
		`{"$defs":{"N":{"properties":{"kids":{"items":{"$ref":"#/$defs/N"},"type":"array"}},"type":"object"}},"properties":{"n":{"$ref":"#/$defs/N"}},"type":"object"}`,
		`{"properties":{"a":{"$ref":"#/$defs/Missing"}},"type":"object"}`,
		`{"oneOf":[{"properties":{"a":{"type":"string"}},"type":"object"},{"type":"string"}]}`,
		`{"anyOf":[{"properties":{"a":{"type":"string"}},"type":"object"},{"properties":{"b":{"type":"integer"}},"required":["b"],"type":"object"}]}`,
		`{"properties":{"e":{"enum":[{"a":1}],"type":"object"}},"type":"object"}`,
		`{"properties":{"x":{"type":"object"}},"type":"object"}`,
		``,
	)
	return list
}

// sentByEncoding is the argument schema of the one tool EncodeTools sent
// in catalog raw, decoded, and whether it is strict.
func sentByEncoding(t testing.TB, d Dialect, raw []byte) (map[string]any, bool) {
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil || len(list) != 1 {
		t.Fatalf("catalog %s: %v", raw, err)
	}
	item, key := list[0], ""
	switch d {
	case DialectOpenAIChat:
		var fn map[string]json.RawMessage
		if err := json.Unmarshal(item["function"], &fn); err != nil {
			t.Fatal(err)
		}
		item, key = fn, "parameters"
	case DialectOpenAI:
		key = "parameters"
	case DialectAnthropic:
		key = "input_schema"
	case DialectMCP:
		key = "inputSchema"
	case DialectGemini:
		var decls []map[string]json.RawMessage
		if err := json.Unmarshal(item["functionDeclarations"], &decls); err != nil || len(decls) != 1 {
			t.Fatalf("catalog %s: %v", raw, err)
		}
		item, key = decls[0], "parameters"
		if _, ok := item[key]; !ok {
			key = "parametersJsonSchema"
		}
	}
	var s map[string]any
	if v, ok := item[key]; ok {
		if err := json.Unmarshal(v, &s); err != nil {
			t.Fatal(err)
		}
	}
	return s, string(item["strict"]) == "true"
}

// checkSent compares ToolSchema.Sent with EncodeTools for one tool named
// name with schema, in every dialect and mode.
func checkSent(t testing.TB, name, schema string) {
	ts := ReadToolSchema(json.RawMessage(schema))
	for _, m := range encodeModes {
		got, err := ts.Sent(m.d, name, m.opts)
		raw, encErr := EncodeTools(m.d, []*Tool{{Name: name, Schema: json.RawMessage(schema)}}, nil, m.opts)
		if fmt.Sprint(err) != fmt.Sprint(encErr) {
			t.Errorf("%s %.100s: Sent error %v, EncodeTools %v", m.name, schema, err, encErr)
			continue
		}
		if err != nil {
			continue
		}
		want, strict := sentByEncoding(t, m.d, raw)
		var norm map[string]any
		if got.Schema != nil {
			b, err := marshalCompact(got.Schema)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &norm); err != nil {
				t.Fatal(err)
			}
		}
		if !reflect.DeepEqual(norm, want) || got.Strict != strict {
			t.Errorf("%s %.100s: Sent %v (strict %v), EncodeTools sent %v (strict %v)", m.name, schema, norm, got.Strict, want, strict)
		}
		var whyNot error
		switch {
		case !m.opts.Strict || strict || m.d == DialectGemini || m.d == DialectMCP:
		case m.d == DialectAnthropic:
			_, whyNot = AnthropicStrictSchema(json.RawMessage(schema))
		default:
			_, whyNot = OpenAIStrictSchema(json.RawMessage(schema))
		}
		if fmt.Sprint(got.NotStrict) != fmt.Sprint(whyNot) {
			t.Errorf("%s %.100s: NotStrict %v, want %v", m.name, schema, got.NotStrict, whyNot)
		}
	}
}

// TestToolSchemaSent: Sent gives what EncodeTools sends, its errors and
// why a schema is not strict, for every case and tool name.
func TestToolSchemaSent(t *testing.T) {
	for _, schema := range sentCases(t) {
		for _, name := range []string{"t", "x.ping", ""} {
			checkSent(t, name, schema)
		}
	}
	if _, err := ReadToolSchema(json.RawMessage(`{"type":"object"}`)).Sent("cohere", "t", EncodeOptions{}); err == nil {
		t.Error("an unknown dialect is taken")
	}
}

// TestToolSchemaSentShared: asking one ToolSchema in every mode, one
// after the other, changes none of the answers (no rewrite changes what
// the next one reads).
func TestToolSchemaSentShared(t *testing.T) {
	for _, schema := range sentCases(t) {
		ts := ReadToolSchema(json.RawMessage(schema))
		before, _ := marshalCompact(ts.Root())
		for range 2 {
			for _, m := range encodeModes {
				got, err := ts.Sent(m.d, "t", m.opts)
				fresh, freshErr := ReadToolSchema(json.RawMessage(schema)).Sent(m.d, "t", m.opts)
				if fmt.Sprint(err) != fmt.Sprint(freshErr) || !reflect.DeepEqual(got, fresh) {
					t.Errorf("%s %.100s: shared %+v, %v; fresh %+v, %v", m.name, schema, got, err, fresh, freshErr)
				}
			}
		}
		if after, _ := marshalCompact(ts.Root()); !bytes.Equal(before, after) {
			t.Errorf("the rewrites changed the root:\n%s\n%s", before, after)
		}
	}
}

// TestCheckLimitsSent: CheckLimitsSent gives CheckLimits' issues, from
// the schemas Sent gives, for the cases in order and in reverse (where
// the costly ones come before the budget's 20 tools are spent).
func TestCheckLimitsSent(t *testing.T) {
	var tools []*Tool
	for i, schema := range sentCases(t) {
		tool := &Tool{Name: fmt.Sprintf("t%d", i), Schema: json.RawMessage(schema)}
		if _, err := EncodeTools(DialectAnthropic, []*Tool{tool}, nil, EncodeOptions{Strict: true}); err == nil {
			tools = append(tools, tool, &Tool{Name: fmt.Sprintf("t%d_again", i), Schema: tool.Schema})
		}
	}
	reversed := slices.Clone(tools)
	slices.Reverse(reversed)
	limits := map[string]bool{}
	for _, tools := range [][]*Tool{tools, reversed} {
		for _, m := range encodeModes {
			sent := make([]SentSchema, len(tools))
			for i, tool := range tools {
				var err error
				if sent[i], err = ReadToolSchema(tool.Schema).Sent(m.d, tool.Name, m.opts); err != nil {
					t.Fatalf("%s %s: %v", m.name, tool.Name, err)
				}
			}
			want, wantErr := CheckLimits(m.d, tools, m.opts)
			got, err := CheckLimitsSent(m.d, tools, m.opts, sent)
			if !reflect.DeepEqual(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Errorf("%s: CheckLimitsSent %v, %v; CheckLimits %v, %v", m.name, got, err, want, wantErr)
			}
			for _, is := range want {
				limits[is.Limit] = true
			}
		}
	}
	for _, l := range []string{"strict_tools", "strict_optional", "strict_unions"} {
		if !limits[l] {
			t.Errorf("no case passes %s", l)
		}
	}
	if _, err := CheckLimitsSent(DialectAnthropic, tools, EncodeOptions{Strict: true}, nil); err == nil {
		t.Error("CheckLimitsSent without the sent schemas: no error")
	}
}

// FuzzToolSchemaSent: Sent gives what EncodeTools sends, for any schema.
//
//	go test ./runtime -run '^$' -fuzz FuzzToolSchemaSent -fuzztime 30s
func FuzzToolSchemaSent(f *testing.F) {
	for _, s := range sentCases(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, schema string) {
		checkSent(t, "t", schema)
	})
}

// BenchmarkPlainSchema reads edgeSchema (1.7 kB, 28 subschemas) and
// decodes it, for comparison.
func BenchmarkPlainSchema(b *testing.B) {
	raw := json.RawMessage(edgeSchema)
	b.Run("PlainSchema", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if !PlainSchema(raw) {
				b.Fatal("not plain")
			}
		}
	})
	b.Run("parseSchema", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if _, err := parseSchema(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}
