package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/spec"
	"github.com/toolgen/toolgen/templates"
)

// CatalogMarkdown renders the Markdown catalog of f's tools (the
// `<name>_tools.md` file): the module's provider and gate, a table of its
// tools with what they do and their flags, and per tool its parameters with
// type, required or optional, default, constraints and description. The
// output depends only on f, so it is byte-identical from run to run.
func CatalogMarkdown(f *spec.File) ([]byte, error) {
	t, err := templates.Parse(templates.Catalog, nil)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, catalogModule(f)); err != nil {
		return nil, fmt.Errorf("gen: rendering the catalog of %s: %w", f.Path, err)
	}
	// Blank lines depend on which optional sections rendered: keep at most
	// one in a row, and none at the end.
	out := collapseBlankLines(buf.Bytes())
	out = bytes.TrimRight(out, "\n")
	return append(out, '\n'), nil
}

// collapseBlankLines replaces every run of three or more newlines in b by
// two, in place, and returns the shortened b.
func collapseBlankLines(b []byte) []byte {
	out := b[:0]
	for i := 0; i < len(b); {
		if b[i] != '\n' {
			j := bytes.IndexByte(b[i:], '\n')
			if j < 0 {
				j = len(b) - i
			}
			out = append(out, b[i:i+j]...)
			i += j
			continue
		}
		n := 0
		for i < len(b) && b[i] == '\n' {
			n++
			i++
		}
		out = append(out, "\n\n"[:min(n, 2)]...)
	}
	return out
}

// The catalog template's data. Every string is ready to print: Markdown
// escaped for the place it goes (a table cell or a paragraph).
type (
	catalogView struct {
		Spec        string
		Provider    string
		Package     string
		Description string
		Gate        string
		Tools       []catalogTool
		ToolCount   int // the tools the module registers, batch tools included
		Types       []catalogNamedType
	}
	catalogTool struct {
		Name        string
		Anchor      string
		Summary     string // table cell: the first line of the description
		Description string // paragraph
		Flags       string
		Gate        string // sentence, with the gate message
		GateCell    string // table cell: the gate's name or "—"
		Title       string // the tool's title:, for people (MCP's title)
		Status      string
		Kind        string
		Prompt      string
		Batch       string
		BatchRow    *catalogToolRow // the batch tool's row in the tools table
		Params      []catalogRow
		Result      *catalogNamedType
		// Examples are the tool's examples, one line of JSON each, in a
		// block fenced by ExampleFence.
		Examples     []string
		ExampleFence string
	}
	// catalogToolRow is a row of the tools table for a tool with no section
	// of its own (a batch tool): it links to Anchor, its tool's section.
	catalogToolRow struct {
		Name     string
		Anchor   string
		Summary  string
		Flags    string
		GateCell string
	}
	catalogNamedType struct {
		Name        string
		Description string
		Type        string
		Constraints string
		Fields      []catalogRow
		Recursive   string // sentence: how a recursive type nests (recursive.go)
	}
	catalogRow struct {
		Name        string
		Type        string
		Required    string
		Default     string
		Constraints string
		Description string
	}
)

const catalogNone = "—"

func catalogModule(f *spec.File) catalogView {
	v := catalogView{
		Spec:        filepath.Base(f.Path),
		Provider:    f.Provider,
		Package:     f.Package,
		Description: catalogParagraph(f.Description),
		Gate:        catalogGate(f.Gate, f.GateMessage),
	}
	for _, t := range f.Tools {
		ct := catalogToolView(t)
		v.Tools = append(v.Tools, ct)
		v.ToolCount++
		if ct.BatchRow != nil {
			v.ToolCount++
		}
	}
	for _, nt := range f.Types {
		tv := catalogTypeView(nt.Name, nt.Schema)
		tv.Recursive = catalogRecursion(nt)
		v.Types = append(v.Types, tv)
	}
	return v
}

