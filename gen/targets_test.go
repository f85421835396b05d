package gen

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/spec"
)

// TestTargetDialectsMatchRuntime keeps spec.Dialects, the names `targets:`
// accepts, in step with the runtime's dialects.
func TestTargetDialectsMatchRuntime(t *testing.T) {
	want := []string{string(runtime.DialectOpenAI), string(runtime.DialectOpenAIChat),
		string(runtime.DialectAnthropic), string(runtime.DialectGemini), string(runtime.DialectMCP)}
	if !slices.Equal(spec.Dialects, want) {
		t.Errorf("spec.Dialects = %v, runtime has %v", spec.Dialects, want)
	}
	for _, d := range spec.Dialects {
		if _, err := runtime.EncodeTools(runtime.Dialect(d), nil, nil, runtime.EncodeOptions{}); err != nil {
			t.Errorf("runtime refuses dialect %q: %v", d, err)
		}
	}
}

// TestTargets runs checkTargets over every testdata/targets/<case>/spec.tools.yaml
// and compares its warnings (or errors) with the case's want.txt, file names
// relative to the case directory. `go test ./gen -run TestTargets -update`
// rewrites them; review the diff.
func TestTargets(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "targets", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases under testdata/targets (%v)", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			f, err := spec.Load(filepath.Join(dir, "spec.tools.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			warnings, err := checkTargets(f)
			var lines []string
			if err != nil {
				var list spec.ErrorList
				if !errors.As(err, &list) {
					t.Fatalf("error is %T, want spec.ErrorList: %v", err, err)
				}
				lines = append(lines, "error: "+err.Error())
			}
			for _, w := range warnings {
				lines = append(lines, "warning: "+w)
			}
			got := strings.ReplaceAll(strings.Join(lines, "\n"), dir+string(filepath.Separator), "") + "\n"
			golden := filepath.Join(dir, "want.txt")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./gen -run TestTargets -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("differs from %s\n--- got\n%s--- want\n%s", golden, got, want)
			}
		})
	}
}

// TestTargetsRefusedName: a name a targeted dialect refuses stops
// generation with an error at the tool's name key, and only for the
// dialects that refuse it. The loader admits no such name today (its rule
// is the intersection of every dialect's), so the test renames a loaded
// tool to one MCP takes and the others do not.
func TestTargetsRefusedName(t *testing.T) {
	src := "toolgen: 1\nprovider: x\ntargets: [mcp, openai]\ntools:\n  - name: x_ping\n    description: Ping.\n"
	f, err := spec.Parse("x.tools.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f.Tools[0].Name = "x.ping"
	_, err = checkTargets(f)
	want := `x.tools.yaml:5:5: openai cannot take the tool name "x.ping": openai takes tool names of 1 to 64 letters, digits, '_' or '-'`
	if err == nil || err.Error() != want {
		t.Errorf("error:\n%v\nwant:\n%s", err, want)
	}
	f.Targets = f.Targets[:1] // mcp only
	if _, err := checkTargets(f); err != nil {
		t.Errorf("mcp only: %v", err)
	}
	dir := t.TempDir()
	f.Path = filepath.Join(dir, "x.tools.yaml")
	f.Targets = nil
	if _, err := Generate(f, dir); err == nil || !strings.Contains(err.Error(), "cannot take the tool name") {
		t.Errorf("Generate with every dialect targeted: %v, want the name refused", err)
	}
}
