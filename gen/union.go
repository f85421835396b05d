package gen

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/spec"
)

// Unions (oneOf, anyOf) become sealed interfaces: a sum type.
//
//	// Price is one of: *PriceFixed, *PricePercent, PriceString.
//	//
//	//sumtype:decl
//	type Price interface{ isPrice() }
//
// Each alternative is a Go type of its own that implements the interface's
// unexported marker method: a struct alternative as a pointer (*PriceFixed,
// or *Card for a named type), any other as a named type (PriceString
// string, PriceList []int64, a named enum). A nested union is an interface
// that embeds the outer one's marker.
//
// Why an interface and not a struct of pointers: a value holds exactly one
// alternative, so the states a struct of pointers allows and the schema
// refuses (none set, two set) cannot be built; nil is null or absent, as
// for any optional field; the executor reads it with a type switch,
//
//	switch p := args.Price.(type) {
//	case *shop.PriceFixed: ...
//	case *shop.PricePercent: ...
//	case shop.PriceString: ...
//	}
//
// which a sum-type linter (go-sumtype, gochecksumtype: the //sumtype:decl
// line) checks for exhaustiveness, as no compiler can for a struct of
// pointers; and encoding/json writes the value it holds with no method of
// ours. Decoding and Validate are generated functions (decodePrice,
// validatePrice) with a type switch or a switch on the JSON kind: no
// reflection.
//
// Decoding takes one pass where it can: a discriminator's property value
// (peeked without decoding: wire.Decoder.Discriminator) or the JSON type
// of the value (wire.Decoder.Kind) chooses the alternative, which alone is
// decoded. Alternatives of one JSON type without a discriminator are tried
// in order (wire.Trial): for anyOf the first that matches wins, for oneOf
// exactly one must match. A value no alternative accepts gets one
// violation naming the alternatives.

// unionInfo is the union of a kUnion goType.
type unionInfo struct {
	kind   spec.UnionKind
	alts   []*unionAlt
	disc   *spec.Discriminator
	marker string // the interface's marker method: "is" + name
	// outer are the unions this one is an alternative of (directly or
	// through another): its interface holds their markers too.
	outer []*goType
}

// unionAlt is one alternative of a union.
type unionAlt struct {
	typ    *goType
	schema *spec.Schema
	label  string     // for messages: a type name, or the JSON type
	kinds  []jsonKind // the JSON types it takes
	value  string     // its discriminator value
}

// jsonKind is a JSON type as wire.Kind tells it.
type jsonKind int

const (
	jObject jsonKind = iota
	jArray
	jString
	jNumber
	jBool
)

var kindConst = map[jsonKind]string{jObject: "KindObject", jArray: "KindArray", jString: "KindString", jNumber: "KindNumber", jBool: "KindBool"}
var kindWord = map[jsonKind]string{jObject: "object", jArray: "array", jString: "string", jNumber: "number", jBool: "boolean"}

// unionAlts are the alternatives of t, nil for other kinds.
func unionAlts(t *goType) []*unionAlt {
	if t == nil || t.union == nil {
		return nil
	}
	return t.union.alts
}

