package openapi

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/toolgen/toolgen/spec"
)

var update = flag.Bool("update", false, "rewrite the expected want.tools.yaml and want.report.txt files under testdata")

// caseOptions is a case's options.yaml: Options, and the document to read
// (default openapi.yaml or openapi.json in the case's directory).
type caseOptions struct {
	Document string `yaml:"document"`
	Options  `yaml:",inline"`
}

// TestGolden imports each testdata/<case> document with the case's options
// and compares the spec and the report with want.tools.yaml and
// want.report.txt (go test ./spec/openapi -update rewrites them; review the
// diff). Every imported spec must load, and importing twice gives the same
// bytes.
func TestGolden(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "*"))
	n := 0
	for _, dir := range dirs {
		if fi, err := os.Stat(filepath.Join(dir, "options.yaml")); err != nil || fi.IsDir() {
			continue
		}
		n++
		t.Run(filepath.Base(dir), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, "options.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			var co caseOptions
			dec := yaml.NewDecoder(strings.NewReader(string(data)))
			dec.KnownFields(true)
			if err := dec.Decode(&co); err != nil {
				t.Fatalf("options.yaml: %v", err)
			}
			doc := co.Document
			if doc == "" {
				doc = "openapi.yaml"
				if _, err := os.Stat(filepath.Join(dir, doc)); err != nil {
					doc = "openapi.json"
				}
			}
			if co.Overlay != "" {
				co.Overlay = filepath.Join(dir, co.Overlay)
			}
			res, err := Import(context.Background(), filepath.Join(dir, doc), co.Options)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := spec.Parse(filepath.Join(dir, "want.tools.yaml"), res.Spec); err != nil {
				t.Fatalf("the imported spec does not load:\n%v", err)
			}
			again, err := Import(context.Background(), filepath.Join(dir, doc), co.Options)
			if err != nil || string(again.Spec) != string(res.Spec) || again.Report.String() != res.Report.String() {
				t.Errorf("a second import differs (err %v)", err)
			}
			compare(t, filepath.Join(dir, "want.tools.yaml"), res.Spec)
			compare(t, filepath.Join(dir, "want.report.txt"), []byte(res.Report.String()))
		})
	}
	if n < 5 {
		t.Errorf("found %d cases under testdata", n)
	}
}

func compare(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./spec/openapi -update)", err)
	}
	if string(got) != string(want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Errorf("%s differs at line %d (go test ./spec/openapi -update, then review the diff):\n got %q\nwant %q", golden, i+1, g, w)
				return
			}
		}
	}
}
