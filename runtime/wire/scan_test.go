package wire

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestReadStringDifferential reads strings of every length up to 40 with a
// special byte (quote, backslash escape, control character, non-ASCII or
// invalid UTF-8) at each position, and compares with encoding/json: the
// eight-bytes-at-a-time scan must stop exactly where the byte loop did.
func TestReadStringDifferential(t *testing.T) {
	specials := []string{`\"`, `\\`, `\n`, `\u00e9`, "\x01", "\x1f", "é", "日", "\xff", "\xc3", "\xed\xa0\x80", "\x7f", " ", "~"}
	r := rand.New(rand.NewPCG(7, 8))
	for n := 0; n <= 40; n++ {
		for at := 0; at <= n; at++ {
			for _, sp := range specials {
				body := []byte(strings.Repeat("a", n))
				for i := range body {
					body[i] = "abcXYZ019 -_./~"[r.IntN(15)]
				}
				s := string(body[:at]) + sp + string(body[at:])
				for _, tail := range []string{``, ` `, `,"x"`, `]`, `"`} {
					doc := `"` + s + `"` + tail
					checkReadString(t, doc)
					checkReadString(t, `"`+s) // unterminated
				}
			}
		}
	}
}

func checkReadString(t *testing.T, doc string) {
	t.Helper()
	var d Decoder
	d.Reset([]byte(doc))
	got, ok := d.String()
	end := d.pos
	err := d.Finish()
	var want string
	jerr := json.Unmarshal([]byte(doc), &want)
	if jerr == nil {
		if !ok || err != nil || got != want {
			t.Fatalf("String(%q) = %q, %v, %v; encoding/json gives %q", doc, got, ok, err, want)
		}
		return
	}
	// A string followed by something else: the string itself must still
	// read as encoding/json reads it alone.
	if ok {
		var alone string
		if json.Unmarshal([]byte(doc[:end]), &alone) != nil || alone != got {
			t.Fatalf("String(%q) = %q up to %d; encoding/json reads %q there as %q", doc, got, end, doc[:end], alone)
		}
		return
	}
	if err == nil {
		t.Fatalf("String(%q) failed without an error", doc)
	}
	var d2 Decoder // the syntax error's offset agrees with the skipping scan's
	d2.Reset([]byte(doc))
	d2.Skip()
	if err2 := d2.Finish(); err2 == nil || err2.Error() != err.Error() {
		t.Fatalf("String(%q): %v; Skip: %v", doc, err, err2)
	}
}

// TestItemsHint checks the first capacity of array reads.
func TestItemsHint(t *testing.T) {
	for _, c := range []struct {
		doc  string
		max  int
		want int
	}{
		{`[]`, NoMaxItems, 0},
		{` [ ] `, NoMaxItems, 0},
		{"[\n\t]", 3, 0},
		{`[1]`, NoMaxItems, firstItems},
		{`[1,2,3]`, 2, 2},
		{`[1,2,3]`, 0, 0},
		{`[1,2,3,4,5,6]`, 20, firstItems},
		{`[`, NoMaxItems, 0},
	} {
		var d Decoder
		d.Reset([]byte(c.doc))
		if !d.BeginArray() {
			t.Fatalf("BeginArray(%q) failed", c.doc)
		}
		if got := d.ItemsHint(c.max); got != c.want {
			t.Errorf("ItemsHint(%q, %d) = %d, want %d", c.doc, c.max, got, c.want)
		}
	}
}

