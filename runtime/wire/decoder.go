package wire

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	didyoumean "github.com/toolgen/toolgen/internal/suggest"
	"github.com/toolgen/toolgen/runtime"
)

// MaxDepth is how deep objects and arrays may nest in a decoded document.
// Deeper input is a violation (at the path where the limit was crossed),
// never a stack overflow.
const MaxDepth = 64

// validMaxDepth is Valid's nesting limit: encoding/json's, so that the two
// agree on what is valid.
const validMaxDepth = 10000

// Decoder reads one JSON document in a single pass, as directed by generated
// code: the generated decoder asks for the value it expects next (an object,
// a string, an integer …); a value of another type is recorded as a
// violation ("expected integer, got string") and skipped, so that decoding
// goes on and finds every violation.
//
// Malformed JSON stops the reading: Finish then reports only that, as one
// violation at "$" giving the byte offset and what was wrong.
//
// A Decoder is a value type meant to live on the caller's stack:
//
//	var d wire.Decoder
//	d.Reset(data)
//	...
//	err := d.Finish()
type Decoder struct {
	// Checker records violations at the path of the value being read.
	Checker

	data    []byte
	pos     int
	depth   int    // open objects and arrays
	fresh   bool   // just after '{' or '[': no member read yet
	stopped bool   // malformed input or too deep: nothing more is read
	name    []byte // the key NextKey read
	scratch []byte // unescaped strings
	strs    []byte // the block str copies short strings into (see strBlock)

	synPos int    // offset of the syntax error
	synMsg string // what was expected there ("" = no syntax error)

	mode runtime.DecodeMode // set by ResetMode (mode.go)
}

// Reset prepares d to read data from the start.
func (d *Decoder) Reset(data []byte) {
	d.Checker.Reset()
	d.data = data
	d.pos = 0
	d.depth = 0
	d.fresh = false
	d.stopped = false
	d.name = nil
	d.strs = nil // a document's strings share blocks with no other's
	d.synPos = 0
	d.synMsg = ""
	d.mode = 0
}

// Finish checks that nothing but whitespace follows the top-level value and
// returns the outcome: nil, or a *runtime.ValidationError. Malformed JSON is
// one violation at "$" (the other violations found before it are dropped:
// they may be artefacts of the damage).
func (d *Decoder) Finish() error {
	if !d.stopped {
		d.ws()
		if d.pos < len(d.data) {
			d.syntax("end of input after the top-level value")
		}
	}
	if d.synMsg != "" {
		return &runtime.ValidationError{Violations: []runtime.Violation{{Path: "$", Message: d.SyntaxError()}}}
	}
	return d.Checker.Err()
}

// SyntaxError describes the first syntax error, or returns "" if there was none.
func (d *Decoder) SyntaxError() string {
	if d.synMsg == "" {
		return ""
	}
	found := "end of input"
	if d.synPos < len(d.data) {
		r, _ := utf8.DecodeRune(d.data[d.synPos:])
		if r == utf8.RuneError {
			found = "byte 0x" + strconv.FormatUint(uint64(d.data[d.synPos]), 16)
		} else {
			found = strconv.QuoteRune(r)
		}
	}
	return "malformed JSON at byte offset " + strconv.Itoa(d.synPos) + ": expected " + d.synMsg + ", found " + found
}

// syntax stops the reading with a syntax error at the current position.
func (d *Decoder) syntax(expected string) {
	if d.synMsg == "" {
		d.synMsg = expected
		d.synPos = d.pos
	}
	d.stopped = true
}

// tooDeep stops the reading with a depth violation at the current path.
func (d *Decoder) tooDeep() {
	d.Add("value nests deeper than " + strconv.Itoa(MaxDepth) + " levels")
	d.stopped = true
}

// ws skips whitespace.
func (d *Decoder) ws() { d.pos = skipWS(d.data, d.pos) }

// skipWS returns the index of the first byte at or after i in data that is
// not whitespace, or len(data).
func skipWS(data []byte, i int) int {
	for i < len(data) && data[i] <= ' ' && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r') {
		i++
	}
	return i
}

// peek skips whitespace and returns the next byte, or 0 at the end.
func (d *Decoder) peek() byte {
	data := d.data
	i := skipWS(data, d.pos)
	d.pos = i
	if i < len(data) {
		return data[i]
	}
	return 0
}

