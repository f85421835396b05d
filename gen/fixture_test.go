package gen

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// genfixtureDir is the package whose generated file the tests compile and run.
var genfixtureDir = filepath.Join("..", "internal", "genfixture")

// fixtures are the packages whose generated files tests compile and run:
// directory and spec base name.
var fixtures = [][2]string{
	{genfixtureDir, "fixture"},
	{filepath.Join(genfixtureDir, "edge"), "edge"},
	{filepath.Join(genfixtureDir, "unions"), "unions"},
}

// TestFixtureUpToDate regenerates the fixtures' <name>_tools.gen.go files
// (internal/genfixture and internal/genfixture/edge) and fails if a
// committed file differs (go test ./gen -update rewrites them).
func TestFixtureUpToDate(t *testing.T) {
	for _, fx := range fixtures {
		checkFixture(t, fx[0], fx[1])
	}
}

func checkFixture(t *testing.T, dir, name string) {
	f := loadSpec(t, filepath.Join(dir, name+".tools.yaml"))
	got, err := Code(f)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name+"_tools.gen.go")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./gen -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale (run go test ./gen -update):\n%s", path, firstDiff(got, want))
	}
}

// TestEdgeSpecCopiesAgree: the edge golden case and the edge fixture are
// generated from the same spec, kept in two places (golden cases live under
// testdata, the fixture is a compiled package); they must not drift apart.
func TestEdgeSpecCopiesAgree(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("testdata", "golden", "edge", "edge.tools.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	fixture, err := os.ReadFile(filepath.Join(genfixtureDir, "edge", "edge.tools.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(golden, fixture) {
		t.Errorf("gen/testdata/golden/edge/edge.tools.yaml and internal/genfixture/edge/edge.tools.yaml differ:\n%s", firstDiff(golden, fixture))
	}
}
