package diff

import (
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/spec"
)

// goType describes the Go type package gen makes for schema s, as far as
// code using it can tell: "int64", "*string" (for a field), "[]Money",
// "time.Time", "enum" (a named string type with a constant per value),
// "struct" (its fields are compared one by one), "map[string]json.RawMessage".
// It follows gen's rules (gen/types.go): a named type is its own Go type;
// an object with properties, or closed, is a struct; other objects are
// maps.
func goType(s *spec.Schema) string {
	if s == nil {
		return "string" // gen's default for an array without items
	}
	if s.Ref != "" {
		if s.RefType != nil {
			return s.RefType.GoName
		}
		return spec.GoName(s.Ref)
	}
	switch s.Type {
	case spec.TypeObject:
		if len(s.Properties) > 0 || (!s.AdditionalProperties && s.AdditionalPropertiesSchema == nil) {
			return "struct"
		}
		if v := s.AdditionalPropertiesSchema; v != nil {
			return "map[string]" + elemType(v)
		}
		return "map[string]json.RawMessage"
	case spec.TypeString:
		switch {
		case len(s.Enum) > 0:
			return "enum"
		case s.Format == "date-time" && s.Pattern == "" && s.MinLength == nil && s.MaxLength == nil:
			return "time.Time"
		}
		return "string"
	case spec.TypeInteger:
		return "int64"
	case spec.TypeNumber:
		return "float64"
	case spec.TypeBoolean:
		return "bool"
	case spec.TypeArray:
		return "[]" + elemType(s.Items)
	}
	return "any"
}

// elemType is the Go type of an array's items or a map's values: a
// pointer when they may be null.
func elemType(s *spec.Schema) string {
	if s != nil && (s.Nullable || s.Resolved().Nullable) {
		return "*" + goType(s)
	}
	return goType(s)
}

// fieldType is the Go type of the struct field for property p: a pointer
// when the value may be null, or may be absent without a default (so that
// absent and zero differ); never for slices and maps.
func fieldType(p *spec.Property) string {
	s := p.Schema
	if s == nil {
		return "?"
	}
	r := s.Resolved()
	nullable := s.Nullable || (r != nil && r.Nullable)
	hasDef := s.HasDefault || (s.RefType != nil && r != nil && r.HasDefault)
	t := goType(s)
	if (nullable || (!p.Required && !hasDef)) && !strings.HasPrefix(t, "[]") && !strings.HasPrefix(t, "map[") {
		return "*" + t
	}
	return t
}

// canonical writes the shape of s (what the generated Go types and the
// schema shown to a client are made of) without its descriptions; two
// schemas with the same canonical text generate the same types.
// References are written by name, not followed.
func canonical(s *spec.Schema) string {
	var b strings.Builder
	writeCanonical(&b, s, 0)
	return b.String()
}

func writeCanonical(b *strings.Builder, s *spec.Schema, depth int) {
	if s == nil {
		b.WriteString("nil")
		return
	}
	if depth > maxDepth {
		b.WriteString("…")
		return
	}
	if s.Ref != "" {
		fmt.Fprintf(b, "$ref(%s", s.Ref)
	} else {
		fmt.Fprintf(b, "%s(", s.Type)
	}
	kv := func(k string, v any) { fmt.Fprintf(b, " %s=%v", k, v) }
	if s.GoName != "" {
		kv("go_name", s.GoName)
	}
	if s.Nullable {
		kv("nullable", true)
	}
	if s.HasDefault {
		kv("default", fmtValue(s.Default))
	}
	if len(s.Enum) > 0 {
		kv("enum", fmtValues(s.Enum))
	}
	for _, c := range []struct {
		k string
		v *int
	}{{"minLength", s.MinLength}, {"maxLength", s.MaxLength}, {"minItems", s.MinItems}, {"maxItems", s.MaxItems}} {
		if c.v != nil {
			kv(c.k, *c.v)
		}
	}
	for _, c := range []struct {
		k string
		v *float64
	}{{"minimum", f64(s.Minimum)}, {"maximum", f64(s.Maximum)}, {"exclusiveMinimum", f64(s.ExclusiveMinimum)}, {"exclusiveMaximum", f64(s.ExclusiveMaximum)}, {"multipleOf", f64(s.MultipleOf)}} {
		if c.v != nil {
			kv(c.k, fmtNum(*c.v))
		}
	}
	if s.Pattern != "" {
		kv("pattern", fmt.Sprintf("%q", s.Pattern))
	}
	if s.Format != "" {
		kv("format", s.Format)
	}
	if s.Trim {
		kv("trim", true)
	}
	if s.UniqueItems {
		kv("uniqueItems", true)
	}
	if s.Items != nil {
		b.WriteString(" items=")
		writeCanonical(b, s.Items, depth+1)
	}
	for _, p := range s.Properties {
		fmt.Fprintf(b, " %q", p.Name)
		if p.Required {
			b.WriteString("!")
		}
		b.WriteString("=")
		writeCanonical(b, p.Schema, depth+1)
	}
	if s.AdditionalProperties {
		b.WriteString(" additional=")
		if s.AdditionalPropertiesSchema != nil {
			writeCanonical(b, s.AdditionalPropertiesSchema, depth+1)
		} else {
			b.WriteString("true")
		}
	}
	b.WriteString(")")
}
