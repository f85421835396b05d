// Package openapi imports an OpenAPI 3.0 or 3.1 document (loaded with
// kin-openapi) as a toolgen spec: one HTTP-bound tool per selected
// operation, written as a `*.tools.yaml` a person reviews, trims and diffs.
// What the spec format cannot carry is left out and reported per operation
// with a JSON pointer and the reason; the rest imports.
package openapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/toolgen/toolgen/spec"
)

// Options configure Import. Provider is required; the zero value of every
// other field is a documented default.
type Options struct {
	// Provider is the module's short id (`provider:`).
	Provider string
	// Package is the Go package name (`package:`); "" leaves it to the
	// spec's directory.
	Package string
	// Prefix starts every tool name; "" means Provider + "_", "-" none.
	Prefix string
	// Gate is the module's connection gate; "" means Provider, "-" none.
	Gate string
	// GateMessage is what the model reads when the gate is closed; ""
	// means "<Provider> is not connected for this account.".
	GateMessage string

	// Selection. An operation is imported when it matches every include
	// list that is set (any entry of a list) and no exclude entry. Tags
	// and operation ids are compared exactly, methods case-insensitively,
	// paths as globs where * matches within a segment and ** across
	// segments ("/v1/customers/**").
	Tags, ExcludeTags             []string
	Operations, ExcludeOperations []string
	Paths, ExcludePaths           []string
	Methods                       []string

	// Headers imports header parameters as arguments (off by default: they
	// are usually infrastructure, such as idempotency keys).
	Headers bool
	// NoApproval leaves requires_approval off the tools that change things
	// (by default POST, PUT, PATCH and DELETE need a person's approval).
	NoApproval bool
	// DescriptionMax caps a tool description (default 1000 characters);
	// PropertyDescriptionMax caps parameter and property descriptions
	// (default 300).
	DescriptionMax, PropertyDescriptionMax int
	// Fields projects results: by operation id or tool name, the dotted
	// result fields to keep ("data.id", "data.email"). x-toolgen's fields
	// and the overlay's do the same.
	Fields map[string][]string
	// MaxPages is the maximum of the max_pages argument added to a
	// paginated list operation (default 10).
	MaxPages int
	// BaseURL replaces the document's server URL.
	BaseURL string
	// Overlay is an overlay file's path ("" for none): x-toolgen settings
	// per operation, kept outside the upstream document.
	Overlay string
}

// Extension is the `x-toolgen` settings of one operation, in the document
// or in an overlay file.
type Extension struct {
	Skip        bool            `yaml:"skip" json:"skip"`
	Name        string          `yaml:"name" json:"name"`
	Description string          `yaml:"description" json:"description"`
	Flags       map[string]bool `yaml:"flags" json:"flags"`
	Fields      []string        `yaml:"fields" json:"fields"`
}

// Overlay is an overlay file: x-toolgen settings by operation id or by
// "METHOD /path".
type Overlay struct {
	Operations map[string]Extension `yaml:"operations"`
}

// Note is one thing the importer reports: an operation skipped, or a part
// of one (a parameter, a keyword, a result) left out or changed.
type Note struct {
	// Operation is "METHOD /path" and its operationId, when it has one.
	Operation string
	// Pointer locates what the note is about in the document.
	Pointer string
	Reason  string
}

func (n Note) String() string {
	s := n.Pointer + ": " + n.Reason
	if n.Operation != "" {
		s = n.Operation + ": " + s
	}
	return s
}

// Report is what an import did.
type Report struct {
	Document string
	// Operations counts the document's operations; Selected those the
	// selection kept; Imported those that became tools.
	Operations, Selected, Imported int
	// Skipped are the operations that did not import, with why.
	Skipped []Note
	// Notes are the parts of imported operations (and of shared types)
	// left out or narrowed.
	Notes []Note
	// Warnings are the document's problems by kin-openapi's validation; the
	// document imports anyway.
	Warnings []string
}

