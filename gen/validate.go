package gen

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/runtime/wire"
)

// The validators: per value with constraints a check function, shared by
// the decoder (which calls it as each value is read) and by the Validate
// methods (which walk a value built in Go); per struct a validate method
// and the exported Validate.

// formatFunc is the wire checker of each format.
var formatFunc = map[string]string{
	"date-time": "IsDateTime",
	"date":      "IsDate",
	"email":     "IsEmail",
	"uri":       "IsURI",
	"uuid":      "IsUUID",
}

// validateDoc is the doc comment of a struct's Validate method.
const validateDoc = "Validate checks the constraints of x, for values built in Go (decoding checks them already). It reports every violation, each with its JSON path, in a *runtime.ValidationError."

// validateMethods are a struct's Validate and validate methods.
func (g *generator) validateMethods(t *goType) []jen.Code {
	if t.kind != kStruct {
		return nil
	}
	if !g.jen && g.tabled(t) && len(depthGuard(t)) == 0 && len(constCheck(t, jen.Id("x"))) == 0 {
		return g.rawTableValidate(t)
	}
	c := func() *jen.Statement { return jen.Id("c") }
	var body []jen.Code
	fields := t.fields
	if g.tabled(t) { // table.go: one call checks them all
		body, fields = tableValidate(t), nil
	}
	for _, f := range fields {
		fx := func() *jen.Statement { return jen.Id("x").Dot(f.name) }
		canBeNil := f.ptr || f.typ.kind == kSlice || f.typ.kind == kMap || f.typ.kind == kUnion
		if f.required && !f.nullable && canBeNil {
			body = append(body, jen.If(fx().Op("==").Nil()).Block(c().Dot("Missing").Call(jen.Lit(f.json))))
		}
		if at := g.checkAt(f, fx); at != nil {
			body = append(body, at) // one check function: one line
			continue
		}
		if at := g.checkNested(f, fx); at != nil {
			body = append(body, at)
			continue
		}
		check := g.validateValue(f.typ, fx, f.ptr, 0)
		if len(check) == 0 {
			continue
		}
		inner := append([]jen.Code{c().Dot("Enter").Call(jen.Lit(f.json))}, check...)
		inner = append(inner, c().Dot("Leave").Call())
		if canBeNil {
			body = append(body, jen.If(fx().Op("!=").Nil()).Block(inner...))
		} else {
			body = append(body, inner...)
		}
	}
	body = append(depthGuard(t), body...)
	if t.extra != nil {
		ex := func() *jen.Statement { return jen.Id("x").Dot(t.extraName) }
		val := func() *jen.Statement { return ex().Index(jen.Id("k")) }
		loop := []jen.Code{c().Dot("Enter").Call(jen.Id("k"))}
		if t.extra.kind == kStruct && !t.extraPtr {
			// A map value is not addressable: validate a copy.
			loop = append(loop, jen.Id("e").Op(":=").Add(val()))
			val = func() *jen.Statement { return jen.Id("e") }
		}
		if check := g.validateValue(t.extra, val, t.extraPtr, 1); len(check) > 0 {
			if t.extraPtr {
				check = []jen.Code{jen.If(val().Op("!=").Nil()).Block(check...)}
			}
			loop = append(loop, check...)
			loop = append(loop, c().Dot("Leave").Call())
			body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Qual("slices", "Sorted").Call(
				jen.Qual("maps", "Keys").Call(ex()))).Block(loop...))
		}
	}
	body = append(body, constCheck(t, jen.Id("x"))...)
	// Validate is written out rather than a generic wire call: one
	// instantiation per struct would be one more function to compile.
	validateBody := []jen.Code{
		jen.If(jen.Id("x").Op("==").Nil()).Block(jen.Return(jen.Qual(wirePkg, "NilObject").Call())),
		jen.Var().Id("c").Qual(wirePkg, "Checker"),
		jen.Id("x").Dot("validate").Call(jen.Op("&").Id("c")),
		jen.Return(jen.Id("c").Dot("Err").Call()),
	}
	if g.tabled(t) {
		validateBody = tableValidateBody(t) // table.go: wire.ValidateObject
	}
	validate := []jen.Code{
		comment(validateDoc),
		jen.Func().Params(jen.Id("x").Op("*").Id(t.name)).Id("Validate").Params().Error().Block(validateBody...),
		jen.Line(),
	}
	if t.root && g.tabled(t) {
		// Only Validate checks a tool's argument struct: no validate
		// method.
		return validate
	}
	return append(validate,
		comment("validate records the violations of x in c."),
		jen.Func().Params(jen.Id("x").Op("*").Id(t.name)).Id("validate").Params(jen.Id("c").Op("*").Qual(wirePkg, "Checker")).Block(body...),
		jen.Line(),
	)
}

