package wire

import "strings"

// Unions (oneOf, anyOf): the generated decoder of a union picks its
// alternative in one pass where it can — by the JSON type of the value
// (Kind, a peek at its first byte), or by a discriminator property
// (Discriminator, a scan of the object's keys that decodes nothing) — and
// decodes only that alternative. Where several alternatives take the same
// JSON type and nothing else tells them apart, it tries them in order with
// a Trial: each attempt decodes the value from its start, and the
// violations of a failed attempt are taken back.

// Kind is the JSON type of a value, as its first byte tells it (integers
// and other numbers are one kind).
type Kind uint8

const (
	KindNone   Kind = iota // no value: the input stopped, or is malformed there
	KindObject             // {
	KindArray              // [
	KindString             // "
	KindNumber             // - or a digit
	KindBool               // true or false
	KindNull               // null
)

// Kind peeks at the JSON type of the next value without consuming it.
func (d *Decoder) Kind() Kind {
	if d.stopped {
		return KindNone
	}
	switch d.peek() {
	case '{':
		return KindObject
	case '[':
		return KindArray
	case '"':
		return KindString
	case 't', 'f':
		return KindBool
	case 'n':
		return KindNull
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return KindNumber
	}
	return KindNone
}

// NoAlternative records that no alternative of a union takes a value of
// the next value's JSON type — "expected <want>, got <kind> <value>", want
// naming the alternatives ("Card (object) or string") — and skips it.
func (d *Decoder) NoAlternative(want string) {
	if !d.stopped {
		d.mismatch(want)
	}
}

// member finds the value of property name in the object that comes next,
// without consuming anything or recording a violation: its span in the
// input, and whether the next value is an object at all.
func (d *Decoder) member(name string) (start, end int, found, object bool) {
	if d.stopped || d.peek() != '{' {
		return 0, 0, false, false
	}
	save := *d // restored whole: the scan may stop on malformed input
	vs := len(d.vs)
	defer func() {
		scratch := d.scratch
		*d = save
		d.scratch = scratch[:0] // keep the grown buffer
		d.vs = d.vs[:vs]
	}()
	d.pos++
	d.depth++
	first := true
	for {
		c := d.peek()
		if c == '}' {
			return 0, 0, false, true
		}
		if !first {
			if c != ',' {
				return 0, 0, false, true
			}
			d.pos++
			c = d.peek()
		}
		first = false
		if c != '"' {
			return 0, 0, false, true
		}
		key, ok := d.readString()
		if !ok || d.peek() != ':' {
			return 0, 0, false, true
		}
		match := string(key) == name
		d.pos++
		d.ws()
		s := d.pos
		if !d.skip(MaxDepth) {
			return 0, 0, false, true
		}
		if match {
			return s, d.pos, true, true
		}
	}
}

// Discriminator peeks at the string value of property name in the object
// that comes next, consuming nothing: the value that chooses a
// discriminated union's alternative. It is false when the next value is not
// an object, lacks the property, or holds something other than a string
// there; the caller then calls NoDiscriminator. The bytes are valid until
// the next read.
func (d *Decoder) Discriminator(name string) ([]byte, bool) {
	start, _, found, _ := d.member(name)
	if !found || d.data[start] != '"' {
		return nil, false
	}
	save := d.pos
	d.pos = start
	v, ok := d.readString()
	d.pos = save
	if !ok {
		return nil, false
	}
	return v, true
}

// NoDiscriminator records why the next value selects no alternative of a
// discriminated union, and skips it: it is not an object (want names the
// alternatives), it lacks the property name, or the property's value is
// none of values (the values that select an alternative, in order).
func (d *Decoder) NoDiscriminator(name string, values []string, want string) {
	if d.stopped {
		return
	}
	start, end, found, object := d.member(name)
	switch {
	case !object:
		d.mismatch(want)
		return
	case !found:
		if !d.full() {
			d.AddAt(d.Path(), "missing required property "+Quote(name)+", which chooses the alternative: "+quoteList(values))
		}
	default:
		msg := "must be one of " + quoteList(values) + ", got " + clipText(d.data[start:end], quoteMax)
		if d.data[start] != '"' {
			msg = "expected string (one of " + quoteList(values) + "), got " + kindOf(d.data[start]) + " " + clipText(d.data[start:end], quoteMax)
		}
		d.Enter(name)
		d.Add(msg + " (it chooses the alternative)")
		d.Leave()
	}
	d.skip(MaxDepth)
}

