package openapi

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/toolgen/toolgen/spec"
)

// direction says which side of the API a schema describes: readOnly
// properties are left out of requests, writeOnly ones out of responses.
type direction int

const (
	request direction = iota
	response
)

// maxSchemaDepth bounds the nesting of an imported schema (the generated
// decoders and the model's attention both suffer from more).
const maxSchemaDepth = 24

var (
	supportedFormats = map[string]bool{"date-time": true, "date": true, "email": true, "uri": true, "uuid": true}
	propName         = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)
	typeNameChars    = regexp.MustCompile(`[^A-Za-z0-9_]+`)
)

// named is a component schema imported as a named type (`types:`).
type named struct {
	key  string // component ref + direction
	base string // the wanted type name, from the component's name
	ptr  string // JSON pointer of the component
	name string // the final, unique name (set by finish)
	node *yaml.Node
	ok   bool
	refs []*yaml.Node // the $ref scalars naming it, set by finish
	// start is how many ends the way to it had when its conversion began
	// (see converter.ends, recursive.go).
	start int
}

// converter turns OpenAPI schemas into toolgen schemas (as YAML nodes).
type converter struct {
	imp      *importer
	types    map[string]*named
	order    []*named
	visiting map[string]bool
	// sensitive memoises whether a component's tree holds readOnly or
	// writeOnly (then it is imported once per direction).
	sensitive map[string]int8
	refOwner  map[*yaml.Node]*named
	// ends counts the places on the way to the schema being converted
	// where a reference cycle can end (recursive.go).
	ends int
}

func newConverter(imp *importer) *converter {
	return &converter{imp: imp, types: map[string]*named{}, visiting: map[string]bool{}, sensitive: map[string]int8{}, refOwner: map[*yaml.Node]*named{}}
}

// context of one conversion: where problems go.
type ctx struct {
	dir    direction
	report func(ptr, reason string)
	// named is set inside a named type, which a result may share.
	named bool
}

func isComponentRef(ref string) bool { return strings.Contains(ref, "#/components/schemas/") }

func refName(ref string) string {
	i := strings.LastIndex(ref, "/")
	return ref[i+1:]
}

// pointer escapes one JSON pointer segment.
func pointer(seg string) string {
	return strings.ReplaceAll(strings.ReplaceAll(seg, "~", "~0"), "/", "~1")
}

// schema converts ref at ptr. It returns nil when the schema cannot be
// carried; the reason has been reported.
func (c *converter) schema(x ctx, ref *openapi3.SchemaRef, ptr string, depth int) *yaml.Node {
	if ref == nil || ref.Value == nil {
		x.report(ptr, "the schema is missing")
		return nil
	}
	if depth > maxSchemaDepth {
		x.report(ptr, fmt.Sprintf("nested deeper than %d levels", maxSchemaDepth))
		return nil
	}
	if ref.Ref != "" && isComponentRef(ref.Ref) {
		return c.refTo(x, ref, ptr)
	}
	return c.inline(x, ref.Value, ptr, depth)
}

// refTo is a $ref to a component: a named type.
func (c *converter) refTo(x ctx, ref *openapi3.SchemaRef, ptr string) *yaml.Node {
	key := ref.Ref
	if c.isSensitive(ref.Ref, ref.Value) {
		key += map[direction]string{request: "#request", response: "#response"}[x.dir]
	}
	if c.visiting[key] {
		return c.recursiveRef(x, c.types[key], ptr) // recursive.go
	}
	nt, done := c.types[key]
	if !done {
		nt = &named{key: key, base: refName(ref.Ref), ptr: componentPointer(ref.Ref)}
		if key != ref.Ref && x.dir == request {
			nt.base += "_input"
		}
		c.types[key] = nt
		c.visiting[key] = true
		c.enter(nt)
		// A named type's problems are reported once, at the component.
		tx := ctx{dir: x.dir, report: c.imp.typeNote, named: true}
		nt.node = c.inline(tx, ref.Value, nt.ptr, 0)
		nt.ok = nt.node != nil
		delete(c.visiting, key)
		c.order = append(c.order, nt)
	}
	if !nt.ok {
		x.report(ptr, "the type "+refName(ref.Ref)+" cannot be carried (see "+nt.ptr+")")
		return nil
	}
	return c.refNode(nt)
}

