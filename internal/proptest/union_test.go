package proptest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen/toolgen/gen"
	"github.com/toolgen/toolgen/spec"
)

// Unions in the random specs: oneOf and anyOf over alternatives of
// distinct JSON types (decoded by the kind of the value), over objects told
// apart by a const "kind" property (with or without a discriminator), over
// alternatives of one JSON type (tried in order), nullable, nested.
// Alternatives hold no trim (which alternative's trim the reference should
// see is the decoder's choice) and no default (a default holding a union is
// refused). Each drawn union is first loaded alone: the loader refuses
// oneOf alternatives that surely share a value and shadowed anyOf
// alternatives, and such a draw is drawn again.

// drawUnion draws a union schema nesting at most depth more levels.
func (d *drawer) drawUnion(depth int) schema {
	for try := 0; try < 20; try++ {
		s := d.drawUnion1(depth)
		if unionLoads(s) {
			return s
		}
	}
	// Alternatives of distinct JSON types always load.
	return schema{"oneOf": []any{schema{"type": "string"}, schema{"type": "integer"}}}
}

func (d *drawer) drawUnion1(depth int) schema {
	kw := d.pick("oneOf", "anyOf")
	var alts []any
	add := func(a schema) {
		strip(a)
		if t, ok := a["type"].([]any); ok {
			a["type"] = t[0] // an alternative is not nullable: null is an alternative of its own
		}
		alts = append(alts, a)
	}
	s := schema{}
	switch d.intn(4) {
	case 0, 1: // distinct JSON types
		kinds := []string{"string", "integer", "boolean", "array", "object", "map", "number"}
		d.r.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
		n := 2 + d.intn(2)
		used := map[string]bool{}
		for _, k := range kinds {
			jk := map[string]string{"integer": "number", "map": "object"}[k]
			if jk == "" {
				jk = k
			}
			if used[jk] || len(alts) == n {
				continue
			}
			used[jk] = true
			d.force = k
			add(d.draw(depth-1, true))
		}
		if depth > 1 && d.chance(0.2) {
			alts[0] = d.drawUnion(depth - 1) // nested
		}
	case 2: // objects told apart by a const property
		vals := []string{"a", "b", "c"}
		for i := 0; i < 2+d.intn(2); i++ {
			d.force = "object"
			a := d.draw(depth-1, true)
			props := a["properties"].(schema)
			props["kind"] = schema{"type": "string", "const": vals[i]}
			req, _ := a["required"].([]any)
			a["required"] = append(slices.DeleteFunc(req, func(x any) bool { return x == "kind" }), "kind")
			add(a)
		}
		if d.chance(0.5) {
			s["discriminator"] = schema{"propertyName": "kind"}
		}
	default: // one JSON type, tried in order
		k := d.pick("string", "integer", "number", "object", "array")
		for i := 0; i < 2+d.intn(2); i++ {
			d.force = k
			a := d.draw(depth-1, true)
			if k == "number" && d.chance(0.5) {
				a["type"] = "integer"
			}
			add(a)
		}
	}
	if d.chance(0.2) {
		alts = append(alts, schema{"type": "null"})
	}
	s[kw] = alts
	if d.chance(0.3) {
		s["description"] = "A union."
	}
	return s
}

// strip removes trim and default from a drawn schema, at every depth.
func strip(v any) {
	switch x := v.(type) {
	case schema:
		delete(x, "trim")
		delete(x, "default")
		for _, e := range x {
			strip(e)
		}
	case []any:
		for _, e := range x {
			strip(e)
		}
	}
}

// unionLoads reports whether the loader takes s as a parameter's schema.
func unionLoads(s schema) bool {
	text := "toolgen: 1\nprovider: pt\npackage: p\ntools:\n  - name: pt_u\n    description: U.\n    params: {u: " + jsonText(s) + "}\n"
	_, err := spec.Parse("u.tools.yaml", []byte(text))
	return err == nil
}

