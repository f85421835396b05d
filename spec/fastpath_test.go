package spec

import (
	"encoding/json"
	"math"
	"math/big"
	"math/rand"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/toolgen/toolgen/runtime/wire"
)

// The loader's fast paths give what the general code they skip gives.

// randomName is a name of words, initialisms, plurals, digits and
// separators: what goName splits.
func randomName(r *rand.Rand) string {
	parts := []string{"user", "id", "ID", "Ids", "ids", "url", "URLs", "urls", "ip", "ips", "IPs", "api", "APIs", "http", "HTTPServer",
		"crm", "CRMs", "x", "A", "s", "S", "9", "2fa", "b2b", "_", "-", ".", " ", "/", "Name", "nAME", "getHTTPResponse", "utf8", "é"}
	var b strings.Builder
	for n := r.Intn(6); n >= 0; n-- {
		if r.Intn(4) == 0 {
			b.WriteByte(byte(' ' + r.Intn(95))) // any printable ASCII
		} else {
			b.WriteString(parts[r.Intn(len(parts))])
		}
	}
	return b.String()
}

func TestGoNameASCII(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	extras := [][]string{nil, {"CRM"}, {"CRM", "B2B", "S"}}
	for i := 0; i < 50000; i++ {
		name := randomName(r)
		if !isASCII(name) {
			continue
		}
		for _, extra := range extras {
			if got, want := goNameASCII(name, extra), goNameRunes(name, extra); got != want {
				t.Fatalf("goNameASCII(%q, %q) = %q; goNameRunes gives %q", name, extra, got, want)
			}
		}
	}
}

func TestValidName(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 50000; i++ {
		name := randomName(r)
		if i%3 == 0 {
			name = strings.Map(func(c rune) rune {
				if c == ' ' {
					return '_'
				}
				return c
			}, name)
		}
		if got, want := validName(name), nameChars.MatchString(name); got != want {
			t.Fatalf("validName(%q) = %v; nameChars gives %v", name, got, want)
		}
	}
	for _, name := range []string{"", "_", "-", "a-", "-a", "9", "a9", "_9", "a\x80", "\xff", "aé"} {
		if got, want := validName(name), nameChars.MatchString(name); got != want {
			t.Fatalf("validName(%q) = %v; nameChars gives %v", name, got, want)
		}
	}
}

// scalarTexts are scalars of every shape yaml.v3 resolves to a bool, an
// int or a float, and near misses.
var scalarTexts = []string{
	"true", "True", "TRUE", "false", "False", "FALSE", "yes", "no", "on", "off", "y", "tRUE",
	"0", "-0", "+0", "1", "-1", "+1", "007", "-007", "10", "123456789012345678", "1234567890123456789",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
	"99999999999999999999999", "1_000", "0x1F", "-0x1F", "0o17", "0b101", "-0b101", "0777", "08", "2147483647", "2147483648",
	"1.5", "-1.5", "+1.5", "0.1", "00.5", "1.", ".5", "-.5", "1.5e3", "1e3", "1E-3", "1.5_0", ".inf", "-.inf", ".nan", "1.7976931348623157e309",
	"123456789012345678901234567890.5", "2024-01-02", "~", "null", "", "abc",
}