// checkAt is the validation of field f as one call, when it is one check
// function on a value that needs no conversion:
// wire.CheckAt(c, "limit", x.Limit, limitRules.CheckInt), or wire.CheckPtr for an
// optional field held as a pointer. nil otherwise.
func (g *generator) checkAt(f *field, fx func() *jen.Statement) jen.Code {
	t := f.typ
	switch {
	case t.check == "":
		return nil
	case t.kind == kEnum:
	case t.kind == kString || t.kind == kInt || t.kind == kFloat || t.kind == kBool:
		if t.name != "" {
			return nil // a named scalar is converted first
		}
	default:
		return nil
	}
	check := jen.Id(t.check)
	switch t.kind {
	case kInt:
		check = jen.Id(t.check).Dot("CheckInt") // a wire.NumberRules value
	case kFloat:
		return nil // CheckFloat also takes the JSON text
	}
	fn := "CheckAt"
	if f.ptr {
		fn = "CheckPtr"
	}
	return jen.Qual(wirePkg, fn).Call(jen.Id("c"), jen.Lit(f.json), fx(), check)
}

// checkNested is the validation of field f as one call when it is an
// object or an array of scalars or objects:
// wire.CheckObject(c, "created", x.Created, (*Created).validate),
// wire.CheckSlice(c, "tags", x.Tags, checkTags, checkTag) or
// wire.CheckObjects(c, "items", x.Items, checkItems, (*Item).validate),
// or of the values of a map: wire.CheckMap(c, "metadata", x.Metadata,
// checkMetadataValue).
// nil otherwise (and when f has nothing to check).
func (g *generator) checkNested(f *field, fx func() *jen.Statement) jen.Code {
	t := f.typ
	if !needsValidate(t) {
		return nil
	}
	orNil := func(check string) jen.Code {
		if check == "" {
			return jen.Nil()
		}
		return jen.Id(check)
	}
	switch t.kind {
	case kStruct:
		v := fx()
		if !f.ptr {
			v = jen.Op("&").Add(v)
		}
		return jen.Qual(wirePkg, "CheckObject").Call(jen.Id("c"), jen.Lit(f.json), v, jen.Parens(jen.Op("*").Id(t.name)).Dot("validate"))
	case kSlice:
		e := t.elem
		if f.ptr || t.elemPtr || uniqueBySpans(t) {
			return nil
		}
		switch e.kind {
		case kStruct:
			return jen.Qual(wirePkg, "CheckObjects").Call(jen.Id("c"), jen.Lit(f.json), fx(), orNil(t.check), jen.Parens(jen.Op("*").Id(e.name)).Dot("validate"))
		case kString, kBool, kEnum, kInt:
			if e.name != "" && !e.alias && e.kind != kEnum {
				return nil // a named scalar is converted first
			}
			item := orNil(e.check)
			if e.kind == kInt && e.check != "" {
				item = jen.Id(e.check).Dot("CheckInt") // a wire.NumberRules value
			}
			return jen.Qual(wirePkg, "CheckSlice").Call(jen.Id("c"), jen.Lit(f.json), fx(), orNil(t.check), item)
		}
	case kMap:
		e := t.elem
		if f.ptr || t.elemPtr || e.check == "" && e.kind != kStruct {
			return nil
		}
		switch e.kind {
		case kStruct:
			return jen.Qual(wirePkg, "CheckObjectMap").Call(jen.Id("c"), jen.Lit(f.json), fx(), jen.Parens(jen.Op("*").Id(e.name)).Dot("validate"))
		case kString, kBool, kEnum, kInt:
			if e.name != "" && !e.alias && e.kind != kEnum {
				return nil // a named scalar is converted first
			}
			check := jen.Id(e.check)
			if e.kind == kInt {
				check = jen.Id(e.check).Dot("CheckInt") // a wire.NumberRules value
			}
			return jen.Qual(wirePkg, "CheckMap").Call(jen.Id("c"), jen.Lit(f.json), fx(), check)
		}
	}
	return nil
}

// needsValidate reports whether values of t can violate anything.
func needsValidate(t *goType) bool {
	switch t.kind {
	case kStruct, kUnion:
		return true
	case kSlice, kMap:
		return t.check != "" || t.constVar != "" || uniqueBySpans(t) || needsValidate(t.elem)
	}
	return t.check != ""
}

