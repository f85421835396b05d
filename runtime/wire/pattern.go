package wire

import (
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pattern is a compiled "pattern" constraint: a regular expression in the
// syntax of Go's regexp (RE2), which the spec loader checks patterns
// against. MatchString gives exactly regexp.MatchString's answer.
//
// The common anchored patterns — "^", then a sequence of literals and
// character classes, each possibly repeated (?, *, +, {m,n}), then
// optionally "$" — are matched by a loop over the string's bytes and runes,
// without the regexp engine, when the loop's greedy reading of each
// repetition cannot be wrong: when what may follow a repetition cannot
// start with a character the repetition also takes ("^[a-z0-9-]+$",
// "^INV-[0-9]+$", "^[A-Z]{3}-\d{4}$", "^https?://[^?#]*$"). Every other
// pattern is matched by the regexp.
//
// A Pattern is safe for concurrent use.
type Pattern struct {
	expr  string
	re    *regexp.Regexp // the fallback; nil when steps decide
	steps []patStep
	end   bool // anchored at the end: the steps must consume all of it
}

// patStep is one step of a Pattern matched without the regexp: a literal
// (lit != ""), or a character class repeated min to max times (max < 0: no
// upper bound).
type patStep struct {
	lit      string
	ascii    [256]bool // the class's runes below utf8.RuneSelf (false from utf8.RuneSelf on)
	high     []rune    // the class's other runes, as sorted lo, hi pairs
	min, max int
}

// CompilePattern compiles expr, as regexp.Compile does, into a Pattern.
func CompilePattern(expr string) (*Pattern, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	p := &Pattern{expr: expr}
	if steps, end, ok := patternSteps(expr); ok {
		p.steps, p.end = steps, end
	} else {
		p.re = re
	}
	return p, nil
}

// MustPattern is CompilePattern that panics if expr does not compile (as
// regexp.MustCompile does); generated code compiles each pattern of its spec
// once with it, into a package variable.
func MustPattern(expr string) *Pattern {
	p, err := CompilePattern(expr)
	if err != nil {
		panic("wire: MustPattern(" + strconv.Quote(expr) + "): " + err.Error())
	}
	return p
}

// String returns the source text of the pattern.
func (p *Pattern) String() string { return p.expr }

// MatchString reports whether s contains a match of the pattern, as
// regexp's MatchString does.
func (p *Pattern) MatchString(s string) bool {
	if p.re != nil {
		return p.re.MatchString(s)
	}
	i := 0
	for k := range p.steps {
		st := &p.steps[k]
		if st.lit != "" {
			if !strings.HasPrefix(s[i:], st.lit) {
				return false
			}
			i += len(st.lit)
			continue
		}
		n := 0
		if st.max < 0 && st.high == nil {
			// An unbounded ASCII class: the common case, in a tight loop.
			j := i
			for j < len(s) && st.ascii[s[j]] {
				j++
			}
			if j-i < st.min {
				return false
			}
			i = j
			continue
		}
		for n != st.max && i < len(s) {
			if c := s[i]; c < utf8.RuneSelf {
				if !st.ascii[c] {
					break
				}
				i++
			} else {
				r, size := utf8.DecodeRuneInString(s[i:])
				if !inRanges(st.high, r) {
					break
				}
				i += size
			}
			n++
		}
		if n < st.min {
			return false
		}
	}
	return !p.end || i == len(s)
}

// inRanges reports whether r is in one of the sorted lo, hi pairs of rs.
func inRanges(rs []rune, r rune) bool {
	lo, hi := 0, len(rs)/2
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch {
		case r < rs[2*m]:
			hi = m
		case r > rs[2*m+1]:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}

// class is a set of runes as sorted, non-overlapping lo, hi pairs.
type class []rune

// patternSteps compiles expr into steps when it is a sequence the loop of
// MatchString decides exactly; ok is false otherwise.
func patternSteps(expr string) (steps []patStep, end, ok bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, false, false
	}
	var items []*syntax.Regexp
	flatten(re, &items)
	if len(items) == 0 || items[0].Op != syntax.OpBeginText {
		return nil, false, false // unanchored: a search, left to the regexp
	}
	items = items[1:]
	if n := len(items); n > 0 && items[n-1].Op == syntax.OpEndText {
		end = true
		items = items[:n-1]
	}
	type rep struct {
		cl       class
		min, max int
		lit      rune // the literal rune of a single-rune step, or -1
	}
	var reps []rep
	for _, it := range items {
		switch it.Op {
		case syntax.OpEmptyMatch:
		case syntax.OpLiteral:
			for _, r := range it.Rune {
				if it.Flags&syntax.FoldCase != 0 {
					reps = append(reps, rep{cl: foldClass(r), min: 1, max: 1, lit: -1})
				} else {
					reps = append(reps, rep{cl: class{r, r}, min: 1, max: 1, lit: r})
				}
			}
		case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			reps = append(reps, rep{cl: single(it), min: 1, max: 1, lit: -1})
		case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
			sub := it.Sub[0]
			for sub.Op == syntax.OpCapture {
				sub = sub.Sub[0]
			}
			cl := single(sub)
			if cl == nil {
				return nil, false, false
			}
			r := rep{cl: cl, lit: -1}
			switch it.Op {
			case syntax.OpStar:
				r.min, r.max = 0, -1
			case syntax.OpPlus:
				r.min, r.max = 1, -1
			case syntax.OpQuest:
				r.min, r.max = 0, 1
			default:
				r.min, r.max = it.Min, it.Max
			}
			if r.max == 0 {
				continue // x{0}: matches the empty string
			}
			reps = append(reps, r)
		default:
			return nil, false, false
		}
	}
	// A repetition that may stop early must not take a character that
	// what follows it could start with: then stopping where the loop
	// stops (at a character it cannot take, or after max) is the only way.
	for i, r := range reps {
		if r.min == r.max {
			continue
		}
		for _, next := range reps[i+1:] {
			if intersects(r.cl, next.cl) {
				return nil, false, false
			}
			if next.min > 0 {
				break
			}
		}
	}
	for _, r := range reps {
		if r.lit >= 0 && r.lit != utf8.RuneError {
			if n := len(steps); n > 0 && steps[n-1].lit != "" {
				steps[n-1].lit += string(r.lit)
				continue
			}
			steps = append(steps, patStep{lit: string(r.lit), min: 1, max: 1})
			continue
		}
		st := patStep{min: r.min, max: r.max}
		for j := 0; j < len(r.cl); j += 2 {
			lo, hi := r.cl[j], r.cl[j+1]
			for c := lo; c <= hi && c < utf8.RuneSelf; c++ {
				st.ascii[c] = true
			}
			if hi >= utf8.RuneSelf {
				st.high = append(st.high, max(lo, utf8.RuneSelf), hi)
			}
		}
		steps = append(steps, st)
	}
	return steps, end, true
}

// flatten appends the items of the concatenation re to items, looking
// through groups (a group does not change what matches).
func flatten(re *syntax.Regexp, items *[]*syntax.Regexp) {
	switch re.Op {
	case syntax.OpConcat:
		for _, s := range re.Sub {
			flatten(s, items)
		}
	case syntax.OpCapture:
		flatten(re.Sub[0], items)
	default:
		*items = append(*items, re)
	}
}

// single returns the class of the runes re matches when re matches exactly
// one rune, or else nil.
func single(re *syntax.Regexp) class {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) != 1 {
			return nil
		}
		if re.Flags&syntax.FoldCase != 0 {
			return foldClass(re.Rune[0])
		}
		return class{re.Rune[0], re.Rune[0]}
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return nil // matches nothing: left to the regexp
		}
		return normalize(re.Rune)
	case syntax.OpAnyChar:
		return class{0, unicode.MaxRune}
	case syntax.OpAnyCharNotNL:
		return class{0, '\n' - 1, '\n' + 1, unicode.MaxRune}
	}
	return nil
}

