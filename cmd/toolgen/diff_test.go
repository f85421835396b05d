package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// cliSpec with notes_list's limit capped at 20 instead of 50, and
// notes_add now destructive.
var diffNewSpec = strings.NewReplacer(
	"maximum: 50", "maximum: 20",
	"    description: Add a note.\n", "    description: Add a note.\n    destructive: true\n",
).Replace(cliSpec)

func TestDiffFiles(t *testing.T) {
	root := cliTree(t, map[string]string{"old/notes.tools.yaml": cliSpec, "new/notes.tools.yaml": diffNewSpec})
	code, out, errs := cliRun(t, root, "diff", "old/notes.tools.yaml", "new/notes.tools.yaml")
	want := `new/notes.tools.yaml:6:5: DESTRUCTIVE_ADDED breaking (safety): tool "notes_add" is now destructive: destructive changes from false to true
new/notes.tools.yaml:14:42: BOUND_TIGHTENED breaking (model, approvals): parameter "limit" of tool "notes_list" tightens: it changes from maximum 50 to maximum 20
`
	if code != 1 || out != want {
		t.Errorf("exit %d, stdout:\n%s\nwant exit 1 and:\n%s", code, out, want)
	}
	if errs != "toolgen: 2 breaking; 1 failing on go-api, model\n" {
		t.Errorf("stderr %q", errs)
	}

	// --fail-on picks what fails: safety alone fails on the destructive
	// flag; none never fails, and the findings are still listed.
	for _, tc := range []struct {
		failOn string
		code   int
	}{{"safety", 1}, {"go-api", 0}, {"approvals,safety", 1}, {"none", 0}, {"all", 1}} {
		code, out, _ := cliRun(t, root, "diff", "--fail-on", tc.failOn, "old/notes.tools.yaml", "new/notes.tools.yaml")
		if code != tc.code || out != want {
			t.Errorf("--fail-on %s: exit %d (want %d), stdout:\n%s", tc.failOn, code, tc.code, out)
		}
	}

	// The same spec on both sides: nothing to say.
	code, out, errs = cliRun(t, root, "diff", "old", "old/")
	if code != 0 || out != "" || errs != "" {
		t.Errorf("same spec: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestDiffFormats(t *testing.T) {
	root := cliTree(t, map[string]string{"old/notes.tools.yaml": cliSpec, "new/notes.tools.yaml": diffNewSpec})

	code, out, errs := cliRun(t, root, "diff", "--format", "json", "old", "new")
	if code != 1 || errs != "" {
		t.Fatalf("json: exit %d, stderr %q", code, errs)
	}
	var got struct {
		Findings []struct {
			Rule       string   `json:"rule"`
			Level      string   `json:"level"`
			Categories []string `json:"categories"`
			File       string   `json:"file"`
			Line, Col  int
			Tool       string `json:"tool"`
			Message    string `json:"message"`
			Fails      bool   `json:"fails"`
		} `json:"findings"`
		Failing int `json:"failing"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if len(got.Findings) != 2 || got.Failing != 1 {
		t.Fatalf("json: %s", out)
	}
	b := got.Findings[1]
	if b.Rule != "BOUND_TIGHTENED" || b.Level != "breaking" || strings.Join(b.Categories, ",") != "model,approvals" ||
		b.File != filepath.Join("new", "notes.tools.yaml") || b.Line != 14 || b.Col != 42 || b.Tool != "notes_list" || !b.Fails {
		t.Errorf("json finding: %+v", b)
	}
	if d := got.Findings[0]; d.Rule != "DESTRUCTIVE_ADDED" || d.Fails {
		t.Errorf("json finding: %+v", d)
	}

	code, out, errs = cliRun(t, root, "diff", "--format=github", "--fail-on=model", "old", "new")
	want := "::warning file=new/notes.tools.yaml,line=6,col=5,title=DESTRUCTIVE_ADDED (breaking safety)::tool \"notes_add\" is now destructive: destructive changes from false to true\n" +
		"::error file=new/notes.tools.yaml,line=14,col=42,title=BOUND_TIGHTENED (breaking model%2C approvals)::parameter \"limit\" of tool \"notes_list\" tightens: it changes from maximum 50 to maximum 20\n"
	if code != 1 || out != want || errs != "" {
		t.Errorf("github: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errs, out, want)
	}
}

func TestDiffUsage(t *testing.T) {
	root := cliTree(t, map[string]string{"a.tools.yaml": cliSpec, "d/b.tools.yaml": cliSpec})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"diff"}, "toolgen diff: give OLD and NEW"},
		{[]string{"diff", "a.tools.yaml"}, "toolgen diff: give OLD and NEW"},
		{[]string{"diff", "--format", "xml", "a.tools.yaml", "a.tools.yaml"}, `toolgen diff: --format "xml": use text, json or github`},
		{[]string{"diff", "--fail-on", "go", "a.tools.yaml", "a.tools.yaml"}, `toolgen diff: --fail-on: unknown category "go": the categories are go-api, model, approvals, safety (or all, none)`},
		{[]string{"diff", "-x"}, "toolgen diff: flag provided but not defined: -x"},
	} {
		code, out, errs := cliRun(t, root, tc.args...)
		if code != 2 || out != "" || !strings.HasPrefix(errs, tc.want) {
			t.Errorf("toolgen %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}
	code, out, _ := cliRun(t, root, "diff", "-h")
	if code != 0 || !strings.Contains(out, "toolgen diff [flags] --against REV [PATH ...]") {
		t.Errorf("diff -h: exit %d, stdout %q", code, out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", "a.tools.yaml", "d"}, "toolgen: a.tools.yaml and d: compare two spec files or two directories\n"},
		{[]string{"diff", "a.tools.yaml", "gone.tools.yaml"}, "toolgen: gone.tools.yaml: no such file or directory\n"},
		{[]string{"diff", "--against", "main"}, "toolgen: --against main: not a git revision here"},
	} {
		code, _, errs := cliRun(t, root, tc.args...)
		if code != 1 || !strings.HasPrefix(errs, tc.want) {
			t.Errorf("toolgen %q: exit %d, stderr %q; want exit 1 and %q", tc.args, code, errs, tc.want)
		}
	}
}

// gitRepo makes a git repository of files, committed, and returns its
// root.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		historyUnavailable(t, "git is not installed") // fails under CI, which clones with git
	}
	root := cliTree(t, files)
	gitIn(t, root, "init", "-q", "-b", "main")
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "specs")
	return root
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=toolgen test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func TestDiffAgainst(t *testing.T) {
	other := strings.ReplaceAll(cliSpec, "notes", "memo")
	root := gitRepo(t, map[string]string{
		"notes/notes.tools.yaml":          cliSpec,
		"memo/memo.tools.yaml":            other,
		"notes/testdata/x/bad.tools.yaml": "not a spec",
	})
	// Unchanged: nothing, exit 0.
	code, out, errs := cliRun(t, root, "diff", "--against", "main")
	if code != 0 || out != "" || errs != "" {
		t.Fatalf("unchanged: exit %d, stdout %q, stderr %q", code, out, errs)
	}

	// notes changes, memo is removed, extra is added.
	if err := os.WriteFile(filepath.Join(root, "notes", "notes.tools.yaml"), []byte(diffNewSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(root, "memo")); err != nil {
		t.Fatal(err)
	}
	extra := strings.ReplaceAll(cliSpec, "notes", "extra")
	if err := os.MkdirAll(filepath.Join(root, "extra"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "extra", "extra.tools.yaml"), []byte(extra), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = cliRun(t, root, "diff", "--against", "main", "./...")
	want := `extra/extra.tools.yaml:4:5: TOOL_ADDED warning (model): tool "extra_add" was added to the catalog
extra/extra.tools.yaml:9:5: TOOL_ADDED warning (model): tool "extra_list" was added to the catalog
memo/memo.tools.yaml:4:5: TOOL_REMOVED breaking (go-api, model, approvals): tool "memo_add" was removed: its Go types and Executor method go, models can no longer call it, and calls of it waiting for approval cannot be resumed (the position is in the old spec)
memo/memo.tools.yaml:9:5: TOOL_REMOVED breaking (go-api, model, approvals): tool "memo_list" was removed: its Go types and Executor method go, models can no longer call it, and calls of it waiting for approval cannot be resumed (the position is in the old spec)
notes/notes.tools.yaml:6:5: DESTRUCTIVE_ADDED breaking (safety): tool "notes_add" is now destructive: destructive changes from false to true
notes/notes.tools.yaml:14:42: BOUND_TIGHTENED breaking (model, approvals): parameter "limit" of tool "notes_list" tightens: it changes from maximum 50 to maximum 20
`
	if code != 1 || out != filepath.FromSlash(want) {
		t.Errorf("--against main ./...: exit %d, stdout:\n%s\nwant:\n%s", code, out, want)
	}

	// From a subdirectory, paths are relative to it; a directory names
	// its own specs and a file itself.
	for _, args := range [][]string{{"."}, {"notes.tools.yaml"}, {"./..."}} {
		code, out, _ = cliRun(t, filepath.Join(root, "notes"), append([]string{"diff", "--against", "main"}, args...)...)
		if code != 1 || !strings.HasPrefix(out, "notes.tools.yaml:6:5: DESTRUCTIVE_ADDED") || strings.Count(out, "\n") != 2 {
			t.Errorf("in notes, %q: exit %d, stdout:\n%s", args, code, out)
		}
	}

	// A spec deleted since, named on its own: its tools were removed.
	code, out, _ = cliRun(t, root, "diff", "--against", "main", "memo/memo.tools.yaml")
	if code != 1 || strings.Count(out, "TOOL_REMOVED") != 2 || strings.Count(out, "\n") != 2 {
		t.Errorf("deleted spec: exit %d, stdout:\n%s", code, out)
	}
	code, _, errs = cliRun(t, root, "diff", "--against", "main", "nowhere/x.tools.yaml")
	if code != 1 || errs != "toolgen: nowhere/x.tools.yaml: no such file or directory, here or at main\n" {
		t.Errorf("missing everywhere: exit %d, stderr %q", code, errs)
	}

	// An old spec that does not load is an error, named as the old one.
	if err := os.WriteFile(filepath.Join(root, "notes", "notes.tools.yaml"), []byte("toolgen: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, root, "commit", "-q", "-am", "broken")
	if err := os.WriteFile(filepath.Join(root, "notes", "notes.tools.yaml"), []byte(cliSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = cliRun(t, root, "diff", "--against", "HEAD", "notes")
	if code != 1 || !strings.HasPrefix(errs, "toolgen: notes/notes.tools.yaml at HEAD does not load; its errors:\nnotes/notes.tools.yaml:1:1: missing required key \"provider\"") {
		t.Errorf("old spec broken: exit %d, stderr %q", code, errs)
	}
}
