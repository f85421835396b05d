package gen

import (
	"bytes"
	doccomment "go/doc/comment"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/spec"
)

// Raw declarations. The declarations every tool has and whose shape is
// fixed — its runtime.Tool literal, decode and run functions, schema
// constants — are written here directly as gofmt'd text instead of being
// built as jennifer trees and formatted: at a thousand tools, formatting
// them was most of what generating cost. Each declaration's text is kept
// in a rawStore and a one-line placeholder stands for it among the
// jennifer code; after formatting, the renderer splices the text in where
// the placeholder is (render.go) and adds the imports it uses.
//
// The text must be exactly what go/format would make of it, so that the
// file is the same bytes as when jennifer writes everything:
// TestRawMatchesJennifer generates every spec in the repository both ways
// and compares. A declaration whose shape this file does not cover (an
// icon list, a multi-line flags literal, a default that is not a simple
// constant) is built with jennifer as before.

// rawMarker starts a placeholder line: the marker and the declaration's
// index in its store. No line gofmt writes starts so: comments it writes
// start with "// ", and the file holds no multi-line string.
const rawMarker = "//toolgen:raw:"

// rawDecl is one declaration written as text.
type rawDecl struct {
	text    []byte   // gofmt'd, ending in a newline, no blank line at either end
	imports []string // the paths of the packages it uses
}

// rawStore holds a file's raw declarations. The generator adds to it while
// the renderer's goroutines read what earlier sections placed.
type rawStore struct {
	mu    sync.Mutex
	decls []*rawDecl
}

func (s *rawStore) empty() bool {
	if s == nil {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.decls) == 0
}

// add stores d and returns its placeholder: a blank line, the marker line,
// a blank line (gofmt keeps one blank line on each side of it, which the
// declaration, having a doc comment, needs before it, and which keeps the
// next declaration's doc comment apart).
func (s *rawStore) add(d *rawDecl) jen.Code {
	s.mu.Lock()
	i := len(s.decls)
	s.decls = append(s.decls, d)
	s.mu.Unlock()
	return jen.Line().Id(rawMarker + strconv.Itoa(i)).Line()
}

