package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/spec"
)

// Import paths used by generated code.
const (
	runtimePkg = "github.com/toolgen/toolgen/runtime"
	wirePkg    = "github.com/toolgen/toolgen/runtime/wire"
)

// InterfaceName is the name of the generated executor interface.
const InterfaceName = "Executor"

// DefaultImplName is the type the stubs file declares when it is first written.
const DefaultImplName = "Tools"

// Method is one method of the generated Executor interface: what the
// developer writes by hand. The stubs file is rendered from these.
type Method struct {
	// Tool is the tool the method belongs to.
	Tool *spec.Tool
	// Name is the Go method name ("ListCustomers", "ListCustomersReadOnly").
	Name string
	// Doc is the method's doc comment text (without "//").
	Doc string
	// Params and Results are the signature, with parameter names.
	Params  []jen.Code
	Results []jen.Code
	// Zero is the statement a fresh stub's body returns, e.g.
	// `return runtime.Result{}, errors.New("not implemented")`.
	Zero jen.Code

	// sig is the signature as Go text, "(params) results", and zero
	// Zero's statement, naming the packages context, errors and runtime
	// as the generated code and a new stubs file import them.
	sig, zero string
}

// ArgsTypeName and ResultTypeName are the Go names of a tool's argument and
// typed-result structs.
func ArgsTypeName(t *spec.Tool) string   { return t.GoName + "Args" }
func ResultTypeName(t *spec.Tool) string { return t.GoName + "Result" }

// isAgent reports whether t is an agent tool (`kind: agent`).
func isAgent(t *spec.Tool) bool { return t.Kind == spec.KindAgent }

// notImplText is the text of a fresh stub's return of zero and a "not
// implemented" error.
func notImplText(zero string) string { return "return " + zero + `, errors.New("not implemented")` }

// ExecutorMethods lists the methods of the Executor interface for f, in spec
// order: per tool the executor itself, then its optional hand-written
// decisions (by-input flags, permission check). The executor of an agent
// tool (`kind: agent`) returns a fresh runtime.Agent for the call instead
// of a result.
func ExecutorMethods(f *spec.File) []Method {
	var ms []Method
	ctxParam := func() jen.Code { return jen.Id("ctx").Qual("context", "Context") }
	callParam := func() jen.Code { return jen.Id("call").Op("*").Qual(runtimePkg, "Call") }
	notImpl := func(zero jen.Code) jen.Code {
		return jen.Return(zero, jen.Qual("errors", "New").Call(jen.Lit("not implemented")))
	}
	for _, t := range f.Tools {
		args := func() jen.Code { return jen.Id("args").Op("*").Id(ArgsTypeName(t)) }
		argsText := "args *" + ArgsTypeName(t)
		callArgs := "(ctx context.Context, call *runtime.Call, " + argsText + ") "
		m := Method{
			Tool:   t,
			Name:   t.GoName,
			Doc:    t.GoName + " runs the " + t.Name + " tool: " + t.Description,
			Params: []jen.Code{ctxParam(), callParam(), args()},
		}
		switch {
		case isAgent(t):
			// An agent tool's method makes the sub-agent; the runtime sends
			// it the prompt and turns its response into the result.
			m.Doc = t.GoName + " creates a fresh sub-agent for one call of the " + t.Name + " tool: " + t.Description
			m.Results = []jen.Code{jen.Qual(runtimePkg, "Agent"), jen.Error()}
			m.Zero = notImpl(jen.Nil())
			m.sig, m.zero = callArgs+"(runtime.Agent, error)", notImplText("nil")
		case t.Result != nil:
			m.Results = []jen.Code{jen.Op("*").Id(ResultTypeName(t)), jen.Error()}
			m.Zero = notImpl(jen.Nil())
			m.sig, m.zero = callArgs+"(*"+ResultTypeName(t)+", error)", notImplText("nil")
		default:
			m.Results = []jen.Code{jen.Qual(runtimePkg, "Result"), jen.Error()}
			m.Zero = notImpl(jen.Qual(runtimePkg, "Result").Values())
			m.sig, m.zero = callArgs+"(runtime.Result, error)", notImplText("runtime.Result{}")
		}
		if t.HTTP == nil && t.MCP == nil { // a bound tool's executor is generated (http.go, mcpbind.go)
			ms = append(ms, m)
		}
		if t.Flags.ReadOnly.Mode == spec.ByInput {
			ms = append(ms, Method{
				Tool: t, Name: t.GoName + "ReadOnly",
				Doc:     t.GoName + "ReadOnly reports whether a call of " + t.Name + " with args changes nothing.",
				Params:  []jen.Code{args()},
				Results: []jen.Code{jen.Bool()},
				Zero:    jen.Return(jen.False()),
				sig:     "(" + argsText + ") bool",
				zero:    "return false",
			})
		}
		if t.Flags.ConcurrencySafe.Mode == spec.ByInput {
			ms = append(ms, Method{
				Tool: t, Name: t.GoName + "ConcurrencySafe",
				Doc:     t.GoName + "ConcurrencySafe reports whether a call of " + t.Name + " with args may run in parallel with other calls.",
				Params:  []jen.Code{args()},
				Results: []jen.Code{jen.Bool()},
				Zero:    jen.Return(jen.False()),
				sig:     "(" + argsText + ") bool",
				zero:    "return false",
			})
		}
		if t.Flags.PermissionCheck {
			ms = append(ms, Method{
				Tool: t, Name: t.GoName + "Permission",
				Doc:     t.GoName + "Permission is the tool's own permission check, run before the host's policy.",
				Params:  []jen.Code{ctxParam(), callParam(), args()},
				Results: []jen.Code{jen.Qual(runtimePkg, "Decision")},
				Zero:    jen.Return(jen.Qual(runtimePkg, "Denied").Call(jen.Lit("permission check not implemented"))),
				sig:     callArgs + "runtime.Decision",
				zero:    `return runtime.Denied("permission check not implemented")`,
			})
		}
	}
	return ms
}
