package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/spec"
)

// The executors of HTTP-bound tools (`http:` in the spec): each tool's
// request is data — an httpapi.Operation — and its Execute calls the
// runtime/httpapi Client that Module takes, so a bound tool has no method
// in the Executor interface and no stub.

const httpapiPkg = "github.com/toolgen/toolgen/runtime/httpapi"

// hasHTTP reports whether any tool of f is bound to an HTTP operation.
func hasHTTP(f *spec.File) bool {
	for _, t := range f.Tools {
		if t.HTTP != nil {
			return true
		}
	}
	return false
}

// moduleParams are Module's parameters: the executor, and the HTTP client
// when a tool is bound.
func (g *generator) moduleParams() []jen.Code {
	ps := []jen.Code{jen.Id("impl").Id(InterfaceName)}
	if hasHTTP(g.f) {
		ps = append(ps, jen.Id("api").Op("*").Qual(httpapiPkg, "Client"))
	}
	return append(ps, g.mcpModuleParams()...) // mcpbind.go
}

// moduleDocHTTP is what Module's doc comment adds for bound tools.
func (g *generator) moduleDocHTTP() string {
	if !hasHTTP(g.f) {
		return ""
	}
	return " The tools with an http: binding call their API through api, with each caller's credentials."
}

// httpDecls are the module-level declarations of a spec with bound tools:
// the API's description and, for a gated module, Gates.
func (g *generator) httpDecls() []jen.Code {
	f := g.f
	if !hasHTTP(f) || f.HTTP == nil {
		return nil
	}
	h := f.HTTP
	g.declare("httpAPI", "the API description of the bound tools")
	auth := jen.Qual(httpapiPkg, "Auth").Values()
	if a := h.Auth; a != nil {
		typ := map[spec.AuthType]string{spec.AuthBearer: "Bearer", spec.AuthBasic: "Basic"}[a.Type]
		if a.Type == spec.AuthAPIKey {
			typ = "APIKeyHeader"
			if a.In == "query" {
				typ = "APIKeyQuery"
			}
		}
		d := []jen.Code{kv("Type", jen.Qual(httpapiPkg, typ))}
		if a.Name != "" {
			d = append(d, kv("Name", jen.Lit(a.Name)))
		}
		auth = jen.Qual(httpapiPkg, "Auth").Values(d...)
	}
	apiFields := []jen.Code{kv("Name", jen.Id("Provider"))}
	if h.BaseURL != "" {
		apiFields = append(apiFields, kv("BaseURL", jen.Lit(h.BaseURL)))
	}
	apiFields = append(apiFields, kv("Auth", auth))
	out := []jen.Code{
		comment("httpAPI is the API the bound tools call: its default base URL (a caller's httpapi.Credentials may override it) and how requests are authenticated."),
		jen.Var().Id("httpAPI").Op("=").Op("&").Qual(httpapiPkg, "API").Add(multi(apiFields...)),
		jen.Line(),
	}
	if f.Gate != "" {
		g.declare("Gates", "the generated Gates function of the bound tools")
		out = append(out,
			comment("Gates returns the host's runtime.Gates with Gate open for the callers creds has credentials for; other gates go to next (nil: closed)."),
			jen.Func().Id("Gates").Params(jen.Id("creds").Qual(httpapiPkg, "CredentialSource"), jen.Id("next").Qual(runtimePkg, "Gates")).Qual(runtimePkg, "Gates").Block(
				jen.Return(jen.Qual(httpapiPkg, "Gates").Call(jen.Id("Gate"), jen.Id("creds"), jen.Id("next"))),
			),
			jen.Line(),
		)
	}
	return out
}

func httpOpVar(ti *toolIR) string { return ti.goLower + "HTTP" }

