package gen

import (
	"slices"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/runtime/wire"
)

// Go literals for spec default values. A default is written out in full
// where it is applied, so that every decode gets a fresh value (no shared
// package-level slices or maps).

// fieldDefault is the expression a field takes when its property is absent.
func (g *generator) fieldDefault(f *field) jen.Code {
	lit := g.literal(f.typ, f.def)
	if f.ptr {
		return jen.Qual(wirePkg, "Ptr").Types(g.typeExpr(f.typ)).Call(lit)
	}
	return lit
}

// literal is a Go expression of type t (or an untyped constant assignable
// to it) for the spec value v: nil, bool, int64, float64, string, []any or
// map[string]any.
func (g *generator) literal(t *goType, v any) jen.Code {
	if v == nil {
		return jen.Nil()
	}
	switch t.kind {
	case kString:
		s, _ := v.(string)
		return jen.Lit(s)
	case kEnum:
		s, _ := v.(string)
		for _, e := range t.enum {
			if e.value == s {
				return jen.Id(e.name)
			}
		}
		return jen.Id(t.name).Parens(jen.Lit(s))
	case kInt:
		if i, ok := v.(int64); ok {
			return jen.Op(strconv.FormatInt(i, 10)) // exactly, not through float64
		}
		f, _ := toFloat(v)
		return numLit(f, true)
	case kFloat:
		f, _ := toFloat(v)
		return numLit(f, false)
	case kBool:
		b, _ := v.(bool)
		return jen.Lit(b)
	case kTime:
		s, _ := v.(string)
		tm, ok := wire.ParseDateTime(s) // as the decoder reads it
		if !ok {
			g.errs = append(g.errs, "default "+strconv.Quote(s)+" is not an RFC 3339 date-time")
			return jen.Qual("time", "Time").Values()
		}
		loc := jen.Qual("time", "UTC")
		if _, off := tm.Zone(); off != 0 {
			loc = jen.Qual("time", "FixedZone").Call(jen.Lit(""), jen.Lit(off))
		}
		return jen.Qual("time", "Date").Call(jen.Lit(tm.Year()), jen.Qual("time", tm.Month().String()), jen.Lit(tm.Day()),
			jen.Lit(tm.Hour()), jen.Lit(tm.Minute()), jen.Lit(tm.Second()), jen.Lit(tm.Nanosecond()), loc)
	case kSlice:
		items, _ := v.([]any)
		var elems []jen.Code
		for _, it := range items {
			elems = append(elems, g.elemLiteral(t, it))
		}
		return g.typeExpr(t).Values(elems...)
	case kMap:
		m, _ := v.(map[string]any)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		d := jen.Dict{}
		for _, k := range keys {
			d[jen.Lit(k)] = g.elemLiteral(t, m[k])
		}
		return g.typeExpr(t).Values(d)
	case kStruct:
		return jen.Id(t.name).Add(g.structValues(t, v))
	case kUnion:
		g.errs = append(g.errs, "a default value holding a union ("+t.name+") is not supported: leave the default out")
		return jen.Nil()
	case kRaw:
		b, err := canonicalJSON(v)
		if err != nil {
			g.errs = append(g.errs, "default value cannot be written as JSON: "+err.Error())
		}
		return jen.Qual("encoding/json", "RawMessage").Parens(jen.Lit(string(b)))
	}
	return jen.Nil()
}

// elemLiteral is the literal of an item or value of slice or map t.
func (g *generator) elemLiteral(t *goType, v any) jen.Code {
	if v == nil {
		return jen.Nil()
	}
	if t.elem.kind == kStruct && !t.elemPtr {
		// The element type is implied: {X: 1} rather than Point{X: 1}.
		return g.structValues(t.elem, v)
	}
	lit := g.literal(t.elem, v)
	if t.elemPtr {
		return jen.Qual(wirePkg, "Ptr").Types(g.typeExpr(t.elem)).Call(lit)
	}
	return lit
}

// structValues is the braces of a struct literal of t for the spec object
// v; fields v leaves out take their own defaults.
func (g *generator) structValues(t *goType, v any) *jen.Statement {
	m, _ := v.(map[string]any)
	d := jen.Dict{}
	for _, f := range t.fields {
		fv, ok := m[f.json]
		if !ok {
			if !f.hasDef || f.def == nil {
				continue
			}
			fv = f.def // a nested default applies too, as decoding the default would
		}
		if fv == nil {
			continue
		}
		lit := g.literal(f.typ, fv)
		if f.ptr {
			lit = jen.Qual(wirePkg, "Ptr").Types(g.typeExpr(f.typ)).Call(lit)
		}
		d[jen.Id(f.name)] = lit
	}
	if t.extra != nil {
		extra := jen.Dict{}
		var keys []string
		for k := range m {
			if !slices.ContainsFunc(t.fields, func(f *field) bool { return f.json == k }) {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			lit := g.literal(t.extra, m[k])
			if t.extraPtr && m[k] != nil {
				lit = jen.Qual(wirePkg, "Ptr").Types(g.typeExpr(t.extra)).Call(lit)
			}
			extra[jen.Lit(k)] = lit
		}
		if len(keys) > 0 {
			elem := g.typeExpr(t.extra)
			if t.extraPtr {
				elem = jen.Op("*").Add(elem)
			}
			d[jen.Id(t.extraName)] = jen.Map(jen.String()).Add(elem).Values(extra)
		}
	}
	return jen.Values(d)
}
