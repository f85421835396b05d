package gen

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/toolgen/toolgen/spec"
)

// SpecSuffix ends the name of every spec file: `<name>.tools.yaml`.
const SpecSuffix = ".tools.yaml"

// FileKind says what a generated file is, and so who owns it.
type FileKind int

const (
	// FileGenerated is `<name>_tools.gen.go`: toolgen's, rewritten on every
	// run, marked DO NOT EDIT.
	FileGenerated FileKind = iota + 1
	// FileStubs is `<name>_tools.go`: the developer's. toolgen writes it
	// once, then only appends stubs for new executor methods.
	FileStubs
	// FileCatalog is `<name>_tools.md`: toolgen's Markdown tool catalog.
	FileCatalog
	// FileTest is `<name>_tools.gen_test.go`: toolgen's test decoding
	// every example of the spec (examples:), written when a tool has
	// examples.
	FileTest
)

func (k FileKind) String() string {
	switch k {
	case FileGenerated:
		return "generated"
	case FileStubs:
		return "stubs"
	case FileCatalog:
		return "catalog"
	case FileTest:
		return "test"
	}
	return fmt.Sprintf("FileKind(%d)", int(k))
}

// OutFile is one file Generate wants on disk.
type OutFile struct {
	// Path is where the file goes: the package directory joined with the
	// file's name.
	Path    string
	Content []byte
	Kind    FileKind
	// NewStubs names the executor methods whose stubs Content adds to the
	// stubs file (FileStubs only; empty when it adds none).
	NewStubs []string
}

// Output is what one spec generates. Generate never writes it; the caller
// writes it (WriteFile) or compares it with the disk (Changes).
type Output struct {
	// Spec is the spec file's path.
	Spec string
	// Files are the generated code, the stubs file (absent when the package
	// needs none: every method exists elsewhere), the catalog and the
	// examples test (absent when no tool has examples), in that order.
	Files []OutFile
	// Warnings are located notes for the developer, such as an executor
	// method whose tool left the spec. They do not stop generation.
	Warnings []string
	// Breaks are the warnings (also in Warnings) that mean the package
	// will not build as it stands, such as a removed tool's method that
	// still uses its Args type: `toolgen check` fails on them.
	Breaks []string
	// Orphans are the generated files in the package directory whose spec
	// is gone (see Orphans).
	Orphans []Orphan
}

// Orphan is a generated file whose spec is gone (deleted, or renamed): it
// still declares the package's Module, and nothing regenerates it. toolgen
// never deletes it; `toolgen check` counts it as stale.
type Orphan struct {
	// Path is the generated file; Catalog is its Markdown catalog and
	// Test its examples test, or "" when there is none.
	Path, Catalog, Test string
	// Spec is the file name of the spec it was generated from, as its
	// first line says ("old.tools.yaml").
	Spec string
	// Why says what is gone, when it is not the spec: an examples test
	// whose spec has no examples any more.
	Why string
}

// String is a located warning: the file, what happened, what to do.
func (o Orphan) String() string {
	del := "delete it"
	switch {
	case o.Catalog != "" && o.Test != "":
		del += ", " + o.Catalog + " and " + o.Test
	case o.Catalog != "" || o.Test != "":
		del += " and " + o.Catalog + o.Test
	}
	why := o.Why
	if why == "" {
		why = "which is not in this directory any more"
	}
	return fmt.Sprintf("%s:1: generated from %s, %s; %s", o.Path, o.Spec, why, del)
}

// SpecName returns the name of a spec file path ("dir/example.tools.yaml"
// gives "example") and whether the path names a spec file at all.
func SpecName(path string) (string, bool) {
	base := filepath.Base(path)
	name, ok := strings.CutSuffix(base, SpecSuffix)
	return name, ok && name != ""
}

// FileNames returns the names of the files generated from the spec file
// called specBase ("example.tools.yaml"): the generated code, the stubs and
// the catalog ("example_tools.gen.go", "example_tools.go", "example_tools.md").
func FileNames(specBase string) (generated, stubs, catalog string) {
	name, _ := SpecName(specBase)
	return name + "_tools.gen.go", name + "_tools.go", name + "_tools.md"
}