// splice replaces the placeholder lines of body with their declarations
// and returns the result and the import paths those use.
func (s *rawStore) splice(body []byte) ([]byte, []string) {
	if s.empty() || !bytes.Contains(body, []byte(rawMarker)) {
		return body, nil
	}
	s.mu.Lock()
	decls := s.decls
	s.mu.Unlock()
	size := len(body)
	for rest := body; ; {
		i := bytes.Index(rest, []byte(rawMarker))
		if i < 0 {
			break
		}
		rest = rest[i+len(rawMarker):]
		end := bytes.IndexByte(rest, '\n')
		if end < 0 {
			end = len(rest)
		}
		if n, err := strconv.Atoi(string(rest[:end])); err == nil && n >= 0 && n < len(decls) {
			size += len(decls[n].text)
		}
	}
	out := make([]byte, 0, size)
	var paths []string
	seen := map[string]bool{}
	rest := body
	for {
		i := bytes.Index(rest, []byte(rawMarker))
		if i < 0 || (i > 0 && rest[i-1] != '\n') {
			if i < 0 {
				break
			}
			out = append(out, rest[:i+1]...)
			rest = rest[i+1:]
			continue
		}
		end := bytes.IndexByte(rest[i:], '\n')
		if end < 0 {
			end = len(rest) - i
		}
		n, err := strconv.Atoi(string(rest[i+len(rawMarker) : i+end]))
		if err != nil || n < 0 || n >= len(decls) {
			out = append(out, rest[:i+1]...)
			rest = rest[i+1:]
			continue
		}
		out = append(out, rest[:i]...)
		out = append(out, decls[n].text...)
		for _, p := range decls[n].imports {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
		rest = rest[min(i+end+1, len(rest)):]
	}
	return append(out, rest...), paths
}

// leftPlaceholder is the first line of body, spliced, that still holds a
// placeholder ("" when none does): a marker that starts a line, after any
// indentation, and was not replaced (an index out of range, a placeholder
// gofmt indented). User text never starts a line so: its comment lines
// start with "// " or "//\t", and the file holds no multi-line string.
func leftPlaceholder(body []byte) string {
	for from := 0; ; {
		i := bytes.Index(body[from:], []byte(rawMarker))
		if i < 0 {
			return ""
		}
		i += from
		start := bytes.LastIndexByte(body[:i], '\n') + 1
		if len(bytes.TrimLeft(body[start:i], " \t")) == 0 {
			end := bytes.IndexByte(body[i:], '\n')
			if end < 0 {
				end = len(body) - i
			}
			return string(body[start : i+end])
		}
		from = i + len(rawMarker)
	}
}

// importLine is the import block line of path as jennifer writes it for
// the packages raw declarations use, whose names are their paths' last
// elements. (jennifer names an import after the package whatever the
// generated package is called; only two imports of one name would make it
// rename one, and then the file is not joined: render.go.)
func importLine(p string) string { return strconv.Quote(p) }

// rawWriter builds one raw declaration.
type rawWriter struct {
	b       []byte
	imports []string
}

// newRawWriter is a rawWriter with room for a typical declaration.
func newRawWriter() *rawWriter { return &rawWriter{b: make([]byte, 0, 640)} }

// str appends parts.
func (w *rawWriter) str(parts ...string) *rawWriter {
	for _, p := range parts {
		w.b = append(w.b, p...)
	}
	return w
}

// pkg records that the declaration uses the package at path and returns
// its name.
func (w *rawWriter) pkg(p string) string {
	for _, q := range w.imports {
		if q == p {
			return path.Base(p)
		}
	}
	w.imports = append(w.imports, p)
	return path.Base(p)
}

// qual is a qualified identifier of the package at path.
func (w *rawWriter) qual(p, name string) string { return w.pkg(p) + "." + name }

// quote appends s as jennifer writes a string literal.
func (w *rawWriter) quote(s string) *rawWriter {
	w.b = strconv.AppendQuote(w.b, s)
	return w
}

// doc appends text as the doc comment of a top-level declaration, as
// comment writes it and gofmt then reformats it.
func (w *rawWriter) doc(text string) *rawWriter {
	for _, l := range docLines(text) {
		w.b = append(w.b, l...)
		w.b = append(w.b, '\n')
	}
	return w
}

// docLines are the lines of text as the doc comment of a top-level
// declaration: as comment writes them, then as gofmt reformats them.
func docLines(text string) []string {
	lines := commentLines(text)
	if !plainDoc(lines) {
		lines = formatDoc(lines)
	}
	return lines
}

// decl is the finished declaration.
func (w *rawWriter) decl() *rawDecl { return &rawDecl{text: w.b, imports: w.imports} }

// plainDoc reports whether gofmt leaves the doc comment lines as they are:
// one paragraph of text lines that go/doc/comment reads as nothing but
// text (no heading, list, code block, link or blank line, and no pair of
// backquotes or of single quotes for it to turn into curly quotes).
func plainDoc(lines []string) bool {
	for _, l := range lines {
		if len(l) < 4 || !strings.HasPrefix(l, "// ") {
			return false
		}
		t := l[3:]
		c := t[0]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '(' || c == '"' || c == '\'' || c == '*' && len(t) > 1 && t[1] != ' ') || keepLine(t) {
			return false
		}
		if strings.ContainsAny(t, "[\t") || strings.Contains(t, "``") || strings.Contains(t, "''") {
			return false
		}
	}
	return len(lines) > 0
}

// formatDoc is what gofmt does to a doc comment of "//" lines (go/printer's
// formatDocComment, for comments without directives, then its trimming of
// the white space ending each line), repeated until it changes nothing: for
// a few texts (a link definition before an old-style heading, an empty
// list item) gofmt's reformatting is not done in one pass, and the file
// must be gofmt'd as it is.
func formatDoc(lines []string) []string {
	for range 8 {
		next := formatDocOnce(lines)
		if slices.Equal(next, lines) {
			break
		}
		lines = next
	}
	return lines
}

// formatDocOnce is one pass of gofmt over the doc comment lines.
func formatDocOnce(lines []string) []string {
	var b strings.Builder
	for _, l := range lines {
		after, _ := strings.CutPrefix(l, "//")
		b.WriteString(strings.TrimPrefix(after, " "))
		b.WriteString("\n")
	}
	var p doccomment.Parser
	var pr doccomment.Printer
	text := string(pr.Comment(p.Parse(b.String())))
	var out []string
	for text != "" {
		var line string
		line, text, _ = strings.Cut(text, "\n")
		switch {
		case line == "":
			line = "//"
		case strings.HasPrefix(line, "\t"):
			line = "//" + line
		default:
			line = "// " + line
		}
		out = append(out, strings.TrimRightFunc(line, unicode.IsSpace))
	}
	return out
}

