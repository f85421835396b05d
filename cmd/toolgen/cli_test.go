package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

const cliSpec = `toolgen: 1
provider: notes
tools:
  - name: notes_add
    description: Add a note.
    params:
      text: {type: string, minLength: 1, maxLength: 200}
    required: [text]
  - name: notes_list
    description: List notes.
    read_only: true
    params:
      limit: {type: integer, minimum: 1, maximum: 50, default: 10}
`

// cliRun runs toolgen in dir and returns its exit status and output.
func cliRun(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// cliTree writes files (path → content) under a new directory.
func cliTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		p = filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// cliSnapshot reads every file under root.
func cliSnapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	snap := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		snap[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func cliKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func TestHelpAndUsage(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}, {"check", "-h"}} {
		code, out, errs := cliRun(t, dir, args...)
		if code != 0 || !strings.Contains(out, "toolgen check [-v] [PATH ...]") || errs != "" {
			t.Errorf("toolgen %q: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-x"}, "toolgen: flag provided but not defined: -x\n"},
		{[]string{"chek"}, "toolgen: unknown command \"chek\"\n"},
		{[]string{"import"}, "toolgen: import: no source; import openapi DOC -o FILE or import mcp"},
		{[]string{"import", "grpc"}, "toolgen: import: unknown source \"grpc\""},
		{[]string{"check", "-v=maybe"}, "toolgen: invalid boolean value"},
	} {
		code, out, errs := cliRun(t, dir, tc.args...)
		if code != 2 || out != "" || !strings.HasPrefix(errs, tc.want) {
			t.Errorf("toolgen %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}
}

func TestGenerateInCurrentDirectory(t *testing.T) {
	root := cliTree(t, map[string]string{"notes/notes.tools.yaml": cliSpec, "notes/doc.go": "package notes\n"})
	dir := filepath.Join(root, "notes")
	code, out, errs := cliRun(t, dir)
	if code != 0 || out != "" || errs != "" {
		t.Fatalf("toolgen: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	snap := cliSnapshot(t, dir)
	if got, want := cliKeys(snap), []string{"doc.go", "notes.tools.yaml", "notes_tools.gen.go", "notes_tools.go", "notes_tools.md"}; !slices.Equal(got, want) {
		t.Fatalf("files = %q, want %q", got, want)
	}
	if !strings.Contains(snap["notes_tools.go"], "func (t *Tools) Add(") || !strings.Contains(snap["notes_tools.md"], "`notes_list`") {
		t.Errorf("unexpected content:\n%s\n%s", snap["notes_tools.go"], snap["notes_tools.md"])
	}

	// A second run writes nothing: the files keep their modification time.
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	for name := range snap {
		os.Chtimes(filepath.Join(dir, name), old, old)
	}
	code, out, errs = cliRun(t, dir, "generate", "-v", ".")
	if code != 0 || out != "" || errs != "" {
		t.Fatalf("second run: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for name := range snap {
		if fi, _ := os.Stat(filepath.Join(dir, name)); !fi.ModTime().Equal(old) {
			t.Errorf("%s was rewritten", name)
		}
	}

	// -v lists what is written; flags may follow the paths.
	if err := os.WriteFile(filepath.Join(dir, "notes_tools.md"), []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = cliRun(t, root, "generate", "notes", "-v")
	if code != 0 || out != "wrote "+filepath.Join("notes", "notes_tools.md")+"\n" {
		t.Errorf("-v: exit %d, stdout %q", code, out)
	}
}

// Every mistake in every spec is printed, located, and nothing is written,
// not even for a spec that had none.
func TestSpecErrorsWriteNothing(t *testing.T) {
	bad := strings.Replace(cliSpec, "type: integer", "type: integr", 1)
	bad = strings.Replace(bad, "read_only: true", "read_onyl: true", 1)
	root := cliTree(t, map[string]string{"a/a.tools.yaml": cliSpec, "b/b.tools.yaml": bad})
	before := cliSnapshot(t, root)
	code, out, errs := cliRun(t, root, "./...")
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 error lines, got:\n%s", errs)
	}
	for i, want := range []string{
		filepath.Join("b", "b.tools.yaml") + ":11:5: ",  // read_onyl
		filepath.Join("b", "b.tools.yaml") + ":13:21: ", // integr
	} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d = %q, want prefix %q", i+1, lines[i], want)
		}
	}
	if !strings.Contains(errs, `did you mean "read_only"?`) {
		t.Errorf("no suggestion for the misspelt key:\n%s", errs)
	}
	if after := cliSnapshot(t, root); !slices.Equal(cliKeys(after), cliKeys(before)) {
		t.Errorf("files written despite errors: %q", cliKeys(after))
	}
}

func TestCheck(t *testing.T) {
	root := cliTree(t, map[string]string{"notes/notes.tools.yaml": cliSpec})
	code, _, errs := cliRun(t, root, "check", "./...")
	if code != 1 {
		t.Fatalf("check before generating: exit %d", code)
	}
	for _, want := range []string{
		"toolgen: " + filepath.Join("notes", "notes_tools.gen.go") + ": missing (from " + filepath.Join("notes", "notes.tools.yaml") + ")\n",
		"toolgen: " + filepath.Join("notes", "notes_tools.go") + ": missing",
		"toolgen: 3 generated files are out of date; run go generate (or toolgen generate)\n",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("check output lacks %q:\n%s", want, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "notes", "notes_tools.go")); err == nil {
		t.Fatal("check wrote a file")
	}

	if code, _, errs := cliRun(t, root, "generate", "./..."); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, errs)
	}
	if code, out, errs := cliRun(t, root, "check", "-v", "./..."); code != 0 || errs != "" || strings.Count(out, "ok ") != 3 {
		t.Fatalf("check after generating: exit %d, stdout %q, stderr %q", code, out, errs)
	}

	// The spec changes (a parameter and a new tool) but nobody regenerates.
	spec := strings.Replace(cliSpec, "maxLength: 200", "maxLength: 300", 1) + `  - name: notes_clear
    description: Delete every note.
    destructive: true
`
	if err := os.WriteFile(filepath.Join(root, "notes", "notes.tools.yaml"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = cliRun(t, root, "check", "./...")
	if code != 1 || !strings.Contains(errs, filepath.Join("notes", "notes_tools.go")+": missing stubs for Clear") ||
		!strings.Contains(errs, filepath.Join("notes", "notes_tools.md")+": out of date") {
		t.Errorf("check after a spec edit: exit %d:\n%s", code, errs)
	}
}

// TestCheckEveryStaleness: check fails, naming the file, for each way the
// generated files can fall behind, and passes again after generate (or,
// for a spec that is gone, after deleting its files, which generate never
// does: it only warns).
func TestCheckEveryStaleness(t *testing.T) {
	root := cliTree(t, map[string]string{"notes/notes.tools.yaml": cliSpec, "other/other.tools.yaml": strings.ReplaceAll(cliSpec, "notes", "other")})
	p := func(name string) string { return filepath.Join(root, "notes", name) }
	if code, _, errs := cliRun(t, root, "./..."); code != 0 {
		t.Fatal(errs)
	}
	for _, c := range []struct {
		name  string
		spoil func() error
		want  string
	}{
		{"generated file edited", func() error { return appendTo(p("notes_tools.gen.go"), "// edited\n") },
			filepath.Join("notes", "notes_tools.gen.go") + ": out of date (from " + filepath.Join("notes", "notes.tools.yaml") + ")"},
		{"generated file deleted", func() error { return os.Remove(p("notes_tools.gen.go")) },
			filepath.Join("notes", "notes_tools.gen.go") + ": missing"},
		{"catalog edited", func() error { return appendTo(p("notes_tools.md"), "edited\n") },
			filepath.Join("notes", "notes_tools.md") + ": out of date"},
		{"catalog deleted", func() error { return os.Remove(p("notes_tools.md")) },
			filepath.Join("notes", "notes_tools.md") + ": missing"},
		{"stubs file deleted", func() error { return os.Remove(p("notes_tools.go")) },
			filepath.Join("notes", "notes_tools.go") + ": missing"},
		{"spec edited", func() error { return appendTo(p("notes.tools.yaml"), "  - name: notes_x\n    description: X.\n") },
			filepath.Join("notes", "notes_tools.go") + ": missing stubs for X"},
	} {
		if err := c.spoil(); err != nil {
			t.Fatal(err)
		}
		code, _, errs := cliRun(t, root, "check", "./...")
		if code != 1 || !strings.Contains(errs, "toolgen: "+c.want) {
			t.Errorf("%s: check exit %d, stderr %q, want it to name %q", c.name, code, errs, c.want)
		}
		if code, _, errs := cliRun(t, root, "./..."); code != 0 {
			t.Fatalf("%s: generate: %s", c.name, errs)
		}
		if code, _, errs := cliRun(t, root, "check", "./..."); code != 0 {
			t.Errorf("%s: check after generate: exit %d: %s", c.name, code, errs)
		}
	}

	// The spec is renamed: the old generated file declares Module a second
	// time. Then the other package's spec is deleted: its files remain.
	if err := os.Rename(p("notes.tools.yaml"), p("memo.tools.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "other", "other.tools.yaml")); err != nil {
		t.Fatal(err)
	}
	code, _, errs := cliRun(t, root, "./...")
	orphanNotes := filepath.Join("notes", "notes_tools.gen.go") + ":1: generated from notes.tools.yaml, which is not in this directory any more; delete it and " + filepath.Join("notes", "notes_tools.md")
	orphanOther := filepath.Join("other", "other_tools.gen.go") + ":1: generated from other.tools.yaml, which is not in this directory any more; delete it and " + filepath.Join("other", "other_tools.md")
	if code != 0 || !strings.Contains(errs, orphanNotes+"\n") || !strings.Contains(errs, orphanOther+"\n") {
		t.Errorf("generate: exit %d, stderr %q, want warnings %q and %q", code, errs, orphanNotes, orphanOther)
	}
	if _, err := os.Stat(p("notes_tools.gen.go")); err != nil {
		t.Error("generate deleted the orphan:", err)
	}
	code, _, errs = cliRun(t, root, "check", "./...")
	if code != 1 || !strings.Contains(errs, "toolgen: "+orphanNotes+"\n") || !strings.Contains(errs, "toolgen: "+orphanOther+"\n") ||
		!strings.Contains(errs, "toolgen: 2 generated files are out of date") {
		t.Errorf("check: exit %d, stderr %q, want both orphans counted", code, errs)
	}
	for _, f := range []string{p("notes_tools.gen.go"), p("notes_tools.md"), filepath.Join(root, "other", "other_tools.gen.go"), filepath.Join(root, "other", "other_tools.md")} {
		os.Remove(f)
	}
	if code, _, errs := cliRun(t, root, "check", "./..."); code != 0 {
		t.Errorf("check after deleting the orphans: exit %d: %s", code, errs)
	}
}

// TestGoGeneratePathsFromModuleRoot: run by go generate (in the package
// directory, GOFILE set), toolgen names files from the module root, so
// that two packages' tools.tools.yaml cannot be told apart by accident.
func TestGoGeneratePathsFromModuleRoot(t *testing.T) {
	bad := strings.Replace(cliSpec, "maxLength: 200", "maxLenght: 200", 1)
	root := cliTree(t, map[string]string{
		"go.mod":                   "module example.com/m\n\ngo 1.26\n",
		"a/tasks/tools.tools.yaml": bad,
		"b/tasks/tools.tools.yaml": cliSpec,
	})
	t.Setenv("GOFILE", "doc.go")
	code, _, errs := cliRun(t, filepath.Join(root, "a", "tasks"))
	want := filepath.Join("a", "tasks", "tools.tools.yaml") + ":7:"
	if code != 1 || !strings.HasPrefix(errs, want) || !strings.Contains(errs, "unknown key \"maxLenght\"") {
		t.Errorf("exit %d, stderr %q, want an error at %s", code, errs, want)
	}
	code, out, errs := cliRun(t, filepath.Join(root, "b", "tasks"), "-v")
	if code != 0 || !strings.Contains(out, "wrote "+filepath.Join("b", "tasks", "tools_tools.gen.go")+"\n") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(root, "b", "tasks", "tools_tools.gen.go")); err != nil {
		t.Error(err)
	}
	if code, _, errs := cliRun(t, filepath.Join(root, "b", "tasks"), "check", "./..."); code != 0 {
		t.Errorf("check ./... from the package: exit %d: %s", code, errs)
	}

	// Outside a module, paths stay as they are.
	nomod := cliTree(t, map[string]string{"tasks/tools.tools.yaml": bad})
	code, _, errs = cliRun(t, filepath.Join(nomod, "tasks"))
	if code != 1 || !strings.HasPrefix(errs, "tools.tools.yaml:7:") {
		t.Errorf("outside a module: exit %d, stderr %q", code, errs)
	}

	// Without GOFILE, paths stay relative to the working directory.
	t.Setenv("GOFILE", "")
	code, _, errs = cliRun(t, filepath.Join(root, "a", "tasks"))
	if code != 1 || !strings.HasPrefix(errs, "tools.tools.yaml:7:") {
		t.Errorf("without go generate: exit %d, stderr %q", code, errs)
	}
}

// appendTo appends text to the file at path.
func appendTo(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	return errors.Join(err, f.Close())
}

// A tool removed from the spec: its method is kept and reported.
func TestRemovedToolWarning(t *testing.T) {
	root := filepath.Join(cliTree(t, map[string]string{"notes/notes.tools.yaml": cliSpec}), "notes")
	if code, _, errs := cliRun(t, root); code != 0 {
		t.Fatal(errs)
	}
	stubs, _ := os.ReadFile(filepath.Join(root, "notes_tools.go"))
	spec := cliSpec[:strings.Index(cliSpec, "  - name: notes_list")]
	if err := os.WriteFile(filepath.Join(root, "notes.tools.yaml"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := cliRun(t, root)
	line := 1 + strings.Count(string(stubs[:strings.Index(string(stubs), "func (t *Tools) List(")]), "\n")
	want := "notes_tools.go:" + strconv.Itoa(line) + ": method Tools.List is no longer part of the Executor interface (tool removed from the spec?); the package will not build until you delete it or its use of ListArgs\n"
	if code != 0 || errs != want {
		t.Errorf("exit %d, stderr %q, want %q", code, errs, want)
	}
	if after, _ := os.ReadFile(filepath.Join(root, "notes_tools.go")); !bytes.Equal(after, stubs) {
		t.Error("the stubs file changed")
	}

	// check: the files are current, but the package does not build, so
	// it fails, with the warning and a summary.
	code, _, errs = cliRun(t, root, "check")
	summary := "toolgen: 1 executor method keeps a package from building (see above); delete them or their use of the removed types\n"
	if code != 1 || errs != want+summary {
		t.Errorf("check: exit %d, stderr %q, want %q", code, errs, want+summary)
	}

	// A removed method that uses nothing removed is only a warning, for
	// check too.
	fixed := strings.Replace(string(stubs), "args *ListArgs", "args *AddArgs", 1)
	if fixed == string(stubs) {
		t.Fatal("the List stub does not take args *ListArgs")
	}
	if err := os.WriteFile(filepath.Join(root, "notes_tools.go"), []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = cliRun(t, root, "check")
	if code != 0 || !strings.HasSuffix(errs, "; delete it when you are done with it\n") {
		t.Errorf("check with a harmless removed method: exit %d, stderr %q", code, errs)
	}
}

// -stamp writes the version into the generated file, and only there;
// without it nothing version-dependent is written.
func TestStamp(t *testing.T) {
	root := filepath.Join(cliTree(t, map[string]string{"notes/notes.tools.yaml": cliSpec}), "notes")
	if code, _, errs := cliRun(t, root); code != 0 {
		t.Fatal(errs)
	}
	plain, _ := os.ReadFile(filepath.Join(root, "notes_tools.gen.go"))
	if bytes.Contains(plain, []byte("toolgen version")) || bytes.Contains(plain, []byte(version())) {
		t.Fatal("an unstamped file names the version")
	}
	if code, _, errs := cliRun(t, root, "check", "-stamp"); code != 1 || !strings.Contains(errs, "notes_tools.gen.go: out of date") {
		t.Errorf("check -stamp on an unstamped file: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := cliRun(t, root, "-stamp"); code != 0 {
		t.Fatal(errs)
	}
	stamped, _ := os.ReadFile(filepath.Join(root, "notes_tools.gen.go"))
	first, rest, _ := bytes.Cut(stamped, []byte("\n"))
	want := "// toolgen version: " + version() + "\n"
	if !bytes.HasPrefix(first, []byte("// Code generated by toolgen")) || !bytes.HasPrefix(rest, []byte(want)) ||
		!bytes.Equal(append(append(first, '\n'), rest[len(want):]...), plain) {
		t.Errorf("stamped file:\n%s", stamped)
	}
	if code, _, errs := cliRun(t, root, "check", "-stamp"); code != 0 {
		t.Errorf("check -stamp after generate -stamp: exit %d, stderr %q", code, errs)
	}
	if code, _, _ := cliRun(t, root, "check"); code != 1 {
		t.Errorf("check without -stamp on a stamped file: exit %d, want 1", code)
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, out, errs := cliRun(t, t.TempDir(), args...)
		if code != 0 || errs != "" || !strings.HasPrefix(out, "toolgen ") || strings.Count(out, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	if code, _, errs := cliRun(t, t.TempDir(), "version", "x"); code != 2 || !strings.Contains(errs, "version takes no arguments") {
		t.Errorf("version x: exit %d, stderr %q", code, errs)
	}
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}}
	for _, c := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: rev}, "v1.2.3"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: rev}, "devel 0123456789ab (2026-01-02T03:04:05Z)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: append(rev, debug.BuildSetting{Key: "vcs.modified", Value: "true"})}, "devel 0123456789ab+dirty (2026-01-02T03:04:05Z)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel (no VCS revision: built with -buildvcs=false, or outside a repository)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0", Replace: &debug.Module{Path: "/src/toolgen", Version: "(devel)"}}}, "devel (local checkout /src/toolgen, required as v0.0.0)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.0.0", Replace: &debug.Module{Path: "example.com/fork", Version: "v1.0.1"}}}, "v1.0.1 (example.com/fork, replacing v1.0.0)"},
	} {
		if got := versionOf(c.info); got != c.want {
			t.Errorf("versionOf(%+v) = %q, want %q", c.info.Main, got, c.want)
		}
	}
}

func TestPaths(t *testing.T) {
	root := cliTree(t, map[string]string{
		"a/a.tools.yaml":          cliSpec,
		"a/b/b.tools.yaml":        cliSpec,
		"a/testdata/t.tools.yaml": "broken",
		"a/vendor/v.tools.yaml":   "broken",
		"a/.hidden/h.tools.yaml":  "broken",
		"a/_skip/s.tools.yaml":    "broken",
		"a/nested/go.mod":         "module nested\n",
		"a/nested/n.tools.yaml":   "broken",
		"empty/readme.txt":        "",
		"above/x/x.tools.yaml":    cliSpec,
		"above/y/y.tools.yaml":    cliSpec,
		"two/one.tools.yaml":      cliSpec,
		"two/two.tools.yaml":      cliSpec,
		"notspec.yaml":            "",
	})
	found, err := findSpecs([]string{filepath.Join(root, "a") + "/...", filepath.Join(root, "a", "a.tools.yaml"), filepath.Join(root, "empty", "...")})
	if err != nil {
		t.Fatal(err)
	}
	specs, warns := found.specs, found.warnings
	want := []string{filepath.Join(root, "a", "a.tools.yaml"), filepath.Join(root, "a", "b", "b.tools.yaml")}
	if !slices.Equal(specs, want) {
		t.Errorf("specs = %q, want %q", specs, want)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "matched no *.tools.yaml files") {
		t.Errorf("warnings = %q", warns)
	}

	for _, tc := range []struct{ path, want string }{
		{"missing", "missing: no such file or directory"},
		{"empty", "empty: no *.tools.yaml spec file in this directory\n"},
		// A directory with specs below it (a module root) says how to name them.
		{"above", "above: no *.tools.yaml spec file in this directory (above/... finds the 2 specs below it)\n"},
		{"notspec.yaml", "notspec.yaml: not a spec file"},
	} {
		code, _, errs := cliRun(t, root, "generate", tc.path)
		if code != 1 || !strings.HasPrefix(errs, "toolgen: "+tc.want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", tc.path, code, errs, tc.want)
		}
	}

	// Two specs in one package: a located error, printed once.
	code, _, errs := cliRun(t, root, "two")
	want2 := filepath.Join("two", "two.tools.yaml") + ":1:1: a second spec file in one package (one.tools.yaml is the first)"
	if code != 1 || strings.Count(errs, want2) != 1 || strings.Count(errs, "\n") != 1 {
		t.Errorf("exit %d, stderr %q, want once %q", code, errs, want2)
	}
	if _, err := os.Stat(filepath.Join(root, "two", "one_tools.go")); err == nil {
		t.Error("files written despite the error")
	}
}
