package wire

import (
	"net/netip"
	"time"
)

// The format checkers below implement the JSON Schema formats toolgen
// supports. They allocate nothing and accept a string or a []byte.

// text is what the checkers accept.
type text interface{ ~string | ~[]byte }

// IsDateTime reports whether s is an RFC 3339 date-time
// ("2024-01-31T12:00:00Z", "2024-01-31t12:00:00.5+01:00").
func IsDateTime[T text](s T) bool {
	_, ok := dateTime(s, false)
	return ok
}

// ParseDateTime parses an RFC 3339 date-time. A "Z" offset gives a UTC
// time; others a fixed zone. A leap second (:60) is accepted and normalised.
func ParseDateTime[T text](s T) (time.Time, bool) {
	return dateTime(s, true)
}

// IsDate reports whether s is an RFC 3339 full-date ("2024-01-31").
func IsDate[T text](s T) bool {
	_, _, _, ok := date(s)
	return ok && len(s) == 10
}

func digits[T text](s T, i, n int) (int, bool) {
	if i+n > len(s) {
		return 0, false
	}
	v := 0
	for j := i; j < i+n; j++ {
		c := s[j]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// date parses the full-date at the start of s.
func date[T text](s T) (y, m, d int, ok bool) {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return 0, 0, 0, false
	}
	y, ok1 := digits(s, 0, 4)
	m, ok2 := digits(s, 5, 2)
	d, ok3 := digits(s, 8, 2)
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return 0, 0, 0, false
	}
	return y, m, d, true
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func dateTime[T text](s T, build bool) (time.Time, bool) {
	y, mo, d, ok := date(s)
	if !ok || len(s) < 20 || (s[10] != 'T' && s[10] != 't') || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	h, ok1 := digits(s, 11, 2)
	mi, ok2 := digits(s, 14, 2)
	sec, ok3 := digits(s, 17, 2)
	if !ok1 || !ok2 || !ok3 || h > 23 || mi > 59 || sec > 60 {
		return time.Time{}, false
	}
	i := 19
	nsec := 0
	if s[i] == '.' {
		i++
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if i-start < 9 {
				nsec = nsec*10 + int(s[i]-'0')
			}
			i++
		}
		if i == start {
			return time.Time{}, false
		}
		for n := i - start; n < 9; n++ {
			nsec *= 10
		}
	}
	if i >= len(s) {
		return time.Time{}, false
	}
	offset := 0
	switch s[i] {
	case 'Z', 'z':
		i++
	case '+', '-':
		oh, ok1 := digits(s, i+1, 2)
		om, ok2 := digits(s, i+4, 2)
		if !ok1 || !ok2 || s[i+3] != ':' || oh > 23 || om > 59 {
			return time.Time{}, false
		}
		offset = oh*3600 + om*60
		if s[i] == '-' {
			offset = -offset
		}
		i += 6
	default:
		return time.Time{}, false
	}
	if i != len(s) {
		return time.Time{}, false
	}
	if sec == 60 {
		// A leap second is 23:59:60 UTC, whatever the offset says.
		if utc := ((h*60+mi-offset/60)%1440 + 1440) % 1440; utc != 23*60+59 {
			return time.Time{}, false
		}
	}
	if !build {
		return time.Time{}, true
	}
	loc := time.UTC
	if offset != 0 {
		loc = time.FixedZone("", offset)
	}
	return time.Date(y, time.Month(mo), d, h, mi, sec, nsec, loc), true
}

// IsUUID reports whether s is a UUID in its 8-4-4-4-12 hex form.
func IsUUID[T text](s T) bool {
	if len(s) != 36 {
		return false
	}
	if s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return false
	}
	// The four dashes weigh 0, so the sum over all 36 bytes is 32 exactly
	// when the other 32 are hex digits (1 each): one of them a dash (0)
	// leaves it short, and any other byte (64) overshoots it.
	sum := 0
	for i := range 36 {
		sum += int(uuidWeight[s[i]])
	}
	return sum == 32
}

