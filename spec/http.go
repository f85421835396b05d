package spec

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// An HTTP binding (`http:`) makes a tool call an HTTP API: the generator
// then writes the tool's executor (no stub), which sends one request per
// call through runtime/httpapi. The module's `http:` says how to reach and
// authenticate with the API; each tool's `http:` gives the method, the path
// template and where each argument goes.

// HTTPModule is a module's `http:` mapping.
type HTTPModule struct {
	Pos Pos
	// BaseURL is the API's default base URL (`base_url:`), which a user's
	// credentials may override; "" means every user's credentials give one.
	BaseURL string
	// Auth is how a request is authenticated (`auth:`); nil: not at all.
	Auth *HTTPAuth
}

// AuthType is an HTTP authentication scheme.
type AuthType string

const (
	AuthBearer AuthType = "bearer" // Authorization: Bearer <token>
	AuthBasic  AuthType = "basic"  // Authorization: Basic base64(user:password)
	AuthAPIKey AuthType = "api_key"
)

// HTTPAuth is the module's `auth:`: the scheme, and for an API key where
// it goes (In is "header" or "query") under which Name.
type HTTPAuth struct {
	Pos  Pos
	Type AuthType
	In   string
	Name string
}

// ArgIn is where an argument goes in a request.
type ArgIn string

const (
	InPath   ArgIn = "path"   // replaces {name} in the path template
	InQuery  ArgIn = "query"  // a query parameter
	InHeader ArgIn = "header" // a request header
	InBody   ArgIn = "body"   // a property of the request body object
	// InWholeBody: the argument's value is the whole request body (an
	// OpenAPI body that is not an object, wrapped in one argument).
	InWholeBody ArgIn = "whole_body"
)

// Body encodings of a request body.
const (
	BodyJSON = "json" // application/json
	BodyForm = "form" // application/x-www-form-urlencoded
)

// Parameter styles (OpenAPI 3's `style`).
const (
	StyleSimple         = "simple"
	StyleForm           = "form"
	StyleDeepObject     = "deepObject"
	StyleSpaceDelimited = "spaceDelimited"
	StylePipeDelimited  = "pipeDelimited"
)

// HTTPBinding is a tool's `http:` mapping, with defaults filled in.
type HTTPBinding struct {
	Pos    Pos
	Method string // upper case: GET, POST, …
	// Path is the path template ("/v1/customers/{customer}"), appended to
	// the base URL.
	Path string
	// Body is the body encoding, BodyJSON or BodyForm; "" when the request
	// has no body (no argument goes in it).
	Body string
	// Args says where each parameter goes, one per parameter of the tool in
	// parameter order, defaults filled in (a parameter the `args:` mapping
	// leaves out goes in the path when the template names it, else in the
	// query of a GET, HEAD, DELETE or OPTIONS request, else in the body),
	// except a pagination max-pages parameter, which is not sent.
	Args []*HTTPArg
	// Paginate makes one call fetch several pages (`paginate:`); nil: one.
	Paginate *Pagination
}

// HTTPArg is where one parameter goes.
type HTTPArg struct {
	Pos   Pos
	Param string // the parameter's name in the tool's arguments
	In    ArgIn
	// Name is the name in the request (path placeholder, query parameter,
	// header or body property); by default the parameter's name.
	Name string
	// Style and Explode follow OpenAPI 3: path and header simple; query
	// form (explode true), deepObject, spaceDelimited or pipeDelimited;
	// body properties of a form body form or deepObject. Style is always
	// set (the location's default when the spec leaves it out); Explode
	// defaults to true for form, false otherwise.
	Style   string
	Explode bool
}

// Pagination styles.
const (
	// PageCursor: the next page's request sets Cursor (a parameter, such as
	// Stripe's starting_after) to the CursorField (default "id") of the
	// last item, while the HasMore field of the response is true.
	PageCursor = "cursor"
	// PageNextLink: the response's Next field holds the next page's URL
	// (empty or null on the last page).
	PageNextLink = "next_link"
	// PageToken: the response's NextToken field holds a token the next
	// request sends as the Token parameter (empty or absent on the last).
	PageToken = "page_token"
)

// Pagination is a tool's `paginate:`. A call fetches pages until the last
// page or MaxPages pages and returns the first response with the Items
// arrays of all pages concatenated.
type Pagination struct {
	Pos   Pos
	Style string
	// Items is the response field holding a page's items ("data").
	Items string
	// MaxPages names the integer parameter that caps the pages fetched (its
	// absence: one page; not sent to the API).
	MaxPages string
	// cursor
	HasMore     string
	Cursor      string
	CursorField string
	// next_link
	Next string
	// page_token
	Token     string
	NextToken string
}