// String is the report as it is printed and written beside the spec.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "toolgen import openapi %s: %d operations, %d selected, %d imported, %d skipped, %d notes\n",
		r.Document, r.Operations, r.Selected, r.Imported, len(r.Skipped), len(r.Notes))
	section := func(title string, lines []string) {
		if len(lines) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%s (%d):\n", title, len(lines))
		for _, l := range lines {
			b.WriteString("  " + l + "\n")
		}
	}
	section("document warnings (strict validation)", r.Warnings)
	var sk, nt []string
	for _, n := range r.Skipped {
		sk = append(sk, n.String())
	}
	for _, n := range r.Notes {
		nt = append(nt, n.String())
	}
	section("skipped operations", sk)
	section("left out or narrowed", nt)
	return b.String()
}

// Result is an import's spec file and report.
type Result struct {
	Spec   []byte
	Report *Report
}

// Load reads an OpenAPI document from a local file, resolving $refs to
// other local files and never fetching anything over the network.
func Load(ctx context.Context, docPath string) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	loader.Context = ctx
	loader.IsExternalRefsAllowed = true
	loader.ReadFromURIFunc = func(l *openapi3.Loader, loc *url.URL) ([]byte, error) {
		if loc.Scheme != "" && loc.Scheme != "file" || loc.Host != "" {
			return nil, fmt.Errorf("%s: only local files are read (no network); %w", loc, openapi3.ErrURINotSupported)
		}
		return openapi3.ReadFromFile(l, loc)
	}
	doc, err := loader.LoadFromFile(docPath)
	if err != nil {
		return nil, fmt.Errorf("openapi: loading %s: %w", docPath, err)
	}
	return doc, nil
}

// Import loads the document at docPath and imports it (see ImportDoc).
func Import(ctx context.Context, docPath string, opts Options) (*Result, error) {
	doc, err := Load(ctx, docPath)
	if err != nil {
		return nil, err
	}
	return ImportDoc(ctx, doc, docPath, opts)
}

// ImportDoc imports a loaded document. The spec it returns loads without
// errors (spec.Parse is run on it); the same document and options always
// give the same bytes.
func ImportDoc(ctx context.Context, doc *openapi3.T, docPath string, opts Options) (*Result, error) {
	if !providerRe(opts.Provider) {
		return nil, fmt.Errorf("openapi: the provider %q must be a short lower-case id: a letter, then letters, digits or _", opts.Provider)
	}
	im := &importer{doc: doc, opts: opts, report: &Report{Document: filepath.Base(docPath)}}
	im.defaults()
	if opts.Overlay != "" {
		data, err := os.ReadFile(opts.Overlay)
		if err != nil {
			return nil, fmt.Errorf("openapi: overlay: %w", err)
		}
		var ov Overlay
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&ov); err != nil {
			return nil, fmt.Errorf("openapi: overlay %s: %w", opts.Overlay, err)
		}
		im.overlay = ov.Operations
	}
	if err := doc.Validate(ctx); err != nil {
		// kin-openapi reports the first problem, followed by the schema and
		// value it concerns; the first line says what is wrong.
		first, _, _ := strings.Cut(err.Error(), "\n")
		im.report.Warnings = append(im.report.Warnings, strings.TrimSpace(first))
	}
	im.conv = newConverter(im)
	out, err := im.run()
	if err != nil {
		return nil, err
	}
	return &Result{Spec: out, Report: im.report}, nil
}

