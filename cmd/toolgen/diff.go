package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolgen/toolgen/gen"
	"github.com/toolgen/toolgen/spec"
	"github.com/toolgen/toolgen/spec/diff"
)

const diffUsage = `toolgen diff says what a spec change breaks: for the Go code that uses the
generated package (go-api), for the models shown the tools (model), for the
calls stored while waiting for approval (approvals), and what it changes
about the tools' safety (safety).

Usage:

	toolgen diff [flags] OLD NEW
	toolgen diff [flags] --against REV [PATH ...]

OLD and NEW are two spec files, or two directories (every spec below each,
matched by path). With --against, the specs PATH names (default ./..., as
for generate) are compared with the same paths at the git revision REV,
read with git show: toolgen diff --against main ./...

Each finding prints as file:line:col: RULE_ID level (categories): message,
at the new spec's position, or the old spec's for something removed.
Levels: breaking, warning (a description, a tool added), compatible (a
loosening, listed for the reviewer).

Flags:

	--against REV   compare with git revision REV
	--format F      text (default), json, or github (workflow commands that
	                annotate a pull request)
	--fail-on C     the categories whose breaking findings make the exit
	                status 1: a comma-separated list of go-api, model,
	                approvals, safety; or all, none (default go-api,model)

Exit status: 0 nothing failing; 1 a failing finding, or a spec that does not
load; 2 usage errors.
`

// runDiff is toolgen diff.
func runDiff(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("toolgen diff", flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	against := fset.String("against", "", "git revision to compare with")
	format := fset.String("format", "text", "text, json or github")
	failOnFlag := fset.String("fail-on", "go-api,model", "categories that fail")
	var paths []string
	for {
		if err := fset.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdout, diffUsage)
				return exitOK
			}
			return diffUsageError(stderr, err.Error())
		}
		if fset.NArg() == 0 {
			break
		}
		paths = append(paths, fset.Arg(0))
		args = fset.Args()[1:]
	}
	failOn, err := diff.ParseFailOn(*failOnFlag)
	if err != nil {
		return diffUsageError(stderr, "--fail-on: "+err.Error())
	}
	switch *format {
	case "text", "json", "github":
	default:
		return diffUsageError(stderr, fmt.Sprintf("--format %q: use text, json or github", *format))
	}

	var pairs []diff.Pair
	var ok bool
	if *against != "" {
		if len(paths) == 0 {
			paths = []string{"./..."}
		}
		pairs, ok = againstRev(*against, paths, stderr)
	} else {
		if len(paths) != 2 {
			return diffUsageError(stderr, "give OLD and NEW (two spec files or two directories), or --against REV")
		}
		pairs, ok = oldNew(paths[0], paths[1], stderr)
	}
	if !ok {
		return exitError
	}

	findings := diff.Compare(pairs...)
	switch *format {
	case "json":
		err = diff.WriteJSON(stdout, findings, failOn)
	case "github":
		err = diff.WriteGitHub(stdout, findings, failOn)
	default:
		err = diff.WriteText(stdout, findings)
	}
	if err != nil {
		fmt.Fprintln(stderr, "toolgen: "+err.Error())
		return exitError
	}
	failing := diff.Failing(findings, failOn)
	if len(findings) > 0 && *format == "text" {
		fmt.Fprintln(stderr, "toolgen: "+diffSummary(findings, failing, failOn))
	}
	if failing > 0 {
		return exitError
	}
	return exitOK
}

func diffUsageError(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "toolgen diff: %s\nrun 'toolgen diff -h' for usage\n", msg)
	return exitUsage
}

// diffSummary counts the findings by level and says how many fail.
func diffSummary(findings []diff.Finding, failing int, failOn []diff.Category) string {
	var n [3]int
	for _, f := range findings {
		n[f.Rule.Level]++
	}
	var parts []string
	for l, c := range n {
		if c > 0 {
			s := ""
			if diff.Level(l) == diff.Warning && c > 1 {
				s = "s"
			}
			parts = append(parts, fmt.Sprintf("%d %s%s", c, diff.Level(l), s))
		}
	}
	cats := make([]string, len(failOn))
	for i, c := range failOn {
		cats[i] = string(c)
	}
	if len(cats) == 0 {
		return strings.Join(parts, ", ") + "; none failing (--fail-on none)"
	}
	return fmt.Sprintf("%s; %d failing on %s", strings.Join(parts, ", "), failing, strings.Join(cats, ", "))
}

