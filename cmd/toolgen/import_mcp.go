package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"gopkg.in/yaml.v3"

	"github.com/toolgen/toolgen/runtime/mcp"
	"github.com/toolgen/toolgen/spec"
)

const importMCPUsage = `toolgen import mcp snapshots an MCP server's tools into a spec file, so that
go generate gives typed argument structs for them and generated executors
that call them (each tool's mcp: binding) through a runtime/mcp.Caller.

Usage:

	toolgen import mcp [-o FILE] [-provider P] -- COMMAND [ARG ...]
	toolgen import mcp [-o FILE] [-provider P] -url URL

The server is started with COMMAND (stdio) or reached at URL (streamable
HTTP); every page of its tools/list is imported. Names the providers refuse
get the alias runtime/mcp.Import gives them; annotations become flags (none:
destructive and open-world); inputSchema becomes params. What the spec format
cannot carry (anyOf of several types, allOf, not, patternProperties, a $ref
outside the schema, a recursive $ref through required properties only, ...)
is reported per tool on stderr, and that value is
accepted as a free-form one instead (the object holding it gets
additionalProperties: true); the server still validates it when called. An
object schema without additionalProperties is imported strict, toolgen's
default. $refs into the schema's $defs are inlined, except definitions that
refer to themselves (a tree): those become named types (types:).

Flags:

	-o FILE       write the spec to FILE (NAME.tools.yaml); default stdout
	-provider P   the module's provider id (default: from the server's name)
	-url URL      connect over streamable HTTP instead of running a command
	-timeout D    give up connecting and listing after D (default 30s)

Exit status: 0 success (also with reported fallbacks); 1 the server could not
be reached or the result does not load as a spec; 2 usage errors.
`

func runImportMCP(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("toolgen import mcp", flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	out := fset.String("o", "", "")
	provider := fset.String("provider", "", "")
	url := fset.String("url", "", "")
	timeout := fset.Duration("timeout", 30*time.Second, "")
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, importMCPUsage)
			return exitOK
		}
		fmt.Fprintf(stderr, "toolgen import mcp: %v\nrun 'toolgen import mcp -h' for usage\n", err)
		return exitUsage
	}
	command := fset.Args()
	switch {
	case *url == "" && len(command) == 0:
		fmt.Fprint(stderr, "toolgen import mcp: give the server's command after --, or -url\nrun 'toolgen import mcp -h' for usage\n")
		return exitUsage
	case *url != "" && len(command) > 0:
		fmt.Fprint(stderr, "toolgen import mcp: give a command or -url, not both\n")
		return exitUsage
	case *out != "" && !strings.HasSuffix(*out, ".tools.yaml"):
		fmt.Fprintf(stderr, "toolgen import mcp: -o %s: a spec file's name ends in .tools.yaml\n", *out)
		return exitUsage
	}
	var t sdk.Transport
	from := *url
	if *url != "" {
		t = &sdk.StreamableClientTransport{Endpoint: *url}
	} else {
		cmd := exec.Command(command[0], command[1:]...)
		cmd.Stderr = stderr
		t = &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
		from = strings.Join(command, " ")
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	info, tools, err := listRemote(ctx, t)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen import mcp: %s: %v\n", from, err)
		return exitError
	}
	data, notes := mcpSpec(info, tools, *provider, from)
	for _, n := range notes {
		fmt.Fprintln(stderr, "toolgen import mcp: "+n)
	}
	name := *out
	if name == "" {
		// Checked as if it were written to a package directory "imported".
		name = filepath.Join("imported", "imported.tools.yaml")
	}
	if _, err := spec.Parse(name, data); err != nil {
		fmt.Fprintf(stderr, "toolgen import mcp: the imported spec does not load (a bug in the importer, or a name clash to fix by hand):\n%v\n", err)
		if *out != "" {
			os.WriteFile(*out+".rejected", data, 0o644)
			fmt.Fprintf(stderr, "toolgen import mcp: wrote it to %s.rejected\n", *out)
		}
		return exitError
	}
	if *out == "" {
		stdout.Write(data)
		return exitOK
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		fmt.Fprintf(stderr, "toolgen import mcp: %v\n", err)
		return exitError
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		fmt.Fprintf(stderr, "toolgen import mcp: %v\n", err)
		return exitError
	}
	fmt.Fprintf(stderr, "toolgen import mcp: wrote %s (%d tools)\n", *out, len(tools))
	return exitOK
}