// Generate computes the files spec f generates into the package directory
// dir, without writing anything: the code from Code, the stubs file and the
// catalog. It reads dir's Go files to find the executor methods that exist
// already, so that it only adds stubs for missing ones and never changes a
// method the developer wrote; methods whose tool is gone are reported in the
// Output's warnings. A second spec file in dir, or a Go file of dir that
// does not parse, is a located error (a spec.ErrorList).
func Generate(f *spec.File, dir string) (*Output, error) {
	base := filepath.Base(f.Path)
	if _, ok := SpecName(base); !ok {
		return nil, fmt.Errorf("gen: %s: a spec file's name must end in %s", f.Path, SpecSuffix)
	}
	if err := checkOneSpec(f.Path, dir); err != nil {
		return nil, err
	}
	genName, stubsName, catName := FileNames(base)
	genPath := filepath.Join(dir, genName)
	stubsPath := filepath.Join(dir, stubsName)
	catPath := filepath.Join(dir, catName)

	// A spec past the size limit fails here, before anything is started.
	if err := checkSize(f); err != nil {
		return nil, err
	}
	// The code is most of the work; what else reads only the spec and the
	// directory runs beside it, in two goroutines, and the errors are
	// reported in the order the steps would run one after the other. The
	// stubs need the generated code only for a method left over from a
	// removed tool (declareGenerated): they wait for it then.
	var (
		code, catalog, test []byte
		targetWarnings      []string
		stubs               *stubsResult
		errs                [6]error // code, catalog, test, targets, scan, stubs
		wg                  sync.WaitGroup
		codeDone            = make(chan struct{})
	)
	pkg := packageName(f, dir)
	schemas := newSchemaMemo() // both the code and the target check need them
	wg.Go(func() {
		targetWarnings, errs[3] = checkTargetsWith(f, schemas) // targets.go
	})
	wg.Go(func() {
		catalog, errs[1] = CatalogMarkdown(f)
		test, errs[2] = ExamplesTest(f) // examples.go
		var sc *pkgScan
		if sc, errs[4] = scanPackage(dir, pkg, genPath); errs[4] != nil {
			return
		}
		sc.declareGenerated(func() []byte { <-codeDone; return code })
		stubs, errs[5] = stubsFor(f, pkg, stubsPath, ExecutorMethods(f), sc)
	})
	code, errs[0] = codeWith(f, schemas)
	close(codeDone)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}

	out := &Output{Spec: f.Path, Warnings: stubs.warnings, Breaks: stubs.breaks, Orphans: Orphans(dir, genPath)}
	out.Warnings = append(out.Warnings, targetWarnings...)
	out.Files = append(out.Files, OutFile{Path: genPath, Content: code, Kind: FileGenerated})
	if stubs.content != nil {
		out.Files = append(out.Files, OutFile{Path: stubsPath, Content: stubs.content, Kind: FileStubs, NewStubs: stubs.added})
	}
	out.Files = append(out.Files, OutFile{Path: catPath, Content: catalog, Kind: FileCatalog})
	if test != nil {
		out.Files = append(out.Files, OutFile{Path: filepath.Join(dir, TestFileName(base)), Content: test, Kind: FileTest})
	} else if o := staleTest(dir, f.Path); o != nil {
		out.Orphans = append(out.Orphans, *o)
	}
	return out, nil
}

// checkOneSpec fails when dir holds another spec file than specPath: both
// would generate a Module function into the same package.
func checkOneSpec(specPath, dir string) error {
	matches, err := filepath.Glob(filepath.Join(dir, "*"+SpecSuffix))
	if err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	var others []string
	for _, m := range matches {
		if !samePath(m, specPath) {
			others = append(others, m)
		}
	}
	if len(others) == 0 {
		return nil
	}
	all := append(others, specPath)
	slices.Sort(all)
	var errs spec.ErrorList
	for _, p := range all[1:] {
		errs = append(errs, &spec.Error{
			Pos: spec.Pos{File: p, Line: 1, Col: 1},
			Msg: fmt.Sprintf("a second spec file in one package (%s is the first): each would generate the package's Module; keep one spec per directory", filepath.Base(all[0])),
		})
	}
	return errs
}

