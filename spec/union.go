package spec

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// Unions: `oneOf` and `anyOf` over alternatives, with an optional
// OpenAPI `discriminator`. A union schema holds no type of its own (Type
// and Ref are empty, Union is set): each alternative is a schema of its
// own (a type, a $ref to a named type, or a union again). Beside oneOf or
// anyOf a schema holds only description, go_name, nullable and
// discriminator; an alternative `{type: "null"}` makes the union nullable,
// as OpenAPI 3.1 and MCP schemas write it. A union left with one
// alternative (`anyOf: [{$ref: X}, {type: "null"}]`) is that alternative,
// nullable: the loader rewrites it so, and nothing after the loader sees a
// union of one.
//
// The loader refuses what the generated decoder could not decide
// faithfully: a discriminator whose property some alternative lacks or
// does not fix to one string (const, or a one-value enum), two
// alternatives with the same discriminator value, a mapping that names a
// type outside the union or disagrees with the alternative's const, and,
// for oneOf without a discriminator, two alternatives that surely accept a
// common value (a value of both would match two: oneOf refuses it).

// UnionKind is the keyword of a union.
type UnionKind string

const (
	OneOf UnionKind = "oneOf" // exactly one alternative matches
	AnyOf UnionKind = "anyOf" // at least one matches; decoding takes the first
)

// Union is the `oneOf:` or `anyOf:` of a schema.
type Union struct {
	Pos  Pos
	Kind UnionKind
	// Alts are the alternatives in file order, without the `{type: "null"}`
	// ones (which set the union schema's Nullable). Never nullable
	// themselves, and at least two.
	Alts []*Schema
	// Discriminator is the `discriminator:` beside the union, or nil.
	Discriminator *Discriminator
}

// Discriminator chooses an alternative of a union of objects by the value
// of one of their properties (OpenAPI's discriminator).
type Discriminator struct {
	Pos Pos
	// Property is the `propertyName:`: a required string property of every
	// alternative, fixed to one value by a const or a one-value enum.
	Property string
	// Values holds the value of Property that selects each alternative,
	// by index of Union.Alts.
	Values []string
	// Mapping is the `mapping:` as written (value → "#/types/Name"), in
	// file order; each entry agrees with Values.
	Mapping []MappingEntry
}

// MappingEntry is one `value: "#/types/Name"` of a discriminator mapping.
type MappingEntry struct {
	Pos   Pos
	Value string
	Type  string // the named type's name
	Alt   int    // index in Union.Alts
}

// unionKeys are the keywords allowed beside oneOf or anyOf.
var unionKeys = []string{"oneOf", "anyOf", "discriminator", "description", "go_name", "nullable"}

// unionSite is a union waiting for references to be resolved.
type unionSite struct {
	schema *Schema
	nodes  []*yaml.Node // the alternatives' nodes, by index of Alts
	disc   *yaml.Node   // the discriminator's node
	mapped []*yaml.Node // the mapping entries' value nodes
	sub    subject
	in     string
}

// union reads the oneOf or anyOf of s (whose description, go_name and
// nullable are read already) and queues its checks.
func (p *parser) union(m *fields, s *Schema, sub subject, in string) {
	kind := OneOf
	e, ok := m.get("oneOf")
	if other, both := m.get("anyOf"); both && ok {
		p.errorf(other.Key, "oneOf and anyOf cannot be combined %s: write one union (nest the other inside an alternative)", in)
	} else if !ok {
		kind, e = AnyOf, other
	}
	for _, k := range m.list {
		if name := k.name; !contains(unionKeys, name) {
			hint := "put it in the alternatives"
			if name == "default" {
				hint = "a union has no default in toolgen's subset"
			}
			p.errorf(k.Key, "keyword %q cannot be combined with %s %s: %s", name, kind, in, hint)
		}
	}
	u := &Union{Pos: p.pos(e.Key), Kind: kind}
	s.Union = u
	site := &unionSite{schema: s, sub: sub, in: in}
	items, ok := p.sequenceKey(e.Val, string(kind), in)
	if !ok {
		return
	}
	for i, n := range items {
		if isNullAlternative(n) {
			s.Nullable = true
			continue
		}
		alt := p.schema(n, sub.child(fmt.Sprintf(".%s[%d]", kind, i)))
		if alt == nil {
			continue
		}
		u.Alts = append(u.Alts, alt)
		site.nodes = append(site.nodes, n)
	}
	if len(items) == 0 {
		p.errorf(e.Val, "%s %s must list at least one alternative", kind, in)
	}
	if v := m.val("discriminator"); v != nil {
		site.disc = v
		p.discriminator(v, u, site)
	}
	p.later = append(p.later, func(p *parser) { p.checkUnion(site) })
}

