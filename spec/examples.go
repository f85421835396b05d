package spec

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Example is one example of a tool's arguments (`examples:`): an argument
// object the tool takes, shown to the model (Anthropic's input_examples),
// listed in the catalog and decoded by a generated test.
type Example struct {
	Pos Pos
	// Value is the argument object as written, of the Go types a default
	// holds: string, int64, float64, bool, nil, []any and map[string]any;
	// and json.Number for a number beyond int64 or float64, as written
	// (which only a free-form value takes).
	// The loader has checked it against the tool's Params as the generated
	// decoder checks the arguments a model sends (see checkExamples).
	Value map[string]any
}

// examples reads a tool's `examples:` list: each item a mapping of
// arguments. They are checked once the file is resolved (checkExamples).
func (p *parser) examples(v *yaml.Node, t *Tool, in string) {
	items, ok := p.sequenceKey(v, "examples", in)
	if !ok {
		return
	}
	if len(items) == 0 {
		p.errorf(v, "examples %s is empty; give at least one argument object, or leave examples out", in)
		return
	}
	var nodes []exampleNode
	for i, n := range items {
		d := p.expand(n)
		if d == nil {
			continue
		}
		if d.Kind != yaml.MappingNode {
			p.errorf(n, "example %d %s must be a mapping of the tool's arguments (an argument object); found %s", i+1, in, describe(d))
			continue
		}
		p.exact = true
		val, ok := p.value(n)
		p.exact = false
		if !ok {
			continue
		}
		obj, _ := val.(map[string]any)
		t.Examples = append(t.Examples, &Example{Pos: p.pos(d), Value: obj})
		nodes = append(nodes, exampleNode{d, i + 1})
	}
	p.later = append(p.later, func(p *parser) { p.checkExamples(t, nodes) })
}

// checkExamples checks each example of t against its argument object with
// the rules the generated decoder applies to the arguments a model sends
// (modeArgs: a trimmed string may be sent with white space around it),
// reporting a problem at the value it is about; an example that repeats
// another is reported too.
func (p *parser) checkExamples(t *Tool, nodes []exampleNode) {
	seen := map[string]exampleNode{}
	for i, ex := range t.Examples {
		n := nodes[i]
		if _, pr := check(t.Params, ex.Value, "", modeArgs); pr != nil {
			at := nodeAt(n.node, pr.at)
			if pr.key != "" {
				at = keyNode(at, pr.key)
			}
			p.errorf(at, "example %d of tool %q does not fit the tool's parameters: %s", n.num, t.Name, pr)
			continue
		}
		k := canonical(ex.Value)
		if first, dup := seen[k]; dup {
			p.errorf(n.node, "example %d of tool %q repeats example %d (line %d)", n.num, t.Name, first.num, first.node.Line)
			continue
		}
		seen[k] = n
	}
}

// exampleNode is where an example was written, and its number in the
// list (from 1).
type exampleNode struct {
	node *yaml.Node
	num  int
}

// keyNode is the key named name of mapping n, or n.
func keyNode(n *yaml.Node, name string) *yaml.Node {
	if d := deref(n); d != nil && d.Kind == yaml.MappingNode {
		for j := 0; j+1 < len(d.Content); j += 2 {
			if deref(d.Content[j]).Value == name {
				return d.Content[j]
			}
		}
	}
	return n
}

// nodeAt is the node inside n that path (as check writes it: "a.b[2].c")
// leads to, or the deepest node on the way that exists: where a problem
// with the value at path is reported.
func nodeAt(n *yaml.Node, path string) *yaml.Node {
	for path != "" {
		d := deref(n)
		if d == nil {
			return n
		}
		var next *yaml.Node
		if strings.HasPrefix(path, "[") {
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return n
			}
			i, err := strconv.Atoi(path[1:end])
			if err != nil || d.Kind != yaml.SequenceNode || i < 0 || i >= len(d.Content) {
				return n
			}
			next, path = d.Content[i], path[end+1:]
		} else {
			path = strings.TrimPrefix(path, ".")
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			name := path[:end]
			if d.Kind != yaml.MappingNode {
				return n
			}
			for j := 0; j+1 < len(d.Content); j += 2 {
				if deref(d.Content[j]).Value == name {
					next = d.Content[j+1]
					break
				}
			}
			if next == nil {
				return n
			}
			path = path[end:]
		}
		n = next
	}
	return n
}