// kindOf names the JSON type of a value starting with c, or "" if no value
// starts with c.
func kindOf(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return "number"
	}
	return ""
}

// mismatch records "expected <want>, got <kind>", followed by the value
// itself when it is a string, number or boolean (`expected integer, got
// string "3"`: the model sees what to change), or for a null in an optional
// property (EnterOptional) by a hint to leave it out; and skips the value.
func (d *Decoder) mismatch(want string) {
	k := kindOf(d.peek())
	if k == "" {
		d.syntax("a JSON value")
		return
	}
	start := d.pos
	if !d.skip(MaxDepth) {
		d.Add("expected " + want + ", got " + k)
		return
	}
	if d.full() {
		return
	}
	msg := "expected " + want + ", got " + k
	switch {
	case k == "string" || k == "number" || k == "boolean":
		msg += " " + clipText(d.data[start:d.pos], quoteMax)
	case k == "null" && d.inOptional():
		msg += "; leave the property out instead of sending null"
	}
	d.AddAt(d.Path(), msg)
}

// clipText is the JSON text tok, cut after at most max runes (and marked
// "…" where it was cut).
func clipText(tok []byte, max int) string {
	n := 0
	for i := range string(tok) {
		if n == max {
			return string(tok[:i]) + "…"
		}
		n++
	}
	return string(tok)
}

// Stopped reports whether reading stopped (malformed or too deeply nested input).
func (d *Decoder) Stopped() bool { return d.stopped }

// Null consumes a null and reports whether there was one.
func (d *Decoder) Null() bool {
	if d.stopped || d.peek() != 'n' {
		return false
	}
	return d.literal("null")
}

func (d *Decoder) literal(lit string) bool {
	if len(d.data)-d.pos >= len(lit) && string(d.data[d.pos:d.pos+len(lit)]) == lit {
		d.pos += len(lit)
		return true
	}
	// Point at the first byte that differs.
	for i := 0; i < len(lit); i++ {
		if d.pos >= len(d.data) || d.data[d.pos] != lit[i] {
			d.syntax(strconv.Quote(lit))
			return false
		}
		d.pos++
	}
	return false // not reached
}

// BeginObject starts reading an object; iterate its members with NextKey.
// Anything else is recorded as a violation and skipped, and BeginObject
// returns false.
func (d *Decoder) BeginObject() bool { return d.begin('{', "object") }

// begin enters the object or array that open starts (what names it in a
// type mismatch), within MaxDepth.
func (d *Decoder) begin(open byte, what string) bool {
	if i := skipWS(d.data, d.pos); !d.stopped && i < len(d.data) && d.data[i] == open && d.depth < MaxDepth {
		d.pos = i + 1
		d.depth++
		d.fresh = true
		return true
	}
	return d.beginOther(open, what)
}

// beginOther is begin for anything but the value it opens, within
// MaxDepth.
func (d *Decoder) beginOther(open byte, what string) bool {
	if d.stopped {
		return false
	}
	if d.peek() != open {
		d.mismatch(what)
		return false
	}
	if d.depth >= MaxDepth {
		d.tooDeep()
		return false
	}
	d.pos++
	d.depth++
	d.fresh = true
	return true
}

// leave consumes the closing bracket of the object or array being read.
func (d *Decoder) leave() {
	d.pos++
	d.depth--
	d.fresh = false
}

// NextKey reads the next member's key and the colon after it, and reports
// whether there is a member; after false the object has been consumed. The
// key is Name; the caller then reads (or skips) the value.
func (d *Decoder) NextKey() bool {
	if d.stopped {
		return false
	}
	// The common cases, `, "key":` (or `"key":` first) and the closing
	// '}', on locals; anything else is read again, from the start, by the
	// general case.
	data := d.data
	i := skipWS(data, d.pos)
	if i >= len(data) {
		return d.nextKey()
	}
	c := data[i]
	if c == '}' {
		d.pos = i
		d.leave()
		return false
	}
	if !d.fresh {
		if c != ',' {
			return d.nextKey()
		}
		if i = skipWS(data, i+1); i >= len(data) {
			return d.nextKey()
		}
		c = data[i]
	}
	if c != '"' {
		return d.nextKey()
	}
	d.fresh = false
	// To the first byte that ends a quick scan of the key (a '"', a '\\',
	// a control character or a byte of a multi-byte UTF-8 sequence), eight
	// bytes at a time, as a key is mostly a short run of plain ASCII.
	j := i + 1
	for j+8 <= len(data) {
		x := binary.LittleEndian.Uint64(data[j:])
		if m := strStop(x) | x&hiBits; m != 0 {
			j += bits.TrailingZeros64(m) >> 3
			goto scanned
		}
		j += 8
	}
	for j < len(data) && keyByte[data[j]] {
		j++
	}
scanned:
	if j < len(data) && data[j] == '"' {
		d.name = data[i+1 : j]
		d.pos = j + 1
	} else {
		name, ok := d.readStringFrom(i+1, j)
		if !ok {
			return false
		}
		d.name = name
	}
	if i = d.pos; i < len(data) && data[i] == ':' {
		d.pos = i + 1
		return true
	}
	if i = skipWS(data, d.pos); i < len(data) && data[i] == ':' {
		d.pos = i + 1
		return true
	}
	d.pos = i
	d.syntax("':' after object key")
	return false
}