var (
	httpModuleKeys = []string{"base_url", "auth"}
	httpAuthKeys   = []string{"type", "in", "name"}
	httpToolKeys   = []string{"method", "path", "body", "args", "paginate"}
	httpArgKeys    = []string{"in", "name", "style", "explode"}
	paginateKeys   = []string{"style", "items", "max_pages", "has_more", "cursor", "cursor_field", "next", "token", "next_token"}

	httpMethods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}
	argIns      = []string{string(InPath), string(InQuery), string(InHeader), string(InBody), string(InWholeBody)}
	authTypes   = []string{string(AuthBearer), string(AuthBasic), string(AuthAPIKey)}
	bodyKinds   = []string{BodyJSON, BodyForm}
	pageStyles  = []string{PageCursor, PageNextLink, PageToken}
	// stylesFor lists the styles allowed at each location; the first is
	// the default.
	stylesFor = map[ArgIn][]string{
		InPath:      {StyleSimple},
		InHeader:    {StyleSimple},
		InQuery:     {StyleForm, StyleDeepObject, StyleSpaceDelimited, StylePipeDelimited},
		InBody:      {StyleForm, StyleDeepObject},
		InWholeBody: {StyleForm},
	}
	pathVarRe = regexp.MustCompile(`\{([^{}]*)\}`)
)

// httpModule reads a module's `http:`.
func (p *parser) httpModule(v *yaml.Node) *HTTPModule {
	const in = "in http at module level"
	m := p.mapping(v, "http at module level", in, httpModuleKeys)
	if m == nil {
		return nil
	}
	h := &HTTPModule{Pos: p.pos(deref(v))}
	if bv := m.val("base_url"); bv != nil {
		if s, ok := p.str(bv, "base_url"); ok {
			if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
				p.errorf(bv, "base_url %q must be an absolute http:// or https:// URL", s)
			} else if strings.ContainsAny(s, "?#") {
				p.errorf(bv, "base_url %q must not have a query or fragment", s)
			}
			h.BaseURL = strings.TrimSuffix(s, "/")
		}
	}
	if av := m.val("auth"); av != nil {
		am := p.mapping(av, "auth "+in, "in auth", httpAuthKeys)
		if am == nil {
			return h
		}
		a := &HTTPAuth{Pos: p.pos(deref(av))}
		if tv := am.val("type"); tv == nil {
			p.errorf(av, "missing required key \"type\" in auth (%s)", strings.Join(authTypes, ", "))
		} else if s, ok := p.str(tv, "auth type"); ok {
			if !contains(authTypes, s) {
				p.errorf(tv, "auth type %q must be one of %s%s", s, strings.Join(authTypes, ", "), didYouMean(s, authTypes))
			}
			a.Type = AuthType(s)
		}
		if iv := am.val("in"); iv != nil {
			if s, ok := p.str(iv, "auth in"); ok {
				if s != "header" && s != "query" {
					p.errorf(iv, "auth in %q must be header or query", s)
				}
				a.In = s
			}
		}
		if nv := am.val("name"); nv != nil {
			a.Name, _ = p.str(nv, "auth name")
		}
		if a.Type == AuthAPIKey {
			if a.In == "" {
				a.In = "header"
			}
			if a.Name == "" {
				p.errorf(av, "an api_key auth needs the name of its %s (name: X-API-Key, say)", a.In)
			}
		} else if a.Type != "" && (am.has("in") || am.has("name")) {
			p.errorf(av, "in and name are only for api_key auth; %s auth uses the Authorization header", a.Type)
		}
		h.Auth = a
	}
	return h
}

