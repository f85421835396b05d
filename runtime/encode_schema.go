package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// This file holds the schema rewrites the dialect encoders need: OpenAI's
// strict mode (OpenAIStrictSchema), Gemini's OpenAPI 3.0 subset
// (GeminiSchema), and the argument clean-up that goes with strict mode
// (dropNullOptionals).
//
// A rewrite only changes what the model is shown. The tool's own Decode
// still validates every call against the full schema, so a keyword that a
// dialect cannot carry loses the model some guidance, never the host any
// safety. Where a dropped keyword carried a constraint, its sense is
// appended to the description ("Must be greater than 0.") so the model
// still reads it.
//
// Both rewrites share one walk (rewrite.node): it visits every subschema
// (items, anyOf alternatives, properties) at most maxSchemaDepth levels
// deep, and copies, describes or drops each plain keyword as the dialect's
// keyword table says; the dialect's finish hook then writes the keywords
// it has its own rules for (type, enum, format, required,
// additionalProperties).

// ErrUnsupportedSchema is returned (wrapped, with the JSON path) when a
// schema uses something a dialect cannot express. The encoders then fall
// back to a form that carries the schema unchanged: strict:false for OpenAI,
// parametersJsonSchema for Gemini.
var ErrUnsupportedSchema = errors.New("schema not expressible in this dialect")

// maxSchemaDepth bounds how deeply nested subschemas (properties, items,
// anyOf alternatives, map values) the rewrites and dropNullOptionals
// follow, so that a hostile schema costs bounded work. Generated decoders
// keep free-form values to the same 64 levels.
const maxSchemaDepth = 64

// schemaPath is the JSON path of a subschema ("$", "$.a", "$.a[]",
// "$.a.anyOf[1]"), spelled out only when an error names it.
type schemaPath struct {
	up   *schemaPath
	kind byte // '.': the property name; '[': the items; '|': alternative i of keyword name (anyOf when ""); '/': keyword name
	name string
	i    int
}

func (p *schemaPath) String() string {
	if p == nil {
		return "$"
	}
	switch p.kind {
	case '.':
		return p.up.String() + "." + p.name
	case '[':
		return p.up.String() + "[]"
	case '/':
		return p.up.String() + "." + p.name
	}
	name := p.name
	if name == "" {
		name = "anyOf"
	}
	return fmt.Sprintf("%s.%s[%d]", p.up.String(), name, p.i)
}

func unsupported(p *schemaPath, format string, args ...any) error {
	return fmt.Errorf("%w: at %s: %s", ErrUnsupportedSchema, p, fmt.Sprintf(format, args...))
}

func malformed(p *schemaPath, format string, args ...any) error {
	return fmt.Errorf("invalid schema at %s: %s", p, fmt.Sprintf(format, args...))
}

// parseSchema decodes a JSON Schema object, keeping numbers as written.
func parseSchema(raw []byte) (map[string]any, error) {
	if m, ok := parseSchemaFast(raw); ok {
		return m, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("invalid schema: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid schema: data after the top-level value")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("invalid schema: not a JSON object")
	}
	return m, nil
}

