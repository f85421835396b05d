package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/scale"
	"github.com/toolgen/toolgen/spec"
)

// TestRawMatchesJennifer generates every valid spec in the repository, and
// specs of the scale benchmark, with the raw declarations (raw.go) and with
// jennifer writing everything: the bytes must be the same. It is what
// proves the raw text is what go/format would write.
func TestRawMatchesJennifer(t *testing.T) {
	files := repoSpecs(t)
	// A package named like a package the raw declarations use: jennifer
	// does not rename the import for it, nor must they.
	for _, pkg := range []string{"runtime", "wire", "json", "context", "time", "strconv"} {
		f := *files[len(files)-2]
		f.Package = pkg
		files = append(files, &f)
	}
	raws := 0
	for _, f := range files {
		want, werr := codeRaw(f, nil, false)
		got, gerr := codeRaw(f, nil, true)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Errorf("%s: error with raw declarations %v, with jennifer %v", f.Path, gerr, werr)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the raw declarations change the code:\n%s", f.Path, firstDiff(got, want))
			if dir := os.Getenv("TOOLGEN_RAW_DIFF"); dir != "" {
				base := strings.ReplaceAll(f.Path, string(filepath.Separator), "_")
				os.WriteFile(filepath.Join(dir, base+".raw.go"), got, 0o644)
				os.WriteFile(filepath.Join(dir, base+".jen.go"), want, 0o644)
			}
			continue
		}
		if werr != nil {
			continue
		}
		if formatted, err := format.Source(got); err != nil || !bytes.Equal(formatted, got) {
			t.Errorf("%s: the generated code is not gofmt'd (%v):\n%s", f.Path, err, firstDiff(got, formatted))
		}
		raws++
	}
	t.Logf("%d specs generate the same code both ways", raws)
}

// TestRawTrailingSpace: gofmt trims every trailing white space rune of a
// comment line, not only blanks and tabs (here a no-break space), and the
// raw declarations must too.
func TestRawTrailingSpace(t *testing.T) {
	src := "toolgen: 1\nprovider: nbsp\ntools:\n  - name: nbsp_make\n    description: \"Makes a thing.\\u00a0\\nIt is made.\"\n" +
		"    status: \"Making {name}\"\n    params:\n      name: {type: string, description: \"The name.\\u00a0\\u2003\\nOr its id.\"}\n" +
		"      kind: {type: string, enum: [a, b], description: \"The kind.\\u00a0\"}\n    required: [name]\n"
	f, err := spec.Parse("nbsp.tools.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want, err := codeRaw(f, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	got, err := codeRaw(f, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the raw declarations change the code:\n%s", firstDiff(got, want))
	}
	if formatted, err := format.Source(got); err != nil || !bytes.Equal(formatted, got) {
		t.Errorf("not gofmt'd (%v):\n%s", err, firstDiff(got, formatted))
	}
}

// TestStubsTextMatchesFormat: a new stubs file written as text
// (newStubsText) is the bytes stubsRender and newStubsFile render and
// format, for every valid spec in the repository and the scale specs.
func TestStubsTextMatchesFormat(t *testing.T) {
	files := repoSpecs(t)
	for _, c := range rawSpecs { // raw_specs_test.go
		f, err := spec.Parse(c.name+".tools.yaml", []byte(c.yaml))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		files = append(files, f)
	}
	n := 0
	for _, f := range files {
		dir := t.TempDir()
		pkg := f.Package
		if pkg == "" {
			pkg = f.Provider
		}
		stubs := func(viaJen bool) []byte {
			stubsViaJen = viaJen
			defer func() { stubsViaJen = false }()
			sc, err := scanPackage(dir, pkg, filepath.Join(dir, "x_tools.gen.go"))
			if err != nil {
				t.Fatal(err)
			}
			res, err := stubsFor(f, pkg, filepath.Join(dir, "x_tools.go"), ExecutorMethods(f), sc)
			if err != nil {
				if viaJen {
					return nil // go/format refuses what the text mends (a NUL in a description)
				}
				t.Fatalf("%s: %v", f.Path, err)
			}
			return res.content
		}
		want, got := stubs(true), stubs(false)
		if formatted, err := format.Source(got); err != nil || !bytes.Equal(formatted, got) {
			t.Errorf("%s: the stubs written as text are not gofmt'd (%v):\n%s", f.Path, err, firstDiff(got, formatted))
		}
		if want != nil && !bytes.Equal(got, want) {
			t.Errorf("%s: the stubs written as text differ from the formatted ones:\n%s", f.Path, firstDiff(got, want))
		}
		n++
	}
	t.Logf("%d specs' stubs compared", n)
}

// repoSpecs are the valid specs of the repository and the scale specs of 1,
// 10, 100 and (unless -short) 1,000 tools.
func repoSpecs(t *testing.T) []*spec.File {
	t.Helper()
	files := validRepoSpecs(t)
	if len(files) < 40 {
		t.Fatalf("found %d valid specs in the repository, want at least 40", len(files))
	}
	for _, n := range []int{1, 10, 100, 1000} {
		if testing.Short() && n > 100 {
			break
		}
		f, err := spec.Parse(fmt.Sprintf("scale%d.tools.yaml", n), scale.Spec(n))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// validRepoSpecs are the spec files under the repository that load
// (testdata, fixtures, generated modules, examples), in walk order; the
// others are negative cases.
func validRepoSpecs(t *testing.T) []*spec.File {
	t.Helper()
	var files []*spec.File
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, SpecSuffix) {
			return nil
		}
		if f, err := spec.Load(path); err == nil {
			files = append(files, f)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
