package gen

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/wire"
	"github.com/toolgen/toolgen/spec"
)

// fixtureSpec builds, in Go, the spec a notes module would load from
// dir/notes.tools.yaml: a read-only search with an optional filter and a
// bounded limit, an add tool with a length-bounded string and an enum, a
// destructive delete that needs approval, a tool with a typed result, and a
// named type.
func fixtureSpec(dir string) *spec.File {
	i := func(n int) *int { return &n }
	fl := func(n float64) *wire.Decimal { return wire.Dec(strconv.FormatFloat(n, 'g', -1, 64)) }
	static := func(v bool) spec.Flag { return spec.Flag{Value: v} }
	flags := func(readOnly, destructive, approval bool) spec.Flags {
		return spec.Flags{
			Enabled: static(true), ReadOnly: static(readOnly), Destructive: static(destructive),
			Idempotent: static(readOnly), OpenWorld: static(false), ConcurrencySafe: static(readOnly),
			RequiresApproval: static(approval),
		}
	}
	obj := func(props ...*spec.Property) *spec.Schema {
		s := &spec.Schema{Type: spec.TypeObject, Properties: props}
		for _, p := range props {
			if p.Required {
				s.Required = append(s.Required, p.Name)
			}
		}
		return s
	}
	prop := func(name string, req bool, s *spec.Schema) *spec.Property {
		return &spec.Property{Name: name, GoName: spec.GoName(name), Required: req, Schema: s}
	}
	dateRange := &spec.NamedType{Name: "DateRange", GoName: "DateRange", Schema: obj(
		prop("from", true, &spec.Schema{Type: spec.TypeString, Format: "date", Description: "First day, inclusive."}),
		prop("to", false, &spec.Schema{Type: spec.TypeString, Format: "date", Description: "Last day, inclusive."}),
	)}
	dateRange.Schema.Description = "A range of days."
	f := &spec.File{
		Path:        filepath.Join(dir, "notes.tools.yaml"),
		Version:     1,
		Provider:    "notes",
		Package:     "notes",
		Description: "An in-memory notes store.",
		Types:       []*spec.NamedType{dateRange},
	}
	tool := func(name, desc string, params *spec.Schema, flags spec.Flags) *spec.Tool {
		return &spec.Tool{
			Name: name, GoName: spec.ToolGoName("notes", name), Description: desc,
			Kind: spec.KindTool, Params: params, Flags: flags,
		}
	}
	list := tool("notes_list", "List notes, newest first.\nOptionally filtered by a query.", obj(
		prop("query", false, &spec.Schema{Type: spec.TypeString, MaxLength: i(200), Description: "Words the note must contain | all of them."}),
		prop("limit", false, &spec.Schema{Type: spec.TypeInteger, Minimum: fl(1), Maximum: fl(100), Default: int64(20), HasDefault: true, Description: "Max notes to return."}),
		prop("created", false, &spec.Schema{Ref: "#/types/DateRange", RefType: dateRange, Description: "Only notes created in this range."}),
		prop("filter", false, obj(
			prop("tags", false, &spec.Schema{Type: spec.TypeArray, Items: &spec.Schema{Type: spec.TypeString, MinLength: i(1)}, MaxItems: i(5), UniqueItems: true, Description: "Any of these tags."}),
			prop("done", false, &spec.Schema{Type: spec.TypeBoolean, Nullable: true}),
		)),
	), flags(true, false, false))
	list.Status = "Searching notes for {query}"
	list.StatusFallback = "Listing notes"
	add := tool("notes_add", "Add a note.", obj(
		prop("title", true, &spec.Schema{Type: spec.TypeString, MinLength: i(1), MaxLength: i(120), Description: "The note's title."}),
		prop("priority", false, &spec.Schema{Type: spec.TypeString, Enum: []any{"low", "normal", "high"}, Default: "normal", HasDefault: true}),
	), flags(false, false, false))
	del := tool("notes_delete", "Delete a note for good.", obj(
		prop("id", true, &spec.Schema{Type: spec.TypeString, Format: "uuid"}),
	), flags(false, true, true))
	del.Gate, del.GateMessage = "notes_admin", "Deleting notes needs the admin connection."
	stats := tool("notes_stats", "Count notes.", obj(), flags(true, false, false))
	stats.Result = obj(prop("count", true, &spec.Schema{Type: spec.TypeInteger, Minimum: fl(0)}))
	f.Tools = []*spec.Tool{list, add, del, stats}
	return f
}

