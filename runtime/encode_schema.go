package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// This file holds the schema rewrites the dialect encoders need: OpenAI's
// strict mode (OpenAIStrictSchema), Gemini's OpenAPI 3.0 subset
// (GeminiSchema), and the argument clean-up that goes with strict mode
// (DropNullOptionals).
//
// A rewrite only changes what the model is shown. The tool's own Decode
// still validates every call against the full schema, so a keyword that a
// dialect cannot carry loses the model some guidance, never the host any
// safety. Where a dropped keyword carried a constraint, its sense is
// appended to the description ("Must be greater than 0.") so the model
// still reads it.

// ErrUnsupportedSchema is returned (wrapped, with the JSON path) when a
// schema uses something a dialect cannot express. The encoders then fall
// back to a form that carries the schema unchanged: strict:false for OpenAI,
// parametersJsonSchema for Gemini.
var ErrUnsupportedSchema = errors.New("schema not expressible in this dialect")

func unsupported(path, format string, args ...any) error {
	return fmt.Errorf("%w: at %s: %s", ErrUnsupportedSchema, path, fmt.Sprintf(format, args...))
}

func malformed(path, format string, args ...any) error {
	return fmt.Errorf("invalid schema at %s: %s", path, fmt.Sprintf(format, args...))
}

// parseSchema decodes a JSON Schema object, keeping numbers as written.
func parseSchema(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("invalid schema: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid schema: data after the top-level value")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("invalid schema: not a JSON object")
	}
	return m, nil
}

