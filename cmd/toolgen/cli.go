package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/gen"
	"github.com/toolgen/toolgen/spec"
)

const usage = `toolgen turns YAML tool specs (*.tools.yaml) into typed Go code for LLM tool
calling, and keeps it current.

Usage:

	toolgen [-v] [PATH ...]           same as toolgen generate
	toolgen generate [-v] [PATH ...]  write the code, stubs and catalog of each spec
	toolgen check [-v] [PATH ...]     exit 1, listing them, if files are out of date
	                                  or a package will not build (a removed
	                                  tool's method still uses its types)
	toolgen version                   print toolgen's version (also --version)
	toolgen diff OLD NEW              what a spec change breaks (toolgen diff -h)
	toolgen import openapi DOC -o F   import an OpenAPI document as a spec (see -h)
	toolgen import mcp -- CMD ARG...  snapshot an MCP server's tools as a spec (-h)
	toolgen help                      show this help

A PATH is a spec file, a directory (the spec in it), or dir/... (every spec in
dir and below, skipping testdata, vendor, hidden directories and nested
modules). The default is ".", which is what go generate runs in a package
directory:

	//go:generate go tool toolgen

For the spec NAME.tools.yaml, toolgen writes next to it:

	NAME_tools.gen.go  the generated code: types, validation, schemas, the
	                   Executor interface, Module (DO NOT EDIT; rewritten)
	NAME_tools.go      stubs of the Executor methods: yours. Written once, then
	                   only appended to when a tool is added; never rewritten
	NAME_tools.md      a Markdown catalog of the tools

Nothing is written unless every spec loads and generates without error, and
only files whose content changed are written. Spec mistakes are printed as
file:line:col: message, all of them.

Flags:

	-v      list the files written (generate) or checked (check)
	-stamp  write toolgen's version into each generated file (generate and
	        check: give it to both, from the same toolgen)
	-h  show this help

Generated files carry no toolgen version unless -stamp asks: the same spec
gives the same bytes whichever toolgen build wrote them.

Exit status: 0 success; 1 spec or generation errors, or (check) files out of
date or a package that will not build; 2 usage errors.
`