// listRemote connects and lists every page of the server's tools.
func listRemote(ctx context.Context, t sdk.Transport) (*sdk.Implementation, []*sdk.Tool, error) {
	c := sdk.NewClient(&sdk.Implementation{Name: "toolgen-import", Version: "1"}, nil)
	cs, err := c.Connect(ctx, t, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("connecting: %w", err)
	}
	defer cs.Close()
	var tools []*sdk.Tool
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, nil, fmt.Errorf("listing tools: %w", err)
		}
		tools = append(tools, tool)
	}
	var info *sdk.Implementation
	if r := cs.InitializeResult(); r != nil {
		info = r.ServerInfo
	}
	return info, tools, nil
}

// mcpSpec renders the spec of the tools and the notes of what it could not
// carry.
func mcpSpec(info *sdk.Implementation, tools []*sdk.Tool, provider, from string) ([]byte, []string) {
	serverName := "the MCP server"
	if info != nil && info.Name != "" {
		serverName = info.Name
		if info.Version != "" {
			serverName += " " + info.Version
		}
	}
	if provider == "" && info != nil {
		provider = providerID(info.Name)
	}
	if provider == "" {
		provider = "mcp"
	}
	var notes []string
	root := mapping()
	add(root, "toolgen", scalar("1", "!!int"))
	add(root, "provider", str(provider))
	add(root, "description", str("The tools of "+serverName+", imported by toolgen import mcp."))
	server := "mcp"
	if info != nil && info.Name != "" {
		server = info.Name
	}
	srv := mapping()
	add(srv, "server", str(server))
	srv.Style = yaml.FlowStyle
	add(root, "mcp", srv)
	list := &yaml.Node{Kind: yaml.SequenceNode}
	types := &mcpTypes{}
	for _, t := range tools {
		tn, tnotes := mcpTool(t, types)
		for _, n := range tnotes {
			notes = append(notes, "tool "+t.Name+": "+n)
		}
		list.Content = append(list.Content, tn)
	}
	if tn := types.node(); tn != nil {
		add(root, "types", tn)
	}
	add(root, "tools", list)
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root},
		HeadComment: "yaml-language-server: $schema=" + spec.SchemaURL + "\n\n" +
			"Imported from " + serverName + " (" + from + ") by toolgen import mcp.\n" +
			"Edit it freely, or import again to refresh it."}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		panic(err) // the nodes are built here, always encodable
	}
	enc.Close()
	return b.Bytes(), notes
}

// providerID makes a provider id (lower case letters, digits, '_') of a
// server's name.
func providerID(name string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(name) {
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9' && b.Len() > 0:
			b.WriteRune(c)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "_"):
			b.WriteByte('_')
		}
	}
	return strings.TrimSuffix(b.String(), "_")
}