// httpTool reads a tool's `http:`. The checks that need the parameters'
// resolved schemas run once the whole file is read.
func (p *parser) httpTool(v *yaml.Node, t *Tool, f *File, in string) *HTTPBinding {
	hin := "in http of " + strings.TrimPrefix(in, "in ")
	m := p.mapping(v, "http "+in, hin, httpToolKeys)
	if m == nil {
		return nil
	}
	d := deref(v)
	b := &HTTPBinding{Pos: p.pos(d)}
	if t.Kind == KindAgent {
		p.errorf(v, "http is not supported on kind: agent tools %s: an agent's sub-agent answers the call", in)
	}
	if f.HTTP == nil {
		p.errorf(v, "http %s needs the module's http (base_url, auth) at module level", in)
	}
	if mv := m.val("method"); mv == nil {
		p.errorf(d, "missing required key \"method\" %s", hin)
	} else if s, ok := p.str(mv, "method"); ok {
		up := strings.ToUpper(s)
		if !contains(httpMethods, up) {
			p.errorf(mv, "method %q %s must be one of %s", s, hin, strings.Join(httpMethods, ", "))
		}
		b.Method = up
	}
	var pathNode *yaml.Node
	if pv := m.val("path"); pv == nil {
		p.errorf(d, "missing required key \"path\" %s (the path template, such as /v1/customers/{id})", hin)
	} else if s, ok := p.str(pv, "path"); ok {
		pathNode = pv
		if !strings.HasPrefix(s, "/") {
			p.errorf(pv, "path %q %s must start with /", s, hin)
		} else if strings.ContainsAny(s, "?#") {
			p.errorf(pv, "path %q %s must not hold a query or fragment: put query parameters in args", s, hin)
		}
		b.Path = s
	}
	var bodyNode *yaml.Node
	if bv := m.val("body"); bv != nil {
		if s, ok := p.str(bv, "body"); ok {
			if !contains(bodyKinds, s) {
				p.errorf(bv, "body %q %s must be json or form%s", s, hin, didYouMean(s, bodyKinds))
			}
			b.Body, bodyNode = s, bv
		}
	}

	type given struct {
		key *yaml.Node
		arg *HTTPArg
		set map[string]bool
	}
	var explicit []given
	if av := m.val("args"); av != nil && !isNull(av) {
		am := p.mapping(av, "args "+hin, "in args of "+strings.TrimPrefix(hin, "in "), nil)
		if am != nil {
			for _, e := range am.list {
				g := given{key: e.Key, arg: &HTTPArg{Pos: p.pos(e.Key), Param: e.name}, set: map[string]bool{}}
				p.httpArg(e.Val, g.arg, g.set)
				explicit = append(explicit, g)
			}
		}
	}
	if pv := m.val("paginate"); pv != nil {
		b.Paginate = p.paginate(pv, hin)
	}

	p.later = append(p.later, func(p *parser) {
		byParam := map[string]given{}
		names := make([]string, 0, len(t.Params.Properties))
		for _, prop := range t.Params.Properties {
			names = append(names, prop.Name)
		}
		for _, g := range explicit {
			if t.Params.Property(g.arg.Param) == nil {
				p.errorf(g.key, "args names %q, which is not a parameter of tool %q%s", g.arg.Param, t.Name, didYouMean(g.arg.Param, names))
				continue
			}
			if b.Paginate != nil && g.arg.Param == b.Paginate.MaxPages {
				p.errorf(g.key, "parameter %q is paginate's max_pages: it is not sent, so args cannot place it", g.arg.Param)
				continue
			}
			byParam[g.arg.Param] = g
		}
		vars := map[string]bool{}
		for _, mt := range pathVarRe.FindAllStringSubmatch(b.Path, -1) {
			vars[mt[1]] = true
		}
		hasBody := b.Method != "GET" && b.Method != "HEAD" && b.Method != "DELETE" && b.Method != "OPTIONS"
		wire := map[string]*HTTPArg{} // in + name → arg
		var whole *HTTPArg
		var bodyParams []string
		for _, prop := range t.Params.Properties {
			if b.Paginate != nil && prop.Name == b.Paginate.MaxPages {
				continue
			}
			g, ok := byParam[prop.Name]
			a := g.arg
			if !ok {
				a = &HTTPArg{Pos: prop.Pos, Param: prop.Name}
				g.set = map[string]bool{}
			}
			if a.Name == "" {
				a.Name = prop.Name
			}
			if a.In == "" {
				switch {
				case vars[a.Name]:
					a.In = InPath
				case hasBody:
					a.In = InBody
				default:
					a.In = InQuery
				}
			}
			allowed := stylesFor[a.In]
			if a.Style == "" {
				a.Style = allowed[0]
			} else if !contains(allowed, a.Style) {
				p.errorAt(a.Pos, "style %s of parameter %q is not for %s arguments; use %s", a.Style, prop.Name, a.In, joinOr(allowed))
			}
			if !g.set["explode"] {
				a.Explode = a.Style == StyleForm
			}
			res := prop.Schema.Resolved()
			scalar := res != nil && res.Type != TypeObject && res.Type != TypeArray
			switch a.In {
			case InPath:
				if !vars[a.Name] {
					p.errorAt(a.Pos, "parameter %q goes in the path as {%s}, which the path template %q does not hold", prop.Name, a.Name, b.Path)
				}
				if !prop.Required || prop.Schema.Nullable {
					p.errorAt(a.Pos, "path parameter %q must be required and not nullable: the path has no place for its absence", prop.Name)
				}
				if res != nil && !scalar {
					p.errorAt(a.Pos, "path parameter %q must be a string, number, integer or boolean; found %s", prop.Name, res.Type)
				}
			case InHeader:
				if res != nil && !scalar {
					p.errorAt(a.Pos, "header parameter %q must be a string, number, integer or boolean; found %s", prop.Name, res.Type)
				}
			case InBody:
				bodyParams = append(bodyParams, strconvQuote(prop.Name))
			case InWholeBody:
				if whole != nil {
					p.errorAt(a.Pos, "parameter %q is a second whole_body argument (the first is %q); a request has one body", prop.Name, whole.Param)
				}
				whole = a
			}
			if a.Style == StyleDeepObject && res != nil && scalar {
				p.errorAt(a.Pos, "deepObject parameter %q must be an object or array; found %s", prop.Name, res.Type)
			}
			if a.In != InWholeBody {
				key := string(a.In) + "\x00" + a.Name
				if a.In == InHeader {
					key = string(a.In) + "\x00" + strings.ToLower(a.Name)
				}
				if first, dup := wire[key]; dup {
					p.errorAt(a.Pos, "parameters %q and %q both go in the %s as %q; rename one with name:", first.Param, prop.Name, a.In, a.Name)
				}
				wire[key] = a
			}
			b.Args = append(b.Args, a)
		}
		placed := map[string]bool{}
		for _, a := range b.Args {
			if a.In == InPath {
				placed[a.Name] = true
			}
		}
		for _, v := range slices.Sorted(mapKeys(vars)) {
			if !placed[v] && pathNode != nil {
				p.errorf(pathNode, "the path template's {%s} has no parameter: add a parameter %s (or one with name: %s in args)", v, v, v)
			}
		}
		if whole != nil && len(bodyParams) > 0 {
			p.errorAt(whole.Pos, "parameter %q is the whole body, so no parameter can be a property of it (%s is)", whole.Param, joinAnd(bodyParams))
		}
		if whole != nil {
			bodyParams = append(bodyParams, strconvQuote(whole.Param))
		}
		needsBody := len(bodyParams) > 0
		switch {
		case needsBody && !hasBody && b.Method != "":
			p.errorAt(b.Pos, "a %s request has no body, but %s of tool %q would go in it; put it in the query", b.Method, joinAnd(bodyParams), t.Name)
		case needsBody && b.Body == "":
			b.Body = BodyJSON
		case !needsBody && b.Body != "" && bodyNode != nil:
			p.errorf(bodyNode, "body %s %s, but no parameter goes in the body", b.Body, hin)
			b.Body = ""
		}
		if b.Body == BodyJSON {
			for _, a := range b.Args {
				if (a.In == InBody || a.In == InWholeBody) && byParam[a.Param].set["style"] {
					p.errorAt(a.Pos, "style is for form bodies; parameter %q goes in a json body", a.Param)
				}
			}
		}
		p.checkPaginate(b.Paginate, t)
	})
	return b
}

