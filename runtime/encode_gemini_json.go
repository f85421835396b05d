package runtime

import "errors"

// Gemini's parametersJsonSchema takes JSON Schema, but Google documents a
// subset of it as honoured and the rest as ignored
// (https://ai.google.dev/gemini-api/docs/structured-output, "JSON Schema
// support"; the same subset serves parametersJsonSchema,
// https://ai.google.dev/api/caching#FunctionDeclaration): among the
// keywords generated schemas use, default, exclusiveMinimum,
// exclusiveMaximum, multipleOf, uniqueItems and formats other than
// date-time, date and time are ignored. geminiJSONSchema keeps the schema
// as it is and adds their sense to the description, as the other
// rewrites do, so the model still reads them (the decoder enforces them
// either way).
//
// The OpenAPI path (parameters) drops additionalProperties: false without
// a note on purpose: every object there is closed (Schema has no way to
// allow other keys), so the note would say what the schema already does.

func geminiJSONKeyword(k string) keywordRule {
	switch k {
	case "default", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems":
		return ruleKeepDescribe
	}
	return ruleKeep
}

func geminiJSONFormat(f any) bool { return f == "date-time" || f == "date" || f == "time" }

// geminiJSONFinish writes node n's keywords back as they were, describing
// a format Gemini ignores.
func geminiJSONFinish(_ *rewrite, n *schemaNode) error {
	for _, k := range [...]string{"type", "enum", "required", "additionalProperties", "format"} {
		if v, ok := n.in[k]; ok {
			n.out[k] = v
		}
	}
	if f, ok := n.in["format"]; ok && !geminiJSONFormat(f) {
		n.notes.add("format", f)
	}
	return nil
}

// geminiJSONSchema returns schema for parametersJsonSchema: with the
// notes, or nil (send schema unchanged) when the walk cannot follow it (a
// subschema without a type, say).
func geminiJSONSchema(schema map[string]any, info refInfo) (map[string]any, error) {
	r := rewrite{keyword: geminiJSONKeyword, finish: geminiJSONFinish,
		oneOf: oneOfKeepNote, refs: keepRefs, recursion: true, doc: schema, info: info}
	out, err := r.node(schema, nil, false)
	switch {
	case errors.Is(err, ErrUnsupportedSchema):
		return nil, nil
	case err != nil:
		return nil, err
	}
	r.writeDefs(out)
	return out, nil
}