// keyByte marks the bytes NextKey's quick scan of a key reads past: ASCII
// but control characters, '"' and '\\'.
var keyByte = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// nextKey is NextKey's general case.
func (d *Decoder) nextKey() bool {
	c := d.peek()
	if c == '}' {
		d.leave()
		return false
	}
	if d.fresh {
		d.fresh = false
	} else {
		if c != ',' {
			d.syntax("',' or '}' after object member")
			return false
		}
		d.pos++
		c = d.peek()
	}
	if c != '"' {
		d.syntax("string key of object member")
		return false
	}
	name, ok := d.readString()
	if !ok {
		return false
	}
	d.name = name
	if d.peek() != ':' {
		d.syntax("':' after object key")
		return false
	}
	d.pos++
	return true
}

// Name is the key NextKey read. It is valid until the next read.
func (d *Decoder) Name() []byte { return d.name }

// Unknown records `unknown property "<Name>"` at the current (object's)
// path and skips the member's value. known are the object's properties: the
// message suggests the one the model probably meant (`(did you mean
// "due_date"?)` for "dueDate" or "due_dat"), or else lists them all, so that
// the model can correct its call.
func (d *Decoder) Unknown(known ...string) {
	if !d.full() {
		d.AddAt(d.Path(), UnknownMessage(string(d.name), known))
	}
	d.skip(MaxDepth)
}

// UnknownMessage is the violation of an unknown property name in an object
// whose properties are known.
func UnknownMessage(name string, known []string) string {
	msg := "unknown property " + Quote(name)
	if len(known) == 0 {
		return msg
	}
	if s := suggest(name, known); s != "" {
		return msg + " (did you mean " + strconv.Quote(s) + "?)"
	}
	msg += "; known properties: "
	for i, k := range known {
		if i > 0 {
			msg += ", "
		}
		msg += strconv.Quote(k)
	}
	return msg
}

// suggest returns the known name that name most probably misspells: one
// equal to it but for case, "_" and "-" (dueDate, due-date, due_date), or
// else the single closest within an edit distance of 2 (and less than half
// its length). "" if there is none.
func suggest(name string, known []string) string {
	if len(name) > maxSuggestLen {
		return "" // longer than any property name: the distance would cost its square
	}
	return didyoumean.Closest(name, known, didyoumean.Options{
		// (n-1)/2 is the largest distance d with 2d < n.
		MaxDistance: min(2, (utf8.RuneCountInString(name)-1)/2),
		Same:        sameName,
		Unique:      true,
	})
}

// maxSuggestLen is the longest name suggest considers.
const maxSuggestLen = 256

