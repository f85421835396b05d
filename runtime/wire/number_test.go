package wire

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The reproducers of issue 7 §2: integers, bounds and multipleOf are exact.

func TestIntExact(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		msg  string // "" = accepted
	}{
		{"9.223372036854775807e18", 9223372036854775807, ""},
		{"9007199254740993.0", 9007199254740993, ""},
		{"2e3", 2000, ""},
		{"-0.0", 0, ""},
		{"120e-1", 12, ""},
		{"1.0000000000000001", 0, "expected integer, got 1.0000000000000001"},
		{"9.223372036854775808e18", 0, "integer 9.223372036854775808e18 is out of range (64-bit)"},
		{"-9.223372036854775808e18", -9223372036854775808, ""},
		{"1e400", 0, "integer 1e400 is out of range (64-bit)"},
		{"1e-400", 0, "expected integer, got 1e-400"},
		{"0e999999999999999999999", 0, ""},
	} {
		var d Decoder
		d.Reset([]byte(c.in))
		v, ok := d.Int()
		err := d.Finish()
		switch {
		case c.msg == "" && (err != nil || !ok || v != c.want):
			t.Errorf("Int(%s) = %d, %v, %v; want %d", c.in, v, ok, err, c.want)
		case c.msg != "" && (err == nil || !strings.Contains(err.Error(), c.msg)):
			t.Errorf("Int(%s): %v, want %q", c.in, err, c.msg)
		}
	}
}

func TestNumberRulesExact(t *testing.T) {
	check := func(r NumberRules, tok string) string {
		var d Decoder
		d.Reset([]byte(tok))
		v, text, ok := d.Number()
		if !ok {
			t.Fatalf("Number(%s) failed", tok)
		}
		r.CheckFloat(&d.Checker, v, text)
		if vs := d.Violations(); len(vs) > 0 {
			return vs[0].Message
		}
		return ""
	}
	for _, c := range []struct {
		r    NumberRules
		tok  string
		want string
	}{
		{NumberRules{MultipleOf: Dec("1")}, "1.0000000001", "must be a multiple of 1, got 1.0000000001"},
		{NumberRules{MultipleOf: Dec("3")}, "1e308", "must be a multiple of 3, got 1e308"},
		{NumberRules{MultipleOf: Dec("3")}, "3e308", "number 3e308 is out of range"},
		{NumberRules{MultipleOf: Dec("0.1")}, "0.3", ""},
		{NumberRules{MultipleOf: Dec("0.5")}, "12.5", ""},
		{NumberRules{MultipleOf: Dec("0.5")}, "12.25", "must be a multiple of 0.5, got 12.25"},
		{NumberRules{MultipleOf: Dec("1e-9")}, "1e-400", "must be a multiple of 1e-9, got 1e-400"},
		{NumberRules{MultipleOf: Dec("12345678901234567890123")}, "24691357802469135780246e2", ""},
		{NumberRules{Maximum: Dec("9007199254740992")}, "9007199254740993", "must be at most 9007199254740992, got 9007199254740993"},
		{NumberRules{Maximum: Dec("9007199254740993")}, "9007199254740993", ""},
		{NumberRules{ExclusiveMaximum: Dec("9223372036854775807")}, "9223372036854775807", "must be less than 9223372036854775807, got 9223372036854775807"},
		{NumberRules{Minimum: Dec("0.1")}, "0.09999999999999999999", "must be at least 0.1, got 0.09999999999999999999"},
		{NumberRules{Enum: []*Decimal{Dec("1"), Dec("0.5")}}, "1.0", ""},
		{NumberRules{Enum: []*Decimal{Dec("1"), Dec("0.5")}}, "1.0000000000000000001", "must be one of 1, 0.5, got 1.0000000000000000001"},
	} {
		var got string
		if strings.Contains(c.want, "out of range") {
			var d Decoder
			d.Reset([]byte(c.tok))
			d.Number()
			got = d.Finish().Error()
		} else {
			got = check(c.r, c.tok)
		}
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.tok, got, c.want)
		}
	}
	// Integers: bounds kept digit for digit.
	var c Checker
	r := NumberRules{ExclusiveMaximum: Dec("9223372036854775807"), Minimum: Dec("-9007199254740993")}
	r.CheckInt(&c, 9223372036854775807)
	r.CheckInt(&c, -9007199254740994)
	r.CheckInt(&c, -9007199254740993)
	want := []string{
		"must be less than 9223372036854775807, got 9223372036854775807",
		"must be at least -9007199254740993, got -9007199254740994",
	}
	if vs := c.Violations(); len(vs) != len(want) || vs[0].Message != want[0] || vs[1].Message != want[1] {
		t.Errorf("CheckInt: %v", vs)
	}
	// A bound beyond int64 for an integer.
	c.Reset()
	(&NumberRules{Maximum: Dec("1e30"), Minimum: Dec("-1e30")}).CheckInt(&c, -9223372036854775808)
	if c.Failed() {
		t.Errorf("1e30 bounds: %v", c.Violations())
	}
}

