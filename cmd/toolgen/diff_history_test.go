package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var updateHistory = flag.Bool("update-history", false, "rewrite testdata/diff-history.txt")

// historyPin is the last commit whose spec changes testdata/diff-history.txt
// records; later commits are checked for errors only (see
// TestDiffHistory).
const historyPin = "449b96bd17d39e8d5a70c26738882722d2378851"

// TestDiffHistory runs toolgen diff over this repository's own history, in
// a temporary clone: for every commit that touched a spec, toolgen diff
// --against <its parent> ./... at that commit. Up to historyPin, the
// findings and errors must be those in testdata/diff-history.txt, which
// were read and judged when it was written (go test -run TestDiffHistory
// -update-history rewrites it; review the diff like code). After it, every
// commit must compare without an error (every spec of the commit and of
// its parent loads, or else only spec errors are reported) and every
// finding must lie inside its file.
func TestDiffHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("clones the repository (-short)")
	}
	root := historyRoot(t)
	path := filepath.Join(testdataDir(t), "diff-history.txt")
	clone := filepath.Join(t.TempDir(), "clone")
	gitIn(t, root, "clone", "-q", "--no-checkout", root, clone)
	if _, err := gitOut(clone, "cat-file", "-e", historyPin+"^{commit}"); err != nil {
		historyUnavailable(t, fmt.Sprintf("commit %s is not in the history of %s (a shallow clone?)", historyPin[:7], root))
	}

	commits := strings.Fields(gitIn(t, clone, "rev-list", "--reverse", "HEAD", "--", "*.tools.yaml"))
	pinned, err := gitOut(clone, "rev-list", historyPin)
	if err != nil {
		t.Fatal(err)
	}
	upToPin := map[string]bool{}
	for _, c := range strings.Fields(string(pinned)) {
		upToPin[c] = true
	}

	var got strings.Builder
	later := 0
	for _, c := range commits {
		if _, err := gitOut(clone, "rev-parse", "--verify", "--quiet", c+"^"); err != nil {
			continue // the first commit: nothing to compare with
		}
		gitIn(t, clone, "checkout", "-q", "--detach", c)
		if upToPin[c] {
			code, out, errs := cliRun(t, clone, "diff", "--against", c+"^", "--fail-on", "none", "./...")
			if out == "" && errs == "" && code == 0 {
				continue
			}
			subject := strings.TrimSpace(gitIn(t, clone, "log", "-1", "--format=%h %<(60,trunc)%s", c))
			fmt.Fprintf(&got, "== %s (exit %d)\n%s", subject, code, out)
			for _, line := range strings.SplitAfter(errs, "\n") {
				if line != "" {
					got.WriteString("stderr: " + line)
				}
			}
			continue
		}
		later++
		code, out, errs := cliRun(t, clone, "diff", "--against", c+"^", "--fail-on", "none", "--format", "json", "./...")
		switch {
		case code == 0 && errs == "":
			historyCheckLocated(t, clone, c, out)
		case code == 1 && out == "" && onlySpecErrors(errs):
			// A spec of the commit, or of its parent, does not load with
			// today's loader: the commit's problem, not diff's.
			t.Logf("commit %s: a spec does not load:\n%s", c[:7], errs)
		default:
			t.Errorf("commit %s: exit %d, stderr:\n%s", c[:7], code, errs)
		}
	}
	t.Logf("%d commits after the pin checked for errors", later)

	if *updateHistory {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("toolgen diff over the history up to %s differs from %s:\n%s", historyPin[:7], path, got.String())
	}
}

// onlySpecErrors says whether every line of stderr is a located spec error
// (file:line:col: …) or the line that names an old spec that does not load.
func onlySpecErrors(stderr string) bool {
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	for _, l := range lines {
		if !specErrorLine.MatchString(l) && !(strings.HasPrefix(l, "toolgen: ") && strings.HasSuffix(l, " does not load; its errors:")) {
			return false
		}
	}
	return len(lines) > 0
}

var specErrorLine = regexp.MustCompile(`^[^\s:]+\.tools\.yaml:\d+(:\d+)?: `)

// historyCheckLocated checks that every finding of a JSON report lies
// inside its file: the new one at commit c, or its parent's for a finding
// in the old spec.
func historyCheckLocated(t *testing.T, clone, c, report string) {
	t.Helper()
	var r struct {
		Findings []struct {
			Rule, File string
			Line, Col  int
			Old        bool
		}
	}
	if err := json.Unmarshal([]byte(report), &r); err != nil {
		t.Fatalf("commit %s: %v", c[:7], err)
	}
	for _, f := range r.Findings {
		rev := c
		if f.Old {
			rev += "^"
		}
		data, err := gitOut(clone, "show", rev+":"+filepath.ToSlash(f.File))
		if err != nil {
			t.Errorf("commit %s: %s at %s:%d:%d: %v", c[:7], f.Rule, f.File, f.Line, f.Col, err)
			continue
		}
		lines := strings.Split(string(data), "\n")
		if f.Line < 1 || f.Line > len(lines) || f.Col < 1 || f.Col > len(lines[f.Line-1])+1 {
			t.Errorf("commit %s: %s at %s:%d:%d is outside the file", c[:7], f.Rule, f.File, f.Line, f.Col)
		}
	}
}

// historyRoot is the root of the git checkout this test runs in.
func historyRoot(t *testing.T) string {
	if _, err := exec.LookPath("git"); err != nil {
		historyUnavailable(t, "git is not installed")
	}
	out, err := gitOut(".", "rev-parse", "--show-toplevel")
	if err != nil {
		historyUnavailable(t, "not in a git checkout: "+err.Error())
	}
	return strings.TrimSpace(string(out))
}

// historyUnavailable skips the test, or fails it under CI, where the
// history must be there.
func historyUnavailable(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
}

func testdataDir(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(wd, "testdata")
}

func gitOut(dir string, args ...string) ([]byte, error) {
	var out, errb bytes.Buffer
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), nil
}

func TestOnlySpecErrors(t *testing.T) {
	for s, want := range map[string]bool{
		"a/b.tools.yaml:3:5: unknown key \"x\"\n": true,
		"toolgen: a/b.tools.yaml at abc^ does not load; its errors:\na/b.tools.yaml:1:1: missing required key \"provider\"\n": true,
		"toolgen: --against x: not a git revision here\n":                                                                     false,
		"panic: oops\n": false,
	} {
		if got := onlySpecErrors(s); got != want {
			t.Errorf("onlySpecErrors(%q) = %v", s, got)
		}
	}
}
