package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/toolgen/toolgen/runtime/wire"
)

// deflt is a `default:` waiting for references to be resolved.
type deflt struct {
	schema   *Schema
	key, val *yaml.Node
	sub      subject
}

// value converts a YAML node to a plain value: nil, bool, int64, float64,
// string, []any or map[string]any. With p.exact (examples), a number
// that is not an int64 and is written as JSON writes numbers is a
// json.Number holding it as written, judged as the decoder judges the
// text it reads (a number beyond int64 or float64 goes into a free-form
// value as it is; 0.1000000000000000001 is above a maximum of 0.1), and
// sent as written.
func (p *parser) value(n *yaml.Node) (any, bool) {
	d := p.expand(n)
	if d == nil {
		return nil, false
	}
	switch d.Kind {
	case yaml.ScalarNode:
		switch tagOf(d) {
		case "!!null":
			return nil, true
		case "!!bool":
			if b, ok := scalarBool(d); ok {
				return b, true
			}
		case "!!int":
			if i, ok := scalarInt(d); ok {
				return i, true
			}
			if _, ok := wire.ParseDecimal(d.Value); ok && p.exact {
				return json.Number(d.Value), true
			}
			p.errorf(n, "the integer %s is too large", d.Value)
			return nil, false
		case "!!float":
			// A float written whole (5.0, 9.223372036854775807e18) is that
			// integer exactly: an integer default or enum value keeps it.
			if x, ok := wire.ParseDecimal(d.Value); ok {
				if i, ok := x.Int64(); ok {
					return i, true
				}
				if p.exact {
					return json.Number(d.Value), true
				}
			}
			if f, ok := scalarFloat(d); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
				return f, true
			}
			p.errorf(n, "%s is not a finite number; JSON has no infinities or NaN", d.Value)
			return nil, false
		}
		// Strings, and what YAML would make a timestamp or binary: JSON
		// reads them as strings.
		return d.Value, true
	case yaml.SequenceNode:
		out := make([]any, 0, len(d.Content))
		ok := true
		for _, c := range d.Content {
			v, vok := p.value(c)
			ok = ok && vok
			out = append(out, v)
		}
		return out, ok
	case yaml.MappingNode:
		f := p.mapping(d, "a value", "in a value", nil)
		if f == nil {
			return nil, false
		}
		out := make(map[string]any, len(f.list))
		ok := true
		for _, e := range f.list {
			v, vok := p.value(e.Val)
			ok = ok && vok
			out[e.name] = v
		}
		return out, ok
	}
	p.errorf(n, "unsupported YAML value")
	return nil, false
}

// follow resolves references from s, giving the schema that describes the
// value's shape and whether null is allowed anywhere along the way. It gives
// nil for an unresolved reference or a reference cycle.
func follow(s *Schema) (*Schema, bool) {
	nullable := false
	for i := 0; s != nil && i < 1000; i++ {
		nullable = nullable || s.Nullable
		if s.Ref == "" {
			return s, nullable
		}
		if s.RefType == nil {
			return nil, nullable
		}
		s = s.RefType.Schema
	}
	return nil, nullable
}

// problem says why a value does not fit a schema, and where inside it.
type problem struct {
	at  string
	msg string
	key string // an unknown property's name (at is its object)
}

func (pr *problem) String() string {
	if pr.at == "" {
		return pr.msg
	}
	return "at " + pr.at + ": " + pr.msg
}

func at(base, seg string) string {
	if base == "" {
		return strings.TrimPrefix(seg, ".")
	}
	return base + seg
}

// checkValue checks v against s and converts numbers to the schema's Go
// type (int64 for integer, float64 for number). skipEnum leaves out the
// enum check, for checking the enum values themselves.
func checkValue(s *Schema, v any, path string, skipEnum bool) (any, *problem) {
	mode := checkMode(0)
	if skipEnum {
		mode = modeSkipEnum
	}
	return check(s, v, path, mode)
}

// checkMode tunes check.
type checkMode uint8

const (
	// modeSkipEnum leaves out the enum check at the top (not in nested
	// values), for checking the enum values themselves.
	modeSkipEnum checkMode = 1 << iota
	// modeArgs judges v as the generated decoder judges arguments sent to
	// the tool: a string of a trim: true schema is trimmed before it is
	// checked (where a default or enum value must be written trimmed), and
	// the checked value holds the trimmed string.
	modeArgs
)

