package gen

import (
	"strconv"

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
	var ids, values []string
	for _, t := range f.Tools {
		names = append(names, jen.Id("Tool"+t.GoName).Op("=").Lit(t.Name))
		ids, values = append(ids, "Tool"+t.GoName), append(values, strconv.Quote(t.Name))
		if t.Batch != nil {
			names = append(names, jen.Id(batchConst(f, t)).Op("=").Lit(t.Batch.Name))
			ids, values = append(ids, batchConst(f, t)), append(values, strconv.Quote(t.Batch.Name))
		}
	}
	const namesDoc = "The names of the tools, as the model calls them."
	if !g.jen && len(ids) > 1 {
		out = append(out, g.rawNameConsts(namesDoc, ids, values))
	} else {
		out = append(out, comment(namesDoc), jen.Const().Defs(names...), jen.Line())
	}
	if f.Gate != "" {
		out = append(out,
			comment("Gate is the connection the "+f.Provider+" tools need (unless a tool says otherwise): the host's runtime.Gates says whether it is open for a user."),
			jen.Const().Id("Gate").Op("=").Lit(f.Gate),
			jen.Line(),
		)
	}
	var gates []jen.Code
	for _, gate := range f.ToolGates() {
		if c := f.GateConst(gate); c != "" {
			gates = append(gates, comment(c+" is the connection the tools that say gate: "+gate+" need.").Line().Id(c).Op("=").Lit(gate))
		}
	}
	if len(gates) > 0 {
		out = append(out,
			comment("The gates of the tools that do not use the module's gate: the host's runtime.Gates says whether each is open for a user."),
			jen.Const().Defs(gates...),
			jen.Line(),
		)
	}
	if f.Gate != "" {
		if f.GateMessage != "" {
			out = append(out,
				comment("gateMessage is what the model reads when a call meets the closed Gate."),
				jen.Const().Id("gateMessage").Op("=").Lit(f.GateMessage),
				jen.Line(),
			)
		}
	}

	ifaceDoc := InterfaceName + " runs the " + f.Provider + " tools: one method per tool, plus the hand-written" +
		" decisions the spec asks for. The stubs file holds your implementation; Module wires it into a runtime.Module."
	if f.Description != "" {
		ifaceDoc += "\n\n" + f.Description
	}
	if ms := ExecutorMethods(f); !g.jen && len(ms) > 0 {
		out = append(out, g.rawInterface(ifaceDoc, ms))
	} else {
		var methods []jen.Code
		for _, m := range ms {
			methods = append(methods, comment(m.Doc).Line().Id(m.Name).Params(m.Params...).Params(m.Results...))
		}
		out = append(out,
			topComment(ifaceDoc),
			jen.Type().Id(InterfaceName).Interface(methods...),
			jen.Line(),
		)
	}

	// A tool with a batch tool (`batch:`) is built in a variable, so that
	// its batch tool can wrap it; the batch tools follow the spec's tools.
	var pre, tools, batches []jen.Code
	for _, t := range g.tools {
		lit := g.moduleTool(t)
		if t.tool.Batch == nil {
			tools = append(tools, lit)
			continue
		}
		v := toolVar(t)
		pre = append(pre, jen.Id(v).Op(":=").Add(lit))
		tools = append(tools, jen.Id(v))
		batches = append(batches, batchTool(g.f, t.tool, v))
	}
	if len(batches) > 0 {
		batches[0] = comment("Batch tools (batch: in the spec) run their tool on many inputs per call.").Line().Add(batches[0])
	}
	toolList := jen.Index().Op("*").Qual(runtimePkg, "Tool").Add(multi(append(tools, batches...)...))
	body := append(pre, jen.Return(moduleValue(f.Description, toolList)))
	out = append(out,
		comment("Module returns a fresh module of the "+f.Provider+" tools, run by impl (not nil). Add it to a registry with reg.AddModule(Module(impl))."+g.moduleDocHTTP()+g.moduleDocMCP()+
			" Each module has tools of its own, copies of the package's; their schemas are shared, and read-only."),
		jen.Func().Id("Module").Params(g.moduleParams()...).Op("*").Qual(runtimePkg, "Module").Block(body...),
		jen.Line(),
	)
	return append(out, g.bindDecl()...)
}