// refNode is a {$ref} to the named type nt, its name filled in by finish.
func (c *converter) refNode(nt *named) *yaml.Node {
	r := scalarNode("")
	nt.refs = append(nt.refs, r)
	c.refOwner[r] = nt
	return mapNode("$ref", r)
}

// deref returns the named type's schema for a {$ref} node, else n.
func (c *converter) deref(n *yaml.Node) *yaml.Node {
	for i := 0; i < 100; i++ {
		r := get(n, "$ref")
		if r == nil {
			return n
		}
		nt := c.refOwner[r]
		if nt == nil || nt.node == nil {
			return n
		}
		n = nt.node
	}
	return n
}

func componentPointer(ref string) string {
	_, frag, _ := strings.Cut(ref, "#")
	file, _, _ := strings.Cut(ref, "#")
	if file != "" {
		return file + "#" + frag
	}
	return "#" + frag
}

// isSensitive reports whether the component's schema tree has readOnly or
// writeOnly properties.
func (c *converter) isSensitive(key string, s *openapi3.Schema) bool {
	switch c.sensitive[key] {
	case 1:
		return true
	case 2, 3: // no, or being computed (a cycle adds nothing)
		return false
	}
	c.sensitive[key] = 3
	seen := map[*openapi3.Schema]bool{}
	var walk func(r *openapi3.SchemaRef) bool
	walk = func(r *openapi3.SchemaRef) bool {
		if r == nil || r.Value == nil {
			return false
		}
		if r.Ref != "" && isComponentRef(r.Ref) && r.Ref != key {
			return c.isSensitive(r.Ref, r.Value)
		}
		v := r.Value
		if seen[v] {
			return false
		}
		seen[v] = true
		if v.ReadOnly || v.WriteOnly {
			return true
		}
		for _, p := range v.Properties {
			if walk(p) {
				return true
			}
		}
		if walk(v.Items) || walk(v.AdditionalProperties.Schema) {
			return true
		}
		for _, l := range []openapi3.SchemaRefs{v.AllOf, v.AnyOf, v.OneOf} {
			for _, e := range l {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	res := walk(&openapi3.SchemaRef{Value: s})
	c.sensitive[key] = map[bool]int8{true: 1, false: 2}[res]
	return res
}

// typeOf returns the schema's single non-null type and whether null is
// allowed too; ok is false for several types.
func typeOf(s *openapi3.Schema) (typ string, null bool, ok bool) {
	if s.Type == nil {
		return "", s.Nullable, true
	}
	var ts []string
	for _, t := range s.Type.Slice() {
		if t == "null" {
			null = true
			continue
		}
		ts = append(ts, t)
	}
	switch len(ts) {
	case 0:
		return "", true, true
	case 1:
		return ts[0], null || s.Nullable, true
	}
	return "", null, false
}

// unsupported lists the keywords of s outside toolgen's subset that change
// what is valid (annotations like title and example are dropped silently).
func unsupported(s *openapi3.Schema) []string {
	var out []string
	if s.Not != nil {
		out = append(out, "not")
	}
	if s.Const != nil {
		out = append(out, "const")
	}
	if len(s.PrefixItems) > 0 {
		out = append(out, "prefixItems")
	}
	if s.Contains != nil {
		out = append(out, "contains")
	}
	if len(s.PatternProperties) > 0 {
		out = append(out, "patternProperties")
	}
	if s.If != nil {
		out = append(out, "if")
	}
	if len(s.DependentSchemas) > 0 || len(s.DependentRequired) > 0 {
		out = append(out, "dependent keywords")
	}
	if s.Always != nil && !*s.Always {
		out = append(out, "false schema")
	}
	return out
}

// emptyString reports whether s is Stripe's "unset" alternative: a string
// whose only value is "".
func emptyString(r *openapi3.SchemaRef) bool {
	if r == nil || r.Value == nil || r.Ref != "" {
		return false
	}
	s := r.Value
	t, _, ok := typeOf(s)
	return ok && t == "string" && len(s.Enum) == 1 && s.Enum[0] == ""
}

func nullOnly(r *openapi3.SchemaRef) bool {
	if r == nil || r.Value == nil || r.Value.Type == nil {
		return false
	}
	ts := r.Value.Type.Slice()
	return len(ts) == 1 && ts[0] == "null"
}

// inline converts a schema without following a component $ref at its top.
func (c *converter) inline(x ctx, s *openapi3.Schema, ptr string, depth int) *yaml.Node {
	if bad := unsupported(s); len(bad) > 0 {
		x.report(ptr, strings.Join(bad, ", ")+" cannot be carried by the spec format")
		return nil
	}
	// Unions: what the format can carry of them.
	for _, u := range []struct {
		kw   string
		list openapi3.SchemaRefs
	}{{"anyOf", s.AnyOf}, {"oneOf", s.OneOf}} {
		if len(u.list) == 0 {
			continue
		}
		var keep []*openapi3.SchemaRef
		var keepAt []int
		dropped, nullable := 0, false
		for i, alt := range u.list {
			switch {
			case nullOnly(alt):
				nullable = true
			case emptyString(alt):
				dropped++
			default:
				keep = append(keep, alt)
				keepAt = append(keepAt, i)
			}
		}
		if len(keep) == 0 {
			x.report(ptr, u.kw+" (a union of "+fmt.Sprint(len(u.list))+" schemas) has no alternative the spec format can carry")
			return nil
		}
		var n *yaml.Node
		if len(keep) == 1 {
			if nullable {
				c.ends++ // the value may be null
			}
			n = c.schema(x, keep[0], fmt.Sprintf("%s/%s/%d", ptr, u.kw, keepAt[0]), depth)
			if nullable {
				c.ends--
			}
			if n != nil {
				n = withSiblings(n, s, nullable)
			}
		} else if x.dir == response || x.named {
			// A typed result is decoded by encoding/json, which cannot fill
			// a union's Go interface: the value would be dropped silently.
			x.report(ptr, u.kw+" (a union of "+fmt.Sprint(len(u.list))+" schemas) is imported in request arguments only: a typed result (or a named type, which results may share) cannot decode a union yet")
			return nil
		} else {
			n = c.union(x, s, u.kw, keep, keepAt, nullable, ptr, depth)
		}
		if n == nil {
			return nil
		}
		if dropped > 0 && x.dir == request {
			x.report(ptr, u.kw+`: the alternative "" (which unsets the field) is left out`)
		}
		return n
	}
	if len(s.AllOf) > 0 {
		return c.allOf(x, s, ptr, depth)
	}

	typ, null, ok := typeOf(s)
	if !ok {
		x.report(ptr, "a type list ("+strings.Join(s.Type.Slice(), ", ")+") is not in the spec format yet")
		return nil
	}
	if typ == "" {
		switch {
		case len(s.Properties) > 0 || s.AdditionalProperties.Has != nil || s.AdditionalProperties.Schema != nil:
			typ = "object"
		case s.Items != nil:
			typ = "array"
		default:
			x.report(ptr, "a schema without a type (any value) is not in the spec format")
			return nil
		}
	}
	m := &yaml.Node{Kind: yaml.MappingNode}
	add(m, "type", scalarNode(typ))
	if d := c.imp.propDescription(s.Description); d != "" {
		add(m, "description", textNode(d))
	}
	if null {
		add(m, "nullable", boolNode(true))
	}
	switch typ {
	case "string":
		if s.MinLength > 0 {
			add(m, "minLength", intNode(int64(s.MinLength)))
		}
		if s.MaxLength != nil {
			add(m, "maxLength", intNode(int64(*s.MaxLength)))
		}
		if s.Pattern != "" {
			if _, err := regexp.Compile(s.Pattern); err != nil {
				x.report(ptr+"/pattern", "the pattern is not an RE2 regular expression; left out")
			} else {
				add(m, "pattern", scalarNode(s.Pattern))
			}
		}
		if s.Format != "" && supportedFormats[s.Format] {
			add(m, "format", scalarNode(s.Format))
		}
	case "integer", "number":
		bound := func(key string, v *float64, excl openapi3.ExclusiveBound, exclKey string) {
			switch {
			case excl.Value != nil:
				add(m, exclKey, numNode(*excl.Value))
			case v != nil && excl.IsTrue():
				add(m, exclKey, numNode(*v))
			case v != nil:
				add(m, key, numNode(*v))
			}
		}
		bound("minimum", s.Min, s.ExclusiveMin, "exclusiveMinimum")
		bound("maximum", s.Max, s.ExclusiveMax, "exclusiveMaximum")
		if s.MultipleOf != nil && *s.MultipleOf > 0 {
			add(m, "multipleOf", numNode(*s.MultipleOf))
		}
	case "boolean":
	case "array":
		if s.Items == nil {
			x.report(ptr, "an array without items is not in the spec format")
			return nil
		}
		c.ends++ // an array may be empty
		it := c.schema(x, s.Items, ptr+"/items", depth+1)
		c.ends--
		if it == nil {
			return nil
		}
		add(m, "items", it)
		if s.MinItems > 0 {
			add(m, "minItems", intNode(int64(s.MinItems)))
		}
		if s.MaxItems != nil {
			add(m, "maxItems", intNode(int64(*s.MaxItems)))
		}
		if s.UniqueItems {
			add(m, "uniqueItems", boolNode(true))
		}
	case "object":
		c.object(x, m, s, ptr, depth)
	default:
		x.report(ptr, "type "+typ+" is not a JSON Schema type")
		return nil
	}
	if typ == "string" || typ == "integer" || typ == "number" {
		if len(s.Enum) > 0 {
			if en := enumNode(typ, s.Enum); en != nil {
				add(m, "enum", en)
			} else {
				x.report(ptr+"/enum", "the enum's values are not all of type "+typ+"; left out")
			}
		}
	}
	if s.Default != nil {
		if dn := defaultNode(typ, s); dn != nil {
			add(m, "default", dn)
		}
	}
	flow(m)
	return m
}

// withSiblings adds a union's own description and nullability to the
// alternative that carries it.
func withSiblings(n *yaml.Node, s *openapi3.Schema, nullable bool) *yaml.Node {
	if get(n, "$ref") != nil {
		out := mapNode("$ref", get(n, "$ref"))
		if nullable {
			add(out, "nullable", boolNode(true))
		}
		return out
	}
	if nullable && get(n, "nullable") == nil {
		add(n, "nullable", boolNode(true))
	}
	return n
}

// object fills m with an object's properties.
func sortedNames(m openapi3.Schemas) []string {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func (c *converter) object(x ctx, m *yaml.Node, s *openapi3.Schema, ptr string, depth int) {
	names := sortedNames(s.Properties)
	props := &yaml.Node{Kind: yaml.MappingNode}
	var req []string
	byGo := map[string]string{}
	for _, name := range names {
		p := s.Properties[name]
		pptr := ptr + "/properties/" + pointer(name)
		if p.Value != nil && ((x.dir == request && p.Value.ReadOnly) || (x.dir == response && p.Value.WriteOnly)) {
			continue // readOnly is not sent, writeOnly not returned: nothing to report
		}
		if !propName.MatchString(name) || len(name) > spec.MaxNameLen {
			x.report(pptr, "the property name is not one every model provider accepts; property left out")
			continue
		}
		gn := spec.GoName(name)
		if first, dup := byGo[gn]; dup {
			x.report(pptr, "the property has the Go name "+gn+", like "+first+"; property left out")
			continue
		}
		end := endsCycle(p.Value, slices.Contains(s.Required, name))
		if end {
			c.ends++
		}
		n := c.schema(x, p, pptr, depth+1)
		if end {
			c.ends--
		}
		if n == nil {
			continue
		}
		byGo[gn] = name
		if slices.Contains(s.Required, name) {
			req = append(req, name)
			deleteKey(n, "default")
		}
		props.Content = append(props.Content, scalarNode(name), n)
	}
	if len(props.Content) > 0 {
		add(m, "properties", props)
	}
	if len(req) > 0 {
		add(m, "required", flowSeq(req))
	}
	ap := s.AdditionalProperties
	named := len(props.Content) > 0
	switch {
	case named && (ap.Schema != nil || ap.Has != nil && *ap.Has):
		// Beside named properties, extra ones would be decoded into the
		// generated struct's Extra map, which a request does not send.
		x.report(ptr+"/additionalProperties", "properties beside the named ones are not carried; left out")
	case ap.Schema != nil:
		c.ends++ // a map may be empty
		n := c.schema(x, ap.Schema, ptr+"/additionalProperties", depth+1)
		c.ends--
		if n != nil {
			add(m, "additionalProperties", n)
		} else {
			add(m, "additionalProperties", boolNode(true))
		}
	case ap.Has != nil && !*ap.Has:
	case ap.Has != nil && *ap.Has, len(s.Properties) == 0:
		// An object that names no properties takes any.
		add(m, "additionalProperties", boolNode(true))
	case x.dir == response:
		// A response may grow new fields; they are dropped, not refused.
	}
}

// allOf merges a list of object schemas (each resolved) into one object;
// a single-element allOf is its element (3.0's way of giving a $ref a
// description).
func (c *converter) allOf(x ctx, s *openapi3.Schema, ptr string, depth int) *yaml.Node {
	if len(s.AllOf) == 1 && len(s.Properties) == 0 {
		n := c.schema(x, s.AllOf[0], ptr+"/allOf/0", depth)
		if n == nil {
			return nil
		}
		return withSiblings(n, s, s.Nullable)
	}
	merged := &openapi3.Schema{Type: &openapi3.Types{"object"}, Description: s.Description, Nullable: s.Nullable, Properties: openapi3.Schemas{}}
	type part struct {
		s   *openapi3.Schema
		ptr string
	}
	var parts []part
	if len(s.Properties) > 0 || len(s.Required) > 0 {
		parts = append(parts, part{s, ptr})
	}
	for i, r := range s.AllOf {
		at := fmt.Sprintf("%s/allOf/%d", ptr, i)
		if r == nil || r.Value == nil {
			x.report(at, "the schema is missing")
			return nil
		}
		parts = append(parts, part{r.Value, at})
	}
	for _, p := range parts {
		if p.s != s && (len(p.s.AnyOf) > 0 || len(p.s.OneOf) > 0 || len(p.s.AllOf) > 0) {
			x.report(p.ptr, "an allOf member that is itself a union or an allOf is not in the spec format yet")
			return nil
		}
		t, _, _ := typeOf(p.s)
		if t != "" && t != "object" {
			x.report(p.ptr, "allOf of non-object schemas ("+t+") is not in the spec format yet")
			return nil
		}
		for _, k := range sortedNames(p.s.Properties) {
			if _, dup := merged.Properties[k]; dup {
				x.report(p.ptr+"/properties/"+pointer(k), "the property is declared by two allOf members; the first is kept")
				continue
			}
			merged.Properties[k] = p.s.Properties[k]
		}
		merged.Required = append(merged.Required, p.s.Required...)
		if p.s.AdditionalProperties.Has != nil && !*p.s.AdditionalProperties.Has {
			f := false
			merged.AdditionalProperties.Has = &f
		}
		if merged.Description == "" {
			merged.Description = p.s.Description
		}
	}
	if len(merged.Properties) == 0 {
		f := false
		merged.AdditionalProperties.Has = &f
	}
	return c.inline(x, merged, ptr, depth)
}

// finish gives every named type a unique name that makes a distinct Go
// name (apart from the names reserved for generated declarations) and
// fills in the $refs.
func (c *converter) finish(reserved map[string]bool) []*named {
	var out []*named
	for _, nt := range c.order {
		if nt.ok {
			out = append(out, nt)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	taken := map[string]bool{}
	for k := range reserved {
		taken[k] = true
	}
	for _, nt := range out {
		base := typeNameChars.ReplaceAllString(nt.base, "_")
		base = strings.Trim(base, "_")
		if base == "" || !(base[0] >= 'A' && base[0] <= 'Z' || base[0] >= 'a' && base[0] <= 'z') {
			base = "T" + base
		}
		name := shorten(base, spec.MaxNameLen)
		for i := 2; taken[spec.GoName(name)]; i++ {
			name = shorten(base, spec.MaxNameLen-len(fmt.Sprint(i))-1) + "_" + fmt.Sprint(i)
		}
		taken[spec.GoName(name)] = true
		nt.name = name
		for _, r := range nt.refs {
			r.Value = "#/types/" + name
		}
	}
	return out
}

// shorten cuts s to max characters, ending it with a short hash of the
// whole so that distinct long names stay distinct.
func shorten(s string, max int) string {
	if len(s) <= max {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	h := hex.EncodeToString(sum[:])[:8]
	return strings.TrimRight(s[:max-9], "_-") + "_" + h
}

// enumNode is the enum of a schema of type typ, or nil when a value does
// not fit the type.
func enumNode(typ string, vals []any) *yaml.Node {
	seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	seen := map[string]bool{}
	for _, v := range vals {
		n := valueNode(typ, v)
		if n == nil {
			if v == nil {
				continue // null is allowed by nullable, not the enum
			}
			return nil
		}
		if seen[n.Value] {
			continue
		}
		seen[n.Value] = true
		seq.Content = append(seq.Content, n)
	}
	if len(seq.Content) == 0 {
		return nil
	}
	return seq
}

// defaultNode is a scalar default of the right type (and in the enum);
// other defaults are left out (the API applies them anyway).
func defaultNode(typ string, s *openapi3.Schema) *yaml.Node {
	n := valueNode(typ, s.Default)
	if n == nil {
		return nil
	}
	if typ == "string" {
		str := s.Default.(string)
		if s.MaxLength != nil && uint64(len([]rune(str))) > *s.MaxLength || uint64(len([]rune(str))) < s.MinLength {
			return nil
		}
		if s.Pattern != "" || (s.Format != "" && supportedFormats[s.Format]) {
			return nil
		}
	}
	if f, ok := asFloat(s.Default); ok && (typ == "integer" || typ == "number") {
		if s.Min != nil && f < *s.Min || s.Max != nil && f > *s.Max {
			return nil
		}
		if s.ExclusiveMin.IsSet() || s.ExclusiveMax.IsSet() || s.MultipleOf != nil {
			return nil
		}
	}
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(s.Default) }) {
		return nil
	}
	return n
}

func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

// valueNode is a scalar value of type typ, or nil.
func valueNode(typ string, v any) *yaml.Node {
	switch typ {
	case "string":
		if s, ok := v.(string); ok {
			n := scalarNode(s)
			n.Style = quoteStyle(s)
			return n
		}
	case "integer":
		if f, ok := asFloat(v); ok && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return intNode(int64(f))
		}
	case "number":
		if f, ok := asFloat(v); ok {
			return numNode(f)
		}
	case "boolean":
		if b, ok := v.(bool); ok {
			return boolNode(b)
		}
	}
	return nil
}
