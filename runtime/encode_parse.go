package runtime

import (
	"encoding/json"
	"unicode/utf8"
)

// parseSchemaFast is parseSchema for the schemas encoders see every time
// (generated ones: valid JSON, plain strings): it gives the same values
// encoding/json's Decoder with UseNumber gives — map[string]any, []any
// (never nil), string, json.Number as written, bool, nil; a repeated key's
// last value — several times faster. Anything else (not a JSON object,
// malformed, deeper than fastParseDepth) returns false, and parseSchema
// decodes with encoding/json, which says what is wrong. A string with an
// escape or invalid UTF-8 is decoded by encoding/json alone.
func parseSchemaFast(raw []byte) (map[string]any, bool) {
	p := fastParser{b: raw}
	p.space()
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return nil, false
	}
	v, ok := p.value()
	if !ok {
		return nil, false
	}
	p.space()
	if p.i != len(p.b) {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}

// fastParseDepth bounds the nesting parseSchemaFast takes, well below
// encoding/json's own limit, so that the two never disagree on a value.
const fastParseDepth = 1000

type fastParser struct {
	b     []byte
	i     int
	depth int
}

func (p *fastParser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *fastParser) value() (any, bool) {
	p.space()
	if p.i >= len(p.b) {
		return nil, false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.string()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return p.number()
	}
	return nil, false
}

func (p *fastParser) literal(word string) bool {
	if len(p.b)-p.i < len(word) || string(p.b[p.i:p.i+len(word)]) != word {
		return false
	}
	p.i += len(word)
	return true
}

func (p *fastParser) object() (any, bool) {
	if p.depth++; p.depth > fastParseDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	p.i++ // '{'
	m := map[string]any{}
	p.space()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return m, true
	}
	for {
		p.space()
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return nil, false
		}
		k, ok := p.string()
		if !ok {
			return nil, false
		}
		p.space()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return nil, false
		}
		p.i++
		v, ok := p.value()
		if !ok {
			return nil, false
		}
		m[k.(string)] = v
		p.space()
		if p.i >= len(p.b) {
			return nil, false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return m, true
		default:
			return nil, false
		}
	}
}

func (p *fastParser) array() (any, bool) {
	if p.depth++; p.depth > fastParseDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	p.i++ // '['
	a := []any{}
	p.space()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return a, true
	}
	for {
		v, ok := p.value()
		if !ok {
			return nil, false
		}
		a = append(a, v)
		p.space()
		if p.i >= len(p.b) {
			return nil, false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return a, true
		default:
			return nil, false
		}
	}
}

// string reads the string at p.i (its opening quote).
func (p *fastParser) string() (any, bool) {
	start := p.i
	p.i++
	plain := true // no escape, valid UTF-8
	ascii := true
	for ; p.i < len(p.b); p.i++ {
		switch c := p.b[p.i]; {
		case c == '"':
			p.i++
			body := p.b[start+1 : p.i-1]
			if plain && (ascii || utf8.Valid(body)) {
				return string(body), true
			}
			var s string
			if json.Unmarshal(p.b[start:p.i], &s) != nil {
				return nil, false
			}
			return s, true
		case c == '\\':
			plain = false
			p.i++ // the escaped byte; encoding/json checks the escape
		case c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, false
}

// number reads a JSON number: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
func (p *fastParser) number() (any, bool) {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.b) && '0' <= p.b[p.i] && p.b[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.b[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.b) && p.b[p.i] == '0':
		p.i++
	case digits() == 0:
		return nil, false
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, false
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	return json.Number(p.b[start:p.i]), true
}