// moduleValue is &runtime.Module{Provider: Provider, Description: desc,
// Tools: tools}, without Description when desc is empty.
func moduleValue(desc string, tools jen.Code) jen.Code {
	fields := []jen.Code{jen.Id("Provider").Op(":").Id("Provider")}
	if desc != "" {
		fields = append(fields, jen.Id("Description").Op(":").Lit(desc))
	}
	return jen.Op("&").Qual(runtimePkg, "Module").Add(multi(append(fields, jen.Id("Tools").Op(":").Add(tools))...))
}

// batchConst is the name constant of t's batch tool: Tool<GoName>Batch for
// the default name <tool>_batch, else Tool and the Go name of the batch's
// own name (which the spec loader keeps apart from the other tools' Go
// names).
func batchConst(f *spec.File, t *spec.Tool) string {
	return "Tool" + f.ToolGoName(t.Batch.Name)
}

// toolStatic is the package-level runtime.Tool of t ("listEventsTool"):
// everything Module's tool has but what needs Module's arguments (its
// executor), as a composite literal of constants and functions, which the
// compiler writes as data, not code.
func toolStatic(t *toolIR) string { return t.goLower + "Tool" }

// toolDecode is the DecodeWith function of t ("decodeListEvents").
func toolDecode(t *toolIR) string { return "decode" + t.tool.GoName }

// toolFunc is the function that builds t's runtime.Tool for Module
// ("newListEventsTool") when its runtime.Tool has more than an executor
// method to set (see bindsMore).
func toolFunc(t *toolIR) string { return "new" + t.tool.GoName + "Tool" }

// bindsMore reports whether t's runtime.Tool needs more of Module's
// arguments than its executor method as Execute: an agent, http: or mcp:
// tool's Execute, a permission check, input-dependent flags. Such a tool
// is built by its own function (toolFunc); the others by wire.Bind in
// Module.
func bindsMore(t *spec.Tool) bool {
	fl := t.Flags
	return isAgent(t) || t.HTTP != nil || t.MCP != nil || fl.PermissionCheck ||
		fl.ReadOnly.Mode == spec.ByInput || fl.ConcurrencySafe.Mode == spec.ByInput
}

// moduleTool is t's element of Module's tool list: its package-level
// runtime.Tool copied with its executor method (wire.Bind), or a call of
// its own function.
func (g *generator) moduleTool(t *toolIR) jen.Code {
	if bindsMore(t.tool) {
		return jen.Id(toolFunc(t)).Call(g.moduleArgs()...)
	}
	return bindCall(t)
}

// bindCall is bind(&listEventsTool, impl, runListEvents): t's
// package-level runtime.Tool copied with an Execute that runs its executor
// method.
func bindCall(t *toolIR) *jen.Statement {
	return jen.Id("bind").Call(jen.Op("&").Id(toolStatic(t)), jen.Id("impl"), jen.Id(toolRun(t)))
}

// toolRun is the function that runs a call of t with an Executor
// ("runListEvents"), for a tool that executesMethod.
func toolRun(t *toolIR) string { return "run" + t.tool.GoName }