// foldClass is the class of r and the runes that case-fold to it, as the
// regexp matches a literal under (?i).
func foldClass(r rune) class {
	rs := []rune{r, r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		rs = append(rs, f, f)
	}
	return normalize(rs)
}

// normalize sorts the lo, hi pairs of rs and merges those that overlap or
// touch.
func normalize(rs []rune) class {
	pairs := make([][2]rune, 0, len(rs)/2)
	for i := 0; i+1 < len(rs); i += 2 {
		pairs = append(pairs, [2]rune{rs[i], rs[i+1]})
	}
	for i := 1; i < len(pairs); i++ { // insertion sort: classes are short
		for j := i; j > 0 && pairs[j][0] < pairs[j-1][0]; j-- {
			pairs[j], pairs[j-1] = pairs[j-1], pairs[j]
		}
	}
	var out class
	for _, p := range pairs {
		if n := len(out); n > 0 && p[0] <= out[n-1]+1 {
			out[n-1] = max(out[n-1], p[1])
			continue
		}
		out = append(out, p[0], p[1])
	}
	return out
}

// intersects reports whether the classes a and b share a rune.
func intersects(a, b class) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i+1] < b[j]:
			i += 2
		case b[j+1] < a[i]:
			j += 2
		default:
			return true
		}
	}
	return false
}
