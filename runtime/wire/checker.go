package wire

import (
	"strconv"

	"github.com/toolgen/toolgen/runtime"
)

// MaxViolations caps the violations a Checker keeps; past it one last
// violation says how many more were found. It bounds the memory a hostile
// document can make a decoder spend on error messages.
const MaxViolations = 1000

// seg is one step of a JSON path: an object key, or an array index when
// index >= 0.
type seg struct {
	name     string
	index    int
	optional bool // an optional property (EnterOptional)
}

// inlineSegs is how many path steps a Checker holds without allocating.
const inlineSegs = 16

// Checker collects violations, each at the JSON path of the value being
// read or checked. Generated code enters and leaves path steps as it walks
// a value; the path is only turned into a string when a violation is added.
//
// The zero Checker is ready to use, at path "$".
type Checker struct {
	segs    [inlineSegs]seg
	more    []seg // steps past inlineSegs
	n       int   // path length
	vs      []runtime.Violation
	dropped int  // violations past MaxViolations
	skipped bool // values skipped unchecked past MaxViolations (Full)
	deep    bool // a value nested past MaxDepth (TooDeep)
}

// Enter steps into the property name of the current object.
func (c *Checker) Enter(name string) { c.push(seg{name: name, index: -1}) }

// EnterOptional steps into the optional property name of the current
// object: a null there is then reported with a hint to leave it out.
func (c *Checker) EnterOptional(name string) { c.push(seg{name: name, index: -1, optional: true}) }

// inOptional reports whether the current path step is an optional property.
func (c *Checker) inOptional() bool { return c.n > 0 && c.seg(c.n-1).optional }

// EnterIndex steps into item i of the current array.
func (c *Checker) EnterIndex(i int) { c.push(seg{index: i}) }

func (c *Checker) push(s seg) {
	if c.n < inlineSegs {
		c.segs[c.n] = s
	} else {
		c.more = append(c.more[:c.n-inlineSegs], s)
	}
	c.n++
}

// Leave steps back out of the last Enter or EnterIndex.
func (c *Checker) Leave() {
	if c.n > 0 {
		c.n--
	}
}

func (c *Checker) seg(i int) seg {
	if i < inlineSegs {
		return c.segs[i]
	}
	return c.more[i-inlineSegs]
}

// Path returns the current JSON path, such as "$.items[2].email". Keys that
// are not plain identifiers are written in brackets: $["a key"].
func (c *Checker) Path() string {
	if c.n == 0 {
		return "$"
	}
	b := make([]byte, 0, 32)
	b = append(b, '$')
	for i := 0; i < c.n; i++ {
		s := c.seg(i)
		switch {
		case s.index >= 0:
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(s.index), 10)
			b = append(b, ']')
		case isIdent(s.name):
			b = append(b, '.')
			b = append(b, s.name...)
		default:
			b = append(b, '[')
			b = strconv.AppendQuote(b, s.name)
			b = append(b, ']')
		}
	}
	return string(b)
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// Add records a violation at the current path. msg says what was expected
// and, where it helps, what was found. Past MaxViolations only the count
// grows: no path is built.
func (c *Checker) Add(msg string) {
	if c.full() {
		return
	}
	c.AddAt(c.Path(), msg)
}

// full reports whether the checker holds MaxViolations already, counting
// the violation its caller is about to add: past the cap nothing more is
// built (no message, no path, no suggestion).
func (c *Checker) full() bool {
	if len(c.vs) >= MaxViolations {
		c.dropped++
		return true
	}
	return false
}

// AddAt records a violation at an explicit path.
func (c *Checker) AddAt(path, msg string) {
	if len(c.vs) >= MaxViolations {
		c.dropped++
		return
	}
	c.vs = append(c.vs, runtime.Violation{Path: path, Message: msg})
}

// Missing records that the current object lacks the required property name.
func (c *Checker) Missing(name string) {
	c.Add("missing required property " + strconv.Quote(name))
}

// Full reports whether the violation cap is reached: the call fails, and
// decoders build no more of its value (they skip the rest of a map).
func (c *Checker) Full() bool {
	if len(c.vs) >= MaxViolations {
		c.skipped = true
		return true
	}
	return false
}

// Failed reports whether any violation was recorded.
func (c *Checker) Failed() bool { return len(c.vs) > 0 }

// Violations returns the violations recorded so far, in the order found.
func (c *Checker) Violations() []runtime.Violation {
	msg := "and " + strconv.Itoa(c.dropped) + " more violations"
	switch {
	case c.skipped:
		msg = "and more violations (the rest of the value was not checked)"
	case c.dropped == 0:
		return c.vs
	}
	return append(c.vs[:len(c.vs):len(c.vs)], runtime.Violation{Path: "$", Message: msg})
}

// Err returns nil when nothing was recorded, else a *runtime.ValidationError
// listing every violation.
func (c *Checker) Err() error {
	if len(c.vs) == 0 {
		return nil
	}
	return &runtime.ValidationError{Violations: c.Violations()}
}

// Reset empties the checker for reuse.
func (c *Checker) Reset() {
	c.n = 0
	c.more = c.more[:0]
	c.vs = nil
	c.dropped = 0
	c.skipped = false
	c.deep = false
}
