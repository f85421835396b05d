package openapi

import (
	"fmt"
	"html"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/toolgen/toolgen/spec"
)

// toolOut is one imported tool, ready to write.
type toolOut struct {
	name        string
	goName      string // go_name, when the default would collide
	comment     string
	description string
	params      []paramOut
	flags       []flagOut
	result      *yaml.Node
	http        *yaml.Node
}

type paramOut struct {
	name     string
	schema   *yaml.Node
	required bool
}

type flagOut struct {
	key string
	val bool
}

// arg is a parameter on its way to becoming an argument.
type arg struct {
	wire     string // name in the request
	in       spec.ArgIn
	style    string
	explode  bool
	required bool
	schema   *yaml.Node
	ptr      string
	scalar   bool
}

// operation imports one operation, or returns why it cannot, and where.
func (im *importer) operation(r opRef, ext Extension, names *nameSet) (*toolOut, string, string) {
	op := r.op
	base := r.pointer()
	req := ctx{dir: request, report: im.note}

	// Parameters: the path item's, overridden by the operation's.
	type pref struct {
		p   *openapi3.Parameter
		ptr string
	}
	var params []pref
	seen := map[string]int{}
	for i, p := range r.item.Parameters {
		if p.Value != nil {
			seen[p.Value.In+"\x00"+p.Value.Name] = len(params)
			params = append(params, pref{p.Value, "#/paths/" + pointer(r.path) + "/parameters/" + strconv.Itoa(i)})
		}
	}
	for i, p := range op.Parameters {
		if p.Value == nil {
			continue
		}
		at := base + "/parameters/" + strconv.Itoa(i)
		if j, ok := seen[p.Value.In+"\x00"+p.Value.Name]; ok {
			params[j] = pref{p.Value, at}
			continue
		}
		params = append(params, pref{p.Value, at})
	}
	var args []*arg
	for _, pr := range params {
		p := pr.p
		a := &arg{wire: p.Name, required: p.Required || p.In == "path", ptr: pr.ptr}
		switch p.In {
		case "path":
			a.in, a.style = spec.InPath, spec.StyleSimple
			if p.Style != "" && p.Style != "simple" {
				return nil, "path parameter " + p.Name + " has style " + p.Style + "; only simple is supported", pr.ptr
			}
		case "query":
			a.in, a.style, a.explode = spec.InQuery, spec.StyleForm, true
			switch p.Style {
			case "", "form":
			case "deepObject", "spaceDelimited", "pipeDelimited":
				a.style, a.explode = p.Style, false
			default:
				if a.required {
					return nil, "query parameter " + p.Name + " has style " + p.Style + ", which is not supported", pr.ptr
				}
				im.note(pr.ptr, "style "+p.Style+" is not supported; parameter left out")
				continue
			}
			if p.Explode != nil {
				a.explode = *p.Explode
			}
		case "header":
			if !im.opts.Headers {
				if a.required {
					im.note(pr.ptr, "a required header parameter, left out (import headers with --headers; the API may refuse calls without it)")
				}
				continue
			}
			a.in, a.style = spec.InHeader, spec.StyleSimple
		default:
			if a.required {
				return nil, "required " + p.In + " parameter " + p.Name + ": " + p.In + " parameters are not supported", pr.ptr
			}
			im.note(pr.ptr, p.In+" parameters are not supported; parameter "+p.Name+" left out")
			continue
		}
		if p.Schema == nil {
			if a.required {
				return nil, "parameter " + p.Name + " has no schema (content parameters are not supported)", pr.ptr
			}
			im.note(pr.ptr, "a parameter without a schema (content) is not supported; left out")
			continue
		}
		a.schema = im.conv.schema(req, p.Schema, pr.ptr+"/schema", 1)
		if a.schema != nil && im.conv.isUnion(a.schema) && (a.in != spec.InQuery || a.style == spec.StyleDeepObject) {
			where := string(a.in)
			if a.style == spec.StyleDeepObject {
				where = "deepObject"
			}
			im.note(pr.ptr+"/schema", "a union cannot be sent as a "+where+" parameter (the spec's http binding takes a scalar there, or an object or array for deepObject)")
			a.schema = nil
		}
		if a.schema == nil {
			if a.required {
				return nil, "required parameter " + p.Name + " cannot be carried (see the notes)", pr.ptr + "/schema"
			}
			im.note(pr.ptr, "parameter "+p.Name+" left out")
			continue
		}
		im.describeParam(a.schema, p.Description)
		a.scalar = isScalar(p.Schema)
		args = append(args, a)
	}

	// A path template variable the document declares no parameter for.
	declared := map[string]bool{}
	for _, a := range args {
		if a.in == spec.InPath {
			declared[a.wire] = true
		}
	}
	for _, m := range pathVar.FindAllStringSubmatch(r.path, -1) {
		if !declared[m[1]] {
			declared[m[1]] = true
			im.note(base, "the path's {"+m[1]+"} has no parameter; it is imported as a required string")
			args = append(args, &arg{wire: m[1], in: spec.InPath, style: spec.StyleSimple, required: true, schema: mapNode("type", scalarNode("string")), ptr: base, scalar: true})
			flow(args[len(args)-1].schema)
		}
	}

	// The request body.
	hasBody := r.method != "GET" && r.method != "HEAD" && r.method != "DELETE" && r.method != "OPTIONS"
	body := ""
	if rb := op.RequestBody; rb != nil && rb.Value != nil {
		bptr := base + "/requestBody"
		mt, mtName, enc := pickMedia(rb.Value.Content)
		switch {
		case emptyBody(rb.Value):
		case mt == nil:
			var kinds []string
			for k := range rb.Value.Content {
				kinds = append(kinds, k)
			}
			sort.Strings(kinds)
			if rb.Value.Required {
				return nil, "the request body's media type (" + strings.Join(kinds, ", ") + ") is not supported: only JSON and form bodies", bptr
			}
			im.note(bptr, "the optional body ("+strings.Join(kinds, ", ")+") is not supported; left out")
		case !hasBody:
			im.note(bptr, "a "+r.method+" request body is not sent; left out")
		default:
			body = enc
			cptr := bptr + "/content/" + pointer(mtName) + "/schema"
			bargs, reason := im.bodyArgs(req, mt, rb.Value.Required, cptr, enc)
			if reason != "" {
				if rb.Value.Required {
					return nil, reason, cptr
				}
				im.note(cptr, reason+"; the body is left out")
				body = ""
			}
			args = append(args, bargs...)
		}
	}

	// Argument names: path first, then query, header and body, each
	// collision renamed after its location ("id" and body "id" give "id"
	// and "body_id").
	taken := map[string]string{}
	takenGo := map[string]bool{}
	prefix := map[spec.ArgIn]string{spec.InQuery: "query_", spec.InHeader: "header_", spec.InBody: "body_", spec.InWholeBody: "body_"}
	order := []spec.ArgIn{spec.InPath, spec.InQuery, spec.InHeader, spec.InBody, spec.InWholeBody}
	argNames := map[*arg]string{}
	for _, in := range order {
		for _, a := range args {
			if a.in != in {
				continue
			}
			n := argName(a.wire)
			if a.in == spec.InWholeBody {
				n = "body"
			}
			if _, dup := taken[n]; dup || takenGo[spec.GoName(n)] {
				n = argName(prefix[a.in] + n)
				for i := 2; taken[n] != "" || takenGo[spec.GoName(n)]; i++ {
					n = argName(prefix[a.in]+a.wire) + "_" + strconv.Itoa(i)
				}
				im.note(a.ptr, fmt.Sprintf("the argument is renamed %s: its name is taken by another parameter", n))
			}
			taken[n] = a.wire
			takenGo[spec.GoName(n)] = true
			argNames[a] = n
		}
	}

	// The result.
	var result *yaml.Node
	var listSchema *openapi3.Schema
	if rs, rptr := pickResponse(op.Responses, base); rs != nil {
		resp := ctx{dir: response, report: im.note}
		result = im.conv.schema(resp, rs, rptr, 0)
		if result == nil {
			im.note(rptr, "the result is left untyped (the API's JSON is returned as is)")
		} else {
			fields := ext.Fields
			if f, ok := im.opts.Fields[op.OperationID]; ok && op.OperationID != "" {
				fields = f
			}
			if len(fields) > 0 {
				result = im.project(result, fields, rptr)
			}
		}
		listSchema = resolved(rs)
	}

	t := &toolOut{comment: r.label()}
	// The name.
	raw := ext.Name
	if raw == "" {
		id := op.OperationID
		if id == "" {
			id = strings.ToLower(r.method) + " " + r.path
		}
		raw = im.opts.Prefix + snake(id)
	} else if !strings.HasPrefix(raw, im.opts.Prefix) {
		raw = im.opts.Prefix + raw
	}
	raw = snakeKeep(raw)
	t.name = names.take(raw)
	if f, ok := im.opts.Fields[t.name]; ok && result != nil {
		result = im.project(result, f, base+"/responses")
	}
	t.result = result

	// The description.
	desc := ext.Description
	if desc == "" {
		desc = cleanText(op.Summary)
		if d := cleanText(op.Description); d != "" && d != desc {
			if desc != "" {
				desc += "\n\n"
			}
			desc += d
		}
	}
	if desc == "" {
		desc = r.method + " " + r.path
	}
	t.description = clipText(desc, im.opts.DescriptionMax)

	// Pagination.
	var paginate *yaml.Node
	maxPages := ""
	if listSchema != nil && r.method == "GET" {
		paginate = im.pagination(listSchema, args, argNames)
		if paginate != nil {
			maxPages = "max_pages"
			for i := 2; taken[maxPages] != ""; i++ {
				maxPages = "max_pages_" + strconv.Itoa(i)
			}
			add(paginate, "max_pages", scalarNode(maxPages))
			flow(paginate)
		}
	}

	// Parameters and their binding.
	argsNode := &yaml.Node{Kind: yaml.MappingNode}
	for _, in := range order {
		for _, a := range args {
			if a.in != in {
				continue
			}
			n := argNames[a]
			t.params = append(t.params, paramOut{name: n, schema: a.schema, required: a.required})
			var placement *yaml.Node
			defaultIn := spec.InBody
			if !hasBody {
				defaultIn = spec.InQuery
			}
			if a.in == spec.InPath {
				defaultIn = spec.InPath
			}
			style := a.style
			if a.scalar && style == spec.StyleDeepObject {
				style, a.explode = spec.StyleForm, true
			}
			defStyle := map[spec.ArgIn]string{spec.InPath: spec.StyleSimple, spec.InHeader: spec.StyleSimple, spec.InQuery: spec.StyleForm, spec.InBody: spec.StyleForm, spec.InWholeBody: spec.StyleForm}[a.in]
			if body == spec.BodyJSON && (a.in == spec.InBody || a.in == spec.InWholeBody) {
				style, a.explode = spec.StyleForm, true
			}
			defExplode := style == spec.StyleForm
			if n == a.wire && style == defStyle && a.explode == defExplode && a.in == defaultIn {
				placement = scalarNode(string(a.in))
			} else {
				placement = mapNode("in", scalarNode(string(a.in)))
				if n != a.wire {
					wn := scalarNode(a.wire)
					wn.Style = quoteStyle(a.wire)
					add(placement, "name", wn)
				}
				if style != defStyle {
					add(placement, "style", scalarNode(style))
				}
				if a.explode != defExplode {
					add(placement, "explode", boolNode(a.explode))
				}
				placement.Style = yaml.FlowStyle
			}
			add(argsNode, n, placement)
		}
	}
	if maxPages != "" {
		t.params = append(t.params, paramOut{name: maxPages, schema: maxPagesSchema(im.opts.MaxPages)})
	}
	argsNode.Style = 0
	h := mapNode("method", scalarNode(r.method), "path", scalarNode(r.path))
	get(h, "path").Style = quoteStyle(r.path)
	if body != "" {
		add(h, "body", scalarNode(body))
	}
	if len(argsNode.Content) > 0 {
		add(h, "args", argsNode)
	}
	if paginate != nil {
		add(h, "paginate", paginate)
	}
	t.http = h

	// Flags from the method, then x-toolgen's.
	fl := map[string]bool{}
	switch r.method {
	case "GET", "HEAD", "OPTIONS":
		fl["read_only"], fl["idempotent"] = true, true
	case "PUT":
		fl["idempotent"] = true
	case "DELETE":
		fl["idempotent"], fl["destructive"] = true, true
	}
	if !fl["read_only"] && !im.opts.NoApproval {
		fl["requires_approval"] = true
	}
	for k, v := range ext.Flags {
		switch k {
		case "read_only", "destructive", "idempotent", "open_world", "requires_approval", "enabled", "concurrency_safe":
			fl[k] = v
		default:
			im.note(base+"/x-toolgen/flags/"+pointer(k), "unknown flag; ignored")
		}
	}
	if fl["read_only"] && fl["destructive"] {
		delete(fl, "destructive")
		im.note(base+"/x-toolgen/flags", "destructive contradicts read_only; destructive dropped")
	}
	for _, k := range []string{"enabled", "read_only", "destructive", "idempotent", "open_world", "concurrency_safe", "requires_approval"} {
		if v, ok := fl[k]; ok {
			t.flags = append(t.flags, flagOut{k, v})
		}
	}
	return t, "", ""
}

