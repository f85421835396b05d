package gen

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The examples golden case: besides the generated file (TestGolden), the
// examples test and the catalog are golden too.
func TestExamplesGolden(t *testing.T) {
	dir := filepath.Join("testdata", "golden", "examples")
	f := loadSpec(t, filepath.Join(dir, "examples.tools.yaml"))
	test, err := ExamplesTest(f)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := CatalogMarkdown(f)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]byte{
		"examples_tools.gen_test.go.golden": test,
		"examples_tools.md.golden":          cat,
	} {
		path := filepath.Join(dir, name)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./gen -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs (run go test ./gen -update and review the diff):\n%s", path, firstDiff(got, want))
		}
	}
	// Without examples, no test file.
	if test, err := ExamplesTest(loadSpec(t, filepath.Join("testdata", "golden", "minimal", "minimal.tools.yaml"))); err != nil || test != nil {
		t.Errorf("a spec without examples gives a test file: %v\n%s", err, test)
	}
}

// TestExamplesTestRuns generates the examples case into a package and runs
// its examples test with go test: it passes; with an example edited in the
// generated file to one the decoder refuses, it fails naming the example's
// place in the spec.
func TestExamplesTestRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	tmp, err := os.MkdirTemp("testdata", "examples-run-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	spec := filepath.Join(tmp, "examples.tools.yaml")
	src, err := os.ReadFile(filepath.Join("testdata", "golden", "examples", "examples.tools.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(spec, src, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := Generate(loadSpec(t, spec), tmp)
	if err != nil {
		t.Fatal(err)
	}
	var code []byte
	kinds := map[FileKind]bool{}
	for _, o := range out.Files {
		kinds[o.Kind] = true
		if o.Kind == FileGenerated {
			code = o.Content
		}
		if err := WriteFile(o.Path, o.Content); err != nil {
			t.Fatal(err)
		}
	}
	if !kinds[FileTest] {
		t.Fatal("Generate wrote no examples test")
	}
	run := func() (string, error) {
		cmd := exec.Command("go", "test", "-count=1", "-run", "TestToolExamples", "./"+filepath.ToSlash(tmp))
		b, err := cmd.CombinedOutput()
		return string(b), err
	}
	if b, err := run(); err != nil {
		t.Fatalf("the examples test fails: %v\n%s", err, b)
	}
	// lines[0] has no sku: the decoder refuses it.
	bad := bytes.Replace(code, []byte(`{"budget":null,"customer":"eve@example.com","lines":[{"sku":"Z"}]}`),
		[]byte(`{"budget":null,"customer":"eve@example.com","lines":[{}]}`), 1)
	if bytes.Equal(bad, code) {
		t.Fatal("the third example is not in the generated file")
	}
	if err := os.WriteFile(filepath.Join(tmp, "examples_tools.gen.go"), bad, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := run()
	if err == nil {
		t.Fatalf("the examples test passes with an invalid example:\n%s", b)
	}
	if want := "examples.tools.yaml:49:9: example 3 of shop_quote does not decode"; !strings.Contains(b, want) {
		t.Errorf("the failure does not say %q:\n%s", want, b)
	}
}

// A spec whose tools lose their examples leaves its examples test behind:
// Generate reports it as an orphan (check counts it), and a spec that is
// gone names it with its other files.
func TestExamplesTestOrphan(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "shop.tools.yaml")
	with := "toolgen: 1\nprovider: shop\npackage: shop\ntools:\n  - name: shop_ping\n    description: Ping.\n    params: {n: {type: integer}}\n    examples: [{n: 1}]\n"
	if err := os.WriteFile(spec, []byte(with), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := Generate(loadSpec(t, spec), dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out.Files {
		if err := WriteFile(o.Path, o.Content); err != nil {
			t.Fatal(err)
		}
	}
	if len(out.Orphans) != 0 {
		t.Fatalf("orphans %v", out.Orphans)
	}
	// check knows the file: deleted, it is missing; edited, out of date.
	test := filepath.Join(dir, "shop_tools.gen_test.go")
	for _, c := range []struct {
		edit   func() error
		reason string
	}{
		{func() error { return os.Remove(test) }, "missing"},
		{func() error { return os.WriteFile(test, []byte("package shop\n"), 0o644) }, "out of date"},
	} {
		if err := c.edit(); err != nil {
			t.Fatal(err)
		}
		changes, err := out.Changes()
		if err != nil {
			t.Fatal(err)
		}
		if len(changes) != 1 || changes[0].File.Path != test || changes[0].File.Kind != FileTest || changes[0].Reason != c.reason {
			t.Errorf("changes %+v, want the examples test %s", changes, c.reason)
		}
	}
	for _, o := range out.Files {
		if err := WriteFile(o.Path, o.Content); err != nil {
			t.Fatal(err)
		}
	}
	without := strings.Replace(with, "    examples: [{n: 1}]\n", "", 1)
	if err := os.WriteFile(spec, []byte(without), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = Generate(loadSpec(t, spec), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Orphans) != 1 || out.Orphans[0].Path != test {
		t.Fatalf("orphans %v, want the examples test", out.Orphans)
	}
	if got, want := out.Orphans[0].String(), test+":1: generated from shop.tools.yaml, whose tools have no examples any more; delete it"; got != want {
		t.Errorf("orphan:\n got %s\nwant %s", got, want)
	}
	for _, o := range out.Files {
		if o.Kind == FileTest {
			t.Errorf("a test file for a spec without examples")
		}
	}
	// The spec gone: the generated file is the orphan, and the message
	// names the catalog and the test with it.
	os.Remove(spec)
	os.Remove(filepath.Join(dir, "shop_tools.go"))
	orphans := Orphans(dir, "")
	if len(orphans) != 1 || orphans[0].Test != test || !strings.HasSuffix(orphans[0].String(), ", "+filepath.Join(dir, "shop_tools.md")+" and "+test) {
		t.Errorf("orphans %v", orphans)
	}
}
