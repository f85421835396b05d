package proptest

import (
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// The random specs: schemas drawn over the whole subset toolgen supports
// (every type, nesting, nullability, named types, maps, free-form values,
// arrays of everything, bounds, formats, patterns, enums, defaults, trim,
// batch tools), written as JSON Schema-shaped maps (JSON is YAML, so a spec
// file is written from them directly), and instances drawn from a schema:
// mostly near-valid, then mutated.

// schema is one drawn schema: JSON Schema keywords, numbers as json.Number
// (their text is what the spec says), plus toolgen's own "trim" and
// "nullable" (only beside $ref).
type schema = map[string]any

// drawer draws specs and instances.
type drawer struct {
	r     *rand.Rand
	types map[string]schema // named types, by name
	names []string          // named types in declaration order
	// force is the kind the next draw takes ("" for a random one): an
	// alternative of a union (union_test.go).
	force string
}

func (d *drawer) intn(n int) int        { return d.r.IntN(n) }
func (d *drawer) chance(p float64) bool { return d.r.Float64() < p }
func (d *drawer) pick(s ...string) string {
	return s[d.intn(len(s))]
}

// propNames are property names: distinct Go names, some not identifiers in
// JSON paths.
var propNames = []string{"a", "b", "id", "name", "due_date", "x-y", "count", "tags", "meta", "when", "v", "items", "extra", "url", "z9"}

// patterns are the patterns specs use, with strings some of which match.
var patterns = []struct {
	re      string
	samples []string
}{
	{`^[a-z]+$`, []string{"abc", "x", "", "Abc", "ab1", "é"}},
	{`^\d{3}-\d{4}$`, []string{"555-1234", "55-1234", "555-12345", "٣٣٣-1234"}},
	{`ab`, []string{"xaby", "ab", "ba", ""}},
	{`^(x|yz)*$`, []string{"", "xyzx", "xy", "yzyz"}},
	{`^.{2,4}$`, []string{"ab", "日本語", "a", "abcde", "a\nb"}},
}

// formatSamples are strings for each format: valid and invalid ones, per
// the RFCs (the reference validator decides). Not drawn, because the
// reference is wrong about them: "@x.com" (it accepts an empty local part;
// RFC 5321 wants one), "http://x/a b" (it follows net/url, which lets a
// space into a path; RFC 3986 does not). runtime/wire's TestFormatsRFC
// pins both.
var formatSamples = map[string][]string{
	"date-time": {"2024-01-31T09:30:00Z", "2024-01-31t09:30:00z", "2024-01-31T09:30:00.123456789+05:30",
		"2024-02-30T00:00:00Z", "2016-12-31T23:59:60Z", "2016-12-31T22:59:60-01:00", "2016-12-31T23:59:60+01:00",
		"2024-01-31 09:30:00Z", "2024-01-31T24:00:00Z", "2024-01-31T09:30:00", "2024-01-31T09:30:00.Z",
		"2024-01-31T09:30:00+24:00", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "2024-01-31T09:30:00.5-00:00"},
	"date":  {"2024-01-31", "2024-02-29", "2023-02-29", "2024-1-31", "2024-13-01", "2024-01-31T00:00:00Z", "0001-01-01"},
	"email": {"a@b.co", "first.last@example.com", `"quoted local"@example.com`, "a..b@x.com", "a@[127.0.0.1]", "a@[IPv6:::1]", "a@[IPv6:zz]", "a@-x.com", "a.@x.com", "a@x", "a@256.1.1.1"},
	"uri": {"https://example.com/", "http://[::1]:8080/x", "http://[::1", "http://example.com:port/", "mailto:a@b.c",
		"urn:isbn:123", "/relative", "http://ex%zz.com", "https://example.com/a?b=c#d", "http://[fe80::1%25en0]/", "x:", "1http://a"},
	"uuid": {"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000", "123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g"},
}

// plainStrings are strings for schemas without a format or pattern.
var plainStrings = []string{"", "a", "ab", "abc", "hello world", " padded ", "\t x\n", "é", "日本語", "a\u00a0", "\u2028", "x\"y", "\\", "a\u0000b", "0123456789abcdef"}

// drawFile draws a spec: some named types and tools, each tool's params an
// object of random properties.
func (d *drawer) drawFile(tools int) (spec string, params map[string]schema) {
	d.types = map[string]schema{}
	d.names = nil
	params = map[string]schema{}
	var b strings.Builder
	b.WriteString("toolgen: 1\nprovider: pt\npackage: p\n")
	nTypes := 1 + d.intn(4)
	b.WriteString("types:\n")
	for i := 0; i < nTypes; i++ {
		name := "T" + strconv.Itoa(i)
		s := d.draw(2, true)
		delete(s, "default") // a named type's own default is drawn below, checked
		if d.chance(0.2) && !d.hasUnion(s) {
			if v, ok := d.validDefault(s); ok {
				s["default"] = v
			}
		}
		d.types[name] = s
		d.names = append(d.names, name)
		fmt.Fprintf(&b, "  %s: %s\n", name, jsonText(s))
	}
	b.WriteString("tools:\n")
	for i := 0; i < tools; i++ {
		name := "pt_t" + strconv.Itoa(i)
		props := schema{}
		var req []any
		for _, p := range d.someNames(d.intn(5)) {
			props[p] = d.draw(3, false)
			if d.chance(0.4) {
				req = append(req, p)
				delete(props[p].(schema), "default")
			}
		}
		fmt.Fprintf(&b, "  - name: %s\n    description: Tool %d.\n    params: %s\n", name, i, jsonText(props))
		if len(req) > 0 {
			fmt.Fprintf(&b, "    required: %s\n", jsonText(req))
		}
		params[name] = schema{"type": "object", "properties": props, "required": req}
		if d.chance(0.15) {
			fmt.Fprintf(&b, "    batch: {max_items: %d}\n", 1+d.intn(4))
		}
	}
	return b.String(), params
}

func (d *drawer) someNames(n int) []string {
	names := slices.Clone(propNames)
	d.r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	return names[:n]
}

func jsonText(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return strings.TrimSpace(b.String())
}

// draw draws a schema nesting at most depth more levels. inType: inside a
// named type (no references, so no cycles).
func (d *drawer) draw(depth int, inType bool) schema {
	kinds := []string{"string", "string", "integer", "number", "boolean"}
	if depth > 0 {
		kinds = append(kinds, "array", "array", "object", "object", "map", "free")
	}
	if !inType && len(d.names) > 0 {
		kinds = append(kinds, "ref")
	}
	if depth > 0 {
		kinds = append(kinds, "union")
	}
	s := schema{}
	k := kinds[d.intn(len(kinds))]
	if d.force != "" {
		k, d.force = d.force, ""
	}
	if k == "union" {
		return d.drawUnion(depth)
	}
	typ := k
	switch k {
	case "ref":
		s["$ref"] = "#/types/" + d.names[d.intn(len(d.names))]
		if d.chance(0.2) {
			s["nullable"] = true
		}
		if d.chance(0.15) && !d.hasUnion(s) {
			if v, ok := d.validDefault(s); ok {
				s["default"] = v
			}
		}
		return s
	case "string":
		s["type"] = "string"
		if d.chance(0.3) {
			s["minLength"] = json.Number(strconv.Itoa(d.intn(3)))
		}
		if d.chance(0.3) {
			s["maxLength"] = json.Number(strconv.Itoa(3 + d.intn(5)))
		}
		if d.chance(0.25) {
			s["trim"] = true
		}
		switch d.intn(6) {
		case 0:
			// Enum values the other keywords accept (the loader wants that).
			var enum []any
			for i := 0; i < 1+d.intn(4); i++ {
				v := d.pick(plainStrings...)
				if !slices.Contains(enum, any(v)) && d.accepts(s, v) {
					enum = append(enum, v)
				}
			}
			if len(enum) > 0 {
				s["enum"] = enum
			}
		case 1:
			s["format"] = d.pick("date-time", "date", "email", "uri", "uuid")
		case 2:
			s["pattern"] = patterns[d.intn(len(patterns))].re
		}
	case "integer", "number":
		d.numberKeywords(s, k == "integer")
	case "boolean":
	case "array":
		s["items"] = d.draw(depth-1, inType)
		if d.chance(0.3) {
			s["minItems"] = json.Number(strconv.Itoa(d.intn(2)))
		}
		if d.chance(0.3) {
			s["maxItems"] = json.Number(strconv.Itoa(1 + d.intn(4)))
		}
		if d.chance(0.35) {
			s["uniqueItems"] = true
		}
	case "object":
		typ = "object"
		props := schema{}
		var req []any
		for _, p := range d.someNames(1 + d.intn(3)) {
			props[p] = d.draw(depth-1, inType)
			if d.chance(0.4) {
				req = append(req, p)
				delete(props[p].(schema), "default")
			}
		}
		s["properties"] = props
		if len(req) > 0 {
			s["required"] = req
		}
		switch d.intn(4) {
		case 0:
			s["additionalProperties"] = true
		case 1:
			s["additionalProperties"] = d.draw(depth-1, inType)
		}
	case "map":
		typ = "object"
		s["additionalProperties"] = d.draw(depth-1, inType)
	case "free":
		typ = "object"
		if d.chance(0.5) {
			s["additionalProperties"] = true
		}
	}
	if d.chance(0.2) {
		s["type"] = []any{typ, "null"}
	} else {
		s["type"] = typ
	}
	if (k == "array" || k == "object" || k == "map") && d.chance(0.08) && !d.hasUnion(s) && constLoads(d, s) {
		// A const of an array or object (compared by JSON equality); no
		// default beside it.
		if v, ok := d.validDefault(s); ok && v != nil { // a const is not null
			s["const"] = v
			return s
		}
	}
	if d.chance(0.15) && k != "free" && !d.hasUnion(s) {
		if v, ok := d.validDefault(s); ok {
			s["default"] = v
		}
	}
	return s
}

// numberKeywords draws bounds and multipleOf for an integer or number.
func (d *drawer) numberKeywords(s schema, integer bool) {
	num := func() json.Number {
		if integer {
			return json.Number(d.pick("0", "1", "-3", "10", "100", "9007199254740993", "-9007199254740993", "9223372036854775807", "-9223372036854775808"))
		}
		return json.Number(d.pick("0", "0.5", "-2.25", "10", "1e3", "0.1", "9007199254740993", "1.5e-7"))
	}
	lo, hi := "minimum", "maximum"
	if d.chance(0.3) {
		lo = "exclusiveMinimum"
	}
	if d.chance(0.3) {
		hi = "exclusiveMaximum"
	}
	var a, b json.Number
	if d.chance(0.4) {
		a = num()
		s[lo] = a
	}
	if d.chance(0.4) {
		b = num()
		if a != "" && cmpNum(string(a), string(b)) >= 0 {
			// Keep lo < hi: the loader refuses a range with no value.
			delete(s, lo)
		}
		s[hi] = b
	}
	if d.chance(0.3) {
		if integer {
			s["multipleOf"] = json.Number(d.pick("1", "2", "3", "7", "1000"))
		} else {
			s["multipleOf"] = json.Number(d.pick("0.1", "0.01", "1", "2.5", "3", "1e-9"))
		}
	}
	if d.chance(0.15) {
		var enum []any
		for _, v := range []string{"1", "2", "3", "10", "-1", "0.5"} {
			if (integer && v == "0.5") || !d.chance(0.5) {
				continue
			}
			if checkNumberKeywords(s, v) {
				enum = append(enum, json.Number(v))
			}
		}
		if len(enum) > 0 {
			s["enum"] = enum
		}
	}
}

// cmpNum compares two decimal numbers exactly.
func cmpNum(a, b string) int {
	x, _ := new(big.Rat).SetString(a)
	y, _ := new(big.Rat).SetString(b)
	return x.Cmp(y)
}

// checkNumberKeywords reports whether v meets the bounds and multipleOf of
// s (for drawing enum values the loader accepts).
func checkNumberKeywords(s schema, v string) bool {
	x, _ := new(big.Rat).SetString(v)
	get := func(k string) *big.Rat {
		n, ok := s[k].(json.Number)
		if !ok {
			return nil
		}
		r, _ := new(big.Rat).SetString(string(n))
		return r
	}
	if m := get("minimum"); m != nil && x.Cmp(m) < 0 {
		return false
	}
	if m := get("maximum"); m != nil && x.Cmp(m) > 0 {
		return false
	}
	if m := get("exclusiveMinimum"); m != nil && x.Cmp(m) <= 0 {
		return false
	}
	if m := get("exclusiveMaximum"); m != nil && x.Cmp(m) >= 0 {
		return false
	}
	if m := get("multipleOf"); m != nil {
		q := new(big.Rat).Quo(x, m)
		if !q.IsInt() {
			return false
		}
	}
	return true
}

// validDefault draws a default for s that the reference validator accepts
// (and that a trimmed string already is trimmed, as the loader wants).
func (d *drawer) validDefault(s schema) (any, bool) {
	ref := compileRef(d.refDoc(s))
	for try := 0; try < 8; try++ {
		v := d.instance(s, 2)
		if ref.Validate(reparse(v)) == nil && !untrimmed(d, s, v) && !hugeInt(v) {
			return v, true
		}
	}
	return nil, false
}

// hugeInt reports whether v holds a whole number beyond int64: the spec's
// values (defaults) hold integers as int64, and the loader says so of a
// larger one ("the integer … is too large"), a documented limit.
func hugeInt(v any) bool {
	switch x := v.(type) {
	case json.Number:
		r, _ := new(big.Rat).SetString(string(x))
		return r.IsInt() && !r.Num().IsInt64()
	case []any:
		return slices.ContainsFunc(x, hugeInt)
	case map[string]any:
		for _, e := range x {
			if hugeInt(e) {
				return true
			}
		}
	}
	return false
}

// accepts reports whether the reference accepts v for s, and v is trimmed
// where s trims.
func (d *drawer) accepts(s schema, v any) bool {
	return compileRef(d.refDoc(s)).Validate(reparse(v)) == nil && !untrimmed(d, s, v)
}

// resolve follows a $ref to the named type's schema.
func (d *drawer) resolve(s schema) (schema, bool) {
	nullable := false
	for {
		r, ok := s["$ref"].(string)
		if !ok {
			break
		}
		if n, _ := s["nullable"].(bool); n {
			nullable = true
		}
		s = d.types[strings.TrimPrefix(r, "#/types/")]
	}
	if t, ok := s["type"].([]any); ok && len(t) == 2 {
		nullable = true
	}
	return s, nullable
}

func typeOf(s schema) string {
	switch t := s["type"].(type) {
	case string:
		return t
	case []any:
		return t[0].(string)
	}
	return ""
}

// untrimmed reports whether v has a string with white space at its ends at
// a place whose schema trims.
func untrimmed(d *drawer, s schema, v any) bool {
	r, _ := d.resolve(s)
	switch x := v.(type) {
	case string:
		t, _ := r["trim"].(bool)
		return t && strings.TrimSpace(x) != x
	case []any:
		items, _ := r["items"].(schema)
		for _, it := range x {
			if items != nil && untrimmed(d, items, it) {
				return true
			}
		}
	case map[string]any:
		props, _ := r["properties"].(schema)
		addl, _ := r["additionalProperties"].(schema)
		for k, it := range x {
			ps, ok := props[k].(schema)
			if !ok {
				ps = addl
			}
			if ps != nil && untrimmed(d, ps, it) {
				return true
			}
		}
	}
	return false
}

// instance draws a value for s, mostly valid, nesting at most depth more
// levels of free-form values.
func (d *drawer) instance(s schema, depth int) any {
	r, nullable := d.resolve(s)
	if alts, null := alternatives(r); len(alts) > 0 {
		if (nullable || null) && d.chance(0.15) {
			return nil
		}
		return d.instance(alts[d.intn(len(alts))], depth)
	}
	if nullable && d.chance(0.15) {
		return nil
	}
	if c, ok := r["const"]; ok && d.chance(0.8) {
		return c
	}
	if e, ok := r["enum"].([]any); ok && d.chance(0.8) {
		return e[d.intn(len(e))]
	}
	switch typeOf(r) {
	case "string":
		var v string
		switch {
		case r["format"] != nil:
			v = d.pick(formatSamples[r["format"].(string)]...)
		case r["pattern"] != nil:
			for _, p := range patterns {
				if p.re == r["pattern"] {
					v = d.pick(p.samples...)
				}
			}
		default:
			v = d.pick(plainStrings...)
		}
		if t, _ := r["trim"].(bool); t && d.chance(0.3) {
			v = d.pick(" ", "\t", "\n ", "\u00a0", "\u2028") + v + d.pick("", " ", "\r\n")
		}
		return v
	case "integer", "number":
		return d.number(r, typeOf(r) == "integer")
	case "boolean":
		return d.chance(0.5)
	case "array":
		n := d.intn(4)
		if mx, ok := r["maxItems"].(json.Number); ok && d.chance(0.8) {
			m, _ := strconv.Atoi(string(mx))
			n = min(n, m)
		}
		out := []any{}
		items := r["items"].(schema)
		for i := 0; i < n; i++ {
			if i > 0 && d.chance(0.15) {
				out = append(out, out[d.intn(i)]) // a repeat, for uniqueItems
				continue
			}
			out = append(out, d.instance(items, depth))
		}
		return out
	case "object":
		out := map[string]any{}
		props, _ := r["properties"].(schema)
		req, _ := r["required"].([]any)
		for _, k := range sortedKeys(props) {
			if slices.Contains(req, any(k)) || d.chance(0.6) {
				out[k] = d.instance(props[k].(schema), depth)
			}
		}
		switch a := r["additionalProperties"].(type) {
		case schema:
			for i := d.intn(3); i > 0; i-- {
				out[d.pick("k1", "k2", "a", "the key", "ünï")] = d.instance(a, depth)
			}
		case bool:
			for i := d.intn(3); i > 0; i-- {
				out[d.pick("k1", "k2", "free")] = d.freeValue(depth)
			}
		}
		return out
	}
	return nil
}

// freeValue draws any JSON value.
func (d *drawer) freeValue(depth int) any {
	n := 6
	if depth <= 0 {
		n = 4
	}
	switch d.intn(n) {
	case 0:
		return nil
	case 1:
		return d.chance(0.5)
	case 2:
		return json.Number(d.pick("0", "1.5", "-2e3", "1.0", "12345678901234567890"))
	case 3:
		return d.pick(plainStrings...)
	case 4:
		var out []any
		for i := d.intn(3); i > 0; i-- {
			out = append(out, d.freeValue(depth-1))
		}
		return append([]any{}, out...)
	default:
		out := map[string]any{}
		for i := d.intn(3); i > 0; i-- {
			out[d.pick("a", "b", "c")] = d.freeValue(depth - 1)
		}
		return out
	}
}

// number draws a number near the bounds of r, as text in several
// spellings.
func (d *drawer) number(r schema, integer bool) json.Number {
	var cands []*big.Rat
	for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"} {
		if n, ok := r[k].(json.Number); ok {
			x, _ := new(big.Rat).SetString(string(n))
			cands = append(cands, x)
		}
	}
	cands = append(cands, big.NewRat(0, 1), big.NewRat(int64(d.intn(200)-100), 1))
	x := new(big.Rat).Set(cands[d.intn(len(cands))])
	if m, ok := r["multipleOf"].(json.Number); ok && d.chance(0.6) {
		mr, _ := new(big.Rat).SetString(string(m))
		x.Mul(mr, big.NewRat(int64(d.intn(20)-10), 1))
	}
	switch d.intn(8) {
	case 0:
		x.Add(x, big.NewRat(1, 1))
	case 1:
		x.Sub(x, big.NewRat(1, 1))
	case 2:
		x.Add(x, big.NewRat(1, 2))
	case 3:
		x.Add(x, big.NewRat(1, 10000000000))
	}
	if !integer && d.chance(0.1) {
		x.Quo(x, big.NewRat(3, 1)) // a value that has no short decimal
	}
	return json.Number(spell(d, x))
}

// spell writes x as a JSON number: an integer as "12", "12.0", "1.2e1" or
// "120e-1"; other values as a decimal.
func spell(d *drawer, x *big.Rat) string {
	if x.IsInt() {
		s := x.Num().String()
		switch d.intn(6) {
		case 0:
			return s + ".0"
		case 1:
			if len(s) > 1 && s[0] != '-' {
				return s[:1] + "." + s[1:] + "e" + strconv.Itoa(len(s)-1)
			}
		case 2:
			if s != "0" {
				return s + "0e-1"
			}
		}
		return s
	}
	f, _ := x.Float64()
	if d.chance(0.5) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return x.FloatString(20)
}