// snakeKeep makes a given name portable without re-splitting its words.
func snakeKeep(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	out := b.String()
	if out == "" || out[0] >= '0' && out[0] <= '9' || out[0] == '-' {
		out = "t_" + out
	}
	return out
}

func maxPagesSchema(max int) *yaml.Node {
	return mapNode(
		"type", scalarNode("integer"),
		"minimum", intNode(1),
		"maximum", intNode(int64(max)),
		"default", intNode(1),
		"description", textNode(fmt.Sprintf("How many pages to fetch (1-%d); the items of every page are returned together.", max)),
	)
}

func isScalar(r *openapi3.SchemaRef) bool {
	s := resolved(r)
	if s == nil {
		return false
	}
	t, _, _ := typeOf(s)
	if t == "" {
		for _, l := range []openapi3.SchemaRefs{s.AnyOf, s.OneOf, s.AllOf} {
			for _, e := range l {
				if !nullOnly(e) && !emptyString(e) {
					return isScalar(e)
				}
			}
		}
	}
	return t != "" && t != "object" && t != "array"
}

func resolved(r *openapi3.SchemaRef) *openapi3.Schema {
	if r == nil {
		return nil
	}
	return r.Value
}

// describeParam sets a parameter's description from the parameter object
// when its schema has none.
func (im *importer) describeParam(n *yaml.Node, desc string) {
	d := im.propDescription(desc)
	if d == "" || get(n, "description") != nil {
		return
	}
	n.Style = 0
	if get(n, "$ref") != nil {
		add(n, "description", textNode(d))
		return
	}
	// after type, for reading
	n.Content = append(n.Content[:2], append([]*yaml.Node{scalarNode("description"), textNode(d)}, n.Content[2:]...)...)
}