// raw stores the declaration w built and returns its placeholder.
func (g *generator) raw(w *rawWriter) jen.Code { return g.raws.add(w.decl()) }

// rawRun is runDecl(t) as a raw declaration.
func (g *generator) rawRun(t *toolIR) jen.Code {
	w := newRawWriter()
	args := t.args.name
	ctx, call, result := w.qual("context", "Context"), w.qual(runtimePkg, "Call"), w.qual(runtimePkg, "Result")
	w.doc(toolRun(t)+" runs a call of the "+t.tool.Name+" tool with impl.").
		str("func ", toolRun(t), "(impl ", InterfaceName, ", ctx ", ctx, ", call *", call, ", args any) (", result, ", error) {\n").
		str("\tif a, ok := args.(*", args, "); ok && a != nil {\n\t\treturn ")
	method := "impl." + t.tool.GoName + "(ctx, call, a)"
	if t.tool.Result != nil {
		w.str(w.qual(wirePkg, "JSON"), "(", method, ")\n")
	} else {
		w.str(method, "\n")
	}
	w.str("\t}\n\treturn ", result, "{}, ", w.qual(wirePkg, "ArgsError"), "(args, (*", args, ")(nil))\n}\n")
	return g.raw(w)
}

// rawDecodeEntry is decodeEntry(t) as a raw declaration.
func (g *generator) rawDecodeEntry(t *toolIR) jen.Code {
	w := newRawWriter()
	name := t.args.name
	fn := "Decode" + name
	w.doc(decodeEntryDoc(t)).
		str("func ", fn, "(data []byte) (*", name, ", error) {\n").
		str("\tv, err := ", toolDecode(t), "(data, 0)\n").
		str("\treturn v.(*", name, "), err\n}\n")
	return g.raw(w)
}

// rawSchemaConst is schemaConst as a raw declaration.
func (g *generator) rawSchemaConst(name, what string, b []byte) jen.Code {
	w := newRawWriter()
	w.doc(name+" is "+what).str("const ", name, " = ")
	s := string(b)
	if rawStringOK(s) {
		w.str("`", s, "`\n")
	} else {
		w.quote(s).str("\n")
	}
	return g.raw(w)
}

// rawDecode is the DecodeWith function of t (toolFuncDecl) as a raw
// declaration, or nil when one of its defaults is not a simple constant.
func (g *generator) rawDecode(t *toolIR) jen.Code {
	args := t.args
	var body []string
	if args.root && g.tabled(args) {
		defaults, ok := g.rawDefaults(args)
		if !ok {
			return nil
		}
		seen := "_"
		if len(defaults) > 0 {
			seen = "seen"
		}
		call := "wire.DecodeObject(data, mode, " + strings.ReplaceAll(tableArgs(args, len("\tseen, err := wire.DecodeObject(data, mode, ")), "\n", "\n\t\t") + ")"
		body = append(body, "\tx := new("+args.name+")\n", "\t"+seen+", err := "+call+"\n")
		body = append(body, defaults...)
		body = append(body, "\treturn x, err\n")
	} else {
		body = append(body, "\tx := new("+args.name+")\n", "\td := wire.Start(data, mode)\n", "\tx.decode(d)\n", "\treturn x, d.Done()\n")
	}
	w := newRawWriter()
	w.pkg(wirePkg)
	w.doc(toolDecode(t)+" is the tool's DecodeWith: Decode"+args.name+" with a mode.").
		str("func ", toolDecode(t), "(data []byte, mode ", w.qual(runtimePkg, "DecodeMode"), ") (any, error) {\n").
		str(body...).str("}\n")
	return g.raw(w)
}

// rawDefaults are tableDefaults(t) as text, the statements filling in the
// defaults of the properties the object did not have (its Seen, seen); not
// ok when a default is not a simple constant.
func (g *generator) rawDefaults(t *goType) (defaults []string, ok bool) {
	for i, f := range t.fields {
		if !appliesDefault(f) {
			continue
		}
		lit, ok := g.rawDefault(f)
		if !ok {
			return nil, false
		}
		defaults = append(defaults, "\tif seen.Absent("+strconv.Itoa(i)+") {\n\t\tx."+f.name+" = "+lit+"\n\t}\n")
	}
	return defaults, true
}