// isNullAlternative reports whether n is `{type: "null"}` (with at most a
// description beside it).
func isNullAlternative(n *yaml.Node) bool {
	d := deref(n)
	if d == nil || d.Kind != yaml.MappingNode {
		return false
	}
	found := false
	for i := 0; i+1 < len(d.Content); i += 2 {
		k, v := deref(d.Content[i]).Value, deref(d.Content[i+1])
		switch {
		case k == "type" && v.Kind == yaml.ScalarNode && v.Value == "null":
			found = true
		case k == "description":
		default:
			return false
		}
	}
	return found
}

// discriminator reads `discriminator: {propertyName: P, mapping: {...}}`.
func (p *parser) discriminator(v *yaml.Node, u *Union, site *unionSite) {
	m := p.mapping(v, "discriminator "+site.in, "in discriminator "+site.in, []string{"propertyName", "mapping"})
	if m == nil {
		return
	}
	dc := &Discriminator{Pos: p.pos(deref(v))}
	if pv := m.val("propertyName"); pv == nil {
		p.errorf(v, "discriminator %s needs propertyName: the property whose value chooses the alternative", site.in)
		return
	} else if name, ok := p.str(pv, "propertyName"); ok {
		if name == "" {
			p.errorf(pv, "propertyName of the discriminator %s is empty", site.in)
			return
		}
		dc.Property = name
	} else {
		return
	}
	if mv := m.val("mapping"); mv != nil && !isNull(mv) {
		if mf := p.mapping(mv, "mapping of the discriminator "+site.in, "in the mapping of the discriminator "+site.in, nil); mf != nil {
			for _, e := range mf.list {
				ref, ok := p.str(e.Val, "a mapping value")
				if !ok {
					continue
				}
				name, found := strings.CutPrefix(ref, refPrefix)
				if !found || name == "" {
					p.errorf(e.Val, "mapping value %q of the discriminator %s must name a type of the union, written \"#/types/Name\"", ref, site.in)
					continue
				}
				dc.Mapping = append(dc.Mapping, MappingEntry{Pos: p.pos(e.Key), Value: e.name, Type: name, Alt: -1})
				site.mapped = append(site.mapped, e.Val)
			}
		}
	}
	u.Discriminator = dc
}

// altWhat names alternative i of a union site for messages: "alternative 1
// of oneOf in schema of parameter \"x\"", with the named type it refers to.
func (site *unionSite) altWhat(i int) string {
	u := site.schema.Union
	w := fmt.Sprintf("alternative %d of %s %s", i, u.Kind, site.in)
	if a := u.Alts[i]; a.RefType != nil {
		w += fmt.Sprintf(" (type %q, line %d)", a.RefType.Name, a.RefType.Pos.Line)
	}
	return w
}

// checkUnion runs a union's checks once references are resolved, then
// rewrites a union of one alternative as that alternative.
func (p *parser) checkUnion(site *unionSite) {
	s := site.schema
	u := s.Union
	ok := true
	for i, a := range u.Alts {
		r, nullable := follow(a)
		if r == nil {
			ok = false // unresolved or cyclic: reported elsewhere
			continue
		}
		if nullable {
			p.errorf(site.nodes[i], "%s is nullable: write {type: \"null\"} as an alternative of its own (or nullable: true beside %s)", site.altWhat(i), u.Kind)
			ok = false
		}
		for j := 0; j < i; j++ {
			if sameAlternative(u.Alts[j], a) {
				p.errorf(site.nodes[i], "%s repeats alternative %d", site.altWhat(i), j)
				ok = false
			}
		}
	}
	if !ok {
		return
	}
	if u.Discriminator != nil {
		p.checkDiscriminator(site)
	} else {
		p.checkOverlaps(site)
	}
	if len(u.Alts) == 1 && u.Discriminator == nil {
		p.collapse(s)
	}
}

// sameAlternative reports whether a and b are the same reference, or the
// same schema written twice with nothing to tell them apart.
func sameAlternative(a, b *Schema) bool {
	if a.Ref != "" || b.Ref != "" {
		return a.RefType != nil && a.RefType == b.RefType
	}
	return false
}