func providerRe(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

type importer struct {
	doc     *openapi3.T
	opts    Options
	report  *Report
	overlay map[string]Extension
	conv    *converter
	// typeNotes are the notes about named types, by pointer, reported once.
	typeNotes map[string]bool
	// cur is the operation being imported, for its notes.
	cur string
}

func (im *importer) defaults() {
	o := &im.opts
	switch o.Prefix {
	case "":
		o.Prefix = o.Provider + "_"
	case "-":
		o.Prefix = ""
	}
	switch o.Gate {
	case "":
		o.Gate = o.Provider
	case "-":
		o.Gate = ""
	}
	if o.GateMessage == "" && o.Gate != "" {
		o.GateMessage = o.Provider + " is not connected for this account."
	}
	if o.DescriptionMax <= 0 {
		o.DescriptionMax = 1000
	}
	if o.PropertyDescriptionMax <= 0 {
		o.PropertyDescriptionMax = 300
	}
	if o.MaxPages <= 0 {
		o.MaxPages = 10
	}
	im.typeNotes = map[string]bool{}
}

func (im *importer) note(ptr, reason string) {
	im.report.Notes = append(im.report.Notes, Note{Operation: im.cur, Pointer: ptr, Reason: reason})
}

// typeNote reports a problem inside a named type once, without an
// operation.
func (im *importer) typeNote(ptr, reason string) {
	if im.typeNotes[ptr+reason] {
		return
	}
	im.typeNotes[ptr+reason] = true
	im.report.Notes = append(im.report.Notes, Note{Pointer: ptr, Reason: reason})
}

var methodOrder = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

// opRef is one operation of the document.
type opRef struct {
	path, method string
	item         *openapi3.PathItem
	op           *openapi3.Operation
}

func (r opRef) label() string {
	s := r.method + " " + r.path
	if r.op.OperationID != "" {
		s += " (" + r.op.OperationID + ")"
	}
	return s
}

func (r opRef) pointer() string {
	return "#/paths/" + pointer(r.path) + "/" + strings.ToLower(r.method)
}

func (im *importer) run() ([]byte, error) {
	var ops []opRef
	if im.doc.Paths != nil {
		paths := im.doc.Paths.Map()
		keys := make([]string, 0, len(paths))
		for k := range paths {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, p := range keys {
			item := paths[p]
			all := item.Operations()
			for _, m := range methodOrder {
				if op := all[m]; op != nil {
					ops = append(ops, opRef{p, m, item, op})
				}
			}
			var others []string
			for m := range all {
				if !slices.Contains(methodOrder, m) {
					others = append(others, m)
				}
			}
			sort.Strings(others)
			for _, m := range others {
				ops = append(ops, opRef{p, m, item, all[m]})
			}
		}
	}
	im.report.Operations = len(ops)

	names := &nameSet{used: map[string]bool{}, goNames: map[string]bool{}, provider: im.opts.Provider}
	var tools []*toolOut
	for _, r := range ops {
		ext := im.extension(r)
		if !im.selected(r) {
			continue
		}
		im.report.Selected++
		if ext.Skip {
			im.report.Skipped = append(im.report.Skipped, Note{Operation: r.label(), Pointer: r.pointer(), Reason: "skipped by x-toolgen"})
			continue
		}
		im.cur = r.label()
		t, reason, at := im.operation(r, ext, names)
		if t == nil {
			im.report.Skipped = append(im.report.Skipped, Note{Operation: r.label(), Pointer: at, Reason: reason})
			continue
		}
		tools = append(tools, t)
		im.report.Imported++
	}
	im.cur = ""
	if len(tools) == 0 {
		return nil, errors.New("openapi: no operation imported (see the report)")
	}

	reserved := map[string]bool{"Executor": true, "Tools": true, "Module": true, "Provider": true, "Gate": true, "Gates": true}
	for _, t := range tools {
		gn := spec.ToolGoName(im.opts.Provider, t.name)
		reserved[gn+"Args"] = true
		reserved[gn+"Result"] = true
	}
	types := im.conv.finish(reserved)
	return im.emitUnique(tools, types)
}

// extension is the operation's x-toolgen from the document, with the
// overlay's entry (by operation id, else "METHOD /path") over it.
func (im *importer) extension(r opRef) Extension {
	var ext Extension
	if raw, ok := r.op.Extensions["x-toolgen"]; ok {
		if err := decodeExtension(raw, &ext); err != nil {
			im.report.Notes = append(im.report.Notes, Note{Operation: r.label(), Pointer: r.pointer() + "/x-toolgen", Reason: "ignored: " + err.Error()})
		}
	}
	for _, key := range []string{r.method + " " + r.path, r.op.OperationID} {
		if key == "" {
			continue
		}
		if o, ok := im.overlay[key]; ok {
			if o.Skip {
				ext.Skip = true
			}
			if o.Name != "" {
				ext.Name = o.Name
			}
			if o.Description != "" {
				ext.Description = o.Description
			}
			if o.Fields != nil {
				ext.Fields = o.Fields
			}
			for k, v := range o.Flags {
				if ext.Flags == nil {
					ext.Flags = map[string]bool{}
				}
				ext.Flags[k] = v
			}
		}
	}
	return ext
}

func decodeExtension(raw any, ext *Extension) error {
	data, err := yaml.Marshal(raw)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	return dec.Decode(ext)
}

// selected applies the include and exclude lists.
func (im *importer) selected(r opRef) bool {
	o := &im.opts
	anyTag := func(tags []string) bool {
		for _, t := range r.op.Tags {
			if slices.Contains(tags, t) {
				return true
			}
		}
		return false
	}
	anyPath := func(globs []string) bool {
		for _, g := range globs {
			if globMatch(g, r.path) {
				return true
			}
		}
		return false
	}
	if len(o.Tags) > 0 && !anyTag(o.Tags) || anyTag(o.ExcludeTags) {
		return false
	}
	if len(o.Operations) > 0 && !slices.Contains(o.Operations, r.op.OperationID) || r.op.OperationID != "" && slices.Contains(o.ExcludeOperations, r.op.OperationID) {
		return false
	}
	if len(o.Paths) > 0 && !anyPath(o.Paths) || anyPath(o.ExcludePaths) {
		return false
	}
	if len(o.Methods) > 0 && !slices.ContainsFunc(o.Methods, func(m string) bool { return strings.EqualFold(m, r.method) }) {
		return false
	}
	return true
}

// globMatch matches a path against a glob: * within one segment, ** any
// number of segments.
func globMatch(glob, p string) bool {
	gs := strings.Split(strings.Trim(glob, "/"), "/")
	ps := strings.Split(strings.Trim(p, "/"), "/")
	var match func(gs, ps []string) bool
	match = func(gs, ps []string) bool {
		if len(gs) == 0 {
			return len(ps) == 0
		}
		if gs[0] == "**" {
			for i := 0; i <= len(ps); i++ {
				if match(gs[1:], ps[i:]) {
					return true
				}
			}
			return false
		}
		if len(ps) == 0 {
			return false
		}
		if ok, _ := path.Match(gs[0], ps[0]); !ok {
			return false
		}
		return match(gs[1:], ps[1:])
	}
	return match(gs, ps)
}

// nameSet hands out unique tool names.
type nameSet struct {
	used, goNames map[string]bool
	provider      string
}

// take returns name, or name with a numeric suffix, unique by name and by
// Go name.
func (s *nameSet) take(name string) string {
	cand := shorten(name, spec.MaxNameLen)
	for i := 2; s.used[cand] || s.goNames[spec.ToolGoName(s.provider, cand)]; i++ {
		suffix := "_" + strconv.Itoa(i)
		cand = shorten(name, spec.MaxNameLen-len(suffix)) + suffix
	}
	s.used[cand] = true
	s.goNames[spec.ToolGoName(s.provider, cand)] = true
	return cand
}

// snake makes a portable snake_case name of an operation id or a method
// and path: "GetCustomersCustomer" gives "get_customers_customer",
// "get /v1/customers/{id}" gives "get_v1_customers_id".
func snake(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r >= 'A' && r <= 'Z':
			if i > 0 && (rs[i-1] >= 'a' && rs[i-1] <= 'z' || rs[i-1] >= '0' && rs[i-1] <= '9' ||
				i+1 < len(rs) && rs[i+1] >= 'a' && rs[i+1] <= 'z' && rs[i-1] >= 'A' && rs[i-1] <= 'Z') {
				b.WriteByte('_')
			}
			b.WriteRune(r + 'a' - 'A')
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	out := b.String()
	for strings.Contains(out, "__") {
		out = strings.ReplaceAll(out, "__", "_")
	}
	return strings.Trim(out, "_")
}

// argName makes a portable argument name of a parameter name.
func argName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	out := strings.Trim(b.String(), "_-")
	if out == "" || out[0] >= '0' && out[0] <= '9' {
		out = "p_" + out
	}
	return shorten(out, spec.MaxNameLen)
}
