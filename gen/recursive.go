package gen

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/runtime/wire"
	"github.com/toolgen/toolgen/spec"
)

// Recursive named types (spec.NamedType.Recursive): a tree's node whose
// children are nodes, a list whose next element is a list, A -> B -> A.
// The spec loader has checked that every cycle can end (an array, a map,
// an optional or nullable property on the way), which is where the Go
// type has a slice, a map or a pointer: the Go type is finite as it is.
//
// Structs decode and validate with methods, so the code recurses as the
// value does. Decoding stops at wire.MaxDepth levels of nesting (the
// Decoder counts them: a 100,000-deep document costs one pass up to the
// limit and a violation there); Validate, for values built in Go (which may
// even be a cycle of pointers), stops at the same depth with
// Checker.TooDeep. The schema literal names the type once, in $defs, and
// refers to it by $ref (schema.go).

// recursiveSlot registers the Go type of a recursive named type before it
// is built, so that its own references find it: the returned value is
// filled in by namedType once the type is built. It is nil for other types.
func (g *generator) recursiveSlot(nt *spec.NamedType) *goType {
	if !nt.Recursive || nt.Schema == nil || nt.Schema.RefType != nil {
		return nil // a type that is only a $ref is the type it names
	}
	slot := &goType{name: nt.GoName, schema: nt.Schema, recursive: true}
	// Code that builds a type around a reference to this one reads its
	// kind (a slice or map field is never a pointer).
	switch {
	case nt.Schema.Union != nil:
		slot.kind = kUnion // an interface: never a pointer
	case nt.Schema.Type == spec.TypeArray:
		slot.kind = kSlice
	case nt.Schema.Type == spec.TypeObject && len(nt.Schema.Properties) == 0 &&
		(nt.Schema.AdditionalProperties || nt.Schema.AdditionalPropertiesSchema != nil):
		slot.kind = kMap
	default:
		slot.kind = kStruct
	}
	g.named[nt] = slot
	return slot
}

// depthGuard is the first statement of the validate method of a recursive
// struct: nothing deeper than wire.MaxDepth is checked.
func depthGuard(t *goType) []jen.Code {
	if !t.recursive {
		return nil
	}
	return []jen.Code{jen.If(jen.Id("c").Dot("TooDeep").Call()).Block(jen.Return())}
}

// literal collects the $defs of one schema literal.
type literal struct {
	defs map[string]any
}

// recursiveRef is the recursive named type the schema at site refers to
// (following types that are only a $ref of another), or nil.
func recursiveRef(site *spec.Schema) *spec.NamedType {
	for s, i := site, 0; s != nil && s.RefType != nil && i < 1000; i++ {
		nt := s.RefType
		if nt.Recursive && nt.Schema != nil && nt.Schema.RefType == nil {
			return nt
		}
		s = nt.Schema
	}
	return nil
}

// ref is a reference to the recursive type nt at site, defining nt in
// $defs: {"$ref":"#/$defs/Node"} with the site's description and default,
// or {"anyOf":[{"$ref":…},{"type":"null"}]} where the site is nullable and
// the type is not.
func (l *literal) ref(site *spec.Schema, nt *spec.NamedType) map[string]any {
	l.define(nt)
	ref := map[string]any{"$ref": "#/$defs/" + nt.Name}
	nullable := false
	for s := site; s != nil && s != nt.Schema; s = s.RefType.Schema {
		nullable = nullable || s.Nullable
	}
	m := ref
	if nullable && !nt.Schema.Nullable {
		m = map[string]any{"anyOf": []any{ref, map[string]any{"type": "null"}}}
	}
	if site.Description != "" {
		m["description"] = site.Description
	}
	if site.HasDefault {
		m["default"] = site.Default
	}
	return m
}

// define adds nt to $defs, once.
func (l *literal) define(nt *spec.NamedType) {
	if _, ok := l.defs[nt.Name]; ok {
		return
	}
	if l.defs == nil {
		l.defs = map[string]any{}
	}
	l.defs[nt.Name] = nil // being defined: its own references stop here
	l.defs[nt.Name] = l.value(nt.Schema, true)
}

// catalogRecursion is the catalog's sentence about a recursive type: the
// fields through which its values hold values of it again, "" for a type
// that is not recursive.
func catalogRecursion(nt *spec.NamedType) string {
	if !nt.Recursive || nt.Schema == nil {
		return ""
	}
	r := nt.Schema.Resolved()
	var via []string
	for _, p := range r.Properties {
		if leadsTo(p.Schema, nt, map[*spec.NamedType]bool{}) {
			via = append(via, catalogCode(p.Name))
		}
	}
	if r.Items != nil && leadsTo(r.Items, nt, map[*spec.NamedType]bool{}) {
		via = append(via, "its items")
	}
	if v := r.AdditionalPropertiesSchema; v != nil && leadsTo(v, nt, map[*spec.NamedType]bool{}) {
		via = append(via, "its values")
	}
	name := catalogCode(nt.Name)
	return "Recursive: " + name + " values hold further " + name + " values through " + catalogJoin(via) +
		" (arguments nest at most " + strconv.Itoa(wire.MaxDepth) + " levels of JSON deep)."
}

// leadsTo reports whether a value of the schema s can hold a value of the
// named type nt (following references; seen guards the types visited).
func leadsTo(s *spec.Schema, nt *spec.NamedType, seen map[*spec.NamedType]bool) bool {
	if s == nil {
		return false
	}
	if s.RefType != nil {
		if s.RefType == nt {
			return true
		}
		if seen[s.RefType] {
			return false
		}
		seen[s.RefType] = true
		return leadsTo(s.RefType.Schema, nt, seen)
	}
	for _, p := range s.Properties {
		if leadsTo(p.Schema, nt, seen) {
			return true
		}
	}
	return leadsTo(s.Items, nt, seen) || leadsTo(s.AdditionalPropertiesSchema, nt, seen)
}

// catalogJoin joins "a", "b", "c" as "a, b and c".
func catalogJoin(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// aliasNamed reports whether the named type nt is only a $ref of another
// (its Go type t is that type's), declaring it as an alias: type NodeAlias
// = Node. Such a type is declared once, by the type it names; before, it
// was declared twice (and took the alias's doc).
func (g *generator) aliasNamed(nt *spec.NamedType, t *goType) bool {
	if nt.Schema == nil || nt.Schema.RefType == nil {
		return false
	}
	if nt.GoName != t.name {
		g.declare(nt.GoName, "the named type "+nt.Name)
		g.aliasNamedDecls = append(g.aliasNamedDecls,
			doc(nt.GoName, "the type "+nt.Name+" shared by the "+g.f.Provider+" tools, another name for "+t.name, nt.Schema.Description,
				jen.Type().Id(nt.GoName).Op("=").Id(t.name)), jen.Line())
	}
	return true
}