func (im *importer) propDescription(s string) string {
	return clipText(cleanText(s), im.opts.PropertyDescriptionMax)
}

// pickMedia chooses the body's media type: JSON first, then a form.
func pickMedia(c openapi3.Content) (*openapi3.MediaType, string, string) {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		base, _, _ := strings.Cut(k, ";")
		base = strings.TrimSpace(strings.ToLower(base))
		if base == "application/json" || strings.HasSuffix(base, "+json") {
			return c[k], k, spec.BodyJSON
		}
	}
	for _, k := range keys {
		base, _, _ := strings.Cut(k, ";")
		if strings.TrimSpace(strings.ToLower(base)) == "application/x-www-form-urlencoded" {
			return c[k], k, spec.BodyForm
		}
	}
	return nil, "", ""
}

// emptyBody: a body whose schema is an object with no properties that
// takes no others (Stripe's GET operations have one).
func emptyBody(rb *openapi3.RequestBody) bool {
	if len(rb.Content) == 0 {
		return true
	}
	for _, mt := range rb.Content {
		s := resolved(mt.Schema)
		if s == nil {
			return true
		}
		if len(s.Properties) > 0 || s.AdditionalProperties.Has == nil || *s.AdditionalProperties.Has || len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) > 0 {
			return false
		}
	}
	return true
}

