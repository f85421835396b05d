package wire

import (
	"encoding/json"
	"slices"
	"strconv"
)

// uniqueItems compares items by JSON Schema equality: numbers by value (1
// equals 1.0), objects by their members whatever their order, strings as
// strings, null apart from absent. Each item is written in a canonical form
// (keys sorted, numbers normalised, strings unescaped) and the forms are
// compared in a map, so that the cost stays proportional to the input.

// Unique records the JSON text of each item of an array as it is decoded,
// for a uniqueItems check of the items as sent (before defaults are filled
// in or strings parsed into times):
//
//	var u wire.Unique
//	for i := 0; d.NextItem(); i++ {
//		u.Begin(d)
//		... read the item ...
//		u.End(d)
//	}
//	u.Check(d)
type Unique struct {
	spans []int // start and end offsets of each item
}

// Begin marks the start of the next item.
func (u *Unique) Begin(d *Decoder) {
	d.ws()
	u.spans = append(u.spans, d.pos)
}

// End marks the end of the item begun last.
func (u *Unique) End(d *Decoder) { u.spans = append(u.spans, d.pos) }

// Check records a violation at the array's path if two items are equal.
func (u *Unique) Check(d *Decoder) {
	if d.stopped || len(u.spans) < 4 {
		return
	}
	items := make([][]byte, 0, len(u.spans)/2)
	for i := 0; i+1 < len(u.spans); i += 2 {
		items = append(items, d.data[u.spans[i]:u.spans[i+1]])
	}
	if first, again, dup := duplicateText(items); dup {
		d.Add(UniqueMessage(first, again))
	}
}

// duplicateText finds the first item of items (JSON texts) equal to an
// earlier one.
func duplicateText(items [][]byte) (first, again int, ok bool) {
	seen := make(map[string]int, len(items))
	var buf []byte
	for j, it := range items {
		buf = canonical(buf[:0], it)
		if i, dup := seen[string(buf)]; dup {
			return i, j, true
		}
		seen[string(buf)] = j
	}
	return 0, 0, false
}

// canonical appends the canonical form of the JSON value text (valid JSON,
// as the decoder checked it) to dst.
func canonical(dst, text []byte) []byte {
	var d Decoder
	d.Reset(text)
	return d.canon(dst)
}

// canon writes the value at d.pos in canonical form: a type byte, then
// strings length-prefixed, numbers as normalised decimals, arrays and
// objects (members sorted by key) with their counts.
func (d *Decoder) canon(dst []byte) []byte {
	switch c := d.peek(); c {
	case '{':
		d.pos++
		d.depth++
		type member struct{ key, val []byte }
		var ms []member
		d.fresh = true
		for d.NextKey() {
			k := append([]byte(nil), d.name...)
			ms = append(ms, member{k, d.canon(nil)})
		}
		slices.SortFunc(ms, func(a, b member) int { return compareBytes(a.key, b.key) })
		dst = append(dst, '{')
		dst = strconv.AppendInt(dst, int64(len(ms)), 10)
		for _, m := range ms {
			dst = appendLenPrefixed(dst, m.key)
			dst = append(dst, m.val...)
		}
		return dst
	case '[':
		d.pos++
		d.depth++
		d.fresh = true
		var items [][]byte
		for d.NextItem() {
			items = append(items, d.canon(nil))
		}
		dst = append(dst, '[')
		dst = strconv.AppendInt(dst, int64(len(items)), 10)
		for _, it := range items {
			dst = append(dst, it...)
		}
		return dst
	case '"':
		s, _ := d.readString()
		return appendLenPrefixed(append(dst, '"'), s)
	case 't', 'f', 'n':
		start := d.pos
		d.skip(MaxDepth)
		return append(dst, d.data[start])
	default:
		tok, _, ok := d.number()
		if !ok {
			return dst
		}
		x, _ := parseDecimal(tok)
		return append(append(dst, '#'), x.String()...)
	}
}

func appendLenPrefixed(dst, s []byte) []byte {
	dst = strconv.AppendInt(dst, int64(len(s)), 10)
	dst = append(dst, ':')
	return append(dst, s...)
}

func compareBytes(a, b []byte) int {
	switch {
	case string(a) < string(b):
		return -1
	case string(a) > string(b):
		return 1
	}
	return 0
}

// DuplicateJSON is Duplicate for items that are not comparable with ==
// (objects, arrays, times, pointers), for values built in Go: two items
// are equal when their JSON encodings are equal JSON values. (Decoders
// compare the items as sent instead: see Unique.)
func DuplicateJSON[T any](s []T) (first, again int, ok bool) {
	items := make([][]byte, 0, len(s))
	for j := range s {
		b, err := json.Marshal(s[j])
		if err != nil {
			b = []byte(`"unencodable ` + strconv.Itoa(j) + `"`)
		}
		items = append(items, b)
	}
	return duplicateText(items)
}