// uniqueBySpans reports whether the uniqueItems of the array t compares
// the items' JSON text (wire.Unique when decoding, wire.DuplicateJSON in
// Validate) rather than the decoded values: objects, arrays, times and
// nullable items, whose Go values do not tell apart what JSON does (null
// and absent, "Z" and "z").
func uniqueBySpans(t *goType) bool {
	return t.kind == kSlice && t.schema.UniqueItems && (t.elemPtr || !comparable(t.elem))
}

// uniqueCheck is the uniqueItems check of the slice v with wire.<dup>.
func uniqueCheck(dup string, v jen.Code) jen.Code {
	return jen.If(jen.List(jen.Id("i"), jen.Id("j"), jen.Id("dup")).Op(":=").Qual(wirePkg, dup).Call(v), jen.Id("dup")).Block(
		jen.Id("c").Dot("Add").Call(jen.Qual(wirePkg, "UniqueMessage").Call(jen.Id("i"), jen.Id("j"))))
}

// validateValue checks the value expr of type t (a pointer when ptr, known
// not to be nil) with c at its path.
func (g *generator) validateValue(t *goType, expr func() *jen.Statement, ptr bool, lvl int) []jen.Code {
	if !needsValidate(t) {
		return nil
	}
	if t.kind == kUnion { // an interface, never behind a pointer
		return []jen.Code{jen.Id("validate"+t.name).Call(jen.Id("c"), expr())}
	}
	val, base := expr, expr // base is what an index applies to
	if ptr && t.kind != kStruct {
		val = func() *jen.Statement { return jen.Op("*").Add(expr()) }
		base = func() *jen.Statement { return jen.Parens(val()) } // (*p)[i]
	}
	switch t.kind {
	case kStruct:
		return []jen.Code{expr().Dot("validate").Call(jen.Id("c"))}
	case kString, kInt, kFloat, kBool:
		arg := val()
		if t.name != "" {
			arg = g.underlying(t).Parens(val())
		}
		if t.kind == kInt || t.kind == kFloat {
			return []jen.Code{numberCheck(t, jen.Id("c"), arg, jen.Nil())}
		}
		return []jen.Code{jen.Id(t.check).Call(jen.Id("c"), arg)}
	case kEnum:
		return []jen.Code{jen.Id(t.check).Call(jen.Id("c"), val())}
	case kSlice:
		out := constCheck(t, val())
		if t.check != "" {
			out = append(out, jen.Id(t.check).Call(jen.Id("c"), val()))
		}
		if uniqueBySpans(t) {
			// Decoding compares the items as sent; a value built in Go
			// compares their JSON encodings.
			out = append(out, uniqueCheck("DuplicateJSON", val()))
		}
		i := "i" + suffix(lvl)
		item := func() *jen.Statement { return base().Index(jen.Id(i)) }
		if check := g.validateValue(t.elem, item, t.elemPtr, lvl+1); len(check) > 0 {
			if t.elemPtr {
				check = []jen.Code{jen.If(item().Op("!=").Nil()).Block(check...)}
			}
			loop := append([]jen.Code{jen.Id("c").Dot("EnterIndex").Call(jen.Id(i))}, check...)
			loop = append(loop, jen.Id("c").Dot("Leave").Call())
			out = append(out, jen.For(jen.Id(i).Op(":=").Range().Add(val())).Block(loop...))
		}
		return out
	case kMap:
		if !needsValidate(t.elem) {
			return constCheck(t, val())
		}
		k := "k" + suffix(lvl)
		item := func() *jen.Statement { return base().Index(jen.Id(k)) }
		loop := []jen.Code{jen.Id("c").Dot("Enter").Call(jen.Id(k))}
		if t.elem.kind == kStruct && !t.elemPtr {
			// A map value is not addressable: validate a copy.
			e := "e" + suffix(lvl)
			loop = append(loop, jen.Id(e).Op(":=").Add(item()))
			item = func() *jen.Statement { return jen.Id(e) }
		}
		check := g.validateValue(t.elem, item, t.elemPtr, lvl+1)
		if t.elemPtr {
			check = []jen.Code{jen.If(item().Op("!=").Nil()).Block(check...)}
		}
		loop = append(loop, check...)
		loop = append(loop, jen.Id("c").Dot("Leave").Call())
		return append(constCheck(t, val()), jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Qual("slices", "Sorted").Call(
			jen.Qual("maps", "Keys").Call(val()))).Block(loop...))
	}
	return nil
}

