package main

import (
	"bytes"
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The end-to-end test plays a developer's round trip in a consuming module
// of its own (with a replace directive to this repository):
//
//  1. register toolgen as a tool, write specs and //go:generate lines, run
//     go generate (the go tool form in one package, the go run form in
//     another), fill in stubs, build and run a program that dispatches;
//  2. add a tool and change a parameter, regenerate: the filled methods are
//     byte-identical, a stub appears for the new tool, the program builds
//     and follows the new spec;
//  3. remove a tool: its method is kept and reported;
//  4. make mistakes in the spec: every one is reported, located, and no file
//     changes;
//  5. toolgen check: exit 0 when current, exit 1 listing the stale file
//     after a spec edit, exit 0 after regenerating.

const e2eNotesV1 = `toolgen: 1
provider: notes
description: Notes kept in memory.
tools:
  - name: notes_add
    description: Add a note.
    status: "Adding {text}"
    params:
      text: {type: string, minLength: 1, maxLength: 10, description: The note.}
    required: [text]
  - name: notes_list
    description: List the notes.
    read_only: true
    params:
      limit: {type: integer, minimum: 1, maximum: 50, default: 3}
  - name: notes_count
    description: Count the notes.
    read_only: true
`

const e2eGreet = `toolgen: 1
provider: greet
tools:
  - name: greet_hello
    description: Greet someone by name.
    params:
      name: {type: string, minLength: 1}
    required: [name]
`

// e2eMain registers both modules and dispatches the calls given as
// arguments ("name {json}"), printing one line per outcome.
const e2eMain = `package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"example.com/consumer/greet"
	"example.com/consumer/notes"
	"github.com/toolgen/toolgen/runtime"
)

func main() {
	reg := runtime.NewRegistry(runtime.Options{})
	if err := reg.AddModule(notes.Module(&notes.Tools{})); err != nil {
		panic(err)
	}
	if err := reg.AddModule(greet.Module(&greet.Tools{})); err != nil {
		panic(err)
	}
	call := &runtime.Call{UserID: "u1", Events: func(e runtime.Event) {
		if e.Type == runtime.EventStart {
			fmt.Println("label:", e.Label)
		}
	}}
	for i, arg := range os.Args[1:] {
		name, args, _ := strings.Cut(arg, " ")
		out, err := reg.Dispatch(context.Background(), call, runtime.ToolCall{ID: fmt.Sprint(i), Name: name, Arguments: []byte(args)})
		if err != nil {
			fmt.Println("fatal:", err)
			os.Exit(1)
		}
		fmt.Printf("%s %s: %s\n", name, out.Status, strings.ReplaceAll(out.Result.String(), "\n", " | "))
	}
}
`

// e2eBodies are the bodies the test writes into stubs, as a developer would.
var e2eBodies = map[string]string{
	"Add":   "{\n\tt.notes = append(t.notes, args.Text)\n\treturn runtime.Text(fmt.Sprintf(\"added note %d\", len(t.notes))), nil\n}",
	"List":  "{\n\tn := min(int(args.Limit), len(t.notes))\n\treturn runtime.Text(fmt.Sprintf(\"%d of %d: %s\", n, len(t.notes), strings.Join(t.notes[:n], \", \"))), nil\n}",
	"Hello": "{\n\treturn runtime.Text(\"Hello, \" + args.Name + \"!\"), nil\n}",
}

func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds a consuming module with the go command")
	}
	root := e2eRepoRoot(t)
	work := t.TempDir()
	bin := filepath.Join(work, "toolgen")
	e2eGo(t, root, "build", "-o", bin, "./cmd/toolgen")

	mod := filepath.Join(work, "consumer")
	notesDir := filepath.Join(mod, "notes")
	e2eWrite(t, filepath.Join(mod, "go.mod"), "module example.com/consumer\n\ngo 1.26\n\n"+
		"require github.com/toolgen/toolgen v0.0.0\n\nreplace github.com/toolgen/toolgen => "+root+"\n\n"+
		"tool github.com/toolgen/toolgen/cmd/toolgen\n")
	e2eWrite(t, filepath.Join(mod, "main.go"), e2eMain)
	e2eWrite(t, filepath.Join(notesDir, "doc.go"), "// Package notes keeps notes.\npackage notes\n\n//go:generate go tool toolgen\n")
	e2eWrite(t, filepath.Join(notesDir, "notes.tools.yaml"), e2eNotesV1)
	e2eWrite(t, filepath.Join(mod, "greet", "doc.go"), "// Package greet greets.\npackage greet\n\n//go:generate go run github.com/toolgen/toolgen/cmd/toolgen\n")
	e2eWrite(t, filepath.Join(mod, "greet", "greet.tools.yaml"), e2eGreet)
	e2eGo(t, mod, "mod", "tidy")

	// 1. Generate through both forms, fill in the stubs, run.
	e2eGo(t, mod, "generate", "./...")
	for _, f := range []string{"notes/notes_tools.gen.go", "notes/notes_tools.go", "notes/notes_tools.md", "greet/greet_tools.gen.go", "greet/greet_tools.go", "greet/greet_tools.md"} {
		if _, err := os.Stat(filepath.Join(mod, f)); err != nil {
			t.Fatalf("go generate did not write %s: %v", f, err)
		}
	}
	notesStubs := filepath.Join(notesDir, "notes_tools.go")
	e2eFill(t, notesStubs, map[string]string{"Add": e2eBodies["Add"], "List": e2eBodies["List"]},
		"type Tools struct{ notes []string }", []string{"fmt", "strings"})
	e2eFill(t, filepath.Join(mod, "greet", "greet_tools.go"), map[string]string{"Hello": e2eBodies["Hello"]}, "", nil)
	filled := e2eMethods(t, notesStubs, "Add", "List")

	out := e2eGo(t, mod, "run", ".",
		`notes_add {"text":"milk"}`,
		`notes_add {"text":"eggs"}`,
		`notes_add {"text":"bread"}`,
		`notes_add {"text":"tea"}`,
		`notes_list {}`,
		`notes_add {"text":"","extra":1}`,
		`notes_count {}`,
		`greet_hello {"name":"Ada"}`,
	)
	t.Logf("program output:\n%s", out)
	e2eContains(t, out,
		"label: Adding milk\nnotes_add ok: added note 1\n",
		"notes_add ok: added note 4\n",
		"notes_list ok: 3 of 4: milk, eggs, bread\n", // the default limit
		"notes_add error: ",                          // invalid: every violation, with its path
		"$.text",
		`"extra"`,
		"notes_count error: ", // the stub's "not implemented"
		"not implemented",
		"greet_hello ok: Hello, Ada!\n",
	)

	// 2. Add a tool and change a parameter, regenerate.
	v2 := strings.Replace(e2eNotesV1, "maxLength: 10", "maxLength: 40", 1) + `  - name: notes_clear
    description: Delete every note.
    destructive: true
`
	e2eWrite(t, filepath.Join(notesDir, "notes.tools.yaml"), v2)
	e2eGo(t, mod, "generate", "./...")
	after := e2eMethods(t, notesStubs, "Add", "List", "Clear")
	for _, m := range []string{"Add", "List"} {
		if after[m] != filled[m] {
			t.Errorf("regenerating changed the filled method %s:\nbefore:\n%s\nafter:\n%s", m, filled[m], after[m])
		}
	}
	if !strings.Contains(after["Clear"], "not implemented") {
		t.Errorf("no stub for the new tool:\n%s", after["Clear"])
	}
	out = e2eGo(t, mod, "run", ".", `notes_add {"text":"a note longer than ten"}`, `notes_clear {}`)
	e2eContains(t, out, "notes_add ok: added note 1\n", "notes_clear error: ")

	// 3. Remove a tool: its method stays, and is reported.
	stubs := e2eRead(t, notesStubs)
	line := 1 + strings.Count(stubs[:strings.Index(stubs, "func (t *Tools) Count(")], "\n")
	v3 := strings.Replace(v2, "  - name: notes_count\n    description: Count the notes.\n    read_only: true\n", "", 1)
	e2eWrite(t, filepath.Join(notesDir, "notes.tools.yaml"), v3)
	_, stderr := e2eGoErr(t, mod, "generate", "./...")
	e2eContains(t, stderr, "notes_tools.go:"+strconv.Itoa(line)+": method Tools.Count is no longer part of the Executor interface (tool removed from the spec?); the package will not build until you delete it or its use of CountArgs\n")
	if got := e2eRead(t, notesStubs); got != stubs {
		t.Errorf("the stubs file changed when a tool was removed")
	}
	// As the warning says, the package does not build with the method.
	if code, _, errs := e2eRun(t, mod, "go", "build", "./..."); code == 0 || !strings.Contains(errs, "undefined: CountArgs") {
		t.Errorf("go build with the removed tool's method: exit %d\n%s", code, errs)
	}
	// toolgen check, which CI runs, fails on it with the same message.
	if code, _, errs := e2eRun(t, mod, bin, "check", "./..."); code != 1 || !strings.Contains(errs, "its use of CountArgs\n") || !strings.Contains(errs, "1 executor method keeps a package from building") {
		t.Errorf("check with the removed tool's method: exit %d, want 1\n%s", code, errs)
	}
	// The developer deletes the method; the module builds again.
	e2eFill(t, notesStubs, map[string]string{"Count": ""}, "", nil)
	e2eGo(t, mod, "build", "./...")

	// 4. Mistakes: every one reported, located; nothing written.
	before := e2eSnapshot(t, mod)
	bad := strings.Replace(v3, "read_only: true", "read_onyl: true", 1)
	bad = strings.Replace(bad, "type: integer", "type: integr", 1)
	e2eWrite(t, filepath.Join(notesDir, "notes.tools.yaml"), bad)
	before["notes/notes.tools.yaml"] = bad
	if code, _, stderr := e2eRun(t, mod, "go", "generate", "./..."); code == 0 {
		t.Fatal("go generate succeeded on a broken spec")
	} else {
		e2eContains(t, stderr,
			"notes.tools.yaml:13:5: ",
			`did you mean "read_only"?`,
			"notes.tools.yaml:15:21: ",
			`did you mean "integer"?`,
		)
	}
	if after := e2eSnapshot(t, mod); !e2eSameFiles(before, after) {
		t.Errorf("files changed although the spec had errors")
	}

	// 5. toolgen check.
	e2eWrite(t, filepath.Join(notesDir, "notes.tools.yaml"), v3)
	if code, _, stderr := e2eRun(t, mod, bin, "check", "./..."); code != 0 {
		t.Fatalf("check on a current module: exit %d\n%s", code, stderr)
	}
	e2eWrite(t, filepath.Join(notesDir, "notes.tools.yaml"), strings.Replace(v3, "Add a note.", "Add one note.", 1))
	code, _, stderr := e2eRun(t, mod, bin, "check", "./...")
	if code != 1 {
		t.Fatalf("check after editing the spec: exit %d, want 1\n%s", code, stderr)
	}
	e2eContains(t, stderr, "toolgen: "+filepath.Join("notes", "notes_tools.gen.go")+": out of date")
	e2eGo(t, mod, "generate", "./...")
	if code, _, stderr := e2eRun(t, mod, bin, "check", "./..."); code != 0 {
		t.Fatalf("check after regenerating: exit %d\n%s", code, stderr)
	}
}

