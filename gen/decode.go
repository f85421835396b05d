package gen

import (
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/runtime/wire"
)

// The decoders: per struct an unexported decode method that reads the
// struct from a wire.Decoder in one pass, checking each value as it is
// read, and per tool the exported Decode<Tool>Args entry point.

// dRef is the decoder inside decode methods.
func dRef() *jen.Statement { return jen.Id("d") }

// checker is the *wire.Checker inside decode methods.
func checker() *jen.Statement { return jen.Op("&").Id("d").Dot("Checker") }

// defaultsNote is the sentence of a decoder's doc comment about defaults,
// when t has fields with defaults at any depth; "" otherwise.
func defaultsNote(t *goType) string {
	seen := map[*goType]bool{}
	var has func(t *goType) bool
	has = func(t *goType) bool {
		if t == nil || seen[t] {
			return false
		}
		seen[t] = true
		for _, f := range t.fields {
			if f.hasDef || has(f.typ) {
				return true
			}
		}
		return has(t.elem) || has(t.extra)
	}
	if !has(t) {
		return ""
	}
	return " Absent optional arguments take their defaults."
}

// decodeEntry is the exported Decode<Tool>Args function.
// decodeEntryDoc is the doc comment of t's Decode<Tool>Args function.
func decodeEntryDoc(t *toolIR) string {
	return "Decode" + t.args.name + " decodes and validates the JSON arguments of the " + t.tool.Name + " tool in one pass." +
		defaultsNote(t.args) + " It reports every violation, each with its JSON path, in a" +
		" *runtime.ValidationError, and returns the value as far as it could decode it even then (never nil)."
}

func (g *generator) decodeEntry(t *toolIR) []jen.Code {
	if !g.jen {
		return []jen.Code{g.rawDecodeEntry(t)}
	}
	name := t.args.name
	fn := "Decode" + name
	return []jen.Code{
		comment(decodeEntryDoc(t)),
		jen.Func().Id(fn).Params(jen.Id("data").Index().Byte()).Params(jen.Op("*").Id(name), jen.Error()).Block(
			decodeEntryBody(t)..., // module.go
		),
		jen.Line(),
	}
}

// decodeMethods is the decode method of a named type: a struct's member
// loop, or the read of a named non-struct type.
func (g *generator) decodeMethods(t *goType) []jen.Code {
	recv := jen.Id("x").Op("*").Id(t.name)
	param := jen.Id("d").Op("*").Qual(wirePkg, "Decoder")
	if t.kind != kStruct {
		return nil // other named types are read inline where they are used
	}
	if g.tabled(t) { // table.go
		if !g.jen {
			out := []jen.Code{g.rawTable(t)}
			if t.root {
				return out
			}
			if d := g.rawTableDecode(t); d != nil {
				return append(out, d)
			}
			return append(out, g.tableDecode(t)...)
		}
		return append(g.tableDecl(t), g.tableDecode(t)...)
	}
	var body []jen.Code
	if t.constVar != "" {
		body = append(body, jen.Id("cs").Op(":=").Id(t.constVar).Dot("Start").Call(jen.Id("d")),
			jen.Defer().Id(t.constVar).Dot("Check").Call(jen.Id("d"), jen.Id("cs")))
	}
	body = append(body, jen.If(jen.Op("!").Id("d").Dot("BeginObject").Call()).Block(jen.Return()))
	var has []jen.Code
	for _, f := range t.fields {
		has = append(has, jen.Id("has"+f.name))
	}
	if len(has) > 0 {
		body = append(body, jen.Var().List(has...).Bool())
	}
	var cases []jen.Code
	for _, f := range t.fields {
		hasVar := "has" + f.name
		if read := g.fieldRead(f); read != nil {
			cases = append(cases, jen.Case(jen.Lit(f.json)).Block(read))
			continue
		}
		target := func() *jen.Statement { return jen.Id("x").Dot(f.name) }
		read := g.decodeInto(f.typ, target, f.ptr, 0)
		if f.nullable {
			read = []jen.Code{jen.If(jen.Op("!").Id("d").Dot("Null").Call()).Block(read...)}
		}
		// Field skips a duplicate and steps in; OptionalField also gives a
		// null the hint to leave it out (and reads it as absent in
		// NullAsAbsent mode).
		enter := "Field"
		if !f.required && !f.nullable {
			enter = "OptionalField"
		}
		block := append(read, jen.Id("d").Dot("Leave").Call())
		cases = append(cases, jen.Case(jen.Lit(f.json)).Block(
			jen.If(jen.Id("d").Dot(enter).Call(jen.Op("&").Id(hasVar), jen.Lit(f.json))).Block(block...)))
	}
	cases = append(cases, jen.Default().Block(g.decodeExtra(t)...))
	if len(t.fields) == 0 {
		body = append(body, jen.For(jen.Id("d").Dot("NextKey").Call()).Block(g.decodeExtra(t)...))
	} else {
		body = append(body, jen.For(jen.Id("d").Dot("NextKey").Call()).Block(
			jen.Switch(jen.String().Parens(jen.Id("d").Dot("Name").Call())).Block(cases...),
		))
	}
	for _, f := range t.fields {
		switch {
		case f.required:
			body = append(body, jen.If(jen.Op("!").Id("has"+f.name)).Block(
				jen.Id("d").Dot("Missing").Call(jen.Lit(f.json))))
		case appliesDefault(f):
			body = append(body, jen.If(jen.Op("!").Id("has"+f.name)).Block(
				jen.Id("x").Dot(f.name).Op("=").Add(g.fieldDefault(f))))
		}
	}
	return []jen.Code{
		comment("decode reads the JSON object of x from d, checking each value as it is read and recording every violation in d."),
		jen.Func().Params(recv).Id("decode").Params(param).Block(body...),
		jen.Line(),
	}
}