func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }

func mapKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// httpArg reads one entry of `args:`: a location (`customer: path`) or a
// mapping (`{in: query, name: id, style: deepObject}`).
func (p *parser) httpArg(v *yaml.Node, a *HTTPArg, set map[string]bool) {
	d := deref(v)
	what := fmt.Sprintf("args entry %q", a.Param)
	readIn := func(n *yaml.Node) {
		if s, ok := p.str(n, what); ok {
			if !contains(argIns, s) {
				p.errorf(n, "%s: %q is not a location; use %s%s", what, s, joinOr(argIns), didYouMean(s, argIns))
				return
			}
			a.In = ArgIn(s)
		}
	}
	if d != nil && d.Kind == yaml.ScalarNode {
		readIn(v)
		return
	}
	m := p.mapping(v, what+" (a location or a mapping of in, name, style, explode)", "in "+what, httpArgKeys)
	if m == nil {
		return
	}
	if iv := m.val("in"); iv != nil {
		readIn(iv)
	}
	if nv := m.val("name"); nv != nil {
		if s, ok := p.str(nv, "name "+what); ok {
			if s == "" {
				p.errorf(nv, "name in %s is empty", what)
			}
			a.Name = s
		}
	}
	if sv := m.val("style"); sv != nil {
		all := []string{StyleSimple, StyleForm, StyleDeepObject, StyleSpaceDelimited, StylePipeDelimited}
		if s, ok := p.str(sv, "style "+what); ok {
			if !contains(all, s) {
				p.errorf(sv, "style %q in %s must be one of %s%s", s, what, strings.Join(all, ", "), didYouMean(s, all))
			} else {
				a.Style = s
			}
			set["style"] = true
		}
	}
	if ev := m.val("explode"); ev != nil {
		a.Explode, _ = p.boolean(ev, "explode in "+what)
		set["explode"] = true
	}
}