// e2eRepoRoot is the directory of this repository's go.mod.
func e2eRepoRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		t.Fatal("not inside the toolgen module")
	}
	return filepath.Dir(gomod)
}

// e2eEnv is the environment of the go commands the test runs: the caller's
// (its module and build caches stay warm), outside any workspace, with
// go.mod updates allowed in the consuming module.
func e2eEnv() []string {
	return append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod -buildvcs=false")
}

// e2eRun runs a command in dir and returns its exit status and output.
func e2eRun(t *testing.T, dir, name string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = e2eEnv()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), out.String(), errb.String()
		}
		t.Fatalf("%s %q: %v", name, args, err)
	}
	return 0, out.String(), errb.String()
}

// e2eGo runs the go command and fails the test if it fails.
func e2eGo(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, _ := e2eGoErr(t, dir, args...)
	return out
}

// e2eGoErr runs the go command, fails the test if it fails, and returns its
// stdout and stderr.
func e2eGoErr(t *testing.T, dir string, args ...string) (stdout, stderr string) {
	t.Helper()
	code, stdout, stderr := e2eRun(t, dir, "go", args...)
	if code != 0 {
		t.Fatalf("go %s in %s: exit %d\n%s%s", strings.Join(args, " "), dir, code, stdout, stderr)
	}
	return stdout, stderr
}