// Exit statuses.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// run is toolgen's main: it parses args, does the work, reports to stdout
// (the -v listing, help) and stderr (errors, warnings), and returns the exit
// status.
func run(args []string, stdout, stderr io.Writer) int {
	cmd := "generate"
	explicit := false
	if len(args) > 1 && args[0] == "import" && args[1] == "openapi" {
		return runImportOpenAPI(args[2:], stdout, stderr)
	}
	if len(args) > 0 {
		switch args[0] {
		case "generate", "check":
			cmd, explicit, args = args[0], true, args[1:]
		case "help":
			fmt.Fprint(stdout, usage)
			return exitOK
		case "version", "--version", "-version":
			if len(args) > 1 {
				fmt.Fprintf(stderr, "toolgen: version takes no arguments\nrun 'toolgen -h' for usage\n")
				return exitUsage
			}
			fmt.Fprintln(stdout, "toolgen "+version())
			return exitOK
		case "diff":
			return runDiff(args[1:], stdout, stderr)
		case "import":
			if len(args) > 1 && args[1] == "mcp" {
				return runImportMCP(args[2:], stdout, stderr)
			}
			// Not a path named import: say what import takes.
			what := "no source"
			if len(args) > 1 {
				what = fmt.Sprintf("unknown source %q", args[1])
			}
			fmt.Fprintf(stderr, "toolgen: import: %s; import openapi DOC -o FILE or import mcp -o FILE -- CMD\nrun 'toolgen -h' for usage\n", what)
			return exitUsage
		}
	}
	fset := flag.NewFlagSet("toolgen "+cmd, flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	verbose := fset.Bool("v", false, "list the files written or checked")
	stamp := fset.Bool("stamp", false, "write toolgen's version into each generated file")
	// Flags may come before or after the paths.
	var paths []string
	for {
		if err := fset.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdout, usage)
				return exitOK
			}
			fmt.Fprintf(stderr, "toolgen: %v\nrun 'toolgen -h' for usage\n", err)
			return exitUsage
		}
		if fset.NArg() == 0 {
			break
		}
		paths = append(paths, fset.Arg(0))
		args = fset.Args()[1:]
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	// "toolgen chek" is a mistyped command, not a missing path.
	if !explicit {
		if p := paths[0]; !strings.ContainsAny(p, `./\`) {
			if _, err := os.Stat(p); err != nil {
				fmt.Fprintf(stderr, "toolgen: unknown command %q\nrun 'toolgen -h' for usage\n", p)
				return exitUsage
			}
		}
	}
	if os.Getenv("GOFILE") != "" {
		paths = fromModuleRoot(paths)
	}

	found, err := findSpecs(paths)
	for _, w := range found.warnings {
		fmt.Fprintln(stderr, "toolgen: warning: "+w)
	}
	if err != nil {
		fmt.Fprintln(stderr, "toolgen: "+err.Error())
		return exitError
	}
	outs, ok := generateAll(found.specs, stderr)
	if !ok {
		return exitError
	}
	if *stamp {
		stampVersion(outs, version())
	}
	// Generated files whose spec is gone: in the spec directories, and in
	// directories a pattern walked that have no spec any more.
	var orphans []gen.Orphan
	for _, out := range outs {
		orphans = append(orphans, out.Orphans...)
	}
	for _, dir := range found.specless {
		orphans = append(orphans, gen.Orphans(dir, "")...)
	}
	if cmd == "check" {
		return check(outs, orphans, *verbose, stdout, stderr)
	}
	for _, o := range orphans {
		fmt.Fprintln(stderr, o.String())
	}
	return write(outs, *verbose, stdout, stderr)
}

// fromModuleRoot moves toolgen to the root of the enclosing module when go
// generate runs it (in the package directory), and returns paths as seen
// from there: "tools.tools.yaml:3:5: …" is ambiguous when several packages
// have such a spec, "tasks/tools.tools.yaml:3:5: …" is not, and it is the
// path a developer running go generate ./... at the module root sees. With
// no go.mod above, or if anything fails, paths are returned unchanged.
func fromModuleRoot(paths []string) []string {
	cwd, err := os.Getwd()
	if err != nil {
		return paths
	}
	root := cwd
	for {
		if fi, err := os.Stat(filepath.Join(root, "go.mod")); err == nil && !fi.IsDir() {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			return paths
		}
		root = parent
	}
	rel, err := filepath.Rel(root, cwd)
	if err != nil || rel == "." {
		return paths
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		if filepath.IsAbs(p) {
			out[i] = p
			continue
		}
		out[i] = filepath.Join(rel, p) // "./..." gives "tasks/..."
	}
	if err := os.Chdir(root); err != nil {
		return paths
	}
	return out
}

// generateAll loads every spec, then generates every one, and reports every
// error. It returns false, having written nothing, if any failed.
func generateAll(specs []string, stderr io.Writer) ([]*gen.Output, bool) {
	r := reporter{w: stderr, seen: map[string]bool{}}
	var files []*spec.File
	for _, p := range specs {
		f, err := spec.Load(p)
		if err != nil {
			r.error(err)
			continue
		}
		files = append(files, f)
	}
	if r.failed {
		return nil, false
	}
	var outs []*gen.Output
	for _, f := range files {
		out, err := gen.Generate(f, filepath.Dir(f.Path))
		if err != nil {
			r.error(err)
			continue
		}
		outs = append(outs, out)
	}
	for _, out := range outs {
		for _, w := range out.Warnings {
			r.line(w)
		}
	}
	return outs, !r.failed
}

// reporter prints errors, located ones as they are and others prefixed
// "toolgen: ", each line once.
type reporter struct {
	w      io.Writer
	seen   map[string]bool
	failed bool
}

func (r *reporter) error(err error) {
	r.failed = true
	var list spec.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			r.line(e.Error())
		}
		return
	}
	var e *spec.Error
	if errors.As(err, &e) {
		r.line(e.Error())
		return
	}
	r.line("toolgen: " + err.Error())
}

func (r *reporter) line(s string) {
	if !r.seen[s] {
		r.seen[s] = true
		fmt.Fprintln(r.w, s)
	}
}

// write writes the files whose content changed.
func write(outs []*gen.Output, verbose bool, stdout, stderr io.Writer) int {
	for _, out := range outs {
		changes, err := out.Changes()
		if err != nil {
			fmt.Fprintln(stderr, "toolgen: "+err.Error())
			return exitError
		}
		for _, c := range changes {
			if err := gen.WriteFile(c.File.Path, c.File.Content); err != nil {
				fmt.Fprintln(stderr, "toolgen: "+err.Error())
				return exitError
			}
			if verbose {
				note := ""
				if len(c.File.NewStubs) > 0 {
					note = " (new stubs: " + strings.Join(c.File.NewStubs, ", ") + ")"
				}
				fmt.Fprintf(stdout, "wrote %s%s\n", c.File.Path, note)
			}
		}
	}
	return exitOK
}

// check lists the files that generate would write, and the generated files
// whose spec is gone, and fails if there are any.
func check(outs []*gen.Output, orphans []gen.Orphan, verbose bool, stdout, stderr io.Writer) int {
	stale := 0
	for _, o := range orphans {
		fmt.Fprintln(stderr, "toolgen: "+o.String())
		stale++
	}
	for _, out := range outs {
		changes, err := out.Changes()
		if err != nil {
			fmt.Fprintln(stderr, "toolgen: "+err.Error())
			return exitError
		}
		for _, c := range changes {
			fmt.Fprintf(stderr, "toolgen: %s: %s (from %s)\n", c.File.Path, c.Reason, out.Spec)
			stale++
		}
		if verbose {
			for _, f := range out.Files {
				if !slices.ContainsFunc(changes, func(c gen.Change) bool { return c.File.Path == f.Path }) {
					fmt.Fprintf(stdout, "ok %s\n", f.Path)
				}
			}
		}
	}
	if stale > 0 {
		s := "s are"
		if stale == 1 {
			s = " is"
		}
		fmt.Fprintf(stderr, "toolgen: %d generated file%s out of date; run go generate (or toolgen generate)\n", stale, s)
	}
	// A removed tool's method that still uses its types: the files are
	// current, but the package does not build (the warning, printed with
	// the others, names the method).
	breaks := 0
	for _, out := range outs {
		breaks += len(out.Breaks)
	}
	if breaks > 0 {
		s := "s keep"
		if breaks == 1 {
			s = " keeps"
		}
		fmt.Fprintf(stderr, "toolgen: %d executor method%s a package from building (see above); delete them or their use of the removed types\n", breaks, s)
	}
	if stale > 0 || breaks > 0 {
		return exitError
	}
	return exitOK
}

// foundSpecs is what the command line's paths name.
type foundSpecs struct {
	// specs are the spec files, in order and without duplicates.
	specs []string
	// specless are the directories a pattern walked that hold generated
	// files (*_tools.gen.go) but no spec: where orphans may be.
	specless []string
	warnings []string
}

// findSpecs expands the command line's paths into spec files. A pattern
// (dir/...) that matches nothing is a warning; a missing path, a directory
// without a spec, or a file that is not one is an error.
func findSpecs(paths []string) (found foundSpecs, err error) {
	seen := map[string]bool{}
	add := func(p string) {
		if k := filepath.Clean(p); !seen[k] {
			seen[k] = true
			found.specs = append(found.specs, p)
		}
	}
	for _, p := range paths {
		if root, ok := strings.CutSuffix(filepath.ToSlash(p), "..."); ok {
			root = strings.TrimSuffix(root, "/")
			if root == "" {
				root = "."
			}
			specs, specless, err := walkSpecs(filepath.FromSlash(root))
			if err != nil {
				return foundSpecs{}, err
			}
			if len(specs) == 0 {
				found.warnings = append(found.warnings, fmt.Sprintf("%s matched no %s files", p, "*"+gen.SpecSuffix))
			}
			for _, s := range specs {
				add(s)
			}
			for _, d := range specless {
				if !slices.Contains(found.specless, d) {
					found.specless = append(found.specless, d)
				}
			}
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return foundSpecs{}, fmt.Errorf("%s: %w", p, err)
		}
		if !fi.IsDir() {
			if _, ok := gen.SpecName(p); !ok {
				return foundSpecs{}, fmt.Errorf("%s: not a spec file (the name of a spec ends in %s)", p, gen.SpecSuffix)
			}
			add(p)
			continue
		}
		specs, err := filepath.Glob(filepath.Join(p, "*"+gen.SpecSuffix))
		if err != nil {
			return foundSpecs{}, err
		}
		if len(specs) == 0 {
			msg := fmt.Sprintf("%s: no %s spec file in this directory", p, "*"+gen.SpecSuffix)
			// Run at a module root ("toolgen check" in CI), the specs are
			// usually below: say how to name them.
			if below, _, err := walkSpecs(p); err == nil && len(below) > 0 {
				n := "spec"
				if len(below) > 1 {
					n = strconv.Itoa(len(below)) + " specs"
				}
				msg += fmt.Sprintf(" (%s finds the %s below it)", strings.TrimSuffix(filepath.ToSlash(p), "/")+"/...", n)
			}
			return foundSpecs{}, errors.New(msg)
		}
		for _, s := range specs {
			add(s)
		}
	}
	return found, nil
}

// walkSpecs finds the spec files in root and below, skipping what the go
// command skips in a ./... pattern: testdata, vendor, directories starting
// with "." or "_", and nested modules. specless are the directories it
// walked that hold generated files (*_tools.gen.go) but no spec.
func walkSpecs(root string) (found, specless []string, err error) {
	hasGen := map[string]bool{}
	hasSpec := map[string]bool{}
	var genDirs []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == root {
				return nil
			}
			name := d.Name()
			if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		dir := filepath.Dir(path)
		if _, ok := gen.SpecName(path); ok {
			found = append(found, path)
			hasSpec[dir] = true
		} else if strings.HasSuffix(path, "_tools.gen.go") && !hasGen[dir] {
			hasGen[dir] = true
			genDirs = append(genDirs, dir)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	for _, d := range genDirs {
		if !hasSpec[d] {
			specless = append(specless, d)
		}
	}
	return found, specless, nil
}