// Orphans returns the generated files in dir, other than keep (the file
// of dir's spec; "" when dir has none), whose spec is gone. A file counts
// when its first line is toolgen's generated-code header; the spec it names
// must be missing from dir.
func Orphans(dir, keep string) []Orphan {
	matches, _ := filepath.Glob(filepath.Join(dir, "*_tools.gen.go"))
	var out []Orphan
	for _, m := range matches {
		if keep != "" && samePath(m, keep) {
			continue
		}
		from, ok := generatedFrom(m)
		if !ok {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, from)); err == nil {
			continue // its spec is there: not an orphan (two specs are an error of their own)
		}
		o := Orphan{Path: m, Spec: from}
		if cat := strings.TrimSuffix(m, "_tools.gen.go") + "_tools.md"; fileExists(cat) {
			o.Catalog = cat
		}
		if test := strings.TrimSuffix(m, ".go") + "_test.go"; fileExists(test) {
			o.Test = test
		}
		out = append(out, o)
	}
	return out
}

// generatedFrom gives the file name of the spec that the file at path
// was generated from, as its first line (toolgen's header) says, and
// whether it has that line.
func generatedFrom(path string) (string, bool) {
	prefix, suffix, _ := strings.Cut(GeneratedHeader("\x00"), "\x00")
	head := make([]byte, 200)
	fh, err := os.Open(path)
	if err != nil {
		return "", false
	}
	n, _ := fh.Read(head)
	fh.Close()
	line, _, _ := strings.Cut(string(head[:n]), "\n")
	from, ok := strings.CutPrefix(line, "// "+prefix)
	if !ok {
		return "", false
	}
	return strings.TrimSuffix(from, suffix), true
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// packageName is the Go package the spec generates: its `package:`, else
// the directory's base name made an identifier.
func packageName(f *spec.File, dir string) string {
	if f.Package != "" {
		return f.Package
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	name := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			return unicode.ToLower(r)
		}
		return -1
	}, filepath.Base(abs))
	if name == "" || unicode.IsDigit(rune(name[0])) {
		name = "tools" + name
	}
	return name
}

// Change is a file whose content on disk differs from what was generated.
type Change struct {
	File OutFile
	// Reason says how it differs: "missing", "out of date", or for a stubs
	// file "missing stubs for A, B".
	Reason string
}

// Changes compares o's files with the disk and returns those that differ
// (missing files included), in o's order. toolgen writes only these, and
// `toolgen check` reports them.
func (o *Output) Changes() ([]Change, error) {
	var out []Change
	for _, f := range o.Files {
		old, err := os.ReadFile(f.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			out = append(out, Change{File: f, Reason: "missing"})
		case err != nil:
			return nil, fmt.Errorf("gen: %w", err)
		case bytes.Equal(old, f.Content):
		case f.Kind == FileStubs && len(f.NewStubs) > 0:
			out = append(out, Change{File: f, Reason: "missing stubs for " + strings.Join(f.NewStubs, ", ")})
		default:
			out = append(out, Change{File: f, Reason: "out of date"})
		}
	}
	return out, nil
}

// WriteFile writes content to path atomically: to a temporary file in the
// same directory, renamed over path. An existing file keeps its permission
// bits; a new one gets 0644.
func WriteFile(path string, content []byte) (err error) {
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(content); err != nil {
		return fmt.Errorf("gen: writing %s: %w", path, err)
	}
	if err = tmp.Chmod(mode); err != nil {
		return fmt.Errorf("gen: writing %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("gen: writing %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("gen: writing %s: %w", path, err)
	}
	return nil
}