// sameName reports whether a and b are one name written in other cases or
// with other separators: equal once ASCII letters are lower-cased and "_"
// and "-" dropped.
func sameName(a, b string) bool {
	i, j := 0, 0
	for {
		for i < len(a) && (a[i] == '_' || a[i] == '-') {
			i++
		}
		for j < len(b) && (b[j] == '_' || b[j] == '-') {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if lowerASCII(a[i]) != lowerASCII(b[j]) {
			return false
		}
		i++
		j++
	}
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Duplicate records `duplicate property "<Name>"` at the current (object's)
// path and skips the member's value.
func (d *Decoder) Duplicate() {
	if !d.full() {
		d.AddAt(d.Path(), "duplicate property "+Quote(string(d.name)))
	}
	d.skip(MaxDepth)
}

// duplicate is Duplicate for the key name.
func (d *Decoder) duplicate(name string) {
	if !d.full() {
		d.AddAt(d.Path(), "duplicate property "+Quote(name))
	}
	d.skip(MaxDepth)
}

// BeginArray starts reading an array; iterate its items with NextItem.
// Anything else is recorded as a violation and skipped, and BeginArray
// returns false.
func (d *Decoder) BeginArray() bool { return d.begin('[', "array") }

// NextItem reports whether another item follows (consuming the comma);
// after false the array has been consumed. The caller then reads the item.
func (d *Decoder) NextItem() bool {
	if d.stopped {
		return false
	}
	c := d.peek()
	if c == ']' {
		d.leave()
		return false
	}
	if d.fresh {
		d.fresh = false
		return true
	}
	if c != ',' {
		d.syntax("',' or ']' after array item")
		return false
	}
	d.pos++
	return true
}

// firstItems is the capacity an array read starts its slice with, unless
// the array is empty or its maxItems is smaller: one allocation for most
// arrays, and then doubling (4, 8, 16 …) rather than append's 1, 2, 4, 8.
const firstItems = 4

// ItemsHint returns the capacity to start the slice of the array being read
// (just after its '['): 0 when it is empty (then no allocation at all), else
// firstItems, or less when max (maxItems, or NoMaxItems) is smaller.
func (d *Decoder) ItemsHint(max int) int {
	if d.stopped {
		return 0
	}
	data, i := d.data, d.pos
	for i < len(data) && data[i] <= ' ' && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r') {
		i++
	}
	if i >= len(data) || data[i] == ']' {
		return 0
	}
	if max >= 0 && max < firstItems {
		return max
	}
	return firstItems
}

// NextItemWithin is NextItem for an array of at most max items (maxItems),
// i being the index of the item that would come next: past max the rest
// is counted and skipped, not decoded, and one violation at the array's
// path says how many there were (MaxItemsMessage); then it returns false,
// the array consumed.
func (d *Decoder) NextItemWithin(i, max int) bool {
	if !d.NextItem() {
		return false
	}
	if i < max {
		return true
	}
	n := i
	for {
		if !d.skip(MaxDepth) {
			return false
		}
		n++
		if !d.NextItem() {
			break
		}
	}
	if !d.stopped {
		d.Add(MaxItemsMessage(max, n))
	}
	return false
}

// MaxItemsMessage is the violation of an array of n items where max are
// allowed.
func MaxItemsMessage(max, n int) string {
	return "must have at most " + plural(max, "item") + ", got " + strconv.Itoa(n)
}

// MinItemsMessage is the violation of an array of n items where at least
// min are wanted.
func MinItemsMessage(min, n int) string {
	return "must have at least " + plural(min, "item") + ", got " + strconv.Itoa(n)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// String reads a string. Anything else is a violation, skipped.
func (d *Decoder) String() (string, bool) {
	b, ok := d.Bytes()
	if !ok {
		return "", false
	}
	return d.str(b), true
}

// Decoded strings of up to strMax bytes are copied into blocks of at most
// strBlock bytes shared by the strings of one document (one allocation for
// the short strings of a call, not one each): a string kept keeps its
// block, at most strBlock bytes, from being collected.
const (
	strBlock = 1024
	strMax   = 128
)

// str is a copy of b (the bytes of a string just read).
func (d *Decoder) str(b []byte) string {
	n := len(b)
	switch {
	case n == 0:
		return ""
	case n > strMax:
		return string(b)
	case cap(d.strs)-len(d.strs) < n:
		// A block for this string and about what the rest of the document
		// holds (strings are rarely more than a quarter of it): a short
		// document gets a short block.
		d.strs = make([]byte, 0, min(strBlock, n+(len(d.data)-d.pos)/4))
	}
	i := len(d.strs)
	d.strs = d.strs[:i+n]
	copy(d.strs[i:], b)
	// The bytes at i and after are never written again.
	return unsafe.String(&d.strs[i], n)
}

// TrimmedString reads a string with its leading and trailing white space
// removed (Unicode white space, as strings.TrimSpace removes it), for a schema
// with `trim: true`: the escapes are decoded first, so "\n x \t" gives "x".
// Only the trimmed text is copied. Anything else is a violation, skipped.
func (d *Decoder) TrimmedString() (string, bool) {
	b, ok := d.TrimmedBytes()
	if !ok {
		return "", false
	}
	return string(b), true
}

// TrimmedBytes is Bytes with leading and trailing white space removed, as
// TrimmedString removes it.
func (d *Decoder) TrimmedBytes() ([]byte, bool) {
	b, ok := d.Bytes()
	if !ok {
		return nil, false
	}
	return bytes.TrimSpace(b), true
}

// Bytes reads a string and returns its unescaped bytes without copying them
// when it can: they are valid until the next read. Anything else is a
// violation, skipped.
func (d *Decoder) Bytes() ([]byte, bool) {
	if i := skipWS(d.data, d.pos); !d.stopped && i < len(d.data) && d.data[i] == '"' {
		return d.readStringFrom(i+1, i+1)
	}
	return d.notString()
}

// notString is Bytes for anything but a string.
func (d *Decoder) notString() ([]byte, bool) {
	if !d.stopped {
		d.peek()
		d.mismatch("string")
	}
	return nil, false
}

// readString reads the string starting at d.pos (a '"'). Invalid UTF-8 and
// lone surrogates become U+FFFD, as with encoding/json.
func (d *Decoder) readString() ([]byte, bool) {
	return d.readStringFrom(d.pos+1, d.pos+1)
}

// readStringFrom is readString for the string whose content starts at
// start, past its first i-start bytes (plain ASCII).
func (d *Decoder) readStringFrom(start, i int) ([]byte, bool) {
	data := d.data
	// The common case, a string of plain ASCII: eight bytes at a time to
	// the first byte that is not, which is its closing quote.
	for i+8 <= len(data) {
		x := binary.LittleEndian.Uint64(data[i:])
		if m := strStop(x) | x&hiBits; m != 0 {
			i += bits.TrailingZeros64(m) >> 3
			if data[i] == '"' {
				d.pos = i + 1
				return data[start:i], true
			}
			break
		}
		i += 8
	}
	return d.readStringRest(start, i)
}

// readStringRest is readStringFrom past the plain ASCII at data[start:i].
func (d *Decoder) readStringRest(start, i int) ([]byte, bool) {
	data := d.data
	// Eight bytes at a time to the first quote, backslash or control
	// character, then byte by byte; or collects the bytes before it, to
	// tell whether they are all ASCII.
	var or uint64
	for i+8 <= len(data) {
		x := binary.LittleEndian.Uint64(data[i:])
		if m := strStop(x); m != 0 {
			or |= x & (m&-m - 1)
			i += bits.TrailingZeros64(m) >> 3
			break
		}
		or |= x
		i += 8
	}
	for i < len(data) && data[i] >= 0x20 && data[i] != '"' && data[i] != '\\' {
		or |= uint64(data[i])
		i++
	}
	ascii := or&hiBits == 0
	switch {
	case i >= len(data):
		d.pos = len(data)
		d.syntax("closing '\"' of string")
		return nil, false
	case data[i] == '"':
		s := data[start:i]
		if !ascii && !utf8.Valid(s) {
			return d.unescape(start)
		}
		d.pos = i + 1
		return s, true
	case data[i] == '\\':
		return d.unescape(start)
	}
	d.pos = i
	d.syntax("closing '\"' of string (control characters must be escaped)")
	return nil, false
}

const (
	loBits = 0x0101010101010101
	hiBits = 0x8080808080808080
)

// strStop marks (with its high bit) each byte of the eight in x, read
// little-endian, that ends the plain run of a string: a '"', a '\\' or a
// control character. The lowest mark is exact (the borrows that may make
// later marks wrong only run upwards from a marked byte).
func strStop(x uint64) uint64 {
	q := x ^ (loBits * '"')
	b := x ^ (loBits * '\\')
	return ((x-loBits*0x20)&^x | (q-loBits)&^q | (b-loBits)&^b) & hiBits
}

// unescape decodes the string whose content starts at start into scratch.
func (d *Decoder) unescape(start int) ([]byte, bool) {
	data := d.data
	out := d.scratch[:0]
	i := start
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			d.scratch = out
			return out, true
		case c < 0x20:
			d.pos = i
			d.syntax("closing '\"' of string (control characters must be escaped)")
			return nil, false
		case c == '\\':
			if i+1 >= len(data) {
				d.pos = len(data)
				d.syntax("escape sequence")
				return nil, false
			}
			e := data[i+1]
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
				i += 2
			case 'b':
				out = append(out, '\b')
				i += 2
			case 'f':
				out = append(out, '\f')
				i += 2
			case 'n':
				out = append(out, '\n')
				i += 2
			case 'r':
				out = append(out, '\r')
				i += 2
			case 't':
				out = append(out, '\t')
				i += 2
			case 'u':
				r, ok := hex4(data, i+2)
				if !ok {
					d.pos = i + 2
					d.syntax("four hex digits after \\u")
					return nil, false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					// A pair decodes to one rune; a lone half becomes U+FFFD.
					pair := utf8.RuneError
					if i+1 < len(data) && data[i] == '\\' && data[i+1] == 'u' {
						if lo, ok := hex4(data, i+2); ok {
							if p := utf16.DecodeRune(r, lo); p != utf8.RuneError {
								pair = p
								i += 6
							}
						}
					}
					r = pair
				}
				out = utf8.AppendRune(out, r)
			default:
				d.pos = i + 1
				d.syntax("valid escape character after '\\'")
				return nil, false
			}
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(data[i:])
			out = utf8.AppendRune(out, r) // RuneError for invalid bytes
			i += size
		}
	}
	d.pos = len(data)
	d.syntax("closing '\"' of string")
	return nil, false
}

