package gen

import (
	"bytes"
	"errors"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/scale"
	"github.com/toolgen/toolgen/spec"
)

// stubsGenerate runs Generate on the fixture spec in a directory holding
// files, and returns the stubs file it wants (nil when none) and the output.
func stubsGenerate(t *testing.T, files map[string]string, edit func(*spec.File)) (*OutFile, *Output, string) {
	t.Helper()
	if files == nil {
		files = map[string]string{}
	}
	files["notes.tools.yaml"] = "toolgen: 1\n"
	dir := fixtureDir(t, files)
	f := fixtureSpec(dir)
	if edit != nil {
		edit(f)
	}
	out, err := Generate(f, dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range out.Files {
		if out.Files[i].Kind == FileStubs {
			return &out.Files[i], out, dir
		}
	}
	return nil, out, dir
}

// stubsMethods parses Go source and lists its methods as "Recv.Name".
func stubsMethods(t *testing.T, src []byte) []string {
	t.Helper()
	file, err := parser.ParseFile(token.NewFileSet(), "", src, 0)
	if err != nil {
		t.Fatalf("stubs do not parse: %v\n%s", err, src)
	}
	var ms []string
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
			ms = append(ms, stubsRecvType(fd.Recv.List[0].Type)+"."+fd.Name.Name)
		}
	}
	return ms
}

func TestStubsFirstTime(t *testing.T) {
	st, _, _ := stubsGenerate(t, nil, nil)
	src := string(st.Content)
	for _, want := range []string{
		"// This file is yours: toolgen wrote these stubs once. Later runs only append\n// stubs for new tools (and add the imports those need); they never change what\n// you write here.\n",
		"\n\npackage notes\n",
		"\"github.com/toolgen/toolgen/runtime\"",
		"type Tools struct{}",
		"var _ Executor = (*Tools)(nil)",
		"// List runs the notes_list tool: List notes, newest first.\n// Optionally filtered by a query.\nfunc (t *Tools) List(ctx context.Context, call *runtime.Call, args *ListArgs) (runtime.Result, error) {\n\treturn runtime.Result{}, errors.New(\"not implemented\")\n}",
		"func (t *Tools) Stats(ctx context.Context, call *runtime.Call, args *StatsArgs) (*StatsResult, error) {\n\treturn nil, errors.New(\"not implemented\")\n}",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("stubs lack %q:\n%s", want, src)
		}
	}
	if strings.Contains(src, "DO NOT EDIT") {
		t.Error("the stubs file is marked DO NOT EDIT")
	}
	if got, want := stubsMethods(t, st.Content), []string{"Tools.List", "Tools.Add", "Tools.Delete", "Tools.Stats"}; !slices.Equal(got, want) {
		t.Errorf("methods = %q, want %q", got, want)
	}
	if formatted, err := format.Source(st.Content); err != nil || string(formatted) != src {
		t.Errorf("stubs are not gofmt'd (err %v)", err)
	}
	// The header is not the package's doc comment.
	file, _ := parser.ParseFile(token.NewFileSet(), "", st.Content, parser.ParseComments)
	if file.Doc != nil {
		t.Errorf("the header became the package doc: %q", file.Doc.Text())
	}
}

