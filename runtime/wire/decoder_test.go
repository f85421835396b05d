package wire

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

func violations(t *testing.T, err error) []runtime.Violation {
	t.Helper()
	if err == nil {
		return nil
	}
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("error %T %v, want *runtime.ValidationError", err, err)
	}
	return ve.Violations
}

func TestStrings(t *testing.T) {
	cases := []struct{ in, want string }{
		{`""`, ""},
		{`"plain"`, "plain"},
		{`"a\"b\\c\/d"`, `a"b\c/d`},
		{`"\b\f\n\r\t"`, "\b\f\n\r\t"},
		{`"\u00e9t\u00C9"`, "étÉ"},
		{`"\ud83d\ude00 smile"`, "😀 smile"}, // surrogate pair
		{`"\ud83d alone"`, "\uFFFD alone"},  // lone high surrogate
		{`"\ude00"`, "\uFFFD"},              // lone low surrogate
		{`"\ud83d\u0041"`, "\uFFFDA"},       // high then non-low
		{"\"caf\xc3\xa9\"", "café"},         // raw UTF-8
		{"\"bad\xff\"", "bad\uFFFD"},        // invalid UTF-8
		{"\"bad\xff\\n\"", "bad\uFFFD\n"},   // invalid UTF-8 with escape
		{`  "padded"  `, "padded"},          // whitespace
		{`"日本語 \u65e5"`, "日本語 日"},
	}
	for _, c := range cases {
		var d Decoder
		d.Reset([]byte(c.in))
		got, ok := d.String()
		if err := d.Finish(); err != nil || !ok {
			t.Errorf("%s: ok=%v err=%v", c.in, ok, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.in, got, c.want)
		}
		var std string
		if err := json.Unmarshal([]byte(c.in), &std); err != nil || std != got {
			t.Errorf("%s: encoding/json gives %q (%v), we give %q", c.in, std, err, got)
		}
	}
}

func TestNumbers(t *testing.T) {
	ints := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true},
		{"-0", 0, true},
		{"42", 42, true},
		{"-17", -17, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true},
		{"9223372036854775808", 0, false},
		{"-9223372036854775809", 0, false},
		{"99999999999999999999", 0, false},
		{"2.0", 2, true},
		{"2e3", 2000, true},
		{"1.5", 0, false},
		{"1e400", 0, false},
	}
	for _, c := range ints {
		var d Decoder
		d.Reset([]byte(c.in))
		got, ok := d.Int()
		err := d.Finish()
		if ok != c.ok || got != c.want || (err == nil) != c.ok {
			t.Errorf("Int(%s) = %d, %v, err %v; want %d, %v", c.in, got, ok, err, c.want, c.ok)
		}
	}
	floats := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"0.5", 0.5, true},
		{"-1.25e2", -125, true},
		{"1E-2", 0.01, true},
		{"123456789012345678", 123456789012345678, true},
		{"1e400", 0, false},
	}
	for _, c := range floats {
		var d Decoder
		d.Reset([]byte(c.in))
		got, ok := d.Float()
		err := d.Finish()
		if ok != c.ok || (c.ok && got != c.want) || (err == nil) != c.ok {
			t.Errorf("Float(%s) = %v, %v, err %v; want %v, %v", c.in, got, ok, err, c.want, c.ok)
		}
	}
	// Grammar errors are syntax errors.
	for _, in := range []string{"01", "-", "1.", ".5", "1e", "1e+", "+1", "0x10", "1.5.2", "NaN", "Infinity"} {
		var d Decoder
		d.Reset([]byte(in))
		d.Float()
		vs := violations(t, d.Finish())
		if len(vs) != 1 || vs[0].Path != "$" || !strings.HasPrefix(vs[0].Message, "malformed JSON at byte offset ") {
			t.Errorf("%s: got %v, want one syntax violation", in, vs)
		}
	}
}

