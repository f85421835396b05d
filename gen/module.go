package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/spec"
)

// The module wiring: the Provider and tool-name constants, the Executor
// interface the developer implements, and Module, which builds the
// runtime.Module of the spec's tools around an Executor.

// moduleDecls are the declarations at the top of the file.
func (g *generator) moduleDecls() []jen.Code {
	f := g.f
	out := []jen.Code{
		comment("Provider is this module's short id: the Provider of its runtime.Module and of each of its tools."),
		jen.Const().Id("Provider").Op("=").Lit(f.Provider),
		jen.Line(),
	}
	var names []jen.Code
	for _, t := range f.Tools {
		names = append(names, jen.Id("Tool"+t.GoName).Op("=").Lit(t.Name))
	}
	out = append(out,
		comment("The names of the tools, as the model calls them."),
		jen.Const().Defs(names...),
		jen.Line(),
	)
	if f.Gate != "" {
		out = append(out,
			comment("Gate is the connection the "+f.Provider+" tools need (unless a tool says otherwise): the host's runtime.Gates says whether it is open for a user."),
			jen.Const().Id("Gate").Op("=").Lit(f.Gate),
			jen.Line(),
		)
		if f.GateMessage != "" {
			out = append(out,
				comment("gateMessage is what the model reads when a call meets the closed Gate."),
				jen.Const().Id("gateMessage").Op("=").Lit(f.GateMessage),
				jen.Line(),
			)
		}
	}

	var methods []jen.Code
	for _, m := range ExecutorMethods(f) {
		methods = append(methods, comment(m.Doc).Line().Id(m.Name).Params(m.Params...).Params(m.Results...))
	}
	ifaceDoc := InterfaceName + " runs the " + f.Provider + " tools: one method per tool, plus the hand-written" +
		" decisions the spec asks for. The stubs file holds your implementation; Module wires it into a runtime.Module."
	if f.Description != "" {
		ifaceDoc += "\n\n" + f.Description
	}
	out = append(out,
		comment(ifaceDoc),
		jen.Type().Id(InterfaceName).Interface(methods...),
		jen.Line(),
	)

	var tools, batches []jen.Code
	for i, t := range g.tools {
		tools = append(tools, g.toolLiteral(t))
		if t.tool.Batch != nil {
			batches = append(batches, batchTool(i, t.tool.Batch))
		}
	}
	toolList := jen.Index().Op("*").Qual(runtimePkg, "Tool").Add(multi(tools...))
	var body []jen.Code
	if len(batches) == 0 {
		body = []jen.Code{jen.Return(moduleValue(toolList))}
	} else {
		// Batch tools (`batch:`) wrap their tool with runtime.Parallelize and
		// follow the spec's tools.
		body = []jen.Code{
			jen.Id("tools").Op(":=").Add(toolList),
			jen.Return(moduleValue(jen.Append(append([]jen.Code{jen.Id("tools")}, batches...)...))),
		}
	}
	out = append(out,
		comment("Module returns a fresh module of the "+f.Provider+" tools, run by impl. Add it to a registry with reg.AddModule(Module(impl))."),
		jen.Func().Id("Module").Params(jen.Id("impl").Id(InterfaceName)).Op("*").Qual(runtimePkg, "Module").Block(body...),
		jen.Line(),
	)
	return out
}

// moduleValue is &runtime.Module{Provider: Provider, Tools: tools}.
func moduleValue(tools jen.Code) jen.Code {
	return jen.Op("&").Qual(runtimePkg, "Module").Values(jen.DictFunc(func(d jen.Dict) {
		d[jen.Id("Provider")] = jen.Id("Provider")
		d[jen.Id("Tools")] = tools
	}))
}