// oldNew pairs the specs of OLD and NEW: two files, or the specs below two
// directories matched by their path inside them.
func oldNew(oldPath, newPath string, stderr io.Writer) ([]diff.Pair, bool) {
	oldRoot, oldDir, err := specRoot(oldPath)
	if err != nil {
		fmt.Fprintln(stderr, "toolgen: "+err.Error())
		return nil, false
	}
	newRoot, newDir, err := specRoot(newPath)
	if err != nil {
		fmt.Fprintln(stderr, "toolgen: "+err.Error())
		return nil, false
	}
	if oldDir != newDir {
		fmt.Fprintf(stderr, "toolgen: %s and %s: compare two spec files or two directories\n", oldPath, newPath)
		return nil, false
	}
	r := reporter{w: stderr, seen: map[string]bool{}}
	load := func(p string) *spec.File {
		f, err := spec.Load(p)
		if err != nil {
			r.error(err)
		}
		return f
	}
	if !oldDir {
		o, n := load(oldRoot), load(newRoot)
		return []diff.Pair{{Old: o, New: n}}, !r.failed
	}
	list := func(root string) (map[string]string, error) {
		specs, _, err := walkSpecs(root)
		if err != nil {
			return nil, err
		}
		byRel := map[string]string{}
		for _, s := range specs {
			rel, err := filepath.Rel(root, s)
			if err != nil {
				return nil, err
			}
			byRel[filepath.ToSlash(rel)] = s
		}
		return byRel, nil
	}
	olds, err := list(oldRoot)
	if err == nil {
		var news map[string]string
		if news, err = list(newRoot); err == nil {
			return pairUp(olds, news, load, load), !r.failed
		}
	}
	fmt.Fprintln(stderr, "toolgen: "+err.Error())
	return nil, false
}

// specRoot reads a diff operand: a spec file, a directory, or dir/...
// (the same as dir: every spec below it).
func specRoot(p string) (root string, dir bool, err error) {
	if r, ok := strings.CutSuffix(filepath.ToSlash(p), "..."); ok {
		r = strings.TrimSuffix(r, "/")
		if r == "" {
			r = "."
		}
		p = filepath.FromSlash(r)
	}
	fi, err := os.Stat(p)
	if err != nil {
		return "", false, fmt.Errorf("%s: %w", p, errors.Unwrap(err))
	}
	if !fi.IsDir() {
		if _, ok := gen.SpecName(p); !ok {
			return "", false, fmt.Errorf("%s: not a spec file (the name of a spec ends in %s)", p, gen.SpecSuffix)
		}
	}
	return p, fi.IsDir(), nil
}

