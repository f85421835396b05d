package spec

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"
)

// The keys the loader accepts in each context. toolgen.schema.json declares
// exactly these (schema_json_test.go keeps the two in step).
var (
	moduleKeys = []string{
		"toolgen", "provider", "package", "description", "gate", "gate_message", "initialisms", "types", "tools", "http", "targets", "mcp",
		"defer_loading", "icons",
	}
	toolKeys = []string{
		"name", "go_name", "description", "kind", "params", "required", "additionalProperties",
		"status", "status_fallback", "gate", "gate_message",
		"enabled", "read_only", "destructive", "idempotent", "open_world", "concurrency_safe",
		"requires_approval", "permission_check", "result", "batch", "prompt", "http", "mcp",
		"defer_loading",
		"examples", "title", "icons",
	}
	batchKeys = []string{
		"name", "description", "max_items", "max_concurrency", "max_result_bytes",
	}
	schemaKeys = []string{
		"type", "$ref", "go_name", "description", "nullable", "default", "enum",
		"minLength", "maxLength", "pattern", "format", "trim",
		"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
		"items", "minItems", "maxItems", "uniqueItems",
		"properties", "required", "additionalProperties",
		"const", "allOf", "oneOf", "anyOf", "discriminator",
	}
)

// unsupportedSchemaKeys are JSON Schema keywords outside toolgen's subset:
// an unknown key that is one of them says so.
var unsupportedSchemaKeys = map[string]bool{
	"not": true, "if": true, "then": true, "else": true,
	"$defs": true, "definitions": true, "$id": true, "$schema": true, "$anchor": true, "$comment": true,
	"title": true, "examples": true, "deprecated": true, "readOnly": true, "writeOnly": true,
	"patternProperties": true, "propertyNames": true, "minProperties": true, "maxProperties": true,
	"dependentRequired": true, "dependentSchemas": true, "unevaluatedProperties": true, "unevaluatedItems": true,
	"prefixItems": true, "contains": true, "minContains": true, "maxContains": true,
	"contentEncoding": true, "contentMediaType": true, "contentSchema": true,
}

// MaxNameLen is the longest tool or parameter name every major provider
// accepts.
const MaxNameLen = 64

var (
	// nameChars is what a tool or parameter name may hold (OpenAI,
	// Anthropic, Gemini and MCP all accept it), length aside.
	nameChars  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)
	providerRe = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	typeNameRe = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)
)

// validName is nameChars.MatchString(s), without the regexp machinery
// (every tool and parameter name is checked).
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || isUpperASCII(c) || isLowerASCII(c):
		case i > 0 && (c == '-' || isDigitASCII(c)):
		default:
			return false
		}
	}
	return true
}

// Load reads and parses the spec file at path. See Parse. A file that cannot
// be read is reported as an ErrorList too, wrapping the error of os.ReadFile
// (errors.Is(err, fs.ErrNotExist) works).
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		msg := err.Error()
		if pe, ok := err.(*fs.PathError); ok {
			msg = pe.Err.Error()
		}
		return nil, ErrorList{{Pos: Pos{File: path}, Msg: "cannot read the spec file: " + msg, Err: err}}
	}
	return Parse(path, data)
}

// Parse parses and validates the spec file held in data; path names it in
// errors and gives the default Go package name (the base name of its
// directory).
//
// On success the model is fully resolved: flag defaults applied, Go names
// filled in, references resolved, required properties marked, label
// templates compiled and gates inherited. Otherwise the error is an
// ErrorList holding every problem found, sorted by position, each printed as
// `file:line:col: message`.
func Parse(path string, data []byte) (*File, error) {
	p := &parser{file: path}
	f := p.file1(data)
	if len(p.errs) > 0 {
		p.errs.Sort()
		return nil, p.errs
	}
	return f, nil
}

// file1 parses the single YAML document of a spec file.
func (p *parser) file1(data []byte) *File {
	p.lines = strings.Split(string(data), "\n")
	if doc, ok := parseChunks(data); ok { // a large file, in parallel
		return p.module(doc.Content[0])
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			p.errorAt(Pos{File: p.file, Line: 1, Col: 1}, "empty spec file; expected a mapping with toolgen, provider and tools")
			return nil
		}
		p.errs = append(p.errs, syntaxError(p.file, p.lines, err))
		return nil
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		p.errorf(&extra, "a spec file holds one YAML document; found a second one")
	case !errors.Is(err, io.EOF):
		p.errs = append(p.errs, syntaxError(p.file, p.lines, err))
	}
	if len(doc.Content) == 0 {
		p.errorAt(Pos{File: p.file, Line: 1, Col: 1}, "empty spec file; expected a mapping with toolgen, provider and tools")
		return nil
	}
	return p.module(doc.Content[0])
}

