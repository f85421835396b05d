package wire

import (
	"bytes"
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// Numbers are checked exactly, as JSON Schema 2020-12 wants: from the
// number's decimal text (the token a decoder read, or the shortest text of
// a float64 built in Go), never with a tolerance. float64 decides a bound
// when it can (rounding is monotonic: float64(x) < float64(b) means x < b);
// only a tie is decided digit by digit.

// decimal is an exact decimal number: ±0.d₁d₂…dₙ × 10^point, its digits
// without leading or trailing zeros (zero has none). Short numbers keep
// their digits in buf, so that checking them allocates nothing.
type decimal struct {
	neg   bool
	n     int
	buf   [24]byte
	more  []byte // the digits, when there are more than fit in buf
	point int
}

func (x *decimal) digits() []byte {
	if x.more != nil {
		return x.more
	}
	return x.buf[:x.n]
}

// maxExp saturates exponents: a number's text may say 1e999999999999.
const maxExp = 1 << 40

// parseDecimal reads a number written as JSON writes it (a sign, digits, a
// fraction, an exponent; a leading "+" is also read).
func parseDecimal[T text](s T) (x decimal, ok bool) {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		x.neg = s[i] == '-'
		i++
	}
	seenDot, seenDigit := false, false
	zeros := 0 // zeros read after the last non-zero digit
	push := func(c byte) {
		if x.more == nil && x.n < len(x.buf) {
			x.buf[x.n] = c
		} else {
			if x.more == nil {
				x.more = append(make([]byte, 0, len(s)), x.buf[:x.n]...)
			}
			x.more = append(x.more, c)
		}
		x.n++
	}
digits:
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			seenDigit = true
			if x.n == 0 && c == '0' {
				if seenDot {
					x.point--
				}
				continue
			}
			if c == '0' {
				zeros++
			} else {
				for ; zeros > 0; zeros-- {
					push('0')
				}
				push(c)
			}
			if !seenDot {
				x.point++
			}
		case c == '.' && !seenDot:
			seenDot = true
		default:
			break digits
		}
	}
	if !seenDigit {
		return x, false
	}
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return x, false
		}
		i++
		neg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			neg = s[i] == '-'
			i++
		}
		if i == len(s) {
			return x, false
		}
		e := 0
		for ; i < len(s); i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return x, false
			}
			if e < maxExp {
				e = e*10 + int(c-'0')
			}
		}
		if neg {
			e = -e
		}
		if x.n > 0 {
			x.point += e
		}
	}
	if x.more != nil {
		x.more = x.more[:x.n]
	}
	if x.n == 0 {
		x.neg, x.point = false, 0
	}
	return x, true
}

// floatDecimal is the shortest decimal that rounds to v (what JSON writes
// for it).
func floatDecimal(v float64) decimal {
	var b [32]byte
	x, _ := parseDecimal(strconv.AppendFloat(b[:0], v, 'g', -1, 64))
	return x
}

func intDecimal(v int64) decimal {
	var b [24]byte
	x, _ := parseDecimal(strconv.AppendInt(b[:0], v, 10))
	return x
}

func (x *decimal) sign() int {
	switch {
	case x.n == 0:
		return 0
	case x.neg:
		return -1
	}
	return 1
}