// rawDefault is the Go text of the default of f, which fieldDefault writes,
// when it is a constant this file writes the same way.
func (g *generator) rawDefault(f *field) (string, bool) {
	if f.ptr || f.def == nil {
		return "", false
	}
	switch t := f.typ; t.kind {
	case kString:
		if s, ok := f.def.(string); ok {
			return strconv.Quote(s), true
		}
	case kEnum:
		if s, ok := f.def.(string); ok {
			for _, e := range t.enum {
				if e.value == s {
					return e.name, true
				}
			}
		}
	case kInt:
		if i, ok := f.def.(int64); ok {
			return strconv.FormatInt(i, 10), true
		}
	case kBool:
		if b, ok := f.def.(bool); ok {
			return strconv.FormatBool(b), true
		}
	}
	return "", false
}

// rawToolStatic is the package-level runtime.Tool of t (toolFuncDecl) as
// a raw declaration, or nil when its literal has a line this file does
// not write (icons, a flags literal of more than one line).
func (g *generator) rawToolStatic(t *toolIR, doc string) jen.Code {
	tool := t.tool
	if len(tool.Icons) > 0 {
		return nil
	}
	w := newRawWriter()
	kind := "KindTool"
	if tool.Kind == spec.KindAgent {
		kind = "KindAgent"
	}
	lines := []litLine{
		{k: "Name", v: "Tool" + tool.GoName},
		{k: "Description", v: strconv.Quote(tool.Description)},
		{k: "Kind", v: w.qual(runtimePkg, kind)},
	}
	if tool.Title != "" {
		lines = append(lines, litLine{k: "Title", v: strconv.Quote(tool.Title)})
	}
	raw := w.qual("encoding/json", "RawMessage")
	lines = append(lines, litLine{k: "Schema", v: raw + "(" + t.goLower + "Schema)"})
	if tool.Result != nil {
		lines = append(lines, litLine{k: "ResultSchema", v: raw + "(" + t.goLower + "ResultSchema)"})
	}
	if len(tool.Examples) > 0 {
		lines = append(lines, litLine{k: "Examples", v: examplesFunc(tool) + "()"})
	}
	if tool.Gate != "" {
		f := g.f
		gate, msg := strconv.Quote(tool.Gate), strconv.Quote(tool.GateMessage)
		if c := f.GateConst(tool.Gate); c != "" {
			gate = c
		}
		if tool.GateMessage == f.GateMessage && tool.GateMessage != "" && tool.Gate == f.Gate {
			msg = "gateMessage"
		}
		lines = append(lines, litLine{k: "Gate", v: gate})
		if tool.GateMessage != "" {
			lines = append(lines, litLine{k: "GateMessage", v: msg})
		}
	}
	lines = append(lines, rawFlags(tool.Flags, w.qual(runtimePkg, "Flags")))
	if tool.DeferLoading {
		lines = append(lines, litLine{k: "DeferLoading", v: "true"})
	}
	lines = append(lines, litLine{k: "DecodeWith", v: toolDecode(t)}, litLine{k: "Label", v: t.goLower + "Label"})
	w.doc(doc).str("var ", toolStatic(t), " = ", w.qual(runtimePkg, "Tool"), "{\n")
	w.keyValues("\t", lines)
	w.str("}\n")
	return g.raw(w)
}

// litLine is one "Key: value," line of a composite literal, or with inner
// lines a value of several lines: "Key: value{", the inner lines, "},".
type litLine struct {
	k, v  string
	inner []litLine
}

// keyValues writes the lines of a composite literal indented by indent,
// as gofmt aligns them: the values of consecutive one-line elements in a
// column after the longest key (keys here are short identifiers, which
// gofmt always aligns); an element of several lines ends a run and starts
// the next.
func (w *rawWriter) keyValues(indent string, lines []litLine) {
	for i := 0; i < len(lines); {
		if l := lines[i]; l.inner != nil {
			w.str(indent, l.k, ": ", l.v, "\n")
			w.keyValues(indent+"\t", l.inner)
			w.str(indent, "},\n")
			i++
			continue
		}
		j, width := i, 0
		for ; j < len(lines) && lines[j].inner == nil; j++ {
			width = max(width, utf8.RuneCountInString(lines[j].k)+1)
		}
		for _, l := range lines[i:j] {
			w.str(indent, l.k, ":", strings.Repeat(" ", width-utf8.RuneCountInString(l.k)), l.v, ",\n")
		}
		i = j
	}
}

// rawFlags is the Flags line of a runtime.Tool literal: flagsValue(fl) as
// text.
func rawFlags(fl spec.Flags, typ string) litLine {
	set := flagsSet(fl)
	if len(set) > 4 {
		return litLine{k: "Flags", v: typ + "{", inner: set}
	}
	one := make([]string, len(set))
	for i, s := range set {
		one[i] = s.k + ": " + s.v
	}
	return litLine{k: "Flags", v: typ + "{" + strings.Join(one, ", ") + "}"}
}

