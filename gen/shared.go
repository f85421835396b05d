package gen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/runtime/wire"
)

// Shared code for repeated shapes: an API repeats its constraints (every
// `limit` is 1–100, every `expand` item a non-empty string, every id
// matches one pattern), so schemas whose checks are the same share one
// check function, declared at its first use, instead of one per use.

// sharedCheck returns the name of the check function t can share, declaring
// it for t when no schema before had the same checks.
func (g *generator) sharedCheck(t *goType, name string) (check string, owner bool) {
	key, ok := checkKey(t)
	if ok {
		if c, seen := g.checks[key]; seen {
			g.checkUses[c]++
			return c, false
		}
	}
	check = "check" + name
	if t.kind == kInt || t.kind == kFloat {
		check = lowerFirst(name) + "Rules" // a wire.NumberRules value
	}
	if ok {
		g.checks[key] = check
		g.checkUses[check] = 1
	}
	return check, true
}

// checkKey is everything the check function of t depends on: the Go type of
// the value it checks and the schema's own constraints (not its
// description, default or nesting, which other code handles). An enum's
// check calls its own type's Valid, so enums share none (ok false).
func checkKey(t *goType) (key string, ok bool) {
	if t.kind == kEnum {
		return "", false
	}
	s := t.schema
	var b strings.Builder
	fmt.Fprintf(&b, "%s|enum%v|const%v,%#v|len%s,%s|pat%q|fmt%q|trim%v", typeKey(t), s.Enum, s.HasConst, s.Const,
		intp(s.MinLength), intp(s.MaxLength), s.Pattern, s.Format, s.Trim)
	fmt.Fprintf(&b, "|num%s,%s,%s,%s,%s", floatp(s.Minimum), floatp(s.Maximum),
		floatp(s.ExclusiveMinimum), floatp(s.ExclusiveMaximum), floatp(s.MultipleOf))
	if t.kind == kSlice {
		fmt.Fprintf(&b, "|items%s,%s,%v,%v", intp(s.MinItems), intp(s.MaxItems), s.UniqueItems, uniqueBySpans(t))
	}
	return b.String(), true
}

// typeKey identifies the Go type of t.
func typeKey(t *goType) string {
	if t == nil {
		return "-"
	}
	return fmt.Sprintf("%d:%s:%v[%s]", t.kind, t.name, t.elemPtr, typeKey(t.elem))
}

func intp(p *int) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

func floatp(p *wire.Decimal) string {
	if p == nil {
		return "-"
	}
	return p.String()
}

// Nested types of the same shape: an object or enum nested in a tool's
// arguments (an address, a date range, a currency) that an earlier one
// matches exactly — the same properties with the same Go types, checks,
// defaults and docs, or the same values — is declared as an alias of it
// (`type CreateInvoiceAddress = CreateCustomerAddress`; an enum keeps its
// own constants), so its decoder, validator and enum parser are written
// once. The names stay: code that uses them compiles as before. Argument
// structs, results and named types are never aliased: each keeps its own
// type.

// sameStruct returns the earlier struct t can be an alias of, or nil
// (recording t as the first of its shape).
func (g *generator) sameStruct(t *goType, where loc) *goType {
	if where.path == "$" {
		return nil
	}
	var b strings.Builder
	b.WriteString("struct{")
	for _, f := range t.fields {
		fmt.Fprintf(&b, "%q %q %v %v %v %v %#v %q %s;", f.json, f.name, f.required, f.nullable, f.ptr, f.hasDef, f.def, f.doc, typeID(f.typ))
	}
	fmt.Fprintf(&b, "} extra %q %v %s const %q", t.extraName, t.extraPtr, typeID(t.extra), t.constVar)
	return g.same(t, b.String())
}

// sameEnum is sameStruct for an enum: the same values and checks.
func (g *generator) sameEnum(t *goType, where loc) *goType {
	if where.path == "$" {
		return nil
	}
	s := t.schema
	key := fmt.Sprintf("enum%q|len%s,%s|pat%q|fmt%q|trim%v", s.Enum, intp(s.MinLength), intp(s.MaxLength), s.Pattern, s.Format, s.Trim)
	return g.same(t, key)
}

func (g *generator) same(t *goType, key string) *goType {
	if first, ok := g.shapes[key]; ok {
		return first
	}
	g.shapes[key] = t
	return nil
}

// typeID identifies the Go type of t and the code that reads and checks
// it: a declared type by the name of the type it is (or aliases), others by
// their kind, check function and elements.
func typeID(t *goType) string {
	if t == nil {
		return "-"
	}
	if t.same != nil {
		return typeID(t.same)
	}
	if t.name != "" {
		return "T:" + t.name
	}
	return fmt.Sprintf("%d:%s:%s:%v[%s]", t.kind, t.check, t.constVar, t.elemPtr, typeID(t.elem))
}

// ofName is the enum parser of t (the one of the type it aliases).
func ofName(t *goType) string {
	if t.same != nil {
		return ofName(t.same)
	}
	return lowerFirst(t.name) + "Of"
}

// aliasDecl declares t as an alias of the type of the same shape.
func (g *generator) aliasDecl(t *goType) jen.Code {
	if !g.jen {
		return g.rawAlias(t)
	}
	return topComment(aliasText(t)).Line().Add(jen.Type().Id(t.name).Op("=").Id(t.same.name)).Line()
}

// aliasText is the doc comment of aliasDecl(t).
func aliasText(t *goType) string {
	text := strings.TrimSpace(t.doc)
	switch {
	case text == "":
		text = t.name + " is " + t.what + "."
	case !strings.HasPrefix(text, t.name+" "):
		text = t.name + " is " + t.what + ": " + text
	}
	return text + " It is an alias of " + t.same.name + ", which has the same shape."
}
