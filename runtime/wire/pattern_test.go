package wire

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// fastPatterns are patterns specs use that MatchString decides without the
// regexp.
var fastPatterns = []string{
	`^[a-z0-9-]+$`, `^INV-[0-9]+$`, `^T-[0-9]+$`, `^[A-Z]{2}[0-9]{2}`, `^INV-`, `^[A-Z]{3}-\d{4}$`,
	`^[A-Z]{3}$`, `^a`, `^[a-z]+$`, `^[0-9]{12,19}$`, `^[A-Z][A-Za-z0-9_]*$`, `^#/types/[A-Za-z][A-Za-z0-9_]*$`,
	`^/v1/products`, `^cus_[A-Za-z0-9]+$`, `^[^<>]*$`, `^[0-9A-Z -]{3,10}$`, `^[0-9 +]+$`, `^image/`,
	`^https?://[^?#]*$`, `^[^\r\n]*$`, `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`, `^/[^?#]*$`, `^\d{3}-\d{4}$`,
	`^.{2,4}$`, `(?i)^abc$`, `^(?:[a-z])+$`, `^([a-z]+)-([0-9]+)$`, `\A[a-z]+\z`, `^$`, `^`,
}

// slowPatterns are patterns MatchString leaves to the regexp.
var slowPatterns = []string{
	`ab`, `[0-9]+$`, `^(x|yz)*$`, `^(price|plan)_[A-Za-z0-9]+$`, `^[a-z]*a$`, `^[a-z0-9.-]+\.[a-z]{2,}$`,
	`(?m)^a$`, `^a\b`, `^(ab)+$`, `^[A-Za-z]{1,3}[a-z]$`, `^a|b$`,
}

func TestPatternFastPath(t *testing.T) {
	for _, expr := range fastPatterns {
		if p := MustPattern(expr); p.re != nil {
			t.Errorf("MustPattern(%q) falls back to the regexp", expr)
		}
	}
	for _, expr := range slowPatterns {
		if p := MustPattern(expr); p.re == nil {
			t.Errorf("MustPattern(%q) does not fall back to the regexp", expr)
		}
	}
}

func TestPatternErrors(t *testing.T) {
	if _, err := CompilePattern(`([a-z]+`); err == nil {
		t.Fatal("CompilePattern accepted an unclosed group")
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "missing closing )") {
			t.Fatalf("MustPattern panicked with %v", r)
		}
	}()
	MustPattern(`([a-z]+`)
}

func TestPatternString(t *testing.T) {
	if got := MustPattern(`^a+$`).String(); got != `^a+$` {
		t.Fatalf("String() = %q", got)
	}
}

// checkPattern compares MatchString with the regexp's on s.
func checkPattern(t *testing.T, expr string, p *Pattern, re *regexp.Regexp, s string) {
	t.Helper()
	if got, want := p.MatchString(s), re.MatchString(s); got != want {
		t.Fatalf("MustPattern(%q).MatchString(%q) = %v, regexp says %v (fast path: %v)", expr, s, got, want, p.re == nil)
	}
}

// patternInputs returns strings to try p on: for a pattern on the fast path,
// strings drawn from its steps (most of which match) and mutations of
// them; and random strings over a small alphabet.
func patternInputs(r *rand.Rand, p *Pattern) []string {
	alphabet := []rune("aAbBcz019-_.:/# +<>?\n\r\téÉ日\u212a\ufffd")
	randomRune := func() string {
		if r.IntN(12) == 0 {
			return "\xff" // invalid UTF-8: the regexp reads U+FFFD
		}
		return string(alphabet[r.IntN(len(alphabet))])
	}
	var out []string
	for range 20 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(randomRune())
		}
		out = append(out, b.String())
	}
	if p.re != nil {
		return out
	}
	for range 30 {
		var b strings.Builder
		for _, st := range p.steps {
			if st.lit != "" {
				b.WriteString(st.lit)
				continue
			}
			n := st.min + r.IntN(3)
			if st.max >= 0 && n > st.max {
				n = st.max
			}
			for range n {
				b.WriteString(drawFromStep(r, &st))
			}
		}
		s := b.String()
		out = append(out, s)
		rs := []rune(s)
		switch k := r.IntN(4); {
		case k == 0 && len(rs) > 0: // drop a rune
			i := r.IntN(len(rs))
			out = append(out, string(rs[:i])+string(rs[i+1:]))
		case k == 1: // insert one
			i := r.IntN(len(rs) + 1)
			out = append(out, string(rs[:i])+randomRune()+string(rs[i:]))
		case k == 2 && len(rs) > 0: // replace one
			i := r.IntN(len(rs))
			out = append(out, string(rs[:i])+randomRune()+string(rs[i+1:]))
		default: // append one
			out = append(out, s+randomRune())
		}
	}
	return out
}

// drawFromStep returns a random rune (as UTF-8) that the class of st takes.
func drawFromStep(r *rand.Rand, st *patStep) string {
	var ascii []byte
	for c := 0; c < utf8.RuneSelf; c++ {
		if st.ascii[c] {
			ascii = append(ascii, byte(c))
		}
	}
	if len(st.high) > 0 && (len(ascii) == 0 || r.IntN(4) == 0) {
		i := 2 * r.IntN(len(st.high)/2)
		lo, hi := st.high[i], st.high[i+1]
		c := lo + rune(r.IntN(int(min(hi-lo, 1000))+1))
		if c == utf8.RuneError && r.IntN(2) == 0 {
			return "\xfe"
		}
		return string(c)
	}
	if len(ascii) == 0 {
		return ""
	}
	return string(ascii[r.IntN(len(ascii))])
}