// hasUnion reports whether s holds a union at any depth (following
// references): no default is drawn for it.
func (d *drawer) hasUnion(v any) bool {
	switch x := v.(type) {
	case schema:
		if _, ok := x["oneOf"]; ok {
			return true
		}
		if _, ok := x["anyOf"]; ok {
			return true
		}
		if r, ok := x["$ref"].(string); ok {
			return d.hasUnion(d.types[strings.TrimPrefix(r, "#/types/")])
		}
		for k, e := range x {
			if k != "enum" && k != "const" && d.hasUnion(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if d.hasUnion(e) {
				return true
			}
		}
	}
	return false
}

// alternatives are the alternatives of a drawn union (null aside), and
// whether it is nullable.
func alternatives(s schema) ([]schema, bool) {
	list, ok := s["oneOf"].([]any)
	if !ok {
		list, _ = s["anyOf"].([]any)
	}
	var out []schema
	nullable := false
	for _, a := range list {
		if a.(schema)["type"] == "null" {
			nullable = true
			continue
		}
		out = append(out, a.(schema))
	}
	return out, nullable
}

// altRefs caches the reference validator of each spec alternative.
var altRefs = map[*spec.Schema]*jsonschema.Schema{}

// altAccepts reports whether the reference accepts v for the alternative a.
func altAccepts(a *spec.Schema, v any) bool {
	ref, ok := altRefs[a]
	if !ok {
		b, err := gen.SchemaJSON(a)
		if err != nil {
			panic(err)
		}
		ref = compileRef(mustParse(string(b)))
		altRefs[a] = ref
	}
	return ref.Validate(reparse(v)) == nil
}

// chosen is the alternative of the union r the decoder takes for v (which
// the reference accepts): the first that accepts it (the only one, for
// oneOf; the one of v's JSON type or discriminator value where those
// decide). nil when none does.
func chosen(r *spec.Schema, v any) *spec.Schema {
	for _, a := range r.Union.Alts {
		if altAccepts(a, v) {
			return a
		}
	}
	return nil
}

// differUnion says how got differs from want for the union r: it is
// compared as a value of each alternative of want's JSON type, and
// matches when one of them finds no difference. A date-time alternative is
// a string (not a time.Time): compared as sent.
func differUnion(r *spec.Schema, want, got any) string {
	why := "no alternative of " + string(r.Union.Kind) + " takes the value"
	for _, a := range r.Union.Alts {
		ar := a.Resolved()
		if !kindFits(ar, want) || !kindFits(ar, got) {
			continue
		}
		var w string
		if isTime(ar) {
			if want != got {
				w = fmt.Sprintf("%v != %v", want, got)
			}
		} else {
			w = differAs(a, want, got)
		}
		if w == "" {
			return ""
		}
		why = w
	}
	return why
}

// differAs is differ for an alternative that may not be the value's at
// all (a property of another type panics differ's type assertions): that
// is a difference.
func differAs(a *spec.Schema, want, got any) (why string) {
	defer func() {
		if recover() != nil {
			why = "not a value of this alternative"
		}
	}()
	return differ(a, false, want, got)
}

// kindFits reports whether v is of a JSON type the resolved schema r
// takes.
func kindFits(r *spec.Schema, v any) bool {
	if r.Union != nil {
		for _, a := range r.Union.Alts {
			if kindFits(a.Resolved(), v) {
				return true
			}
		}
		return false
	}
	switch v.(type) {
	case string:
		return r.Type == spec.TypeString
	case json.Number:
		return r.Type == spec.TypeInteger || r.Type == spec.TypeNumber
	case bool:
		return r.Type == spec.TypeBoolean
	case []any:
		return r.Type == spec.TypeArray
	case map[string]any:
		return r.Type == spec.TypeObject
	}
	return false
}

// constLoads reports whether the loader takes a const beside s: not when
// the Go value of s does not encode back to the JSON sent (spec's
// unfaithful: Extra fields, time.Time, defaults, optional nullable
// properties, unions), which it refuses.
func constLoads(d *drawer, s schema) bool {
	var types strings.Builder
	for _, n := range d.names {
		types.WriteString("  " + n + ": " + jsonText(d.types[n]) + "\n")
	}
	probe := schema{}
	for k, v := range s {
		probe[k] = v
	}
	// Any value the loader reads will do: it refuses an unfaithful schema
	// before it checks the value.
	probe["const"] = map[string]any{}
	if typeOf(s) == "array" {
		probe["const"] = []any{}
	}
	text := "toolgen: 1\nprovider: pt\npackage: p\n"
	if types.Len() > 0 {
		text += "types:\n" + types.String()
	}
	text += "tools:\n  - name: pt_u\n    description: U.\n    params: {u: " + jsonText(probe) + "}\n"
	_, err := spec.Parse("u.tools.yaml", []byte(text))
	return err == nil || !strings.Contains(err.Error(), "is not supported here")
}

// unionIn reports whether s holds a union at any depth.
func unionIn(s *spec.Schema) bool {
	seen := map[*spec.Schema]bool{}
	var walk func(s *spec.Schema) bool
	walk = func(s *spec.Schema) bool {
		r := s.Resolved()
		if r == nil || seen[r] {
			return false
		}
		seen[r] = true
		if r.Union != nil {
			return true
		}
		if r.Items != nil && walk(r.Items) || r.AdditionalPropertiesSchema != nil && walk(r.AdditionalPropertiesSchema) {
			return true
		}
		for _, p := range r.Properties {
			if walk(p.Schema) {
				return true
			}
		}
		return false
	}
	return walk(s)
}
