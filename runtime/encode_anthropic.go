package runtime

import "encoding/json"

// Anthropic strict tool use
//
// https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use
// and https://platform.claude.com/docs/en/build-with-claude/structured-outputs
// ("JSON Schema limitations"): a tool with "strict": true has its input
// sampled under a grammar compiled from input_schema. Supported are the
// basic types (type arrays included), enum of primitives, const, anyOf,
// allOf, local $ref, default, required, properties, items, description,
// pattern (simple expressions), format (date-time, time, date, duration,
// email, hostname, uri, ipv4, ipv6, uuid) and minItems of 0 or 1; every
// object must have "additionalProperties": false. Not supported:
// minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf,
// minLength, maxLength, other array bounds, minProperties, maxProperties,
// additionalProperties other than false, recursive schemas. Unlike
// OpenAI's, optional properties stay optional. Per request: at most 20
// strict tools, 24 optional parameters and 16 parameters with a union type
// (anyOf or a type array), over all strict tools (see catalogWriter).

func anthropicStrictFormat(f any) bool {
	switch f {
	case "date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid":
		return true
	}
	return false
}

func anthropicStrictKeyword(k string) keywordRule {
	switch k {
	case "description", "pattern", "default", "const":
		return ruleKeep
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
		"minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties":
		return ruleDescribe // minItems 0 or 1 is put back by anthropicStrictFinish
	case "title", "$schema":
		return ruleDrop
	}
	return ruleUnsupported
}

// strictCost is what one tool's strict schema spends of a request's
// budget.
type strictCost struct{ optional, unions int }

// AnthropicStrictSchema rewrites a tool's argument schema for Anthropic's
// strict tool use: every object gets "additionalProperties": false, the
// constraints strict mode refuses (minimum, maximum, exclusiveMinimum,
// exclusiveMaximum, multipleOf, minLength, maxLength, minItems above 1,
// maxItems, uniqueItems, minProperties, maxProperties, formats outside its
// list) move into the description, and title is dropped. Optional
// properties stay optional. The tool's decoder still enforces all of them.
//
// It returns an error wrapping ErrUnsupportedSchema when strict mode cannot
// carry the schema: an object that allows other keys (a map), a keyword
// outside the supported list, an enum with an object or array value, a
// root that is not an object, or subschemas nested more than 64 deep.
// EncodeTools then sends that tool without strict.
func AnthropicStrictSchema(schema json.RawMessage) (json.RawMessage, error) {
	root, info, err := prepareSchema(schema)
	if err != nil {
		return nil, err
	}
	out, _, err := anthropicStrictRoot(root, info)
	if err != nil {
		return nil, err
	}
	return marshalCompact(out)
}

func anthropicStrictRoot(root map[string]any, info refInfo) (map[string]any, strictCost, error) {
	if !isObjectSchema(root) {
		return nil, strictCost{}, unsupported(nil, `the top level must be {"type":"object"}`)
	}
	if info.recursive {
		return nil, strictCost{}, unsupported(nil, "a recursive $ref (strict tool use takes no recursive schema)")
	}
	r := rewrite{keyword: anthropicStrictKeyword, finish: anthropicStrictFinish,
		oneOf: oneOfAsAnyOf, refs: keepRefs, refSiblings: true, doc: root, info: info}
	out, err := r.node(root, nil, false)
	if err != nil {
		return nil, strictCost{}, err
	}
	r.writeDefs(out)
	return out, strictCost{optional: r.optional, unions: r.unions}, nil
}

// anthropicStrictFinish writes node n's type, enum and format, closes an
// object, keeps a minItems of 0 or 1, and counts optional and union
// parameters.
func anthropicStrictFinish(r *rewrite, n *schemaNode) error {
	in, out := n.in, n.out
	if n.is("object") {
		if ap, ok := in["additionalProperties"]; ok && ap != false {
			return unsupported(n.path, "an object that allows other keys (additionalProperties)")
		}
		out["additionalProperties"] = false
		if req, ok := in["required"]; ok {
			out["required"] = req
		}
		props, _ := in["properties"].(map[string]any)
		for name := range props {
			if !n.isReq[name] {
				r.optional++
			}
		}
	}
	if v, ok := in["minItems"]; ok {
		if num, isNum := v.(json.Number); isNum && (num == "0" || num == "1") {
			out["minItems"] = v
		} else if f, isF := v.(float64); isF && (f == 0 || f == 1) {
			out["minItems"] = v
		}
		if _, kept := out["minItems"]; kept {
			delete(n.notes, "minItems")
		}
	}
	if f, ok := in["format"]; ok {
		if anthropicStrictFormat(f) {
			out["format"] = f
		} else {
			n.notes.add("format", f)
		}
	}
	if t, ok := in["type"]; ok {
		out["type"] = t
		if _, isList := t.([]any); isList && len(n.types) > 1 {
			r.unions++
		}
	}
	if alts, _ := out["anyOf"].([]any); len(alts) > 1 {
		r.unions++
	}
	if e, ok := in["enum"]; ok {
		for _, v := range e.([]any) {
			switch v.(type) {
			case map[string]any, []any:
				return unsupported(n.path, "an enum with an object or array value")
			}
		}
		out["enum"] = e
	}
	return nil
}