// bodyArgs spreads an object body's properties into arguments; any other
// body becomes one whole_body argument.
func (im *importer) bodyArgs(x ctx, mt *openapi3.MediaType, required bool, ptr, enc string) ([]*arg, string) {
	if mt.Schema == nil || mt.Schema.Value == nil {
		return nil, "the body has no schema"
	}
	s := mt.Schema.Value
	if len(s.AllOf) > 0 && len(s.AnyOf)+len(s.OneOf) == 0 {
		// merge allOf of objects into one object to spread
		node := im.conv.schema(x, mt.Schema, ptr, 1)
		if node == nil {
			return nil, "the body's allOf cannot be carried"
		}
		return []*arg{{wire: "body", in: spec.InWholeBody, style: spec.StyleForm, explode: true, required: required, schema: node, ptr: ptr}}, ""
	}
	t, _, _ := typeOf(s)
	if t == "" && len(s.Properties) > 0 {
		t = "object"
	}
	if t != "object" || len(s.Properties) == 0 {
		node := im.conv.schema(x, mt.Schema, ptr, 1)
		if node == nil {
			return nil, "the body's schema cannot be carried"
		}
		if enc == spec.BodyForm && t != "object" {
			return nil, "a form body that is not an object"
		}
		return []*arg{{wire: "body", in: spec.InWholeBody, style: spec.StyleForm, explode: true, required: required, schema: node, ptr: ptr}}, ""
	}
	var out []*arg
	for _, name := range sortedNames(s.Properties) {
		p := s.Properties[name]
		pptr := ptr + "/properties/" + pointer(name)
		if p.Value != nil && p.Value.ReadOnly {
			continue // readOnly: the server sets it
		}
		req := required && slices.Contains(s.Required, name)
		node := im.conv.schema(x, p, pptr, 1)
		if node == nil {
			if req {
				return nil, "required body property " + name + " cannot be carried (see the notes)"
			}
			im.note(pptr, "body property "+name+" left out")
			continue
		}
		if req {
			deleteKey(node, "default")
		}
		a := &arg{wire: name, in: spec.InBody, style: spec.StyleForm, explode: true, required: req, schema: node, ptr: pptr, scalar: isScalar(p)}
		if enc == spec.BodyForm {
			if e, ok := mt.Encoding[name]; ok && e != nil {
				switch e.Style {
				case "", "form":
				case "deepObject":
					a.style, a.explode = spec.StyleDeepObject, false
				default:
					im.note(ptr+"/encoding/"+pointer(name), "style "+e.Style+" is not supported; form is used")
				}
				if e.Explode != nil {
					a.explode = *e.Explode
				}
			}
		}
		if a.style == spec.StyleDeepObject && im.conv.isUnion(node) {
			im.note(pptr, "a union cannot be sent as a deepObject form field (the spec's http binding takes an object or array there)")
			if req {
				return nil, "required body property " + name + " cannot be carried (see the notes)"
			}
			im.note(pptr, "body property "+name+" left out")
			continue
		}
		out = append(out, a)
	}
	return out, ""
}

