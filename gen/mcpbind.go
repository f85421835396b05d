package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/spec"
)

// The executors of MCP-bound tools (`mcp:` in the spec, as toolgen import
// mcp writes it): each tool's Execute calls its remote tool through the
// runtime/mcp Caller that Module takes, with the typed arguments, so a
// bound tool has no method in the Executor interface and no stub.

const mcpPkg = "github.com/toolgen/toolgen/runtime/mcp"

// hasMCP reports whether any tool of f is bound to a remote MCP tool.
func hasMCP(f *spec.File) bool {
	for _, t := range f.Tools {
		if t.MCP != nil {
			return true
		}
	}
	return false
}

// mcpModuleParams is Module's caller parameter when a tool is bound.
func (g *generator) mcpModuleParams() []jen.Code {
	if !hasMCP(g.f) {
		return nil
	}
	return []jen.Code{jen.Id("remote").Qual(mcpPkg, "Caller")}
}

// moduleDocMCP is what Module's doc comment adds for bound tools.
func (g *generator) moduleDocMCP() string {
	if !hasMCP(g.f) {
		return ""
	}
	server := "their MCP server"
	if g.f.MCP != nil && g.f.MCP.Server != "" {
		server = "the MCP server " + g.f.MCP.Server
	}
	return " The tools with an mcp: binding call " + server + " through remote (a connected *sdk.ClientSession of the go-sdk, say)."
}

// mcpExecute is a bound tool's Execute: assert the arguments, call the
// remote tool, decode the typed result.
func (g *generator) mcpExecute(ti *toolIR, assertArgs func(onFail jen.Code) []jen.Code, argsErr jen.Code) jen.Code {
	t := ti.tool
	body := assertArgs(jen.Return(jen.Qual(runtimePkg, "Result").Values(), argsErr))
	res := jen.Nil()
	if t.Result != nil {
		res = jen.New(jen.Id(ResultTypeName(t)))
	}
	body = append(body, jen.Return(jen.Qual(mcpPkg, "Invoke").Call(
		jen.Id("ctx"), jen.Id("remote"), jen.Id("call"), jen.Lit(t.MCP.Tool), jen.Id("a"), res,
	)))
	return jen.Func().Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("call").Op("*").Qual(runtimePkg, "Call"),
		jen.Id("args").Any(),
	).Params(jen.Qual(runtimePkg, "Result"), jen.Error()).Block(body...)
}
