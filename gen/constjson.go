package gen

import (
	"strconv"

	"github.com/dave/jennifer/jen"
)

// The const of an array or an object: a wire.Const declared once per
// schema, which the decoder checks on the value's JSON as sent (Start
// before reading it, Check after) and Validate on the JSON encoding of a
// value built in Go (CheckValue).

// constName names the wire.Const of a type named (or owned by) name.
func constName(name string) string { return lowerFirst(name) + "Const" }

// setConst gives t (an array, map or struct with a const) its wire.Const.
func (g *generator) setConst(t *goType, name string, where loc) {
	if t.schema == nil || !t.schema.HasConst {
		return
	}
	t.constVar = constName(name)
	g.declare(t.constVar, "the const of "+where.String())
	t.where = where.String()
}

// constDecl declares t's wire.Const.
func (g *generator) constDecl(t *goType) []jen.Code {
	b, err := canonicalJSON(t.schema.Const)
	if err != nil {
		g.errs = append(g.errs, "the const of "+t.where+" cannot be written as JSON: "+err.Error())
	}
	return []jen.Code{
		comment(t.constVar + " is the const of " + t.where + ": the one value allowed, compared by JSON equality."),
		jen.Var().Id(t.constVar).Op("=").Qual(wirePkg, "NewConst").Call(stringLit(string(b))),
		jen.Line(),
	}
}

// withConst wraps the read of a value of t in the check of its const.
func withConst(t *goType, lvl int, read []jen.Code) []jen.Code {
	if t.constVar == "" {
		return read
	}
	cs := "cs" + strconv.Itoa(lvl)
	out := []jen.Code{jen.Id(cs).Op(":=").Id(t.constVar).Dot("Start").Call(jen.Id("d"))}
	out = append(out, read...)
	return append(out, jen.Id(t.constVar).Dot("Check").Call(jen.Id("d"), jen.Id(cs)))
}

// constCheck is the Validate check of t's const on the value v.
func constCheck(t *goType, v jen.Code) []jen.Code {
	if t.constVar == "" {
		return nil
	}
	return []jen.Code{jen.Id(t.constVar).Dot("CheckValue").Call(jen.Id("c"), v)}
}