// checkFunc is the check function of a value with constraints of its own.
func (g *generator) checkFunc(t *goType) []jen.Code {
	if t.kind == kInt || t.kind == kFloat {
		return g.numberRules(t)
	}
	s := t.schema
	var param jen.Code
	switch t.kind {
	case kEnum:
		param = jen.Id(t.name)
	case kSlice:
		param = jen.Index().Add(g.elemExpr(t))
	default:
		param = g.underlying(t)
	}
	var body []jen.Code
	add := func(msg jen.Code) jen.Code { return jen.Id("c").Dot("Add").Call(msg) }
	v := func() *jen.Statement { return jen.Id("v") }
	var pre []jen.Code
	switch t.kind {
	case kEnum:
		var vals []string
		for _, e := range t.enum {
			vals = append(vals, strconv.Quote(e.value))
		}
		body = append(body, jen.If(jen.Op("!").Id("v").Dot("Valid").Call()).Block(
			add(jen.Lit("must be one of "+strings.Join(vals, ", ")+", got ").Op("+").Qual(wirePkg, "Quote").Call(jen.String().Parens(v())))))
		body = append(body, g.stringChecks(t, func() *jen.Statement { return jen.String().Parens(v()) })...)
	case kString:
		if s.Trim {
			// Decoding trims v before this check; a value built in Go is
			// reported when it is not trimmed, and checked as decoding
			// would leave it.
			body = append(body, jen.If(jen.Id("t").Op(":=").Qual("strings", "TrimSpace").Call(v()), jen.Id("t").Op("!=").Add(v())).Block(
				add(jen.Lit("must not begin or end with white space (decoding trims it), got ").Op("+").Qual(wirePkg, "Quote").Call(v())),
				v().Op("=").Id("t"),
			))
		}
		body = append(body, g.stringChecks(t, v)...)
		if s.HasConst {
			str, _ := s.Const.(string)
			body = append(body, jen.If(v().Op("!=").Lit(str)).Block(
				add(jen.Lit("must be "+strconv.Quote(str)+", got ").Op("+").Qual(wirePkg, "Quote").Call(v()))))
		}
	case kBool:
		if b, ok := s.Const.(bool); ok && s.HasConst {
			body = append(body, jen.If(v().Op("!=").Lit(b)).Block(
				add(jen.Lit("must be "+strconv.FormatBool(b)+", got "+strconv.FormatBool(!b)))))
		}
	case kSlice:
		if s.MinItems != nil {
			body = append(body, jen.If(jen.Len(v()).Op("<").Lit(*s.MinItems)).Block(
				add(jen.Qual(wirePkg, "MinItemsMessage").Call(jen.Lit(*s.MinItems), jen.Len(v())))))
		}
		if s.MaxItems != nil {
			body = append(body, jen.If(jen.Len(v()).Op(">").Lit(*s.MaxItems)).Block(
				add(jen.Qual(wirePkg, "MaxItemsMessage").Call(jen.Lit(*s.MaxItems), jen.Len(v())))))
		}
		if s.UniqueItems && !uniqueBySpans(t) {
			body = append(body, uniqueCheck("Duplicate", v()))
		}
	}
	body = append(pre, body...)
	var out []jen.Code
	if s.Pattern != "" {
		out = append(out,
			comment(patternVar(t)+" is the pattern of "+t.check[len("check"):]+" (compiled once; a *wire.Pattern is safe for concurrent use)."),
			jen.Var().Id(patternVar(t)).Op("=").Qual(wirePkg, "MustPattern").Call(jen.Lit(s.Pattern)),
			jen.Line())
	}
	doc := t.check + " records the violations of the constraints of v in c."
	if g.checkUses[t.check] > 1 {
		doc += " Every schema with these constraints shares it."
	}
	if t.kind == kString && s.Trim {
		doc += " Decoding trims v (trim: true) before this check; a value built in Go with white space at either end is reported, then checked trimmed."
	}
	out = append(out,
		comment(doc),
		jen.Func().Id(t.check).Params(jen.Id("c").Op("*").Qual(wirePkg, "Checker"), jen.Id("v").Add(param)).Block(body...),
		jen.Line())
	return out
}

// comparable reports whether values of t compare correctly with ==.
func comparable(t *goType) bool {
	switch t.kind {
	case kString, kEnum, kInt, kFloat, kBool:
		return true
	}
	return false
}

