package wire

import "strconv"

// TooDeep reports whether the value about to be checked lies MaxDepth path
// steps deep or deeper, or a value checked before did: the validate method
// of a recursive type (a tree's node) asks it first and checks nothing
// when it is true. The first time, it records "value nests deeper than 64
// levels" at the current path.
//
// Decoding stops at MaxDepth already (the Decoder counts the document's
// nesting); this bounds Validate of a value built in Go, which may nest as
// deep as its author likes, or be a cycle of pointers: once one branch is
// too deep, every later check returns at once, so that the cost stays
// proportional to the part of the value above the limit.
func (c *Checker) TooDeep() bool {
	if c.deep {
		return true
	}
	if c.n < MaxDepth {
		return false
	}
	c.deep = true
	c.Add(depthMessage)
	return true
}

// depthMessage is the violation of a value nested past MaxDepth.
var depthMessage = "value nests deeper than " + strconv.Itoa(MaxDepth) + " levels"