// unionType builds the sum type of a union schema.
func (g *generator) unionType(s *spec.Schema, name, owner string, where loc) *goType {
	u := s.Union
	t := &goType{kind: kUnion, name: name, schema: s, what: where.typeOf(), doc: s.Description,
		union: &unionInfo{kind: u.Kind, disc: u.Discriminator, marker: "is" + name}}
	g.declare(name, "the union type of "+where.String())
	g.declare("decode"+name, "the decoder of the union type of "+where.String())
	g.declare("validate"+name, "the validator of the union type of "+where.String())
	used := map[string]bool{}
	for i, a := range u.Alts {
		alt := &unionAlt{schema: a, label: altLabel(a)}
		if u.Discriminator != nil && i < len(u.Discriminator.Values) {
			alt.value = u.Discriminator.Values[i]
		}
		an := a.GoName
		if an == "" && a.RefType == nil {
			suffix := ""
			if alt.value != "" {
				suffix = g.f.GoName(alt.value)
			}
			if suffix == "" {
				suffix = g.altSuffix(a.Resolved())
			}
			an = name + suffix
			for n := 2; used[an]; n++ {
				an = name + suffix + strconv.Itoa(n)
			}
		}
		used[an] = true
		g.noTime = true // a date-time alternative stays a string: time.Time takes no marker method
		at := g.typeOf(a, an, an, where.child("."+string(u.Kind)+"["+strconv.Itoa(i)+"]"))
		g.noTime = false
		if !at.shared {
			if at.kind == kStruct {
				at.same = nil // its own type: it carries the marker method
			}
			if at.name == "" {
				at.name = an
				g.declare(an, "the alternative "+strconv.Itoa(i)+" type of "+where.String())
			}
			if at.what == "" || at.kind != kStruct && at.kind != kEnum {
				at.what = "alternative " + strconv.Itoa(i) + " of " + name
			}
		} else if at.alias {
			g.errs = append(g.errs, "the named type "+at.name+" (a date-time, an alias of time.Time) cannot be an alternative of "+where.String()+": give the alternative type: string, format: date-time instead")
		}
		alt.typ = at
		alt.kinds = kindsOf(a.Resolved())
		if at.kind == kUnion {
			at.union.outer = append(at.union.outer, t)
		}
		t.union.alts = append(t.union.alts, alt)
	}
	return t
}

// altSuffix names an inline alternative (spec.File.AltSuffix, which the
// OpenAPI importer's Go-name collision check calls too).
func (g *generator) altSuffix(r *spec.Schema) string {
	return g.f.AltSuffix(r)
}

// altLabel names an alternative for the model: its named type, else its
// JSON type with what sets it apart ("object with kind \"card\"",
// "string (date-time)", "string \"a\" or \"b\"").
func altLabel(a *spec.Schema) string {
	if a.RefType != nil {
		return a.RefType.Name
	}
	r := a.Resolved()
	if r.Union != nil {
		// A nested union lists its own alternatives, but a union inside
		// those is only counted: a label that spelled out every level
		// would grow with the square of the nesting, in every message and
		// type comment that quotes it.
		var parts []string
		for _, x := range r.Union.Alts {
			if xr := x.Resolved(); x.RefType == nil && xr.Union != nil {
				parts = append(parts, fmt.Sprintf("%s of %d alternatives", xr.Union.Kind, len(xr.Union.Alts)))
				continue
			}
			parts = append(parts, altLabel(x))
		}
		return string(r.Union.Kind) + " (" + strings.Join(parts, ", ") + ")"
	}
	switch r.Type {
	case spec.TypeObject:
		for _, p := range r.Properties {
			if ps := p.Schema.Resolved(); p.Required && ps != nil && ps.HasConst {
				if c, ok := ps.Const.(string); ok {
					return "object with " + p.Name + " " + strconv.Quote(c)
				}
			}
		}
		if len(r.Required) > 0 {
			return "object with " + strings.Join(r.Required, ", ")
		}
	case spec.TypeArray:
		if r.Items != nil {
			return "array of " + altLabel(r.Items)
		}
	case spec.TypeString:
		switch {
		case r.HasConst:
			return "string " + strconv.Quote(r.Const.(string))
		case len(r.Enum) > 0:
			var q []string
			for _, e := range r.Enum {
				q = append(q, strconv.Quote(e.(string)))
			}
			if len(q) > 4 {
				q = append(q[:3], "…")
			}
			return "string " + strings.Join(q, ", ")
		case r.Format != "":
			return "string (" + r.Format + ")"
		}
	}
	return string(r.Type)
}