func (p *parser) module(root *yaml.Node) *File {
	const where = "at module level"
	m := p.mapping(root, "a spec file", where, moduleKeys)
	if m == nil {
		return nil
	}
	f := &File{Pos: p.pos(deref(root)), Path: p.file, Keys: p.keys(m)}
	missing := func(key, hint string) {
		p.errorf(deref(root), "missing required key %q %s%s", key, where, hint)
	}

	if v := m.val("toolgen"); v == nil {
		missing("toolgen", " (the format version: write toolgen: 1)")
	} else if d := deref(v); d.Kind == yaml.ScalarNode && (tagOf(d) == "!!int" || tagOf(d) == "!!float") {
		n, _ := p.number(v, "toolgen")
		if n != Version {
			p.errorf(v, "unsupported format version %s (toolgen: %s); this toolgen reads version %d", d.Value, d.Value, Version)
		}
		f.Version = int(n)
	} else {
		p.errorf(v, "toolgen must be the format version %d; found %s", Version, describe(d))
	}

	if v := m.val("provider"); v == nil {
		missing("provider", " (a short id such as stripe)")
	} else if s, ok := p.str(v, "provider"); ok {
		if !providerRe.MatchString(s) {
			p.errorf(v, "provider %q must be a short lower-case id: a letter, then letters, digits or _", s)
		}
		f.Provider = s
	}

	if v := m.val("package"); v != nil {
		if s, ok := p.str(v, "package"); ok {
			switch {
			case token.IsKeyword(s):
				p.errorf(v, "package %q is a Go keyword; choose another package name", s)
			case !token.IsIdentifier(s):
				p.errorf(v, "package %q is not a valid Go identifier", s)
			case s == "_":
				p.errorf(v, "package %q: the blank identifier cannot name a package", s)
			}
			f.Package = s
		}
	} else {
		pkg, err := defaultPackage(p.file)
		if err != nil {
			p.errorf(deref(root), "%v; add a package: key", err)
		}
		f.Package = pkg
	}

	if v := m.val("description"); v != nil {
		f.Description, _ = p.str(v, "description")
	}
	if v := m.val("gate"); v != nil {
		if s, ok := p.str(v, "gate"); ok {
			switch s {
			case "":
				p.errorf(v, "gate must name a gate; leave gate out for ungated tools")
			case "none":
				p.errorf(v, "gate: none is for a tool leaving its module's gate; at module level, leave gate out for ungated tools")
			default:
				f.Gate = s
			}
		}
	}
	if v := m.val("gate_message"); v != nil {
		f.GateMessage, _ = p.str(v, "gate_message")
	}

	if v := m.val("initialisms"); v != nil {
		p.initialisms(v, f)
	}
	if v := m.val("defer_loading"); v != nil {
		f.DeferLoading, _ = p.boolean(v, "defer_loading at module level")
	}
	if v := m.val("icons"); v != nil {
		f.Icons = p.icons(v, "at module level", true)
	}
	if v := m.val("http"); v != nil {
		f.HTTP = p.httpModule(v)
	}
	if v := m.val("targets"); v != nil {
		p.targets(v, f)
	}
	if v := m.val("mcp"); v != nil {
		f.MCP = p.mcpModule(v)
	}

	types := map[string]*NamedType{}
	if v := m.val("types"); v != nil && !isNull(v) {
		var entries []entry
		if tf := p.mapping(v, "types", "in types", nil); tf != nil {
			entries = tf.list
		}
		for _, e := range entries {
			name := e.name
			if !typeNameRe.MatchString(name) || len(name) > MaxNameLen {
				p.errorf(e.Key, "type name %q must be an identifier of at most %d characters: a letter, then letters, digits or _", name, MaxNameLen)
			}
			nt := &NamedType{Pos: p.pos(e.Key), Name: name, GoName: f.GoName(name)}
			nt.Schema = p.schema(e.Val, subject{kind: "type", path: name, owner: nt})
			if nt.Schema != nil && nt.Schema.GoName != "" {
				nt.GoName = nt.Schema.GoName
			}
			f.Types = append(f.Types, nt)
			types[name] = nt
		}
	}

	if v := m.val("tools"); v == nil {
		missing("tools", " (the list of tools)")
	} else if items, ok := p.sequence(v, "tools"); ok {
		if len(items) == 0 {
			p.errorf(v, "tools must list at least one tool")
		}
		f.Tools = p.tools(items, f)
	}

	p.resolve(f, types)
	p.checkNames(f)
	return f
}

// defaultPackage makes the Go package name for a spec at path from the base
// name of its directory: lower case, letters and digits only ("my-tools"
// gives "mytools").
func defaultPackage(path string) (string, error) {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return "", fmt.Errorf("cannot find the directory of %s to name the Go package: %v", path, err)
	}
	base := filepath.Base(dir)
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		}
	}
	pkg := b.String()
	if pkg == "" || !token.IsIdentifier(pkg) || token.IsKeyword(pkg) {
		return "", fmt.Errorf("cannot make a Go package name from the directory name %q", base)
	}
	return pkg, nil
}