// runDecl declares toolRun(t): it asserts the arguments' type and calls
// the executor method, encoding a typed result as JSON.
func runDecl(t *toolIR) []jen.Code {
	args := t.args.name
	call := jen.Id("impl").Dot(t.tool.GoName).Call(jen.Id("ctx"), jen.Id("call"), jen.Id("a"))
	if t.tool.Result != nil {
		call = jen.Qual(wirePkg, "JSON").Call(call)
	}
	return []jen.Code{
		comment(toolRun(t) + " runs a call of the " + t.tool.Name + " tool with impl."),
		jen.Func().Id(toolRun(t)).Params(
			jen.Id("impl").Id(InterfaceName),
			jen.Id("ctx").Qual("context", "Context"),
			jen.Id("call").Op("*").Qual(runtimePkg, "Call"),
			jen.Id("args").Any(),
		).Params(jen.Qual(runtimePkg, "Result"), jen.Error()).Block(
			jen.If(
				jen.List(jen.Id("a"), jen.Id("ok")).Op(":=").Id("args").Assert(jen.Op("*").Id(args)),
				jen.Id("ok").Op("&&").Id("a").Op("!=").Nil(),
			).Block(jen.Return(call)),
			jen.Return(jen.Qual(runtimePkg, "Result").Values(), jen.Qual(wirePkg, "ArgsError").Call(jen.Id("args"), jen.Parens(jen.Op("*").Id(args)).Parens(jen.Nil()))),
		),
		jen.Line(),
	}
}

// bindDecl declares bind, which Module and the tools' own functions copy
// a package-level runtime.Tool with: none when no tool executesMethod.
// It is not inlined: inlined, its closure would be compiled once per call.
func (g *generator) bindDecl() []jen.Code {
	any := false
	for _, t := range g.f.Tools {
		any = any || executesMethod(t)
	}
	if !any {
		return nil
	}
	ctxCall := []jen.Code{jen.Id("ctx").Qual("context", "Context"), jen.Id("call").Op("*").Qual(runtimePkg, "Call")}
	runType := jen.Func().Params(jen.Id(InterfaceName), jen.Qual("context", "Context"), jen.Op("*").Qual(runtimePkg, "Call"), jen.Any()).Params(jen.Qual(runtimePkg, "Result"), jen.Error())
	return []jen.Code{
		comment("bind returns a copy of t, one of the package's tools, whose Execute calls run with impl: how Module makes the tools of each module it returns. (Not inlined, its closure is compiled once.)"),
		jen.Comment("//go:noinline"),
		jen.Func().Id("bind").Params(
			jen.Id("t").Op("*").Qual(runtimePkg, "Tool"),
			jen.Id("impl").Id(InterfaceName),
			jen.Id("run").Add(runType),
		).Op("*").Qual(runtimePkg, "Tool").Block(
			jen.Id("c").Op(":=").Op("*").Id("t"),
			jen.Id("c").Dot("Execute").Op("=").Func().Params(append(ctxCall, jen.Id("args").Any())...).Params(jen.Qual(runtimePkg, "Result"), jen.Error()).Block(
				jen.Return(jen.Id("run").Call(jen.Id("impl"), jen.Id("ctx"), jen.Id("call"), jen.Id("args"))),
			),
			jen.Return(jen.Op("&").Id("c")),
		),
		jen.Line(),
	}
}

// executesMethod reports whether t's Execute is its executor method (as
// opposed to an agent tool's runtime.AgentExecute, or an http: or mcp:
// tool's call).
func executesMethod(t *spec.Tool) bool { return !isAgent(t) && t.HTTP == nil && t.MCP == nil }

// moduleArgs are Module's parameters as arguments.
func (g *generator) moduleArgs() []jen.Code {
	args := []jen.Code{jen.Id("impl")}
	if hasHTTP(g.f) {
		args = append(args, jen.Id("api"))
	}
	if hasMCP(g.f) { // mcpbind.go
		args = append(args, jen.Id("remote"))
	}
	return args
}