// check is checkValue in a mode.
func check(s *Schema, v any, path string, mode checkMode) (any, *problem) {
	skipEnum := mode&modeSkipEnum != 0
	nested := mode &^ modeSkipEnum
	r, nullable := follow(s)
	if r == nil {
		return v, nil // unresolved: reported elsewhere
	}
	fail := func(format string, args ...any) (any, *problem) {
		return nil, &problem{at: path, msg: fmt.Sprintf(format, args...)}
	}
	if v == nil {
		if nullable {
			return nil, nil
		}
		return fail("null is not allowed: the schema is not nullable")
	}
	if r.Union != nil {
		return checkUnionValue(r, v, path, nested)
	}
	switch r.Type {
	case TypeString:
		str, ok := v.(string)
		if !ok {
			return fail("%s is not a string", fmtValue(v))
		}
		if t := strings.TrimSpace(str); r.Trim && t != str && mode&modeArgs != 0 {
			str, v = t, t
		} else if r.Trim && t != str {
			return fail("%s begins or ends with white space, which trim: true removes from every value before it is checked; write %s", fmtValue(v), fmtValue(t))
		}
		n := utf8.RuneCountInString(str)
		if r.MinLength != nil && n < *r.MinLength {
			return fail("%s is shorter than minLength %d", fmtValue(v), *r.MinLength)
		}
		if r.MaxLength != nil && n > *r.MaxLength {
			return fail("%s is longer than maxLength %d", fmtValue(v), *r.MaxLength)
		}
		if r.Pattern != "" {
			if re, err := regexp.Compile(r.Pattern); err == nil && !re.MatchString(str) {
				return fail("%s does not match the pattern %q", fmtValue(v), r.Pattern)
			}
		}
		if r.Format != "" {
			if why := checkFormat(r.Format, str); why != "" {
				return fail("%s %s", fmtValue(v), why)
			}
		}
	case TypeInteger:
		switch x := v.(type) {
		case json.Number: // not an int64
			if r, ok := new(big.Rat).SetString(string(x)); ok && r.IsInt() {
				return fail("%s is too large: an integer must fit 64 bits", x)
			}
			return fail("%s is not a whole number", x)
		case int64:
		case float64:
			if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
				return fail("%s is not a whole number", fmtValue(v))
			}
			v = int64(x)
		default:
			return fail("%s is not an integer", fmtValue(v))
		}
		if why := checkNumber(r, v, skipEnum); why != "" {
			return fail("%s", why)
		}
		return v, nil
	case TypeNumber:
		switch x := v.(type) {
		case int64, float64:
		case json.Number:
			if _, err := strconv.ParseFloat(string(x), 64); err != nil {
				return fail("%s is too large: a number must fit a 64-bit float", x)
			}
		default:
			return fail("%s is not a number", fmtValue(v))
		}
		// Judged as written (a whole number exactly), as the decoder
		// judges the number it reads; then the Go value, a float64.
		if why := checkNumber(r, v, skipEnum); why != "" {
			return fail("%s", why)
		}
		switch x := v.(type) {
		case int64:
			v = float64(x)
		case json.Number:
			v, _ = strconv.ParseFloat(string(x), 64)
		}
		return v, nil
	case TypeBoolean:
		if _, ok := v.(bool); !ok {
			return fail("%s is not a boolean", fmtValue(v))
		}
	case TypeArray:
		list, ok := v.([]any)
		if !ok {
			return fail("%s is not an array", fmtValue(v))
		}
		if r.MinItems != nil && len(list) < *r.MinItems {
			return fail("has %d items; minItems is %d", len(list), *r.MinItems)
		}
		if r.MaxItems != nil && len(list) > *r.MaxItems {
			return fail("has %d items; maxItems is %d", len(list), *r.MaxItems)
		}
		out := make([]any, len(list))
		seen := map[string]int{}
		for i, item := range list {
			cv, pr := check(r.Items, item, fmt.Sprintf("%s[%d]", path, i), nested)
			if pr != nil {
				return nil, pr
			}
			out[i] = cv
			if r.UniqueItems {
				k := canonical(cv)
				if j, dup := seen[k]; dup {
					return fail("items %d and %d are equal, but uniqueItems is true", j, i)
				}
				seen[k] = i
			}
		}
		v = out
	case TypeObject:
		obj, ok := v.(map[string]any)
		if !ok {
			return fail("%s is not an object", fmtValue(v))
		}
		out := make(map[string]any, len(obj))
		for _, prop := range r.Properties {
			pv, present := obj[prop.Name]
			if !present {
				if prop.Required {
					return fail("the required property %q is missing", prop.Name)
				}
				continue
			}
			cv, pr := check(prop.Schema, pv, at(path, "."+prop.Name), nested)
			if pr != nil {
				return nil, pr
			}
			out[prop.Name] = cv
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if r.Property(k) != nil {
				continue
			}
			if !r.AdditionalProperties {
				_, pr := fail("unknown property %q (additionalProperties is false)", k)
				pr.key = k
				return nil, pr
			}
			cv := obj[k]
			if r.AdditionalPropertiesSchema != nil {
				var pr *problem
				if cv, pr = check(r.AdditionalPropertiesSchema, cv, at(path, "."+k), nested); pr != nil {
					return nil, pr
				}
			}
			out[k] = cv
		}
		v = out
	}
	if !skipEnum && len(r.Enum) > 0 {
		k := canonical(v)
		if !slices.ContainsFunc(r.Enum, func(e any) bool { return canonical(e) == k }) {
			vals := make([]string, len(r.Enum))
			for i, e := range r.Enum {
				vals[i] = fmtValue(e)
			}
			return fail("%s is not one of the enum values %s", fmtValue(v), strings.Join(vals, ", "))
		}
	}
	if r.HasConst && canonical(v) != canonical(r.Const) {
		return fail("%s is not the const value %s", fmtValue(v), fmtValue(r.Const))
	}
	return v, nil
}

