package gen

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/runtime/wire"
	"github.com/toolgen/toolgen/spec"
)

// The JSON Schema literals the model sees: compact, canonical JSON (every
// object's keys sorted, as RFC 8785 orders them for ASCII keys), with
// named types inlined so that every provider accepts them.

// SchemaJSON returns the compact canonical JSON Schema of s: keys sorted,
// "additionalProperties":false on every strict object, nullable types as
// ["T","null"], named types inlined (no $ref) except recursive ones, which
// are defined once in the root's "$defs" and referred to as
// {"$ref":"#/$defs/Name"} (recursive.go).
func SchemaJSON(s *spec.Schema) ([]byte, error) {
	var l literal
	m := l.value(s, true)
	if len(l.defs) > 0 {
		m["$defs"] = l.defs
	}
	return canonicalJSON(m)
}

// schemaMemo holds the schema literals of one spec for Code and
// checkTargets, which Generate runs side by side and which both need every
// tool's: each is computed once (twice at most, when both ask at once).
// The literals are shared: neither changes them.
type schemaMemo struct {
	mu sync.Mutex
	m  map[*spec.Schema]schemaLiteral
}

type schemaLiteral struct {
	json []byte
	err  error
}

func newSchemaMemo() *schemaMemo { return &schemaMemo{m: map[*spec.Schema]schemaLiteral{}} }

// json is SchemaJSON(s), from the memo when it has it; a nil memo computes
// it every time.
func (c *schemaMemo) json(s *spec.Schema) ([]byte, error) {
	if c == nil {
		return SchemaJSON(s)
	}
	c.mu.Lock()
	l, ok := c.m[s]
	c.mu.Unlock()
	if ok {
		return l.json, l.err
	}
	l.json, l.err = SchemaJSON(s)
	c.mu.Lock()
	c.m[s] = l
	c.mu.Unlock()
	return l.json, l.err
}

// value is the schema at site as a JSON value built from maps (which
// encoding/json writes with sorted keys); root inlines a recursive type
// where any other place refers to it.
func (l *literal) value(site *spec.Schema, root bool) map[string]any {
	if nt := recursiveRef(site); nt != nil && !root {
		return l.ref(site, nt)
	}
	r := site.Resolved()
	if r.Union != nil {
		return l.unionSchemaValue(site, r) // union.go
	}
	m := map[string]any{}
	nullable := site.Nullable || r.Nullable
	if nullable {
		m["type"] = []any{string(r.Type), "null"}
	} else {
		m["type"] = string(r.Type)
	}
	desc := site.Description
	if desc == "" {
		desc = r.Description
	}
	if desc != "" {
		m["description"] = desc
	}
	switch {
	case site.HasDefault:
		m["default"] = site.Default
	case r.HasDefault:
		m["default"] = r.Default
	}
	if len(r.Enum) > 0 {
		enum := append([]any(nil), r.Enum...)
		if nullable {
			enum = append(enum, nil) // null must pass the enum too
		}
		m["enum"] = enum
	}
	if r.HasConst {
		if nullable {
			m["enum"] = []any{r.Const, nil} // a const would reject the null
		} else {
			m["const"] = r.Const
		}
	}
	setInt := func(key string, v *int) {
		if v != nil {
			m[key] = *v
		}
	}
	setNum := func(key string, v *wire.Decimal) {
		if v != nil {
			m[key] = json.Number(v.String()) // digit for digit
		}
	}
	setInt("minLength", r.MinLength)
	setInt("maxLength", r.MaxLength)
	if r.Pattern != "" {
		m["pattern"] = r.Pattern
	}
	if r.Format != "" {
		m["format"] = r.Format
	}
	setNum("minimum", r.Minimum)
	setNum("maximum", r.Maximum)
	setNum("exclusiveMinimum", r.ExclusiveMinimum)
	setNum("exclusiveMaximum", r.ExclusiveMaximum)
	setNum("multipleOf", r.MultipleOf)
	if r.Type == spec.TypeArray && r.Items != nil {
		m["items"] = l.value(r.Items, false)
	}
	setInt("minItems", r.MinItems)
	setInt("maxItems", r.MaxItems)
	if r.UniqueItems {
		m["uniqueItems"] = true
	}
	if r.Type == spec.TypeObject {
		isMap := len(r.Properties) == 0 && (r.AdditionalProperties || r.AdditionalPropertiesSchema != nil)
		if !isMap {
			props := map[string]any{}
			for _, p := range r.Properties {
				props[p.Name] = l.value(p.Schema, false)
			}
			m["properties"] = props
		}
		if len(r.Required) > 0 {
			req := make([]any, len(r.Required))
			for i, n := range r.Required {
				req[i] = n
			}
			m["required"] = req
		}
		switch {
		case r.AdditionalPropertiesSchema != nil:
			m["additionalProperties"] = l.value(r.AdditionalPropertiesSchema, false)
		case r.AdditionalProperties:
			m["additionalProperties"] = true
		default:
			m["additionalProperties"] = false
		}
	}
	return m
}

// canonicalJSON writes v compactly with sorted object keys and without
// HTML escaping.
func canonicalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// schemaConsts are a tool's schema constants.
func (g *generator) schemaConsts(t *toolIR) []jen.Code {
	params := t.tool.Params
	if params == nil {
		params = &spec.Schema{Type: spec.TypeObject}
	}
	out := g.schemaConst(t.goLower+"Schema",
		"the JSON Schema of the arguments of the "+t.tool.Name+" tool (compact, canonical).", params)
	if t.tool.Result != nil {
		out = append(out, g.schemaConst(t.goLower+"ResultSchema",
			"the JSON Schema of the result of the "+t.tool.Name+" tool (compact, canonical).", t.tool.Result)...)
	}
	return out
}

func (g *generator) schemaConst(name, what string, s *spec.Schema) []jen.Code {
	b, err := g.schemas.json(s)
	if err != nil {
		g.errs = append(g.errs, "the schema of "+name+" cannot be written as JSON: "+err.Error())
	}
	if !g.jen {
		return []jen.Code{g.rawSchemaConst(name, what, b)}
	}
	return []jen.Code{
		comment(name + " is " + what),
		jen.Const().Id(name).Op("=").Add(stringLit(string(b))),
		jen.Line(),
	}
}

// stringLit is a string literal, raw (`…`) when that reads better.
func stringLit(s string) jen.Code {
	if rawStringOK(s) {
		return jen.Op("`" + s + "`")
	}
	return jen.Lit(s)
}

// rawStringOK reports whether stringLit writes s as a raw string literal.
func rawStringOK(s string) bool {
	return !strings.ContainsAny(s, "`\r") && !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0xFEFF })
}
