package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/spec"
)

// titleAndIcons are the lines of a tool's runtime.Tool literal that carry
// its `title:` and `icons:` (MCP's title and icons; the runtime sends them
// to MCP only): none when the spec gives neither.
func titleAndIcons(t *spec.Tool) []jen.Code {
	var lines []jen.Code
	if t.Title != "" {
		lines = append(lines, jen.Id("Title").Op(":").Lit(t.Title))
	}
	if len(t.Icons) == 0 {
		return lines
	}
	icons := make([]jen.Code, len(t.Icons))
	for i, ic := range t.Icons {
		var fields []jen.Code
		fields = append(fields, jen.Id("Src").Op(":").Lit(ic.Src))
		if ic.MIMEType != "" {
			fields = append(fields, jen.Id("MIMEType").Op(":").Lit(ic.MIMEType))
		}
		if len(ic.Sizes) > 0 {
			sizes := make([]jen.Code, len(ic.Sizes))
			for j, s := range ic.Sizes {
				sizes[j] = jen.Lit(s)
			}
			fields = append(fields, jen.Id("Sizes").Op(":").Index().String().Values(sizes...))
		}
		if ic.Theme != "" {
			fields = append(fields, jen.Id("Theme").Op(":").Lit(ic.Theme))
		}
		icons[i] = jen.Values(fields...)
	}
	return append(lines, jen.Id("Icons").Op(":").Index().Qual(runtimePkg, "Icon").Values(icons...))
}