// pickResponse is the first 2xx JSON response's schema.
func pickResponse(rs *openapi3.Responses, base string) (*openapi3.SchemaRef, string) {
	if rs == nil {
		return nil, ""
	}
	m := rs.Map()
	var codes []string
	for k := range m {
		if strings.HasPrefix(k, "2") {
			codes = append(codes, k)
		}
	}
	sort.Strings(codes) // 200 < 201 < … < 2XX
	for _, code := range codes {
		r := m[code]
		if r == nil || r.Value == nil {
			continue
		}
		keys := make([]string, 0, len(r.Value.Content))
		for k := range r.Value.Content {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			mt := r.Value.Content[k]
			b, _, _ := strings.Cut(k, ";")
			b = strings.ToLower(strings.TrimSpace(b))
			if (b == "application/json" || strings.HasSuffix(b, "+json")) && mt.Schema != nil {
				return mt.Schema, base + "/responses/" + pointer(code) + "/content/" + pointer(k) + "/schema"
			}
		}
	}
	return nil, ""
}

// pagination recognises a list response: Stripe's cursor (has_more, data
// and a starting_after parameter), a next link, or a page token.
func (im *importer) pagination(s *openapi3.Schema, args []*arg, names map[*arg]string) *yaml.Node {
	s = flatProps(s)
	param := func(wires ...string) string {
		for _, a := range args {
			if a.in == spec.InQuery && slices.Contains(wires, a.wire) {
				return names[a]
			}
		}
		return ""
	}
	prop := func(typ string, keys ...string) string {
		for _, k := range keys {
			if p, ok := s.Properties[k]; ok && p.Value != nil {
				if t, _, _ := typeOf(p.Value); t == typ {
					return k
				}
			}
		}
		return ""
	}
	arrays := func() string {
		var found []string
		for _, k := range sortedNames(s.Properties) {
			if p := s.Properties[k]; p.Value != nil {
				if t, _, _ := typeOf(p.Value); t == "array" {
					found = append(found, k)
				}
			}
		}
		if len(found) == 1 {
			return found[0]
		}
		return ""
	}
	if items, more, cur := prop("array", "data"), prop("boolean", "has_more"), param("starting_after"); items != "" && more != "" && cur != "" {
		return mapNode("style", scalarNode(spec.PageCursor), "items", scalarNode(items), "has_more", scalarNode(more), "cursor", scalarNode(cur))
	}
	if tok, next := param("page_token", "pageToken", "cursor", "next_token"), prop("string", "next_page_token", "nextPageToken", "next_cursor", "nextCursor"); tok != "" && next != "" {
		if items := arrays(); items != "" {
			return mapNode("style", scalarNode(spec.PageToken), "items", scalarNode(items), "token", scalarNode(tok), "next_token", scalarNode(next))
		}
	}
	if next := prop("string", "next", "next_url", "nextLink", "next_link"); next != "" {
		if items := arrays(); items != "" {
			return mapNode("style", scalarNode(spec.PageNextLink), "items", scalarNode(items), "next", scalarNode(next))
		}
	}
	return nil
}

