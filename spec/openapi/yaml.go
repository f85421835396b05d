package openapi

import (
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Small builders of the YAML nodes the importer writes.

func scalarNode(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// textNode is free text: a literal block when it has several lines.
func textNode(s string) *yaml.Node {
	n := scalarNode(s)
	if strings.Contains(s, "\n") {
		n.Style = yaml.LiteralStyle
	} else {
		n.Style = quoteStyle(s)
	}
	return n
}

// quoteStyle double-quotes a string that YAML would read as something
// else (a number, a boolean, null) or that starts or ends with space.
func quoteStyle(s string) yaml.Style {
	var v any
	if s == "" || strings.TrimSpace(s) != s || yaml.Unmarshal([]byte(s), &v) != nil {
		return yaml.DoubleQuotedStyle
	}
	if _, isStr := v.(string); !isStr {
		return yaml.DoubleQuotedStyle
	}
	return 0
}

func boolNode(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}

func intNode(i int64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(i, 10)}
}

func numNode(f float64) *yaml.Node {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return intNode(int64(f))
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(f, 'g', -1, 64)}
}

func mapNode(kv ...any) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		add(m, kv[i].(string), kv[i+1].(*yaml.Node))
	}
	return m
}

func add(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, scalarNode(key), v)
}

func get(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func deleteKey(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

func flowSeq(items []string) *yaml.Node {
	seq := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, s := range items {
		n := scalarNode(s)
		n.Style = quoteStyle(s)
		seq.Content = append(seq.Content, n)
	}
	return seq
}

// flow writes a small mapping of scalars on one line ({type: string,
// maxLength: 5000}).
func flow(m *yaml.Node) {
	if len(m.Content) > 12 {
		return
	}
	width := 0
	for i := 0; i+1 < len(m.Content); i += 2 {
		v := m.Content[i+1]
		if m.Content[i].Value == "description" {
			return
		}
		switch {
		case v.Kind == yaml.ScalarNode && !strings.Contains(v.Value, "\n"):
		case v.Kind == yaml.SequenceNode && v.Style == yaml.FlowStyle:
		case v.Kind == yaml.MappingNode && v.Style == yaml.FlowStyle:
		default:
			return
		}
		width += len(m.Content[i].Value) + len(v.Value) + 4
		for _, c := range v.Content {
			width += len(c.Value) + 2
		}
	}
	if width <= 80 {
		m.Style = yaml.FlowStyle
	}
}
