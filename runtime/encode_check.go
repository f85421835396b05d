package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// Cheap answers for a generate-time check (toolgen's, of every tool of a
// spec in every dialect it targets), so that it encodes only the tools
// whose answer depends on more than their bytes.

// CheckToolName returns the error EncodeTools gives (without its prefix
// naming the dialect and tool) for a function tool named name in dialect
// d, or nil when d takes the name: OpenAI's and Anthropic's
// ^[a-zA-Z0-9_-]{1,64}$, Gemini's rule (see EncodeTools), any non-empty
// name on MCP.
func CheckToolName(d Dialect, name string) error {
	switch d {
	case DialectOpenAI, DialectOpenAIChat, DialectAnthropic, DialectGemini, DialectMCP:
	default:
		return fmt.Errorf("unknown dialect %q", d)
	}
	e := encoder{d: d}
	return e.checkName(name)
}

// PlainSchema reports, by reading schema's bytes once without decoding
// them into values, whether it is a tool argument schema that EncodeTools
// takes in every dialect's plain mode (EncodeOptions{}) with no error: a
// JSON object of "type":"object" with no $ref and no union (anyOf, oneOf,
// allOf, a type array of two non-null types), whose subschemas (under
// properties, items and additionalProperties) are objects with a "type"
// of JSON Schema's names, an "enum" that is an array and a "required"
// that is an array of strings. Generated schemas without unions and
// recursive types are such schemas.
//
// When it returns true, EncodeTools with EncodeOptions{} returns no error
// for a tool with that Schema, any Description and a name the dialect
// takes (CheckToolName), whatever the dialect; false says nothing: encode
// the tool to know. It allocates nothing.
func PlainSchema(schema json.RawMessage) bool {
	if !utf8.Valid(schema) || bytes.Contains(schema, []byte(`"$ref"`)) {
		return false
	}
	s := plainScan{b: schema}
	s.space()
	typ, ok := s.schema()
	if !ok {
		return false
	}
	s.space()
	return s.i == len(s.b) && string(typ) == "object"
}

// plainMaxDepth bounds the nesting PlainSchema reads (of subschemas and of
// values alike): deeper is not plain.
const plainMaxDepth = 48

// plainScan is one run of PlainSchema over b.
type plainScan struct {
	b     []byte
	i     int
	depth int
}

func (s *plainScan) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek is the byte at s.i after white space, 0 at the end.
func (s *plainScan) peek() byte {
	s.space()
	if s.i >= len(s.b) {
		return 0
	}
	return s.b[s.i]
}

// schema reads a subschema at s.i; typ is its "type" when that is one
// string (the last one given), nil otherwise.
func (s *plainScan) schema() (typ []byte, ok bool) {
	if s.depth++; s.depth > plainMaxDepth || s.peek() != '{' {
		return nil, false
	}
	defer func() { s.depth-- }()
	s.i++ // '{'
	if s.peek() == '}' {
		s.i++
		return nil, true
	}
	for {
		key, escaped, ok := s.key()
		if !ok || escaped { // a keyword spelled with escapes is not plain
			return nil, false
		}
		switch string(key) {
		case "type":
			typ, ok = s.types()
		case "enum":
			ok = s.peek() == '[' && s.value()
		case "required":
			ok = s.strings()
		case "properties":
			ok = s.properties()
		case "items":
			_, ok = s.schema()
		case "additionalProperties":
			if c := s.peek(); c == 't' || c == 'f' {
				ok = s.value()
			} else {
				_, ok = s.schema()
			}
		case "$ref", "$defs", "definitions", "anyOf", "oneOf", "allOf", "not", "discriminator",
			"if", "then", "else", "prefixItems", "contains", "additionalItems", "patternProperties",
			"dependentSchemas", "propertyNames", "unevaluatedItems", "unevaluatedProperties":
			return nil, false // references and unions, or subschemas the encoders do not follow
		default:
			ok = s.value()
		}
		if !ok {
			return nil, false
		}
		if more, ok := s.next('}'); !ok {
			return nil, false
		} else if !more {
			return typ, true
		}
	}
}

// types reads the value of "type": one of JSON Schema's type names, or
// an array of them with exactly one that is not "null"; typ is the name
// when it is one string.
func (s *plainScan) types() (typ []byte, ok bool) {
	if s.peek() == '"' {
		name, ok := s.word()
		if !ok || !typeName(name) {
			return nil, false
		}
		return name, true
	}
	if s.peek() != '[' {
		return nil, false
	}
	s.i++
	nonNull := 0
	for {
		name, ok := s.word()
		if !ok || !typeName(name) {
			return nil, false
		}
		if string(name) != "null" {
			nonNull++
		}
		if more, ok := s.next(']'); !ok {
			return nil, false
		} else if !more {
			return nil, nonNull == 1
		}
	}
}

func typeName(name []byte) bool {
	switch string(name) {
	case "string", "number", "integer", "boolean", "array", "object", "null":
		return true
	}
	return false
}