// marshalCompact writes v as compact JSON (object keys sorted, as
// encoding/json writes maps) without HTML escaping.
func marshalCompact(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// literal is v as JSON text, for a note in a description.
func literal(v any) string {
	b, err := marshalCompact(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// characters is "1 character" or "n characters".
func characters(n any) string { return count(n, "character") }

// count is "1 <noun>" or "n <noun>s".
func count(n any, noun string) string {
	if l := literal(n); l != "1" {
		return l + " " + noun + "s"
	}
	return "1 " + noun
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// schemaTypes returns the type names of s ("type" is a string or an array of
// JSON Schema's type names). present is false when s has no "type".
func schemaTypes(s map[string]any, p *schemaPath) (types []string, present bool, err error) {
	v, present := s["type"]
	if !present {
		return nil, false, nil
	}
	switch t := v.(type) {
	case string:
		types = []string{t}
	case []any:
		types = make([]string, 0, len(t))
		for _, e := range t {
			name, ok := e.(string)
			if !ok {
				return nil, true, malformed(p, `"type" must be a string or an array of strings`)
			}
			types = append(types, name)
		}
	default:
		return nil, true, malformed(p, `"type" must be a string or an array of strings`)
	}
	for _, t := range types {
		switch t {
		case "string", "number", "integer", "boolean", "array", "object", "null":
		default:
			return nil, true, malformed(p, "unknown type %q", t)
		}
	}
	return types, true, nil
}

// isObjectSchema reports whether s is the schema of an object (type
// "object", non-nullable), as every dialect requires at the top level.
func isObjectSchema(s map[string]any) bool {
	t, ok := s["type"].(string)
	return ok && t == "object"
}

// noParameters reports whether object schema s takes no property at all:
// none declared, and no others allowed.
func noParameters(s map[string]any) bool {
	props, _ := s["properties"].(map[string]any)
	ap, ok := s["additionalProperties"]
	return len(props) == 0 && (!ok || ap == false)
}

// requiredSet returns the names s lists in "required", in order and as a set.
func requiredSet(s map[string]any, p *schemaPath) ([]string, map[string]bool, error) {
	raw, ok := s["required"]
	if !ok {
		return nil, nil, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, nil, malformed(p, `"required" must be an array of strings`)
	}
	names := make([]string, 0, len(list))
	set := make(map[string]bool, len(list))
	for _, e := range list {
		n, ok := e.(string)
		if !ok {
			return nil, nil, malformed(p, `"required" must be an array of strings`)
		}
		names = append(names, n)
		set[n] = true
	}
	return names, set, nil
}

// notes collects what a rewrite dropped, by keyword, and writes it after
// the description in a fixed order.
type notes map[string]string

func (n notes) describe(out map[string]any, in map[string]any) {
	if len(n) == 0 {
		return
	}
	var parts []string
	if d, ok := in["description"].(string); ok && d != "" {
		parts = append(parts, d)
	}
	for _, k := range [...]string{"oneOf", "discriminator", "enum", "format", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum",
		"exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
		"additionalProperties", "default", "cut"} {
		if s, ok := n[k]; ok {
			parts = append(parts, s)
		}
	}
	out["description"] = strings.Join(parts, " ")
}

func (n notes) add(keyword string, v any) {
	switch keyword {
	case "enum":
		vals, _ := v.([]any)
		lits := make([]string, 0, len(vals))
		for _, e := range vals {
			if e != nil {
				lits = append(lits, literal(e))
			}
		}
		n[keyword] = "One of: " + strings.Join(lits, ", ") + "."
	case "format":
		n[keyword] = "Format: " + fmt.Sprint(v) + "."
	case "minLength":
		n[keyword] = "At least " + characters(v) + "."
	case "maxLength":
		n[keyword] = "At most " + characters(v) + "."
	case "minimum":
		n[keyword] = "Must be at least " + literal(v) + "."
	case "maximum":
		n[keyword] = "Must be at most " + literal(v) + "."
	case "minItems":
		n[keyword] = "At least " + count(v, "item") + "."
	case "maxItems":
		n[keyword] = "At most " + count(v, "item") + "."
	case "minProperties":
		n[keyword] = "At least " + count(v, "key") + "."
	case "maxProperties":
		n[keyword] = "At most " + count(v, "key") + "."
	case "exclusiveMinimum":
		n[keyword] = "Must be greater than " + literal(v) + "."
	case "exclusiveMaximum":
		n[keyword] = "Must be less than " + literal(v) + "."
	case "multipleOf":
		n[keyword] = "Must be a multiple of " + literal(v) + "."
	case "uniqueItems":
		if v == true {
			n[keyword] = "Items must be unique."
		}
	case "additionalProperties":
		n[keyword] = "Keys other than those listed are allowed."
	case "default":
		n[keyword] = "Default: " + literal(v) + "."
	case "oneOf": // v: the keyword the alternatives are sent under
		n[keyword] = "Exactly one of the alternatives must match."
		if v == "anyOf" {
			n[keyword] = "Exactly one of the alternatives (anyOf) must match."
		}
	case "discriminator":
		n[keyword] = "The " + literal(v) + " property selects the alternative."
	case "cut":
		n[keyword] = "Deeper levels of " + fmt.Sprint(v) + " are accepted but not shown."
	}
}

// keywordRule is what a dialect does with a plain keyword (one without
// subschemas and without a rule of the dialect's own).
type keywordRule uint8

const (
	ruleUnsupported  keywordRule = iota // the schema falls back (ErrUnsupportedSchema)
	ruleKeep                            // copied as is
	ruleDescribe                        // dropped, its sense added to the description
	ruleDrop                            // dropped: an annotation the dialect needs not
	ruleKeepDescribe                    // copied, and its sense added to the description (the dialect ignores it)
)

// rewrite is one run of a dialect's schema rewrite: the dialect's rules and
// the walk's state.
type rewrite struct {
	// keyword says what becomes of a plain keyword.
	keyword func(k string) keywordRule
	// finish completes node n once its subschemas are rewritten: it writes
	// type, enum, format and, for objects, required and
	// additionalProperties into n.out.
	finish func(r *rewrite, n *schemaNode) error
	// maxObjects is how many objects may nest, counting the root; 0: any.
	maxObjects int
	// Unions and references (see encode_union.go).
	oneOf         oneOfRule // what becomes of oneOf
	splitTypes    bool      // a type array of several types becomes an anyOf
	nullableAnyOf bool      // a {"type":"null"} alternative becomes "nullable": true
	refs          refMode
	recursion     bool // keepRefs: a recursive $ref is kept (else the schema is unsupported)
	refSiblings   bool // keepRefs: a $ref may have a description beside it
	nullOptional  bool // an optional property is made nullable (OpenAI strict)
	doc           map[string]any
	info          refInfo
	active        map[string]int            // inlineRefs: how often each $ref is being inlined on the path
	defs          map[string]map[string]any // keepRefs: the rewritten schema of each $ref kept
	walking       map[string]bool           // keepRefs: the $refs whose schema is being rewritten
	defCost       map[string]strictCost     // keepRefs: what each kept $ref's schema spends (Anthropic strict)
	nodes, budget int                       // inlineRefs: subschemas written, and how many may be

	depth, objects      int // where the walk is
	props, enums, chars int // totals so far, for OpenAI's limits
	optional, unions    int // totals so far, for Anthropic strict's per-request limits

	// Where each total first passed OpenAI strict's limit (see passed).
	propsAt, enumsAt, charsAt string
}

// schemaNode is one subschema as the walk sees it.
type schemaNode struct {
	in, out  map[string]any
	path     *schemaPath
	types    []string // the "type" names
	hasType  bool
	optional bool // a property its object does not require
	nullable bool // a null alternative was dropped (nullableAnyOf)
	required []string
	isReq    map[string]bool // required as a set
	notes    notes
}

func (n *schemaNode) is(typ string) bool { return slices.Contains(n.types, typ) }

// node rewrites subschema in at path p.
func (r *rewrite) node(in map[string]any, p *schemaPath, optional bool) (map[string]any, error) {
	if r.depth == maxSchemaDepth {
		return nil, unsupported(p, "subschemas nested more than %d deep", maxSchemaDepth)
	}
	r.depth++
	defer func() { r.depth-- }()
	if ref, ok := in["$ref"].(string); ok {
		return r.ref(in, ref, p, optional)
	}
	if r.budget > 0 {
		if r.nodes++; r.nodes > r.budget {
			return nil, unsupported(p, "inlining its references would write more than %d subschemas", r.budget)
		}
	}
	types, hasType, err := schemaTypes(in, p)
	if err != nil {
		return nil, err
	}
	if r.splitTypes && len(types)-boolInt(slices.Contains(types, "null")) > 1 {
		if _, ok := in["anyOf"]; ok {
			return nil, unsupported(p, "a type array beside anyOf")
		}
		in, types, hasType = splitTypes(in, types), nil, false
	}
	if r.keyword("const") != ruleKeep {
		in = constAsEnum(in)
	}
	_, hasAnyOf := in["anyOf"]
	_, hasOneOf := in["oneOf"]
	if !hasType && !hasAnyOf && !hasOneOf {
		return nil, unsupported(p, "a schema without a type")
	}
	if hasAnyOf && hasOneOf {
		return nil, unsupported(p, "anyOf beside oneOf")
	}
	n := &schemaNode{in: in, out: make(map[string]any, len(in)+2), path: p,
		types: types, hasType: hasType, optional: optional, notes: notes{}}
	if n.is("object") {
		r.objects++
		defer func() { r.objects-- }()
		if r.maxObjects > 0 && r.objects > r.maxObjects {
			return nil, unsupported(p, "objects nested more than %d deep", r.maxObjects)
		}
		if n.required, n.isReq, err = requiredSet(in, p); err != nil {
			return nil, err
		}
	}
	for _, k := range sortedKeys(in) {
		v := in[k]
		switch k {
		case "type", "format": // finish
		case "enum":
			if _, ok := v.([]any); !ok {
				return nil, malformed(p, `"enum" must be an array`)
			}
		case "properties", "required", "additionalProperties":
			if !n.is("object") {
				return nil, unsupported(p, "%q on a schema that is not an object", k)
			}
			if k == "properties" {
				if n.out[k], err = r.properties(n, v); err != nil {
					return nil, err
				}
			}
		case "$defs", "definitions", "$comment", "discriminator": // rewritten where used (ref), by union, or dropped
		case "items":
			if !n.is("array") {
				return nil, unsupported(p, `"items" on a schema that is not an array`)
			}
			if n.out[k], err = r.sub(v, &schemaPath{up: p, kind: '['}, false); err != nil {
				return nil, err
			}
		case "anyOf", "oneOf":
			if err := r.union(n, k, v); err != nil {
				return nil, err
			}
		default:
			switch r.keyword(k) {
			case ruleKeep:
				n.out[k] = v
			case ruleDescribe:
				n.notes.add(k, v)
			case ruleKeepDescribe:
				n.out[k] = v
				n.notes.add(k, v)
			case ruleDrop:
			default:
				return nil, unsupported(p, "keyword %q", k)
			}
		}
	}
	if err := r.finish(r, n); err != nil {
		return nil, err
	}
	n.notes.describe(n.out, in)
	return n.out, nil
}

// constAsEnum gives a schema with "const" (and no "enum") as the same
// schema with an enum of that one value, for the dialects that do not keep
// const: their rewrite then
// treats it as the enum it is (strict mode adds null to it for an optional
// property, Gemini keeps a string and describes a number), so no dialect
// rejects a const. in itself is left alone.
func constAsEnum(in map[string]any) map[string]any {
	c, ok := in["const"]
	if !ok {
		return in
	}
	if _, hasEnum := in["enum"]; hasEnum {
		return in
	}
	out := make(map[string]any, len(in))
	for k, v := range in {
		if k != "const" {
			out[k] = v
		}
	}
	out["enum"] = []any{c}
	return out
}

// sub rewrites the subschema v at p.
func (r *rewrite) sub(v any, p *schemaPath, optional bool) (map[string]any, error) {
	s, ok := v.(map[string]any)
	if !ok {
		return nil, malformed(p, "a schema must be an object")
	}
	return r.node(s, p, optional)
}

// properties rewrites the properties v of object n.
func (r *rewrite) properties(n *schemaNode, v any) (map[string]any, error) {
	props, ok := v.(map[string]any)
	if !ok {
		return nil, malformed(n.path, `"properties" must be an object`)
	}
	out := make(map[string]any, len(props))
	var cut []string
	for _, name := range sortedKeys(props) {
		r.props++
		r.chars += utf8.RuneCountInString(name)
		p := &schemaPath{up: n.path, kind: '.', name: name}
		passed(&r.propsAt, r.props, strictMaxProperties, p)
		passed(&r.charsAt, r.chars, strictMaxChars, p)
		sub, err := r.sub(props[name], p, !n.isReq[name])
		if isCut(err) && !n.isReq[name] {
			cut = append(cut, name)
			continue
		}
		if err != nil {
			return nil, err
		}
		out[name] = sub
	}
	if len(cut) > 0 {
		n.notes.add("cut", strings.Join(cut, ", "))
	}
	return out, nil
}

// passed records p in *at when total has just passed limit, so that an
// error can name where: the first subschema past it.
func passed(at *string, total, limit int, p *schemaPath) {
	if total > limit && *at == "" {
		*at = p.String()
	}
}

// OpenAI strict mode
//
// https://platform.openai.com/docs/guides/function-calling#strict-mode and
// https://platform.openai.com/docs/guides/structured-outputs#supported-schemas:
// every object lists all its properties in "required" and has
// "additionalProperties": false; an optional property is emulated by a
// union with null; the root is an object, not anyOf; supported are the
// types (string, number, boolean, integer, object, array, enum, anyOf),
// properties, required, additionalProperties, items, description, string
// pattern and format (date-time, time, date, duration, email, hostname,
// ipv4, ipv6, uuid), number minimum, maximum, exclusiveMinimum,
// exclusiveMaximum, multipleOf, and array minItems, maxItems. Limits: "up
// to 5000 object properties total, with up to 10 levels of nesting"; "total
// string length of all property names, definition names, enum values, and
// const values cannot exceed 120,000 characters"; "up to 1000 enum values
// across all enum properties"; "for a single enum property with string
// values, the total string length of all enum values cannot exceed 15,000
// characters when there are more than 250 enum values". "default" is
// rejected ("'default' is not permitted").

const (
	strictMaxDepth       = 10
	strictMaxProperties  = 5000
	strictMaxEnumValues  = 1000
	strictMaxChars       = 120_000
	strictLargeEnum      = 250
	strictLargeEnumChars = 15_000
)

func strictFormat(f any) bool {
	switch f {
	case "date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid":
		return true
	}
	return false
}

func strictKeyword(k string) keywordRule {
	switch k {
	case "description", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
		"multipleOf", "minItems", "maxItems":
		return ruleKeep
	case "default", "minLength", "maxLength", "uniqueItems":
		return ruleDescribe
	case "title", "$schema":
		return ruleDrop
	}
	return ruleUnsupported
}

// OpenAIStrictSchema rewrites a tool's argument schema for OpenAI's strict
// function calling: each optional property becomes required and nullable
// (its enum gains null), every object gets "additionalProperties": false,
// and the keywords strict mode does not accept (default, minLength,
// maxLength, uniqueItems, formats outside its list) move into the
// description; title is dropped.
//
// It returns an error wrapping ErrUnsupportedSchema when strict mode cannot
// carry the schema: an object that allows other keys (additionalProperties
// true or a schema, as for a map), a keyword outside the supported list
// (allOf, not, …; a const is rewritten as a one-value enum, oneOf as
// anyOf with "exactly one" in the description, a discriminator as a
// one-value enum in each alternative it names; $ref and $defs are kept,
// recursion included), a root that is not an object, subschemas nested
// more than 64 deep, or more than strict mode's limits: 10 nested objects,
// 5000 properties, 1000 enum values (nulls included), 120,000 characters
// of property names and enum strings, or 15,000 characters in one enum of
// more than 250 strings.
//
// The model then sends null for an optional property it would have left
// out. Generated decoders reject a null for an optional property that is
// not nullable, so a host using strict mode sets Options.DropNullOptionals,
// which reads those nulls as absent (see NullAsAbsent). A property that
// was optional and nullable reads a null as null, not as absent.
func OpenAIStrictSchema(schema json.RawMessage) (json.RawMessage, error) {
	root, info, err := prepareSchema(schema)
	if err != nil {
		return nil, err
	}
	out, err := strictRoot(root, info)
	if err != nil {
		return nil, err
	}
	return marshalCompact(out)
}

func strictRoot(root map[string]any, info refInfo) (map[string]any, error) {
	if !isObjectSchema(root) {
		return nil, unsupported(nil, `the top level must be {"type":"object"}`)
	}
	r := rewrite{keyword: strictKeyword, finish: strictFinish, maxObjects: strictMaxDepth,
		oneOf: oneOfAsAnyOf, refs: keepRefs, recursion: true, nullOptional: true, doc: root, info: info}
	out, err := r.node(root, nil, false)
	if err != nil {
		return nil, err
	}
	r.writeDefs(out)
	for ref := range r.defs {
		name, _ := keptDef(ref)
		r.chars += utf8.RuneCountInString(name[1])
		passed(&r.charsAt, r.chars, strictMaxChars, nil)
	}
	// Located at the subschema that passes the limit.
	over := func(at string, n int, what string, limit int) error {
		return fmt.Errorf("%w: at %s: %d %s in one schema, more than %d; this one passes the limit",
			ErrUnsupportedSchema, at, n, what, limit)
	}
	switch {
	case r.props > strictMaxProperties:
		return nil, over(r.propsAt, r.props, "properties", strictMaxProperties)
	case r.enums > strictMaxEnumValues:
		return nil, over(r.enumsAt, r.enums, "enum values", strictMaxEnumValues)
	case r.chars > strictMaxChars:
		return nil, over(r.charsAt, r.chars, "characters of property names and enum values", strictMaxChars)
	}
	return out, nil
}

// strictFinish writes node n's type, enum and format, makes it nullable
// when it is an optional property, and closes an object: all its
// properties required, no others allowed.
func strictFinish(r *rewrite, n *schemaNode) error {
	in, out := n.in, n.out
	if n.is("object") {
		if ap, ok := in["additionalProperties"]; ok && ap != false {
			return unsupported(n.path, "an object that allows other keys (additionalProperties)")
		}
		props, _ := out["properties"].(map[string]any)
		if props == nil {
			props = map[string]any{}
			out["properties"] = props
		}
		// Required lists every property once, the required ones first
		// in their order; OpenAI rejects a name that is not a property.
		required := make([]any, 0, len(props))
		listed := make(map[string]bool, len(props))
		for _, name := range slices.Concat(n.required, sortedKeys(props)) {
			if listed[name] {
				continue
			}
			if _, ok := props[name]; !ok {
				return unsupported(n.path, "%q is required but not a property", name)
			}
			listed[name] = true
			required = append(required, name)
		}
		out["required"] = required
		out["additionalProperties"] = false
	}
	if f, ok := in["format"]; ok {
		if strictFormat(f) {
			out["format"] = f
		} else {
			n.notes.add("format", f)
		}
	}
	if t, ok := in["type"]; ok {
		out["type"] = t
	}
	if e, ok := in["enum"]; ok {
		out["enum"] = e
	}
	if n.optional {
		makeNullable(n)
	}
	if enum, ok := out["enum"].([]any); ok {
		r.enums += len(enum)
		strs, chars := 0, 0
		for _, e := range enum {
			if s, ok := e.(string); ok {
				strs++
				chars += utf8.RuneCountInString(s)
			}
		}
		r.chars += chars
		passed(&r.enumsAt, r.enums, strictMaxEnumValues, n.path)
		passed(&r.charsAt, r.chars, strictMaxChars, n.path)
		if strs > strictLargeEnum && chars > strictLargeEnumChars {
			return unsupported(n.path, "an enum of %d strings with %d characters in all, more than %d", strs, chars, strictLargeEnumChars)
		}
	}
	return nil
}

// makeNullable lets node n's rewrite accept null: null joins its types (and
// its enum), or a {"type":"null"} alternative joins its anyOf.
func makeNullable(n *schemaNode) {
	out := n.out
	if !n.hasType {
		alts, _ := out["anyOf"].([]any)
		for _, a := range alts {
			if m, ok := a.(map[string]any); ok && m["type"] == "null" {
				return
			}
		}
		out["anyOf"] = append(slices.Clip(alts), map[string]any{"type": "null"})
		return
	}
	if n.is("null") {
		return
	}
	list := make([]any, 0, len(n.types)+1)
	for _, t := range n.types {
		list = append(list, t)
	}
	out["type"] = append(list, "null")
	if enum, ok := out["enum"].([]any); ok && !slices.Contains(enum, nil) {
		out["enum"] = append(slices.Clip(enum), nil)
	}
}

// Gemini
//
// Gemini's FunctionDeclaration.parameters is a Schema, "a select subset of
// an OpenAPI 3.0 schema object" (https://ai.google.dev/api/caching#Schema;
// google.ai.generativelanguage.v1beta Schema): type (STRING, NUMBER,
// INTEGER, BOOLEAN, ARRAY, OBJECT), format, title, description, nullable,
// enum (strings only, "with enum format"), items, minItems, maxItems,
// properties, required, minProperties, maxProperties, minLength,
// maxLength, pattern, minimum, maximum, anyOf, propertyOrdering, default
// (accepted and ignored), example. The REST API rejects any other field
// ("Invalid JSON payload received. Unknown name"), and an OBJECT whose
// properties are empty ("properties: should be non-empty for OBJECT type").
// Supported formats: float, double for NUMBER; int32, int64 for INTEGER;
// enum, date-time for STRING.

func geminiKeyword(k string) keywordRule {
	switch k {
	case "description", "title", "pattern", "minimum", "maximum", "minItems", "maxItems",
		"minLength", "maxLength", "minProperties", "maxProperties":
		return ruleKeep
	case "default", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems":
		return ruleDescribe
	case "$schema":
		return ruleDrop
	}
	return ruleUnsupported
}

// GeminiSchema rewrites a tool's argument schema into Gemini's OpenAPI 3.0
// subset:
//
//   - a type ["T","null"] becomes type T with "nullable": true, and type
//     names are upper-cased ("STRING");
//   - a string enum keeps its values (null left out: nullable says it) and
//     gets "format": "enum"; an enum of numbers or booleans, which Gemini
//     cannot carry, is dropped and listed in the description;
//   - additionalProperties (false on every generated object: Gemini objects
//     are closed anyway), exclusiveMinimum, exclusiveMaximum, multipleOf,
//     uniqueItems, default and formats outside Gemini's list are dropped;
//     those that constrain the value are described instead
//     ("Must be greater than 0.", "Default: 10.");
//   - title, description, minLength, maxLength, pattern, minimum, maximum,
//     minItems, maxItems, minProperties, maxProperties and anyOf are kept.
//
// A root object with no properties (a tool without parameters) gives a nil
// schema: Gemini wants parameters left out then. It returns an error
// wrapping ErrUnsupportedSchema for what the subset cannot express: a
// nested object without properties (a map, or an empty object), an array
// without items, subschemas nested more than 64 deep, a recursive $ref no
// optional property or alternative can cut, references that would inline
// to more than inlineBudgetFactor times the schema's size, or any other
// keyword (allOf, not, …). A const is rewritten as a one-value enum; a
// type array of several types and oneOf become anyOf (oneOf's "exactly
// one" in the description), a null alternative "nullable": true, a
// discriminator a one-value enum in each alternative; references are
// inlined, a recursive one inlineRecursion levels deep. EncodeTools then
// sends that tool's schema as parametersJsonSchema.
func GeminiSchema(schema json.RawMessage) (json.RawMessage, error) {
	root, info, err := prepareSchema(schema)
	if err != nil {
		return nil, err
	}
	out, err := geminiRoot(root, info)
	if err != nil || out == nil {
		return nil, err
	}
	return marshalCompact(out)
}

func geminiRoot(root map[string]any, info refInfo) (map[string]any, error) {
	if !isObjectSchema(root) {
		return nil, unsupported(nil, `the top level must be {"type":"object"}`)
	}
	if p, ok := root["properties"]; ok {
		if _, ok := p.(map[string]any); !ok {
			return nil, malformed(nil, `"properties" must be an object`)
		}
	}
	if noParameters(root) {
		return nil, nil
	}
	r := rewrite{keyword: geminiKeyword, finish: geminiFinish, oneOf: oneOfAsAnyOf, splitTypes: true,
		nullableAnyOf: true, refs: inlineRefs, doc: root, info: info}
	if info.refs {
		r.budget = max(inlineBudgetFactor*info.nodes, minInlineBudget)
	}
	out, err := r.node(root, nil, false)
	if c, ok := err.(*cutError); ok {
		return nil, unsupported(nil, "the recursive $ref %q cannot be cut within %d levels: no optional property or alternative leads to it", clip(c.ref), inlineRecursion)
	}
	return out, err
}

func geminiFormat(typ string, f any) bool {
	switch typ {
	case "string":
		return f == "date-time"
	case "number":
		return f == "float" || f == "double"
	case "integer":
		return f == "int32" || f == "int64"
	}
	return false
}

// geminiFinish writes node n's type (one, upper-cased, and nullable),
// its enum if it has strings only, its format if Gemini knows it, and an
// object's required.
func geminiFinish(_ *rewrite, n *schemaNode) error {
	in, out := n.in, n.out
	typ, nullable := "", false
	for _, t := range n.types {
		switch {
		case t == "null":
			nullable = true
		case typ == "":
			typ = t
		case t != typ:
			return unsupported(n.path, "a union of types %q", n.types)
		}
	}
	if n.hasType && typ == "" {
		return unsupported(n.path, "a schema whose only type is null")
	}
	if alts, ok := out["anyOf"].([]any); ok && !n.hasType {
		switch len(alts) {
		case 0:
			return unsupported(n.path, "a union whose only alternative is null")
		case 1: // anyOf [A, null]: A, nullable
			delete(out, "anyOf")
			for k, v := range alts[0].(map[string]any) {
				if _, ok := out[k]; !ok || k == "nullable" {
					out[k] = v
				}
			}
		}
	}
	nullable = nullable || n.nullable
	if typ != "" {
		out["type"] = strings.ToUpper(typ)
	}
	if nullable {
		out["nullable"] = true
	}
	stringEnum := false
	if vals, ok := in["enum"].([]any); ok {
		strs := make([]any, 0, len(vals))
		for _, e := range vals {
			if _, ok := e.(string); ok {
				strs = append(strs, e)
			} else if e != nil {
				strs = nil
				break
			}
		}
		if typ == "string" && len(strs) > 0 {
			out["enum"] = strs
			stringEnum = true
		} else {
			n.notes.add("enum", vals)
		}
	}
	if f, ok := in["format"]; ok {
		if !stringEnum && geminiFormat(typ, f) {
			out["format"] = f
		} else {
			n.notes.add("format", f)
		}
	}
	if stringEnum {
		out["format"] = "enum"
	}
	switch typ {
	case "array":
		if _, ok := in["items"]; !ok {
			return unsupported(n.path, "an array without items")
		}
	case "object":
		if props, _ := out["properties"].(map[string]any); len(props) == 0 {
			return unsupported(n.path, "an object with no declared properties")
		}
		if ap, ok := in["additionalProperties"]; ok && ap != false {
			n.notes.add("additionalProperties", ap)
		}
		if len(n.required) > 0 {
			out["required"] = in["required"]
		}
	}
	return nil
}

// dropNullOptionals returns args without the members whose value is null
// where schema has an optional property that is not nullable, at any depth
// (nested objects, array items, map values; 64 levels at most): what
// Options.DropNullOptionals does for a tool without Tool.DecodeWith
// (generated tools read those nulls as absent themselves). Everything else
// is kept byte for byte, member order included. When nothing is dropped,
// or schema or args is not valid JSON, args is returned unchanged, for
// Decode to judge.
func dropNullOptionals(schema, args json.RawMessage) json.RawMessage {
	if len(schema) == 0 || !bytes.Contains(args, []byte("null")) {
		return args
	}
	s, err := parseSchema(schema)
	if err != nil {
		return args
	}
	if out, changed := dropNulls(s, args, 0); changed {
		return out
	}
	return args
}

func isJSONNull(raw []byte) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// acceptsNull reports whether schema s allows a null value.
func acceptsNull(s map[string]any) bool {
	switch t := s["type"].(type) {
	case nil:
		if alts, ok := s["anyOf"].([]any); ok {
			for _, a := range alts {
				if m, ok := a.(map[string]any); ok && acceptsNull(m) {
					return true
				}
			}
			return false
		}
		if enum, ok := s["enum"].([]any); ok {
			return slices.Contains(enum, nil)
		}
		return true // no type: anything goes
	case string:
		return t == "null"
	case []any:
		return slices.Contains(t, any("null"))
	}
	return false
}

// dropNulls rewrites data (a JSON value described by s, depth levels down);
// changed is false when nothing was dropped or data could not be read.
func dropNulls(s map[string]any, data []byte, depth int) (out []byte, changed bool) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || depth == maxSchemaDepth {
		return data, false
	}
	switch data[0] {
	case '{':
		props, _ := s["properties"].(map[string]any)
		values, _ := s["additionalProperties"].(map[string]any)
		if props == nil && values == nil {
			return data, false
		}
		_, req, err := requiredSet(s, nil)
		if err != nil {
			return data, false
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		if _, err := dec.Token(); err != nil {
			return data, false
		}
		buf := make([]byte, 0, len(data))
		buf = append(buf, '{')
		first := true
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return data, false
			}
			key, _ := tok.(string)
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return data, false
			}
			ps, declared := props[key].(map[string]any)
			if !declared {
				ps = values
			}
			if declared && !req[key] && isJSONNull(raw) && !acceptsNull(ps) {
				changed = true
				continue
			}
			if ps != nil {
				if v, ch := dropNulls(ps, raw, depth+1); ch {
					raw, changed = v, true
				}
			}
			if !first {
				buf = append(buf, ',')
			}
			first = false
			k, err := marshalCompact(key)
			if err != nil {
				return data, false
			}
			buf = append(buf, k...)
			buf = append(buf, ':')
			buf = append(buf, raw...)
		}
		if _, err := dec.Token(); err != nil || !changed {
			return data, false
		}
		return append(buf, '}'), true
	case '[':
		items, _ := s["items"].(map[string]any)
		if items == nil {
			return data, false
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		if _, err := dec.Token(); err != nil {
			return data, false
		}
		buf := make([]byte, 0, len(data))
		buf = append(buf, '[')
		for i := 0; dec.More(); i++ {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return data, false
			}
			if v, ch := dropNulls(items, raw, depth+1); ch {
				raw, changed = v, true
			}
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, raw...)
		}
		if _, err := dec.Token(); err != nil || !changed {
			return data, false
		}
		return append(buf, ']'), true
	}
	return data, false
}