func mcpTool(t *sdk.Tool, types *mcpTypes) (*yaml.Node, []string) {
	var notes []string
	n := mapping()
	name := mcp.Alias(t.Name)
	if name != t.Name {
		notes = append(notes, fmt.Sprintf("renamed %s (a name the providers refuse; runtime/mcp.Import gives it the same alias)", name))
	}
	if c := name[0]; '0' <= c && c <= '9' || c == '-' {
		name = "t_" + name
		notes = append(notes, "renamed "+name+" (a spec name starts with a letter or '_')")
	}
	add(n, "name", str(name))
	desc := strings.TrimSpace(t.Description)
	if desc == "" {
		desc = "The MCP tool " + t.Name + "."
		notes = append(notes, "has no description; a placeholder is written")
	}
	add(n, "description", str(desc))
	// The executor is generated: it calls the remote tool by its own name.
	bind := mapping()
	add(bind, "tool", str(t.Name))
	bind.Style = yaml.FlowStyle
	add(n, "mcp", bind)
	// MCP shows title, else annotations.title, else the name.
	title := t.Title
	if title == "" && t.Annotations != nil {
		title = t.Annotations.Title
	}
	if title = strings.TrimSpace(title); title != "" {
		if strings.ContainsAny(title, "\r\n") {
			title = strings.Join(strings.Fields(title), " ")
			notes = append(notes, "its title is written on one line")
		}
		add(n, "title", str(title))
	}
	if icons := mcpIcons(t.Icons, &notes); icons != nil {
		add(n, "icons", icons)
	}
	// Flags: MCP's defaults for absent hints are the safe ones.
	a := t.Annotations
	readOnly := a != nil && a.ReadOnlyHint
	destructive := !readOnly && (a == nil || a.DestructiveHint == nil || *a.DestructiveHint)
	openWorld := a == nil || a.OpenWorldHint == nil || *a.OpenWorldHint
	if readOnly {
		add(n, "read_only", scalar("true", "!!bool"))
	}
	if destructive {
		add(n, "destructive", scalar("true", "!!bool"))
	}
	if a != nil && a.IdempotentHint {
		add(n, "idempotent", scalar("true", "!!bool"))
	}
	if !openWorld {
		add(n, "open_world", scalar("false", "!!bool"))
	}

	in, err := jsonValue(t.InputSchema)
	c := &schemaConv{types: types}
	top, ok := in.(map[string]any)
	if err != nil || !ok {
		notes = append(notes, "its inputSchema is not an object; imported without parameters, extra arguments accepted")
		add(n, "additionalProperties", scalar("true", "!!bool"))
		return n, notes
	}
	c.defs = defsOf(top)
	params, required, extra := c.object(top, "inputSchema", 0)
	if len(params.Content) > 0 {
		add(n, "params", params)
	}
	if len(required) > 0 {
		add(n, "required", flowSeq(required))
	}
	if extra != nil {
		add(n, "additionalProperties", extra)
	}
	if t.OutputSchema != nil {
		out, _ := jsonValue(t.OutputSchema)
		rc := &schemaConv{defs: defsOf(asMap(out)), types: types, result: true}
		if rn := rc.schema(out, "outputSchema", 0); rn != nil && len(rc.notes) == 0 {
			add(n, "result", rn)
		} else {
			notes = append(notes, "its outputSchema is not carried (results stay untyped): "+strings.Join(rc.notes, "; "))
		}
	}
	return n, append(notes, c.notes...)
}

// mcpIcons is a tool's icons as the spec writes them (nil: none), leaving
// out, with a note, each one the spec cannot hold (a file: URL, say).
func mcpIcons(icons []sdk.Icon, notes *[]string) *yaml.Node {
	var list *yaml.Node
	for i, ic := range icons {
		si := spec.Icon{Src: ic.Source, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: string(ic.Theme)}
		if msg := spec.IconProblem(si); msg != "" {
			*notes = append(*notes, fmt.Sprintf("its icon #%d is left out: %s", i+1, msg))
			continue
		}
		n := mapping()
		n.Style = yaml.FlowStyle
		add(n, "src", str(si.Src))
		if si.MIMEType != "" {
			add(n, "mimeType", str(si.MIMEType))
		}
		if len(si.Sizes) > 0 {
			add(n, "sizes", flowSeq(si.Sizes))
		}
		if si.Theme != "" {
			add(n, "theme", str(si.Theme))
		}
		if list == nil {
			list = &yaml.Node{Kind: yaml.SequenceNode}
		}
		list.Content = append(list.Content, n)
	}
	return list
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }

func defsOf(m map[string]any) map[string]any {
	defs := map[string]any{}
	for _, k := range []string{"definitions", "$defs"} {
		if d, ok := m[k].(map[string]any); ok {
			for name, s := range d {
				defs["#/"+k+"/"+name] = s
			}
		}
	}
	return defs
}

// jsonValue re-decodes v (as the SDK decoded it) with numbers kept exact.
func jsonValue(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out any
	err = d.Decode(&out)
	return out, err
}

// schemaConv converts JSON Schema to the spec's schema subset.
type schemaConv struct {
	defs  map[string]any
	notes []string
	// types are the spec's named types, which recursive definitions
	// become; visiting, pending, named and ends follow the definitions
	// being converted (import_mcp_recursive.go).
	types    *mcpTypes
	visiting map[string]int
	pending  map[string]string
	named    map[string]string
	ends     int
	// result is set while an outputSchema is converted: a typed result is
	// decoded with encoding/json, which cannot fill a union's interface.
	result bool
}

const maxImportDepth = 32

// annotationOnly are keywords that do not constrain a value: dropped.
var annotationOnly = map[string]bool{"title": true, "examples": true, "$comment": true, "deprecated": true,
	"readOnly": true, "writeOnly": true, "$schema": true, "$id": true, "$defs": true, "definitions": true,
	"$anchor": true, "contentMediaType": true, "contentEncoding": true}