// strings reads an array of strings.
func (s *plainScan) strings() bool {
	if s.peek() != '[' {
		return false
	}
	s.i++
	if s.peek() == ']' {
		s.i++
		return true
	}
	for {
		if s.peek() != '"' {
			return false
		}
		if _, ok := s.str(); !ok {
			return false
		}
		if more, ok := s.next(']'); !ok {
			return false
		} else if !more {
			return true
		}
	}
}

// properties reads an object of subschemas.
func (s *plainScan) properties() bool {
	if s.peek() != '{' {
		return false
	}
	s.i++
	if s.peek() == '}' {
		s.i++
		return true
	}
	for {
		if _, _, ok := s.key(); !ok {
			return false
		}
		if _, ok := s.schema(); !ok {
			return false
		}
		if more, ok := s.next('}'); !ok {
			return false
		} else if !more {
			return true
		}
	}
}

// key reads an object's key and the colon after it, returning the key's
// body and whether it has an escape.
func (s *plainScan) key() (key []byte, escaped, ok bool) {
	if s.peek() != '"' {
		return nil, false, false
	}
	start := s.i
	if escaped, ok = s.str(); !ok {
		return nil, false, false
	}
	key = s.b[start+1 : s.i-1]
	if s.peek() != ':' {
		return nil, false, false
	}
	s.i++
	return key, escaped, true
}

// next reads what follows an element of an object or array: a comma
// (more) or the closing byte.
func (s *plainScan) next(closing byte) (more, ok bool) {
	switch s.peek() {
	case ',':
		s.i++
		return true, true
	case closing:
		s.i++
		return false, true
	}
	return false, false
}

// value reads any JSON value at s.i.
func (s *plainScan) value() bool {
	if s.depth++; s.depth > plainMaxDepth {
		return false
	}
	defer func() { s.depth-- }()
	switch c := s.peek(); {
	case c == '{', c == '[':
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		s.i++
		if s.peek() == closing {
			s.i++
			return true
		}
		for {
			if c == '{' {
				if _, _, ok := s.key(); !ok {
					return false
				}
			}
			if !s.value() {
				return false
			}
			if more, ok := s.next(closing); !ok {
				return false
			} else if !more {
				return true
			}
		}
	case c == '"':
		_, ok := s.str()
		return ok
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	}
	return false
}

func (s *plainScan) literal(word string) bool {
	if !bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		return false
	}
	s.i += len(word)
	return true
}

// word reads a string without escapes at s.i and returns its body.
func (s *plainScan) word() ([]byte, bool) {
	if s.peek() != '"' {
		return nil, false
	}
	start := s.i
	escaped, ok := s.str()
	if !ok || escaped {
		return nil, false
	}
	return s.b[start+1 : s.i-1], true
}

// str reads the string at s.i (its opening quote), saying whether it has
// an escape. The escapes are JSON's.
func (s *plainScan) str() (escaped, ok bool) {
	s.i++ // '"'
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return escaped, true
		case c < 0x20:
			return false, false
		case c == '\\':
			escaped = true
			if s.i+1 >= len(s.b) {
				return false, false
			}
			switch s.b[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				if s.i+6 > len(s.b) {
					return false, false
				}
				for _, h := range s.b[s.i+2 : s.i+6] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return false, false
					}
				}
				s.i += 6
			default:
				return false, false
			}
		default:
			s.i++
		}
	}
	return false, false
}

