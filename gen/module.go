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
	for _, t := range f.Tools {
		names = append(names, jen.Id("Tool"+t.GoName).Op("=").Lit(t.Name))
		if t.Batch != nil {
			names = append(names, jen.Id(batchConst(f, t)).Op("=").Lit(t.Batch.Name))
		}
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

	// A tool with a batch tool (`batch:`) is built in a variable, so that
	// its batch tool can wrap it; the batch tools follow the spec's tools.
	var pre, tools, batches []jen.Code
	for _, t := range g.tools {
		lit := jen.Id(toolFunc(t)).Call(g.moduleArgs()...)
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
		comment("Module returns a fresh module of the "+f.Provider+" tools, run by impl (not nil). Add it to a registry with reg.AddModule(Module(impl))."+g.moduleDocHTTP()+g.moduleDocMCP()),
		jen.Func().Id("Module").Params(g.moduleParams()...).Op("*").Qual(runtimePkg, "Module").Block(body...),
		jen.Line(),
	)
	return out
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

// toolFunc is the function that builds t's runtime.Tool
// ("newListEventsTool"). Each tool has its own, next to its types, so that
// Module stays a short list: one function holding every tool's literal is
// the largest thing the compiler meets in a big spec, and its cost grows
// faster than the spec.
func toolFunc(t *toolIR) string { return "new" + t.tool.GoName + "Tool" }

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

// toolFuncDecl declares toolFunc(t).
func (g *generator) toolFuncDecl(t *toolIR) []jen.Code {
	return []jen.Code{
		comment(toolFunc(t) + " builds the " + t.tool.Name + " tool of Module."),
		jen.Func().Id(toolFunc(t)).Params(g.moduleParams()...).Op("*").Qual(runtimePkg, "Tool").Block(
			jen.Return(jen.Op("&").Qual(runtimePkg, "Tool").Add(g.toolLiteral(t))),
		),
		jen.Line(),
	}
}

// toolVar is the local variable Module builds a batched tool in
// ("listEventsTool"): a name no keyword, import or package-level
// declaration of the generated file can have.
func toolVar(t *toolIR) string { return t.goLower + "Tool" }

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
		jen.Id("Decode").Op(":").Qual(wirePkg, "DecodeArgs").Call(jen.Id("Decode"+args)),
		jen.Id("DecodeWith").Op(":").Qual(wirePkg, "DecodeWith").Call(jen.Qual(wirePkg, "New").Index(jen.Id(args)), jen.Parens(jen.Op("*").Id(args)).Dot("decode")),
		jen.Id("Label").Op(":").Id(ti.goLower+"Label"),
	)

	if t.HTTP != nil {
		lines = append(lines, jen.Id("Execute").Op(":").Add(g.httpExecute(ti, assertArgs, argsErr)))
	} else if t.MCP != nil { // mcpbind.go
		lines = append(lines, jen.Id("Execute").Op(":").Add(g.mcpExecute(ti, assertArgs, argsErr)))
	} else {
		lines = append(lines, jen.Id("Execute").Op(":").Add(g.execute(ti, assertArgs, argsErr)))
	}

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

// execute is the Execute function of a tool. An ordinary tool's is the
// executor method adapted by wire.Execute, or wire.ExecuteJSON for a
// typed result (encoded as JSON): the runtime, not each tool, asserts the
// arguments' type. An agent tool's is runtime.AgentExecute over the executor method, which
// makes the sub-agent, and the tool's prompt function (nil: the runtime's
// default prompt).
func (g *generator) execute(ti *toolIR, assertArgs func(onFail jen.Code) []jen.Code, argsErr jen.Code) jen.Code {
	t := ti.tool
	if isAgent(t) {
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
	adapt := "Execute"
	if t.Result != nil {
		adapt = "ExecuteJSON"
	}
	return jen.Qual(wirePkg, adapt).Call(jen.Id("impl").Dot(t.GoName))
}