// fixtureDir makes a package directory holding the given files.
func fixtureDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestGenerateFiles(t *testing.T) {
	dir := fixtureDir(t, map[string]string{"notes.tools.yaml": "toolgen: 1\n"})
	f := fixtureSpec(dir)
	out, err := Generate(f, dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range out.Files {
		got = append(got, filepath.Base(o.Path)+" "+o.Kind.String())
		if filepath.Dir(o.Path) != dir {
			t.Errorf("%s is not in the package directory %s", o.Path, dir)
		}
	}
	want := []string{"notes_tools.gen.go generated", "notes_tools.go stubs", "notes_tools.md catalog"}
	if !slices.Equal(got, want) {
		t.Fatalf("files = %q, want %q", got, want)
	}
	if want := []string{"List", "Add", "Delete", "Stats"}; !slices.Equal(out.Files[1].NewStubs, want) {
		t.Errorf("NewStubs = %q, want %q", out.Files[1].NewStubs, want)
	}
	if out.Spec != f.Path || len(out.Warnings) != 0 {
		t.Errorf("Spec = %q, Warnings = %q", out.Spec, out.Warnings)
	}
	// Generate writes nothing.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("Generate wrote files: %v", entries)
	}

	// Deterministic: a second run gives the same bytes.
	again, err := Generate(f, dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range out.Files {
		if !bytes.Equal(out.Files[i].Content, again.Files[i].Content) {
			t.Errorf("%s differs between two runs", out.Files[i].Path)
		}
	}
}

func TestGenerateChangesAndWrite(t *testing.T) {
	dir := fixtureDir(t, map[string]string{"notes.tools.yaml": "toolgen: 1\n"})
	f := fixtureSpec(dir)
	out, err := Generate(f, dir)
	if err != nil {
		t.Fatal(err)
	}
	reasons := func(out *Output) []string {
		t.Helper()
		ch, err := out.Changes()
		if err != nil {
			t.Fatal(err)
		}
		var rs []string
		for _, c := range ch {
			rs = append(rs, filepath.Base(c.File.Path)+": "+c.Reason)
		}
		return rs
	}
	if got, want := reasons(out), []string{"notes_tools.gen.go: missing", "notes_tools.go: missing", "notes_tools.md: missing"}; !slices.Equal(got, want) {
		t.Fatalf("changes = %q, want %q", got, want)
	}
	for _, o := range out.Files {
		if err := WriteFile(o.Path, o.Content); err != nil {
			t.Fatal(err)
		}
	}
	if got := reasons(out); len(got) != 0 {
		t.Fatalf("changes after writing = %q", got)
	}
	// Regenerating changes nothing.
	out, err = Generate(f, dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := reasons(out); len(got) != 0 {
		t.Fatalf("changes after regenerating = %q", got)
	}
	if len(out.Files[1].NewStubs) != 0 {
		t.Errorf("NewStubs after regenerating = %q", out.Files[1].NewStubs)
	}

	// A new tool: the stubs file lacks its stub and the catalog is stale.
	f.Tools = append(f.Tools, &spec.Tool{
		Name: "notes_archive", GoName: "Archive", Description: "Archive a note.", Kind: spec.KindTool,
		Params: &spec.Schema{Type: spec.TypeObject}, Flags: f.Tools[1].Flags,
	})
	out, err = Generate(f, dir)
	if err != nil {
		t.Fatal(err)
	}
	got := reasons(out)
	if !slices.Contains(got, "notes_tools.go: missing stubs for Archive") || !slices.Contains(got, "notes_tools.md: out of date") {
		t.Errorf("changes after adding a tool = %q", got)
	}
}

func TestWriteFileAtomicKeepsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x_tools.go")
	if err := WriteFile(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("new file mode = %v, want 0644", fi.Mode().Perm())
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "two" {
		t.Errorf("content = %q", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after rewrite = %v, want 0600", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x.go"), nil); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

func TestGenerateOneSpecPerPackage(t *testing.T) {
	dir := fixtureDir(t, map[string]string{"notes.tools.yaml": "", "more.tools.yaml": ""})
	_, err := Generate(fixtureSpec(dir), dir)
	var list spec.ErrorList
	if !errors.As(err, &list) || len(list) != 1 {
		t.Fatalf("err = %v, want one located error", err)
	}
	want := filepath.Join(dir, "notes.tools.yaml") + ":1:1: a second spec file in one package (more.tools.yaml is the first)"
	if !strings.HasPrefix(list[0].Error(), want) {
		t.Errorf("err = %q, want prefix %q", list[0].Error(), want)
	}
}

func TestGenerateRejectsBadSpecName(t *testing.T) {
	dir := t.TempDir()
	f := fixtureSpec(dir)
	f.Path = filepath.Join(dir, "notes.yaml")
	if _, err := Generate(f, dir); err == nil || !strings.Contains(err.Error(), "must end in .tools.yaml") {
		t.Errorf("err = %v", err)
	}
}

func TestFileNames(t *testing.T) {
	g, s, c := FileNames("example.tools.yaml")
	if g != "example_tools.gen.go" || s != "example_tools.go" || c != "example_tools.md" {
		t.Errorf("FileNames = %q %q %q", g, s, c)
	}
	if name, ok := SpecName("a/b/my-api.tools.yaml"); !ok || name != "my-api" {
		t.Errorf("SpecName = %q, %v", name, ok)
	}
	for _, bad := range []string{"x.yaml", ".tools.yaml", "tools.yaml"} {
		if _, ok := SpecName(bad); ok {
			t.Errorf("SpecName(%q) ok", bad)
		}
	}
}

// A generated file whose spec was renamed away is reported.
func TestGenerateWarnsOrphanGeneratedFile(t *testing.T) {
	dir := fixtureDir(t, map[string]string{
		"notes.tools.yaml":   "",
		"old_tools.gen.go":   "// Code generated by toolgen from old.tools.yaml. DO NOT EDIT.\n\npackage notes\n",
		"other_tools.gen.go": "// Code generated by hand. DO NOT EDIT.\n\npackage notes\n",
		"notes_tools.gen.go": "// Code generated by toolgen from notes.tools.yaml. DO NOT EDIT.\n\npackage notes\n",
	})
	out, err := Generate(fixtureSpec(dir), dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Orphan{{Path: filepath.Join(dir, "old_tools.gen.go"), Spec: "old.tools.yaml"}}
	if !slices.Equal(out.Orphans, want) {
		t.Errorf("orphans = %+v, want %+v", out.Orphans, want)
	}
	if len(out.Warnings) != 0 {
		t.Errorf("warnings = %q", out.Warnings)
	}
	wantText := filepath.Join(dir, "old_tools.gen.go") + ":1: generated from old.tools.yaml, which is not in this directory any more; delete it"
	if got := out.Orphans[0].String(); got != wantText {
		t.Errorf("String() = %q, want %q", got, wantText)
	}

	// With its catalog, and in a directory without a spec; a generated
	// file whose spec is there is no orphan.
	os.WriteFile(filepath.Join(dir, "old_tools.md"), nil, 0o644)
	os.Remove(filepath.Join(dir, "notes.tools.yaml"))
	got := Orphans(dir, "")
	want = []Orphan{
		{Path: filepath.Join(dir, "notes_tools.gen.go"), Spec: "notes.tools.yaml"},
		{Path: filepath.Join(dir, "old_tools.gen.go"), Catalog: filepath.Join(dir, "old_tools.md"), Spec: "old.tools.yaml"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Orphans = %+v, want %+v", got, want)
	}
	if s := got[1].String(); !strings.HasSuffix(s, "; delete it and "+filepath.Join(dir, "old_tools.md")) {
		t.Errorf("String() = %q", s)
	}
	os.WriteFile(filepath.Join(dir, "old.tools.yaml"), nil, 0o644)
	if got := Orphans(dir, ""); len(got) != 1 || got[0].Spec != "notes.tools.yaml" {
		t.Errorf("Orphans with old.tools.yaml back = %+v", got)
	}
}
