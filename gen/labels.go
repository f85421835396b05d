package gen

import (
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/spec"
)

// Status labels: per tool a function compiled from its status template.
// It never panics: it type-asserts its argument with the comma-ok form,
// checks every pointer, and falls back to the tool's status_fallback (or
// name) when a placeholder without its own fallback has no value. For a
// call whose arguments failed to decode (a *runtime.InvalidArgs) a
// placeholder whose parameter a violation is about has no value either:
// the label never shows what the call refused. Strings are clipped
// (wire.Clip); numbers, booleans and times are short already.

// labelFunc is the label function of a tool.
func (g *generator) labelFunc(t *toolIR) []jen.Code {
	tool := t.tool
	name := t.goLower + "Label"
	fallback := tool.StatusFallback
	if fallback == "" {
		fallback = tool.Name
	}
	head := comment(name + " renders the status label of a call from its arguments (possibly partial or nil). It cannot fail.")
	sig := jen.Func().Id(name).Params(jen.Id("args").Any()).String()

	hasParam := false
	for _, p := range tool.StatusParts {
		if p.Param != "" {
			hasParam = true
		}
	}
	if !hasParam {
		text := fallback
		if len(tool.StatusParts) > 0 {
			text = ""
			for _, p := range tool.StatusParts {
				text += p.Text
			}
		}
		return []jen.Code{head, sig.Block(jen.Return(jen.Lit(text))), jen.Line()}
	}

	// A call whose arguments failed to decode comes as an *InvalidArgs:
	// its placeholders show only values no violation is about.
	value := func(f *field) (present, missing, text *jen.Statement) {
		present, missing, text = g.labelValue(f)
		rejected := jen.Id("bad").Dot("Rejected").Call(jen.Lit(f.json))
		if present == nil {
			return jen.Op("!").Add(rejected.Clone()), rejected, text
		}
		return present.Op("&&").Op("!").Add(rejected.Clone()), missing.Op("||").Add(rejected), text
	}
	body := g.templateBody(t, tool.StatusParts, "status label", value, jen.Lit(fallback), true)
	return []jen.Code{head, sig.Block(body...), jen.Line()}
}

// templateBody is the body of a label or prompt function compiled from
// parts: it type-asserts the arguments, returns whenFallback when they are
// not there or a placeholder without its own fallback has no value, and
// returns the text with every placeholder's value inserted. value gives,
// for a field, the conditions under which it has a value and has none (nil,
// nil: it always has one) and the expression of its text; what names the
// template in generator errors. A label (label) unpacks its argument with
// wire.LabelValue, which also gives the *runtime.InvalidArgs (bad) of a call
// that failed to decode, and type-asserts the value itself (a generic
// unpacker would compile a wrapper per argument type).
func (g *generator) templateBody(t *toolIR, parts []spec.LabelPart, what string,
	value func(*field) (present, missing, text *jen.Statement), whenFallback jen.Code, label bool) []jen.Code {
	absent := []jen.Code{jen.Op("!").Id("ok"), jen.Id("a").Op("==").Nil()}
	unpack := jen.List(jen.Id("a"), jen.Id("ok")).Op(":=").Id("args").Assert(jen.Op("*").Id(t.args.name))
	if label {
		absent = []jen.Code{jen.Id("a").Op("==").Nil()}
		unpack = jen.List(jen.Id("v"), jen.Id("bad")).Op(":=").Qual(wirePkg, "LabelValue").Call(jen.Id("args")).Line().
			List(jen.Id("a"), jen.Id("_")).Op(":=").Id("v").Assert(jen.Op("*").Id(t.args.name))
	}
	var body, concat []jen.Code
	text := ""
	flush := func() {
		if text != "" {
			concat = append(concat, jen.Lit(text))
			text = ""
		}
	}
	for i, p := range parts {
		if p.Param == "" {
			text += p.Text
			continue
		}
		f := t.args.field(p.Param)
		if f == nil {
			g.errs = append(g.errs, what+" of "+t.tool.Name+": no parameter "+strconv.Quote(p.Param))
			continue
		}
		present, missing, v := value(f)
		flush()
		switch {
		case present == nil: // always has a value, fallback or not
			concat = append(concat, v)
		case p.HasFallback:
			id := "p" + strconv.Itoa(i)
			body = append(body,
				jen.Id(id).Op(":=").Lit(p.Fallback),
				jen.If(present).Block(jen.Id(id).Op("=").Add(v)),
			)
			concat = append(concat, jen.Id(id))
		default:
			absent = append(absent, missing)
			concat = append(concat, v)
		}
	}
	flush()
	if len(concat) == 0 {
		concat = append(concat, jen.Lit(""))
	}
	expr := jen.Add(concat[0])
	for _, c := range concat[1:] {
		expr = expr.Op("+").Add(c)
	}
	cond := jen.Add(absent[0])
	for _, c := range absent[1:] {
		cond = cond.Op("||").Add(c)
	}
	block := []jen.Code{unpack, jen.If(cond).Block(jen.Return(whenFallback))}
	block = append(block, body...)
	return append(block, jen.Return(expr))
}

// labelValue gives the conditions under which the argument of f has a
// value and has none (nil, nil: it always has one), and the expression of
// its text.
func (g *generator) labelValue(f *field) (present, missing, value *jen.Statement) {
	x := func() *jen.Statement { return jen.Id("a").Dot(f.name) }
	v := x
	if f.ptr {
		present, missing = x().Op("!=").Nil(), x().Op("==").Nil()
		v = func() *jen.Statement { return jen.Op("*").Add(x()) }
	}
	switch f.typ.kind {
	case kString, kEnum:
		s := v()
		if f.typ.name != "" {
			s = jen.String().Parens(v())
		}
		if !f.ptr {
			present, missing = s.Clone().Op("!=").Lit(""), s.Clone().Op("==").Lit("")
		}
		value = jen.Qual(wirePkg, "Clip").Call(s)
	case kInt:
		value = jen.Qual("strconv", "FormatInt").Call(conv(f.typ, jen.Int64(), v()), jen.Lit(10))
	case kFloat:
		value = jen.Qual(wirePkg, "FormatNumber").Call(conv(f.typ, jen.Float64(), v()))
	case kBool:
		value = jen.Qual("strconv", "FormatBool").Call(conv(f.typ, jen.Bool(), v()))
	case kTime:
		if !f.ptr {
			present, missing = jen.Op("!").Add(v()).Dot("IsZero").Call(), v().Dot("IsZero").Call()
		}
		// Format has a value receiver: it reads through a pointer.
		value = x().Dot("Format").Call(jen.Qual("time", "RFC3339"))
	default:
		// The spec allows only scalar placeholders; show the type's name.
		g.errs = append(g.errs, "status label placeholder {"+f.json+"} names a parameter that is not a string, number or boolean")
		value = jen.Lit("")
	}
	return present, missing, value
}

// conv converts a named scalar to its underlying type for formatting.
func conv(t *goType, to *jen.Statement, v *jen.Statement) *jen.Statement {
	if t.name != "" {
		return to.Parens(v)
	}
	return v
}