func catalogToolView(t *spec.Tool) catalogTool {
	ct := catalogTool{
		Name:        t.Name,
		Anchor:      catalogAnchor(t.Name),
		Summary:     catalogCell(catalogFirstLine(t.Description)),
		Description: catalogParagraph(t.Description),
		Title:       catalogParagraph(t.Title),
		Flags:       catalogFlags(t),
		Gate:        catalogGate(t.Gate, t.GateMessage),
		GateCell:    catalogNone,
	}
	if t.Gate != "" {
		ct.GateCell = catalogCode(t.Gate)
	}
	if t.Status != "" {
		ct.Status = catalogCode(t.Status)
		if t.StatusFallback != "" {
			ct.Status += " (when an argument it names is absent: " + catalogCode(t.StatusFallback) + ")"
		}
	} else if t.StatusFallback != "" {
		ct.Status = catalogCode(t.StatusFallback)
	}
	if t.Kind == spec.KindAgent {
		ct.Kind = "agent (runs a sub-agent)"
		if t.Prompt != "" {
			ct.Prompt = catalogCode(t.Prompt)
		}
	}
	if b := t.Batch; b != nil {
		name := b.Name
		if name == "" {
			name = t.Name + "_batch"
		}
		ct.Batch = catalogCode(name) + " runs " + catalogCode(t.Name) + " on " +
			catalogOr(b.MaxItems, 50) + " items at most, " + catalogOr(b.MaxConcurrency, 8) + " at a time"
		summary := catalogCell(catalogFirstLine(b.Description))
		if b.Description == "" {
			summary = "Runs " + catalogCode(t.Name) + " on up to " + catalogOr(b.MaxItems, 50) + " inputs in one call."
		}
		ct.BatchRow = &catalogToolRow{Name: name, Anchor: ct.Anchor, Summary: summary, Flags: ct.Flags, GateCell: ct.GateCell}
	}
	if t.Params != nil {
		ct.Params = catalogRows(t.Params.Resolved(), "")
	}
	if t.Result != nil {
		r := catalogTypeView("", t.Result)
		ct.Result = &r
	}
	ct.ExampleFence, ct.Examples = catalogExamples(t) // examples.go
	return ct
}

func catalogOr(n, def int) string {
	if n <= 0 {
		n = def
	}
	return strconv.Itoa(n)
}

// catalogTypeView describes a named type or a result schema: its fields when
// it is an object, else its type and constraints.
func catalogTypeView(name string, s *spec.Schema) catalogNamedType {
	v := catalogNamedType{
		Name:        name,
		Description: catalogParagraph(s.Description),
		Type:        catalogTypeOf(s),
		Constraints: catalogConstraints(s),
	}
	if r := s.Resolved(); r != nil && r.Type == spec.TypeObject && len(r.Properties) > 0 && s.Ref == "" {
		v.Fields = catalogRows(r, "")
	}
	return v
}

// catalogRows flattens an object's properties into rows, descending into
// inline objects and arrays of inline objects ("filter.tags",
// "items[].name"). References to named types are not followed: the type
// cell links to the type's own section.
func catalogRows(s *spec.Schema, prefix string) []catalogRow {
	var rows []catalogRow
	for _, p := range s.Properties {
		ps := p.Schema
		name := prefix + p.Name
		req := "optional"
		if p.Required {
			req = "required"
		}
		def := catalogNone
		if ps.HasDefault {
			def = catalogCode(catalogJSON(ps.Default))
		}
		cons := catalogConstraints(ps)
		if cons == "" {
			cons = catalogNone
		}
		rows = append(rows, catalogRow{
			Name:        catalogCode(name),
			Type:        catalogTypeOf(ps),
			Required:    req,
			Default:     def,
			Constraints: cons,
			Description: catalogCell(ps.Description),
		})
		if ps.Ref != "" {
			continue
		}
		switch {
		case ps.Union != nil:
			rows = append(rows, catalogUnionRows(ps, name)...) // union.go
		case ps.Type == spec.TypeObject:
			rows = append(rows, catalogRows(ps, name+".")...)
		case ps.Type == spec.TypeArray && ps.Items != nil && ps.Items.Ref == "" && ps.Items.Type == spec.TypeObject:
			rows = append(rows, catalogRows(ps.Items, name+"[].")...)
		}
	}
	return rows
}

// catalogTypeOf names a schema's type: "string (email)", "array of integer",
// a link to a named type, "… or null".
func catalogTypeOf(s *spec.Schema) string {
	var t string
	switch {
	case s == nil:
		return catalogNone
	case s.Ref != "":
		name := s.Ref
		if s.RefType != nil {
			name = s.RefType.Name
		}
		t = "[" + catalogCode(name) + "](#" + catalogAnchor("type "+name) + ")"
	case s.Union != nil:
		return catalogUnion(s, s.Nullable) // union.go
	case s.Type == spec.TypeArray:
		t = "array of " + catalogTypeOf(s.Items)
	default:
		t = string(s.Type)
		if s.Format != "" {
			t += " (" + s.Format + ")"
		}
	}
	if s.Nullable {
		t += " or null"
	}
	return t
}

