package wire

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime"
)

// Ptr returns a pointer to a copy of v (for defaults of pointer fields).
func Ptr[T any](v T) *T { return &v }

// LabelMaxRunes is the longest a value inserted into a status label may be.
const LabelMaxRunes = 60

// Clip prepares a value for a status label: control characters (line
// breaks, tabs) become spaces, and a value longer than LabelMaxRunes runes
// is cut to that length, its last rune replaced by "…".
func Clip(s string) string {
	n := 0
	clean := true
	for _, r := range s {
		n++
		if r < 0x20 || r == 0x7f {
			clean = false
		}
	}
	if clean && n <= LabelMaxRunes {
		return s
	}
	b := make([]byte, 0, min(len(s), LabelMaxRunes*utf8.UTFMax))
	i := 0
	for _, r := range s {
		if n > LabelMaxRunes && i == LabelMaxRunes-1 {
			b = append(b, "…"...)
			break
		}
		if r < 0x20 || r == 0x7f {
			r = ' '
		}
		b = utf8.AppendRune(b, r)
		i++
	}
	return string(b)
}

// FormatNumber formats a float64 the way JSON writes numbers: no exponent
// for ordinary magnitudes ("100", "0.5"), the shortest exact digits.
func FormatNumber(v float64) string {
	if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// Duplicate returns the indexes of the first item of s that repeats an
// earlier one, and of that earlier one; ok is false when all are unique.
func Duplicate[T comparable](s []T) (first, again int, ok bool) {
	if len(s) <= 32 {
		for j := 1; j < len(s); j++ {
			for i := 0; i < j; i++ {
				if s[i] == s[j] {
					return i, j, true
				}
			}
		}
		return 0, 0, false
	}
	seen := make(map[T]int, len(s))
	for j, v := range s {
		if i, dup := seen[v]; dup {
			return i, j, true
		}
		seen[v] = j
	}
	return 0, 0, false
}

// UniqueMessage is the violation text for a uniqueItems failure.
func UniqueMessage(first, again int) string {
	return "items must be unique: item " + strconv.Itoa(again) + " repeats item " + strconv.Itoa(first)
}

// Quote quotes a value for a violation message, cut after quoteMax (64)
// runes and marked "…", so that a huge input cannot make a huge message.
func Quote(s string) string {
	n := 0
	for i := range s {
		if n == quoteMax {
			return strconv.Quote(s[:i]) + "…"
		}
		n++
	}
	return strconv.Quote(s)
}

// LabelArgs unpacks the argument of a generated status label: the decoded
// P (a pointer to the generated argument struct: wire.LabelArgs[*ListArgs]),
// or for a call whose arguments failed to decode the P as far as it was read
// and the *runtime.InvalidArgs saying which values were refused (nil when
// they decoded). a is the zero P (nil) when there is none (nil, or a value
// of another type); a nil bad rejects nothing.
func LabelArgs[P any](args any) (a P, bad *runtime.InvalidArgs) {
	bad, _ = args.(*runtime.InvalidArgs)
	if bad != nil {
		args = bad.Args
	}
	a, _ = args.(P)
	return a, bad
}