// collapse rewrites the union schema s of one alternative as that
// alternative (nullable when s is); defaults waiting for the alternative
// now wait for s.
func (p *parser) collapse(s *Schema) {
	alt := s.Union.Alts[0]
	keep := *s
	*s = *alt
	s.Pos = keep.Pos
	s.Nullable = keep.Nullable
	if keep.Description != "" {
		s.Description = keep.Description
	}
	if keep.GoName != "" {
		s.GoName = keep.GoName
	}
	for i := range p.defaults {
		if p.defaults[i].schema == alt {
			p.defaults[i].schema = s
		}
	}
}

// checkDiscriminator checks that every alternative is an object with the
// discriminator's property, required and fixed to one string, that the
// values differ and that the mapping agrees with them.
func (p *parser) checkDiscriminator(site *unionSite) {
	u := site.schema.Union
	dc := u.Discriminator
	prop := dc.Property
	dc.Values = make([]string, len(u.Alts))
	byValue := map[string]int{}
	for i, a := range u.Alts {
		r := a.Resolved()
		what := site.altWhat(i)
		if r.Union != nil || r.Type != TypeObject {
			p.errorf(site.nodes[i], "%s is %s: a discriminator chooses among objects", what, kindText(r))
			continue
		}
		pr := r.Property(prop)
		if pr == nil {
			p.errorf(site.nodes[i], "%s has no property %q, which the discriminator reads: declare it, such as %s: {type: string, const: ...}, and list it in required", what, prop, prop)
			continue
		}
		ps := pr.Schema.Resolved()
		val, fixed := "", false
		if ps != nil && ps.Type == TypeString && !pr.Schema.Nullable && !ps.Nullable {
			if c, ok := ps.Const.(string); ok && ps.HasConst {
				val, fixed = c, true
			} else if len(ps.Enum) == 1 {
				val, fixed = ps.Enum[0].(string)
			}
		}
		if !fixed {
			p.errorAt(p.propPos(site, i, pr), "property %q of %s must be a string with one value (const: or an enum of one value): the discriminator reads it to choose the alternative", prop, what)
			continue
		}
		if !pr.Required {
			p.errorAt(p.propPos(site, i, pr), "property %q of %s must be required: the discriminator reads it to choose the alternative", prop, what)
			continue
		}
		if j, dup := byValue[val]; dup {
			p.errorf(site.nodes[i], "%s has %s %q, like alternative %d: the discriminator cannot choose between them", what, prop, val, j)
			continue
		}
		byValue[val] = i
		dc.Values[i] = val
	}
	for k := range dc.Mapping {
		me := &dc.Mapping[k]
		node := site.mapped[k]
		var names []string
		for i, a := range u.Alts {
			if a.RefType != nil {
				names = append(names, a.RefType.Name)
				if a.RefType.Name == me.Type && me.Alt < 0 {
					me.Alt = i
				}
			}
		}
		switch {
		case me.Alt < 0 && len(names) == 0:
			p.errorf(node, "mapping %q names type %q, but no alternative of %s %s is a named type", me.Value, me.Type, u.Kind, site.in)
		case me.Alt < 0:
			p.errorf(node, "mapping %q names type %q, which is not an alternative of %s %s (its named types: %s)%s", me.Value, me.Type, u.Kind, site.in, joinAnd(names), didYouMean(me.Type, names))
		case dc.Values[me.Alt] != "" && dc.Values[me.Alt] != me.Value:
			p.errorf(node, "mapping %q selects type %q, whose property %q is %q: a mapping value is the value that selects the type", me.Value, me.Type, prop, dc.Values[me.Alt])
		}
	}
}

// propPos is where property pr of alternative i is declared: at the
// alternative for a named type (whose declaration is not wrong in itself).
func (p *parser) propPos(site *unionSite, i int, pr *Property) Pos {
	if site.schema.Union.Alts[i].RefType != nil {
		return p.pos(site.nodes[i])
	}
	return pr.Pos
}

// kindText names what a resolved schema is: "a union", "of type string".
func kindText(r *Schema) string {
	if r.Union != nil {
		return "a union (" + string(r.Union.Kind) + ")"
	}
	return "of type " + string(r.Type)
}

