package gen

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// genfixtureDir is the package whose generated file the tests compile and run.
var genfixtureDir = filepath.Join("..", "internal", "genfixture")

// TestFixtureUpToDate regenerates internal/genfixture/fixture_tools.gen.go
// and fails if the committed file differs (go test ./gen -update rewrites it).
func TestFixtureUpToDate(t *testing.T) {
	f := loadSpec(t, filepath.Join(genfixtureDir, "fixture.tools.yaml"))
	got, err := Code(f)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(genfixtureDir, "fixture_tools.gen.go")
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