// carried are the keywords the spec format carries.
var carried = map[string]bool{"type": true, "description": true, "enum": true, "const": true, "default": true,
	"minLength": true, "maxLength": true, "pattern": true, "format": true, "minimum": true, "maximum": true,
	"exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true, "items": true, "minItems": true,
	"maxItems": true, "uniqueItems": true, "properties": true, "required": true, "additionalProperties": true,
	"$ref": true, "anyOf": true, "oneOf": true, "allOf": true, "nullable": true}

var specFormats = map[string]bool{"date-time": true, "date": true, "email": true, "uri": true, "uuid": true}

// schema converts s at path; nil when it cannot be carried (noted).
func (c *schemaConv) schema(v any, path string, depth int) *yaml.Node {
	if depth > maxImportDepth {
		return c.cannot(path, fmt.Sprintf("nested deeper than %d levels", maxImportDepth))
	}
	s, ok := v.(map[string]any)
	if !ok {
		return c.cannot(path, "the schema is not an object")
	}
	// Wrappers the format can express: a $ref into the schema, a
	// single allOf, a union with null.
	if ref, ok := s["$ref"].(string); ok {
		target, ok := c.defs[ref]
		if !ok {
			return c.cannot(path, "$ref "+ref+" does not point into the schema's $defs")
		}
		return c.refTo(ref, target, s, path, depth)
	}
	if all, ok := s["allOf"].([]any); ok {
		if len(all) != 1 || len(s) > 2 {
			return c.cannot(path, "allOf")
		}
		return c.schema(all[0], path+".allOf[0]", depth+1)
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		alts, ok := s[kw].([]any)
		if !ok {
			continue
		}
		var keep []any
		null := false
		for _, a := range alts {
			if m, ok := a.(map[string]any); ok && m["type"] == "null" && len(m) == 1 {
				null = true
				continue
			}
			keep = append(keep, a)
		}
		if len(keep) == 0 {
			return c.cannot(path, kw+" of no schema but null")
		}
		if len(keep) > 1 {
			if c.result {
				return c.cannot(path, kw+" in a result (a typed result is decoded with encoding/json, which cannot fill a union's Go interface)")
			}
			return c.union(s, kw, keep, null, path, depth)
		}
		c.ends++ // the value may be null
		n := c.schema(keep[0], path+"."+kw, depth+1)
		c.ends--
		if n != nil {
			if null {
				set(n, "nullable", scalar("true", "!!bool"))
			}
			if d, ok := s["description"].(string); ok {
				set(n, "description", str(d))
			}
		}
		return n
	}
	for _, k := range sortedKeys(s) {
		if !carried[k] && !annotationOnly[k] {
			return c.cannot(path, k)
		}
	}

	n := mapping()
	typ, nullable, ok := typeOf(s)
	if !ok {
		return c.cannot(path, "its type")
	}
	if typ == "" {
		return c.cannot(path, "a schema with no type (any value)")
	}
	add(n, "type", str(typ))
	if nullable || s["nullable"] == true {
		add(n, "nullable", scalar("true", "!!bool"))
	}
	if d, ok := s["description"].(string); ok && d != "" {
		add(n, "description", str(d))
	}
	enum, hasEnum := s["enum"].([]any)
	if cv, ok := s["const"]; ok {
		enum, hasEnum = []any{cv}, true
	}
	if hasEnum {
		if typ != "string" && typ != "integer" && typ != "number" {
			return c.cannot(path, "enum or const of a "+typ)
		}
		seq := flowSeq(nil)
		for _, e := range enum {
			if e == nil {
				set(n, "nullable", scalar("true", "!!bool"))
				continue
			}
			vn := value(e)
			if vn == nil || !sameKind(typ, e) {
				return c.cannot(path, "an enum value of another type than "+typ)
			}
			seq.Content = append(seq.Content, vn)
		}
		add(n, "enum", seq)
	}
	switch typ {
	case "string":
		for _, k := range []string{"minLength", "maxLength", "pattern"} {
			if x, ok := s[k]; ok {
				add(n, k, value(x))
			}
		}
		if f, ok := s["format"].(string); ok {
			if specFormats[f] {
				add(n, "format", str(f))
			} else {
				c.notes = append(c.notes, path+": format "+f+" is not checked by the spec format; dropped")
			}
		}
	case "integer", "number":
		for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"} {
			if x, ok := s[k]; ok {
				if _, isNum := x.(json.Number); !isNum {
					return c.cannot(path, k+" that is not a number")
				}
				add(n, k, value(x))
			}
		}
	case "array":
		if items, ok := s["items"]; ok {
			c.ends++ // an array may be empty
			in := c.schema(items, path+".items", depth+1)
			c.ends--
			if in == nil {
				return c.cannot(path, "its items")
			}
			add(n, "items", in)
		} else {
			return c.cannot(path, "an array without items")
		}
		for _, k := range []string{"minItems", "maxItems"} {
			if x, ok := s[k]; ok {
				add(n, k, value(x))
			}
		}
		if s["uniqueItems"] == true {
			add(n, "uniqueItems", scalar("true", "!!bool"))
		}
	case "object":
		props, required, extra := c.object(s, path, depth)
		if len(props.Content) > 0 {
			add(n, "properties", props)
		}
		if len(required) > 0 {
			add(n, "required", flowSeq(required))
		}
		if extra != nil {
			add(n, "additionalProperties", extra)
		}
	}
	if d, ok := s["default"]; ok {
		if vn := value(d); vn != nil {
			add(n, "default", vn)
		}
	}
	if len(n.Content) <= 12 && !nested(n) {
		n.Style = yaml.FlowStyle
	}
	return n
}