// checkOverlaps reports, for a oneOf without a discriminator, two
// alternatives that surely accept a common value, and for an anyOf an
// alternative that can never be chosen because an earlier one accepts
// every value it accepts.
func (p *parser) checkOverlaps(site *unionSite) {
	u := site.schema.Union
	for i := range u.Alts {
		for j := 0; j < i; j++ {
			a, b := u.Alts[j], u.Alts[i]
			if u.Kind == AnyOf {
				if acceptsAllOf(a, b) {
					p.errorf(site.nodes[i], "%s can never be chosen: alternative %d, before it, accepts every value it accepts (anyOf takes the first alternative that matches); reorder them", site.altWhat(i), j)
				}
				continue
			}
			if w, ok := witness(a, b, 0); ok {
				p.errorf(site.nodes[i], "%s and alternative %d both accept %s: oneOf requires exactly one to match; tell them apart (a discriminator, a const or required property of each), or use anyOf (the first match wins)", site.altWhat(i), j, w)
			}
		}
	}
}

// unconstrained reports whether the resolved scalar schema r accepts every
// value of its JSON type.
func unconstrained(r *Schema) bool {
	switch r.Type {
	case TypeString:
		return len(r.Enum) == 0 && !r.HasConst && r.MinLength == nil && r.MaxLength == nil && r.Pattern == "" && r.Format == ""
	case TypeInteger, TypeNumber:
		return len(r.Enum) == 0 && !r.HasConst && r.Minimum == nil && r.Maximum == nil &&
			r.ExclusiveMinimum == nil && r.ExclusiveMaximum == nil && r.MultipleOf == nil
	case TypeBoolean:
		return !r.HasConst
	}
	return false
}

// acceptsAllOf reports whether a surely accepts every value b accepts: a
// scalar without constraints of b's type (a number for an integer too).
func acceptsAllOf(a, b *Schema) bool {
	ra, rb := a.Resolved(), b.Resolved()
	if ra == nil || rb == nil || ra.Union != nil || rb.Union != nil || !unconstrained(ra) {
		return false
	}
	return ra.Type == rb.Type || (ra.Type == TypeNumber && rb.Type == TypeInteger)
}

// witness finds a JSON value (as text) that both a and b surely accept,
// looking depth levels into objects. It is conservative: false means it
// found none, not that there is none.
func witness(a, b *Schema, depth int) (string, bool) {
	ra, rb := a.Resolved(), b.Resolved()
	if ra == nil || rb == nil || depth > 8 {
		return "", false
	}
	if ra.Union != nil {
		for _, x := range ra.Union.Alts {
			if w, ok := witness(x, b, depth+1); ok {
				return w, true
			}
		}
		return "", false
	}
	if rb.Union != nil {
		return witness(b, a, depth+1)
	}
	scalar := func(t Type) bool { return t == TypeString || t == TypeInteger || t == TypeNumber || t == TypeBoolean }
	if scalar(ra.Type) && scalar(rb.Type) {
		if !(ra.Type == rb.Type || numeric(ra.Type) && numeric(rb.Type)) {
			return "", false
		}
		// Fixed values of either that the other accepts.
		for _, pair := range [][2]*Schema{{ra, rb}, {rb, ra}} {
			for _, v := range fixedValues(pair[0]) {
				if _, pr := checkValue(pair[1], v, "", false); pr == nil {
					if _, pr := checkValue(pair[0], v, "", false); pr == nil {
						return fmtValue(v), true
					}
				}
			}
		}
		switch {
		case unconstrained(ra) && unconstrained(rb):
			return map[Type]string{TypeString: `any string ("")`, TypeInteger: "any integer (0)", TypeNumber: "any integer (0)", TypeBoolean: "true"}[rb.Type], true
		case unconstrained(ra) && ra.Type != TypeInteger || unconstrained(rb) && rb.Type != TypeInteger:
			other := rb
			if !unconstrained(ra) || ra.Type == TypeInteger {
				other = ra
			}
			return "every " + string(other.Type) + " the other accepts", true
		case unconstrained(ra) && rb.Type == TypeInteger || unconstrained(rb) && ra.Type == TypeInteger:
			return "every integer the other accepts", true
		}
		return "", false
	}
	if ra.Type != rb.Type {
		return "", false
	}
	switch ra.Type {
	case TypeArray:
		lo := func(r *Schema) int {
			if r.MinItems == nil {
				return 0
			}
			return *r.MinItems
		}
		if lo(ra) == 0 && lo(rb) == 0 {
			return "the empty array []", true
		}
		return "", false
	case TypeObject:
		// The object holding only the properties either requires.
		var keys []string
		for _, r := range []*Schema{ra, rb} {
			for _, name := range r.Required {
				if !containsString(keys, name) {
					keys = append(keys, name)
				}
			}
		}
		var parts []string
		for _, name := range keys {
			pa, pb := ra.Property(name), rb.Property(name)
			sa, sb := propSchema(ra, pa), propSchema(rb, pb)
			if sa == nil || sb == nil {
				return "", false // the key is refused by one of them
			}
			w, ok := witness(sa, sb, depth+1)
			if !ok {
				return "", false
			}
			parts = append(parts, fmt.Sprintf("%q: %s", name, w))
		}
		if len(parts) == 0 {
			return "the empty object {}", true
		}
		return "{" + strings.Join(parts, ", ") + "}", true
	}
	return "", false
}

