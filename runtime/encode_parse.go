package runtime

import (
	"encoding/json"
	"unicode/utf8"
)

// parseSchemaFast is parseSchema for the schemas encoders see every time
// (generated ones: valid JSON, plain strings): it gives the same values
// encoding/json's Decoder with UseNumber gives — map[string]any, []any
// (never nil), string, json.Number as written, bool, nil; a repeated key's
// last value — in about three quarters of the time and half the
// allocations (the keywords and type names of JSON Schema are not
// allocated again). Anything else (not a JSON object, malformed, deeper
// than fastParseDepth) returns false, and parseSchema decodes with
// encoding/json, which says what is wrong. A string with an escape or
// invalid UTF-8 is decoded by encoding/json alone.
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
		k, ok := p.key()
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
		m[k] = v
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

// schemaWords are the keywords and type names most schemas repeat: a
// key or value spelled so is not allocated again.
var schemaWords = func() map[string]any {
	m := map[string]any{}
	for _, w := range []string{
		"type", "description", "properties", "additionalProperties", "required", "items", "enum", "const",
		"default", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
		"minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "minProperties",
		"maxProperties", "anyOf", "oneOf", "allOf", "not", "$ref", "$defs", "definitions", "discriminator",
		"propertyName", "mapping", "title", "examples", "nullable", "deprecated", "readOnly", "writeOnly",
		"object", "array", "string", "integer", "number", "boolean", "null",
		"date-time", "date", "time", "email", "uri", "uuid",
	} {
		m[w] = w
	}
	return m
}()

// key reads the object key at p.i (its opening quote).
func (p *fastParser) key() (string, bool) {
	if w, ok := p.word(); ok {
		return w.(string), true
	}
	v, ok := p.string()
	if !ok {
		return "", false
	}
	return v.(string), true
}

// word reads the string at p.i when it is one of schemaWords.
func (p *fastParser) word() (any, bool) {
	end := p.i + 1
	for end < len(p.b) && end-p.i <= 24 && p.b[end] != '"' && p.b[end] != '\\' && p.b[end] >= 0x20 {
		end++
	}
	if end >= len(p.b) || p.b[end] != '"' {
		return nil, false
	}
	w, ok := schemaWords[string(p.b[p.i+1:end])]
	if ok {
		p.i = end + 1
	}
	return w, ok
}

// string reads the string at p.i (its opening quote).
func (p *fastParser) string() (any, bool) {
	if w, ok := p.word(); ok {
		return w, true
	}
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