// TestObjectWalk decodes an object the way generated code does.
func TestObjectWalk(t *testing.T) {
	in := `{"name": "Ada", "age": "old", "tags": ["a", 1, "c"], "nested": {"deep": [1, {"x": null}]}, "extra": true, "name": "again"}`
	var d Decoder
	d.Reset([]byte(in))
	var name string
	var tags []string
	if d.BeginObject() {
		seenName := false
		for d.NextKey() {
			switch string(d.Name()) {
			case "name":
				if seenName {
					d.Duplicate()
					continue
				}
				seenName = true
				d.Enter("name")
				name, _ = d.String()
				d.Leave()
			case "age":
				d.Enter("age")
				d.Int()
				d.Leave()
			case "tags":
				d.Enter("tags")
				if d.BeginArray() {
					tags = []string{}
					for i := 0; d.NextItem(); i++ {
						d.EnterIndex(i)
						if s, ok := d.String(); ok {
							tags = append(tags, s)
						}
						d.Leave()
					}
				}
				d.Leave()
			case "nested":
				d.Skip()
			default:
				d.Unknown()
			}
		}
		d.Missing("id")
	}
	vs := violations(t, d.Finish())
	want := []runtime.Violation{
		{Path: "$.age", Message: `expected integer, got string "old"`},
		{Path: "$.tags[1]", Message: "expected string, got number 1"},
		{Path: "$", Message: `unknown property "extra"`},
		{Path: "$", Message: `duplicate property "name"`},
		{Path: "$", Message: `missing required property "id"`},
	}
	if !equalViolations(vs, want) {
		t.Errorf("violations:\n got %v\nwant %v", vs, want)
	}
	if name != "Ada" || strings.Join(tags, ",") != "a,c" {
		t.Errorf("name %q tags %q", name, tags)
	}
}

func equalViolations(a, b []runtime.Violation) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSyntaxErrors(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{``, "malformed JSON at byte offset 0: expected a JSON value, found end of input"},
		{`{"a":1`, "malformed JSON at byte offset 6: expected ',' or '}' after object member, found end of input"},
		{`{"a" 1}`, `malformed JSON at byte offset 5: expected ':' after object key, found '1'`},
		{`{"a":1,}`, `malformed JSON at byte offset 7: expected string key of object member, found '}'`},
		{`{a:1}`, `malformed JSON at byte offset 1: expected string key of object member, found 'a'`},
		{`{"a":1} x`, `malformed JSON at byte offset 8: expected end of input after the top-level value, found 'x'`},
		{`{"a":tru}`, `malformed JSON at byte offset 8: expected "true", found '}'`},
		{"{\"a\":\"x\ny\"}", `malformed JSON at byte offset 7: expected closing '"' of string (control characters must be escaped), found '\n'`},
		{`{"a":"\x"}`, `malformed JSON at byte offset 7: expected valid escape character after '\', found 'x'`},
		{`{"a":"\u12"}`, `malformed JSON at byte offset 8: expected four hex digits after \u, found '1'`},
		{`{"a":[1 2]}`, `malformed JSON at byte offset 8: expected ',' or ']' after array item, found '2'`},
		{`{"a":"unterminated}`, `malformed JSON at byte offset 19: expected closing '"' of string, found end of input`},
		{"{\"a\":\xff}", `malformed JSON at byte offset 5: expected a JSON value, found byte 0xff`},
	}
	for _, c := range cases {
		var d Decoder
		d.Reset([]byte(c.in))
		if d.BeginObject() {
			for d.NextKey() {
				d.Enter(string(d.Name()))
				d.Int() // wrong type on purpose: the syntax error must win
				d.Leave()
			}
		}
		vs := violations(t, d.Finish())
		if len(vs) != 1 || vs[0].Path != "$" || vs[0].Message != c.want {
			t.Errorf("%q:\n got %v\nwant $: %s", c.in, vs, c.want)
		}
		if json.Valid([]byte(c.in)) {
			t.Errorf("%q is valid for encoding/json", c.in)
		}
	}
}

func TestDepthLimit(t *testing.T) {
	deep := func(n int) []byte {
		return []byte(`{"x":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`)
	}
	// The outer object is level 1; the skipped value may add 63 more.
	for _, c := range []struct {
		n  int
		ok bool
	}{{63, true}, {64, false}, {10000, false}} {
		var d Decoder
		d.Reset(deep(c.n))
		if d.BeginObject() {
			for d.NextKey() {
				d.Enter("x")
				d.Skip()
				d.Leave()
			}
		}
		vs := violations(t, d.Finish())
		if c.ok != (len(vs) == 0) {
			t.Errorf("depth %d: %v", c.n, vs)
		}
		if !c.ok && (len(vs) != 1 || vs[0].Path != "$.x" || vs[0].Message != "value nests deeper than 64 levels") {
			t.Errorf("depth %d: %v", c.n, vs)
		}
	}
	// Raw has the same limit, and Valid has encoding/json's.
	if !Valid([]byte(strings.Repeat("[", 10000) + strings.Repeat("]", 10000))) {
		t.Error("Valid rejects depth 10000")
	}
	if Valid([]byte(strings.Repeat("[", 10001) + strings.Repeat("]", 10001))) {
		t.Error("Valid accepts depth 10001")
	}
	if json.Valid([]byte(strings.Repeat("[", 10001) + strings.Repeat("]", 10001))) {
		t.Error("encoding/json's limit changed")
	}
}

