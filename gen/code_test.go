package gen

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgen/toolgen/spec"
)

// update rewrites golden files and the fixture: go test ./gen -update.
var update = flag.Bool("update", false, "rewrite golden files")

var goldenCases = []string{"minimal", "stripe", "types", "flags"}

func loadSpec(t *testing.T, path string) *spec.File {
	t.Helper()
	f, err := spec.Load(path)
	if err != nil {
		t.Fatalf("loading %s:\n%v", path, err)
	}
	return f
}

// TestGolden compares the generated file of each case with its golden copy.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c, func(t *testing.T) {
			dir := filepath.Join("testdata", "golden", c)
			f := loadSpec(t, filepath.Join(dir, c+".tools.yaml"))
			got, err := Code(f)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join(dir, c+"_tools.gen.go.golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./gen -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("generated code differs from %s (run go test ./gen -update and review the diff):\n%s", golden, firstDiff(got, want))
			}
		})
	}
}

// firstDiff shows the first line where a and b differ.
func firstDiff(a, b []byte) string {
	al, bl := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y []byte
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if !bytes.Equal(x, y) {
			return "line " + itoa(i+1) + ":\n got: " + string(x) + "\nwant: " + string(y)
		}
	}
	return "(no difference)"
}

func itoa(i int) string { return string(bytes.TrimSpace([]byte(fmtInt(i)))) }

func fmtInt(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}