// TestArrayReadAllocs checks that reading an array of objects or strings
// allocates its slice once (up to firstItems items; twice up to twice as
// many), and an empty one not at all.
func TestArrayReadAllocs(t *testing.T) {
	type item struct{ A, B string }
	decodeItem := func(x *item, d *Decoder) {
		if d.BeginObject() {
			for d.NextKey() {
				d.Skip()
			}
		}
	}
	data := []byte(`{"items": [{"a": 1}, {"b": 2}, {}, {}, {}, {}, {}], "s": ["xx", "yy", "zz"], "e": []}`)
	var d Decoder
	allocs := testing.AllocsPerRun(100, func() {
		d.Reset(data)
		var items []item
		var strs, empty []string
		var seenI, seenS, seenE bool
		if d.BeginObject() {
			for d.NextKey() {
				switch string(d.Name()) {
				case "items":
					ReqObjects(&d, &seenI, "items", &items, NoMaxItems, decodeItem, nil)
				case "s":
					d.ReqStrings(&seenS, "s", &strs, 5, nil, nil)
				case "e":
					d.ReqStrings(&seenE, "e", &empty, NoMaxItems, nil, nil)
				}
			}
		}
		if len(items) != 7 || len(strs) != 3 || empty == nil || len(empty) != 0 || d.Finish() != nil {
			t.Fatalf("read %d items, %d strings: %v", len(items), len(strs), d.Finish())
		}
	})
	if allocs != 4 { // the items (4, then 8), the strings' slice, and one block for the three strings
		t.Fatalf("%v allocations, want 4", allocs)
	}
}

// TestStringBlocks reads documents of strings of every length around
// strMax, escaped or not, through Decoders reused across documents (as
// the pool reuses them), and checks each string against encoding/json,
// also after everything else was read: a string copied into a shared block
// is never overwritten by a later one.
func TestStringBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var d Decoder
	var kept, want []string
	for doc := 0; doc < 200; doc++ {
		var parts []string
		for range r.IntN(40) {
			n := r.IntN(strMax + 40)
			b := make([]byte, n)
			for i := range b {
				b[i] = "abcxyz019 -é"[r.IntN(12)]
			}
			s := string(b)
			if r.IntN(4) == 0 {
				s += `\n\u00e9`
			}
			parts = append(parts, `"`+s+`"`)
		}
		data := []byte("[" + strings.Join(parts, ", ") + "]")
		var ref []string
		if err := json.Unmarshal(data, &ref); err != nil {
			t.Fatal(err)
		}
		d.Reset(data)
		var got []string
		if d.BeginArray() {
			for d.NextItem() {
				s, ok := d.String()
				if !ok {
					t.Fatalf("doc %d: %v", doc, d.Finish())
				}
				got = append(got, s)
			}
		}
		if err := d.Finish(); err != nil || len(got) != len(ref) {
			t.Fatalf("doc %d: %d strings, want %d (%v)", doc, len(got), len(ref), err)
		}
		kept = append(kept, got...)
		want = append(want, ref...)
		for i := range data {
			data[i] = 'X' // the strings are copies, not views of the input
		}
	}
	for i := range kept {
		if kept[i] != want[i] {
			t.Fatalf("string %d: %q, want %q", i, kept[i], want[i])
		}
	}
}

