package openapi

import (
	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// Recursive component schemas (a tree's node whose children are nodes)
// become recursive named types, as far as the spec format carries them:
// a reference cycle must be able to end, through an array's items, a
// map's values, an optional property without a default or a nullable
// schema (spec/recursive.go). The converter counts those places on the
// way to the schema it is converting (ends) and notes the count when it
// begins a named type; a reference back to a type being converted is
// carried when one lies between, and left out with a note otherwise (no
// finite value has it, so no API sends one).
//
// A type being converted only fails before it converts anything that
// refers to it (a union or type list at its root), so no reference to a
// failed type is left behind; were one, the spec.Parse that ends every
// import would report it.

// enter records that the conversion of nt begins.
func (c *converter) enter(nt *named) { nt.start = c.ends }

// recursiveRef is a reference to nt, a type being converted: carried when
// a cycle through it can end, else left out (reported at ptr).
func (c *converter) recursiveRef(x ctx, nt *named, ptr string) *yaml.Node {
	if c.ends == nt.start {
		x.report(ptr, "a recursive reference to "+refName(nt.key)+" through required properties only (no value of it is finite); left out")
		return nil
	}
	return c.refNode(nt)
}

// endsCycle reports whether a reference cycle can end at a property: it is
// optional without a default, or nullable.
func endsCycle(s *openapi3.Schema, required bool) bool {
	if s == nil {
		return false
	}
	if s.Nullable || s.Type != nil && s.Type.Includes("null") {
		return true
	}
	return !required && s.Default == nil
}