// project keeps the listed dotted fields of a result schema; a $ref on the
// way is inlined (the shared type keeps every field).
func (im *importer) project(n *yaml.Node, fields []string, ptr string) *yaml.Node {
	paths := make([][]string, 0, len(fields))
	for _, f := range fields {
		paths = append(paths, strings.Split(f, "."))
	}
	out, used := im.projectNode(n, paths)
	for _, f := range fields {
		if !used[f] {
			im.note(ptr, "the result field "+f+" is not in the result; ignored")
		}
	}
	return out
}

func (im *importer) projectNode(n *yaml.Node, paths [][]string) (*yaml.Node, map[string]bool) {
	used := map[string]bool{}
	n = im.conv.deref(n)
	switch get(n, "type").Value {
	case "array":
		items, u := im.projectNode(get(n, "items"), paths)
		cp := copyMap(n)
		set(cp, "items", items)
		return cp, u
	case "object":
		props := get(n, "properties")
		if props == nil {
			return n, used
		}
		newProps := &yaml.Node{Kind: yaml.MappingNode}
		var kept []string
		for i := 0; i+1 < len(props.Content); i += 2 {
			name := props.Content[i].Value
			var sub [][]string
			whole := false
			for _, p := range paths {
				if p[0] != name {
					continue
				}
				used[strings.Join(p, ".")] = true
				if len(p) == 1 {
					whole = true
				} else {
					sub = append(sub, p[1:])
				}
			}
			if !whole && len(sub) == 0 {
				continue
			}
			v := props.Content[i+1]
			if !whole {
				var u map[string]bool
				v, u = im.projectNode(v, sub)
				for k := range u {
					used[name+"."+k] = true
				}
			}
			newProps.Content = append(newProps.Content, props.Content[i], v)
			kept = append(kept, name)
		}
		cp := copyMap(n)
		deleteKey(cp, "additionalProperties")
		set(cp, "properties", newProps)
		if r := get(cp, "required"); r != nil {
			var req []string
			for _, e := range r.Content {
				if slices.Contains(kept, e.Value) {
					req = append(req, e.Value)
				}
			}
			deleteKey(cp, "required")
			if len(req) > 0 {
				add(cp, "required", flowSeq(req))
			}
		}
		cp.Style = 0
		return cp, used
	}
	return n, used
}

