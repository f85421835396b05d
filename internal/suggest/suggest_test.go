package suggest

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "abc", 0},
		{"same", "same", 0},
		{"abc", "acb", 1},     // a transposition is one edit
		{"nmae", "name", 1},   //
		{"title", "titel", 1}, //
		{"kitten", "sitting", 3},
		{"ca", "abc", 3}, // optimal string alignment: no edit of a transposed pair
		{"a", "A", 1},    // case counts
		{"café", "cafe", 1},
		{"日本語", "日語本", 1}, // runes, not bytes
		{"flaw", "lawn", 2},
	} {
		if got := Distance(c.a, c.b); got != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
		if got := Distance(c.b, c.a); got != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.b, c.a, got, c.d)
		}
	}
}

// reference is the optimal-string-alignment distance by the textbook full
// matrix, to check Distance's three rolling rows against.
func reference(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

func FuzzDistance(f *testing.F) {
	for _, s := range [][2]string{{"", ""}, {"kitten", "sitting"}, {"ca", "abc"}, {"nmae", "name"}, {"café", "cafe"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 64 || len(b) > 64 {
			t.Skip()
		}
		d := Distance(a, b)
		if want := reference(a, b); d != want {
			t.Fatalf("Distance(%q, %q) = %d, reference says %d", a, b, d, want)
		}
		if d != Distance(b, a) {
			t.Fatalf("Distance(%q, %q) = %d but Distance(%q, %q) = %d", a, b, d, b, a, Distance(b, a))
		}
		na, nb := utf8.RuneCountInString(a), utf8.RuneCountInString(b)
		if d < max(na, nb)-min(na, nb) || d > max(na, nb) {
			t.Fatalf("Distance(%q, %q) = %d, outside [%d, %d]", a, b, d, max(na, nb)-min(na, nb), max(na, nb))
		}
		if (d == 0) != (a == b) && utf8.ValidString(a) && utf8.ValidString(b) {
			t.Fatalf("Distance(%q, %q) = %d", a, b, d)
		}
	})
}

func TestClosest(t *testing.T) {
	sameIgnoringCase := func(a, b string) bool { return strings.EqualFold(a, b) }
	for _, c := range []struct {
		name       string
		word       string
		candidates []string
		o          Options
		want       string
	}{
		{"zero options suggest nothing", "titel", []string{"title"}, Options{}, ""},
		{"within the distance", "titel", []string{"title"}, Options{MaxDistance: 1}, "title"},
		{"beyond the distance", "tilt", []string{"title"}, Options{MaxDistance: 1}, ""},
		{"negative distance", "titel", []string{"title"}, Options{MaxDistance: -1}, ""},
		{"the closest wins", "tags", []string{"flags", "tag"}, Options{MaxDistance: 2}, "tag"},
		{"a tie goes to the earliest", "ab", []string{"a", "b"}, Options{MaxDistance: 1}, "a"},
		{"a tie under Unique is no guess", "ab", []string{"a", "b"}, Options{MaxDistance: 1, Unique: true}, ""},
		{"Unique with one best", "ab", []string{"a", "xbc", "xyz"}, Options{MaxDistance: 2, Unique: true}, "a"},
		{"a farther tie does not matter", "abcd", []string{"abce", "xbcf", "abxf"}, Options{MaxDistance: 2, Unique: true}, "abce"},
		{"the word is not its own suggestion", "items", []string{"items"}, Options{MaxDistance: 2}, ""},
		{"the word is skipped, others are not", "item", []string{"item", "items"}, Options{MaxDistance: 2}, "items"},
		{"case counts", "Title", []string{"title"}, Options{MaxDistance: 0}, ""},
		{"IgnoreCase", "Title", []string{"title"}, Options{MaxDistance: 0, IgnoreCase: true}, "title"},
		{"IgnoreCase returns the candidate as written", "web_serch", []string{"Web_Search"}, Options{MaxDistance: 1, IgnoreCase: true}, "Web_Search"},
		{"Same wins over a closer candidate", "MAXLEN", []string{"maxlex", "maxLen"}, Options{MaxDistance: 3, Same: sameIgnoringCase}, "maxLen"},
		{"Same ignores the distance limit", "ABCDEF", []string{"abcdef"}, Options{Same: sameIgnoringCase}, "abcdef"},
		{"Same never offers the word itself", "abc", []string{"abc"}, Options{Same: sameIgnoringCase}, ""},
		{"Same takes the first it accepts", "ab", []string{"AB", "Ab"}, Options{Same: sameIgnoringCase}, "AB"},
		{"Same is not subject to Unique", "ab", []string{"AB", "Ab"}, Options{Same: sameIgnoringCase, Unique: true}, "AB"},
		{"no candidates", "x", nil, Options{MaxDistance: 3}, ""},
		{"an empty word", "", []string{"ab", "a"}, Options{MaxDistance: 1}, "a"},
	} {
		if got := Closest(c.word, c.candidates, c.o); got != c.want {
			t.Errorf("%s: Closest(%q, %q) = %q, want %q", c.name, c.word, c.candidates, got, c.want)
		}
	}
}