// TestNumberRulesFastPath compares CheckInt and CheckFloat, which decide
// most values at once (intKeeps, floatKeeps, dividesText), with the full
// check on random rules and numbers: bounds and multiples whole or not, at,
// beside and far from the values, numbers written with fractions,
// exponents and signs.
func TestNumberRulesFastPath(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	decs := []string{"0", "1", "-1", "2", "3", "0.5", "0.25", "0.1", "0.3", "7", "10", "100", "1000", "-2.5", "1e-9", "3e-20",
		"1e20", "12345678901234567", "123456789012345678", "1234567890123456789", "9223372036854775807", "0.000001", "25", "1.5",
		"9007199254740992", "9007199254740993"}
	pick := func() *Decimal {
		if r.IntN(3) == 0 {
			return nil
		}
		return Dec(decs[r.IntN(len(decs))])
	}
	toks := []string{"0", "-0", "1", "2", "3", "7", "7.5", "12.25", "100", "99.5", "100.0", "1e2", "-1", "-2.5", "0.5", "0.3",
		"0.30000000000000004", "1e-9", "6e-20", "123456789012345678", "1234567890123456789", "9223372036854775807",
		"-9223372036854775808", "1.5e1", "2E0", "0.000001", "0.0000010", "25", "50", "1000", "1001", "12345678901234567.0",
		// ties: the float64 of the bound, another exact value
		"0.09999999999999999999", "0.1000000000000000000001", "99.99999999999999999", "100.00000000000000001",
		"9007199254740993", "9007199254740992", "2.4999999999999999999", "0.50000000000000000001"}
	slow := func(rules *NumberRules, n number) []string {
		var c Checker
		rules.check(&c, n)
		var out []string
		for _, v := range c.Violations() {
			out = append(out, v.Message)
		}
		return out
	}
	msgs := func(c *Checker) []string {
		var out []string
		for _, v := range c.Violations() {
			out = append(out, v.Message)
		}
		return out
	}
	fast := 0
	for range 20000 {
		rules := &NumberRules{Minimum: pick(), ExclusiveMinimum: pick(), Maximum: pick(), ExclusiveMaximum: pick()}
		if r.IntN(2) == 0 {
			if m := pick(); m != nil && m.f > 0 {
				rules.MultipleOf = m
			}
		}
		if r.IntN(8) == 0 {
			rules.Enum = []*Decimal{Dec(decs[r.IntN(len(decs))]), Dec(toks[r.IntN(len(toks))])}
		}
		tok := toks[r.IntN(len(toks))]
		var d Decoder
		d.Reset([]byte(tok))
		v, text, ok := d.Number()
		if !ok {
			t.Fatalf("Number(%s)", tok)
		}
		var c Checker
		rules.CheckFloat(&c, v, text)
		if got, want := msgs(&c), slow(rules, number{f: v, tok: text, float: true}); !slices.Equal(got, want) {
			t.Fatalf("CheckFloat(%s) with %+v: %q, the full check %q", tok, *rules, got, want)
		}
		c.Reset()
		rules.CheckFloat(&c, v, nil) // a value built in Go
		if got, want := msgs(&c), slow(rules, number{f: v, float: true}); !slices.Equal(got, want) {
			t.Fatalf("CheckFloat(%v) with %+v: %q, the full check %q", v, *rules, got, want)
		}
		if i, err := strconv.ParseInt(tok, 10, 64); err == nil {
			c.Reset()
			rules.CheckInt(&c, i)
			if got, want := msgs(&c), slow(rules, number{i: i}); !slices.Equal(got, want) {
				t.Fatalf("CheckInt(%d) with %+v: %q, the full check %q", i, *rules, got, want)
			}
			if rules.intKeeps(i) {
				fast++
			}
		}
	}
	if fast == 0 {
		t.Error("no integer was decided at once")
	}
}

