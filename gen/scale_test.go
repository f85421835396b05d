package gen

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// BenchmarkGenerate is what `toolgen generate` does for a new package of
// 1,000 tools (internal/scale): load the spec, then Generate the code,
// stubs, catalog and target check. Generate writes nothing, so every run
// computes a new stubs file, as for a new package. Profile it with
//
//	go test ./gen -run '^$' -bench Generate -benchtime 3x -cpuprofile cpu.out
func BenchmarkGenerate(b *testing.B) {
	const n = 1000
	dir := filepath.Join(b.TempDir(), scale.Provider)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, scale.Provider+SpecSuffix)
	if err := os.WriteFile(path, scale.Spec(n), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f, err := spec.Load(path)
			if err != nil {
				b.Fatal(err)
			}
			out, err := Generate(f, dir)
			if err != nil {
				b.Fatal(err)
			}
			if len(out.Files) < 3 {
				b.Fatalf("Generate wrote %d files, want the code, stubs and catalog", len(out.Files))
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/tool")
	})
}

// TestRenderChunked: rendering a file in chunks, in parallel, gives the bytes
// of rendering it whole, for every golden case, the fixtures and a spec of
// 40 tools, whatever the chunk size.
func TestRenderChunked(t *testing.T) {
	files := map[string]*spec.File{}
	for _, c := range append(goldenCases, "http") {
		files[c] = loadSpec(t, filepath.Join("testdata", "golden", c, c+".tools.yaml"))
	}
	for _, fx := range fixtures {
		files[fx[1]] = loadSpec(t, filepath.Join(fx[0], fx[1]+".tools.yaml"))
	}
	big, err := spec.Parse("big.tools.yaml", scale.Spec(40))
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

// TestSizeLimit: a spec past MaxSchemas fails before any code is generated,
// located at the tool that passes the limit, with the count and what to do;
// one at the limit passes.
func TestSizeLimit(t *testing.T) {
	// Each tool: itself, its argument object and two parameters, one an
	// array with its item: five schemas.
	params := &spec.Schema{Type: spec.TypeObject, Properties: []*spec.Property{
		{Name: "q", GoName: "Q", Schema: &spec.Schema{Type: spec.TypeString}},
		{Name: "tags", GoName: "Tags", Schema: &spec.Schema{Type: spec.TypeArray, Items: &spec.Schema{Type: spec.TypeString}}},
	}}
	file := func(n int) *spec.File {
		f := &spec.File{Path: "big.tools.yaml", Provider: "big"}
		for i := range n {
			name := fmt.Sprintf("big_t%d", i)
			f.Tools = append(f.Tools, &spec.Tool{
				Pos:  spec.Pos{File: "big.tools.yaml", Line: 10 + 4*i, Col: 5},
				Name: name, GoName: fmt.Sprintf("T%d", i), Description: "d", Kind: spec.KindTool,
				Params: params, Flags: spec.Flags{Enabled: spec.Flag{Value: true}},
			})
		}
		return f
	}
	if countSchemas(params) != 4 {
		t.Fatalf("countSchemas = %d, want 4", countSchemas(params))
	}
	if err := checkSize(file(MaxSchemas / 5)); err != nil {
		t.Fatalf("a spec at the limit: %v", err)
	}
	over := MaxSchemas/5 + 3
	_, err := Code(file(over))
	var list spec.ErrorList
	if !errors.As(err, &list) || len(list) != 1 {
		t.Fatalf("error %T %v, want one located error", err, err)
	}
	e := list[0]
	// Tool i (from 0) brings the count to 5(i+1): MaxSchemas/5 is the first past it.
	wantPos := spec.Pos{File: "big.tools.yaml", Line: 10 + 4*(MaxSchemas/5), Col: 5}
	if e.Pos != wantPos {
		t.Errorf("at %v, want %v", e.Pos, wantPos)
	}
	for _, want := range []string{
		"too large for one generated package",
		group(5*over) + " schemas",
		"more than the " + group(MaxSchemas),
		fmt.Sprintf("the tool big_t%d, here, passes the limit", MaxSchemas/5),
		"split the tools into several specs",
	} {
		if !strings.Contains(e.Msg, want) {
			t.Errorf("message %q does not say %q", e.Msg, want)
		}
	}
}
