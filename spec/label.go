package spec

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// labelError is a template syntax error at a rune offset of the template.
type labelError struct {
	off int
	msg string
}

// compileLabel splits a label template into literal text and placeholders.
// Each part's Pos.Col holds its rune offset in s until the caller places it.
//
// Syntax: "{param}", "{param|fallback text}", "{{" and "}}" for literal
// braces.
func compileLabel(s string) ([]LabelPart, []labelError) {
	var parts []LabelPart
	var errs []labelError
	rs := []rune(s)
	var text strings.Builder
	textStart := 0
	flush := func(end int) {
		if text.Len() > 0 {
			parts = append(parts, LabelPart{Text: text.String(), Pos: Pos{Col: textStart}})
			text.Reset()
		}
		textStart = end
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '{' && i+1 < len(rs) && rs[i+1] == '{':
			if text.Len() == 0 {
				textStart = i
			}
			text.WriteRune('{')
			i++
		case r == '}' && i+1 < len(rs) && rs[i+1] == '}':
			if text.Len() == 0 {
				textStart = i
			}
			text.WriteRune('}')
			i++
		case r == '}':
			errs = append(errs, labelError{i, "unmatched } (write }} for a literal brace)"})
		case r == '{':
			end := -1
			for j := i + 1; j < len(rs); j++ {
				if rs[j] == '}' {
					end = j
					break
				}
				if rs[j] == '{' {
					break
				}
			}
			if end < 0 {
				errs = append(errs, labelError{i, "unclosed { (close the placeholder with }, or write {{ for a literal brace)"})
				// Keep scanning after the brace for further problems.
				continue
			}
			flush(i)
			body := string(rs[i+1 : end])
			part := LabelPart{Pos: Pos{Col: i}}
			part.Param, part.Fallback, part.HasFallback = strings.Cut(body, "|")
			if part.Param == "" {
				errs = append(errs, labelError{i, "empty placeholder: name a parameter, as in {email}"})
			} else {
				parts = append(parts, part)
			}
			i = end
			textStart = end + 1
		default:
			if text.Len() == 0 {
				textStart = i
			}
			text.WriteRune(r)
		}
	}
	flush(len(rs))
	return parts, errs
}

// label compiles the template s read from node n and queues the check of
// its placeholders against the tool's parameters.
func (p *parser) label(n *yaml.Node, s, which string, t *Tool) []LabelPart {
	parts, errs := compileLabel(s)
	for _, e := range errs {
		p.errorAt(p.labelPos(n, e.off), "%s template of tool %q: %s", which, t.Name, e.msg)
	}
	for i := range parts {
		parts[i].Pos = p.labelPos(n, parts[i].Pos.Col)
	}
	p.later = append(p.later, func(p *parser) {
		for _, part := range parts {
			if part.Param == "" {
				continue
			}
			prop := t.Params.Property(part.Param)
			if prop == nil {
				names := make([]string, len(t.Params.Properties))
				for i, pr := range t.Params.Properties {
					names[i] = pr.Name
				}
				hint := didYouMean(part.Param, names)
				switch {
				case len(names) == 0:
					hint = "; the tool has no parameters"
				case hint == "":
					hint = "; its parameters are " + strings.Join(names, ", ")
				}
				p.errorAt(part.Pos, "%s placeholder {%s} of tool %q names no parameter%s", which, part.Param, t.Name, hint)
				continue
			}
			if r, _ := follow(prop.Schema); r != nil && (r.Type == TypeObject || r.Type == TypeArray) {
				p.errorAt(part.Pos, "%s placeholder {%s} of tool %q names an %s parameter; only string, integer, number and boolean parameters can be shown in a label",
					which, part.Param, t.Name, r.Type)
			}
		}
	})
	if len(errs) > 0 {
		return nil
	}
	return parts
}

// labelPos is the position of the rune at offset off of the scalar node n:
// exact for single-line plain and quoted scalars (escapes included), the
// scalar's own position for block scalars and multi-line strings.
func (p *parser) labelPos(n *yaml.Node, off int) Pos {
	d := deref(n)
	pos := p.pos(d)
	if d.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || strings.Contains(d.Value, "\n") {
		return pos
	}
	quoted := d.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0
	if !quoted {
		pos.Col += off
		return pos
	}
	// Walk the source text of the quoted scalar, counting value runes.
	if d.Line-1 >= len(p.lines) {
		return pos
	}
	line := []rune(p.lines[d.Line-1])
	col := d.Column // 1-based column of the opening quote; line[col-1] is it
	i := col        // index of the first rune after the quote
	for k := 0; k < off && i < len(line); k++ {
		switch {
		case d.Style&yaml.DoubleQuotedStyle != 0 && line[i] == '\\' && i+1 < len(line):
			i += 2 + map[rune]int{'x': 2, 'u': 4, 'U': 8}[line[i+1]]
		case d.Style&yaml.SingleQuotedStyle != 0 && line[i] == '\'' && i+1 < len(line) && line[i+1] == '\'':
			i += 2
		default:
			i++
		}
	}
	pos.Col = i + 1
	return pos
}