func TestDecimalText(t *testing.T) {
	for in, want := range map[string]string{
		"9007199254740993": "9007199254740993", "1.50": "1.5", "0.000001": "0.000001", "1e-7": "1e-7",
		"+1e3": "1000", "-0": "0", "1e300": "1e300", ".5": "0.5", "120e-1": "12", "12345678901234567890123456789": "12345678901234567890123456789",
	} {
		if d, ok := ParseDecimal(in); !ok || d.String() != want {
			t.Errorf("ParseDecimal(%s) = %v, want %s", in, d, want)
		}
	}
	for _, bad := range []string{"", "-", ".", "1e", "1x", "inf", ".inf"} {
		if _, ok := ParseDecimal(bad); ok {
			t.Errorf("ParseDecimal(%q) accepted", bad)
		}
	}
}

// TestFormatsRFC: the reproducers of §2 and the RFCs' own examples.
func TestFormatsRFC(t *testing.T) {
	for _, c := range []struct {
		f  func(string) bool
		s  string
		ok bool
	}{
		{IsURI[string], "http://[::1", false},
		{IsURI[string], "http://example.com:port/", false},
		{IsURI[string], "http://example.com:8080/", true},
		{IsURI[string], "http://[::1]:80/x?y#z", true},
		{IsURI[string], "http://[v7.x:y]/", true},
		{IsURI[string], "http://[1.2.3.4]/", false},
		{IsURI[string], "http://[fe80::1%25en0]/", false},
		{IsURI[string], "http://a@b@c/", false},
		{IsURI[string], "mailto:a@b.c", true},
		{IsURI[string], "urn:isbn:0451450523", true},
		{IsURI[string], "http://x/a b", false},
		{IsURI[string], "http://x/%zz", false},
		{IsURI[string], "x:", true},
		{IsURI[string], "/relative", false},
		{IsURI[string], "http://h/#a#b", false},
		{IsEmail[string], `"quoted local"@example.com`, true},
		{IsEmail[string], `"a\"b"@example.com`, true},
		{IsEmail[string], `"a"b"@example.com`, false},
		{IsEmail[string], "a@[IPv6:2001:db8::1]", true},
		{IsEmail[string], "a@[IPv6:zz]", false},
		{IsEmail[string], "a@[IPv6:::1]", true},
		{IsEmail[string], "a@[127.0.0.1]", true},
		{IsEmail[string], "a@[256.0.0.1]", false},
		{IsEmail[string], "a..b@x.com", false},
		{IsEmail[string], "@x.com", false},
		{IsDateTime[string], "2016-12-31T23:59:60Z", true},
		{IsDateTime[string], "2016-12-31T22:59:60-01:00", true},
		{IsDateTime[string], "2016-12-31T23:59:60+01:00", false},
		{IsDateTime[string], "2016-12-31T12:00:60Z", false},
		{IsDateTime[string], "2024-01-31t09:30:00z", true},
	} {
		if got := c.f(c.s); got != c.ok {
			t.Errorf("%q: %v, want %v", c.s, got, c.ok)
		}
	}
}

// TestUniqueJSONEquality: uniqueItems compares by JSON Schema equality.
func TestUniqueJSONEquality(t *testing.T) {
	for _, c := range []struct {
		in  string
		dup bool
	}{
		{`[{"a":1},{"a":1.0}]`, true},
		{`[{"a":1,"b":2},{"b":2,"a":1}]`, true},
		{`[{"a":null},{}]`, false},
		{`["2024-01-01T00:00:00Z","2024-01-01T00:00:00z"]`, false},
		{`["a","\u0061"]`, true},
		{`[[1,2],[2,1]]`, false},
		{`[1e2,100]`, true},
		{`[true,"true"]`, false},
	} {
		var d Decoder
		d.Reset([]byte(c.in))
		var u Unique
		if d.BeginArray() {
			for d.NextItem() {
				u.Begin(&d)
				d.Skip()
				u.End(&d)
			}
		}
		u.Check(&d)
		if got := d.Failed(); got != c.dup {
			t.Errorf("%s: duplicate %v, want %v", c.in, got, c.dup)
		}
	}
	type item struct {
		A *int `json:"a,omitempty"`
	}
	one := 1
	if _, _, dup := DuplicateJSON([]item{{&one}, {nil}, {&one}}); !dup {
		t.Error("DuplicateJSON missed a repeat")
	}
}