// A filled method, formatted the developer's way, survives appending and
// the import its body no longer needed comes back for the new stubs.
func TestStubsAppendKeepsWhatYouWrote(t *testing.T) {
	mine := `// This file is yours.

package notes

import (
	"context"
	"strings"

	"github.com/toolgen/toolgen/runtime"
)

// Tools is mine.
type Tools struct{ notes []string }

var _ Executor = (*Tools)(nil)

// List is filled in.
func (t *Tools) List(ctx context.Context, call *runtime.Call, args *ListArgs) (runtime.Result, error) {
	return runtime.Text(strings.Join(t.notes, "\n")), nil // keep   this comment
}
`
	st, out, dir := stubsGenerate(t, map[string]string{"notes_tools.go": mine}, nil)
	src := string(st.Content)
	if got, want := stubsMethods(t, st.Content), []string{"Tools.List", "Tools.Add", "Tools.Delete", "Tools.Stats"}; !slices.Equal(got, want) {
		t.Errorf("methods = %q, want %q", got, want)
	}
	if want := []string{"Add", "Delete", "Stats"}; !slices.Equal(st.NewStubs, want) {
		t.Errorf("NewStubs = %q, want %q", st.NewStubs, want)
	}
	body := mine[strings.Index(mine, "// Tools is mine."):]
	if !strings.Contains(src, body) {
		t.Errorf("the developer's code changed:\n%s", src)
	}
	if !strings.Contains(src, "\t\"errors\"\n") {
		t.Errorf("the errors import was not added:\n%s", src)
	}
	if strings.Count(src, "type Tools") != 1 || strings.Count(src, "var _ Executor") != 1 {
		t.Errorf("type or assertion repeated:\n%s", src)
	}
	if len(out.Warnings) != 0 {
		t.Errorf("warnings: %q", out.Warnings)
	}

	// Written, then generated again: nothing more to add.
	if err := WriteFile(st.Path, st.Content); err != nil {
		t.Fatal(err)
	}
	f := fixtureSpec(dir)
	again, err := Generate(f, dir)
	if err != nil {
		t.Fatal(err)
	}
	if string(again.Files[1].Content) != src || len(again.Files[1].NewStubs) != 0 {
		t.Errorf("a second run changed the stubs file")
	}
}

// A file that was not gofmt'd is not reformatted: the stubs are appended
// as text.
func TestStubsDoNotReformat(t *testing.T) {
	mine := "package notes\n\nimport \"github.com/toolgen/toolgen/runtime\"\nimport \"context\"\n\ntype Tools struct{}\nvar _ Executor = (*Tools)(nil)\n\nfunc (t *Tools) List(ctx context.Context, call *runtime.Call, args *ListArgs) (runtime.Result, error) {return runtime.Text(\"x\"),nil}\n"
	st, _, _ := stubsGenerate(t, map[string]string{"notes_tools.go": mine}, nil)
	src := string(st.Content)
	for _, keep := range []string{
		"import \"github.com/toolgen/toolgen/runtime\"\nimport \"context\"",
		"type Tools struct{}\nvar _ Executor = (*Tools)(nil)\n",
		"{return runtime.Text(\"x\"),nil}\n",
	} {
		if !strings.Contains(src, keep) {
			t.Errorf("lost %q:\n%s", keep, src)
		}
	}
	if got := stubsMethods(t, st.Content); len(got) != 4 {
		t.Errorf("methods = %q", got)
	}
	if !strings.Contains(src, "import (\n\t\"errors\"\n)") {
		t.Errorf("errors import not added after the last import:\n%s", src)
	}
}

// Methods written in another file of the package get no stub; a custom
// implementation type (named by its assertion) and its receiver name are
// used; a method only in a _test.go or an ignored file does not count.
func TestStubsFindMethodsAnywhere(t *testing.T) {
	other := `package notes

import (
	"context"

	"github.com/toolgen/toolgen/runtime"
)

type Service struct{}

var _ Executor = (*Service)(nil)

func (s *Service) List(ctx context.Context, call *runtime.Call, args *ListArgs) (runtime.Result, error) {
	return runtime.Text(""), nil
}

func (s Service) Delete(ctx context.Context, call *runtime.Call, args *DeleteArgs) (runtime.Result, error) {
	return runtime.Text(""), nil
}
`
	inTest := "package notes\n\nfunc (s *Service) Add() {}\n"
	ignored := "//go:build ignore\n\npackage main\n\nfunc (s *Service) Stats() {}\n"
	st, out, _ := stubsGenerate(t, map[string]string{"service.go": other, "service_test.go": inTest, "gen.go": ignored}, nil)
	if got, want := stubsMethods(t, st.Content), []string{"Service.Add", "Service.Stats"}; !slices.Equal(got, want) {
		t.Errorf("methods = %q, want %q", got, want)
	}
	src := string(st.Content)
	if strings.Contains(src, "type Tools") || strings.Contains(src, "type Service") || strings.Contains(src, "var _ Executor") {
		t.Errorf("the type or its assertion was declared again:\n%s", src)
	}
	if !strings.Contains(src, "func (s *Service) Add(") {
		t.Errorf("receiver name not reused:\n%s", src)
	}
	if len(out.Warnings) != 0 {
		t.Errorf("warnings: %q", out.Warnings)
	}
}