// toolFuncDecl declares t's package-level runtime.Tool, its DecodeWith
// function and, for a tool that bindsMore, toolFunc(t).
func (g *generator) toolFuncDecl(t *toolIR) []jen.Code {
	doc := toolStatic(t) + " is the tool less its Execute, set by Module (" + toolRun(t) + ")."
	if bindsMore(t.tool) {
		doc = toolStatic(t) + " is the tool less what needs Module's arguments, set by " + toolFunc(t) + "."
	}
	if !g.jen && !bindsMore(t.tool) {
		if static := g.rawToolStatic(t, doc); static != nil {
			if decode := g.rawDecode(t); decode != nil {
				return []jen.Code{static, decode, g.rawRun(t)}
			}
		}
	}
	static, bound := g.toolLiteral(t)
	args := t.args.name
	out := []jen.Code{
		comment(doc),
		jen.Var().Id(toolStatic(t)).Op("=").Qual(runtimePkg, "Tool").Add(multi(static...)),
		jen.Line(),
		comment(toolDecode(t) + " is the tool's DecodeWith: Decode" + args + " with a mode."),
		jen.Func().Id(toolDecode(t)).Params(jen.Id("data").Index().Byte(), jen.Id("mode").Qual(runtimePkg, "DecodeMode")).Params(jen.Any(), jen.Error()).Block(
			g.decodeBody(t.args, jen.Id("mode"))...,
		),
		jen.Line(),
	}
	if executesMethod(t.tool) {
		out = append(out, runDecl(t)...)
	}
	if !bindsMore(t.tool) {
		return out
	}
	var body []jen.Code
	ret := jen.Return(jen.Id("t"))
	if executesMethod(t.tool) {
		body = append(body, jen.Id("t").Op(":=").Add(bindCall(t)))
	} else {
		body = append(body, jen.Id("t").Op(":=").Id(toolStatic(t)))
		ret = jen.Return(jen.Op("&").Id("t"))
	}
	for _, b := range bound {
		body = append(body, jen.Id("t").Dot(b.field).Op("=").Add(b.value))
	}
	body = append(body, ret)
	return append(out,
		comment(toolFunc(t)+" builds the "+t.tool.Name+" tool of Module."),
		jen.Func().Id(toolFunc(t)).Params(g.moduleParams()...).Op("*").Qual(runtimePkg, "Tool").Block(body...),
		jen.Line(),
	)
}

// decodeBody is the body of a decode function of the argument struct
// args: it reads data in mode with a pooled wire.Decoder, through args's
// table when it has one (table.go), else with its decode method.
func (g *generator) decodeBody(args *goType, mode jen.Code) []jen.Code {
	if args.root && g.tabled(args) {
		return g.tableDecodeBody(args, mode)
	}
	read := []jen.Code{jen.Id("x").Dot("decode").Call(jen.Id("d"))}
	out := []jen.Code{
		jen.Id("x").Op(":=").New(jen.Id(args.name)),
		jen.Id("d").Op(":=").Qual(wirePkg, "Start").Call(jen.Id("data"), mode),
	}
	out = append(out, read...)
	return append(out, jen.Return(jen.Id("x"), jen.Id("d").Dot("Done").Call()))
}

// decodeEntryBody is the body of t's exported Decode<Tool>Args function:
// its DecodeWith function (toolDecode) in the zero mode, which is Decode's.
func decodeEntryBody(t *toolIR) []jen.Code {
	return []jen.Code{
		jen.List(jen.Id("v"), jen.Id("err")).Op(":=").Id(toolDecode(t)).Call(jen.Id("data"), jen.Lit(0)),
		jen.Return(jen.Id("v").Assert(jen.Op("*").Id(t.args.name)), jen.Id("err")),
	}
}

// toolVar is the local variable Module builds a batched tool in
// ("listEventsBound"): a name no keyword, import or package-level
// declaration of the generated file can have.
func toolVar(t *toolIR) string { return t.goLower + "Bound" }