// rawTypeExpr is typeExpr(t) as text, or "" for a type this file does not
// write.
func (g *generator) rawTypeExpr(w *rawWriter, t *goType) string {
	if t.name != "" {
		return t.name
	}
	switch t.kind {
	case kString, kEnum:
		return "string"
	case kInt:
		return "int64"
	case kFloat:
		return "float64"
	case kBool:
		return "bool"
	case kTime:
		return w.qual("time", "Time")
	case kSlice, kMap:
		if t.elem == nil {
			return ""
		}
		elem := g.rawTypeExpr(w, t.elem)
		if elem == "" {
			return ""
		}
		if t.elemPtr && t.elem.kind != kUnion {
			elem = "*" + elem
		}
		if t.kind == kSlice {
			return "[]" + elem
		}
		return "map[string]" + elem
	case kRaw:
		return w.qual("encoding/json", "RawMessage")
	}
	return ""
}

// rawTag is the struct tag jennifer writes for a json key.
func rawTag(json string) string {
	s := "json:" + strconv.Quote(json)
	if strconv.CanBackquote(s) {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// rawStruct is typeDecl of the struct t as a raw declaration, or nil.
func (g *generator) rawStruct(t *goType) jen.Code {
	w := newRawWriter()
	type line struct{ doc, decl string }
	var fields []line
	for _, f := range t.fields {
		typ := g.rawTypeExpr(w, f.typ)
		if typ == "" {
			return nil
		}
		if f.ptr {
			typ = "*" + typ
		}
		tag := f.json
		if !f.required && !f.hasDef {
			tag += ",omitempty"
		}
		fields = append(fields, line{fieldDoc(f), f.name + " " + typ + " " + rawTag(tag)})
	}
	if t.extra != nil {
		elem := g.rawTypeExpr(w, t.extra)
		if elem == "" {
			return nil
		}
		if t.extraPtr && t.extra.kind != kUnion {
			elem = "*" + elem
		}
		fields = append(fields, line{t.extraName + " holds the properties the schema does not name, by key.",
			t.extraName + " map[string]" + elem + " " + rawTag("-")})
	}
	w.doc(docText(t.name, t.what, t.doc))
	if len(fields) == 0 {
		w.str("type ", t.name, " struct{}\n")
		return g.raw(w)
	}
	w.str("type ", t.name, " struct {\n")
	for _, f := range fields {
		for _, l := range commentLines(f.doc) {
			w.str("\t", l, "\n")
		}
		w.str("\t", f.decl, "\n")
	}
	w.str("}\n")
	return g.raw(w)
}

// rawAlias is aliasDecl(t) as a raw declaration.
func (g *generator) rawAlias(t *goType) jen.Code {
	w := newRawWriter()
	w.doc(aliasText(t)).str("type ", t.name, " = ", t.same.name, "\n")
	return g.raw(w)
}

// rawTable is tableDecl(t) as a raw declaration.
func (g *generator) rawTable(t *goType) jen.Code {
	w := newRawWriter()
	w.doc(tableDoc(t)).str("var ", tableName(t), " = []", w.qual(wirePkg, "Field"), "{\n")
	for _, f := range t.fields {
		w.str("\t{Name: ").quote(f.json)
		if f.required {
			w.str(", Required: true")
		}
		if f.nullable {
			w.str(", Nullable: true")
		}
		w.str(", Value: ", g.tableValue(f), "},\n")
	}
	w.str("}\n")
	return g.raw(w)
}

// rawTableDecode is tableDecode(t) as a raw declaration, or nil when a
// default is not a simple constant.
func (g *generator) rawTableDecode(t *goType) jen.Code {
	defaults, ok := g.rawDefaults(t)
	if !ok {
		return nil
	}
	w := newRawWriter()
	w.doc(tableDecodeDoc).str("func (x *", t.name, ") decode(d *", w.qual(wirePkg, "Decoder"), ") {\n\t")
	if len(defaults) == 0 {
		w.str(rawTableCall("d", t), "\n")
	} else {
		w.str("seen := ", rawTableCall("d", t), "\n").str(defaults...)
	}
	w.str("}\n")
	return g.raw(w)
}

// rawTableCall is tableCall(recv, t) as text, its lines after the first
// indented for a statement of a function body.
func rawTableCall(recv string, t *goType) string {
	return recv + ".Object(" + strings.ReplaceAll(tableArgs(t, len("\tseen := "+recv+".Object(")), "\n", "\n\t\t") + ")"
}

// rawTableValidate is validateMethods(t) of the tabled struct t as raw
// declarations.
func (g *generator) rawTableValidate(t *goType) []jen.Code {
	w := newRawWriter()
	w.doc(validateDoc).str("func (x *", t.name, ") Validate() error {\n").
		str("\tif x == nil {\n\t\treturn ", w.qual(wirePkg, "NilObject"), "()\n\t}\n").
		str("\treturn wire.ValidateObject(", strings.ReplaceAll(tableArgs(t, len("\treturn wire.ValidateObject(")), "\n", "\n\t\t"), ")\n}\n")
	out := []jen.Code{g.raw(w)}
	if t.root {
		return out
	}
	w = newRawWriter()
	w.doc("validate records the violations of x in c.").
		str("func (x *", t.name, ") validate(c *", w.qual(wirePkg, "Checker"), ") {\n\t", rawTableCall("c", t), "\n}\n")
	return append(out, g.raw(w))
}

// rawEnum is enumDecl(t) as raw declarations.
func (g *generator) rawEnum(t *goType) []jen.Code {
	values := newRawWriter()
	values.doc("The values of " + t.name + ".").str("const (\n")
	width := 0
	for _, v := range t.enum {
		width = max(width, utf8.RuneCountInString(v.name))
	}
	for _, v := range t.enum {
		values.str("\t", v.name, strings.Repeat(" ", width-utf8.RuneCountInString(v.name)+1), t.name, " = ").quote(v.value).str("\n")
	}
	values.str(")\n")
	if t.same != nil {
		return []jen.Code{g.rawAlias(t), g.raw(values)}
	}
	typ := newRawWriter()
	typ.doc(docText(t.name, t.what, t.doc)).str("type ", t.name, " string\n")
	valid := newRawWriter()
	valid.doc("Valid reports whether v is one of the values of "+t.name+".").
		str("func (v ", t.name, ") Valid() bool {\n\tswitch v {\n\tcase ", rawCaseList(t.enum), ":\n\t\treturn true\n\t}\n\treturn false\n}\n")
	out := []jen.Code{g.raw(typ), g.raw(values), g.raw(valid)}
	if !t.decode {
		return out // only decoders use the parser
	}
	of := ofName(t)
	parse := newRawWriter()
	parse.doc(of+" converts JSON string bytes to "+t.name+", without allocating for the known values.").
		str("func ", of, "(b []byte) ", t.name, " {\n\tswitch string(b) {\n")
	for _, v := range t.enum {
		parse.str("\tcase ").quote(v.value).str(":\n\t\treturn ", v.name, "\n")
	}
	parse.str("\t}\n\treturn ", t.name, "(b)\n}\n")
	return append(out, g.raw(parse))
}

// rawCaseList is caseList(values) as text, its lines after the first
// indented for a case clause.
func rawCaseList(values []enumValue) string {
	n := 0
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = v.name
		n += len(v.name) + 2
	}
	if n > 70 {
		return strings.Join(names, ",\n\t\t")
	}
	return strings.Join(names, ", ")
}

// rawNameConsts is a block of constants without types, "Name = value",
// as gofmt aligns it, under the doc comment.
func (g *generator) rawNameConsts(doc string, names, values []string) jen.Code {
	w := newRawWriter()
	w.doc(doc).str("const (\n")
	width := 0
	for _, n := range names {
		width = max(width, utf8.RuneCountInString(n))
	}
	for i, n := range names {
		w.str("\t", n, strings.Repeat(" ", width-utf8.RuneCountInString(n)+1), "= ", values[i], "\n")
	}
	w.str(")\n")
	return g.raw(w)
}

// rawInterface is the Executor interface of methods ms as a raw
// declaration.
func (g *generator) rawInterface(doc string, ms []Method) jen.Code {
	w := newRawWriter()
	w.doc(doc).str("type ", InterfaceName, " interface {\n")
	for _, m := range ms {
		if strings.Contains(m.sig, "context.") {
			w.pkg("context")
		}
		if strings.Contains(m.sig, "runtime.") {
			w.pkg(runtimePkg)
		}
		for _, l := range commentLines(m.Doc) {
			w.str("\t", l, "\n")
		}
		w.str("\t", m.Name, m.sig, "\n")
	}
	w.str("}\n")
	return g.raw(w)
}
