package runtime

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
)

// parseSchemaSlow is parseSchema without its fast path: encoding/json.
func parseSchemaSlow(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// parseSchemaCorpus holds schemas and near-JSON both parsers must agree on.
var parseSchemaCorpus = []string{
	createTicketSchema, listTicketsSchema, deleteTicketSchema, edgeSchema, nested(11), deepArrays(3),
	`{}`, ` { } `, "\t{\"a\" :\n[ ]\r}", `{"a":[],"b":{},"c":null,"d":true,"e":false}`,
	`{"n":[0,-0,1,-1,12.5,-0.25,1e3,1E+3,2e-7,-12.0e10,123456789012345678901234567890]}`,
	`{"a":1,"a":2}`, `{"a":{"x":1},"a":[1]}`,
	`{"s":"caf\u00e9"}`, `{"s":"\ud83d\ude00 and \ud83d"}`, `{"s":"a\"b\\c\/d\n\t"}`, `{"\u0061":1}`,
	"{\"s\":\"caf\xc3\xa9 ok\"}", "{\"s\":\"bad \xff utf8\"}", "{\"bad \xc3\":1}",
	`{"enum":["x",1,null,true,{"k":[{}]}]}`,
	`{"type":"string","typ":"x","types":"objects","format":"date-time","":""}`, `{"t\u0079pe":"str\u0069ng","type\"":1}`,
	// Malformed: the fast path must refuse them all.
	``, ` `, `[]`, `"s"`, `1`, `null`, `{`, `}`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{,}`, `{"a":1 "b":2}`,
	`{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":-}`, `{"a":1e}`, `{"a":+1}`, `{"a":tru}`, `{"a":nul}`, `{"a":truex}`,
	`{"a":[1,]}`, `{"a":[1 2]}`, `{"a":"\x"}`, `{"a":"\u12"}`, "{\"a\":\"tab\tin\"}", `{"a":"open}`,
	`{} {}`, `{}x`, `{}}`, "\ufeff{}", `{'a':1}`, `{a:1}`,
}

// TestParseSchemaFast: wherever the fast path answers, encoding/json gives
// the same value; it answers for every valid object; it refuses what
// encoding/json refuses, and parseSchema then fails as before.
func TestParseSchemaFast(t *testing.T) {
	corpus := append(parseSchemaCorpus, `{"d":`+strings.Repeat(`[`, fastParseDepth+5)+strings.Repeat(`]`, fastParseDepth+5)+`}`)
	for _, s := range corpus {
		checkParseSchemaFast(t, []byte(s))
	}
	if _, ok := parseSchemaFast([]byte(`{"a":` + strings.Repeat(`{"a":`, fastParseDepth) + `1` + strings.Repeat(`}`, fastParseDepth+1))); ok {
		t.Errorf("parseSchemaFast took a schema deeper than %d levels", fastParseDepth)
	}
}

func checkParseSchemaFast(t *testing.T, raw []byte) {
	t.Helper()
	fast, ok := parseSchemaFast(raw)
	slow, err := parseSchemaSlow(raw)
	slowObj, isObj := slow.(map[string]any)
	var rest bool
	if err == nil {
		dec := json.NewDecoder(bytes.NewReader(raw))
		var skip any
		dec.Decode(&skip)
		_, e := dec.Token()
		rest = e != io.EOF
	}
	valid := err == nil && isObj && !rest
	switch {
	case ok && !valid:
		t.Errorf("parseSchemaFast(%q) took it; encoding/json: %v, object %v, data after it %v", raw, err, isObj, rest)
	case !ok && valid && depth(raw) <= fastParseDepth:
		t.Errorf("parseSchemaFast(%q) refused a valid schema", raw)
	case ok && !reflect.DeepEqual(fast, slowObj):
		t.Errorf("parseSchemaFast(%q) = %#v, encoding/json gives %#v", raw, fast, slowObj)
	}
}

// depth is the deepest nesting of brackets in raw, strings skipped.
func depth(raw []byte) int {
	d, deepest, in := 0, 0, false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && (c == '{' || c == '['):
			d++
			deepest = max(deepest, d)
		case !in && (c == '}' || c == ']'):
			d--
		}
	}
	return deepest
}

// FuzzParseSchemaFast holds parseSchemaFast to encoding/json on any input:
//
//	go test ./runtime -run '^$' -fuzz FuzzParseSchemaFast -fuzztime 30s
func FuzzParseSchemaFast(f *testing.F) {
	for _, s := range parseSchemaCorpus {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkParseSchemaFast(t, []byte(s)) })
}
