// Package suggest finds the name a user (or a model) probably meant when it
// wrote one that does not exist: the "did you mean" of error messages about
// unknown keys, tools and properties.
//
// Distance measures how far apart two names are; Closest picks, among
// candidates, the one a mistyped word most probably stands for, under the
// caller's Options (how far a suggestion may be, whether case counts, what
// spellings count as the same name, whether a tie is a guess too many).
package suggest

import "strings"

// Distance is the optimal-string-alignment (restricted Damerau–Levenshtein)
// distance between a and b, counted in runes: inserting, deleting or
// substituting one rune, or transposing two adjacent runes ("nmae" for
// "name"), each cost 1. A substring is not edited twice, so Distance("ca",
// "abc") is 3, not 2. Case matters: Distance("a", "A") is 1.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows suffice: a transposition looks two rows back.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// Options tunes Closest. The zero value suggests nothing: MaxDistance 0
// admits no edit, and no other spelling counts as the same name. Set
// MaxDistance to allow typos.
type Options struct {
	// MaxDistance is the largest Distance a suggestion may have from the
	// word; a candidate farther away is never suggested. Zero or less
	// admits none (though Same may still match).
	MaxDistance int

	// IgnoreCase measures distances between the lower-cased word and
	// candidates (strings.ToLower), so that "Web_Search" is 0 edits from
	// "web_search" and "WebSearch" 1. False: every case difference is an
	// edit.
	IgnoreCase bool

	// Same, if not nil, reports whether candidate is the word written
	// another way (in another case, with "_" for "-" …). The first
	// candidate it accepts is the suggestion, however far its Distance;
	// only when it accepts none are distances compared. Nil: no candidate
	// is the same name but the word itself.
	Same func(word, candidate string) bool

	// Unique suggests nothing when two or more candidates share the best
	// distance: with "ab" among "a" and "b", either guess is a coin toss.
	// False: the earliest of them is suggested.
	Unique bool
}

// Closest returns the candidate that word most probably misspells, or ""
// when none is close enough. A candidate identical to word is never its own
// suggestion. Otherwise the first candidate o.Same accepts wins; failing
// that, the candidate at the smallest Distance, if that distance is at most
// o.MaxDistance (ties going to the earliest candidate, or to none under
// o.Unique).
func Closest(word string, candidates []string, o Options) string {
	if o.Same != nil {
		for _, c := range candidates {
			if c != word && o.Same(word, c) {
				return c
			}
		}
	}
	w := word
	if o.IgnoreCase {
		w = strings.ToLower(word)
	}
	best, bestD, ties := "", o.MaxDistance+1, 0
	for _, c := range candidates {
		if c == word {
			continue
		}
		cw := c
		if o.IgnoreCase {
			cw = strings.ToLower(c)
		}
		d := Distance(w, cw)
		switch {
		case d < bestD:
			best, bestD, ties = c, d, 0
		case d == bestD:
			ties++
		}
	}
	if o.Unique && ties > 0 {
		return ""
	}
	return best
}
