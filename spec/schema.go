package spec

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/toolgen/toolgen/runtime/wire"
)

// subject says what a schema describes, for messages ("parameter
// \"address.street\"") and for reference bookkeeping.
type subject struct {
	kind  string // "parameter", "type", "result" or "extra" (a tool's additionalProperties)
	tool  string
	path  string     // dotted path from the parameter, type or result root
	owner *NamedType // the named type the schema belongs to, if any
}

func (s subject) String() string {
	q := strconv.Quote // as %q writes a string
	switch s.kind {
	case "parameter":
		return "parameter " + q(s.path)
	case "type":
		return "type " + q(s.path)
	case "result":
		if s.path == "" {
			return "the result of tool " + q(s.tool)
		}
		return "result field " + q(s.path) + " of tool " + q(s.tool)
	default:
		if s.path == "" {
			return "the extra parameters of tool " + q(s.tool)
		}
		return "extra parameter field " + q(s.path) + " of tool " + q(s.tool)
	}
}

// child is the subject of a nested schema; seg is ".name", "[]" or ".*".
func (s subject) child(seg string) subject {
	if s.path == "" {
		seg = strings.TrimPrefix(seg, ".")
	}
	s.path += seg
	return s
}

// childName is child("." + name): the subject of property name.
func (s subject) childName(name string) subject {
	if s.path == "" {
		s.path = name
	} else {
		s.path = s.path + "." + name
	}
	return s
}

// Types lists the schema type names, in the order messages give them.
var typeNames = []string{"string", "integer", "number", "boolean", "array", "object"}

// typeAliases are names from other languages, for suggestions.
var typeAliases = map[string]string{
	"int": "integer", "int32": "integer", "int64": "integer", "long": "integer",
	"float": "number", "double": "number", "decimal": "number",
	"bool": "boolean", "str": "string", "text": "string",
	"list": "array", "slice": "array", "map": "object", "dict": "object",
}

// Formats are the supported values of the `format` keyword.
var formats = []string{"date-time", "date", "email", "uri", "uuid"}

// keywordTypes lists the types each type-specific keyword applies to.
var keywordTypes = map[string][]Type{
	"minLength": {TypeString}, "maxLength": {TypeString}, "pattern": {TypeString}, "format": {TypeString},
	"trim":    {TypeString},
	"enum":    {TypeString, TypeInteger, TypeNumber},
	"minimum": {TypeInteger, TypeNumber}, "maximum": {TypeInteger, TypeNumber},
	"exclusiveMinimum": {TypeInteger, TypeNumber}, "exclusiveMaximum": {TypeInteger, TypeNumber},
	"multipleOf": {TypeInteger, TypeNumber},
	"items":      {TypeArray}, "minItems": {TypeArray}, "maxItems": {TypeArray}, "uniqueItems": {TypeArray},
	"properties": {TypeObject}, "required": {TypeObject}, "additionalProperties": {TypeObject},
	"const": {TypeString, TypeInteger, TypeNumber, TypeBoolean, TypeArray, TypeObject},
	"allOf": {TypeObject},
}

// refSiblings are the keywords allowed next to $ref.
var refSiblings = []string{"$ref", "go_name", "description", "nullable", "default"}

const refPrefix = "#/types/"

// ref is a $ref waiting to be resolved.
type ref struct {
	schema *Schema
	node   *yaml.Node
	sub    subject
}

// typeList names types for messages: "type string", "types integer and number".
func typeList(ts []Type) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = string(t)
	}
	if len(names) == 1 {
		return "type " + names[0]
	}
	return "types " + joinAnd(names)
}

