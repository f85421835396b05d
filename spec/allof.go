package spec

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// allOf of object parts: the loader merges the parts into the schema that
// holds them, once references are resolved, so that everything after the
// loader (Go types, decoders, validators, the schema literal, the catalog)
// sees one plain object. The merge is strict: a property declared twice
// (by two parts, or by a part and the schema's own properties), a part that
// is not an object, a nullable part or parts that disagree about additional
// properties are located errors, because a merged object that silently
// picks one of two definitions would check something the author did not
// write.

// allOfSite is a schema with an allOf, waiting for references.
type allOfSite struct {
	schema   *Schema
	parts    []*yaml.Node // the part nodes, for locations
	required *yaml.Node   // the schema's own required:, read after the merge
	sub      subject
	in       string
	state    int // 0 new, 1 merging, 2 merged
}

// allOf reads the parts of `allOf:` into s.AllOf and queues s for merging.
func (p *parser) allOf(v *yaml.Node, s *Schema, sub subject, in string) *allOfSite {
	items, ok := p.sequenceKey(v, "allOf", in)
	if !ok {
		return nil
	}
	if len(items) == 0 {
		p.errorf(v, "allOf %s must list at least one part", in)
		return nil
	}
	site := &allOfSite{schema: s, sub: sub, in: in}
	for i, n := range items {
		part := p.schema(n, sub.child(fmt.Sprintf(".allOf[%d]", i)))
		if part == nil {
			continue
		}
		s.AllOf = append(s.AllOf, part)
		site.parts = append(site.parts, n)
	}
	p.allOfs = append(p.allOfs, site)
	return site
}

// mergeAllOfs merges every allOf, parts first (a part may be a named type
// with an allOf of its own).
func (p *parser) mergeAllOfs() {
	bySchema := make(map[*Schema]*allOfSite, len(p.allOfs))
	for _, a := range p.allOfs {
		bySchema[a.schema] = a
	}
	var merge func(a *allOfSite)
	merge = func(a *allOfSite) {
		if a.state != 0 {
			return // merged, or a reference cycle (reported by cycles)
		}
		a.state = 1
		s := a.schema
		// Where each property came from, for the conflict message.
		from := map[string]string{}
		for _, prop := range s.Properties {
			from[prop.Name] = fmt.Sprintf("the properties of %s (line %d)", a.sub, prop.Pos.Line)
		}
		byGo := map[string]*Property{}
		for _, prop := range s.Properties {
			byGo[prop.GoName] = prop
		}
		for i, part := range s.AllOf {
			node := a.parts[i]
			r, nullable := follow(part)
			if r == nil {
				continue // unresolved or cyclic: reported elsewhere
			}
			if pa, ok := bySchema[r]; ok {
				merge(pa)
			}
			what := fmt.Sprintf("allOf part %d %s", i, a.in)
			if r.Type != TypeObject {
				p.errorf(node, "%s is of type %s: allOf merges objects only", what, r.Type)
				continue
			}
			if nullable {
				p.errorf(node, "%s is nullable: a merged object cannot be null in part; put nullable beside allOf", what)
			}
			if r.AdditionalProperties != s.AdditionalProperties || (r.AdditionalPropertiesSchema != nil) != (s.AdditionalPropertiesSchema != nil) {
				p.errorf(node, "%s has additionalProperties %s but the merged object has %s: write the same additionalProperties in every part and beside allOf",
					what, additionalText(r), additionalText(s))
			} else if r.AdditionalPropertiesSchema != nil && r.AdditionalPropertiesSchema != s.AdditionalPropertiesSchema {
				p.errorf(node, "%s has an additionalProperties schema of its own: only one schema can check the extra properties of a merged object; write it beside allOf only", what)
			}
			for _, prop := range r.Properties {
				// A part that is a named type is reported at the reference,
				// naming the type's line: its own declaration is not wrong.
				at, of := prop.Pos, what
				if part.RefType != nil {
					at, of = p.pos(node), fmt.Sprintf("%s (type %q, line %d)", what, part.RefType.Name, prop.Pos.Line)
				}
				if first, dup := from[prop.Name]; dup {
					p.errorAt(at, "property %q of %s is also declared by %s: merged objects cannot declare a property twice", prop.Name, of, first)
					continue
				}
				if other, dup := byGo[prop.GoName]; dup {
					p.errorAt(at, "property %q of %s has the Go name %s, like property %q (line %d); rename one, or give it a go_name", prop.Name, of, prop.GoName, other.Name, other.Pos.Line)
					continue
				}
				from[prop.Name] = fmt.Sprintf("%s (line %d)", what, prop.Pos.Line)
				cp := *prop // a named type's property keeps its own Required
				byGo[cp.GoName] = &cp
				s.Properties = append(s.Properties, &cp)
			}
			for _, name := range r.Required {
				if !containsString(s.Required, name) {
					s.Required = append(s.Required, name)
				}
			}
			if s.Description == "" && r.Description != "" && len(s.AllOf) == 1 {
				s.Description = r.Description
			}
		}
		if a.required != nil {
			p.required(a.required, s, "property", a.sub.String(), "properties")
		}
		a.state = 2
	}
	for _, a := range p.allOfs {
		merge(a)
	}
}

