package spec

import (
	"fmt"
	"strings"
	"unicode/utf8"

	didyoumean "github.com/toolgen/toolgen/internal/suggest"
)

// suggest returns the candidate closest to word, or "" when none is close
// enough: within max(2, len(word)/3) edits (counted in runes). Ties go to
// the earlier candidate. Case differences count as edits, but a candidate
// equal to word ignoring case always wins.
func suggest(word string, candidates []string) string {
	if word == "" {
		return ""
	}
	return didyoumean.Closest(word, candidates, didyoumean.Options{
		MaxDistance: max(2, utf8.RuneCountInString(word)/3),
		Same:        strings.EqualFold,
	})
}

// didYouMean formats suggest's answer as a message suffix:
// ` (did you mean "x"?)`, or "" without a suggestion.
func didYouMean(word string, candidates []string) string {
	if s := suggest(word, candidates); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}