func testPatternDifferential(t *testing.T, r *rand.Rand, expr string) (fast bool) {
	t.Helper()
	re, err := regexp.Compile(expr)
	if err != nil {
		if _, perr := CompilePattern(expr); perr == nil {
			t.Fatalf("CompilePattern(%q) accepted what regexp.Compile refuses: %v", expr, err)
		}
		return false
	}
	p := MustPattern(expr)
	for _, s := range patternInputs(r, p) {
		checkPattern(t, expr, p, re, s)
	}
	return p.re == nil
}

func TestPatternKnown(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, expr := range append(fastPatterns, slowPatterns...) {
		testPatternDifferential(t, r, expr)
	}
}

// TestPatternRepo checks MatchString against the regexp on every pattern
// in the repository's specs, schemas and test data (JSON, YAML, and the
// YAML inside Go tests).
func TestPatternRepo(t *testing.T) {
	root := filepath.Join("..", "..")
	jsonPat := regexp.MustCompile(`"pattern"\s*:\s*("(?:[^"\\]|\\.)*")`)
	yamlPat := regexp.MustCompile(`\bpattern:[ \t]*("(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*'|[^\s,}{|>'"][^\s,}]*)`)
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if e.Name() == ".git" || e.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(path)
		if ext != ".json" && ext != ".yaml" && ext != ".yml" && ext != ".go" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range jsonPat.FindAllSubmatch(data, -1) {
			if s, err := strconv.Unquote(string(m[1])); err == nil {
				seen[s] = true
			}
		}
		if ext != ".json" {
			for _, m := range yamlPat.FindAllSubmatch(data, -1) {
				v := string(m[1])
				switch {
				case strings.HasPrefix(v, `"`):
					if s, err := strconv.Unquote(v); err == nil {
						seen[s] = true
					}
				case strings.HasPrefix(v, `'`) && strings.HasSuffix(v, `'`) && len(v) >= 2:
					seen[strings.ReplaceAll(v[1:len(v)-1], "''", "'")] = true
				case !strings.HasPrefix(v, `'`):
					seen[v] = true
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 20 {
		t.Fatalf("found only %d patterns in the repository", len(seen))
	}
	r := rand.New(rand.NewPCG(3, 4))
	fast := 0
	for expr := range seen {
		if testPatternDifferential(t, r, expr) {
			fast++
		}
	}
	t.Logf("%d patterns, %d on the fast path", len(seen), fast)
}

// randomPattern draws a pattern from pieces that are mostly within the fast
// path's reach, sometimes not.
func randomPattern(r *rand.Rand) string {
	atoms := []string{"a", "b", "-", ".", `\.`, "é", "日", `\d`, `\w`, `\s`, "[a-c]", "[^a]", "[a-z0-9-]", "[A-Z]",
		`\pL`, "[é-ü]", `\x{FFFD}`, "[^\n]", "(?:a)", "(b)", "(?i:k)", "(?i:é)", "(?s:.)", "[[:alpha:]]", "ab", "(a|b)", "(ab|c)", `\b`}
	reps := []string{"", "", "", "?", "*", "+", "{2}", "{1,3}", "{0,2}", "{2,}", "+?", "*?", "{0}"}
	var b strings.Builder
	if r.IntN(8) != 0 {
		b.WriteString("^")
	}
	if r.IntN(10) == 0 {
		b.WriteString("(?i)")
	}
	for range r.IntN(5) {
		b.WriteString(atoms[r.IntN(len(atoms))])
		b.WriteString(reps[r.IntN(len(reps))])
	}
	if r.IntN(3) != 0 {
		b.WriteString("$")
	}
	return b.String()
}

func TestPatternRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	fast := 0
	const n = 3000
	for range n {
		if testPatternDifferential(t, r, randomPattern(r)) {
			fast++
		}
	}
	if fast < n/4 {
		t.Fatalf("only %d of %d random patterns took the fast path", fast, n)
	}
	t.Logf("%d of %d random patterns on the fast path", fast, n)
}

// FuzzPattern checks that MatchString agrees with the regexp on any pattern
// and string.
func FuzzPattern(f *testing.F) {
	for _, expr := range append(fastPatterns, slowPatterns...) {
		f.Add(expr, "abc")
	}
	f.Add(`^[a-z]{2,3}x?$`, "abx")
	f.Add(`^é+$`, "\xc3\xa9\xff")
	f.Fuzz(func(t *testing.T, expr, s string) {
		re, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		checkPattern(t, expr, MustPattern(expr), re, s)
	})
}

// BenchmarkPattern compares, in one run, MatchString with the regexp's on a
// pattern of the fast path.
func BenchmarkPattern(b *testing.B) {
	const expr, s = `^[a-z0-9-]+$`, "retainer-q1"
	b.Run("pattern", func(b *testing.B) {
		p := MustPattern(expr)
		for b.Loop() {
			if !p.MatchString(s) {
				b.Fatal("no match")
			}
		}
	})
	b.Run("regexp", func(b *testing.B) {
		re := regexp.MustCompile(expr)
		for b.Loop() {
			if !re.MatchString(s) {
				b.Fatal("no match")
			}
		}
	})
}
