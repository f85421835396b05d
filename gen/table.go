package gen

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/runtime/wire"
)

// Structs as tables: a struct whose properties are all of the common kinds
// (see runtime/wire/object.go) is described by a package-level []wire.Field
// (data, not code: the compiler lays it out statically), and its decode and
// validate methods are one call each, d.Object(xFields, &x.A, &x.B) and
// c.Object(xFields, &x.A, &x.B). That keeps a large imported API's package
// quick to compile; decoding through a table reads and checks exactly what
// the member loop would, in one pass, with the same messages and paths.
// Other structs (trimmed or named scalar properties, unions,
// maps of other values, Extra maps, consts, recursive types, more than
// wire.MaxTableFields properties) keep the member loop.

// tableName is the name of the Fields table of the struct t.
func tableName(t *goType) string { return lowerFirst(t.name) + "Fields" }

// tabled reports whether the struct t is decoded and validated through a
// table.
func (g *generator) tabled(t *goType) bool {
	if t.tabled == 0 { // decided once: the decoder, Validate and decode function all ask
		t.tabled = 1
		if g.decideTabled(t) {
			t.tabled = 2
		}
	}
	return t.tabled == 2
}

func (g *generator) decideTabled(t *goType) bool {
	if t.kind != kStruct || t.constVar != "" || t.extra != nil || t.recursive ||
		len(t.fields) == 0 || len(t.fields) > wire.MaxTableFields {
		return false
	}
	for _, f := range t.fields {
		if g.tableValue(f) == "" {
			return false
		}
	}
	return true
}

// tableValue is the wire.Value of field f in its struct's table, as Go
// text (gofmt'd: raw.go writes it as it is), or "" when f needs the member
// loop.
func (g *generator) tableValue(f *field) string {
	t := f.typ
	if (f.required && f.ptr && !f.nullable) || t.constVar != "" || (t.schema != nil && t.schema.Trim) {
		return ""
	}
	vals := func(kv ...string) string { // pairs of key and value; empty values left out
		var b strings.Builder
		b.WriteByte('{')
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == "" {
				continue
			}
			if b.Len() > 1 {
				b.WriteString(", ")
			}
			b.WriteString(kv[i] + ": " + kv[i+1])
		}
		b.WriteByte('}')
		return b.String()
	}
	rules := func(name string) string {
		if name == "" {
			return ""
		}
		return "&" + name // a wire.NumberRules value
	}
	method := func(t *goType, m string) string { return "(*" + t.name + ")." + m }
	unnamed := func(t *goType) bool { return t.name == "" || t.alias }
	switch t.kind {
	case kString:
		if unnamed(t) {
			return "wire.String" + vals("Check", t.check)
		}
	case kInt:
		if unnamed(t) {
			return "wire.Int" + vals("Rules", rules(t.check))
		}
	case kFloat:
		if unnamed(t) {
			return "wire.Float" + vals("Rules", rules(t.check))
		}
	case kBool:
		if unnamed(t) {
			return "wire.Bool" + vals("Check", t.check)
		}
	case kTime:
		return "wire.DateTime{}"
	case kEnum:
		return "wire.Enum[" + t.name + "]" + vals("Of", ofName(t), "Check", t.check)
	case kStruct:
		return "wire.Object[" + t.name + "]" + vals("Decode", method(t, "decode"), "Validate", method(t, "validate"))
	case kSlice:
		e := t.elem
		if f.ptr || !unnamed(t) || t.elemPtr || uniqueBySpans(t) || e.constVar != "" || (e.schema != nil && e.schema.Trim) {
			return ""
		}
		max := "wire.NoMaxItems"
		if m := t.schema.MaxItems; m != nil {
			max = strconv.Itoa(*m)
		}
		switch e.kind {
		case kString:
			if unnamed(e) {
				return "wire.Strings" + vals("Max", max, "Item", e.check, "Check", t.check)
			}
		case kEnum:
			return "wire.Enums[" + e.name + "]" + vals("Max", max, "Of", ofName(e), "Item", e.check, "Check", t.check)
		case kStruct:
			return "wire.Objects[" + e.name + "]" + vals("Max", max, "Decode", method(e, "decode"), "Validate", method(e, "validate"), "Check", t.check)
		}
	case kMap:
		e := t.elem
		if f.ptr || !unnamed(t) || t.elemPtr || t.check != "" || e.kind != kString || !unnamed(e) || e.constVar != "" || (e.schema != nil && e.schema.Trim) {
			return ""
		}
		return "wire.StringMap" + vals("Check", e.check)
	}
	return ""
}

// tableDoc is the doc comment of t's Fields table.
func tableDoc(t *goType) string {
	return tableName(t) + " are the properties of " + t.name + ", in the order of its fields: how its decode and validate methods read and check each."
}