// checkNumber checks a number (int64 or float64) against the numeric
// keywords of s with the rules the generated decoder checks (NumberRules),
// giving the decoder's message; the enum too unless skipEnum.
func checkNumber(s *Schema, v any, skipEnum bool) string {
	rules := s.NumberRules()
	if skipEnum {
		rules.Enum = nil
	}
	var c wire.Checker
	switch x := v.(type) {
	case int64:
		rules.CheckInt(&c, x)
	case float64:
		rules.CheckFloat(&c, x, nil)
	case json.Number: // within float64 (checked), judged as written
		f, _ := strconv.ParseFloat(string(x), 64)
		rules.CheckFloat(&c, f, []byte(x))
	}
	if vs := c.Violations(); len(vs) > 0 {
		return vs[0].Message
	}
	return ""
}

// NumberRules are the numeric keywords of s (integer or number) as the
// generated code checks them.
func (s *Schema) NumberRules() *wire.NumberRules {
	r := &wire.NumberRules{
		Minimum: s.Minimum, ExclusiveMinimum: s.ExclusiveMinimum,
		Maximum: s.Maximum, ExclusiveMaximum: s.ExclusiveMaximum,
		MultipleOf: s.MultipleOf,
	}
	enum := s.Enum
	if s.HasConst {
		enum = []any{s.Const} // a const is checked as an enum of one value
	}
	for _, e := range enum {
		switch x := e.(type) {
		case int64:
			r.Enum = append(r.Enum, wire.Dec(strconv.FormatInt(x, 10)))
		case float64:
			r.Enum = append(r.Enum, wire.Dec(strconv.FormatFloat(x, 'g', -1, 64)))
		}
	}
	return r
}

// checkFormat says why s is not a valid value of format, or "": the
// decoder's own format checks decide (one home for each format).
func checkFormat(format, s string) string {
	ok := true
	switch format {
	case "date-time":
		ok = wire.IsDateTime(s)
	case "date":
		ok = wire.IsDate(s)
	case "email":
		ok = wire.IsEmail(s)
	case "uri":
		ok = wire.IsURI(s)
	case "uuid":
		ok = wire.IsUUID(s)
	}
	if !ok {
		return wire.FormatMessage(format)
	}
	return ""
}

// enum reads an `enum:` list: non-empty, unique, values of the schema's type
// meeting its other constraints.
func (p *parser) enum(v *yaml.Node, s *Schema, sub subject, in string) {
	items, ok := p.sequenceKey(v, "enum", in)
	if !ok {
		return
	}
	if len(items) == 0 {
		p.errorf(v, "enum %s must list at least one value", in)
		return
	}
	seen := map[string]int{}
	for _, n := range items {
		val, ok := p.value(n)
		if !ok {
			continue
		}
		if val == nil {
			p.errorf(n, "enum value null %s: use nullable: true to allow null", in)
			continue
		}
		cv, pr := checkValue(s, val, "", true)
		if pr != nil {
			p.errorf(n, "invalid enum value for %s: %s", sub, pr)
			continue
		}
		k := canonical(cv)
		if line, dup := seen[k]; dup {
			p.errorf(n, "enum %s lists %s twice (first at line %d)", in, fmtValue(cv), line)
			continue
		}
		seen[k] = n.Line
		s.Enum = append(s.Enum, cv)
	}
}

// checkDefaults checks every default against its (now resolved) schema.
func (p *parser) checkDefaults() {
	for _, d := range p.defaults {
		val, ok := p.value(d.val)
		if !ok {
			continue
		}
		cv, pr := checkValue(d.schema, val, "", false)
		if pr != nil {
			p.errorf(d.val, "invalid default for %s: %s", d.sub, pr)
			continue
		}
		d.schema.Default = cv
	}
}

// canonical is v as compact JSON with sorted keys, for equality.
func canonical(v any) string {
	switch x := v.(type) { // what json.Marshal writes, without it
	case string:
		if plainJSON(x) {
			return `"` + x + `"`
		}
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "null"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// plainJSON reports whether json.Marshal writes s as it is between
// quotes: printable ASCII without '"', '\\' and the characters it escapes
// for HTML ('<', '>', '&').
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// fmtValue shows a value as JSON for messages.
func fmtValue(v any) string {
	switch x := v.(type) {
	case float64:
		return fmtNum(x)
	case int64:
		return strconv.FormatInt(x, 10)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// fmtNum shows a number without exponent when it is a whole number of a
// reasonable size.
func fmtNum(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
