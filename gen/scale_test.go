package gen

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/toolgen/toolgen/internal/scale"
	"github.com/toolgen/toolgen/spec"
)

// BenchmarkCode generates the code of specs of 10, 100 and 1,000 tools
// shaped like an imported API (internal/scale). The generator must be
// linear: ns/tool, reported per size, stays flat as the spec grows. Profile
// it with
//
//	go test ./gen -run '^$' -bench 'Code/tools=1000' -cpuprofile cpu.out
func BenchmarkCode(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		f, err := spec.Parse("big.tools.yaml", scale.Spec(n))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Code(f); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/tool")
		})
	}
}

// TestRenderChunked: rendering a file in chunks, in parallel, gives the bytes
// of rendering it whole, for every golden case, the fixtures and a spec of
// 100 tools, whatever the chunk size.
func TestRenderChunked(t *testing.T) {
	files := map[string]*spec.File{}
	for _, c := range append(goldenCases, "http") {
		files[c] = loadSpec(t, filepath.Join("testdata", "golden", c, c+".tools.yaml"))
	}
	for _, fx := range fixtures {
		files[fx[1]] = loadSpec(t, filepath.Join(fx[0], fx[1]+".tools.yaml"))
	}
	big, err := spec.Parse("big.tools.yaml", scale.Spec(100))
	if err != nil {
		t.Fatal(err)
	}
	files["big"] = big
	defer func(n int) { chunkSections = n }(chunkSections)
	for name, f := range files {
		chunkSections = 0
		whole, err := Code(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 2, 7} {
			chunkSections = n
			got, err := Code(f)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, whole) {
				t.Errorf("%s in chunks of %d sections differs from the whole render:\n%s", name, n, firstDiff(got, whole))
			}
		}
	}
}
