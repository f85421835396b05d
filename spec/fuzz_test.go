package spec

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that Parse never panics and always answers with either a
// resolved model or a non-empty list of located errors.
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*/*/*.tools.yaml")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("fuzz/x.tools.yaml", data)
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T %v is not a non-empty ErrorList", err, err)
			}
			for _, e := range list {
				if e.Pos.File != "fuzz/x.tools.yaml" || e.Pos.Line < 1 {
					t.Fatalf("badly located error %q", e)
				}
			}
			if file != nil {
				t.Fatal("a model came back with errors")
			}
			return
		}
		if len(file.Tools) == 0 {
			t.Fatal("a valid spec without tools")
		}
		for _, tl := range file.Tools {
			if tl.GoName == "" || tl.Params == nil || tl.Params.Type != TypeObject {
				t.Fatalf("tool %q not resolved: %+v", tl.Name, tl)
			}
			for _, p := range tl.Params.Properties {
				if p.GoName == "" || p.Schema == nil {
					t.Fatalf("parameter %q not resolved", p.Name)
				}
			}
		}
	})
}
