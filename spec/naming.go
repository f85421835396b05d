package spec

import (
	"go/token"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// commonInitialisms are the words golint (and Go readers) expect in all caps.
var commonInitialisms = map[string]bool{
	"ACL": true, "API": true, "ARR": true, "ASCII": true, "CPU": true, "CSS": true, "CSV": true,
	"DNS": true, "EOF": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true,
	"ID": true, "IDS": true, "IP": true, "JSON": true, "LHS": true, "MCP": true, "MRR": true,
	"OS": true, "PDF": true, "QPS": true, "RAM": true, "RHS": true, "RPC": true, "SLA": true,
	"SMTP": true, "SQL": true, "SSH": true, "TCP": true, "TLS": true, "TTL": true, "UDP": true,
	"UI": true, "UID": true, "URI": true, "URL": true, "UTF8": true, "UUID": true, "VM": true,
	"XML": true, "XMPP": true, "XSRF": true, "XSS": true,
}

// GoName turns a spec name (snake_case, kebab-case, camelCase) into an
// exported Go identifier with Go's initialisms: "user_id" and "userId" both
// give "UserID", "list-customers" gives "ListCustomers". It returns "" when
// the name has no letters or digits.
func GoName(name string) string { return goName(name, nil) }

// isInitialism reports whether up (upper case) is one of Go's initialisms
// or of extra.
func isInitialism(up string, extra []string) bool {
	return commonInitialisms[up] || slices.Contains(extra, up)
}

// goName is GoName with extra initialisms.
func goName(name string, extra []string) string {
	if isASCII(name) {
		return goNameASCII(name, extra)
	}
	return goNameRunes(name, extra)
}

// goNameRunes is goName for any name.
func goNameRunes(name string, extra []string) string {
	var b strings.Builder
	for _, w := range words(name) {
		up := strings.ToUpper(w)
		if isInitialism(up, extra) {
			if up == "IDS" {
				up = "IDs"
			}
			b.WriteString(up)
			continue
		}
		// Plurals of initialisms: "urls" → "URLs", "APIs" → "APIs".
		if base, ok := strings.CutSuffix(up, "S"); ok && len(base) > 1 && isInitialism(base, extra) && strings.HasSuffix(w, "s") {
			b.WriteString(base + "s")
			continue
		}
		r := []rune(w)
		b.WriteString(strings.ToUpper(string(r[0])))
		b.WriteString(strings.ToLower(string(r[1:])))
	}
	s := b.String()
	if s != "" && unicode.IsDigit([]rune(s)[0]) {
		s = "X" + s
	}
	return s
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isUpperASCII(c byte) bool { return 'A' <= c && c <= 'Z' }
func isLowerASCII(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigitASCII(c byte) bool { return '0' <= c && c <= '9' }

// goNameASCII is goNameRunes for an ASCII name, with the words of words
// found in place: the same name, without a string for each word.
func goNameASCII(name string, extra []string) string {
	var buf [64]byte
	out := buf[:0]
	var up []byte
	word := func(w string) {
		up = append(up[:0], w...)
		for i, c := range up {
			if isLowerASCII(c) {
				up[i] = c - ('a' - 'A')
			}
		}
		if isInitialismBytes(up, extra) {
			if string(up) == "IDS" {
				out = append(out, "IDs"...)
			} else {
				out = append(out, up...)
			}
			return
		}
		// Plurals of initialisms: "urls" → "URLs", "APIs" → "APIs".
		if n := len(up); n > 2 && up[n-1] == 'S' && w[n-1] == 's' && isInitialismBytes(up[:n-1], extra) {
			out = append(out, up[:n-1]...)
			out = append(out, 's')
			return
		}
		out = append(out, up[0])
		for i := 1; i < len(w); i++ {
			c := w[i]
			if isUpperASCII(c) {
				c += 'a' - 'A'
			}
			out = append(out, c)
		}
	}
	start := -1 // of the current word, -1 for none
	flush := func(i int) {
		if start >= 0 {
			word(name[start:i])
			start = -1
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case isUpperASCII(c):
			// As in words: "userID" → user, ID; "HTTPServer" → HTTP,
			// Server; "APIs" stays one word.
			if start >= 0 {
				prev := name[i-1]
				nextLower := i+1 < len(name) && isLowerASCII(name[i+1])
				if nextLower && name[i+1] == 's' && (i+2 == len(name) || !isLowerASCII(name[i+2])) {
					nextLower = false
				}
				if isLowerASCII(prev) || isDigitASCII(prev) || (isUpperASCII(prev) && nextLower) {
					flush(i)
				}
			}
			if start < 0 {
				start = i
			}
		case isLowerASCII(c) || isDigitASCII(c):
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(name))
	if len(out) > 0 && isDigitASCII(out[0]) {
		return "X" + string(out)
	}
	return string(out)
}

// isInitialismBytes is isInitialism for upper-case bytes.
func isInitialismBytes(up []byte, extra []string) bool {
	if commonInitialisms[string(up)] {
		return true
	}
	for _, e := range extra {
		if e == string(up) {
			return true
		}
	}
	return false
}

// words splits a name at '_', '-', ' ', '.', and at lower→upper case changes.
func words(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == ' ' || r == '.':
			flush()
		case unicode.IsUpper(r):
			// "userID" → user, ID; "HTTPServer" → HTTP, Server; but
			// "APIs" stays one word (a plural initialism).
			if len(cur) > 0 {
				prev := rs[i-1]
				nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
				if nextLower && rs[i+1] == 's' && (i+2 == len(rs) || !unicode.IsLower(rs[i+2])) {
					nextLower = false
				}
				if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
					flush()
				}
			}
			cur = append(cur, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	return out
}

// ToolGoName is the Go stem of a tool: its name without the "<provider>_"
// prefix, as GoName ("stripe_list_customers" with provider "stripe" gives
// "ListCustomers").
func ToolGoName(provider, tool string) string { return toolGoName(provider, tool, nil) }

func toolGoName(provider, tool string, extra []string) string {
	if provider != "" {
		for _, sep := range []string{"_", "-"} {
			if rest, ok := strings.CutPrefix(tool, provider+sep); ok && goName(rest, extra) != "" {
				return goName(rest, extra)
			}
		}
	}
	return goName(tool, extra)
}

// IsKeyword reports whether s is a Go keyword.
func IsKeyword(s string) bool { return token.IsKeyword(s) }

// Singular returns the singular of a CamelCase name's last word, and
// whether that word read as an English plural.
func Singular(name string) (string, bool) {
	for _, r := range []struct{ plural, one string }{
		{"ies", "y"},
		{"sses", "ss"}, {"shes", "sh"}, {"ches", "ch"}, {"xes", "x"}, {"zzes", "zz"},
		{"atuses", "atus"},
	} {
		if base, ok := strings.CutSuffix(name, r.plural); ok && base != "" && !endsWord(base) {
			return base + r.one, true
		}
	}
	base, ok := strings.CutSuffix(name, "s")
	if !ok || base == "" || endsWord(base) {
		return "", false
	}
	for _, not := range []string{"s", "u", "i"} {
		if strings.HasSuffix(base, not) {
			return "", false // Address, Status, Analysis
		}
	}
	return base, true
}

// endsWord reports whether a CamelCase name ends where a word ends
// before a capital, so the suffix cut off was a word of its own ("S" of
// "ItemS" is not a plural): base is empty or ends in an upper-case
// letter followed by nothing lower-case.
func endsWord(base string) bool {
	if base == "" {
		return true
	}
	last := base[len(base)-1]
	// "IDs": base "ID" ends in a capital, and the "s" is a plural of the
	// initialism; a single-letter word ("As") is not.
	if last >= 'A' && last <= 'Z' {
		n := 0
		for i := len(base) - 1; i >= 0 && base[i] >= 'A' && base[i] <= 'Z'; i-- {
			n++
		}
		return n < 2
	}
	return last < 'a' || last > 'z'
}

// LowerFirst makes an exported name unexported: "ListCustomers" gives
// "listCustomers", "URLFetch" gives "urlFetch", "ID" gives "id".
func LowerFirst(s string) string {
	r := []rune(s)
	n := 0
	for n < len(r) && unicode.IsUpper(r[n]) {
		n++
	}
	switch {
	case n == 0:
		return s
	case n == 1 || n == len(r):
		n = max(n, 1)
	default:
		n-- // keep the capital that starts the next word
	}
	for i := 0; i < n; i++ {
		r[i] = unicode.ToLower(r[i])
	}
	return string(r)
}
