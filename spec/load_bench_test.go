package spec

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgen/toolgen/internal/scale"
)

// BenchmarkLoad is spec loading for `toolgen generate` of a 1,000-tool spec
// (internal/scale, about 1 MB of YAML): read, parse, validate and resolve.
// Profile it with
//
//	go test ./spec -run '^$' -bench Load -benchtime 20x -cpuprofile cpu.out
func BenchmarkLoad(b *testing.B) {
	const n = 1000
	dir := filepath.Join(b.TempDir(), scale.Provider)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, scale.Provider+".tools.yaml")
	if err := os.WriteFile(path, scale.Spec(n), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		f, err := Load(path)
		if err != nil {
			b.Fatal(err)
		}
		if len(f.Tools) != n {
			b.Fatalf("loaded %d tools, want %d", len(f.Tools), n)
		}
	}
}