// object converts an object schema's properties: the required ones first,
// in their order, then the rest by name (the SDK hands the schema over as
// a Go map, which has no order). A property the format cannot carry is
// left out, and the object takes extra properties (free-form).
func (c *schemaConv) object(s map[string]any, path string, depth int) (props *yaml.Node, required []string, extra *yaml.Node) {
	props = mapping()
	pm, _ := s["properties"].(map[string]any)
	req := map[string]bool{}
	var order []string
	if rl, ok := s["required"].([]any); ok {
		for _, r := range rl {
			if name, ok := r.(string); ok && !req[name] {
				req[name] = true
				if _, ok := pm[name]; ok {
					order = append(order, name)
				}
			}
		}
	}
	for _, k := range sortedKeys(pm) {
		if !req[k] {
			order = append(order, k)
		}
	}
	freeForm := false
	for _, name := range order {
		end := endsCycle(pm[name], req[name])
		if end {
			c.ends++
		}
		pn := c.schema(pm[name], path+".properties."+name, depth+1)
		if end {
			c.ends--
		}
		if pn == nil {
			freeForm = true
			c.notes = append(c.notes, path+".properties."+name+": accepted as a free-form value")
			continue
		}
		add(props, name, pn)
		if req[name] {
			required = append(required, name)
		}
	}
	switch ap := s["additionalProperties"].(type) {
	case bool:
		if ap || freeForm {
			extra = scalar("true", "!!bool")
		}
	case map[string]any:
		c.ends++ // a map may be empty
		en := c.schema(ap, path+".additionalProperties", depth+1)
		c.ends--
		if en != nil && !freeForm {
			extra = en
		} else {
			extra = scalar("true", "!!bool")
		}
	default:
		if freeForm {
			extra = scalar("true", "!!bool")
		}
	}
	return props, required, extra
}

func (c *schemaConv) cannot(path, what string) *yaml.Node {
	c.notes = append(c.notes, path+": "+what+" cannot be carried by the spec format")
	return nil
}

// typeOf reads "type": one name, or [name, "null"].
func typeOf(s map[string]any) (typ string, nullable, ok bool) {
	switch t := s["type"].(type) {
	case nil:
		if _, ok := s["const"].(string); ok {
			return "string", false, true
		}
		if _, ok := s["properties"]; ok {
			return "object", false, true
		}
		return "", false, true
	case string:
		return t, false, t != "null"
	case []any:
		for _, x := range t {
			name, _ := x.(string)
			switch {
			case name == "null":
				nullable = true
			case typ == "":
				typ = name
			default:
				return "", false, false
			}
		}
		return typ, nullable, typ != ""
	}
	return "", false, false
}

func sameKind(typ string, v any) bool {
	switch v := v.(type) {
	case string:
		return typ == "string"
	case json.Number:
		if typ == "integer" {
			_, err := v.Int64()
			return err == nil
		}
		return typ == "number"
	}
	return false
}