// fieldRead is the read of field f as one call into wire (see
// runtime/wire/read.go), for the common kinds: d.ReqString(&hasTitle,
// "title", &x.Title, checkAddTitle). nil for what keeps the long form:
// nullable and trimmed properties, named scalar types, arrays and maps.
func (g *generator) fieldRead(f *field) jen.Code {
	t := f.typ
	if f.nullable || (t.schema != nil && t.schema.Trim) {
		return nil
	}
	mode := "Opt"
	switch {
	case f.required && f.ptr:
		return nil
	case f.required:
		mode = "Req"
	}
	ptr := ""
	if f.ptr {
		ptr = "Ptr"
	}
	args := func(rest ...jen.Code) []jen.Code {
		return append([]jen.Code{jen.Op("&").Id("has" + f.name), jen.Lit(f.json), jen.Op("&").Id("x").Dot(f.name)}, rest...)
	}
	orNil := func(c jen.Code) jen.Code {
		if t.check == "" {
			return jen.Nil()
		}
		return c
	}
	switch t.kind {
	case kString, kInt, kFloat, kBool:
		if t.name != "" && !t.alias {
			return nil // a named scalar is converted
		}
		kind := map[kind]string{kString: "String", kInt: "Int", kFloat: "Float", kBool: "Bool"}[t.kind]
		check := orNil(jen.Id(t.check))
		if t.kind == kInt || t.kind == kFloat {
			check = orNil(jen.Op("&").Id(t.check)) // a wire.NumberRules value
		}
		return jen.Id("d").Dot(mode + kind + ptr).Call(args(check)...)
	case kTime:
		return jen.Id("d").Dot(mode + "DateTime" + ptr).Call(args()...)
	case kEnum:
		return jen.Qual(wirePkg, mode+"Enum"+ptr).Call(append([]jen.Code{dRef()}, args(jen.Id(ofName(t)), jen.Id(t.check))...)...)
	case kStruct:
		return jen.Qual(wirePkg, mode+"Object"+ptr).Call(append([]jen.Code{dRef()}, args(jen.Parens(jen.Op("*").Id(t.name)).Dot("decode"))...)...)
	case kSlice:
		return g.sliceRead(f, mode, args, orNil(jen.Id(t.check)))
	}
	return nil
}

// sliceRead is fieldRead for an array of strings, enums or objects (not
// nullable, not unique by their JSON text): one call with the item's read,
// maxItems, the item's check and the array's.
func (g *generator) sliceRead(f *field, mode string, args func(...jen.Code) []jen.Code, check jen.Code) jen.Code {
	t, e := f.typ, f.typ.elem
	if f.ptr || (t.name != "" && !t.alias) || t.elemPtr || uniqueBySpans(t) || (e.schema != nil && e.schema.Trim) {
		return nil
	}
	var max jen.Code = jen.Qual(wirePkg, "NoMaxItems")
	if m := t.schema.MaxItems; m != nil {
		max = jen.Lit(*m)
	}
	item := jen.Nil()
	if e.check != "" {
		item = jen.Id(e.check)
	}
	switch e.kind {
	case kString:
		if e.name != "" && !e.alias {
			return nil
		}
		return jen.Id("d").Dot(mode + "Strings").Call(args(max, item, check)...)
	case kEnum:
		return jen.Qual(wirePkg, mode+"Enums").Call(append([]jen.Code{dRef()}, args(max, jen.Id(ofName(e)), item, check)...)...)
	case kStruct:
		return jen.Qual(wirePkg, mode+"Objects").Call(append([]jen.Code{dRef()}, args(max, jen.Parens(jen.Op("*").Id(e.name)).Dot("decode"), check)...)...)
	}
	return nil
}