// joinAnd joins "a", "b", "c" as "a, b and c".
func joinAnd(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func joinOr(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// MaxNesting is how deeply schemas may nest inside a parameter, a result
// or a named type: properties, items, map values and union alternatives each
// add a level. It is the generated decoders' own limit (wire.MaxDepth, the
// JSON nesting they read): a deeper object or array could never be decoded,
// and nested unions past it make generated code that grows faster than the
// spec (each level's type name and message name the levels below it).
const MaxNesting = wire.MaxDepth

// schema reads one schema of the supported JSON Schema subset.
func (p *parser) schema(n *yaml.Node, sub subject) *Schema {
	of := sub.String() // for messages, once: it is formatted
	in := "in schema of " + of
	if p.nesting >= MaxNesting {
		if !p.tooDeep { // once per top-level schema
			p.tooDeep = true
			at := sub
			if len(at.path) > 80 {
				at.path = at.path[:40] + "…" + at.path[len(at.path)-30:]
			}
			p.errorf(n, "the schema of %s is nested more than %d levels deep (properties, items, map values and oneOf/anyOf alternatives each add one); generated decoders read at most %d levels of JSON, so split it with named types or flatten it", at, MaxNesting, wire.MaxDepth)
		}
		return nil
	}
	p.nesting++
	defer func() {
		if p.nesting--; p.nesting == 0 {
			p.tooDeep = false
		}
	}()
	d := deref(n)
	if d != nil && d.Kind == yaml.ScalarNode && tagOf(d) == "!!str" && contains(typeNames, d.Value) {
		p.errorf(n, "the schema of %s must be a mapping; found %s (write {type: %s})", sub, describe(d), d.Value)
		return nil
	}
	m := p.mappingOf(n, text{"the schema of ", of}, text{a: in}, schemaKeys)
	if m == nil {
		return nil
	}
	s := &Schema{Pos: p.pos(d), Keys: p.keys(m)}

	// type or $ref.
	typeOK := false
	union := m.has("oneOf") || m.has("anyOf")
	impliedObject := !m.has("type") && !m.has("$ref") && m.has("allOf") && !union
	if impliedObject {
		// allOf merges objects: without a type the schema is one.
		s.Type, typeOK = TypeObject, true
	}
	if e, ok := m.get("type"); ok {
		typeOK = p.schemaType(e.Val, s, in)
	}
	if e, ok := m.get("$ref"); ok {
		if m.has("type") {
			p.errorf(e.Key, "$ref cannot be combined with type %s: the named type gives the type", in)
		} else if r, ok := p.str(e.Val, "$ref"); ok {
			name, found := strings.CutPrefix(r, refPrefix)
			if !found || name == "" {
				p.errorf(e.Val, "$ref %q %s: only references to named types are supported, written \"#/types/Name\"", r, in)
			} else {
				s.Ref = name
				p.refs = append(p.refs, ref{schema: s, node: e.Val, sub: sub})
			}
		}
		for _, k := range m.list {
			if name := k.name; !contains(refSiblings, name) {
				p.errorf(k.Key, "keyword %q cannot be combined with $ref %s: put it in the named type", name, in)
			}
		}
	} else if !m.has("type") && !impliedObject && !union {
		p.errorf(d, "the schema of %s has no type: add type: (%s) or $ref: \"#/types/Name\"", sub, joinOr(typeNames))
	}

	// Keywords that must fit the type.
	if typeOK {
		for _, e := range m.list {
			k := e.name
			if ts, ok := keywordTypes[k]; ok && !containsType(ts, s.Type) {
				p.errorf(e.Key, "keyword %q does not apply to type %s %s; it is for %s", k, s.Type, in, typeList(ts))
			}
		}
	}
	fits := func(key string) bool {
		ts, ok := keywordTypes[key]
		return typeOK && (!ok || containsType(ts, s.Type))
	}

	if v := m.val("description"); v != nil {
		s.Description, _ = p.strKey(v, "description", in)
	}
	if e, ok := m.get("go_name"); ok {
		if (sub.kind == "result" || sub.kind == "extra") && sub.path == "" {
			p.errorf(e.Key, "go_name %s names nothing: the Go name of a tool's %s comes from the tool (give the tool a go_name)", in, map[string]string{"result": "result type", "extra": "extra parameters"}[sub.kind])
		} else {
			s.GoName = p.goNameKey(e.Val, in)
			// The go_name of array items or map values names a Go type:
			// checkNames compares it with the others.
			if s.GoName != "" && (strings.HasSuffix(sub.path, "[]") || strings.HasSuffix(sub.path, ".*")) {
				what := "the items of "
				if strings.HasSuffix(sub.path, ".*") {
					what = "the values of "
				}
				p.itemTypes = append(p.itemTypes, itemType{name: s.GoName, pos: p.pos(e.Val), what: what + of})
			}
		}
	}
	if v := m.val("nullable"); v != nil {
		if b, ok := p.booleanKey(v, "nullable", in); ok && b {
			s.Nullable = true
		}
	}
	if union && !m.has("$ref") {
		p.union(m, s, sub, in) // union.go
		return s
	}

	// string
	count := func(key string, dst **int) {
		if v := m.val(key); v != nil && fits(key) {
			if c, ok := p.countKey(v, key, in, 0); ok {
				*dst = &c
			}
		}
	}
	count("minLength", &s.MinLength)
	count("maxLength", &s.MaxLength)
	if v := m.val("pattern"); v != nil && fits("pattern") {
		if pat, ok := p.strKey(v, "pattern", in); ok {
			if err := p.compiles(pat); err != nil {
				msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
				p.errorf(v, "pattern %q %s does not compile as a Go regular expression (RE2 syntax: no lookaround or backreferences): %s", pat, in, msg)
			} else {
				s.Pattern = pat
			}
		}
	}
	if v := m.val("format"); v != nil && fits("format") {
		if f, ok := p.strKey(v, "format", in); ok {
			if !contains(formats, f) {
				p.errorf(v, "unsupported format %q %s; supported formats are %s%s", f, in, joinAnd(formats), didYouMean(f, formats))
			} else {
				s.Format = f
			}
		}
	}

	if v := m.val("trim"); v != nil && fits("trim") {
		s.Trim, _ = p.booleanKey(v, "trim", in)
	}

	// integer and number
	bound := func(key string, dst **wire.Decimal) {
		v := m.val(key)
		if v == nil || !fits(key) {
			return
		}
		if d := deref(v); strings.HasPrefix(key, "exclusive") && d.Kind == yaml.ScalarNode && tagOf(d) == "!!bool" {
			other := "minimum"
			if key == "exclusiveMaximum" {
				other = "maximum"
			}
			p.errorf(v, "%s %s must be a number, not a boolean: in JSON Schema draft 2020-12 it is the bound itself (write %s: 0 instead of %s: 0 with %s: true)", key, in, key, other, key)
			return
		}
		f, ok := p.exactNumberKey(v, key, in)
		if !ok {
			return
		}
		if s.Type == TypeInteger && !f.IsInt() {
			p.errorf(v, "%s %s must be a whole number for type integer; found %s", key, in, deref(v).Value)
			return
		}
		*dst = f
	}
	bound("minimum", &s.Minimum)
	bound("maximum", &s.Maximum)
	bound("exclusiveMinimum", &s.ExclusiveMinimum)
	bound("exclusiveMaximum", &s.ExclusiveMaximum)
	bound("multipleOf", &s.MultipleOf)
	if s.MultipleOf != nil && s.MultipleOf.Cmp(wire.Dec("0")) <= 0 {
		p.errorf(m.val("multipleOf"), "multipleOf %s must be greater than 0; found %s", in, s.MultipleOf)
		s.MultipleOf = nil
	}

	// array
	if s.Type == TypeArray {
		if v := m.val("items"); v != nil {
			s.Items = p.schema(v, sub.child("[]"))
		} else {
			p.errorf(d, "the array schema of %s needs items: the schema of its elements", sub)
		}
	}
	count("minItems", &s.MinItems)
	count("maxItems", &s.MaxItems)
	if v := m.val("uniqueItems"); v != nil && fits("uniqueItems") {
		s.UniqueItems, _ = p.booleanKey(v, "uniqueItems", in)
	}

	// object
	if v := m.val("properties"); v != nil && fits("properties") && !isNull(v) {
		if pf := p.mappingOf(v, text{"properties ", in}, text{"in properties of ", of}, nil); pf != nil {
			s.Properties = p.properties(pf, sub.childName, "property", of)
		}
	}
	var site *allOfSite
	if v := m.val("allOf"); v != nil && fits("allOf") {
		site = p.allOf(v, s, sub, in)
	}
	if v := m.val("required"); v != nil && fits("required") {
		if site != nil {
			site.required = v // it may name properties of the parts
		} else {
			p.required(v, s, "property", of, "properties")
		}
	}
	if v := m.val("additionalProperties"); v != nil && fits("additionalProperties") {
		p.additional(v, s, sub.child(".*"))
	}

	p.checkRanges(m, s, in)

	if v := m.val("enum"); v != nil && fits("enum") {
		p.enum(v, s, sub, in)
	}
	if e, ok := m.get("const"); ok && fits("const") {
		p.constant(e, s, sub, in)
	}
	if e, ok := m.get("default"); ok {
		s.HasDefault = true
		p.defaults = append(p.defaults, deflt{schema: s, key: e.Key, val: e.Val, sub: sub})
	}
	return s
}

// compiles is the error of regexp.Compile(pat), compiled once for each
// pattern of the file (an API repeats its patterns).
func (p *parser) compiles(pat string) error {
	if err, ok := p.patterns[pat]; ok {
		return err
	}
	_, err := regexp.Compile(pat)
	if p.patterns == nil {
		p.patterns = map[string]error{}
	}
	p.patterns[pat] = err
	return err
}

func containsType(ts []Type, t Type) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// schemaType reads `type: T` or `type: [T, "null"]` into s.
func (p *parser) schemaType(v *yaml.Node, s *Schema, in string) bool {
	one := func(n *yaml.Node) (Type, bool) {
		name, ok := p.strKey(n, "type", in)
		if !ok {
			return "", false
		}
		if contains(typeNames, name) {
			return Type(name), true
		}
		hint := didYouMean(name, typeNames)
		if alias, ok := typeAliases[strings.ToLower(name)]; ok {
			hint = fmt.Sprintf(" (did you mean %q?)", alias)
		}
		if name == "null" {
			p.errorf(n, "type null %s: a schema cannot be only null; write type: [T, \"null\"] or nullable: true", in)
			return "", false
		}
		p.errorf(n, "unknown type %q %s; expected %s%s", name, in, joinOr(typeNames), hint)
		return "", false
	}
	d := deref(v)
	if d.Kind == yaml.SequenceNode {
		var ts []*yaml.Node
		nulls := 0
		for _, c := range d.Content {
			if dc := deref(c); dc.Kind == yaml.ScalarNode && dc.Value == "null" {
				nulls++
				continue
			}
			ts = append(ts, c)
		}
		if len(d.Content) != 2 || nulls != 1 {
			p.errorf(v, "a type list %s must be [T, \"null\"] (a nullable T); for other unions use one type", in)
			return false
		}
		t, ok := one(ts[0])
		s.Type, s.Nullable = t, true
		return ok
	}
	t, ok := one(v)
	s.Type = t
	return ok
}

// properties reads the properties of an object (or the params of a tool), in
// file order, checking names and Go name collisions.
func (p *parser) properties(f *fields, sub func(string) subject, what, of string) []*Property {
	var props []*Property // nil for none
	if len(f.list) > 0 {
		props = make([]*Property, 0, len(f.list))
	}
	byGo := make(map[string]*Property, len(f.list))
	for _, e := range f.list {
		name := e.name
		if !validName(name) || len(name) > MaxNameLen {
			p.checkName(e.Key, what+" name", name)
		}
		prop := &Property{Pos: p.pos(e.Key), Name: name, GoName: goName(name, p.extra)}
		prop.Schema = p.schema(e.Val, sub(name))
		if prop.Schema != nil && prop.Schema.GoName != "" {
			prop.GoName = prop.Schema.GoName
		}
		if prop.GoName == "" && validName(name) {
			p.errorf(e.Key, "%s name %q of %s has no letters or digits to make a Go field name from (give it a go_name)", what, name, of)
		} else if first, dup := byGo[prop.GoName]; dup && prop.GoName != "" {
			p.errorf(e.Key, "%s %q of %s has the Go name %s, like %s %q (line %d); rename one, or give it a go_name", what, name, of, prop.GoName, what, first.Name, first.Pos.Line)
		} else {
			byGo[prop.GoName] = prop
		}
		props = append(props, prop)
	}
	return props
}

// required reads a `required:` list naming properties of obj and marks them.
func (p *parser) required(v *yaml.Node, obj *Schema, what, of, plural string) {
	items, ok := p.sequence(v, "required")
	if !ok {
		return
	}
	names := make([]string, len(obj.Properties))
	for i, prop := range obj.Properties {
		names[i] = prop.Name
	}
	seen := map[string]bool{}
	for _, n := range items {
		name, ok := p.str(n, "a required entry")
		if !ok {
			continue
		}
		prop := obj.Property(name)
		switch {
		case seen[name]:
			p.errorf(n, "required lists %q twice", name)
			continue
		case prop == nil && len(names) == 0:
			p.errorf(n, "required lists %q, but %s has no %s", name, of, plural)
			continue
		case prop == nil:
			p.errorf(n, "required lists %q, which is not a %s of %s%s", name, what, of, didYouMean(name, names))
			continue
		}
		seen[name] = true
		prop.Required = true
		obj.Required = append(obj.Required, name)
		if prop.Schema != nil && prop.Schema.HasDefault {
			p.errorf(n, "required %s %q has a default (line %d); a default is for optional %s: drop the default or make it optional",
				what, name, p.defaultLine(prop.Schema), plural)
		}
	}
}

func (p *parser) defaultLine(s *Schema) int {
	for _, d := range p.defaults {
		if d.schema == s {
			return d.key.Line
		}
	}
	return 0
}

// additional reads `additionalProperties:` (a boolean or a schema).
func (p *parser) additional(v *yaml.Node, obj *Schema, sub subject) {
	d := deref(v)
	if d.Kind == yaml.ScalarNode && tagOf(d) == "!!bool" {
		obj.AdditionalProperties, _ = p.boolean(v, "additionalProperties")
		return
	}
	if d.Kind != yaml.MappingNode {
		p.errorf(v, "additionalProperties must be true, false or a schema; found %s", describe(d))
		return
	}
	obj.AdditionalProperties = true
	obj.AdditionalPropertiesSchema = p.schema(v, sub)
}

// checkRanges reports lower bounds above upper bounds.
func (p *parser) checkRanges(m *fields, s *Schema, in string) {
	intRange := func(lo, hi string, a, b *int) {
		if a != nil && b != nil && *a > *b {
			p.errorf(m.val(lo), "%s %d is greater than %s %d %s", lo, *a, hi, *b, in)
		}
	}
	intRange("minLength", "maxLength", s.MinLength, s.MaxLength)
	intRange("minItems", "maxItems", s.MinItems, s.MaxItems)
	numRange := func(lo, hi string, a, b *wire.Decimal, strict bool) {
		if a == nil || b == nil {
			return
		}
		if c := a.Cmp(b); c > 0 || (strict && c == 0) {
			rel := "greater than"
			if c == 0 {
				rel = "equal to"
			}
			p.errorf(m.val(lo), "%s %s is %s %s %s %s: no value fits", lo, a, rel, hi, b, in)
		}
	}
	numRange("minimum", "maximum", s.Minimum, s.Maximum, false)
	numRange("exclusiveMinimum", "maximum", s.ExclusiveMinimum, s.Maximum, true)
	numRange("minimum", "exclusiveMaximum", s.Minimum, s.ExclusiveMaximum, true)
	numRange("exclusiveMinimum", "exclusiveMaximum", s.ExclusiveMinimum, s.ExclusiveMaximum, true)
}

// exactNumberKey is exactNumber(n, key+" "+in), the message made only for
// a problem.
func (p *parser) exactNumberKey(n *yaml.Node, key, in string) (*wire.Decimal, bool) {
	if d := deref(n); d != nil && d.Kind == yaml.ScalarNode && tagOf(d) == "!!int" && plainDecimal(d.Value, 0) && d.Value != "-0" {
		return wire.Dec(d.Value), true // as exactNumber reads it
	}
	return p.exactNumber(n, key+" "+in)
}

// exactNumber reads a number keyword exactly, as the decimal it writes
// (9007199254740993 is not rounded to a float64).
func (p *parser) exactNumber(n *yaml.Node, what string) (*wire.Decimal, bool) {
	d := deref(n)
	if d != nil && d.Kind == yaml.ScalarNode {
		switch tagOf(d) {
		case "!!int":
			if plainDecimal(d.Value, 0) && d.Value != "-0" {
				return wire.Dec(d.Value), true // as big.Int writes it
			}
			if i, ok := new(big.Int).SetString(d.Value, 0); ok {
				return wire.Dec(i.String()), true
			}
		case "!!float":
			if x, ok := wire.ParseDecimal(d.Value); ok {
				return x, true
			}
		}
	}
	p.errorf(n, "%s must be a finite number; found %s", what, describe(d))
	return nil, false
}