// No stubs file is needed when every method exists elsewhere.
func TestStubsNotNeeded(t *testing.T) {
	var b strings.Builder
	b.WriteString("package notes\n\nimport (\n\t\"context\"\n\n\t\"github.com/toolgen/toolgen/runtime\"\n)\n\ntype Tools struct{}\n\nvar _ Executor = Tools{}\n\n")
	for _, m := range []string{"List", "Add", "Delete"} {
		b.WriteString("func (Tools) " + m + "(ctx context.Context, call *runtime.Call, args *" + m + "Args) (runtime.Result, error) { return runtime.Text(\"\"), nil }\n")
	}
	b.WriteString("func (Tools) Stats(ctx context.Context, call *runtime.Call, args *StatsArgs) (*StatsResult, error) { return nil, nil }\n")
	st, _, _ := stubsGenerate(t, map[string]string{"impl.go": b.String()}, nil)
	if st != nil {
		t.Errorf("a stubs file was generated:\n%s", st.Content)
	}
}

// A value assertion (T{}) asks for value receivers.
func TestStubsValueReceivers(t *testing.T) {
	st, _, _ := stubsGenerate(t, map[string]string{"impl.go": "package notes\n\ntype Impl struct{}\n\nvar _ Executor = Impl{}\n"}, nil)
	if src := string(st.Content); !strings.Contains(src, "func (t Impl) List(") || strings.Contains(src, "var _") {
		t.Errorf("stubs:\n%s", src)
	}
}

// An existing import named like one the stubs need gets them an alias.
func TestStubsImportNameConflict(t *testing.T) {
	mine := "package notes\n\nimport \"runtime\"\n\ntype Tools struct{}\n\nvar _ Executor = (*Tools)(nil)\n\nvar _ = runtime.NumCPU\n"
	st, _, _ := stubsGenerate(t, map[string]string{"notes_tools.go": mine}, nil)
	src := string(st.Content)
	if !strings.Contains(src, "toolgenruntime \"github.com/toolgen/toolgen/runtime\"") ||
		!strings.Contains(src, "call *toolgenruntime.Call") || !strings.Contains(src, "\"runtime\"") {
		t.Errorf("stubs:\n%s", src)
	}
}

// A method whose tool left the spec is reported with its place, and kept;
// its Args type went with the tool, so the warning says the package will
// not build.
func TestStubsWarnRemovedTool(t *testing.T) {
	st, _, dir := stubsGenerate(t, nil, nil)
	if err := WriteFile(st.Path, st.Content); err != nil {
		t.Fatal(err)
	}
	helpers := "package notes\n\nimport (\n\t\"context\"\n\n\t\"github.com/toolgen/toolgen/runtime\"\n)\n\n" +
		"func (t *Tools) client(ctx context.Context, call *runtime.Call) error { return nil }\n\n" +
		"func (t *Tools) Describe(ctx context.Context, call *runtime.Call) string { return \"\" }\n"
	if err := os.WriteFile(filepath.Join(dir, "helpers.go"), []byte(helpers), 0o644); err != nil {
		t.Fatal(err)
	}
	f := fixtureSpec(dir)
	f.Tools = slices.Delete(f.Tools, 1, 3) // notes_add, notes_delete
	out, err := Generate(f, dir)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(st.Content), "\n")
	lineOf := func(prefix string) int {
		for i, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return i + 1
			}
		}
		t.Fatalf("no line %q", prefix)
		return 0
	}
	path := filepath.Join(dir, "notes_tools.go")
	want := []string{
		path + ":" + strconv.Itoa(lineOf("func (t *Tools) Add(")) + ": method Tools.Add is no longer part of the Executor interface (tool removed from the spec?); the package will not build until you delete it or its use of AddArgs",
		path + ":" + strconv.Itoa(lineOf("func (t *Tools) Delete(")) + ": method Tools.Delete is no longer part of the Executor interface (tool removed from the spec?); the package will not build until you delete it or its use of DeleteArgs",
	}
	if !slices.Equal(out.Warnings, want) {
		t.Errorf("warnings = %q\nwant %q", out.Warnings, want)
	}
	if ch, _ := out.Changes(); len(ch) != 2 || ch[0].File.Kind != FileGenerated || ch[1].File.Kind != FileCatalog {
		t.Errorf("changes = %v, want the generated file and catalog only (the stubs file is kept)", ch)
	}
}