// decodeExtra handles a key the struct does not name: a violation for a
// strict object, else the value goes to the Extra map.
func (g *generator) decodeExtra(t *goType) []jen.Code {
	if t.extra == nil {
		var names []jen.Code
		n := 0
		for _, f := range t.fields {
			names = append(names, jen.Lit(f.json))
			n += len(f.json) + 4
		}
		if n > 80 { // one per line, as a person would wrap a long call
			return []jen.Code{jen.Id("d").Dot("Unknown").Custom(jen.Options{Open: "(", Close: ")", Separator: ",", Multi: true}, names...)}
		}
		return []jen.Code{jen.Id("d").Dot("Unknown").Call(names...)}
	}
	extra := func() *jen.Statement { return jen.Id("x").Dot(t.extraName) }
	valueType := g.typeExpr(t.extra)
	if t.extraPtr && t.extra.kind != kUnion { // an interface is nil for null
		valueType = jen.Op("*").Add(valueType)
	}
	read := g.decodeInto(t.extra, func() *jen.Statement { return jen.Id("v") }, t.extraPtr, 1)
	if t.extraPtr {
		read = []jen.Code{jen.If(jen.Op("!").Id("d").Dot("Null").Call()).Block(read...)}
	}
	out := []jen.Code{
		jen.Id("k").Op(":=").String().Parens(jen.Id("d").Dot("Name").Call()),
		jen.If(jen.List(jen.Id("_"), jen.Id("dup")).Op(":=").Add(extra()).Index(jen.Id("k")), jen.Id("dup")).Block(
			jen.Id("d").Dot("Duplicate").Call(), jen.Continue()),
		jen.Id("d").Dot("Enter").Call(jen.Id("k")),
		jen.Var().Id("v").Add(valueType),
	}
	out = append(out, read...)
	out = append(out,
		jen.If(extra().Op("==").Nil()).Block(extra().Op("=").Map(jen.String()).Add(valueType).Values()),
		extra().Index(jen.Id("k")).Op("=").Id("v"),
		jen.Id("d").Dot("Leave").Call(),
	)
	return out
}

func suffix(lvl int) string {
	if lvl == 0 {
		return ""
	}
	return strconv.Itoa(lvl)
}