// cmp compares x and y exactly.
func (x *decimal) cmp(y *decimal) int {
	sx, sy := x.sign(), y.sign()
	if sx != sy || sx == 0 {
		return cmpInt(sx, sy)
	}
	c := 0
	switch {
	case x.point != y.point:
		c = cmpInt(x.point, y.point)
	default:
		c = bytes.Compare(x.digits(), y.digits())
	}
	return c * sx
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// isInt reports whether x is a whole number.
func (x *decimal) isInt() bool { return x.n <= x.point }

// int64 is x as an int64; ok is false if x is not whole or does not fit.
func (x *decimal) int64() (v int64, whole, ok bool) {
	if !x.isInt() {
		return 0, false, false
	}
	if x.n == 0 {
		return 0, true, true
	}
	if x.point > 19 {
		return 0, true, false
	}
	var u uint64
	for i, c := range x.digits() {
		_ = i
		u = u*10 + uint64(c-'0')
	}
	for i := x.n; i < x.point; i++ {
		u *= 10 // at most 19 digits in all: no overflow
	}
	if x.neg {
		if u > 1<<63 {
			return 0, true, false
		}
		return -int64(u), true, true
	}
	if u > math.MaxInt64 {
		return 0, true, false
	}
	return int64(u), true, true
}

// multipleOf reports whether x is an integer multiple of m (m > 0), exactly.
func (x *decimal) multipleOf(m *decimal) bool {
	if x.n == 0 {
		return true
	}
	// x = X·10^ex and m = M·10^em with X and M integers not ending in 0.
	ex, em := x.point-x.n, m.point-m.n
	if ex < em {
		return false // X is not a multiple of 10, so not of M·10^(em-ex)
	}
	k := ex - em // x/m = X·10^k / M
	md := m.digits()
	if len(md) <= 19 {
		var mm uint64
		for _, c := range md {
			mm = mm*10 + uint64(c-'0')
		}
		var r uint64
		for _, c := range x.digits() {
			r = addMod(mulMod(r, 10, mm), uint64(c-'0'), mm)
		}
		return mulMod(r, powMod(10, k, mm), mm) == 0
	}
	// A multipleOf of more than 19 digits (only a spec can write one).
	X, _ := new(big.Int).SetString(string(x.digits()), 10)
	M, _ := new(big.Int).SetString(string(md), 10)
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), M)
	X.Mul(X.Mod(X, M), p)
	return X.Mod(X, M).Sign() == 0
}

func mulMod(a, b, m uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	_, r := bits.Div64(hi%m, lo, m)
	return r
}

func addMod(a, b, m uint64) uint64 {
	s, carry := bits.Add64(a, b, 0)
	if carry != 0 || s >= m {
		s -= m
	}
	return s % m
}

func powMod(b uint64, k int, m uint64) uint64 {
	r := uint64(1) % m
	b %= m
	for ; k > 0; k >>= 1 {
		if k&1 == 1 {
			r = mulMod(r, b, m)
		}
		b = mulMod(b, b, m)
	}
	return r
}

// String writes x as a JSON number: plain when that is short, else in
// exponent form.
func (x *decimal) String() string {
	if x.n == 0 {
		return "0"
	}
	var b []byte
	if x.neg {
		b = append(b, '-')
	}
	d := x.digits()
	switch {
	case x.point >= x.n && x.point <= 40:
		b = append(b, d...)
		for i := x.n; i < x.point; i++ {
			b = append(b, '0')
		}
	case x.point > 0 && x.point < x.n:
		b = append(b, d[:x.point]...)
		b = append(b, '.')
		b = append(b, d[x.point:]...)
	case x.point <= 0 && x.point > -6:
		b = append(b, "0."...)
		for i := x.point; i < 0; i++ {
			b = append(b, '0')
		}
		b = append(b, d...)
	default:
		b = append(b, d[0])
		if x.n > 1 {
			b = append(b, '.')
			b = append(b, d[1:]...)
		}
		b = append(b, 'e')
		b = strconv.AppendInt(b, int64(x.point-1), 10)
	}
	return string(b)
}

// A Decimal is an exact number of a schema (a bound, a multipleOf, an enum
// value), kept digit for digit.
type Decimal struct {
	x     decimal
	f     float64 // the nearest float64
	i     int64   // the value, when whole and within int64 (isInt)
	isInt bool
	text  string
	// The value as m·10^e with m an integer of at most 18 digits, when it
	// is positive and has no more digits (small): dividesText's multipleOf.
	m     uint64
	e     int
	small bool
}