// The warning about a removed tool's method says the package will not
// build only when the method's signature uses a name nothing declares any
// more (listing each once); a type the developer declares elsewhere, or a
// dot import that might declare it, keeps the milder text.
func TestStubsWarnRemovedToolBuild(t *testing.T) {
	for _, c := range []struct {
		name, helpers string
		want          map[string]string // method: the end of its warning
	}{
		{"gone", "package notes\n", map[string]string{
			"Delete": "the package will not build until you delete it or its use of DeleteArgs",
			"Stats":  "the package will not build until you delete it or its use of StatsArgs and StatsResult",
		}},
		{"kept by hand", "package notes\n\n// DeleteArgs outlives its tool.\ntype DeleteArgs struct{}\n", map[string]string{
			"Delete": "delete it when you are done with it",
			"Stats":  "the package will not build until you delete it or its use of StatsArgs and StatsResult",
		}},
		{"dot import", "package notes\n\nimport . \"strings\"\n\nvar _ = ToUpper\n", map[string]string{
			"Delete": "delete it when you are done with it",
			"Stats":  "delete it when you are done with it",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, _, dir := stubsGenerate(t, nil, nil)
			if err := WriteFile(st.Path, st.Content); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "helpers.go"), []byte(c.helpers), 0o644); err != nil {
				t.Fatal(err)
			}
			f := fixtureSpec(dir)
			f.Tools = slices.Delete(f.Tools, 2, 4) // notes_delete, notes_stats
			out, err := Generate(f, dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Warnings) != len(c.want) {
				t.Fatalf("warnings = %q, want %d", out.Warnings, len(c.want))
			}
			for _, w := range out.Warnings {
				_, rest, _ := strings.Cut(w, ": method Tools.")
				name, _, _ := strings.Cut(rest, " ")
				if want := "is no longer part of the Executor interface (tool removed from the spec?); " + c.want[name]; !strings.HasSuffix(w, want) {
					t.Errorf("warning %q\nwant it to end %q", w, want)
				}
			}
		})
	}
}

// Go files toolgen cannot read are located errors, and so is a file of
// another package.
func TestStubsUnreadablePackage(t *testing.T) {
	for name, tc := range map[string]struct{ file, want string }{
		"syntax":  {"package notes\n\nfunc (t *Tools) List( {\n", "broken.go:3:"},
		"package": {"package other\n", "broken.go:1:9: package other, but the spec generates package notes here"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := fixtureDir(t, map[string]string{"notes.tools.yaml": "", "broken.go": tc.file})
			_, err := Generate(fixtureSpec(dir), dir)
			var list spec.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("err = %v, want a spec.ErrorList", err)
			}
			if got := list.Error(); !strings.Contains(got, filepath.Join(dir, tc.want)) {
				t.Errorf("err = %q, want %q", got, tc.want)
			}
		})
	}
}

// The generated file being replaced is not read: it may be stale or broken.
func TestStubsSkipOwnGeneratedFile(t *testing.T) {
	st, _, _ := stubsGenerate(t, map[string]string{"notes_tools.gen.go": "package stale\n\nfunc (t *Tools) List( {"}, nil)
	if st == nil || len(st.NewStubs) != 4 {
		t.Fatalf("stubs = %+v", st)
	}
}