// batchTool is the batch wrapper of t, built in the variable v, with the
// options the spec loader resolved (defaults filled in and validated, so
// MustParallelize cannot fail). Options equal to the runtime's defaults are
// left out; the name is always given, as the batch tool's constant.
func batchTool(f *spec.File, t *spec.Tool, v string) jen.Code {
	b := t.Batch
	opts := []jen.Code{optLine("Name", jen.Id(batchConst(f, t)))}
	if b.Description != "" {
		opts = append(opts, optLine("Description", jen.Lit(b.Description)))
	}
	if b.MaxItems != spec.DefaultBatchMaxItems {
		opts = append(opts, optLine("MaxItems", jen.Lit(b.MaxItems)))
	}
	if b.MaxConcurrency != spec.DefaultBatchMaxConcurrency {
		opts = append(opts, optLine("MaxConcurrency", jen.Lit(b.MaxConcurrency)))
	}
	if b.MaxResultBytes != spec.DefaultBatchMaxResultBytes {
		size, unit := byteSize(b.MaxResultBytes)
		line := optLine("MaxResultBytes", size)
		if unit != "" {
			line.Comment(unit)
		}
		opts = append(opts, line)
	}
	return jen.Qual(runtimePkg, "MustParallelize").Call(
		jen.Id(v),
		jen.Qual(runtimePkg, "ParallelizeOptions").Add(optLines(opts...)),
	)
}

// byteSize writes a byte count as a person would: a whole number of MiB or
// KiB as a shift ("5 << 20"), with the unit spelled out for a comment
// ("5 MiB"); other counts as they are, with no comment.
func byteSize(n int) (jen.Code, string) {
	for _, u := range []struct {
		shift int
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			k := n >> u.shift
			return jen.Lit(k).Op("<<").Lit(u.shift), strconv.Itoa(k) + " " + u.name
		}
	}
	return jen.Lit(n), ""
}

// optLine is one "Key: value," line of a composite literal built by optLines;
// a trailing comment may follow it.
func optLine(key string, value jen.Code) *jen.Statement {
	return jen.Id(key).Op(":").Add(value).Op(",")
}

// optLines is a composite literal's braces around lines made by optLine, one
// per line. Unlike multi, it leaves the commas to the lines, so a line can
// end with a comment.
func optLines(lines ...jen.Code) *jen.Statement {
	return jen.Custom(jen.Options{Open: "{", Close: "}", Multi: true}, lines...)
}

// boundField is a field of a tool's runtime.Tool that needs Module's
// arguments, set by the tool's own function (toolFunc).
type boundField struct {
	field string
	value jen.Code
}