// httpToolDecls is a bound tool's httpapi.Operation.
func (g *generator) httpToolDecls(ti *toolIR) []jen.Code {
	t := ti.tool
	b := t.HTTP
	if b == nil {
		return nil
	}
	g.declare(httpOpVar(ti), "the HTTP operation of tool "+t.Name)
	ins := map[spec.ArgIn]string{spec.InPath: "InPath", spec.InQuery: "InQuery", spec.InHeader: "InHeader", spec.InBody: "InBody", spec.InWholeBody: "InWholeBody"}
	styles := map[string]string{spec.StyleSimple: "Simple", spec.StyleForm: "Form", spec.StyleDeepObject: "DeepObject", spec.StyleSpaceDelimited: "SpaceDelimited", spec.StylePipeDelimited: "PipeDelimited"}
	var args []jen.Code
	for _, a := range b.Args {
		d := []jen.Code{kv("Param", jen.Lit(a.Param)), kv("Name", jen.Lit(a.Name)), kv("In", jen.Qual(httpapiPkg, ins[a.In]))}
		if a.Style != spec.StyleSimple {
			d = append(d, kv("Style", jen.Qual(httpapiPkg, styles[a.Style])))
		}
		if a.Explode {
			d = append(d, kv("Explode", jen.True()))
		}
		args = append(args, jen.Values(d...))
	}
	op := []jen.Code{
		kv("Tool", jen.Id("Tool"+t.GoName)),
		kv("Method", jen.Lit(b.Method)),
		kv("Path", jen.Lit(b.Path)),
	}
	switch b.Body {
	case spec.BodyJSON:
		op = append(op, kv("Body", jen.Qual(httpapiPkg, "JSONBody")))
	case spec.BodyForm:
		op = append(op, kv("Body", jen.Qual(httpapiPkg, "FormBody")))
	}
	if len(args) > 0 {
		op = append(op, kv("Args", jen.Index().Qual(httpapiPkg, "Arg").Add(multi(args...))))
	}
	if pg := b.Paginate; pg != nil {
		style := map[string]string{spec.PageCursor: "Cursor", spec.PageNextLink: "NextLink", spec.PageToken: "PageToken"}[pg.Style]
		d := []jen.Code{kv("Style", jen.Qual(httpapiPkg, style)), kv("Items", jen.Lit(pg.Items))}
		for _, f := range []struct{ key, val string }{
			{"MaxPages", pg.MaxPages}, {"HasMore", pg.HasMore}, {"Cursor", pg.Cursor}, {"CursorField", pg.CursorField},
			{"Next", pg.Next}, {"Token", pg.Token}, {"NextToken", pg.NextToken},
		} {
			if f.val != "" {
				d = append(d, kv(f.key, jen.Lit(f.val)))
			}
		}
		op = append(op, kv("Paginate", jen.Op("&").Qual(httpapiPkg, "Paginate").Add(multi(d...))))
	}
	return []jen.Code{
		comment(httpOpVar(ti) + " is the request of " + t.Name + ": " + b.Method + " " + b.Path + "."),
		jen.Var().Id(httpOpVar(ti)).Op("=").Op("&").Qual(httpapiPkg, "Operation").Add(multi(op...)),
		jen.Line(),
	}
}

// httpExecute is a bound tool's Execute: assert the arguments, call the
// API, decode the typed result.
func (g *generator) httpExecute(ti *toolIR, assertArgs func(onFail jen.Code) []jen.Code, argsErr jen.Code) jen.Code {
	t := ti.tool
	body := assertArgs(jen.Return(jen.Qual(runtimePkg, "Result").Values(), argsErr))
	res := jen.Nil()
	if t.Result != nil {
		res = jen.New(jen.Id(ResultTypeName(t)))
	}
	body = append(body, jen.Return(jen.Id("api").Dot("Do").Call(
		jen.Id("ctx"), jen.Id("call"), jen.Id("httpAPI"), jen.Id(httpOpVar(ti)), jen.Id("a"), res,
	)))
	return jen.Func().Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("call").Op("*").Qual(runtimePkg, "Call"),
		jen.Id("args").Any(),
	).Params(jen.Qual(runtimePkg, "Result"), jen.Error()).Block(body...)
}

// kv is one "Key: value" element of a composite literal.
func kv(key string, value jen.Code) jen.Code { return jen.Id(key).Op(":").Add(value) }
