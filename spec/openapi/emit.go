package openapi

import (
	"bytes"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/toolgen/toolgen/spec"
)

// emit writes the spec file and checks that it loads.
func (im *importer) emit(tools []*toolOut, types []*named) ([]byte, *spec.File, error) {
	o := &im.opts
	root := &yaml.Node{Kind: yaml.MappingNode}
	add(root, "toolgen", intNode(1))
	add(root, "provider", scalarNode(o.Provider))
	if o.Package != "" {
		add(root, "package", scalarNode(o.Package))
	}
	if info := im.doc.Info; info != nil && info.Title != "" {
		d := cleanText(info.Title)
		if info.Version != "" {
			d += " (API version " + info.Version + ")"
		}
		d += ", imported from " + im.report.Document + " by toolgen import openapi."
		add(root, "description", textNode(d))
	}
	if o.Gate != "" {
		add(root, "gate", scalarNode(o.Gate))
		add(root, "gate_message", textNode(o.GateMessage))
	}
	h := &yaml.Node{Kind: yaml.MappingNode}
	if base := im.baseURL(); base != "" {
		add(h, "base_url", scalarNode(base))
	}
	if auth := im.auth(); auth != nil {
		add(h, "auth", auth)
	}
	if len(h.Content) == 0 {
		h.Style = yaml.FlowStyle
	}
	add(root, "http", h)

	if len(types) > 0 {
		sort.Slice(types, func(i, j int) bool { return types[i].name < types[j].name })
		tn := &yaml.Node{Kind: yaml.MappingNode}
		for _, nt := range types {
			k := scalarNode(nt.name)
			k.HeadComment = "from " + nt.ptr
			tn.Content = append(tn.Content, k, nt.node)
		}
		add(root, "types", tn)
	}

	list := &yaml.Node{Kind: yaml.SequenceNode}
	for _, t := range tools {
		tm := &yaml.Node{Kind: yaml.MappingNode, HeadComment: t.comment}
		add(tm, "name", scalarNode(t.name))
		if t.goName != "" {
			add(tm, "go_name", scalarNode(t.goName))
		}
		add(tm, "description", textNode(t.description))
		for _, f := range t.flags {
			add(tm, f.key, boolNode(f.val))
		}
		if len(t.params) > 0 {
			ps := &yaml.Node{Kind: yaml.MappingNode}
			var req []string
			for _, p := range t.params {
				ps.Content = append(ps.Content, scalarNode(p.name), p.schema)
				if p.required {
					req = append(req, p.name)
				}
			}
			add(tm, "params", ps)
			if len(req) > 0 {
				add(tm, "required", flowSeq(req))
			}
		}
		if t.result != nil {
			add(tm, "result", t.result)
		}
		add(tm, "http", t.http)
		list.Content = append(list.Content, tm)
	}
	add(root, "tools", list)

	var buf bytes.Buffer
	buf.WriteString("# yaml-language-server: $schema=" + spec.SchemaURL + "\n")
	buf.WriteString("# Imported from " + im.report.Document + " by toolgen import openapi; review, trim and edit it like any spec.\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return nil, nil, fmt.Errorf("openapi: writing the spec: %w", err)
	}
	enc.Close()
	out := buf.Bytes()
	// The check must not depend on where it runs: without a package, the
	// loader names it after the directory, here the provider's.
	f, err := spec.Parse(filepath.Join(o.Provider, "imported.tools.yaml"), out)
	if err != nil {
		return out, nil, fmt.Errorf("openapi: the imported spec does not load (a bug in the importer):\n%w", err)
	}
	return out, f, nil
}