// toolLiteral is the runtime.Tool of one tool, in field order: the fields
// of its package-level literal (static), and those that need Module's
// arguments (bound; only for a tool that bindsMore, else Module sets
// Execute itself).
func (g *generator) toolLiteral(ti *toolIR) (static []jen.Code, bound []boundField) {
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
	}
	lines = append(lines, titleAndIcons(t)...) // icons.go
	lines = append(lines,
		jen.Id("Schema").Op(":").Qual("encoding/json", "RawMessage").Parens(jen.Id(ti.goLower+"Schema")),
	)
	if t.Result != nil {
		lines = append(lines, jen.Id("ResultSchema").Op(":").Qual("encoding/json", "RawMessage").Parens(jen.Id(ti.goLower+"ResultSchema")))
	}
	if len(t.Examples) > 0 {
		lines = append(lines, jen.Id("Examples").Op(":").Id(examplesFunc(t)).Call())
	}
	if t.Gate != "" {
		f := g.f
		gate, msg := jen.Lit(t.Gate), jen.Lit(t.GateMessage)
		if c := f.GateConst(t.Gate); c != "" {
			gate = jen.Id(c)
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
	lines = append(lines, jen.Id("Flags").Op(":").Add(flagsValue(fl)))
	if t.DeferLoading {
		lines = append(lines, jen.Id("DeferLoading").Op(":").True())
	}
	lines = append(lines,
		jen.Id("DecodeWith").Op(":").Id(toolDecode(ti)),
		jen.Id("Label").Op(":").Id(ti.goLower+"Label"),
	)
	if !bindsMore(t) {
		return lines, nil
	}

	switch {
	case t.HTTP != nil:
		bound = append(bound, boundField{"Execute", g.httpExecute(ti, assertArgs, argsErr)})
	case t.MCP != nil: // mcpbind.go
		bound = append(bound, boundField{"Execute", g.mcpExecute(ti, assertArgs, argsErr)})
	case isAgent(t):
		bound = append(bound, boundField{"Execute", g.agentExecute(ti, assertArgs, argsErr)})
	} // else the tool's function starts from bindCall

	if fl.PermissionCheck {
		body := assertArgs(jen.Return(jen.Qual(runtimePkg, "Denied").Call(
			jen.Lit("the arguments of " + t.Name + " could not be checked"))))
		body = append(body, jen.Return(jen.Id("impl").Dot(t.GoName+"Permission").Call(jen.Id("ctx"), jen.Id("call"), jen.Id("a"))))
		bound = append(bound, boundField{"Permission", jen.Func().Params(ctxCall...).Qual(runtimePkg, "Decision").Block(body...)})
	}
	byInput := func(field, method string) {
		bound = append(bound, boundField{field, jen.Func().Params(jen.Id("args").Any()).Bool().Block(
			jen.List(jen.Id("a"), jen.Id("ok")).Op(":=").Id("args").Assert(jen.Op("*").Id(args)),
			jen.Return(jen.Id("ok").Op("&&").Id("a").Op("!=").Nil().Op("&&").Id("impl").Dot(method).Call(jen.Id("a"))),
		)})
	}
	if fl.ReadOnly.Mode == spec.ByInput {
		byInput("ReadOnlyFor", t.GoName+"ReadOnly")
	}
	if fl.ConcurrencySafe.Mode == spec.ByInput {
		byInput("ConcurrencySafeFor", t.GoName+"ConcurrencySafe")
	}

	return lines, bound
}

// flagsValue is the runtime.Flags literal of fl, naming only the flags
// that are true, as a person would write it (on one line when they are
// few). A disabled tool says Enabled: false, since a tool is enabled unless
// it says otherwise.
func flagsValue(fl spec.Flags) jen.Code {
	var set []jen.Code
	for _, l := range flagsSet(fl) {
		set = append(set, jen.Id(l.k).Op(":").Id(l.v))
	}
	if len(set) > 4 {
		return jen.Qual(runtimePkg, "Flags").Add(multi(set...))
	}
	return jen.Qual(runtimePkg, "Flags").Values(set...)
}

// flagsSet are the fields of fl's runtime.Flags literal: Enabled: false
// for a disabled tool, then each flag that is true.
func flagsSet(fl spec.Flags) []litLine {
	var set []litLine
	if !fl.Enabled.Value {
		set = append(set, litLine{k: "Enabled", v: "false"})
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
			set = append(set, litLine{k: f.name, v: "true"})
		}
	}
	return set
}

// multi is a composite literal's braces and elements, one per line, in
// the order given.
func multi(items ...jen.Code) *jen.Statement {
	return jen.Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, items...)
}

// agentExecute is the Execute function of an agent tool:
// runtime.AgentExecute over the executor method, which makes the
// sub-agent, and the tool's prompt function (nil: the runtime's default
// prompt). (An ordinary tool's Execute is its executor method, set by
// wire.Bind.)
func (g *generator) agentExecute(ti *toolIR, assertArgs func(onFail jen.Code) []jen.Code, argsErr jen.Code) jen.Code {
	t := ti.tool
	method := jen.Id("impl").Dot(t.GoName).Call(jen.Id("ctx"), jen.Id("call"), jen.Id("a"))
	ctxParam := jen.Id("ctx").Qual("context", "Context")
	callParam := jen.Id("call").Op("*").Qual(runtimePkg, "Call")
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