// hex4 decodes four hex digits at data[i:].
func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// Bool reads a boolean. Anything else is a violation, skipped.
func (d *Decoder) Bool() (bool, bool) {
	if d.stopped {
		return false, false
	}
	switch d.peek() {
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	}
	d.mismatch("boolean")
	return false, false
}

// number scans a number per the JSON grammar and returns its text and
// whether it is an integer literal (no fraction, no exponent).
func (d *Decoder) number() (tok []byte, isInt bool, ok bool) {
	data := d.data
	start := d.pos
	i := start
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	default:
		d.pos = i
		d.syntax("digit")
		return nil, false, false
	}
	isInt = true
	if i < len(data) && data[i] == '.' {
		isInt = false
		i++
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			d.pos = i
			d.syntax("digit after decimal point")
			return nil, false, false
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		isInt = false
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			d.pos = i
			d.syntax("digit in exponent")
			return nil, false, false
		}
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
	}
	d.pos = i
	return data[start:i], isInt, true
}

// parseInt parses an integer literal; ok is false on int64 overflow.
func parseInt(tok []byte) (int64, bool) {
	neg := tok[0] == '-'
	if neg {
		tok = tok[1:]
	}
	if len(tok) > 19 {
		return 0, false
	}
	var u uint64
	for _, c := range tok {
		u = u*10 + uint64(c-'0') // 19 digits cannot overflow uint64
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// parseFloat parses a number literal that the grammar already accepted.
func parseFloat(tok []byte, isInt bool) (float64, bool) {
	if f, ok := shortFloat(tok); ok {
		return f, true // (also "-0", which is -0 as with strconv)
	}
	if isInt && len(tok) <= 17 {
		if v, ok := parseInt(tok); ok && v > -1<<53 && v < 1<<53 {
			return float64(v), true
		}
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	return f, err == nil
}

// float64pow10 are the powers of ten a float64 holds exactly.
var float64pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// shortFloat parses a number literal without an exponent and of at most 15
// digits ("-12.5"), exactly as strconv.ParseFloat does: its digits as an
// integer and the power of ten to divide them by are both exact float64s,
// and the division is correctly rounded. ok is false for any other number.
func shortFloat(tok []byte) (float64, bool) {
	neg := len(tok) > 0 && tok[0] == '-'
	if neg {
		tok = tok[1:]
	}
	if len(tok) == 0 || len(tok) > 16 {
		return 0, false
	}
	var m uint64
	n, frac := 0, -1
	for i, c := range tok {
		switch {
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
			n++
		case c == '.' && frac < 0:
			frac = len(tok) - i - 1
		default:
			return 0, false
		}
	}
	if n == 0 || n > 15 {
		return 0, false
	}
	f := float64(m)
	if frac > 0 {
		f /= float64pow10[frac]
	}
	if neg {
		f = -f
	}
	return f, true
}

// Int reads an integer: a number whose exact value is whole and fits in an
// int64 ("2", and also "2.0", "2e3" or "9.223372036854775807e18"; not
// "1.0000000000000001"). Anything else is a violation.
func (d *Decoder) Int() (int64, bool) {
	if d.stopped {
		return 0, false
	}
	c := d.peek()
	if c != '-' && (c < '0' || c > '9') {
		d.mismatch("integer")
		return 0, false
	}
	if v, ok := d.shortInt(); ok {
		return v, true
	}
	return d.longInt()
}

// longInt is Int for any number (at d.pos).
func (d *Decoder) longInt() (int64, bool) {
	tok, isInt, ok := d.number()
	if !ok {
		return 0, false
	}
	if isInt {
		v, ok := parseInt(tok)
		if !ok {
			d.Add("integer " + clipText(tok, quoteMax) + " is out of range (64-bit)")
		}
		return v, ok
	}
	x, _ := parseDecimal(tok)
	v, whole, ok := x.int64()
	switch {
	case ok:
		return v, true
	case whole:
		d.Add("integer " + clipText(tok, quoteMax) + " is out of range (64-bit)")
	default:
		d.Add("expected integer, got " + clipText(tok, quoteMax))
	}
	return 0, false
}

// shortInt reads, in one pass, an integer literal of at most 18 digits
// (which cannot overflow) that is not followed by a fraction, an exponent
// or another digit; ok is false, and nothing read, for any other number,
// which Int reads in full.
func (d *Decoder) shortInt() (int64, bool) {
	data, i := d.data, d.pos
	neg := i < len(data) && data[i] == '-'
	if neg {
		i++
	}
	if i+8 <= len(data) {
		// Up to seven digits followed by something else, eight bytes at a
		// time: a byte is marked unless it is a digit (above '9' adding
		// 0x46 sets its high bit, below '0' subtracting '0' does), and the
		// lowest mark is exact (a borrow or carry only runs upwards from a
		// marked byte).
		x := binary.LittleEndian.Uint64(data[i:])
		m := ((x + loBits*0x46) | (x - loBits*'0')) & hiBits
		if n := bits.TrailingZeros64(m) >> 3; n < 8 {
			if n == 0 || data[i] == '0' && n > 1 {
				return 0, false
			}
			if c := data[i+n]; c == '.' || c == 'e' || c == 'E' {
				return 0, false
			}
			// The digits as the top n bytes (the bytes below them are
			// leading zeros), combined in pairs, then fours, then eight.
			v := (x - loBits*'0') << (64 - 8*n)
			v = v*10 + v>>8
			v = ((v&0x000000FF000000FF)*(100+1000000<<32) + (v>>16&0x000000FF000000FF)*(1+10000<<32)) >> 32
			d.pos = i + n
			if neg {
				return -int64(v), true
			}
			return int64(v), true
		}
	}
	start := i
	end := min(len(data), start+18)
	var u uint64
	for i < end {
		c := data[i] - '0'
		if c > 9 {
			break
		}
		u = u*10 + uint64(c)
		i++
	}
	switch {
	case i == start, data[start] == '0' && i-start > 1:
		return 0, false
	case i < len(data):
		if c := data[i]; c-'0' <= 9 || c == '.' || c == 'e' || c == 'E' {
			return 0, false
		}
	}
	d.pos = i
	if neg {
		return -int64(u), true
	}
	return int64(u), true
}

// Float reads a number. Anything else is a violation, as is a number too
// large for a float64.
func (d *Decoder) Float() (float64, bool) {
	v, _, ok := d.Number()
	return v, ok
}

// Number is Float that also returns the number's JSON text, its exact
// value, for checks that float64 cannot decide (NumberRules.CheckFloat).
// The text is valid until the next read.
func (d *Decoder) Number() (float64, []byte, bool) {
	if d.stopped {
		return 0, nil, false
	}
	c := d.peek()
	if c != '-' && (c < '0' || c > '9') {
		d.mismatch("number")
		return 0, nil, false
	}
	tok, isInt, ok := d.number()
	if !ok {
		return 0, nil, false
	}
	f, ok := parseFloat(tok, isInt)
	if !ok {
		d.Add("number " + clipText(tok, quoteMax) + " is out of range (64-bit float)")
	}
	return f, tok, ok
}

// Skip skips a value of any type (checking its syntax and depth).
func (d *Decoder) Skip() {
	if !d.stopped {
		d.skip(MaxDepth)
	}
}

// Raw returns a copy of the next value's JSON text (syntax and depth
// checked), for free-form values kept as json.RawMessage.
func (d *Decoder) Raw() ([]byte, bool) {
	if d.stopped {
		return nil, false
	}
	d.ws()
	start := d.pos
	if !d.skip(MaxDepth) {
		return nil, false
	}
	return append([]byte(nil), d.data[start:d.pos]...), true
}

// bitstack records, per open container of a skipped value, whether it is an
// object (1) or an array (0).
type bitstack struct {
	low  uint64
	high []uint64
}

func (s *bitstack) set(i int, obj bool) {
	var w *uint64
	if i < 64 {
		w = &s.low
	} else {
		j := (i - 64) / 64
		for len(s.high) <= j {
			s.high = append(s.high, 0)
		}
		w = &s.high[j]
	}
	bit := uint64(1) << (uint(i) % 64)
	if obj {
		*w |= bit
	} else {
		*w &^= bit
	}
}

func (s *bitstack) get(i int) bool {
	if i < 64 {
		return s.low&(1<<uint(i)) != 0
	}
	return s.high[(i-64)/64]&(1<<(uint(i)%64)) != 0
}

// skip skips one value, iteratively, allowing it to nest until the
// document's depth reaches limit.
func (d *Decoder) skip(limit int) bool {
	var stack bitstack
	n := 0 // open containers of this value
	for {
		// A value is expected.
		switch c := d.peek(); c {
		case '{', '[':
			if d.depth+n >= limit {
				if limit == MaxDepth {
					d.tooDeep()
				} else {
					d.syntax("less deeply nested value")
				}
				return false
			}
			d.pos++
			stack.set(n, c == '{')
			n++
			if c == '{' {
				switch d.peek() {
				case '}':
					d.pos++
					n--
					goto after
				case '"':
					if !d.skipKey() {
						return false
					}
					continue
				}
				d.syntax("string key or '}'")
				return false
			}
			if d.peek() == ']' {
				d.pos++
				n--
				goto after
			}
			continue
		case '"':
			if !d.skipString() {
				return false
			}
		case 't':
			if !d.literal("true") {
				return false
			}
		case 'f':
			if !d.literal("false") {
				return false
			}
		case 'n':
			if !d.literal("null") {
				return false
			}
		default:
			if c != '-' && (c < '0' || c > '9') {
				d.syntax("a JSON value")
				return false
			}
			if _, _, ok := d.number(); !ok {
				return false
			}
		}
	after:
		// A value ended: close containers or move to the next member.
		for {
			if n == 0 {
				return true
			}
			obj := stack.get(n - 1)
			c := d.peek()
			if c == ',' {
				d.pos++
				if obj {
					if d.peek() != '"' {
						d.syntax("string key of object member")
						return false
					}
					if !d.skipKey() {
						return false
					}
				}
				break
			}
			if obj && c == '}' || !obj && c == ']' {
				d.pos++
				n--
				continue
			}
			if obj {
				d.syntax("',' or '}' after object member")
			} else {
				d.syntax("',' or ']' after array item")
			}
			return false
		}
	}
}

// skipKey skips a key string (at d.pos) and the colon after it.
func (d *Decoder) skipKey() bool {
	if !d.skipString() {
		return false
	}
	if d.peek() != ':' {
		d.syntax("':' after object key")
		return false
	}
	d.pos++
	return true
}

// skipString skips the string at d.pos, checking its escapes.
func (d *Decoder) skipString() bool {
	data := d.data
	i := d.pos + 1
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			return true
		case c < 0x20:
			d.pos = i
			d.syntax("closing '\"' of string (control characters must be escaped)")
			return false
		case c == '\\':
			if i+1 >= len(data) {
				d.pos = len(data)
				d.syntax("escape sequence")
				return false
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if _, ok := hex4(data, i+2); !ok {
					d.pos = i + 2
					d.syntax("four hex digits after \\u")
					return false
				}
				i += 6
			default:
				d.pos = i + 1
				d.syntax("valid escape character after '\\'")
				return false
			}
		default:
			i++
		}
	}
	d.pos = len(data)
	d.syntax("closing '\"' of string")
	return false
}

// Valid reports whether data is one valid JSON value (with surrounding
// whitespace), as encoding/json.Valid does, including its nesting limit.
func Valid(data []byte) bool {
	var d Decoder
	d.Reset(data)
	d.skip(validMaxDepth)
	return d.Finish() == nil
}
