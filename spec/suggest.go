package spec

import (
	"fmt"
	"strings"
)

// distance is the optimal-string-alignment (restricted Damerau–Levenshtein)
// distance between a and b: insertions, deletions, substitutions and
// transpositions of two adjacent runes each cost 1.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows suffice: the transposition looks two rows back.
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

// suggest returns the candidate closest to word, or "" when none is close
// enough: within max(2, len(word)/3) edits. Ties go to the earlier
// candidate. Case differences count as edits, but a candidate equal to word
// ignoring case always wins.
func suggest(word string, candidates []string) string {
	if word == "" {
		return ""
	}
	limit := max(2, len([]rune(word))/3)
	best, bestD := "", limit+1
	for _, c := range candidates {
		if c == word {
			continue
		}
		d := distance(word, c)
		if strings.EqualFold(word, c) {
			d = 0
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// didYouMean formats suggest's answer as a message suffix:
// ` (did you mean "x"?)`, or "" without a suggestion.
func didYouMean(word string, candidates []string) string {
	if s := suggest(word, candidates); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}
