package gen

import (
	"strconv"

	"github.com/dave/jennifer/jen"
)

// Agent prompts: per agent tool with a `prompt:` template, a function
// compiled from it as status labels are (same placeholders: {param},
// {param|fallback}, {{ and }}), with three differences that suit a prompt:
// values are inserted whole, not clipped; a value is absent only when its
// field is nil (an empty string is inserted as it is); and when a
// placeholder without its own fallback has no value, the function returns
// the runtime's default prompt, as if the tool had no template. An agent
// tool without a template passes nil to runtime.AgentExecute, which sends
// the default prompt itself.

// promptName is the name of a tool's prompt function.
func promptName(t *toolIR) string { return t.goLower + "Prompt" }

// promptFunc is the prompt function of an agent tool with a template; nil
// for any other tool.
func (g *generator) promptFunc(t *toolIR) []jen.Code {
	tool := t.tool
	if !isAgent(tool) || tool.Prompt == "" {
		return nil
	}
	name := promptName(t)
	head := comment(name + " renders the prompt sent to the sub-agent of one call of the " + tool.Name + " tool from its arguments, with the spec's prompt template. When a placeholder without a fallback has no value, it is the default prompt (the arguments as JSON).")
	sig := jen.Func().Id(name).Params(jen.Id("args").Any()).String()

	hasParam := false
	text := ""
	for _, p := range tool.PromptParts {
		if p.Param != "" {
			hasParam = true
		}
		text += p.Text
	}
	if !hasParam {
		return []jen.Code{head, sig.Block(jen.Return(jen.Lit(text))), jen.Line()}
	}

	absent := []jen.Code{jen.Op("!").Id("ok"), jen.Id("a").Op("==").Nil()}
	var body, concat []jen.Code
	text = ""
	flush := func() {
		if text != "" {
			concat = append(concat, jen.Lit(text))
			text = ""
		}
	}
	for i, p := range tool.PromptParts {
		if p.Param == "" {
			text += p.Text
			continue
		}
		f := t.args.field(p.Param)
		if f == nil {
			g.errs = append(g.errs, "prompt of "+tool.Name+": no parameter "+strconv.Quote(p.Param))
			continue
		}
		value := g.promptValue(f)
		flush()
		if p.HasFallback {
			v := "p" + strconv.Itoa(i)
			if f.ptr {
				body = append(body,
					jen.Id(v).Op(":=").Lit(p.Fallback),
					jen.If(jen.Id("a").Dot(f.name).Op("!=").Nil()).Block(jen.Id(v).Op("=").Add(value)),
				)
				concat = append(concat, jen.Id(v))
			} else {
				concat = append(concat, value) // always has a value
			}
			continue
		}
		if f.ptr {
			absent = append(absent, jen.Id("a").Dot(f.name).Op("==").Nil())
		}
		concat = append(concat, value)
	}
	flush()
	expr := jen.Add(concat[0])
	for _, c := range concat[1:] {
		expr = expr.Op("+").Add(c)
	}
	cond := jen.Add(absent[0])
	for _, c := range absent[1:] {
		cond = cond.Op("||").Add(c)
	}
	block := []jen.Code{
		jen.List(jen.Id("a"), jen.Id("ok")).Op(":=").Id("args").Assert(jen.Op("*").Id(t.args.name)),
		jen.If(cond).Block(
			jen.Return(jen.Qual(runtimePkg, "DefaultAgentPrompt").Call(jen.Id("args"))),
		),
	}
	block = append(block, body...)
	block = append(block, jen.Return(expr))
	return []jen.Code{head, sig.Block(block...), jen.Line()}
}

// promptValue is the expression of the text of f's value in a prompt: a
// string as it is, a number or boolean formatted as in JSON, a time in
// RFC 3339 with its fraction of a second. f is not nil when it is read.
func (g *generator) promptValue(f *field) *jen.Statement {
	v := jen.Id("a").Dot(f.name)
	if f.ptr {
		v = jen.Op("*").Add(v)
	}
	switch f.typ.kind {
	case kString, kEnum:
		if f.typ.name != "" {
			return jen.String().Parens(v)
		}
		return v
	case kInt:
		return jen.Qual("strconv", "FormatInt").Call(conv(f.typ, jen.Int64(), v), jen.Lit(10))
	case kFloat:
		return jen.Qual(wirePkg, "FormatNumber").Call(conv(f.typ, jen.Float64(), v))
	case kBool:
		return jen.Qual("strconv", "FormatBool").Call(conv(f.typ, jen.Bool(), v))
	case kTime:
		// Format has a value receiver: it reads through a pointer.
		return jen.Id("a").Dot(f.name).Dot("Format").Call(jen.Qual("time", "RFC3339Nano"))
	}
	// The spec allows only scalar placeholders.
	g.errs = append(g.errs, "prompt placeholder {"+f.json+"} names a parameter that is not a string, number or boolean")
	return jen.Lit("")
}

// field returns the field with JSON name name, or nil.
func (t *goType) field(name string) *field {
	for _, f := range t.fields {
		if f.json == name {
			return f
		}
	}
	return nil
}