// scalars parses each text plain, single-quoted and with explicit tags.
func scalars(t *testing.T) []*yaml.Node {
	var b strings.Builder
	for _, s := range scalarTexts {
		for _, form := range []string{"%s", "'%s'", "!!int %s", "!!float %s", "!!bool %s", "!!str %s", "! %s"} {
			b.WriteString("- " + strings.Replace(form, "%s", s, 1) + "\n")
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(b.String()), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0].Content
}

func TestScalarFastPaths(t *testing.T) {
	for _, n := range scalars(t) {
		var b bool
		berr := n.Decode(&b)
		if got, ok := scalarBool(n); ok != (berr == nil) || got != b {
			t.Errorf("scalarBool(%s %q) = %v, %v; Decode gives %v, %v", n.Tag, n.Value, got, ok, b, berr)
		}
		var i int64
		ierr := n.Decode(&i)
		if got, ok := scalarInt(n); ok != (ierr == nil) || got != i {
			t.Errorf("scalarInt(%s %q) = %v, %v; Decode gives %v, %v", n.Tag, n.Value, got, ok, i, ierr)
		}
		var f float64
		ferr := n.Decode(&f)
		if got, ok := scalarFloat(n); ok != (ferr == nil) || got != f && !(math.IsNaN(got) && math.IsNaN(f)) {
			t.Errorf("scalarFloat(%s %q) = %v, %v; Decode gives %v, %v", n.Tag, n.Value, got, ok, f, ferr)
		}
	}
}

// TestKeyFastPaths: the ...Key readers answer as the readers they stand
// for, errors included.
func TestKeyFastPaths(t *testing.T) {
	for _, n := range scalars(t) {
		p1, p2 := &parser{file: "f"}, &parser{file: "f"}
		s1, ok1 := p1.strKey(n, "description", "in x")
		s2, ok2 := p2.str(n, "description in x")
		b1, bok1 := p1.booleanKey(n, "nullable", "in x")
		b2, bok2 := p2.boolean(n, "nullable in x")
		c1, cok1 := p1.countKey(n, "minLength", "in x", 1)
		c2, cok2 := p2.count(n, "minLength in x", 1)
		d1, dok1 := p1.exactNumberKey(n, "minimum", "in x")
		d2, dok2 := p2.exactNumber(n, "minimum in x")
		if s1 != s2 || ok1 != ok2 || b1 != b2 || bok1 != bok2 || c1 != c2 || cok1 != cok2 || dok1 != dok2 || (dok1 && d1.String() != d2.String()) {
			t.Errorf("%s %q: fast paths differ: %q %v / %q %v, %v %v / %v %v, %d %v / %d %v, %v %v / %v %v",
				n.Tag, n.Value, s1, ok1, s2, ok2, b1, bok1, b2, bok2, c1, cok1, c2, cok2, d1, dok1, d2, dok2)
		}
		if p1.errs.Error() != p2.errs.Error() {
			t.Errorf("%s %q: errors differ:\n%v\n%v", n.Tag, n.Value, p1.errs, p2.errs)
		}
	}
}

// TestExactIntegers: a plain decimal integer reads as big.Int writes it.
func TestExactIntegers(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		if r.Intn(2) == 0 {
			b.WriteByte('-')
		}
		for n := 1 + r.Intn(30); n > 0; n-- {
			b.WriteByte(byte('0' + r.Intn(10)))
		}
		s := b.String()
		if !plainDecimal(s, 0) || s == "-0" {
			continue
		}
		x, _ := new(big.Int).SetString(s, 0)
		if got, want := wire.Dec(s).String(), wire.Dec(x.String()).String(); got != want {
			t.Fatalf("%s: %s, big.Int gives %s", s, got, want)
		}
	}
}

func TestTagOf(t *testing.T) {
	var doc yaml.Node
	src := "a: &x {b: [1, '2', !!str 3, ! 4, !local 5, !<tag:yaml.org,2002:int> 6, !!binary aGk=]}\nc: *x\n<<: {d: 1}\n'<<': e\n? [k]\n: v\n"
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	nodes := scalars(t)
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		nodes = append(nodes, n)
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	for _, n := range nodes {
		if got, want := tagOf(n), n.ShortTag(); got != want {
			t.Errorf("tagOf(%v %q %q) = %q; ShortTag gives %q", n.Kind, n.Tag, n.Value, got, want)
		}
	}
}

func TestCanonical(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	values := []any{nil, true, false, int64(0), int64(-7), int64(math.MaxInt64), int64(math.MinInt64), "", "a<b", "x&y", "q\"", "b\\s", "\u2028", "é", "\x7f", "\x1f", "\xff"}
	for i := 0; i < 20000; i++ {
		b := make([]byte, r.Intn(12))
		for j := range b {
			b[j] = byte(r.Intn(256))
			if r.Intn(3) > 0 {
				b[j] = byte(' ' + r.Intn(95))
			}
		}
		values = append(values, string(b))
	}
	for _, v := range values {
		want, _ := json.Marshal(v)
		if got := canonical(v); got != string(want) {
			t.Fatalf("canonical(%#v) = %s; json.Marshal gives %s", v, got, want)
		}
	}
}