// stringChecks checks length, pattern and format of the string str().
func (g *generator) stringChecks(t *goType, str func() *jen.Statement) []jen.Code {
	s := t.schema
	var out []jen.Code
	add := func(msg jen.Code) jen.Code { return jen.Id("c").Dot("Add").Call(msg) }
	if s.MinLength != nil || s.MaxLength != nil {
		out = append(out, jen.Id("n").Op(":=").Qual("unicode/utf8", "RuneCountInString").Call(str()))
		chars := func(n int) string {
			if n == 1 {
				return "1 character"
			}
			return strconv.Itoa(n) + " characters"
		}
		got := func() jen.Code { return jen.Qual("strconv", "Itoa").Call(jen.Id("n")) }
		// A trimmed length says so: "got 0" for "   " would puzzle the model.
		long := " long, got "
		if s.Trim {
			long = " long after trimming white space, got "
		}
		if s.MinLength != nil {
			out = append(out, jen.If(jen.Id("n").Op("<").Lit(*s.MinLength)).Block(
				add(jen.Lit("must be at least "+chars(*s.MinLength)+long).Op("+").Add(got()))))
		}
		if s.MaxLength != nil {
			out = append(out, jen.If(jen.Id("n").Op(">").Lit(*s.MaxLength)).Block(
				add(jen.Lit("must be at most "+chars(*s.MaxLength)+long).Op("+").Add(got()))))
		}
	}
	if s.Pattern != "" {
		out = append(out, jen.If(jen.Op("!").Id(patternVar(t)).Dot("MatchString").Call(str())).Block(
			add(jen.Lit("must match the pattern "+strconv.Quote(s.Pattern)+", got ").Op("+").Qual(wirePkg, "Quote").Call(str()))))
	}
	if fn, ok := formatFunc[s.Format]; ok {
		out = append(out, jen.If(jen.Op("!").Qual(wirePkg, fn).Call(str())).Block(
			add(jen.Lit(wire.FormatMessage(s.Format)+", got ").Op("+").Qual(wirePkg, "Quote").Call(str()))))
	}
	return out
}

// numberRules declares the NumberRules of an integer or number: the one
// value both the decoder and Validate check it with.
func (g *generator) numberRules(t *goType) []jen.Code {
	s := t.schema
	fields := jen.Dict{}
	var line []jen.Code // the same, on one line when there is no enum
	dec := func(d *wire.Decimal) jen.Code { return jen.Qual(wirePkg, "Dec").Call(jen.Lit(d.String())) }
	set := func(key string, d *wire.Decimal) {
		if d != nil {
			fields[jen.Id(key)] = dec(d)
			line = append(line, jen.Id(key).Op(":").Add(dec(d)))
		}
	}
	r := s.NumberRules()
	set("Minimum", r.Minimum)
	set("ExclusiveMinimum", r.ExclusiveMinimum)
	set("Maximum", r.Maximum)
	set("ExclusiveMaximum", r.ExclusiveMaximum)
	set("MultipleOf", r.MultipleOf)
	if len(r.Enum) > 0 {
		var vals []jen.Code
		for _, e := range r.Enum {
			vals = append(vals, dec(e))
		}
		fields[jen.Id("Enum")] = jen.Index().Op("*").Qual(wirePkg, "Decimal").Values(vals...)
	}
	values := jen.Values(line...)
	if len(r.Enum) > 0 {
		values = jen.Values(fields)
	}
	doc := t.check + " are the numeric constraints of " + t.where + ", checked exactly by decoding and by Validate."
	if g.checkUses[t.check] > 1 {
		doc += " Every schema with these constraints shares them."
	}
	return []jen.Code{
		comment(doc),
		jen.Var().Id(t.check).Op("=").Qual(wirePkg, "NumberRules").Add(values),
		jen.Line(),
	}
}

// numberCheck checks the number v (of kind kInt or kFloat) with t's rules
// in the checker c; tok is its JSON text (nil for a value built in Go).
func numberCheck(t *goType, c, v, tok jen.Code) jen.Code {
	if t.kind == kInt {
		return jen.Id(t.check).Dot("CheckInt").Call(c, v)
	}
	return jen.Id(t.check).Dot("CheckFloat").Call(c, v, tok)
}

// numLit is an untyped constant for f, written as an integer when asked.
func numLit(f float64, integer bool) *jen.Statement {
	if integer {
		return jen.Op(strconv.FormatInt(int64(f), 10))
	}
	return jen.Op(strconv.FormatFloat(f, 'g', -1, 64))
}

// toFloat converts a spec number (int64 or float64) to float64.
func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}