func TestStubsWrap(t *testing.T) {
	long := strings.Repeat("word ", 40)
	for _, l := range stubsWrap(long + "\nsecond") {
		if len(l) > 76 {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
	}
	if got := stubsWrap("a\nb"); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("stubsWrap kept no line breaks: %q", got)
	}
}

func TestStubsGuessName(t *testing.T) {
	for path, want := range map[string]string{
		"github.com/toolgen/toolgen/runtime": "runtime",
		"gopkg.in/yaml.v3":                   "yaml",
		"github.com/jackc/pgx/v5":            "pgx",
		"github.com/mattn/go-isatty":         "isatty",
		"context":                            "context",
	} {
		if got := stubsGuessName(path); got != want {
			t.Errorf("stubsGuessName(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestStubsMissingDir(t *testing.T) {
	if _, err := scanPackage(filepath.Join(t.TempDir(), "nope"), "notes", ""); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v", err)
	}
}

// An agent tool's stub makes the sub-agent; once written, its method is
// executor-shaped, so removing the tool from the spec is reported.
func TestStubsAgentTool(t *testing.T) {
	agent := func(f *spec.File) { f.Tools[1].Kind = spec.KindAgent } // notes_add
	st, _, dir := stubsGenerate(t, nil, agent)
	want := "// Add creates a fresh sub-agent for one call of the notes_add tool: Add a\n// note.\n" +
		"func (t *Tools) Add(ctx context.Context, call *runtime.Call, args *AddArgs) (runtime.Agent, error) {\n" +
		"\treturn nil, errors.New(\"not implemented\")\n}\n"
	if !strings.Contains(string(st.Content), want) {
		t.Fatalf("stubs lack %q:\n%s", want, st.Content)
	}
	if err := WriteFile(st.Path, st.Content); err != nil {
		t.Fatal(err)
	}
	f := fixtureSpec(dir)
	agent(f)
	f.Tools = slices.Delete(f.Tools, 1, 2)
	out, err := Generate(f, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Warnings) != 1 || !strings.Contains(out.Warnings[0], ": method Tools.Add is no longer part of the Executor interface") {
		t.Errorf("warnings = %q, want one about Tools.Add", out.Warnings)
	}
}

// TestStubsFormattedOnce: a new stubs file, rendered unformatted and
// gofmt'd once with its header, has the bytes of the stubs rendered
// gofmt'd and formatted again with the header, for every golden case, the
// fixtures and a spec of 40 tools, with pointer and value receivers and an
// import under another name.
func TestStubsFormattedOnce(t *testing.T) {
	files := map[string]*spec.File{}
	for _, c := range goldenCases {
		files[c] = loadSpec(t, filepath.Join("testdata", "golden", c, c+".tools.yaml"))
	}
	for _, fx := range fixtures {
		files[fx[1]] = loadSpec(t, filepath.Join(fx[0], fx[1]+".tools.yaml"))
	}
	big, err := spec.Parse("big.tools.yaml", scale.Spec(40))
	if err != nil {
		t.Fatal(err)
	}
	files["big"] = big
	for name, f := range files {
		for _, value := range []bool{false, true} {
			sc := &pkgScan{impl: DefaultImplName, recv: "t", valueRecv: value, methods: map[string]scannedMethod{}, declared: map[string]bool{}}
			hints := map[string]string{"context": "stdctx"}
			var got [2][]byte
			for i, raw := range []bool{true, false} {
				rendered, err := stubsRender(f, name, sc, ExecutorMethods(f), hints, raw)
				if err != nil {
					t.Fatal(err)
				}
				if got[i], err = newStubsFile(f, sc, rendered); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(got[0], got[1]) {
				t.Errorf("%s (value receivers %v): the stubs formatted once differ:\n%s", name, value, firstDiff(got[0], got[1]))
			}
		}
	}
}