// propSchema is the schema a property named by p (nil: not declared) has
// in the object r: its own, the additionalProperties schema, an anything
// schema when extras are free, nil when r refuses the key.
func propSchema(r *Schema, p *Property) *Schema {
	switch {
	case p != nil:
		return p.Schema
	case r.AdditionalPropertiesSchema != nil:
		return r.AdditionalPropertiesSchema
	case r.AdditionalProperties:
		return &Schema{Type: TypeObject, AdditionalProperties: true}
	}
	return nil
}

func numeric(t Type) bool { return t == TypeInteger || t == TypeNumber }

// fixedValues are the values a scalar's const or enum allows.
func fixedValues(r *Schema) []any {
	if r.HasConst {
		return []any{r.Const}
	}
	return r.Enum
}

// checkUnionValue checks v against the union schema r: against each
// alternative in order (in mode, without modeSkipEnum); for oneOf exactly
// one must accept it.
func checkUnionValue(r *Schema, v any, path string, mode checkMode) (any, *problem) {
	u := r.Union
	var first *problem
	firstAt := 0
	var out any
	matched := -1
	for i, a := range u.Alts {
		cv, pr := check(a, v, path, mode)
		if pr != nil {
			if first == nil {
				first, firstAt = pr, i
			}
			continue
		}
		if matched >= 0 {
			return nil, &problem{at: path, msg: fmt.Sprintf("%s matches alternatives %d and %d of oneOf; exactly one must match", fmtValue(v), matched, i)}
		}
		matched, out = i, cv
		if u.Kind == AnyOf {
			break
		}
	}
	if matched < 0 {
		msg := fmt.Sprintf("%s matches none of the alternatives of %s", fmtValue(v), u.Kind)
		if first != nil {
			msg += fmt.Sprintf(" (alternative %d: %s)", firstAt, first)
		}
		return nil, &problem{at: path, msg: msg}
	}
	return out, nil
}

// AltSuffix is the suffix of the Go type name generated for an inline
// alternative r of a union (the union's own name comes first): a fixed
// value it holds (a const, a one-value enum, the const of a required
// property), its format, the first property it requires, else its JSON
// type ("Choice" for a union, "List", "Map", "Enum"). The generator names
// alternatives with it, and the OpenAPI importer predicts those names.
func (f *File) AltSuffix(r *Schema) string {
	fixed := func(s *Schema) string {
		if c, ok := s.Const.(string); ok && s.HasConst {
			return c
		}
		if len(s.Enum) == 1 {
			c, _ := s.Enum[0].(string)
			return c
		}
		return ""
	}
	var n string
	switch {
	case r.Union != nil:
		return "Choice"
	case r.Type == TypeArray:
		return "List"
	case r.Type == TypeObject && len(r.Properties) == 0 && (r.AdditionalProperties || r.AdditionalPropertiesSchema != nil):
		return "Map"
	case r.Type == TypeString && fixed(r) != "":
		n = f.GoName(fixed(r))
	case r.Type == TypeString && len(r.Enum) > 0:
		return "Enum"
	case r.Type == TypeString && r.Format != "":
		n = f.GoName(r.Format)
	case r.Type == TypeObject:
		for _, p := range r.Properties {
			if ps := p.Schema.Resolved(); p.Required && ps != nil && fixed(ps) != "" {
				n = f.GoName(fixed(ps))
				break
			}
		}
		if n == "" && len(r.Required) > 0 {
			n = f.GoName(r.Required[0])
		}
	}
	if n != "" || r.Type == "" {
		return n
	}
	return strings.ToUpper(string(r.Type[:1])) + string(r.Type[1:])
}