func e2eWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func e2eRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func e2eContains(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("output lacks %q:\n%s", w, got)
		}
	}
}

// e2eMethods returns the source of the named methods (doc comment
// included) of a Go file.
func e2eMethods(t *testing.T, path string, names ...string) map[string]string {
	t.Helper()
	src := e2eRead(t, path)
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil {
			continue
		}
		start := fd.Pos()
		if fd.Doc != nil {
			start = fd.Doc.Pos()
		}
		out[fd.Name.Name] = src[fset.Position(start).Offset:fset.Position(fd.End()).Offset]
	}
	for _, n := range names {
		if _, ok := out[n]; !ok {
			t.Fatalf("%s has no method %s:\n%s", path, n, src)
		}
	}
	return out
}

// e2eFill does what a developer does to a stubs file: replaces method bodies
// (an empty body deletes the method), optionally the type declaration, adds
// imports and drops the errors import once no stub uses it.
func e2eFill(t *testing.T, path string, bodies map[string]string, typeDecl string, imports []string) {
	t.Helper()
	src := e2eRead(t, path)
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			body, ok := bodies[d.Name.Name]
			if !ok || d.Recv == nil {
				continue
			}
			if body == "" {
				start := d.Pos()
				if d.Doc != nil {
					start = d.Doc.Pos()
				}
				edits = append(edits, edit{fset.Position(start).Offset, fset.Position(d.End()).Offset, ""})
				continue
			}
			edits = append(edits, edit{fset.Position(d.Body.Pos()).Offset, fset.Position(d.Body.End()).Offset, body})
		case *ast.GenDecl:
			if d.Tok == token.TYPE && typeDecl != "" {
				edits = append(edits, edit{fset.Position(d.Pos()).Offset, fset.Position(d.End()).Offset, typeDecl})
			}
			if d.Tok == token.IMPORT && len(imports) > 0 {
				var add string
				for _, imp := range imports {
					add += "\t" + strconv.Quote(imp) + "\n"
				}
				at := fset.Position(d.Lparen).Offset + 2
				edits = append(edits, edit{at, at, add})
			}
		}
	}
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		src = src[:e.from] + e.text + src[e.to:]
	}
	if !strings.Contains(src, "errors.New") {
		src = strings.Replace(src, "\t\"errors\"\n", "", 1)
	}
	e2eWrite(t, path, src)
}

// e2eSnapshot reads every file of the module, but go.sum (the go command may
// tidy it).
func e2eSnapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	snap := cliSnapshot(t, root)
	delete(snap, "go.sum")
	return snap
}

func e2eSameFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