// uuidWeight is 1 for the hex digits, 0 for '-' and 64 for the other bytes.
var uuidWeight = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case isHex(byte(c)):
			t[c] = 1
		case c != '-':
			t[c] = 64
		}
	}
	return t
}()

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// IsEmail reports whether s is an email address (RFC 5321 mailbox, ASCII):
// a dot-atom or quoted-string local part of at most 64 characters
// ("first.last", "\"john doe\""), "@", and a host name or a bracketed
// address literal ([192.0.2.1], [IPv6:2001:db8::1]), 254 characters at
// most in all.
func IsEmail[T text](s T) bool {
	if len(s) > 254 {
		return false
	}
	at := -1
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '@' {
			at = i
			break
		}
	}
	if at < 1 || at > 64 || at == len(s)-1 || !isLocalPart(s, at) {
		return false
	}
	if s[at+1] == '[' {
		return s[len(s)-1] == ']' && isAddressLiteral(s, at+2, len(s)-1)
	}
	return isHostname(s, at+1, len(s))
}

// isLocalPart checks s[:at]: a dot-string (atoms joined by single dots) or
// a quoted string of printable ASCII with backslash pairs.
func isLocalPart[T text](s T, at int) bool {
	if s[0] == '"' {
		if at < 2 || s[at-1] != '"' {
			return false
		}
		for i := 1; i < at-1; i++ {
			c := s[i]
			switch {
			case c == '\\':
				if i+1 >= at-1 || s[i+1] < 32 || s[i+1] > 126 {
					return false
				}
				i++
			case c == '"' || c < 32 || c > 126:
				return false
			}
		}
		return true
	}
	prevDot := true // no leading dot
	for i := 0; i < at; i++ {
		c := s[i]
		if atomByte[c] {
			prevDot = false
			continue
		}
		if c != '.' || prevDot {
			return false
		}
		prevDot = true
	}
	return !prevDot // no trailing dot
}

// atomByte marks the bytes of a dot-string's atoms: letters, digits and
// atext.
var atomByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isAlpha(byte(c)) || isDigit(byte(c)) || isAtext(byte(c))
	}
	return t
}()

func isAtext(c byte) bool {
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '/', '=', '?', '^', '_', '`', '{', '|', '}', '~':
		return true
	}
	return false
}

// isHostname checks s[i:j] as dot-separated labels of letters, digits and
// inner hyphens, 63 characters each at most.
func isHostname[T text](s T, i, j int) bool {
	if i >= j || j-i > 253 {
		return false
	}
	for start := i; ; {
		k := start
		for k < j && hostByte[s[k]] {
			k++
		}
		// The end of a label: a dot, or the end.
		if n := k - start; n < 1 || n > 63 || s[start] == '-' || s[k-1] == '-' {
			return false
		}
		if k == j {
			return true
		}
		if s[k] != '.' {
			return false
		}
		start = k + 1
	}
}

// hostByte marks the bytes of a hostname's labels: letters, digits, '-'.
var hostByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isAlpha(byte(c)) || isDigit(byte(c)) || c == '-'
	}
	return t
}()

// isAddressLiteral accepts a dotted IPv4 address or "IPv6:" and an IPv6
// address.
func isAddressLiteral[T text](s T, i, j int) bool {
	if j-i > 5 && string(s[i:i+5]) == "IPv6:" {
		return isIPv6(s, i+5, j)
	}
	return isIPv4(s, i, j)
}

// isIPv4 checks s[i:j] as four decimal octets.
func isIPv4[T text](s T, i, j int) bool {
	parts, n, v := 0, 0, 0
	for k := i; k <= j; k++ {
		if k == j || s[k] == '.' {
			if n == 0 || v > 255 || (n > 1 && s[k-n] == '0') {
				return false
			}
			parts++
			n, v = 0, 0
			continue
		}
		if !isDigit(s[k]) || n == 3 {
			return false
		}
		v = v*10 + int(s[k]-'0')
		n++
	}
	return parts == 4
}

// isIPv6 checks s[i:j] as an IPv6 address (RFC 4291 text, no zone).
func isIPv6[T text](s T, i, j int) bool {
	if j-i < 2 || j-i > 45 {
		return false
	}
	a, err := netip.ParseAddr(string(s[i:j]))
	return err == nil && a.Is6() && a.Zone() == ""
}