func TestRaw(t *testing.T) {
	in := []byte(`[ {"a": [1, 2.5e3, "x\"y", true, false, null]} , 7 ]`)
	var d Decoder
	d.Reset(in)
	var raws []string
	if d.BeginArray() {
		for d.NextItem() {
			r, ok := d.Raw()
			if ok {
				raws = append(raws, string(r))
			}
		}
	}
	if err := d.Finish(); err != nil {
		t.Fatal(err)
	}
	if len(raws) != 2 || raws[0] != `{"a": [1, 2.5e3, "x\"y", true, false, null]}` || raws[1] != "7" {
		t.Errorf("raws %q", raws)
	}
	in[3] = 'X' // the raw values are copies
	if raws[0][0] != '{' || !strings.Contains(raws[0], `"a"`) {
		t.Errorf("raw aliases input: %q", raws[0])
	}
}

func TestNullAndBool(t *testing.T) {
	var d Decoder
	d.Reset([]byte(`[null, true, false, "no"]`))
	var got []string
	if d.BeginArray() {
		for i := 0; d.NextItem(); i++ {
			d.EnterIndex(i)
			if d.Null() {
				got = append(got, "null")
			} else if b, ok := d.Bool(); ok {
				got = append(got, map[bool]string{true: "true", false: "false"}[b])
			}
			d.Leave()
		}
	}
	vs := violations(t, d.Finish())
	if strings.Join(got, ",") != "null,true,false" || len(vs) != 1 || vs[0] != (runtime.Violation{Path: "$[3]", Message: `expected boolean, got string "no"`}) {
		t.Errorf("got %v, %v", got, vs)
	}
}

// TestMismatchShowsValue: a value of the wrong type is quoted in the
// violation, cut (on a rune boundary) when it is long; containers are not.
func TestMismatchShowsValue(t *testing.T) {
	long := strings.Repeat("é", 80)
	var d Decoder
	d.Reset([]byte(`["` + long + `", {"a": 1}, -12.5e3]`))
	if d.BeginArray() {
		for i := 0; d.NextItem(); i++ {
			d.EnterIndex(i)
			d.Bool()
			d.Leave()
		}
	}
	vs := violations(t, d.Finish())
	want := []runtime.Violation{
		{Path: "$[0]", Message: `expected boolean, got string "` + strings.Repeat("é", 63) + "…"}, // 64 runes with the quote
		{Path: "$[1]", Message: "expected boolean, got object"},
		{Path: "$[2]", Message: "expected boolean, got number -12.5e3"},
	}
	if !slices.Equal(vs, want) {
		t.Errorf("violations:\n got %q\nwant %q", vs, want)
	}
}

func TestPaths(t *testing.T) {
	var c Checker
	c.Enter("items")
	c.EnterIndex(2)
	c.Enter("email")
	if p := c.Path(); p != "$.items[2].email" {
		t.Errorf("path %q", p)
	}
	c.Leave()
	c.Enter("a key")
	if p := c.Path(); p != `$.items[2]["a key"]` {
		t.Errorf("path %q", p)
	}
	c.Leave()
	c.Leave()
	c.Leave()
	for i := 0; i < 40; i++ { // past the inline steps
		c.EnterIndex(i)
	}
	if p := c.Path(); !strings.HasPrefix(p, "$[0][1]") || !strings.HasSuffix(p, "[38][39]") {
		t.Errorf("deep path %q", p)
	}
	for i := 0; i < 41; i++ {
		c.Leave() // one too many is harmless
	}
	if p := c.Path(); p != "$" {
		t.Errorf("path %q", p)
	}
}

func TestMaxViolations(t *testing.T) {
	var c Checker
	for i := 0; i < MaxViolations+5; i++ {
		c.Add("bad")
	}
	vs := c.Violations()
	if len(vs) != MaxViolations+1 || vs[MaxViolations].Message != "and 5 more violations" {
		t.Errorf("%d violations, last %v", len(vs), vs[len(vs)-1])
	}
}