// pairUp matches old and new specs by key (a relative path), loading each.
func pairUp(olds, news map[string]string, loadOld, loadNew func(string) *spec.File) []diff.Pair {
	keys := make([]string, 0, len(olds)+len(news))
	for k := range olds {
		keys = append(keys, k)
	}
	for k := range news {
		if _, ok := olds[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var pairs []diff.Pair
	for _, k := range keys {
		var p diff.Pair
		if o, ok := olds[k]; ok {
			p.Old = loadOld(o)
		}
		if n, ok := news[k]; ok {
			p.New = loadNew(n)
		}
		if p.Old != nil || p.New != nil {
			pairs = append(pairs, p)
		}
	}
	return pairs
}

// againstRev pairs the specs that paths name in the working tree with the
// specs at the same paths in the git revision rev.
func againstRev(rev string, paths []string, stderr io.Writer) ([]diff.Pair, bool) {
	if _, err := git("rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		fmt.Fprintf(stderr, "toolgen: --against %s: not a git revision here: %v\n", rev, err)
		return nil, false
	}
	// A path that is gone from the working tree (a spec or directory
	// deleted since rev) has only an old side.
	var present []string
	gone := map[string]bool{}
	for _, p := range paths {
		root := strings.TrimSuffix(strings.TrimSuffix(filepath.ToSlash(p), "..."), "/")
		if root == "" {
			root = "."
		}
		if _, err := os.Stat(filepath.FromSlash(root)); errors.Is(err, fs.ErrNotExist) {
			gone[p] = true
			continue
		}
		present = append(present, p)
	}
	news := map[string]string{}
	if len(present) > 0 {
		found, err := findSpecs(present)
		if err != nil {
			fmt.Fprintln(stderr, "toolgen: "+err.Error())
			return nil, false
		}
		for _, s := range found.specs {
			news[filepath.ToSlash(filepath.Clean(s))] = s
		}
	}
	olds := map[string]string{}
	for _, p := range paths {
		specs, err := revSpecs(rev, p)
		if err != nil {
			fmt.Fprintln(stderr, "toolgen: "+err.Error())
			return nil, false
		}
		if gone[p] && len(specs) == 0 {
			fmt.Fprintf(stderr, "toolgen: %s: no such file or directory, here or at %s\n", p, rev)
			return nil, false
		}
		for _, s := range specs {
			olds[s] = filepath.FromSlash(s)
		}
	}
	r := reporter{w: stderr, seen: map[string]bool{}}
	loadNew := func(p string) *spec.File {
		f, err := spec.Load(p)
		if err != nil {
			r.error(err)
		}
		return f
	}
	loadOld := func(p string) *spec.File {
		data, err := git("show", rev+":./"+filepath.ToSlash(p))
		if err != nil {
			r.error(fmt.Errorf("%s at %s: %v", p, rev, err))
			return nil
		}
		f, err := spec.Parse(p, data)
		if err != nil {
			r.line(fmt.Sprintf("toolgen: %s at %s does not load; its errors:", p, rev))
			r.error(err)
		}
		return f
	}
	pairs := pairUp(olds, news, loadOld, loadNew)
	return pairs, !r.failed
}

// revSpecs lists the specs that the command-line path p names at rev, as
// slash-separated paths relative to the current directory: below root for
// root/... (skipping what walkSpecs skips), in the directory for a
// directory, the file itself for a file.
func revSpecs(rev, p string) ([]string, error) {
	root, pattern := strings.CutSuffix(filepath.ToSlash(p), "...")
	root = strings.TrimSuffix(root, "/")
	if root == "" {
		root = "."
	}
	root = path.Clean(root)
	out, err := git("ls-tree", "-r", "--name-only", rev, "--", root)
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %v", p, rev, err)
	}
	files := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(files) == 1 && files[0] == "" {
		files = nil
	}
	// Nested modules are skipped, as go ./... does.
	var modules []string
	for _, f := range files {
		if path.Base(f) == "go.mod" && path.Dir(f) != root {
			modules = append(modules, path.Dir(f)+"/")
		}
	}
	var specs []string
	for _, f := range files {
		if _, ok := gen.SpecName(f); !ok {
			continue
		}
		rel := f
		if root != "." {
			rel = strings.TrimPrefix(strings.TrimPrefix(f, root), "/")
		}
		switch {
		case f == root: // a file
		case !pattern && strings.Contains(rel, "/"): // a directory: only its own specs
			continue
		case skipped(path.Dir(rel)):
			continue
		case slices.ContainsFunc(modules, func(m string) bool { return strings.HasPrefix(f, m) }):
			continue
		}
		specs = append(specs, f)
	}
	return specs, nil
}

// skipped says whether walkSpecs skips a directory (a slash-separated path
// below the walk's root): testdata, vendor, or a name starting with . or _.
func skipped(dir string) bool {
	if dir == "." {
		return false
	}
	for _, name := range strings.Split(dir, "/") {
		if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			return true
		}
	}
	return false
}

// git runs git in the current directory and returns its standard output.
func git(args ...string) ([]byte, error) {
	var out, errb bytes.Buffer
	cmd := exec.Command("git", args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errb.String()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	return out.Bytes(), nil
}
