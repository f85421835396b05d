package openapi

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/toolgen/toolgen/spec"
)

// union converts a oneOf or anyOf of two or more alternatives (after
// Stripe's "" and null ones are taken out) into the spec's union. It
// returns nil when the spec cannot carry it; the reason has been reported:
// an alternative that cannot be carried, keywords beside the union, or
// what the loader's union rules refuse (its own message).
func (c *converter) union(x ctx, s *openapi3.Schema, kw string, keep []*openapi3.SchemaRef, keepAt []int, nullable bool, ptr string, depth int) *yaml.Node {
	if len(s.Properties) > 0 || len(s.AllOf) > 0 || len(s.Enum) > 0 || len(s.AnyOf) > 0 && len(s.OneOf) > 0 {
		x.report(ptr, kw+" beside properties, allOf, enum or another union is not in the spec format")
		return nil
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode}
	for i, alt := range keep {
		n := c.schema(x, alt, fmt.Sprintf("%s/%s/%d", ptr, kw, keepAt[i]), depth+1)
		if n == nil {
			x.report(ptr, fmt.Sprintf("%s: alternative %d cannot be carried, so neither can the union", kw, keepAt[i]))
			return nil
		}
		if get(n, "nullable") != nil {
			// The spec writes a union's null as its own: the union is nullable.
			deleteKey(n, "nullable")
			nullable = true
		}
		seq.Content = append(seq.Content, n)
	}
	u := &yaml.Node{Kind: yaml.MappingNode}
	add(u, kw, seq)
	if d := c.imp.propDescription(s.Description); d != "" {
		add(u, "description", textNode(d))
	}
	if nullable || s.Nullable {
		add(u, "nullable", boolNode(true))
	}
	if d := s.Discriminator; d != nil && d.PropertyName != "" {
		dn := mapNode("propertyName", scalarNode(d.PropertyName))
		if len(d.Mapping) > 0 {
			mn := &yaml.Node{Kind: yaml.MappingNode}
			vals := make([]string, 0, len(d.Mapping))
			for v := range d.Mapping {
				vals = append(vals, v)
			}
			sort.Strings(vals)
			for _, v := range vals {
				ref := d.Mapping[v].Ref
				var target *named
				for i, alt := range keep {
					if alt.Ref == ref {
						target = c.refOwner[get(seq.Content[i], "$ref")]
					}
				}
				if target == nil {
					x.report(ptr+"/discriminator/mapping/"+pointer(v), "the mapping names "+ref+", which is not an alternative of the union written as a $ref; the mapping is left out")
					mn = nil
					break
				}
				r := scalarNode("")
				target.refs = append(target.refs, r)
				c.refOwner[r] = target
				k := scalarNode(v)
				k.Style = quoteStyle(v)
				mn.Content = append(mn.Content, k, r)
			}
			if mn != nil {
				dn.Content = append(dn.Content, scalarNode("mapping"), mn)
			}
		}
		add(u, "discriminator", dn)
	}
	if msg := c.trial(u); msg != "" {
		x.report(ptr, kw+" (a union of "+fmt.Sprint(len(keep))+" schemas) cannot be carried: the spec's union rules refuse it: "+msg)
		return nil
	}
	return u
}

// isUnion reports whether a converted schema is a union (or a named type
// that is one).
func (c *converter) isUnion(n *yaml.Node) bool {
	n = c.deref(n)
	return get(n, "oneOf") != nil || get(n, "anyOf") != nil
}

var trialLine = regexp.MustCompile(`, line [0-9]+\)`)

// kindOf is the JSON kind a converted schema accepts ("number" for
// integers too), or "" when it is not one kind (a union, a nullable named
// type).
func (c *converter) kindOf(n *yaml.Node) string {
	if r := get(n, "$ref"); r != nil {
		if len(n.Content) > 2 {
			return ""
		}
		nt := c.refOwner[r]
		if nt == nil || nt.node == nil {
			return ""
		}
		n = nt.node
		if get(n, "nullable") != nil || get(n, "$ref") != nil {
			return ""
		}
	}
	t := get(n, "type")
	if t == nil {
		return ""
	}
	if t.Value == "integer" {
		return "number"
	}
	return t.Value
}

// trial loads a spec holding only the union (and the named types it
// reaches) and returns the loader's first message, "" when it loads. A
// union whose alternatives are each of another JSON kind loads without the
// trial.
func (c *converter) trial(u *yaml.Node) string {
	alts := u.Content[1].Content
	if get(u, "discriminator") == nil {
		kinds := map[string]bool{}
		for _, a := range alts {
			k := c.kindOf(a)
			if k == "" || kinds[k] {
				kinds = nil
				break
			}
			kinds[k] = true
		}
		if kinds != nil {
			return ""
		}
	}
	// The named types the union reaches, with names of their own here.
	names := map[*named]string{}
	taken := map[string]bool{"Value": true}
	var order []*named
	var reach func(n *yaml.Node)
	reach = func(n *yaml.Node) {
		if nt := c.refOwner[n]; nt != nil {
			if _, seen := names[nt]; seen || nt.node == nil {
				return
			}
			name := strings.Trim(typeNameChars.ReplaceAllString(nt.base, "_"), "_")
			if name == "" || !(name[0] >= 'A' && name[0] <= 'Z' || name[0] >= 'a' && name[0] <= 'z') {
				name = "T" + name
			}
			name = shorten(name, spec.MaxNameLen-4)
			for i := 2; taken[spec.GoName(name)]; i++ {
				name = shorten(name, spec.MaxNameLen-4) + fmt.Sprint("_", i)
			}
			taken[spec.GoName(name)] = true
			names[nt] = name
			order = append(order, nt)
			reach(nt.node)
			return
		}
		for _, ch := range n.Content {
			reach(ch)
		}
	}
	reach(u)
	var cp func(n *yaml.Node) *yaml.Node
	cp = func(n *yaml.Node) *yaml.Node {
		if nt := c.refOwner[n]; nt != nil {
			return scalarNode("#/types/" + names[nt])
		}
		out := *n
		out.Content = make([]*yaml.Node, len(n.Content))
		for i, ch := range n.Content {
			out.Content[i] = cp(ch)
		}
		return &out
	}
	types := &yaml.Node{Kind: yaml.MappingNode}
	add(types, "Value", cp(u))
	for _, nt := range order {
		add(types, names[nt], cp(nt.node))
	}
	root := mapNode("toolgen", intNode(1), "provider", scalarNode("trial"), "types", types,
		"tools", &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{
			mapNode("name", scalarNode("trial"), "description", scalarNode("A trial of a union."),
				"params", mapNode("value", mapNode("$ref", scalarNode("#/types/Value"))))}})
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return err.Error()
	}
	enc.Close()
	_, err := spec.Parse("trial/trial.tools.yaml", buf.Bytes())
	if err == nil {
		return ""
	}
	var list spec.ErrorList
	msg := err.Error()
	if errors.As(err, &list) && len(list) > 0 {
		msg = list[0].Msg
	}
	// The trial's own names and lines mean nothing to the reader.
	msg = strings.ReplaceAll(msg, ` in schema of type "Value"`, "")
	return trialLine.ReplaceAllString(msg, ")")
}