// decodeInto reads a value of type t into target (an addressable
// expression; a pointer to t when ptr), checking it.
func (g *generator) decodeInto(t *goType, target func() *jen.Statement, ptr bool, lvl int) []jen.Code {
	v := "v" + suffix(lvl)
	assign := func(val jen.Code) jen.Code {
		if ptr {
			return target().Op("=").Qual(wirePkg, "Ptr").Call(val)
		}
		return target().Op("=").Add(val)
	}
	conv := func(val *jen.Statement) *jen.Statement {
		if t.name != "" && !t.alias && t.kind != kEnum {
			return jen.Id(t.name).Parens(val)
		}
		return val
	}
	// setLocal stores the local v, which has t's type.
	setLocal := func() jen.Code {
		if ptr {
			return target().Op("=").Op("&").Id(v)
		}
		return target().Op("=").Id(v)
	}
	check := func(val jen.Code) jen.Code {
		if t.check == "" {
			return jen.Null()
		}
		return jen.Id(t.check).Call(checker(), val)
	}
	// A trimmed string (trim: true) is read without the white space at its
	// ends, before any check sees it.
	trim := t.schema != nil && t.schema.Trim
	readBytes := "Bytes"
	if trim {
		readBytes = "TrimmedBytes"
	}
	switch t.kind {
	case kInt, kFloat:
		if t.check == "" {
			break
		}
		var set jen.Code
		if ptr && t.name == "" {
			set = target().Op("=").Op("&").Id(v)
		} else {
			set = assign(conv(jen.Id(v)))
		}
		if t.kind == kInt {
			return []jen.Code{jen.If(jen.List(jen.Id(v), jen.Id("ok")).Op(":=").Id("d").Dot("Int").Call(), jen.Id("ok")).Block(
				numberCheck(t, checker(), jen.Id(v), nil), set)}
		}
		// The check needs the number's text: float64 cannot decide every bound.
		return []jen.Code{jen.If(jen.List(jen.Id(v), jen.Id("tok"), jen.Id("ok")).Op(":=").Id("d").Dot("Number").Call(), jen.Id("ok")).Block(
			numberCheck(t, checker(), jen.Id(v), jen.Id("tok")), set)}
	}
	switch t.kind {
	case kString, kInt, kFloat, kBool:
		read := map[kind]string{kString: "String", kInt: "Int", kFloat: "Float", kBool: "Bool"}[t.kind]
		if trim {
			read = "TrimmedString"
		}
		var set jen.Code
		if ptr && t.name == "" {
			set = target().Op("=").Op("&").Id(v)
		} else {
			set = assign(conv(jen.Id(v)))
		}
		return []jen.Code{jen.If(jen.List(jen.Id(v), jen.Id("ok")).Op(":=").Id("d").Dot(read).Call(), jen.Id("ok")).Block(
			check(jen.Id(v)), set)}
	case kEnum:
		return []jen.Code{jen.If(jen.List(jen.Id("b"), jen.Id("ok")).Op(":=").Id("d").Dot(readBytes).Call(), jen.Id("ok")).Block(
			jen.Id(v).Op(":=").Id(ofName(t)).Call(jen.Id("b")),
			check(jen.Id(v)),
			setLocal(),
		)}
	case kTime:
		return []jen.Code{jen.If(jen.List(jen.Id("b"), jen.Id("ok")).Op(":=").Id("d").Dot(readBytes).Call(), jen.Id("ok")).Block(
			jen.If(jen.List(jen.Id(v), jen.Id("ok")).Op(":=").Qual(wirePkg, "ParseDateTime").Call(jen.Id("b")), jen.Id("ok")).Block(
				setLocal(),
			).Else().Block(
				jen.Id("d").Dot("Add").Call(jen.Lit(wire.FormatMessage("date-time")+", got ").Op("+").Qual(wirePkg, "Quote").Call(jen.String().Parens(jen.Id("b")))),
			),
		)}
	case kUnion: // nil for null is the caller's: ptr adds nothing
		return []jen.Code{target().Op("=").Id("decode" + t.name).Call(dRef())}
	case kRaw:
		return []jen.Code{jen.If(jen.List(jen.Id("raw"), jen.Id("ok")).Op(":=").Id("d").Dot("Raw").Call(), jen.Id("ok")).Block(
			assign(jen.Id("raw")))}
	case kStruct:
		if ptr {
			return []jen.Code{
				target().Op("=").New(jen.Id(t.name)),
				target().Dot("decode").Call(dRef()),
			}
		}
		return []jen.Code{target().Dot("decode").Call(dRef())}
	case kSlice:
		return withConst(t, lvl, g.decodeSlice(t, target, ptr, lvl))
	case kMap:
		return withConst(t, lvl, g.decodeMap(t, target, ptr, lvl))
	}
	return nil
}

// decodeSlice reads an array into target (a pointer to the slice when ptr:
// a nullable array as an item or map value).
func (g *generator) decodeSlice(t *goType, target func() *jen.Statement, ptr bool, lvl int) []jen.Code {
	i := "i" + suffix(lvl)
	var set jen.Code = jen.Null()
	if ptr {
		// Read into a local slice; the item points at it once read.
		s, out := "s"+suffix(lvl), target
		target = func() *jen.Statement { return jen.Id(s) }
		set = out().Op("=").Op("&").Id(s)
	}
	item := func() *jen.Statement { return target().Index(jen.Id(i)) }
	read := g.decodeInto(t.elem, item, t.elemPtr, lvl+1)
	if t.elemPtr {
		read = []jen.Code{jen.If(jen.Op("!").Id("d").Dot("Null").Call()).Block(read...)}
	}
	loop := []jen.Code{
		jen.Id("d").Dot("EnterIndex").Call(jen.Id(i)),
		target().Op("=").Append(target(), g.zero(t.elem, t.elemPtr)),
	}
	u := "u" + suffix(lvl)
	spans := uniqueBySpans(t)
	if spans {
		loop = append(loop, jen.Id(u).Dot("Begin").Call(dRef()))
	}
	loop = append(loop, read...)
	if spans {
		loop = append(loop, jen.Id(u).Dot("End").Call(dRef()))
	}
	loop = append(loop, jen.Id("d").Dot("Leave").Call())
	// The slice starts with room for a few items (none for []), as the
	// one-line reads do (Decoder.ItemsHint).
	var max jen.Code = jen.Qual(wirePkg, "NoMaxItems")
	if m := t.schema.MaxItems; m != nil {
		max = jen.Lit(*m)
	}
	alloc := jen.Make(g.typeExpr(t), jen.Lit(0), jen.Id("d").Dot("ItemsHint").Call(max))
	first := target().Op("=").Add(alloc)
	if ptr {
		first = target().Op(":=").Add(alloc)
	}
	inner := []jen.Code{first}
	if spans {
		// uniqueItems compares the items as sent (JSON equality).
		inner = append(inner, jen.Var().Id(u).Qual(wirePkg, "Unique"))
	}
	next := jen.Id("d").Dot("NextItem").Call()
	if m := t.schema.MaxItems; m != nil {
		// Items past maxItems are counted and skipped, not decoded.
		next = jen.Id("d").Dot("NextItemWithin").Call(jen.Id(i), jen.Lit(*m))
	}
	inner = append(inner, jen.For(jen.Id(i).Op(":=").Lit(0), next, jen.Id(i).Op("++")).Block(loop...))
	if t.check != "" {
		inner = append(inner, jen.Id(t.check).Call(checker(), target()))
	}
	if spans {
		inner = append(inner, jen.Id(u).Dot("Check").Call(dRef()))
	}
	inner = append(inner, set)
	return []jen.Code{jen.If(jen.Id("d").Dot("BeginArray").Call()).Block(inner...)}
}

