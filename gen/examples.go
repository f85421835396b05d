package gen

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/spec"
)

// A tool's examples (`examples:` in the spec) become a function returning
// them as compact, canonical JSON (<tool>Examples), which the tool's
// runtime.Tool sets as its Examples (sent to Anthropic as input_examples),
// a fenced block in the catalog, and a row of the generated test
// (`<name>_tools.gen_test.go`) that decodes each of them with the tool's
// generated decoder and names the spec position of one that fails. The
// loader has already checked every example with the decoder's rules
// (spec.Example); the test proves it with the decoder itself.

// TestFileName is the name of the examples test generated from the spec
// file called specBase ("example.tools.yaml" gives
// "example_tools.gen_test.go").
func TestFileName(specBase string) string {
	name, _ := SpecName(specBase)
	return name + "_tools.gen_test.go"
}

// examplesFunc is the name of the function returning t's examples
// ("addExamples").
func examplesFunc(t *spec.Tool) string { return lowerFirst(t.GoName) + "Examples" }

// exampleJSON is an example as sent: compact, keys sorted, no HTML
// escaping.
func exampleJSON(ex *spec.Example) (string, error) {
	b, err := canonicalJSON(ex.Value)
	return string(b), err
}

// hasExamples reports whether a tool of f has examples.
func hasExamples(f *spec.File) bool {
	for _, t := range f.Tools {
		if len(t.Examples) > 0 {
			return true
		}
	}
	return false
}

// examplesDecl declares examplesFunc(t), when t has examples.
func (g *generator) examplesDecl(t *spec.Tool) []jen.Code {
	if len(t.Examples) == 0 {
		return nil
	}
	var items []jen.Code
	for i, ex := range t.Examples {
		s, err := exampleJSON(ex)
		if err != nil {
			g.errs = append(g.errs, fmt.Sprintf("%s: example %d of tool %s cannot be written as JSON: %v", ex.Pos, i+1, t.Name, err))
		}
		items = append(items, jen.Qual("encoding/json", "RawMessage").Parens(stringLit(s)))
	}
	return []jen.Code{
		comment(examplesFunc(t) + " returns the examples of the " + t.Name + " tool's arguments (examples: in the spec), compact and canonical: its runtime.Tool's Examples."),
		jen.Func().Id(examplesFunc(t)).Params().Index().Qual("encoding/json", "RawMessage").Block(
			jen.Return(jen.Index().Qual("encoding/json", "RawMessage").Add(multi(items...))),
		),
		jen.Line(),
	}
}

// ExamplesTest returns the content of `<name>_tools.gen_test.go` for f: a
// test in the generated package that decodes every example of every tool
// with the tool's generated decoder, reporting a failing one at its
// position in the spec. It returns nil when no tool has examples (no file).
func ExamplesTest(f *spec.File) ([]byte, error) {
	if !hasExamples(f) {
		return nil, nil
	}
	base := specBase(f.Path)
	var rows []jen.Code
	for _, t := range f.Tools {
		if len(t.Examples) == 0 {
			continue
		}
		var at []jen.Code
		for _, ex := range t.Examples {
			at = append(at, jen.Lit(fmt.Sprintf("%s:%d:%d", base, ex.Pos.Line, ex.Pos.Col)))
		}
		rows = append(rows, jen.Values(
			jen.Id("Tool"+t.GoName),
			jen.Id(examplesFunc(t)).Call(),
			jen.Index().String().Values(at...),
			jen.Qual(runtimePkg, "TypedDecode").Call(jen.Id("Decode"+ArgsTypeName(t))),
		))
	}
	table := jen.Index().Struct(
		jen.Id("tool").String(),
		jen.Id("examples").Index().Qual("encoding/json", "RawMessage"),
		jen.Id("at").Index().String().Comment("where each example is written in "+base),
		jen.Id("decode").Func().Params(jen.Id("data").Index().Byte()).Params(jen.Any(), jen.Error()),
	).Add(multi(rows...))
	tt := jen.Id("tt")
	body := []jen.Code{
		jen.For(jen.List(jen.Id("_"), tt).Op(":=").Range().Add(table)).Block(
			jen.If(jen.Len(tt.Clone().Dot("examples")).Op("!=").Len(tt.Clone().Dot("at"))).Block(
				jen.Id("t").Dot("Errorf").Call(jen.Lit("%s: %d examples, but the spec had %d: run go generate"),
					tt.Clone().Dot("tool"), jen.Len(tt.Clone().Dot("examples")), jen.Len(tt.Clone().Dot("at"))),
				jen.Continue(),
			),
			jen.For(jen.List(jen.Id("i"), jen.Id("ex")).Op(":=").Range().Add(tt.Clone().Dot("examples"))).Block(
				jen.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Add(tt.Clone().Dot("decode")).Call(jen.Id("ex")), jen.Err().Op("!=").Nil()).Block(
					jen.Id("t").Dot("Errorf").Call(jen.Lit("%s: example %d of %s does not decode: %v"),
						tt.Clone().Dot("at").Index(jen.Id("i")), jen.Id("i").Op("+").Lit(1), tt.Clone().Dot("tool"), jen.Err()),
				),
			),
		),
	}
	decl := []jen.Code{
		comment("TestToolExamples decodes every example of the spec (examples:) with its tool's generated decoder: the examples the model is shown are arguments the tools take. A failure names the example's place in " + base + "."),
		jen.Func().Id("TestToolExamples").Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(body...),
	}
	pkg := f.Package
	if pkg == "" {
		pkg = f.Provider
	}
	src, err := render(pkg, GeneratedHeader(f.Path), [][]jen.Code{decl}, 0)
	if err != nil {
		return nil, fmt.Errorf("gen: rendering the examples test of %s: %w", base, err)
	}
	return groupImports(src), nil
}

// catalogExamples are t's examples for the catalog: one line of JSON each,
// as sent, in a fenced block whose fence no example holds.
func catalogExamples(t *spec.Tool) (fence string, lines []string) {
	fence = "```"
	for _, ex := range t.Examples {
		s, err := exampleJSON(ex)
		if err != nil {
			continue // Code reports it
		}
		for strings.Contains(s, fence) {
			fence += "`"
		}
		lines = append(lines, s)
	}
	return fence, lines
}

// staleTest is the examples test in dir of a spec (at specPath) whose
// tools have no examples any more: toolgen's, still declaring a test that
// calls functions the package no longer has. It is reported as an Orphan
// (toolgen never deletes a file).
func staleTest(dir, specPath string) *Orphan {
	path := filepath.Join(dir, TestFileName(filepath.Base(specPath)))
	if _, ok := generatedFrom(path); !ok {
		return nil
	}
	return &Orphan{Path: path, Spec: filepath.Base(specPath), Why: "whose tools have no examples any more"}
}