// batchTool is the batch wrapper of tools[i], with the options the spec
// loader resolved (defaults filled in and validated, so MustParallelize
// cannot fail).
func batchTool(i int, b *spec.Batch) jen.Code {
	opts := []jen.Code{jen.Id("Name").Op(":").Lit(b.Name)}
	if b.Description != "" {
		opts = append(opts, jen.Id("Description").Op(":").Lit(b.Description))
	}
	opts = append(opts,
		jen.Id("MaxItems").Op(":").Lit(b.MaxItems),
		jen.Id("MaxConcurrency").Op(":").Lit(b.MaxConcurrency),
		jen.Id("MaxResultBytes").Op(":").Lit(b.MaxResultBytes),
	)
	return jen.Qual(runtimePkg, "MustParallelize").Call(
		jen.Id("tools").Index(jen.Lit(i)),
		jen.Qual(runtimePkg, "ParallelizeOptions").Add(multi(opts...)),
	)
}

// toolLiteral is the runtime.Tool of one tool, in field order.
func (g *generator) toolLiteral(ti *toolIR) jen.Code {
	t := ti.tool
	args := ArgsTypeName(t)
	assertArgs := func(onFail jen.Code) []jen.Code {
		return []jen.Code{
			jen.List(jen.Id("a"), jen.Id("ok")).Op(":=").Id("args").Assert(jen.Op("*").Id(args)),
			jen.If(jen.Op("!").Id("ok").Op("||").Id("a").Op("==").Nil()).Block(onFail),
		}
	}
	argsErr := jen.Qual("fmt", "Errorf").Call(jen.Lit(t.Name+": arguments of type %T, want *"+args), jen.Id("args"))
	ctxCall := []jen.Code{jen.Id("ctx").Qual("context", "Context"), jen.Id("call").Op("*").Qual(runtimePkg, "Call"), jen.Id("args").Any()}

	kind := "KindTool"
	if t.Kind == spec.KindAgent {
		kind = "KindAgent"
	}
	lines := []jen.Code{
		jen.Id("Name").Op(":").Id("Tool" + t.GoName),
		jen.Id("Description").Op(":").Lit(t.Description),
		jen.Id("Kind").Op(":").Qual(runtimePkg, kind),
		jen.Id("Schema").Op(":").Qual("encoding/json", "RawMessage").Parens(jen.Id(ti.goLower + "Schema")),
	}
	if t.Result != nil {
		lines = append(lines, jen.Id("ResultSchema").Op(":").Qual("encoding/json", "RawMessage").Parens(jen.Id(ti.goLower+"ResultSchema")))
	}
	if t.Gate != "" {
		f := g.f
		gate, msg := jen.Lit(t.Gate), jen.Lit(t.GateMessage)
		if t.Gate == f.Gate {
			gate = jen.Id("Gate")
		}
		if t.GateMessage == f.GateMessage && t.GateMessage != "" && t.Gate == f.Gate {
			msg = jen.Id("gateMessage")
		}
		lines = append(lines, jen.Id("Gate").Op(":").Add(gate))
		if t.GateMessage != "" {
			lines = append(lines, jen.Id("GateMessage").Op(":").Add(msg))
		}
	}
	fl := t.Flags
	lines = append(lines,
		jen.Id("Flags").Op(":").Add(flagsValue(fl)),
		jen.Id("Decode").Op(":").Func().Params(jen.Id("data").Index().Byte()).Params(jen.Any(), jen.Error()).Block(
			jen.Return(jen.Id("Decode"+args).Call(jen.Id("data"))),
		),
		jen.Id("Label").Op(":").Id(ti.goLower+"Label"),
	)

	lines = append(lines, jen.Id("Execute").Op(":").Add(g.execute(ti, assertArgs, argsErr)))

	if fl.PermissionCheck {
		body := assertArgs(jen.Return(jen.Qual(runtimePkg, "Denied").Call(
			jen.Lit("the arguments of " + t.Name + " could not be checked"))))
		body = append(body, jen.Return(jen.Id("impl").Dot(t.GoName+"Permission").Call(jen.Id("ctx"), jen.Id("call"), jen.Id("a"))))
		lines = append(lines, jen.Id("Permission").Op(":").Func().Params(ctxCall...).Qual(runtimePkg, "Decision").Block(body...))
	}
	byInput := func(field, method string) {
		lines = append(lines, jen.Id(field).Op(":").Func().Params(jen.Id("args").Any()).Bool().Block(
			jen.List(jen.Id("a"), jen.Id("ok")).Op(":=").Id("args").Assert(jen.Op("*").Id(args)),
			jen.Return(jen.Id("ok").Op("&&").Id("a").Op("!=").Nil().Op("&&").Id("impl").Dot(method).Call(jen.Id("a"))),
		))
	}
	if fl.ReadOnly.Mode == spec.ByInput {
		byInput("ReadOnlyFor", t.GoName+"ReadOnly")
	}
	if fl.ConcurrencySafe.Mode == spec.ByInput {
		byInput("ConcurrencySafeFor", t.GoName+"ConcurrencySafe")
	}

	return multi(lines...)
}

