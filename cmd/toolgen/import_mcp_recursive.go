package main

import (
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Recursive $defs: an inputSchema's $ref into its own $defs is inlined,
// except where the definition refers to itself (a tree's children, a
// list's next): that definition becomes a named type of the spec (types:),
// referred to by $ref at each use, when the cycle can end: through an
// array's items, a map's values, an optional property without a default or
// a nullable schema (as the spec format requires). The converter counts
// those places on the way to the schema it converts (ends), and a $ref
// back to a definition being converted through none of them is not
// carried (no finite value has it): the value is accepted free-form.

// mcpTypes are the named types of one imported spec, in the order made.
type mcpTypes struct {
	names []string
	nodes map[string]*yaml.Node
}

// reserve returns an unused type name made of the definition's name.
func (ts *mcpTypes) reserve(ref string) string {
	base := ref[strings.LastIndex(ref, "/")+1:]
	var b strings.Builder
	for _, r := range base {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9' && b.Len() > 0, r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	base = strings.Trim(b.String(), "_")
	if base == "" || '0' <= base[0] && base[0] <= '9' {
		base = "T" + base
	}
	if len(base) > 60 {
		base = base[:60]
	}
	name := base
	for i := 2; ts.nodes[name] != nil || slices.Contains(ts.names, name); i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	ts.names = append(ts.names, name)
	return name
}

// node is the types: mapping, or nil when there are none.
func (ts *mcpTypes) node() *yaml.Node {
	if ts == nil || len(ts.nodes) == 0 {
		return nil
	}
	m := mapping()
	for _, name := range ts.names {
		if n := ts.nodes[name]; n != nil {
			add(m, name, n)
		}
	}
	return m
}

// refTo converts the $ref s (to target in the schema's $defs) at path.
func (c *schemaConv) refTo(ref string, target any, s map[string]any, path string, depth int) *yaml.Node {
	if c.visiting == nil {
		c.visiting, c.named = map[string]int{}, map[string]string{}
	}
	if name, ok := c.named[ref]; ok {
		return c.typeRef(name, s)
	}
	if start, ok := c.visiting[ref]; ok {
		if c.ends == start {
			return c.cannot(path, "$ref "+ref+", a recursive reference through required properties only (no value of it is finite),")
		}
		if c.types == nil {
			return c.cannot(path, "$ref "+ref+", a recursive reference here,")
		}
		if _, ok := c.pending[ref]; !ok {
			if c.pending == nil {
				c.pending = map[string]string{}
			}
			c.pending[ref] = c.types.reserve(ref)
		}
		return c.typeRef(c.pending[ref], s)
	}
	c.visiting[ref] = c.ends
	n := c.schema(target, path+"→"+ref, depth+1)
	delete(c.visiting, ref)
	if name, ok := c.pending[ref]; ok && n != nil {
		// The definition refers to itself: a named type.
		if c.types.nodes == nil {
			c.types.nodes = map[string]*yaml.Node{}
		}
		c.types.nodes[name] = n
		c.named[ref] = name
		delete(c.pending, ref)
		return c.typeRef(name, s)
	}
	if n != nil {
		if d, ok := s["description"].(string); ok {
			set(n, "description", str(d))
		}
	}
	return n
}

// typeRef is {$ref: "#/types/name"}, with the site's description.
func (c *schemaConv) typeRef(name string, s map[string]any) *yaml.Node {
	n := mapping()
	add(n, "$ref", str("#/types/"+name))
	if d, ok := s["description"].(string); ok && d != "" {
		add(n, "description", str(d))
	}
	n.Style = yaml.FlowStyle
	return n
}

// endsCycle reports whether a reference cycle can end at a property: it is
// optional without a default, or nullable.
func endsCycle(v any, required bool) bool {
	s, _ := v.(map[string]any)
	if _, nullable, _ := typeOf(s); nullable || s["nullable"] == true {
		return true
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		alts, _ := s[kw].([]any)
		for _, a := range alts {
			if m, ok := a.(map[string]any); ok && m["type"] == "null" {
				return true
			}
		}
	}
	_, hasDefault := s["default"]
	return !required && !hasDefault
}