// paginate reads a tool's `paginate:`.
func (p *parser) paginate(v *yaml.Node, hin string) *Pagination {
	pin := "in paginate" + strings.TrimPrefix(hin, "in http")
	m := p.mapping(v, "paginate", pin, paginateKeys)
	if m == nil {
		return nil
	}
	pg := &Pagination{Pos: p.pos(deref(v))}
	strKey := func(key string, dst *string) {
		if kv := m.val(key); kv != nil {
			if s, ok := p.str(kv, key+" "+pin); ok {
				if s == "" {
					p.errorf(kv, "%s %s is empty", key, pin)
				}
				*dst = s
			}
		}
	}
	strKey("style", &pg.Style)
	strKey("items", &pg.Items)
	strKey("max_pages", &pg.MaxPages)
	strKey("has_more", &pg.HasMore)
	strKey("cursor", &pg.Cursor)
	strKey("cursor_field", &pg.CursorField)
	strKey("next", &pg.Next)
	strKey("token", &pg.Token)
	strKey("next_token", &pg.NextToken)
	need := func(key, val string) {
		if val == "" {
			p.errorf(v, "missing required key %q %s (%s pagination)", key, pin, pg.Style)
		}
	}
	only := map[string][]string{
		PageCursor:   {"has_more", "cursor", "cursor_field"},
		PageNextLink: {"next"},
		PageToken:    {"token", "next_token"},
	}
	switch pg.Style {
	case "":
		p.errorf(v, "missing required key \"style\" %s (%s)", pin, strings.Join(pageStyles, ", "))
		return pg
	case PageCursor:
		need("has_more", pg.HasMore)
		need("cursor", pg.Cursor)
		if pg.CursorField == "" {
			pg.CursorField = "id"
		}
	case PageNextLink:
		need("next", pg.Next)
	case PageToken:
		need("token", pg.Token)
		need("next_token", pg.NextToken)
	default:
		p.errorf(m.val("style"), "paginate style %q must be one of %s%s", pg.Style, strings.Join(pageStyles, ", "), didYouMean(pg.Style, pageStyles))
		return pg
	}
	need("items", pg.Items)
	for style, keys := range only {
		if style == pg.Style {
			continue
		}
		for _, k := range keys {
			if e, ok := m.get(k); ok && !contains(only[pg.Style], k) {
				p.errorf(e.Key, "%s is for %s pagination, not %s", k, style, pg.Style)
			}
		}
	}
	return pg
}

// checkPaginate checks the parameters and result fields pagination names.
func (p *parser) checkPaginate(pg *Pagination, t *Tool) {
	if pg == nil {
		return
	}
	param := func(name, key string, want ...Type) {
		if name == "" {
			return
		}
		prop := t.Params.Property(name)
		if prop == nil {
			p.errorAt(pg.Pos, "paginate's %s names %q, which is not a parameter of tool %q", key, name, t.Name)
			return
		}
		if r := prop.Schema.Resolved(); r != nil && !slices.Contains(want, r.Type) {
			p.errorAt(prop.Pos, "parameter %q is paginate's %s, so it must be %s; found %s", name, key, typeList(want), r.Type)
		}
	}
	param(pg.MaxPages, "max_pages", TypeInteger)
	param(pg.Cursor, "cursor", TypeString)
	param(pg.Token, "token", TypeString)
	res := t.Result.Resolved()
	if res == nil || res.Type != TypeObject {
		return
	}
	field := func(name, key string, want ...Type) {
		if name == "" {
			return
		}
		prop := res.Property(name)
		if prop == nil {
			return // not in the result the model sees; read from the raw response
		}
		if r := prop.Schema.Resolved(); r != nil && !slices.Contains(want, r.Type) {
			p.errorAt(prop.Pos, "result field %q is paginate's %s, so it must be %s; found %s", name, key, typeList(want), r.Type)
		}
	}
	field(pg.Items, "items", TypeArray)
	field(pg.HasMore, "has_more", TypeBoolean)
	field(pg.Next, "next", TypeString)
	field(pg.NextToken, "next_token", TypeString)
}
