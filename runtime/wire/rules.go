package wire

import (
	"strconv"
	"strings"
)

// NumberRules are the numeric keywords of one schema (integer or number):
// generated code declares them once (var fooRules = wire.NumberRules{…})
// and both its decoder and its Validate call Check; the spec loader checks
// defaults and enum values with the same rules. Every check is exact (see
// Decimal); a nil field is a keyword the schema does not have.
type NumberRules struct {
	Minimum, ExclusiveMinimum *Decimal
	Maximum, ExclusiveMaximum *Decimal
	MultipleOf                *Decimal
	Enum                      []*Decimal
}

// CheckInt records in c the rules that the integer v breaks.
func (r *NumberRules) CheckInt(c *Checker, v int64) {
	if !r.intKeeps(v) {
		r.check(c, number{i: v})
	}
}

// intKeeps reports whether the integer v keeps every rule as far as whole
// bounds and a whole multipleOf tell it at once; false is "check in full"
// (a rule broken, or one that needs the exact comparison).
func (r *NumberRules) intKeeps(v int64) bool {
	if b := r.Minimum; b != nil && !(b.isInt && v >= b.i) {
		return false
	}
	if b := r.ExclusiveMinimum; b != nil && !(b.isInt && v > b.i) {
		return false
	}
	if b := r.Maximum; b != nil && !(b.isInt && v <= b.i) {
		return false
	}
	if b := r.ExclusiveMaximum; b != nil && !(b.isInt && v < b.i) {
		return false
	}
	if m := r.MultipleOf; m != nil && !(m.isInt && m.i > 0 && v%m.i == 0) {
		return false
	}
	return len(r.Enum) == 0
}

// CheckFloat records in c the rules that the number v breaks. tok is the
// JSON text v was decoded from (the exact value), or nil for a value built
// in Go (then the shortest text that gives v, as JSON would write it).
func (r *NumberRules) CheckFloat(c *Checker, v float64, tok []byte) {
	if !r.floatKeeps(v, tok) {
		r.check(c, number{f: v, tok: tok, float: true})
	}
}

// floatKeeps is intKeeps for a number: a bound is kept at once when v is
// strictly on its side (rounding is monotonic, so float64(x) > float64(b)
// means x > b); a tie, a multipleOf that the number's short text does not
// decide and an enum are checked in full.
func (r *NumberRules) floatKeeps(v float64, tok []byte) bool {
	if b := r.Minimum; b != nil && !(v > b.f) {
		return false
	}
	if b := r.ExclusiveMinimum; b != nil && !(v > b.f) {
		return false
	}
	if b := r.Maximum; b != nil && !(v < b.f) {
		return false
	}
	if b := r.ExclusiveMaximum; b != nil && !(v < b.f) {
		return false
	}
	if m := r.MultipleOf; m != nil && !m.dividesText(tok) {
		return false
	}
	return len(r.Enum) == 0
}

// number is the value being checked.
type number struct {
	i     int64
	f     float64
	tok   []byte
	float bool
}

func (n *number) cmp(b *Decimal) int {
	if n.float {
		return b.cmpFloat(n.f, n.tok)
	}
	return b.cmpInt(n.i)
}

func (n *number) multipleOf(m *Decimal) bool {
	if !n.float {
		if m.isInt && m.i > 0 {
			return n.i%m.i == 0
		}
		x := intDecimal(n.i)
		return x.multipleOf(&m.x)
	}
	x := floatText(n.f, n.tok)
	return x.multipleOf(&m.x)
}

func (n *number) String() string {
	switch {
	case !n.float:
		return strconv.FormatInt(n.i, 10)
	case n.tok != nil:
		return clipText(n.tok, quoteMax)
	}
	return FormatNumber(n.f)
}

func (r *NumberRules) check(c *Checker, n number) {
	if b := r.Minimum; b != nil && n.cmp(b) < 0 {
		c.Add("must be at least " + b.text + ", got " + n.String())
	}
	if b := r.ExclusiveMinimum; b != nil && n.cmp(b) <= 0 {
		c.Add("must be greater than " + b.text + ", got " + n.String())
	}
	if b := r.Maximum; b != nil && n.cmp(b) > 0 {
		c.Add("must be at most " + b.text + ", got " + n.String())
	}
	if b := r.ExclusiveMaximum; b != nil && n.cmp(b) >= 0 {
		c.Add("must be less than " + b.text + ", got " + n.String())
	}
	if r.MultipleOf != nil && !n.multipleOf(r.MultipleOf) {
		c.Add("must be a multiple of " + r.MultipleOf.text + ", got " + n.String())
	}
	if len(r.Enum) > 0 {
		for _, e := range r.Enum {
			if n.cmp(e) == 0 {
				return
			}
		}
		shown := make([]string, len(r.Enum))
		for i, e := range r.Enum {
			shown[i] = e.text
		}
		if len(shown) == 1 {
			c.Add("must be " + shown[0] + ", got " + n.String()) // a const
			return
		}
		c.Add("must be one of " + strings.Join(shown, ", ") + ", got " + n.String())
	}
}

// quoteMax is how many runes of a value a message quotes before "…".
const quoteMax = 64
