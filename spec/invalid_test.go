package spec

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the expected stderr.txt files under testdata/invalid")

// TestInvalid loads every testdata/invalid/<case>/spec.tools.yaml and
// compares the located errors with the case's stderr.txt (file names are
// given relative to the case directory). Run `go test ./spec -update` to
// rewrite the expected files, then review the diff.
func TestInvalid(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "invalid", "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no cases under testdata/invalid")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			_, err := Load(filepath.Join(dir, "spec.tools.yaml"))
			if err == nil {
				t.Fatal("the spec loaded without error")
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error is %T, want ErrorList: %v", err, err)
			}
			for _, e := range list {
				if e.Pos.Line == 0 || e.Pos.File == "" {
					t.Errorf("error without a position: %v", e)
				}
			}
			got := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "") + "\n"
			golden := filepath.Join(dir, "stderr.txt")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./spec -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("errors differ from %s\n--- got\n%s--- want\n%s", golden, got, want)
			}
		})
	}
}