func additionalText(s *Schema) string {
	switch {
	case s.AdditionalPropertiesSchema != nil:
		return "(a schema)"
	case s.AdditionalProperties:
		return "true"
	}
	return "false"
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// constant reads `const:`: one value of the schema's type (a string,
// integer, number, boolean, array or object) that meets its other
// constraints; not null, and not beside an enum (write one or the other).
func (p *parser) constant(e entry, s *Schema, sub subject, in string) {
	val, ok := p.value(e.Val)
	if !ok {
		return
	}
	if val == nil {
		p.errorf(e.Val, "const null %s: use nullable: true to allow null", in)
		return
	}
	if len(s.Enum) > 0 {
		p.errorf(e.Key, "const %s cannot be combined with enum: a const is an enum of one value; keep one of them", in)
		return
	}
	set := func(p *parser) {
		if why := unfaithful(s, 0); why != "" {
			p.errorf(e.Key, "const %s is not supported here: the value holds %s, which Validate cannot compare (it compares the JSON encoding of the Go value)", in, why)
			return
		}
		cv, pr := checkValue(s, val, "", true)
		if pr != nil {
			p.errorf(e.Val, "invalid const for %s: %s", sub, pr)
			return
		}
		s.Const, s.HasConst = cv, true
	}
	if s.Type == TypeArray || s.Type == TypeObject {
		p.later = append(p.later, set) // its items or properties may be named types
		return
	}
	set(p)
}

// unfaithful names what in the values of s the JSON encoding of their Go
// value does not give back as sent, "" when nothing: an object with both
// properties and additionalProperties (its Extra field is not encoded), a
// date-time held as a time.Time (encoded in a normal form), a union.
func unfaithful(s *Schema, depth int) string {
	r, _ := follow(s)
	if r == nil || depth > 32 {
		return ""
	}
	switch {
	case r.Union != nil:
		return "a union"
	case r.Type == TypeString && r.Format == "date-time" && r.Pattern == "" && r.MinLength == nil && r.MaxLength == nil && !r.HasConst && len(r.Enum) == 0:
		return "a date-time (a time.Time in Go)"
	case r.Type == TypeArray && r.Items != nil:
		return unfaithful(r.Items, depth+1)
	case r.Type == TypeObject:
		if len(r.Properties) > 0 && (r.AdditionalProperties || r.AdditionalPropertiesSchema != nil) {
			return "an object with both properties and additionalProperties (its extra keys are a Go field of their own)"
		}
		for _, p := range r.Properties {
			pr, nullable := follow(p.Schema)
			switch {
			case p.Schema.HasDefault || pr != nil && pr.HasDefault:
				return fmt.Sprintf("a property with a default (%q, filled in when absent)", p.Name)
			case nullable && !p.Required:
				return fmt.Sprintf("an optional nullable property (%q: null and absent are one Go value)", p.Name)
			}
			if why := unfaithful(p.Schema, depth+1); why != "" {
				return why
			}
		}
		if r.AdditionalPropertiesSchema != nil {
			return unfaithful(r.AdditionalPropertiesSchema, depth+1)
		}
	}
	return ""
}