func set(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	add(m, key, v)
}

func copyMap(n *yaml.Node) *yaml.Node {
	cp := *n
	cp.Content = slices.Clone(n.Content)
	return &cp
}

var (
	pathVar = regexp.MustCompile(`\{([^{}]+)\}`)
	tagRe   = regexp.MustCompile(`(?is)<(/?)(p|br|li|ul|ol|div|h[1-6])\b[^>]*>|<[^>]+>`)
	spaceRe = regexp.MustCompile(`[ \t]+`)
	blankRe = regexp.MustCompile(`\n\s*\n\s*`)
)

// cleanText turns a description's HTML and white space into plain text:
// block tags end paragraphs, other tags go, entities are decoded.
func cleanText(s string) string {
	s = tagRe.ReplaceAllStringFunc(s, func(tag string) string {
		m := tagRe.FindStringSubmatch(tag)
		if m[2] != "" {
			return "\n\n"
		}
		return ""
	})
	s = html.UnescapeString(s)
	s = strings.ReplaceAll(s, "\r", "")
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		lines = append(lines, strings.TrimSpace(spaceRe.ReplaceAllString(l, " ")))
	}
	s = strings.Join(lines, "\n")
	s = blankRe.ReplaceAllString(s, "\n\n")
	return strings.TrimSpace(s)
}

// clipText cuts s to at most max characters at a word boundary, marking the
// cut with "…".
func clipText(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	cut := max - 1
	for i := cut; i > max/2; i-- {
		if r[i] == ' ' || r[i] == '\n' {
			cut = i
			break
		}
	}
	return strings.TrimRight(string(r[:cut]), " \n.,;:") + "…"
}

// flatProps returns s with the properties of its allOf members merged in
// (for recognising a list response).
func flatProps(s *openapi3.Schema) *openapi3.Schema {
	if len(s.AllOf) == 0 {
		return s
	}
	out := &openapi3.Schema{Properties: openapi3.Schemas{}}
	for k, v := range s.Properties {
		out.Properties[k] = v
	}
	for _, m := range s.AllOf {
		if m == nil || m.Value == nil {
			continue
		}
		for k, v := range flatProps(m.Value).Properties {
			if _, ok := out.Properties[k]; !ok {
				out.Properties[k] = v
			}
		}
	}
	return out
}