// number reads a JSON number: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
func (s *plainScan) number() bool {
	digits := func() int {
		n := 0
		for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	if s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case digits() == 0:
		return false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if digits() == 0 {
			return false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}

// A ToolSchema is a tool's argument schema decoded once, to be asked what
// each dialect and mode sends of it (Sent) without encoding the tool in
// each: for a check of many tools in every dialect (toolgen's, when it
// generates a module). Each rewrite is done once, the first time a
// dialect and mode ask for it. A ToolSchema is not safe for concurrent
// use.
type ToolSchema struct {
	root map[string]any
	info refInfo
	err  error // why EncodeTools refuses the schema in every dialect
	// sent holds each rewrite once computed, by sentKey.
	sent [sentKeys]struct {
		done bool
		a    argSchema
		err  error
	}
}

// sentKey numbers the distinct rewrites a ToolSchema can be asked for:
// OpenAI's two dialects rewrite alike, and of the options only Strict
// (OpenAI, Anthropic) and GeminiJSONSchema (Gemini) change the schema.
func sentKey(d Dialect, opts EncodeOptions) int {
	switch d {
	case DialectOpenAI, DialectOpenAIChat:
		return boolInt(opts.Strict)
	case DialectAnthropic:
		return 2 + boolInt(opts.Strict)
	case DialectGemini:
		return 4 + boolInt(opts.GeminiJSONSchema)
	}
	return 6
}

const sentKeys = 7

// ReadToolSchema decodes schema as EncodeTools does (an empty one is an
// object without properties) and checks its references.
func ReadToolSchema(schema json.RawMessage) *ToolSchema {
	raw := []byte(schema)
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte(emptyObjectSchema)
	}
	s := &ToolSchema{}
	if s.root, s.err = parseSchema(raw); s.err == nil && bytes.Contains(raw, []byte(`"$ref"`)) {
		s.info, s.err = analyzeRefs(s.root)
	}
	return s
}

// Root is the schema as written, decoded (numbers as json.Number), or nil
// when it is not a JSON object. It is shared with every Sent: read it, do
// not change it.
func (s *ToolSchema) Root() map[string]any { return s.root }

// A SentSchema is what one dialect and mode send of a tool's argument
// schema, in a request that carries that tool alone.
type SentSchema struct {
	// Schema is the argument schema sent, decoded: the dialect's rewrite,
	// or the schema as written (its root flattened for the dialects that
	// take only an object there); nil when none is sent (a Gemini
	// function without parameters). It shares values with Root and with
	// the other SentSchemas of its ToolSchema: read it, do not change it.
	Schema map[string]any
	// Rewritten: Schema is the dialect's rewrite, not the schema as
	// written.
	Rewritten bool
	// Strict: the tool is sent with "strict": true.
	Strict bool
	// NotStrict is, in a strict mode, why strict mode cannot carry the
	// schema: the rewrite's error (wrapping ErrUnsupportedSchema), as
	// OpenAIStrictSchema or AnthropicStrictSchema returns it. An Anthropic
	// schema that strict mode carries but that alone spends more than a
	// request's strict budget has neither Strict nor NotStrict.
	NotStrict error
	// canStrict and cost: Anthropic strict mode carries the schema, and
	// what it spends of a request's budget.
	canStrict bool
	cost      strictCost
}

// Sent returns what EncodeTools(d, []*Tool{{Name: name, Schema: schema}},
// nil, opts) sends of the schema, and EncodeTools' error for it exactly
// (nil when it takes the tool). Of the options, only Strict and
// GeminiJSONSchema change the argument schema sent.
func (s *ToolSchema) Sent(d Dialect, name string, opts EncodeOptions) (SentSchema, error) {
	switch d {
	case DialectOpenAI, DialectOpenAIChat, DialectAnthropic, DialectGemini, DialectMCP:
	default:
		return SentSchema{}, fmt.Errorf("runtime: encoding tools: unknown dialect %q", d)
	}
	e := encoder{d: d, opts: opts}
	a, err := s.argSchema(&e, name)
	if err != nil {
		return SentSchema{}, toolError(d, name, err)
	}
	out := SentSchema{Schema: a.schema, NotStrict: a.notStrict}
	switch {
	case a.none:
		out.Schema = nil
	case a.out != nil && !a.strict: // Gemini's rewrites
		out.Schema, out.Rewritten = a.out, true
	case a.strict && d == DialectAnthropic:
		out.canStrict, out.cost = true, a.cost
		w := catalogWriter{d: d}
		if w.strictOverflow(&encodedTool{optional: a.cost.optional, unions: a.cost.unions}) == "" {
			out.Schema, out.Rewritten, out.Strict = a.out, true, true
		}
	case a.strict:
		out.Schema, out.Rewritten, out.Strict = a.out, true, true
	}
	return out, nil
}

// argSchema is toolItem's work on the schema, in the same order (the
// schema's bytes, being decoded, compact without error; a tool of a name
// alone has no examples), each rewrite done once.
func (s *ToolSchema) argSchema(e *encoder, name string) (argSchema, error) {
	if err := e.checkName(name); err != nil {
		return argSchema{}, err
	}
	if s.err != nil {
		return argSchema{}, s.err
	}
	c := &s.sent[sentKey(e.d, e.opts)]
	if !c.done {
		c.done = true
		if c.a, c.err = e.rootSchema(s.root, s.info); c.err == nil {
			c.err = e.rewrite(&c.a, s.info)
		}
	}
	return c.a, c.err
}

// CheckLimitsSent is CheckLimits with what each tool sends in d and opts
// given (sent[i] from Sent, for tools[i] and the same d and opts), so that
// no tool is encoded again.
func CheckLimitsSent(d Dialect, tools []*Tool, opts EncodeOptions, sent []SentSchema) ([]LimitIssue, error) {
	if len(sent) != len(tools) {
		return nil, fmt.Errorf("runtime: checking tools: %d tools, %d sent schemas", len(tools), len(sent))
	}
	return checkLimits(d, tools, opts, func(i int) encodedTool {
		t := &encodedTool{deferred: tools[i].DeferLoading, search: tools[i].search != nil}
		if sent[i].canStrict {
			t.alt = []byte{} // it can be strict (the bytes are not written)
			t.optional, t.unions = sent[i].cost.optional, sent[i].cost.unions
		}
		return *t
	})
}