// flagsValue is the runtime.Flags literal of fl, naming only the flags
// that are true, as a person would write it (on one line when they are
// few). A disabled tool says Enabled: false, since a tool is enabled unless
// it says otherwise.
func flagsValue(fl spec.Flags) jen.Code {
	var set []jen.Code
	if !fl.Enabled.Value {
		set = append(set, jen.Id("Enabled").Op(":").False())
	}
	for _, f := range []struct {
		name string
		on   bool
	}{
		{"Enabled", fl.Enabled.Value},
		{"ReadOnly", fl.ReadOnly.Value},
		{"Destructive", fl.Destructive.Value},
		{"Idempotent", fl.Idempotent.Value},
		{"OpenWorld", fl.OpenWorld.Value},
		{"ConcurrencySafe", fl.ConcurrencySafe.Value},
		{"RequiresApproval", fl.RequiresApproval.Value},
	} {
		if f.on {
			set = append(set, jen.Id(f.name).Op(":").True())
		}
	}
	if len(set) > 3 {
		return jen.Qual(runtimePkg, "Flags").Add(multi(set...))
	}
	return jen.Qual(runtimePkg, "Flags").Values(set...)
}

// multi is a composite literal's braces and elements, one per line, in
// the order given.
func multi(items ...jen.Code) *jen.Statement {
	return jen.Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, items...)
}

// execute is the Execute function of a tool. An ordinary tool's Execute asserts its
// arguments and calls the executor method, encoding a typed result as JSON.
// An agent tool's is runtime.AgentExecute over the executor method, which
// makes the sub-agent, and the tool's prompt function (nil: the runtime's
// default prompt).
func (g *generator) execute(ti *toolIR, assertArgs func(onFail jen.Code) []jen.Code, argsErr jen.Code) jen.Code {
	t := ti.tool
	method := jen.Id("impl").Dot(t.GoName).Call(jen.Id("ctx"), jen.Id("call"), jen.Id("a"))
	ctxParam := jen.Id("ctx").Qual("context", "Context")
	callParam := jen.Id("call").Op("*").Qual(runtimePkg, "Call")
	if isAgent(t) {
		create := append(assertArgs(jen.Return(jen.Nil(), argsErr)), jen.Return(method))
		prompt := jen.Nil()
		if t.Prompt != "" {
			prompt = jen.Id(promptName(ti))
		}
		return jen.Qual(runtimePkg, "AgentExecute").Call(
			jen.Id("Tool"+t.GoName),
			jen.Func().Params(ctxParam, jen.Id("args").Any(), callParam).Params(jen.Qual(runtimePkg, "Agent"), jen.Error()).Block(create...),
			prompt,
		)
	}
	body := assertArgs(jen.Return(jen.Qual(runtimePkg, "Result").Values(), argsErr))
	if t.Result != nil {
		body = append(body,
			jen.List(jen.Id("res"), jen.Err()).Op(":=").Add(method),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Qual(runtimePkg, "Result").Values(), jen.Err())),
			jen.Return(jen.Qual(runtimePkg, "JSON").Call(jen.Id("res"))),
		)
	} else {
		body = append(body, jen.Return(method))
	}
	return jen.Func().Params(ctxParam, callParam, jen.Id("args").Any()).Params(jen.Qual(runtimePkg, "Result"), jen.Error()).Block(body...)
}
