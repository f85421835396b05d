package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"
)

// FuzzSchemaRewrites feeds arbitrary schemas (and arguments) to the schema
// rewrites, dropNullOptionals and EncodeTools. None may panic; a rewrite
// either fails or returns a schema its dialect takes: strict mode's
// keywords only, every object closed and requiring all its properties, and
// the same schema again when rewritten twice; Gemini's Schema fields only,
// upper-case types, string enums, no empty object. dropNullOptionals only
// ever removes members, and keeps valid JSON valid.
//
//	go test ./runtime -run '^$' -fuzz FuzzSchemaRewrites -fuzztime 30s
func FuzzSchemaRewrites(f *testing.F) {
	for _, s := range []string{createTicketSchema, listTicketsSchema, deleteTicketSchema, edgeSchema,
		nested(11), deepArrays(3),
		`{"properties":{"v":{"anyOf":[{"type":"string"},{"type":["integer","null"]}]}},"type":"object"}`,
		`{"properties":{"m":{"additionalProperties":{"enum":[1,null],"type":["integer","null"]},"type":"object"}},"type":"object"}`,
		`{"properties":{"a":{"type":"string"}},"required":["a","b","a"],"type":"object"}`,
		`{"properties":{"e":{"enum":["x",1,null],"format":"enum","type":["string","null"]}},"type":"object"}`,
	} {
		f.Add(s, `{"title":null,"subtasks":[{"done":null}],"m":{"k":null},"a":null}`)
	}
	f.Fuzz(func(t *testing.T, schema, args string) {
		raw := json.RawMessage(schema)
		if strict, err := OpenAIStrictSchema(raw); err == nil {
			checkRewritten(t, "strict", strict, checkStrictNode)
			again, err := OpenAIStrictSchema(strict)
			if err != nil || !bytes.Equal(again, strict) {
				t.Errorf("strict rewrite is not idempotent: %s\n%s, %v", strict, again, err)
			}
		}
		if gem, err := GeminiSchema(raw); err == nil && gem != nil {
			checkRewritten(t, "gemini", gem, checkGeminiNode)
		}

		out := dropNullOptionals(raw, json.RawMessage(args))
		if len(out) > len(args) || json.Valid([]byte(args)) && !json.Valid(out) {
			t.Errorf("dropNullOptionals(%s, %s) = %s", schema, args, out)
		}

		tool := &Tool{Name: "t", Schema: raw}
		for _, d := range []Dialect{DialectOpenAIChat, DialectOpenAI, DialectAnthropic, DialectGemini, DialectMCP} {
			for _, opts := range []EncodeOptions{{}, {Strict: true}, {GeminiJSONSchema: true}} {
				if enc, err := EncodeTools(d, []*Tool{tool}, nil, opts); err == nil && !json.Valid(enc) {
					t.Errorf("%s %+v: invalid JSON %s", d, opts, enc)
				}
			}
		}
	})
}

// checkRewritten decodes a rewritten schema and calls check on every
// subschema in it.
func checkRewritten(t *testing.T, dialect string, raw []byte, check func(s map[string]any) error) {
	t.Helper()
	root, err := parseSchema(raw)
	if err != nil {
		t.Fatalf("%s: %v: %s", dialect, err, raw)
	}
	var walk func(s map[string]any, path string)
	walk = func(s map[string]any, path string) {
		if err := check(s); err != nil {
			t.Errorf("%s: at %s: %v\n%s", dialect, path, err, raw)
		}
		props, _ := s["properties"].(map[string]any)
		for _, name := range sortedKeys(props) {
			walk(props[name].(map[string]any), path+"."+name)
		}
		if items, ok := s["items"].(map[string]any); ok {
			walk(items, path+"[]")
		}
		alts, _ := s["anyOf"].([]any)
		for _, a := range alts {
			walk(a.(map[string]any), path+".anyOf")
		}
	}
	walk(root, "$")
}

func checkStrictNode(s map[string]any) error {
	for k := range s {
		switch k {
		case "type", "description", "enum", "format", "pattern", "minimum", "maximum", "exclusiveMinimum",
			"exclusiveMaximum", "multipleOf", "minItems", "maxItems", "items", "anyOf", "properties",
			"required", "additionalProperties":
		default:
			return errors.New("keyword " + k)
		}
	}
	if f, ok := s["format"]; ok && !strictFormat(f) {
		return errors.New("format " + literal(f))
	}
	props, isObject := s["properties"].(map[string]any)
	if !isObject {
		return nil
	}
	if s["additionalProperties"] != false {
		return errors.New("an object not closed")
	}
	required, _ := s["required"].([]any)
	names := make([]string, 0, len(required))
	for _, r := range required {
		names = append(names, r.(string))
	}
	slices.Sort(names)
	if !slices.Equal(names, sortedKeys(props)) {
		return errors.New("required " + literal(required) + " is not every property once")
	}
	return nil
}

func checkGeminiNode(s map[string]any) error {
	for k := range s {
		switch k {
		case "type", "format", "title", "description", "nullable", "enum", "items", "minItems", "maxItems",
			"properties", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern",
			"minimum", "maximum", "anyOf":
		default:
			return errors.New("field " + k)
		}
	}
	switch typ := s["type"]; typ {
	case nil, "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY":
	case "OBJECT":
		if props, _ := s["properties"].(map[string]any); len(props) == 0 {
			return errors.New("an object without properties")
		}
	default:
		return errors.New("type " + literal(typ))
	}
	if enum, ok := s["enum"].([]any); ok {
		if s["type"] != "STRING" || s["format"] != "enum" ||
			slices.ContainsFunc(enum, func(v any) bool { _, ok := v.(string); return !ok }) {
			return errors.New("enum " + literal(enum))
		}
	}
	return nil
}