// catalogConstraints lists the validation keywords of s in words.
func catalogConstraints(s *spec.Schema) string {
	var cs []string
	add := func(format string, args ...any) { cs = append(cs, fmt.Sprintf(format, args...)) }
	if s.Union != nil {
		add("%s", catalogUnionConstraints(s)) // union.go
	}
	if s.Trim {
		add("trimmed") // first: trimming comes before every other check
	}
	if len(s.Enum) > 0 {
		vals := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			vals[i] = catalogCode(catalogJSON(e))
		}
		add("one of %s", strings.Join(vals, ", "))
	}
	if s.HasConst {
		add("always %s", catalogCode(catalogJSON(s.Const)))
	}
	catalogRange(&cs, s.MinLength, s.MaxLength, "character", "characters")
	if s.Pattern != "" {
		add("matches %s", catalogCode(s.Pattern))
	}
	if s.Minimum != nil {
		add("≥ %s", s.Minimum.String())
	}
	if s.ExclusiveMinimum != nil {
		add("> %s", s.ExclusiveMinimum.String())
	}
	if s.Maximum != nil {
		add("≤ %s", s.Maximum.String())
	}
	if s.ExclusiveMaximum != nil {
		add("< %s", s.ExclusiveMaximum.String())
	}
	if s.MultipleOf != nil {
		add("multiple of %s", s.MultipleOf.String())
	}
	catalogRange(&cs, s.MinItems, s.MaxItems, "item", "items")
	if s.UniqueItems {
		add("unique items")
	}
	if s.Type == spec.TypeArray && s.Items != nil && s.Items.Ref == "" {
		if ic := catalogConstraints(s.Items); ic != "" {
			add("each item: %s", ic)
		}
	}
	switch {
	case s.AdditionalPropertiesSchema != nil:
		add("other keys allowed, each %s", catalogTypeOf(s.AdditionalPropertiesSchema))
		if v := s.AdditionalPropertiesSchema; v.Ref == "" {
			if vc := catalogConstraints(v); vc != "" {
				add("each value: %s", vc)
			}
		}
	case s.AdditionalProperties:
		add("other keys allowed")
	}
	return strings.Join(cs, "; ")
}

// catalogRange words a min/max pair of counts: "1–200 characters",
// "at least 1 item", "at most 5 items".
func catalogRange(cs *[]string, lo, hi *int, one, many string) {
	unit := func(n int) string {
		if n == 1 {
			return one
		}
		return many
	}
	switch {
	case lo != nil && hi != nil && *lo == *hi:
		*cs = append(*cs, fmt.Sprintf("exactly %d %s", *lo, unit(*lo)))
	case lo != nil && hi != nil:
		*cs = append(*cs, fmt.Sprintf("%d–%d %s", *lo, *hi, many))
	case lo != nil:
		*cs = append(*cs, fmt.Sprintf("at least %d %s", *lo, unit(*lo)))
	case hi != nil:
		*cs = append(*cs, fmt.Sprintf("at most %d %s", *hi, unit(*hi)))
	}
}

// catalogFlags lists what is notable about a tool's flags: every flag that is
// on, except open_world (on by default: "closed-world" shows when it is off)
// and enabled ("disabled" shows when it is off).
func catalogFlags(t *spec.Tool) string {
	var fs []string
	fl := t.Flags
	flag := func(f spec.Flag, name string) {
		switch {
		case f.Mode == spec.ByInput:
			fs = append(fs, name+" (by input)")
		case f.Value:
			fs = append(fs, name)
		}
	}
	if fl.Enabled.Mode == spec.Static && !fl.Enabled.Value {
		fs = append(fs, "disabled")
	}
	flag(fl.ReadOnly, "read-only")
	flag(fl.Destructive, "destructive")
	flag(fl.Idempotent, "idempotent")
	flag(fl.ConcurrencySafe, "concurrency-safe")
	flag(fl.RequiresApproval, "requires approval")
	if fl.PermissionCheck {
		fs = append(fs, "permission check")
	}
	if fl.OpenWorld.Mode == spec.Static && !fl.OpenWorld.Value {
		fs = append(fs, "closed-world")
	}
	if len(fs) == 0 {
		return catalogNone
	}
	return strings.Join(fs, ", ")
}

func catalogGate(gate, msg string) string {
	if gate == "" {
		return "none"
	}
	s := catalogCode(gate)
	if msg != "" {
		s += " (closed: " + catalogCell(msg) + ")"
	}
	return s
}

// catalogAnchor is the anchor GitHub gives a heading with this text: lower
// case, spaces to hyphens, punctuation other than '-' and '_' dropped.
func catalogAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || ('a' <= r && r <= 'z') || ('0' <= r && r <= '9'):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// catalogCode renders s as a Markdown code span that is safe in a table cell.
func catalogCode(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.ReplaceAll(s, "|", `\|`)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if fence != "`" || strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// catalogCell makes text fit in one table cell: one line, pipes escaped.
func catalogCell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return catalogNone
	}
	return strings.ReplaceAll(s, "|", `\|`)
}

// catalogParagraph trims text for a Markdown paragraph, keeping its lines.
func catalogParagraph(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(lines, "\n")
}

func catalogFirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// catalogJSON renders a spec value (default or enum member) as JSON.
func catalogJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