// decodeMap reads an object of free keys into target (a pointer to the map
// when ptr).
func (g *generator) decodeMap(t *goType, target func() *jen.Statement, ptr bool, lvl int) []jen.Code {
	m, k, v := "m"+suffix(lvl), "k"+suffix(lvl), "e"+suffix(lvl)
	read := g.decodeInto(t.elem, func() *jen.Statement { return jen.Id(v) }, t.elemPtr, lvl+1)
	if t.elemPtr {
		read = []jen.Code{jen.If(jen.Op("!").Id("d").Dot("Null").Call()).Block(read...)}
	}
	loop := []jen.Code{
		// Past the violation cap the call fails anyway: build no more.
		jen.If(jen.Id("d").Dot("Full").Call()).Block(jen.Id("d").Dot("Skip").Call(), jen.Continue()),
		jen.Id(k).Op(":=").String().Parens(jen.Id("d").Dot("Name").Call()),
		jen.If(jen.List(jen.Id("_"), jen.Id("dup")).Op(":=").Id(m).Index(jen.Id(k)), jen.Id("dup")).Block(
			jen.Id("d").Dot("Duplicate").Call(), jen.Continue()),
		jen.Id("d").Dot("Enter").Call(jen.Id(k)),
		jen.Var().Id(v).Add(g.elemExpr(t)),
	}
	loop = append(loop, read...)
	loop = append(loop, jen.Id(m).Index(jen.Id(k)).Op("=").Id(v), jen.Id("d").Dot("Leave").Call())
	return []jen.Code{jen.If(jen.Id("d").Dot("BeginObject").Call()).Block(
		jen.Id(m).Op(":=").Add(g.typeExpr(t)).Values(),
		jen.For(jen.Id("d").Dot("NextKey").Call()).Block(loop...),
		target().Op("=").Add(addr(ptr)).Id(m),
	)}
}

// addr is "&" when ptr.
func addr(ptr bool) *jen.Statement {
	if ptr {
		return jen.Op("&")
	}
	return jen.Null()
}

// zero is the zero value of an item of type t.
func (g *generator) zero(t *goType, ptr bool) jen.Code {
	if ptr {
		return jen.Nil()
	}
	switch t.kind {
	case kString, kEnum:
		return jen.Lit("")
	case kInt, kFloat:
		return jen.Lit(0)
	case kBool:
		return jen.False()
	case kStruct, kTime:
		return g.typeExpr(t).Values()
	}
	return jen.Nil() // slices, maps, raw
}

// appliesDefault reports whether decoding sets f's default when the
// property is absent: an optional property whose default is not the zero
// value its Go type starts with.
func appliesDefault(f *field) bool {
	return !f.required && f.hasDef && f.def != nil && !zeroDefault(f)
}

// zeroDefault reports whether a field's default is the zero value its Go
// type starts with, so that applying it is a no-op.
func zeroDefault(f *field) bool {
	if f.ptr {
		return false
	}
	switch f.typ.kind {
	case kString, kEnum:
		return f.def == ""
	case kInt, kFloat:
		n, ok := toFloat(f.def)
		return ok && n == 0
	case kBool:
		return f.def == false
	}
	return false
}