// emitUnique emits the spec, renaming tools (with go_name) and named types
// until the Go names the generator will declare are distinct.
func (im *importer) emitUnique(tools []*toolOut, types []*named) ([]byte, error) {
	byTool := map[string]*toolOut{}
	for _, t := range tools {
		byTool[t.name] = t
	}
	suffix := map[*toolOut]int{}
	for round := 0; ; round++ {
		ren := collisionsOut(im.opts.Provider, tools, types)
		if len(ren) == 0 || round == 10 {
			out, f, err := im.emit(tools, types)
			if err != nil {
				return nil, err
			}
			if len(collisions(f)) > 0 {
				return nil, fmt.Errorf("openapi: the generated Go names of the imported spec would collide (a bug in the importer)")
			}
			return out, nil
		}
		f := &spec.File{Provider: im.opts.Provider}
		byType := map[string]*named{}
		taken := map[string]bool{}
		for _, nt := range types {
			byType[nt.name] = nt
			taken[f.GoName(nt.name)] = true
		}
		var keys []owner
		for o := range ren {
			keys = append(keys, o)
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i].name < keys[j].name })
		for _, o := range keys {
			if o.tool {
				t := byTool[o.name]
				if t == nil {
					continue
				}
				suffix[t]++
				t.goName = f.ToolGoName(t.name) + "Op"
				if suffix[t] > 1 {
					t.goName += strconv.Itoa(suffix[t])
				}
				im.report.Notes = append(im.report.Notes, Note{Operation: t.comment, Pointer: "(tool " + t.name + ")",
					Reason: "the tool's Go names would collide with another's; go_name " + t.goName + " keeps them apart"})
				continue
			}
			nt := byType[o.name]
			if nt == nil {
				continue
			}
			old := nt.name
			for i := 1; ; i++ {
				cand := shorten(old, spec.MaxNameLen-5) + "_type"
				if i > 1 {
					cand = shorten(old, spec.MaxNameLen-6-len(strconv.Itoa(i))) + "_type" + strconv.Itoa(i)
				}
				if !taken[f.GoName(cand)] {
					nt.name = cand
					taken[f.GoName(cand)] = true
					break
				}
			}
			for _, r := range nt.refs {
				r.Value = "#/types/" + nt.name
			}
			im.typeNote(nt.ptr, "the type's Go names would collide with another's; it is named "+nt.name)
		}
	}
}

// baseURL is the option's, else the first server's URL with its variables'
// defaults; "" when it is relative (the credentials then give it).
func (im *importer) baseURL() string {
	u := im.opts.BaseURL
	if u == "" && len(im.doc.Servers) > 0 && im.doc.Servers[0] != nil {
		s := im.doc.Servers[0]
		u = s.URL
		for name, v := range s.Variables {
			if v != nil {
				u = strings.ReplaceAll(u, "{"+name+"}", v.Default)
			}
		}
	}
	pu, err := url.Parse(u)
	if u == "" || err != nil || pu.Scheme != "http" && pu.Scheme != "https" || pu.Host == "" || pu.RawQuery != "" || pu.Fragment != "" {
		if u != "" {
			im.note("#/servers/0", "the server URL "+u+" is not an absolute http(s) URL; each user's credentials must give the base URL")
		}
		return ""
	}
	return strings.TrimSuffix(u, "/")
}

// auth is the module's auth from the document's security: bearer first,
// then an API key, then basic.
func (im *importer) auth() *yaml.Node {
	if im.doc.Components == nil || len(im.doc.Components.SecuritySchemes) == 0 {
		return nil
	}
	var names []string
	for _, req := range im.doc.Security {
		for n := range req {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		for n := range im.doc.Components.SecuritySchemes {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	rank := func(s *openapi3.SecurityScheme) int {
		switch {
		case s.Type == "http" && strings.EqualFold(s.Scheme, "bearer"):
			return 0
		case s.Type == "oauth2" || s.Type == "openIdConnect":
			return 1
		case s.Type == "apiKey" && (s.In == "header" || s.In == "query"):
			return 2
		case s.Type == "http" && strings.EqualFold(s.Scheme, "basic"):
			return 3
		}
		return 9
	}
	var best *openapi3.SecurityScheme
	bestName := ""
	for _, n := range names {
		ref := im.doc.Components.SecuritySchemes[n]
		if ref == nil || ref.Value == nil {
			continue
		}
		if best == nil || rank(ref.Value) < rank(best) {
			best, bestName = ref.Value, n
		}
	}
	if best == nil {
		return nil
	}
	ptr := "#/components/securitySchemes/" + pointer(bestName)
	var n *yaml.Node
	switch rank(best) {
	case 0:
		n = mapNode("type", scalarNode("bearer"))
	case 1:
		n = mapNode("type", scalarNode("bearer"))
		im.note(ptr, best.Type+": the host's credential source gives the access token; toolgen does not run the OAuth flow")
	case 2:
		n = mapNode("type", scalarNode("api_key"), "in", scalarNode(best.In), "name", scalarNode(best.Name))
	case 3:
		n = mapNode("type", scalarNode("basic"))
	default:
		im.note(ptr, "the security scheme ("+best.Type+" "+best.In+") is not supported; requests are not authenticated")
		return nil
	}
	n.Style = yaml.FlowStyle
	return n
}