func quoteList(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = Quote(v)
	}
	return joinOr(q)
}

// joinOr joins "a", "b", "c" as "a, b or c".
func joinOr(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// Trial tries the alternatives of a union that take the same JSON type, in
// order, on one value:
//
//	var t wire.Trial
//	t.Begin(d, true) // oneOf: exactly one must match
//	if t.Next(d) {
//		a := new(Card)
//		a.decode(d)
//		if t.Matched(d) {
//			v = a
//		}
//	}
//	... one Next block per alternative ...
//	t.End(d, labels)
//
// Next rewinds to the value's start for each attempt after the first, and
// says whether to make it (anyOf stops at the first match, oneOf at the
// second). Matched takes back the violations of a failed attempt, keeping
// its first one for the message. End leaves the decoder after the value
// and records, at the union's path, that no alternative matched (naming
// each with its first violation) or, for oneOf, that two did.
type Trial struct {
	oneOf          bool
	start, depth   int
	fresh          bool
	n              int // path length
	vs, dropped    int // violations at the start
	end            int // where the value ends
	tries, matches int
	matched        [2]int   // the first two alternatives that matched
	why            []string // the first violation of each failed attempt, by attempt
}

// Begin marks the start of the value; oneOf asks for exactly one match.
func (t *Trial) Begin(d *Decoder, oneOf bool) {
	d.ws()
	*t = Trial{oneOf: oneOf, start: d.pos, depth: d.depth, fresh: d.fresh, n: d.n, vs: len(d.vs), dropped: d.dropped, why: t.why[:0]}
}

// Next reports whether to try the next alternative, rewinding to the
// value's start when an attempt came before.
func (t *Trial) Next(d *Decoder) bool {
	if d.stopped || t.matches > 0 && !t.oneOf || t.matches > 1 {
		return false
	}
	if t.tries > 0 {
		d.pos, d.depth, d.fresh, d.n = t.start, t.depth, t.fresh, t.n
	}
	t.tries++
	return true
}

// Matched reports whether the attempt since Next recorded no violation;
// a failed attempt's violations are taken back (malformed input stops the
// trial and keeps them).
func (t *Trial) Matched(d *Decoder) bool {
	if d.stopped {
		return false
	}
	t.end = d.pos
	if len(d.vs) == t.vs && d.dropped == t.dropped {
		if t.matches < 2 {
			t.matched[t.matches] = t.tries - 1
		}
		t.matches++
		return true
	}
	why := ""
	if len(d.vs) > t.vs {
		v := d.vs[t.vs]
		why = v.Message
		if base := pathAt(d, t.n); v.Path != base {
			why = "at " + v.Path + ": " + why
		}
	}
	for len(t.why) < t.tries {
		t.why = append(t.why, "")
	}
	t.why[t.tries-1] = clipString(why, 200)
	d.vs = d.vs[:t.vs]
	d.dropped = t.dropped
	return false
}

// pathAt is the path of the union's value: the checker's path (balanced
// again after an attempt).
func pathAt(d *Decoder, n int) string {
	if d.n != n {
		return ""
	}
	return d.Path()
}

// End leaves d after the value and records the trial's outcome; labels
// name the alternatives tried, in order ("Card", "object with id").
func (t *Trial) End(d *Decoder, labels []string) {
	if d.stopped {
		return
	}
	d.pos = t.end
	switch {
	case t.matches == 0:
		if d.full() {
			return
		}
		var b strings.Builder
		b.WriteString("matches none of the alternatives ")
		b.WriteString(joinOr(labels))
		for i, w := range t.why {
			if w == "" || i >= len(labels) {
				continue
			}
			b.WriteString("; ")
			b.WriteString(labels[i])
			b.WriteString(": ")
			b.WriteString(w)
		}
		d.AddAt(d.Path(), b.String())
	case t.matches > 1 && t.oneOf:
		d.Add("matches both " + labels[t.matched[0]] + " and " + labels[t.matched[1]] + ", but oneOf allows exactly one alternative")
	}
}

// clipString cuts s after max runes, marking the cut with "…".
func clipString(s string, max int) string {
	return clipText([]byte(s), max)
}