// TestShortInt compares Int, which reads short integers in one pass, with
// its general case on numbers of every shape, followed by what may follow
// them.
func TestShortInt(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	nums := []string{"0", "-0", "7", "-7", "01", "-01", "00", "-", "1.5", "2.0", "1e3", "1E3", "-1e-2", "10.", "123456789012345678",
		"-123456789012345678", "1234567890123456789", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
		"-9223372036854775809", "99999999999999999999", "0.0", "0e0"}
	for range 300 {
		var b strings.Builder
		if r.IntN(3) == 0 {
			b.WriteByte('-')
		}
		for range 1 + r.IntN(21) {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
		nums = append(nums, b.String())
	}
	// Every byte after one to nine digits, on the eight-byte path.
	for c := range 256 {
		for k := 1; k <= 9; k++ {
			nums = append(nums, strings.Repeat("9", k-1)+"1"+string([]byte{byte(c)})+"        ")
		}
	}
	for _, n := range nums {
		for _, tail := range []string{"", " ", ",", "}", "]", "x", ".5", "e2", "5", ", 12345678", "}        ", "9999999999", ".", "E", "\x00\xff\xff\xff\xff\xff\xff\xff\xff", "/:/:/:/:/:"} {
			doc := n + tail
			var d1, d2 Decoder
			d1.Reset([]byte(doc))
			d2.Reset([]byte(doc))
			v1, ok1 := d1.Int()
			d2.ws()
			v2, ok2 := d2.longInt()
			e1, e2 := d1.Finish(), d2.Finish()
			if v1 != v2 || ok1 != ok2 || d1.pos != d2.pos || (e1 == nil) != (e2 == nil) || e1 != nil && e1.Error() != e2.Error() {
				t.Fatalf("Int(%q) = %d, %v at %d (%v); the general case gives %d, %v at %d (%v)", doc, v1, ok1, d1.pos, e1, v2, ok2, d2.pos, e2)
			}
		}
	}
}

// TestNextKeyFastPath compares NextKey, which reads the common `, "key":`
// on a fast path, with its general case on objects with every kind of
// damage.
func TestNextKeyFastPath(t *testing.T) {
	docs := []string{`{}`, `{ }`, `{"a":1}`, `{"a" : 1 , "b":2}`, "{\n \"a\":\t1,\r\n\"b\" :2\n}", `{"a":1,}`, `{,"a":1}`,
		`{"a"1}`, `{"a":1 "b":2}`, `{"a":1,,"b":2}`, `{a:1}`, `{"a":1`, `{"a":1,`, `{"a`, `{"a"`, `{"a":`, `{"a\"b":1}`,
		`{"a\u0041":1,"é":2}`, "{\"a\x01\":1}", `{"a":1}}`, `{"a":{"b":{}},"c":[]}`, `{"a":1 , }`, `{"a":1, 2}`, `{"":1}`}
	// Keys of every length to 20 with a byte that ends the quick scan (or
	// does not: DEL, '~') at each position, across the eight-byte steps.
	for n := 0; n <= 20; n++ {
		for at := 0; at <= n; at++ {
			for _, sp := range []string{`\"`, `\n`, `\u00e9`, "\x01", "\x1f", "é", "\xff", "\x7f", "~", `"`, ""} {
				key := strings.Repeat("k", at) + sp + strings.Repeat("y", n-at)
				docs = append(docs, `{"`+key+`":1,"`+key+`x" :2}`, `{"`+key+`"`, `{ "`+key)
			}
		}
	}
	for _, doc := range docs {
		walkKeys := func(next func(*Decoder) bool) (string, error) {
			var d Decoder
			d.Reset([]byte(doc))
			var names []string
			if d.BeginObject() {
				for next(&d) {
					names = append(names, string(d.Name()))
					d.Skip()
				}
			}
			return strings.Join(names, "|") + "@" + strconv.Itoa(d.pos), d.Finish()
		}
		n1, e1 := walkKeys((*Decoder).NextKey)
		n2, e2 := walkKeys((*Decoder).nextKey)
		if n1 != n2 || (e1 == nil) != (e2 == nil) || e1 != nil && e1.Error() != e2.Error() {
			t.Errorf("NextKey on %q: %s, %v; the general case: %s, %v", doc, n1, e1, n2, e2)
		}
	}
}

// TestNextFieldFastPath compares the table's key reading (nextField, which
// compares the raw key with the names it expects next) with NextKey and a
// lookup, on objects of keys equal to, near and escaped forms of a table's
// names, in and out of order, with every spacing and damage.
func TestNextFieldFastPath(t *testing.T) {
	fields := []Field{{Name: "a"}, {Name: "bb"}, {Name: "name"}, {Name: "names"}, {Name: "x_y"}, {Name: "unit_price"}, {Name: ""}}
	keys := []string{`"a"`, `"bb"`, `"name"`, `"names"`, `"x_y"`, `"unit_price"`, `""`, `"nam"`, `"namex"`, `"n\u0061me"`, `"a\""`,
		`"b"`, `"unit_pric"`, `"unit_price\n"`, `"é"`, `"names`, `"a`, `a`, `"bb" `, `"x_y"` + "\t"}
	seps := []string{`,`, `, `, ",\n  ", ` ,`, ``, `,,`}
	colons := []string{`:`, ` :`, `: `, ``, `::`}
	r := rand.New(rand.NewPCG(9, 10))
	walk := func(doc string, table bool) string {
		var d Decoder
		d.Reset([]byte(doc))
		var out []string
		if d.BeginObject() {
			next := 0
			for {
				var i int
				if table {
					if i = d.nextField(fields, next); i == endObject {
						break
					}
				} else {
					if !d.NextKey() {
						break
					}
					i = lookup(fields, d.Name(), next)
				}
				key := string(d.Name()) // (nextField sets it for an unknown key only)
				if i >= 0 {
					next = i + 1
					key = fields[i].Name
				}
				out = append(out, strconv.Itoa(i)+"="+key)
				d.Skip()
			}
		}
		err := d.Finish()
		return strings.Join(out, "|") + "@" + strconv.Itoa(d.pos) + " " + fmt.Sprint(err)
	}
	for range 20000 {
		var b strings.Builder
		b.WriteString([]string{"{", "{ ", "{\n"}[r.IntN(3)])
		for j := range r.IntN(6) {
			if j > 0 {
				b.WriteString(seps[r.IntN(len(seps))])
			}
			b.WriteString(keys[r.IntN(len(keys))])
			b.WriteString(colons[r.IntN(len(colons))])
			b.WriteString([]string{"1", `"v"`, "{}", "[1]", ""}[r.IntN(5)])
		}
		b.WriteString([]string{"}", " }", "", ",}", "}}"}[r.IntN(5)])
		doc := b.String()
		if got, want := walk(doc, true), walk(doc, false); got != want {
			t.Fatalf("%s\nnextField:      %s\nNextKey+lookup: %s", doc, got, want)
		}
	}
}

// TestIsUUIDMutations compares IsUUID with the definition (hex digits, and
// dashes at 8, 13, 18 and 23) on every one-byte change of a UUID.
func TestIsUUIDMutations(t *testing.T) {
	ref := func(s string) bool {
		if len(s) != 36 {
			return false
		}
		for i := 0; i < 36; i++ {
			if dash := i == 8 || i == 13 || i == 18 || i == 23; dash != (s[i] == '-') || !dash && !isHex(s[i]) {
				return false
			}
		}
		return true
	}
	const u = "123e4567-e89b-12d3-a456-426614174000"
	for i := range len(u) {
		for _, c := range []byte("-gGaAfF09 /:@`\x00\x80\xff") {
			s := u[:i] + string(c) + u[i+1:]
			if got, want := IsUUID(s), ref(s); got != want {
				t.Errorf("IsUUID(%q) = %v, want %v", s, got, want)
			}
			if got := IsUUID([]byte(s)); got != ref(s) {
				t.Errorf("IsUUID([]byte(%q)) = %v", s, got)
			}
		}
	}
	// Two changes at once (a dash moved, a dash and a bad byte: what a sum
	// of the bytes' weights must not mistake for a UUID).
	for i := range len(u) {
		for j := i + 1; j < len(u); j++ {
			for _, c := range []byte("-g0\x00\xff") {
				for _, e := range []byte("-aZ\x01") {
					s := u[:i] + string(c) + u[i+1:j] + string(e) + u[j+1:]
					if got, want := IsUUID(s), ref(s); got != want {
						t.Fatalf("IsUUID(%q) = %v, want %v", s, got, want)
					}
				}
			}
		}
	}
}

// TestLocalPartMutations compares the email check's dot-string local part
// with its definition (atoms of letters, digits and atext joined by single
// dots) on every one- and two-byte change of some local parts.
func TestLocalPartMutations(t *testing.T) {
	ref := func(s string) bool {
		for _, atom := range strings.Split(s, ".") {
			if atom == "" {
				return false
			}
			for i := 0; i < len(atom); i++ {
				if c := atom[i]; !isAlpha(c) && !isDigit(c) && !isAtext(c) {
					return false
				}
			}
		}
		return true
	}
	chars := []byte(".a9!~ @\"\\\x00\x80")
	for _, l := range []string{"first.last", "a", "x!#$%&'*+-/=?^_`{|}~y", "a.b.c"} {
		check := func(s string) {
			if s == "" || s[0] == '"' {
				return // a quoted local part: another rule
			}
			e := s + "@example.com"
			if got, want := isLocalPart(e, len(s)), ref(s); got != want {
				t.Fatalf("isLocalPart(%q) = %v, want %v", s, got, want)
			}
		}
		check(l)
		for i := range len(l) {
			for _, c := range chars {
				check(l[:i] + string(c) + l[i+1:])
				check(l[:i] + string(c) + l[i:])
				for j := i + 1; j < len(l); j++ {
					for _, e := range chars {
						check(l[:i] + string(c) + l[i+1:j] + string(e) + l[j+1:])
					}
				}
			}
		}
	}
}

// TestHostnameMutations compares the email check's hostname part with the
// definition (labels of 1 to 63 letters, digits and '-', not starting or
// ending with '-', joined by dots) on every one- and two-byte change of
// some addresses.
func TestHostnameMutations(t *testing.T) {
	ref := func(s string) bool {
		if s == "" || len(s) > 253 {
			return false
		}
		for _, l := range strings.Split(s, ".") {
			if len(l) < 1 || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
				return false
			}
			for i := 0; i < len(l); i++ {
				if c := l[i]; !isAlpha(c) && !isDigit(c) && c != '-' {
					return false
				}
			}
		}
		return true
	}
	hosts := []string{"acme-industries.example", "a.b", "x", "mail.example.com", strings.Repeat("a", 63) + ".io", "a-b.c-d.e"}
	chars := []byte(".-aZ9_ @\x00\x80")
	for _, h := range hosts {
		check := func(s string) {
			if got, want := isHostname(s, 0, len(s)), ref(s); got != want {
				t.Fatalf("isHostname(%q) = %v, want %v", s, got, want)
			}
			e := "me@" + s
			if got := isHostname(e, 3, len(e)); got != ref(s) {
				t.Fatalf("isHostname(%q, 3) = %v", e, got)
			}
		}
		check(h)
		for i := range len(h) {
			for _, c := range chars {
				check(h[:i] + string(c) + h[i+1:])
				check(h[:i] + string(c) + h[i:])
				for j := i + 1; j < len(h) && j < i+4; j++ {
					for _, e := range chars {
						check(h[:i] + string(c) + h[i+1:j] + string(e) + h[j+1:])
					}
				}
			}
		}
	}
}