// IsURI reports whether s is an absolute URI per RFC 3986: a scheme, ":",
// and a hierarchical part (an authority of user info, a host — a name, an
// IPv4 address or a bracketed IPv6 address — and digits of a port, then a
// path) or a path, then a query and a fragment, each made only of the
// characters its part may hold, with every "%" followed by two hex digits.
func IsURI[T text](s T) bool {
	colon := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ':' {
			colon = i
			break
		}
		if !(isAlpha(c) || i > 0 && (isDigit(c) || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	if colon < 1 {
		return false
	}
	end := len(s)
	for i := colon + 1; i < len(s); i++ {
		if s[i] == '#' {
			if !uriChars(s, i+1, len(s), "/?") {
				return false
			}
			end = i
			break
		}
	}
	for i := colon + 1; i < end; i++ {
		if s[i] == '?' {
			if !uriChars(s, i+1, end, "/?") {
				return false
			}
			end = i
			break
		}
	}
	i := colon + 1
	if end-i >= 2 && s[i] == '/' && s[i+1] == '/' {
		j := i + 2
		for j < end && s[j] != '/' {
			j++
		}
		if !isAuthority(s, i+2, j) {
			return false
		}
		i = j
	}
	return uriChars(s, i, end, "/")
}

// uriChars checks that s[i:j] holds only pchar (unreserved, sub-delims, ":",
// "@" and percent escapes) and the characters of extra.
func uriChars[T text](s T, i, j int, extra string) bool {
	for ; i < j; i++ {
		c := s[i]
		switch {
		case isUnreserved(c) || isSubDelim(c) || c == ':' || c == '@':
		case c == '%':
			if i+2 >= j || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		default:
			if !containsByte(extra, c) {
				return false
			}
		}
	}
	return true
}

// isAuthority checks s[i:j] as [userinfo "@"] host [":" port].
func isAuthority[T text](s T, i, j int) bool {
	for k := i; k < j; k++ {
		if s[k] == '@' {
			if !uriChars(s, i, k, "") || containsAt(s, i, k) {
				return false
			}
			i = k + 1
			break
		}
	}
	hostEnd := j
	if i < j && s[i] == '[' {
		close := -1
		for k := i; k < j; k++ {
			if s[k] == ']' {
				close = k
				break
			}
		}
		if close < 0 || !isIPLiteral(s, i+1, close) {
			return false
		}
		hostEnd = close + 1
		if hostEnd < j && s[hostEnd] != ':' {
			return false
		}
	} else {
		for k := i; k < j; k++ {
			if s[k] == ':' {
				hostEnd = k
				break
			}
		}
		// reg-name (an IPv4 address is one too)
		for k := i; k < hostEnd; k++ {
			c := s[k]
			switch {
			case isUnreserved(c) || isSubDelim(c):
			case c == '%':
				if k+2 >= hostEnd || !isHex(s[k+1]) || !isHex(s[k+2]) {
					return false
				}
				k += 2
			default:
				return false
			}
		}
	}
	if hostEnd < j { // ":" port
		for k := hostEnd + 1; k < j; k++ {
			if !isDigit(s[k]) {
				return false
			}
		}
	}
	return true
}

// isIPLiteral checks the inside of a bracketed host: an IPv6 address or an
// IPvFuture ("v" hex digits "." and more).
func isIPLiteral[T text](s T, i, j int) bool {
	if i < j && (s[i] == 'v' || s[i] == 'V') {
		k := i + 1
		for k < j && isHex(s[k]) {
			k++
		}
		if k == i+1 || k >= j-1 || s[k] != '.' {
			return false
		}
		for k++; k < j; k++ {
			if c := s[k]; !isUnreserved(c) && !isSubDelim(c) && c != ':' {
				return false
			}
		}
		return true
	}
	return isIPv6(s, i, j)
}

func containsAt[T text](s T, i, j int) bool {
	for ; i < j; i++ {
		if s[i] == '@' {
			return true
		}
	}
	return false
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

func isUnreserved(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'
}

func isSubDelim(c byte) bool {
	switch c {
	case '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=':
		return true
	}
	return false
}

// formatMessages say what a value of each format must be.
var formatMessages = map[string]string{
	"date-time": `must be an RFC 3339 date-time, such as "2024-01-31T09:30:00Z"`,
	"date":      `must be a date written YYYY-MM-DD, such as "2024-01-31"`,
	"email":     "must be an email address",
	"uri":       `must be an absolute URI, such as "https://example.com/"`,
	"uuid":      `must be a UUID, such as "123e4567-e89b-12d3-a456-426614174000"`,
}

// FormatMessage is the violation message of a value that is not of format
// (before ", got <value>"): the decoder's and the spec loader's.
func FormatMessage(format string) string { return formatMessages[format] }
