package runtime

import (
	"encoding/json"
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
