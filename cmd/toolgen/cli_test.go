package main

import (
	"bytes"
	"os"
	"path/filepath"
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
	want := "notes_tools.go:" + strconv.Itoa(line) + ": method Tools.List is no longer part of the Executor interface (tool removed from the spec?); delete it when you are done with it\n"
	if code != 0 || errs != want {
		t.Errorf("exit %d, stderr %q, want %q", code, errs, want)
	}
	if after, _ := os.ReadFile(filepath.Join(root, "notes_tools.go")); !bytes.Equal(after, stubs) {
		t.Error("the stubs file changed")
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
		"two/one.tools.yaml":      cliSpec,
		"two/two.tools.yaml":      cliSpec,
		"notspec.yaml":            "",
	})
	specs, warns, err := findSpecs([]string{filepath.Join(root, "a") + "/...", filepath.Join(root, "a", "a.tools.yaml"), filepath.Join(root, "empty", "...")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(root, "a", "a.tools.yaml"), filepath.Join(root, "a", "b", "b.tools.yaml")}
	if !slices.Equal(specs, want) {
		t.Errorf("specs = %q, want %q", specs, want)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "matched no *.tools.yaml files") {
		t.Errorf("warnings = %q", warns)
	}

	for _, tc := range []struct{ path, want string }{
		{"missing", "missing: no such file or directory"},
		{"empty", "empty: no *.tools.yaml spec file in this directory"},
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