// value renders a JSON value (json.Number, string, bool, array, object).
func value(v any) *yaml.Node {
	switch v := v.(type) {
	case nil:
		return scalar("null", "!!null")
	case bool:
		return scalar(strconv.FormatBool(v), "!!bool")
	case string:
		return str(v)
	case json.Number:
		if _, err := v.Int64(); err == nil {
			return scalar(v.String(), "!!int")
		}
		return scalar(v.String(), "!!float")
	case []any:
		n := flowSeq(nil)
		for _, x := range v {
			xn := value(x)
			if xn == nil {
				return nil
			}
			n.Content = append(n.Content, xn)
		}
		return n
	case map[string]any:
		n := mapping()
		n.Style = yaml.FlowStyle
		for _, k := range sortedKeys(v) {
			xn := value(v[k])
			if xn == nil {
				return nil
			}
			add(n, k, xn)
		}
		return n
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

func scalar(v, tag string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v, Tag: tag} }

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: s, Tag: "!!str"} }

func flowSeq(items []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, s := range items {
		n.Content = append(n.Content, str(s))
	}
	return n
}

func add(m *yaml.Node, key string, v *yaml.Node) { m.Content = append(m.Content, str(key), v) }

// set replaces key's value in m, or adds it.
func set(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	add(m, key, v)
}

// nested reports whether a mapping holds a non-flow mapping or a
// mapping inside a sequence, which reads better in block style.
func nested(n *yaml.Node) bool {
	for i := 1; i < len(n.Content); i += 2 {
		if v := n.Content[i]; v.Kind == yaml.MappingNode && v.Style != yaml.FlowStyle {
			return true
		}
		if k := n.Content[i-1].Value; k == "properties" || k == "items" || k == "additionalProperties" {
			return true
		}
	}
	return false
}

// union converts a oneOf or anyOf of several schemas (besides null) into
// the spec's union, when the spec's union rules accept it (scalars of
// distinct JSON kinds, objects told apart by a const property, a
// discriminator's propertyName); else it notes the loader's reason.
func (c *schemaConv) union(s map[string]any, kw string, keep []any, null bool, path string, depth int) *yaml.Node {
	for _, k := range sortedKeys(s) {
		if k != kw && k != "description" && k != "discriminator" && !annotationOnly[k] {
			return c.cannot(path, kw+" beside "+k)
		}
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode}
	for i, a := range keep {
		an := c.schema(a, fmt.Sprintf("%s.%s[%d]", path, kw, i), depth+1)
		if an == nil {
			return c.cannot(path, fmt.Sprintf("%s whose alternative %d is not carried", kw, i))
		}
		for j := 0; j+1 < len(an.Content); j += 2 {
			if an.Content[j].Value == "nullable" {
				// The spec writes a union's null as its own.
				an.Content = append(an.Content[:j], an.Content[j+2:]...)
				null = true
				break
			}
		}
		seq.Content = append(seq.Content, an)
	}
	n := mapping()
	add(n, kw, seq)
	if d, ok := s["description"].(string); ok && d != "" {
		add(n, "description", str(d))
	}
	if null {
		add(n, "nullable", scalar("true", "!!bool"))
	}
	if d, ok := s["discriminator"].(map[string]any); ok {
		prop, _ := d["propertyName"].(string)
		if prop == "" {
			return c.cannot(path, "a discriminator without propertyName")
		}
		dn := mapping()
		add(dn, "propertyName", str(prop))
		dn.Style = yaml.FlowStyle
		add(n, "discriminator", dn)
		if _, ok := d["mapping"]; ok {
			c.notes = append(c.notes, path+": the discriminator's mapping is left out (the import has no named types; each alternative's const tells them apart)")
		}
	}
	if msg := unionTrial(n); msg != "" {
		c.notes = append(c.notes, path+": "+kw+" of several schemas cannot be carried by the spec format: "+msg)
		return nil
	}
	return n
}

// unionTrial loads a spec whose one parameter is the union u and returns
// the loader's first message, "" when it loads.
func unionTrial(u *yaml.Node) string {
	params := mapping()
	add(params, "value", u)
	tool := mapping()
	add(tool, "name", str("trial"))
	add(tool, "description", str("A trial of a union."))
	add(tool, "params", params)
	root := mapping()
	add(root, "toolgen", scalar("1", "!!int"))
	add(root, "provider", str("trial"))
	add(root, "tools", &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{tool}})
	b, err := yaml.Marshal(root)
	if err != nil {
		return err.Error()
	}
	_, err = spec.Parse(filepath.Join("trial", "trial.tools.yaml"), b)
	if err == nil {
		return ""
	}
	msg := err.Error()
	var list spec.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		msg = list[0].Msg
	}
	return strings.ReplaceAll(msg, ` in schema of parameter "value"`, "")
}
