package gen

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/scale"
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

// targetSpecs are the specs the fast paths are compared on: every spec in
// the repository that loads (testdata, fixtures, generated modules,
// examples), and internal/scale's, each as written, with every dialect
// named in targets, and with none.
func targetSpecs(t *testing.T) map[string]*spec.File {
	t.Helper()
	files := map[string]*spec.File{}
	for _, f := range validRepoSpecs(t) { // raw_test.go
		files[f.Path] = f
	}
	if len(files) < 50 {
		t.Fatalf("only %d specs load under the repository", len(files))
	}
	for _, n := range []int{4, 160} {
		f, err := spec.Parse("big.tools.yaml", scale.Spec(n))
		if err != nil {
			t.Fatal(err)
		}
		files[fmt.Sprintf("scale(%d)", n)] = f
	}
	refused, err := spec.Parse("x.tools.yaml", []byte("toolgen: 1\nprovider: x\ntools:\n  - name: x_ping\n    description: Ping.\n  - name: x_pong\n    description: Pong.\n"))
	if err != nil {
		t.Fatal(err)
	}
	refused.Tools[0].Name = "x.ping" // refused by all but MCP (see TestTargetsRefusedName)
	files["refused-name"] = refused
	for name, f := range files {
		if len(f.Targets) > 0 {
			none := *f
			none.Targets = nil
			files[name+" (no targets)"] = &none
		}
		all := *f
		all.Targets = nil
		for _, d := range spec.Dialects {
			all.Targets = append(all.Targets, spec.Target{Dialect: d})
		}
		files[name+" (every dialect)"] = &all
	}
	return files
}

// TestTargetsFastMatchesSlow: the target check gives the same warnings and
// errors, in the same order, with its fast paths (and tools checked in
// parallel, GOMAXPROCS being at least 2) as when it encodes every tool in
// every mode, for every spec of targetSpecs; and the fast paths are taken.
func TestTargetsFastMatchesSlow(t *testing.T) {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(max(2, goruntime.GOMAXPROCS(0))))
	plain := 0
	for name, f := range targetSpecs(t) {
		slowWarn, slowErr := checkTargetsHow(f, nil, targetsHow{slow: true})
		fastWarn, fastErr := checkTargetsHow(f, nil, targetsHow{plain: &plain})
		if !slices.Equal(fastWarn, slowWarn) {
			t.Errorf("%s: warnings differ\n--- fast\n%s\n--- slow\n%s", name, strings.Join(fastWarn, "\n"), strings.Join(slowWarn, "\n"))
		}
		if fmt.Sprint(fastErr) != fmt.Sprint(slowErr) {
			t.Errorf("%s: errors differ\n--- fast\n%v\n--- slow\n%v", name, fastErr, slowErr)
		}
	}
	t.Logf("%d tools took the plain path", plain)
	if plain < 500 {
		t.Errorf("%d tools took the plain path, want at least 500", plain)
	}
}
