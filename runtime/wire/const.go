package wire

import "encoding/json"

// Const is the `const` of an array or an object: the one value allowed,
// compared by JSON Schema equality (numbers by value, object members in any
// order), as uniqueItems compares items. A decoder compares the value as
// sent; Validate compares the JSON encoding of a value built in Go.
//
//	var tagsConst = wire.NewConst(`["a","b"]`)
//	...
//	start := tagsConst.Start(d)
//	... read the value ...
//	tagsConst.Check(d, start)
type Const struct {
	text  string // the const as the spec wrote it, canonical JSON
	canon string // its canonical form (see canonical)
}

// NewConst makes the Const of the JSON text text (valid JSON).
func NewConst(text string) *Const {
	return &Const{text: text, canon: string(canonical(nil, []byte(text)))}
}

// Start marks where the value about to be read begins.
func (c *Const) Start(d *Decoder) int {
	if d.stopped {
		return -1
	}
	d.ws()
	return d.pos
}

// Check records a violation at the current path when the value read since
// start is not the const.
func (c *Const) Check(d *Decoder, start int) {
	if d.stopped || start < 0 || start >= d.pos {
		return
	}
	c.check(&d.Checker, d.data[start:d.pos])
}

// CheckValue records a violation in ch when the JSON encoding of v, a
// value built in Go, is not the const.
func (c *Const) CheckValue(ch *Checker, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		ch.Add("must be " + clipString(c.text, quoteMax) + ", got a value that cannot be encoded: " + err.Error())
		return
	}
	c.check(ch, b)
}

func (c *Const) check(ch *Checker, text []byte) {
	if string(canonical(nil, text)) != c.canon {
		ch.Add("must be " + clipString(c.text, quoteMax) + ", got " + clipText(text, quoteMax))
	}
}