// kindsOf lists the JSON types a resolved schema takes (null aside).
func kindsOf(r *spec.Schema) []jsonKind {
	if r == nil {
		return nil
	}
	if r.Union != nil {
		var out []jsonKind
		for _, a := range r.Union.Alts {
			for _, k := range kindsOf(a.Resolved()) {
				if !containsKind(out, k) {
					out = append(out, k)
				}
			}
		}
		return out
	}
	switch r.Type {
	case spec.TypeObject:
		return []jsonKind{jObject}
	case spec.TypeArray:
		return []jsonKind{jArray}
	case spec.TypeString:
		return []jsonKind{jString}
	case spec.TypeInteger, spec.TypeNumber:
		return []jsonKind{jNumber}
	case spec.TypeBoolean:
		return []jsonKind{jBool}
	}
	return nil
}

func containsKind(ks []jsonKind, k jsonKind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// altExpr is the Go type an alternative's values have inside the
// interface: a pointer for a struct.
func (g *generator) altExpr(t *goType) *jen.Statement {
	if t.kind == kStruct {
		return jen.Op("*").Id(t.name)
	}
	return jen.Id(t.name)
}

// leaves are the non-union alternatives of t, through nested unions, in
// order and once each.
func leaves(t *goType) []*goType {
	var out []*goType
	seen := map[*goType]bool{}
	var walk func(t *goType)
	walk = func(t *goType) {
		for _, a := range t.union.alts {
			if a.typ.kind == kUnion {
				walk(a.typ)
				continue
			}
			if !seen[a.typ] {
				seen[a.typ] = true
				out = append(out, a.typ)
			}
		}
	}
	walk(t)
	return out
}

// outerUnions are the unions t is an alternative of, transitively, in the
// order met.
func outerUnions(t *goType) []*goType {
	var out []*goType
	seen := map[*goType]bool{}
	var walk func(t *goType)
	walk = func(t *goType) {
		for _, o := range t.union.outer {
			if !seen[o] {
				seen[o] = true
				out = append(out, o)
				walk(o)
			}
		}
	}
	walk(t)
	return out
}

// unionDecls declare a union: the interface, the marker methods of its
// alternatives, and (when it is decoded) its decoder and validator.
func (g *generator) unionDecls(t *goType) []jen.Code {
	u := t.union
	var names []string
	for _, a := range u.alts {
		names = append(names, jenString(g.altExpr(a.typ)))
	}
	text := strings.TrimSpace(t.doc)
	lead := t.name + " is " + t.what
	if text != "" {
		lead += ": " + text
	}
	if !strings.HasSuffix(lead, ".") {
		lead += "."
	}
	how := "oneOf: exactly one matches"
	if u.kind == spec.AnyOf {
		how = "anyOf: decoding takes the first that matches"
	}
	text = lead + "\n\nIt holds one of its alternatives: " + strings.Join(names, ", ") + " (" + how + ")." +
		" Read it with a type switch; nil is null or absent."
	methods := []jen.Code{jen.Id(u.marker).Params()}
	for _, o := range outerUnions(t) {
		methods = append(methods, jen.Id(o.union.marker).Params())
	}
	// The directive line marks a sealed sum type for go-sumtype and
	// gochecksumtype, which check that type switches are exhaustive.
	out := []jen.Code{topComment(text).Line().Comment("//").Line().Comment("//sumtype:decl").Line().
		Add(jen.Type().Id(t.name).Interface(methods...)), jen.Line()}
	// The marker methods of this union (and of the unions it is in) on
	// every leaf alternative.
	markers := append([]*goType{t}, outerUnions(t)...)
	for _, leaf := range leaves(t) {
		recv := jen.Id(leaf.name)
		if leaf.kind == kStruct {
			recv = jen.Op("*").Id(leaf.name)
		}
		if leafDirect(t, leaf) {
			for _, m := range markers {
				out = append(out, jen.Func().Params(recv.Clone()).Id(m.union.marker).Params().Block(), jen.Line())
			}
		}
	}
	if t.decode {
		out = append(out, g.unionDecode(t)...)
		out = append(out, g.unionValidate(t)...)
	}
	return out
}

// leafDirect reports whether leaf is a direct alternative of t: its
// markers are declared with t (a nested union declares its own leaves').
func leafDirect(t, leaf *goType) bool {
	for _, a := range t.union.alts {
		if a.typ == leaf {
			return true
		}
	}
	return false
}

func jenString(c *jen.Statement) string { return strings.TrimSpace(c.GoString()) }

// labelsOf are the labels of alternatives, in order.
func labelsOf(alts []*unionAlt) []string {
	var out []string
	for _, a := range alts {
		out = append(out, a.label)
	}
	return out
}

// unionWant names what a union takes, for the message of a value of no
// alternative's JSON type: "Card (object) or string".
func unionWant(t *goType) string {
	var parts []string
	for _, a := range t.union.alts {
		var ks []string
		for _, k := range a.kinds {
			ks = append(ks, kindWord[k])
		}
		kw := strings.Join(ks, " or ")
		if a.label == kw || strings.HasPrefix(a.label, kw+" ") || a.typ.kind == kUnion || len(ks) == 0 || kw == "number" && strings.HasPrefix(a.label, "integer") {
			parts = append(parts, a.label)
		} else {
			parts = append(parts, a.label+" ("+kw+")")
		}
	}
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return "one of " + strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// unionDecode is the decode<Name> function.
func (g *generator) unionDecode(t *goType) []jen.Code {
	u := t.union
	fn := "decode" + t.name
	var body []jen.Code
	if u.disc != nil {
		body = g.discriminated(t)
	} else {
		// Alternatives by JSON type.
		groups := map[jsonKind][]*unionAlt{}
		var order []jsonKind
		for _, a := range u.alts {
			for _, k := range a.kinds {
				if _, ok := groups[k]; !ok {
					order = append(order, k)
				}
				groups[k] = append(groups[k], a)
			}
		}
		sort.SliceStable(order, func(i, j int) bool { return order[i] < order[j] })
		var cases []jen.Code
		for _, k := range order {
			cases = append(cases, jen.Case(jen.Qual(wirePkg, kindConst[k])).Block(g.decodeGroup(t, groups[k])...))
		}
		cases = append(cases, jen.Default().Block(jen.Id("d").Dot("NoAlternative").Call(jen.Lit(unionWant(t)))))
		body = []jen.Code{jen.Switch(jen.Id("d").Dot("Kind").Call()).Block(cases...), jen.Return(jen.Nil())}
	}
	doc := fn + " reads a value of the union " + t.name + " from d"
	switch {
	case u.disc != nil:
		doc += ", choosing the alternative by the property " + strconv.Quote(u.disc.Property) + " (peeked, not decoded twice)"
	default:
		doc += ", choosing the alternative by the JSON type of the value"
		if g.hasTrial(t) {
			doc += " and trying alternatives of the same type in order (" + map[spec.UnionKind]string{spec.OneOf: "exactly one must match", spec.AnyOf: "the first that matches wins"}[u.kind] + ")"
		}
	}
	doc += "; nil when none takes it (the violation is recorded in d)."
	return []jen.Code{
		comment(doc),
		jen.Func().Id(fn).Params(jen.Id("d").Op("*").Qual(wirePkg, "Decoder")).Id(t.name).Block(body...),
		jen.Line(),
	}
}

func (g *generator) hasTrial(t *goType) bool {
	count := map[jsonKind]int{}
	for _, a := range t.union.alts {
		for _, k := range a.kinds {
			count[k]++
			if count[k] > 1 {
				return true
			}
		}
	}
	return false
}

// altRead decodes a value of alternative a into the local v: the
// statements, and the expression of the value read, valid when ok (an
// expression true when the read produced a value; nil when it always does
// or the decoder records why not).
func (g *generator) altRead(a *unionAlt, v string) (read []jen.Code, val, ok jen.Code) {
	at := a.typ
	switch at.kind {
	case kStruct:
		return []jen.Code{jen.Id(v).Op(":=").New(jen.Id(at.name)), jen.Id(v).Dot("decode").Call(jen.Id("d"))}, jen.Id(v), nil
	case kUnion:
		return []jen.Code{jen.Id(v).Op(":=").Id("decode" + at.name).Call(jen.Id("d"))}, jen.Id(v), jen.Id(v).Op("!=").Nil()
	}
	// Scalars, enums, slices, maps: read into a pointer to the
	// alternative's type, set only when the value was read.
	read = []jen.Code{jen.Var().Id(v).Op("*").Id(at.name)}
	read = append(read, g.decodeInto(at, func() *jen.Statement { return jen.Id(v) }, true, 1)...)
	return read, jen.Op("*").Id(v), jen.Id(v).Op("!=").Nil()
}

// decodeGroup decodes the alternatives that take one JSON type: the one,
// or each in turn in a wire.Trial.
func (g *generator) decodeGroup(t *goType, alts []*unionAlt) []jen.Code {
	if len(alts) == 1 {
		read, val, ok := g.altRead(alts[0], "v")
		if ok == nil {
			return append(read, jen.Return(val))
		}
		return append(read, jen.If(ok).Block(jen.Return(val)))
	}
	out := []jen.Code{
		jen.Var().Id("v").Id(t.name),
		jen.Var().Id("t").Qual(wirePkg, "Trial"),
		jen.Id("t").Dot("Begin").Call(jen.Id("d"), jen.Lit(t.union.kind == spec.OneOf)),
	}
	var labels []jen.Code
	for i, a := range alts {
		read, val, ok := g.altRead(a, "a"+strconv.Itoa(i))
		cond := jen.Id("t").Dot("Matched").Call(jen.Id("d"))
		if ok != nil {
			cond = cond.Op("&&").Add(ok)
		}
		read = append(read, jen.If(cond).Block(jen.Id("v").Op("=").Add(val)))
		out = append(out, jen.If(jen.Id("t").Dot("Next").Call(jen.Id("d"))).Block(read...))
		labels = append(labels, jen.Lit(a.label))
	}
	return append(out, jen.Id("t").Dot("End").Call(jen.Id("d"), jen.Index().String().Values(labels...)), jen.Return(jen.Id("v")))
}

// discriminated is the body of the decoder of a discriminated union.
func (g *generator) discriminated(t *goType) []jen.Code {
	u := t.union
	prop := u.disc.Property
	var cases []jen.Code
	var values []jen.Code
	for _, a := range u.alts {
		read, val, _ := g.altRead(a, "v") // a struct: always a value
		cases = append(cases, jen.Case(jen.Lit(a.value)).Block(append(read, jen.Return(val))...))
		values = append(values, jen.Lit(a.value))
	}
	cases = append(cases, jen.Default().Block(
		jen.Id("d").Dot("NoDiscriminator").Call(jen.Lit(prop), jen.Index().String().Values(values...), jen.Lit(unionWant(t)))))
	return []jen.Code{
		jen.List(jen.Id("k"), jen.Id("_")).Op(":=").Id("d").Dot("Discriminator").Call(jen.Lit(prop)),
		jen.Switch(jen.String().Parens(jen.Id("k"))).Block(cases...),
		jen.Return(jen.Nil()),
	}
}

// unionValidate is the validate<Name> function: the checks of the
// alternative a value built in Go holds.
func (g *generator) unionValidate(t *goType) []jen.Code {
	fn := "validate" + t.name
	var cases []jen.Code
	used := false // whether a case reads v
	for _, a := range t.union.alts {
		at := a.typ
		v := func() *jen.Statement { return jen.Id("v") }
		var check []jen.Code
		switch at.kind {
		case kStruct:
			check = []jen.Code{jen.If(v().Op("==").Nil()).Block(
				jen.Id("c").Dot("Add").Call(jen.Lit("must be " + a.label + ", got a nil *" + at.name)),
			).Else().Block(v().Dot("validate").Call(jen.Id("c")))}
		case kUnion:
			check = []jen.Code{jen.Id("validate"+at.name).Call(jen.Id("c"), v())}
		default:
			check = g.validateValue(at, v, false, 1)
		}
		if len(check) > 0 {
			used = true
		}
		cases = append(cases, jen.Case(g.altExpr(at)).Block(check...))
	}
	sw := jen.Id("v").Op(":=").Id("v").Assert(jen.Type())
	if !used {
		sw = jen.Id("v").Assert(jen.Type())
	}
	return []jen.Code{
		comment(fn + " records the violations of the alternative v holds in c (nil holds none: whether it may be nil is the caller's check)."),
		jen.Func().Id(fn).Params(jen.Id("c").Op("*").Qual(wirePkg, "Checker"), jen.Id("v").Id(t.name)).Block(
			jen.Switch(sw).Block(cases...),
		),
		jen.Line(),
	}
}

// unionSchemaValue is the JSON Schema of a union: its alternatives under
// oneOf or anyOf, {"type":"null"} for a nullable one. The discriminator is
// not published: the const of each alternative's property already tells a
// model (and any JSON Schema validator) which value selects it, and
// `discriminator` is OpenAPI's keyword, not JSON Schema's — Gemini's and
// OpenAI's strict schemas would refuse or drop it.
func (l *literal) unionSchemaValue(site, r *spec.Schema) map[string]any {
	var alts []any
	for _, a := range r.Union.Alts {
		alts = append(alts, l.value(a, false))
	}
	if site.Nullable || r.Nullable {
		alts = append(alts, map[string]any{"type": "null"})
	}
	m := map[string]any{string(r.Union.Kind): alts}
	desc := site.Description
	if desc == "" {
		desc = r.Description
	}
	if desc != "" {
		m["description"] = desc
	}
	return m
}

// catalogUnion names the type of a union for the catalog: "one of
// `Card`, string or null".
func catalogUnion(r *spec.Schema, nullable bool) string {
	var parts []string
	for _, a := range r.Union.Alts {
		switch ar := a.Resolved(); {
		case a.Ref == "" && ar.Union != nil:
			parts = append(parts, "("+catalogUnion(ar, a.Nullable)+")")
		case a.Ref == "":
			parts = append(parts, altLabel(a))
		default:
			parts = append(parts, catalogTypeOf(a))
		}
	}
	if nullable {
		parts = append(parts, "null")
	}
	how := "one of "
	if r.Union.Kind == spec.AnyOf {
		how = "any of "
	}
	if len(parts) == 1 {
		return how + parts[0]
	}
	return how + strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// catalogUnionConstraints says how a union decides, for the catalog.
func catalogUnionConstraints(r *spec.Schema) string {
	u := r.Union
	if d := u.Discriminator; d != nil {
		var vals []string
		for i, a := range u.Alts {
			if i < len(d.Values) {
				vals = append(vals, catalogCode(strconv.Quote(d.Values[i]))+" → "+catalogTypeOf(a))
			}
		}
		return "chosen by " + catalogCode(d.Property) + ": " + strings.Join(vals, ", ")
	}
	how := "the first alternative that matches"
	if u.Kind == spec.OneOf {
		how = "exactly one alternative matches"
	}
	// The constraints of inline scalar and array alternatives (objects
	// have rows of their own, named types sections).
	for _, a := range u.Alts {
		if ar := a.Resolved(); a.Ref == "" && ar.Union == nil && ar.Type != spec.TypeObject {
			if c := catalogConstraints(a); c != "" {
				how += "; " + altLabel(a) + ": " + c
			}
		}
	}
	return how
}

// catalogUnionRows are the rows of the properties of a union's inline
// object alternatives ("amount.cents"), each alternative's in turn.
func catalogUnionRows(s *spec.Schema, name string) []catalogRow {
	var rows []catalogRow
	for _, a := range s.Union.Alts {
		switch {
		case a.Ref != "":
		case a.Union != nil:
			rows = append(rows, catalogUnionRows(a, name)...)
		case a.Type == spec.TypeObject:
			rows = append(rows, catalogRows(a, name+".")...)
		}
	}
	return rows
}