// marshalCompact writes v as compact JSON (object keys sorted, as
// encoding/json writes maps) without HTML escaping.
func marshalCompact(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// literal is v as JSON text, for a note in a description.
func literal(v any) string {
	b, err := marshalCompact(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// characters is "1 character" or "n characters".
func characters(n any) string {
	if l := literal(n); l != "1" {
		return l + " characters"
	}
	return "1 character"
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// schemaTypes returns the type names of s ("type" is a string or an array of
// strings). present is false when s has no "type".
func schemaTypes(s map[string]any, path string) (types []string, present bool, err error) {
	switch t := s["type"].(type) {
	case nil:
		if _, ok := s["type"]; ok {
			return nil, true, malformed(path, `"type" is null`)
		}
		return nil, false, nil
	case string:
		return []string{t}, true, nil
	case []any:
		for _, e := range t {
			name, ok := e.(string)
			if !ok {
				return nil, true, malformed(path, `"type" must be a string or an array of strings`)
			}
			types = append(types, name)
		}
		return types, true, nil
	}
	return nil, true, malformed(path, `"type" must be a string or an array of strings`)
}

// isObjectSchema reports whether s is the schema of an object (type
// "object", non-nullable), as every dialect requires at the top level.
func isObjectSchema(s map[string]any) bool {
	t, ok := s["type"].(string)
	return ok && t == "object"
}

// hasProperties reports whether object schema s declares any property.
func hasProperties(s map[string]any) bool {
	p, _ := s["properties"].(map[string]any)
	return len(p) > 0
}

// noParameters reports whether object schema s takes no property at all:
// none declared, and no others allowed.
func noParameters(s map[string]any) bool {
	ap, ok := s["additionalProperties"]
	return !hasProperties(s) && (!ok || ap == false)
}

func requiredSet(s map[string]any, path string) ([]string, map[string]bool, error) {
	raw, ok := s["required"]
	if !ok {
		return nil, map[string]bool{}, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, nil, malformed(path, `"required" must be an array of strings`)
	}
	names := make([]string, 0, len(list))
	set := make(map[string]bool, len(list))
	for _, e := range list {
		n, ok := e.(string)
		if !ok {
			return nil, nil, malformed(path, `"required" must be an array of strings`)
		}
		names = append(names, n)
		set[n] = true
	}
	return names, set, nil
}

func propertiesOf(s map[string]any, path string) (map[string]any, error) {
	raw, ok := s["properties"]
	if !ok {
		return nil, nil
	}
	props, ok := raw.(map[string]any)
	if !ok {
		return nil, malformed(path, `"properties" must be an object`)
	}
	return props, nil
}

func subschema(v any, path string) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, malformed(path, "a schema must be an object")
	}
	return m, nil
}

// notes collects what a rewrite dropped, by keyword, and writes it after
// the description in a fixed order.
type notes map[string]string

func (n notes) describe(out map[string]any, in map[string]any) {
	if len(n) == 0 {
		return
	}
	var parts []string
	if d, ok := in["description"].(string); ok && d != "" {
		parts = append(parts, d)
	}
	for _, k := range [...]string{"enum", "format", "minLength", "maxLength", "exclusiveMinimum",
		"exclusiveMaximum", "multipleOf", "uniqueItems", "additionalProperties", "default"} {
		if s, ok := n[k]; ok {
			parts = append(parts, s)
		}
	}
	out["description"] = strings.Join(parts, " ")
}

func (n notes) add(keyword string, v any) {
	switch keyword {
	case "enum":
		vals := v.([]any)
		lits := make([]string, 0, len(vals))
		for _, e := range vals {
			if e != nil {
				lits = append(lits, literal(e))
			}
		}
		n[keyword] = "One of: " + strings.Join(lits, ", ") + "."
	case "format":
		n[keyword] = "Format: " + fmt.Sprint(v) + "."
	case "minLength":
		n[keyword] = "At least " + characters(v) + "."
	case "maxLength":
		n[keyword] = "At most " + characters(v) + "."
	case "exclusiveMinimum":
		n[keyword] = "Must be greater than " + literal(v) + "."
	case "exclusiveMaximum":
		n[keyword] = "Must be less than " + literal(v) + "."
	case "multipleOf":
		n[keyword] = "Must be a multiple of " + literal(v) + "."
	case "uniqueItems":
		if v == true {
			n[keyword] = "Items must be unique."
		}
	case "additionalProperties":
		n[keyword] = "Keys other than those listed are allowed."
	case "default":
		n[keyword] = "Default: " + literal(v) + "."
	}
}

// OpenAI strict mode
//
// https://platform.openai.com/docs/guides/function-calling#strict-mode and
// https://platform.openai.com/docs/guides/structured-outputs#supported-schemas:
// every object lists all its properties in "required" and has
// "additionalProperties": false; an optional property is emulated by a
// union with null; the root is an object, not anyOf; supported keywords
// are type, properties, required, additionalProperties, items, enum,
// anyOf, description, string pattern and format (date-time, time, date,
// duration, email, hostname, ipv4, ipv6, uuid), number minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, multipleOf, and array minItems,
// maxItems; at most 10 levels of nested objects, 5000 properties and 1000
// enum values in all. "default" is rejected ("'default' is not permitted").

const (
	strictMaxDepth      = 10
	strictMaxProperties = 5000
	strictMaxEnumValues = 1000
)

func strictFormat(f any) bool {
	switch f {
	case "date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid":
		return true
	}
	return false
}

// OpenAIStrictSchema rewrites a tool's argument schema for OpenAI's strict
// function calling: each optional property becomes required and nullable
// (its enum gains null), every object gets "additionalProperties": false,
// and the keywords strict mode does not accept (default, minLength,
// maxLength, uniqueItems, formats outside its list) move into the
// description; title is dropped.
//
// It returns an error wrapping ErrUnsupportedSchema when strict mode cannot
// carry the schema: an object that allows other keys (additionalProperties
// true or a schema, as for a map), a keyword outside the supported list
// (const, allOf, $ref, …), a root that is not an object, or more than 10
// nested objects, 5000 properties or 1000 enum values.
//
// The model then sends null for an optional property it would have left
// out. Generated decoders reject a null for an optional property that is
// not nullable, so a host using strict mode passes arguments through
// DropNullOptionals (or Registry.DropNullOptionals) first. A property that
// was optional and nullable reads a null as null, not as absent.
func OpenAIStrictSchema(schema json.RawMessage) (json.RawMessage, error) {
	root, err := parseSchema(schema)
	if err != nil {
		return nil, err
	}
	out, err := strictRoot(root)
	if err != nil {
		return nil, err
	}
	return marshalCompact(out)
}

func strictRoot(root map[string]any) (map[string]any, error) {
	if !isObjectSchema(root) {
		return nil, unsupported("$", `the top level must be {"type":"object"}`)
	}
	var st strictState
	out, err := st.node(root, "$", 0)
	if err != nil {
		return nil, err
	}
	switch {
	case st.props > strictMaxProperties:
		return nil, unsupported("$", "%d properties, more than %d", st.props, strictMaxProperties)
	case st.enums > strictMaxEnumValues:
		return nil, unsupported("$", "%d enum values, more than %d", st.enums, strictMaxEnumValues)
	}
	return out, nil
}

type strictState struct{ props, enums int }

// node rewrites schema s at path; depth is the number of objects around it.
func (st *strictState) node(s map[string]any, path string, depth int) (map[string]any, error) {
	types, hasType, err := schemaTypes(s, path)
	if err != nil {
		return nil, err
	}
	_, hasAnyOf := s["anyOf"]
	if !hasType && !hasAnyOf {
		return nil, unsupported(path, "a schema without a type")
	}
	isObject := slices.Contains(types, "object")
	if isObject {
		depth++
		if depth > strictMaxDepth {
			return nil, unsupported(path, "objects nested more than %d deep", strictMaxDepth)
		}
	}
	out := make(map[string]any, len(s)+2)
	n := notes{}
	for _, k := range sortedKeys(s) {
		v := s[k]
		switch k {
		case "type", "description", "pattern", "minimum", "maximum", "exclusiveMinimum",
			"exclusiveMaximum", "multipleOf", "minItems", "maxItems":
			out[k] = v
		case "enum":
			vals, ok := v.([]any)
			if !ok {
				return nil, malformed(path, `"enum" must be an array`)
			}
			st.enums += len(vals)
			out[k] = v
		case "title", "$schema":
			// Annotations strict mode does not need.
		case "format":
			if strictFormat(v) {
				out[k] = v
			} else {
				n.add(k, v)
			}
		case "default", "minLength", "maxLength", "uniqueItems":
			n.add(k, v)
		case "items":
			sub, err := subschema(v, path+"[]")
			if err != nil {
				return nil, err
			}
			if out[k], err = st.node(sub, path+"[]", depth); err != nil {
				return nil, err
			}
		case "anyOf":
			list, ok := v.([]any)
			if !ok {
				return nil, malformed(path, `"anyOf" must be an array`)
			}
			alts := make([]any, len(list))
			for i, e := range list {
				p := fmt.Sprintf("%s.anyOf[%d]", path, i)
				sub, err := subschema(e, p)
				if err != nil {
					return nil, err
				}
				if alts[i], err = st.node(sub, p, depth); err != nil {
					return nil, err
				}
			}
			out[k] = alts
		case "properties", "required", "additionalProperties":
			if !isObject {
				return nil, unsupported(path, "%q on a schema that is not an object", k)
			}
		default:
			return nil, unsupported(path, "keyword %q", k)
		}
	}
	if isObject {
		if err := st.object(s, out, path, depth); err != nil {
			return nil, err
		}
	}
	n.describe(out, s)
	return out, nil
}

func (st *strictState) object(s, out map[string]any, path string, depth int) error {
	if ap, ok := s["additionalProperties"]; ok && ap != false {
		return unsupported(path, "an object that allows other keys (additionalProperties)")
	}
	props, err := propertiesOf(s, path)
	if err != nil {
		return err
	}
	reqNames, req, err := requiredSet(s, path)
	if err != nil {
		return err
	}
	newProps := make(map[string]any, len(props))
	required := make([]any, 0, len(props))
	for _, name := range reqNames {
		required = append(required, name)
	}
	for _, name := range sortedKeys(props) {
		st.props++
		p := path + "." + name
		ps, err := subschema(props[name], p)
		if err != nil {
			return err
		}
		sub, err := st.node(ps, p, depth)
		if err != nil {
			return err
		}
		if !req[name] {
			if err := makeNullable(sub, p); err != nil {
				return err
			}
			required = append(required, name)
		}
		newProps[name] = sub
	}
	out["properties"] = newProps
	out["required"] = required
	out["additionalProperties"] = false
	return nil
}

// makeNullable lets schema s (already rewritten) accept null.
func makeNullable(s map[string]any, path string) error {
	types, hasType, err := schemaTypes(s, path)
	if err != nil {
		return err
	}
	switch {
	case hasType:
		if slices.Contains(types, "null") {
			return nil
		}
		list := make([]any, 0, len(types)+1)
		for _, t := range types {
			list = append(list, t)
		}
		s["type"] = append(list, "null")
		if enum, ok := s["enum"].([]any); ok && !slices.Contains(enum, nil) {
			s["enum"] = append(slices.Clip(enum), nil)
		}
	default:
		alts, _ := s["anyOf"].([]any)
		for _, a := range alts {
			if m, ok := a.(map[string]any); ok && m["type"] == "null" {
				return nil
			}
		}
		s["anyOf"] = append(slices.Clip(alts), map[string]any{"type": "null"})
	}
	return nil
}

// Gemini
//
// Gemini's FunctionDeclaration.parameters is a Schema, "a select subset of
// an OpenAPI 3.0 schema object" (https://ai.google.dev/api/caching#Schema;
// google.ai.generativelanguage.v1beta Schema): type (STRING, NUMBER,
// INTEGER, BOOLEAN, ARRAY, OBJECT), format, title, description, nullable,
// enum (strings only, "with enum format"), items, minItems, maxItems,
// properties, required, minProperties, maxProperties, minLength,
// maxLength, pattern, minimum, maximum, anyOf, propertyOrdering, default
// (accepted and ignored), example. The REST API rejects any other field
// ("Invalid JSON payload received. Unknown name"), and an OBJECT whose
// properties are empty ("properties: should be non-empty for OBJECT type").
// Supported formats: float, double for NUMBER; int32, int64 for INTEGER;
// enum, date-time for STRING.

// GeminiSchema rewrites a tool's argument schema into Gemini's OpenAPI 3.0
// subset:
//
//   - a type ["T","null"] becomes type T with "nullable": true, and type
//     names are upper-cased ("STRING");
//   - a string enum keeps its values (null left out: nullable says it) and
//     gets "format": "enum"; an enum of numbers or booleans, which Gemini
//     cannot carry, is dropped and listed in the description;
//   - additionalProperties (false on every generated object: Gemini objects
//     are closed anyway), exclusiveMinimum, exclusiveMaximum, multipleOf,
//     uniqueItems, default and formats outside Gemini's list are dropped;
//     those that constrain the value are described instead
//     ("Must be greater than 0.", "Default: 10.");
//   - title, description, minLength, maxLength, pattern, minimum, maximum,
//     minItems, maxItems, minProperties, maxProperties and anyOf are kept.
//
// A root object with no properties (a tool without parameters) gives a nil
// schema: Gemini wants parameters left out then. It returns an error
// wrapping ErrUnsupportedSchema for what the subset cannot express: a
// nested object without properties (a map, or an empty object), an array
// without items, a union of several non-null types, or any other keyword
// (const, allOf, $ref, …). EncodeTools then sends that tool's schema
// unchanged as parametersJsonSchema.
func GeminiSchema(schema json.RawMessage) (json.RawMessage, error) {
	root, err := parseSchema(schema)
	if err != nil {
		return nil, err
	}
	out, err := geminiRoot(root)
	if err != nil || out == nil {
		return nil, err
	}
	return marshalCompact(out)
}

func geminiRoot(root map[string]any) (map[string]any, error) {
	if !isObjectSchema(root) {
		return nil, unsupported("$", `the top level must be {"type":"object"}`)
	}
	if _, err := propertiesOf(root, "$"); err != nil {
		return nil, err
	}
	if noParameters(root) {
		return nil, nil
	}
	return geminiNode(root, "$")
}

func geminiFormat(typ string, f any) bool {
	switch typ {
	case "string":
		return f == "date-time"
	case "number":
		return f == "float" || f == "double"
	case "integer":
		return f == "int32" || f == "int64"
	}
	return false
}

func geminiNode(s map[string]any, path string) (map[string]any, error) {
	types, hasType, err := schemaTypes(s, path)
	if err != nil {
		return nil, err
	}
	typ, nullable := "", false
	for _, t := range types {
		switch {
		case t == "null":
			nullable = true
		case typ == "":
			typ = t
		case t != typ:
			return nil, unsupported(path, "a union of types %q", types)
		}
	}
	_, hasAnyOf := s["anyOf"]
	switch {
	case hasType && typ == "":
		return nil, unsupported(path, "a schema whose only type is null")
	case !hasType && !hasAnyOf:
		return nil, unsupported(path, "a schema without a type")
	}
	switch typ {
	case "", "string", "number", "integer", "boolean", "array", "object":
	default:
		return nil, malformed(path, "unknown type %q", typ)
	}
	out := make(map[string]any, len(s)+1)
	if typ != "" {
		out["type"] = strings.ToUpper(typ)
	}
	if nullable {
		out["nullable"] = true
	}
	n := notes{}
	stringEnum := false
	for _, k := range sortedKeys(s) {
		v := s[k]
		switch k {
		case "type", "format":
		case "description", "title", "pattern", "minimum", "maximum", "minItems", "maxItems",
			"minLength", "maxLength", "minProperties", "maxProperties":
			out[k] = v
		case "$schema":
		case "enum":
			vals, ok := v.([]any)
			if !ok {
				return nil, malformed(path, `"enum" must be an array`)
			}
			strs := make([]any, 0, len(vals))
			for _, e := range vals {
				if _, ok := e.(string); ok {
					strs = append(strs, e)
				} else if e != nil {
					strs = nil
					break
				}
			}
			if typ == "string" && len(strs) > 0 {
				out[k] = strs
				stringEnum = true
			} else {
				n.add(k, vals)
			}
		case "default", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems":
			n.add(k, v)
		case "items":
			if typ != "array" {
				return nil, unsupported(path, `"items" on a schema that is not an array`)
			}
			sub, err := subschema(v, path+"[]")
			if err != nil {
				return nil, err
			}
			if out[k], err = geminiNode(sub, path+"[]"); err != nil {
				return nil, err
			}
		case "anyOf":
			list, ok := v.([]any)
			if !ok {
				return nil, malformed(path, `"anyOf" must be an array`)
			}
			alts := make([]any, len(list))
			for i, e := range list {
				p := fmt.Sprintf("%s.anyOf[%d]", path, i)
				sub, err := subschema(e, p)
				if err != nil {
					return nil, err
				}
				if alts[i], err = geminiNode(sub, p); err != nil {
					return nil, err
				}
			}
			out[k] = alts
		case "properties", "required", "additionalProperties":
			if typ != "object" {
				return nil, unsupported(path, "%q on a schema that is not an object", k)
			}
		default:
			return nil, unsupported(path, "keyword %q", k)
		}
	}
	if f, ok := s["format"]; ok {
		if !stringEnum && geminiFormat(typ, f) {
			out["format"] = f
		} else {
			n.add("format", f)
		}
	}
	if stringEnum {
		out["format"] = "enum"
	}
	switch typ {
	case "array":
		if _, ok := s["items"]; !ok {
			return nil, unsupported(path, "an array without items")
		}
	case "object":
		if err := geminiObject(s, out, n, path); err != nil {
			return nil, err
		}
	}
	n.describe(out, s)
	return out, nil
}

func geminiObject(s, out map[string]any, n notes, path string) error {
	props, err := propertiesOf(s, path)
	if err != nil {
		return err
	}
	if len(props) == 0 {
		return unsupported(path, "an object with no declared properties")
	}
	if ap, ok := s["additionalProperties"]; ok && ap != false {
		n.add("additionalProperties", ap)
	}
	names, _, err := requiredSet(s, path)
	if err != nil {
		return err
	}
	if len(names) > 0 {
		out["required"] = s["required"]
	}
	newProps := make(map[string]any, len(props))
	for _, name := range sortedKeys(props) {
		p := path + "." + name
		ps, err := subschema(props[name], p)
		if err != nil {
			return err
		}
		if newProps[name], err = geminiNode(ps, p); err != nil {
			return err
		}
	}
	out["properties"] = newProps
	return nil
}

// DropNullOptionals returns args without the members whose value is null
// where schema has an optional property that is not nullable, at any depth
// (nested objects, array items, map values). That is how a model in
// OpenAI's strict mode says "left out" (see OpenAIStrictSchema), and how
// other models sometimes do; generated decoders would reject those nulls.
// Everything else is kept byte for byte, member order included. When
// nothing is dropped, or schema or args is not valid JSON, args is returned
// unchanged, for Decode to judge.
func DropNullOptionals(schema, args json.RawMessage) json.RawMessage {
	if len(schema) == 0 || !bytes.Contains(args, []byte("null")) {
		return args
	}
	s, err := parseSchema(schema)
	if err != nil {
		return args
	}
	if out, changed := dropNulls(s, args); changed {
		return out
	}
	return args
}

// DropNullOptionals returns tc with DropNullOptionals applied to its
// arguments against the schema of the tool it names; tc is returned
// unchanged for a name no local or MCP tool owns. Options.DropNullOptionals
// does the same inside the pipeline, which is simpler for hosts that encode
// the catalog with EncodeOptions.Strict.
func (r *Registry) DropNullOptionals(tc ToolCall) ToolCall {
	if t, ok := r.Get(tc.Name); ok {
		tc.Arguments = DropNullOptionals(t.Schema, tc.Arguments)
	}
	return tc
}

func isJSONNull(raw []byte) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// acceptsNull reports whether schema s allows a null value.
func acceptsNull(s map[string]any) bool {
	switch t := s["type"].(type) {
	case nil:
		if alts, ok := s["anyOf"].([]any); ok {
			for _, a := range alts {
				if m, ok := a.(map[string]any); ok && acceptsNull(m) {
					return true
				}
			}
			return false
		}
		return true // no type: anything goes
	case string:
		return t == "null"
	case []any:
		return slices.Contains(t, any("null"))
	}
	return false
}

// dropNulls rewrites data (a JSON value described by s); changed is false
// when nothing was dropped or data could not be read.
func dropNulls(s map[string]any, data []byte) (out []byte, changed bool) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return data, false
	}
	switch data[0] {
	case '{':
		props, _ := s["properties"].(map[string]any)
		values, _ := s["additionalProperties"].(map[string]any)
		if props == nil && values == nil {
			return data, false
		}
		_, req, err := requiredSet(s, "")
		if err != nil {
			return data, false
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		if _, err := dec.Token(); err != nil {
			return data, false
		}
		buf := make([]byte, 0, len(data))
		buf = append(buf, '{')
		first := true
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return data, false
			}
			key, _ := tok.(string)
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return data, false
			}
			ps, declared := props[key].(map[string]any)
			if !declared {
				ps = values
			}
			if declared && !req[key] && isJSONNull(raw) && !acceptsNull(ps) {
				changed = true
				continue
			}
			if ps != nil {
				if v, ch := dropNulls(ps, raw); ch {
					raw, changed = v, true
				}
			}
			if !first {
				buf = append(buf, ',')
			}
			first = false
			k, err := marshalCompact(key)
			if err != nil {
				return data, false
			}
			buf = append(buf, k...)
			buf = append(buf, ':')
			buf = append(buf, raw...)
		}
		if _, err := dec.Token(); err != nil || !changed {
			return data, false
		}
		return append(buf, '}'), true
	case '[':
		items, _ := s["items"].(map[string]any)
		if items == nil {
			return data, false
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		if _, err := dec.Token(); err != nil {
			return data, false
		}
		buf := make([]byte, 0, len(data))
		buf = append(buf, '[')
		for i := 0; dec.More(); i++ {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return data, false
			}
			if v, ch := dropNulls(items, raw); ch {
				raw, changed = v, true
			}
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, raw...)
		}
		if _, err := dec.Token(); err != nil || !changed {
			return data, false
		}
		return append(buf, ']'), true
	}
	return data, false
}