// TestAllocations proves the reader allocates nothing for ordinary values
// other than the strings it returns.
func TestAllocations(t *testing.T) {
	in := []byte(`{"id": 12345, "price": 19.99, "ok": true, "when": "2024-01-31T12:00:00Z", "skip": {"a": [1, 2, {"b": "c\n"}]}, "name": "x\u00e9"}`)
	var d Decoder
	allocs := testing.AllocsPerRun(100, func() {
		d.Reset(in)
		if d.BeginObject() {
			for d.NextKey() {
				switch string(d.Name()) {
				case "id":
					d.Int()
				case "price":
					d.Float()
				case "ok":
					d.Bool()
				case "when":
					b, _ := d.Bytes()
					ParseDateTime(b)
				case "name":
					d.Bytes()
				default:
					d.Skip()
				}
			}
		}
		if err := d.Finish(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per decode, want 0", allocs)
	}
}

// TestNullInOptional: a null where an optional property's value should be
// gets a hint to leave the property out; not for a required property, nor
// for an item inside an optional property.
func TestNullInOptional(t *testing.T) {
	var d Decoder
	d.Reset([]byte(`{"opt": null, "req": null, "list": [null]}`))
	if d.BeginObject() {
		for d.NextKey() {
			switch string(d.Name()) {
			case "opt":
				d.EnterOptional("opt")
				d.String()
			case "req":
				d.Enter("req")
				d.String()
			case "list":
				d.EnterOptional("list")
				if d.BeginArray() {
					for i := 0; d.NextItem(); i++ {
						d.EnterIndex(i)
						d.String()
						d.Leave()
					}
				}
			}
			d.Leave()
		}
	}
	want := []runtime.Violation{
		{Path: "$.opt", Message: "expected string, got null; leave the property out instead of sending null"},
		{Path: "$.req", Message: "expected string, got null"},
		{Path: "$.list[0]", Message: "expected string, got null"},
	}
	if vs := violations(t, d.Finish()); !slices.Equal(vs, want) {
		t.Errorf("violations:\n got %q\nwant %q", vs, want)
	}
}

// TestTrimmed reads strings with the white space that strings.TrimSpace
// removes taken off both ends, after unescaping; a non-string is still a
// violation.
func TestTrimmed(t *testing.T) {
	cases := []struct{ in, want string }{
		{`"x"`, "x"},
		{`"  x  "`, "x"},
		{`"   "`, ""},
		{`""`, ""},
		{`"\n\t x y \r\n"`, "x y"},                     // escaped white space
		{`"\u00a0\u2003x\u3000"`, "x"},                 // no-break, em and ideographic spaces
		{"\"\u2028x\u0085\"", "x"},                     // raw line separator and NEL
		{`"\u200bx"`, "\u200bx"},                       // zero-width space is not white space
		{`"  caf\u00e9 au lait  "`, "café au lait"},    // inner spaces kept
		{"\"\xff \"", "\uFFFD"},                        // invalid UTF-8 becomes U+FFFD first
		{`"` + strings.Repeat(" ", 300) + `z"`, "z"},   // long run
		{`"a` + strings.Repeat("\\t", 300) + `"`, "a"}, // long escaped run
		{`"` + strings.Repeat("é", 400) + `  "`, strings.Repeat("é", 400)},
	}
	for _, c := range cases {
		for _, bytesToo := range []bool{false, true} {
			var d Decoder
			d.Reset([]byte(c.in))
			var got string
			var ok bool
			if bytesToo {
				var b []byte
				b, ok = d.TrimmedBytes()
				got = string(b)
			} else {
				got, ok = d.TrimmedString()
			}
			if err := d.Finish(); err != nil || !ok {
				t.Errorf("%s: ok=%v err=%v", c.in, ok, err)
				continue
			}
			var std string
			if err := json.Unmarshal([]byte(c.in), &std); err != nil {
				t.Fatal(err)
			}
			if got != c.want || got != strings.TrimSpace(std) {
				t.Errorf("%s (bytes %v): got %q, want %q (strings.TrimSpace gives %q)", c.in, bytesToo, got, c.want, strings.TrimSpace(std))
			}
		}
	}
	var d Decoder
	d.Reset([]byte(`[7, "  y "]`))
	if !d.BeginArray() || !d.NextItem() {
		t.Fatal("no array")
	}
	d.EnterIndex(0)
	if _, ok := d.TrimmedString(); ok {
		t.Error("a number read as a string")
	}
	d.Leave()
	if !d.NextItem() {
		t.Fatal("no second item")
	}
	if s, ok := d.TrimmedString(); !ok || s != "y" {
		t.Errorf("second item %q %v", s, ok)
	}
	d.NextItem()
	vs := violations(t, d.Finish())
	if len(vs) != 1 || vs[0].Path != "$[0]" || vs[0].Message != "expected string, got number 7" {
		t.Errorf("violations %v", vs)
	}
}