// Dec parses the number text (JSON syntax) of a schema keyword. It panics
// on anything else: generated code calls it with text the generator wrote.
func Dec(text string) *Decimal {
	d, ok := ParseDecimal(text)
	if !ok {
		panic("wire.Dec: not a number: " + strconv.Quote(text))
	}
	return d
}

// ParseDecimal parses number text (JSON syntax, or a leading "+"); ok is
// false if it is not a number.
func ParseDecimal(text string) (*Decimal, bool) {
	x, ok := parseDecimal(text)
	if !ok {
		return nil, false
	}
	d := &Decimal{x: x, text: x.String()}
	d.f, _ = strconv.ParseFloat(d.text, 64)
	if v, _, ok := x.int64(); ok {
		d.i, d.isInt = v, true
	}
	if digits := x.digits(); !x.neg && len(digits) > 0 && len(digits) <= 18 {
		for _, c := range digits {
			d.m = d.m*10 + uint64(c-'0')
		}
		d.e, d.small = x.point-x.n, true
	}
	return d, true
}

// dividesText reports whether the number whose JSON text is tok is a
// multiple of d, when that is decided at once: tok a plain decimal of at
// most 18 digits (no exponent) and d small. false is "check in full" (not a
// multiple, or not decided here).
func (d *Decimal) dividesText(tok []byte) bool {
	if !d.small {
		return false
	}
	// tok = X·10^-frac, X its digits without the point.
	var x uint64
	n, frac, dot := 0, 0, false
	for i, c := range tok {
		switch {
		case c >= '0' && c <= '9':
			x = x*10 + uint64(c-'0')
			n++
			if dot {
				frac++
			}
		case c == '.':
			dot = true
		case c == '-' && i == 0:
		default:
			return false // an exponent
		}
	}
	if n == 0 || n > 18 {
		return false
	}
	// x/d = X·10^k / m with k = -frac - e.
	switch k := -frac - d.e; {
	case k == 0:
		return x%d.m == 0
	case k > 0:
		// X·10^k ≡ 0 (mod m).
		return mulMod(x%d.m, powMod(10, k, d.m), d.m) == 0
	case k >= -18:
		// X ≡ 0 (mod m·10^-k), when that fits.
		q := d.m
		for ; k < 0; k++ {
			hi, lo := bits.Mul64(q, 10)
			if hi != 0 {
				return false
			}
			q = lo
		}
		return x%q == 0
	}
	return false
}

// String is the number's canonical JSON text ("9007199254740993", "0.5",
// "1e+300" is written "1e300").
func (d *Decimal) String() string { return d.text }

// Float64 is the float64 nearest to the number.
func (d *Decimal) Float64() float64 { return d.f }

// Int64 is the number as an int64, if it is whole and fits.
func (d *Decimal) Int64() (int64, bool) { return d.i, d.isInt }

// IsInt reports whether the number is whole (whatever its size).
func (d *Decimal) IsInt() bool { return d.x.isInt() }

// Cmp compares two decimals exactly.
func (d *Decimal) Cmp(e *Decimal) int { return d.x.cmp(&e.x) }

// cmpFloat compares a float64 value, whose exact text is tok (nil: the
// shortest text of v, for values built in Go), with d.
func (d *Decimal) cmpFloat(v float64, tok []byte) int {
	switch {
	case v < d.f:
		return -1
	case v > d.f:
		return 1
	}
	x := floatText(v, tok)
	return x.cmp(&d.x)
}

func floatText(v float64, tok []byte) decimal {
	if tok != nil {
		if x, ok := parseDecimal(tok); ok {
			return x
		}
	}
	return floatDecimal(v)
}

func (d *Decimal) cmpInt(v int64) int {
	if d.isInt {
		return cmpInt64(v, d.i)
	}
	x := intDecimal(v)
	return x.cmp(&d.x)
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