// tableDecodeDoc is the doc comment of a tabled struct's decode method.
const tableDecodeDoc = "decode reads the JSON object of x from d, checking each value as it is read and recording every violation in d."

// tableDecl is the Fields table of the struct t.
func (g *generator) tableDecl(t *goType) []jen.Code {
	var rows []jen.Code
	for _, f := range t.fields {
		row := []jen.Code{jen.Id("Name").Op(":").Lit(f.json)}
		if f.required {
			row = append(row, jen.Id("Required").Op(":").True())
		}
		if f.nullable {
			row = append(row, jen.Id("Nullable").Op(":").True())
		}
		rows = append(rows, jen.Values(append(row, jen.Id("Value").Op(":").Id(g.tableValue(f)))...))
	}
	return []jen.Code{
		comment(tableDoc(t)),
		jen.Var().Id(tableName(t)).Op("=").Index().Qual(wirePkg, "Field").Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, rows...),
		jen.Line(),
	}
}

// tableCall is recv.Object(xFields, &x.A, …).
func tableCall(recv string, t *goType) *jen.Statement {
	return jen.Id(recv).Dot("Object").Call(jen.Id(tableArgs(t, len("\tseen := "+recv+".Object("))))
}

// tableArgs are the arguments of a table's call, "xFields, &x.A, &x.B":
// the table and the addresses of t's fields in its order, packed into lines
// of about 100 columns as a person would wrap a long call (gofmt indents the
// lines after the first); col is where they start.
func tableArgs(t *goType, col int) string {
	const width = 100
	var b strings.Builder
	b.WriteString(tableName(t))
	col += b.Len()
	for _, f := range t.fields {
		arg := "&x." + f.name
		if col+len(arg)+3 > width {
			b.WriteString(",\n" + arg)
			col = 16 + len(arg)
			continue
		}
		b.WriteString(", " + arg)
		col += len(arg) + 2
	}
	return b.String()
}

// tableDecode is the decode method of a tabled struct (none for a tool's
// argument struct, whose decode function reads its table itself).
func (g *generator) tableDecode(t *goType) []jen.Code {
	if t.root {
		return nil
	}
	return []jen.Code{
		comment(tableDecodeDoc),
		jen.Func().Params(jen.Id("x").Op("*").Id(t.name)).Id("decode").Params(jen.Id("d").Op("*").Qual(wirePkg, "Decoder")).Block(g.tableRead(t)...),
		jen.Line(),
	}
}

// tableDecodeBody is the body of the decode function of a tool whose
// argument struct t is a table: wire.DecodeObject, then the defaults.
func (g *generator) tableDecodeBody(t *goType, mode jen.Code) []jen.Code {
	defaults := g.tableDefaults(t)
	seen := jen.Id("_")
	if len(defaults) > 0 {
		seen = jen.Id("seen")
	}
	call := jen.Qual(wirePkg, "DecodeObject").Call(jen.Id("data"), mode, jen.Id(tableArgs(t, len("\tseen, err := wire.DecodeObject(data, mode, "))))
	out := []jen.Code{
		jen.Id("x").Op(":=").New(jen.Id(t.name)),
		jen.List(seen, jen.Err()).Op(":=").Add(call),
	}
	out = append(out, defaults...)
	return append(out, jen.Return(jen.Id("x"), jen.Err()))
}

// tableDefaults fill in the defaults of the properties the object (its
// Seen, seen) did not have.
func (g *generator) tableDefaults(t *goType) []jen.Code {
	var defaults []jen.Code
	for i, f := range t.fields {
		if appliesDefault(f) {
			defaults = append(defaults, jen.If(jen.Id("seen").Dot("Absent").Call(jen.Lit(i))).Block(
				jen.Id("x").Dot(f.name).Op("=").Add(g.fieldDefault(f))))
		}
	}
	return defaults
}

// tableRead reads x from d through its table, then fills in the defaults
// of the properties the object did not have.
func (g *generator) tableRead(t *goType) []jen.Code {
	defaults := g.tableDefaults(t)
	if len(defaults) == 0 {
		return []jen.Code{tableCall("d", t)}
	}
	return append([]jen.Code{jen.Id("seen").Op(":=").Add(tableCall("d", t))}, defaults...)
}

// tableValidate is the body of the validate method of a tabled struct.
func tableValidate(t *goType) []jen.Code {
	return []jen.Code{tableCall("c", t)}
}

// tableValidateBody is the body of a tabled struct's Validate.
func tableValidateBody(t *goType) []jen.Code {
	return []jen.Code{
		jen.If(jen.Id("x").Op("==").Nil()).Block(jen.Return(jen.Qual(wirePkg, "NilObject").Call())),
		jen.Return(jen.Qual(wirePkg, "ValidateObject").Call(jen.Id(tableArgs(t, len("\treturn wire.ValidateObject("))))),
	}
}