// TestShortFloat compares parseFloat's short path (shortFloat) with
// strconv.ParseFloat bit for bit on random decimals of up to 17 digits
// with the point anywhere, and on the numbers where rounding is hardest
// to get right.
func TestShortFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	toks := []string{"0.1", "0.2", "0.3", "-0.0", "0.0", "9007199254740993.0", "999999999999999.9", "0.000000000000001",
		"123456789012345", "1234567890.12345", "8.589973e9", "5e-324", "1.7976931348623157", "4.35", "2.675", "0.1e1"}
	for range 100000 {
		n := 1 + r.IntN(17)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
		}
		if n > 1 && b[0] == '0' {
			b[0] = '1'
		}
		s := string(b)
		if at := r.IntN(n + 1); at > 0 && at < n {
			s = s[:at] + "." + s[at:]
		}
		if r.IntN(2) == 0 {
			s = "-" + s
		}
		toks = append(toks, s)
	}
	short := 0
	for _, tok := range toks {
		want, err := strconv.ParseFloat(tok, 64)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := parseFloat([]byte(tok), !strings.ContainsAny(tok, ".eE"))
		if !ok || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("parseFloat(%s) = %v, %v; strconv: %v", tok, got, ok, want)
		}
		if _, ok := shortFloat([]byte(tok)); ok {
			short++
		}
	}
	if short < len(toks)/2 {
		t.Errorf("only %d of %d numbers took the short path", short, len(toks))
	}
}
