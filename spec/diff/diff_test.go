package diff

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/spec"
)

var update = flag.Bool("update", false, "rewrite the want.txt files of the golden cases")

// loadCase loads the specs of a golden case: old/*.tools.yaml and
// new/*.tools.yaml, paired by name; paths are relative to the case.
func loadCase(t *testing.T, dir string) []Pair {
	t.Helper()
	t.Chdir(dir)
	byName := map[string]*Pair{}
	var names []string
	for _, side := range []string{"old", "new"} {
		paths, err := filepath.Glob(filepath.Join(side, "*.tools.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			f, err := spec.Load(p)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			name := filepath.Base(p)
			if byName[name] == nil {
				byName[name] = &Pair{}
				names = append(names, name)
			}
			if side == "old" {
				byName[name].Old = f
			} else {
				byName[name].New = f
			}
		}
	}
	slices.Sort(names)
	var pairs []Pair
	for _, n := range names {
		pairs = append(pairs, *byName[n])
	}
	return pairs
}

// TestGolden runs every case in testdata/<case>/{old,new}: the findings'
// (file, line, col, rule ID), every one of them, must be the case's
// want.txt. A case is named after the rule it is for, lower case
// (param_removed), optionally with a suffix (param_removed_nested).
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "*", "want.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no golden cases in testdata/*/want.txt")
	}
	covered := map[string]bool{}
	for _, w := range dirs {
		dir := filepath.Dir(w)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			abs, err := filepath.Abs(dir)
			if err != nil {
				t.Fatal(err)
			}
			findings := Compare(loadCase(t, abs)...)
			var got strings.Builder
			for _, f := range findings {
				got.WriteString(f.Pos.String() + " " + f.Rule.ID + "\n")
				if f.Pos.Line == 0 || f.Pos.Col == 0 {
					t.Errorf("%s: not located", f)
				}
				if f.Message == "" || len(f.Categories) == 0 {
					t.Errorf("%s: no message or no categories", f)
				}
			}
			want := filepath.Join(abs, "want.txt")
			if *update {
				if err := os.WriteFile(want, []byte(got.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			data, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != string(data) {
				var msgs strings.Builder
				for _, f := range findings {
					msgs.WriteString("\n\t" + f.String())
				}
				t.Errorf("findings (file:line:col RULE):\n%s\nwant:\n%s\nmessages:%s", got.String(), data, msgs.String())
			}
			for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
				if _, id, ok := strings.Cut(line, " "); ok {
					if RuleByID(id) == nil {
						t.Errorf("want.txt names the unknown rule %s", id)
					}
					if strings.HasPrefix(name, strings.ToLower(id)) {
						covered[id] = true
					}
				}
			}
		})
	}
	for _, r := range Rules {
		if !covered[r.ID] {
			t.Errorf("rule %s has no golden case: add testdata/%s/{old,new} with a want.txt that names it", r.ID, strings.ToLower(r.ID))
		}
	}
}

// TestREADMEListsRules keeps the README's table of rules in step with
// Rules: every rule has its row, with its level and categories.
func TestREADMEListsRules(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	for _, r := range Rules {
		cats := make([]string, len(r.Categories))
		for i, c := range r.Categories {
			cats[i] = string(c)
		}
		row := "| `" + r.ID + "` | " + r.Level.String() + " | " + strings.Join(cats, ", ") + " | "
		if !strings.Contains(readme, row) {
			t.Errorf("README.md has no row %q… for rule %s", row, r.ID)
		}
	}
}

// TestAnchors checks where a finding in the old spec is placed in the new
// one: at the schema, tool, or list that held what was removed, or the
// file.
func TestAnchors(t *testing.T) {
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for c, want := range map[string]string{
		"param_removed":         "new/t.tools.yaml:7:5", // params:
		"tool_removed":          "new/t.tools.yaml:4:1", // tools:
		"named_type_removed":    "new/t.tools.yaml:4:1", // types:
		"batch_removed":         "new/t.tools.yaml:5:5", // the tool
		"gate_constant_removed": "new/t.tools.yaml:1:1", // the file
	} {
		var got []string
		for _, f := range Compare(loadCase(t, filepath.Join(testdata, c))...) {
			if f.Old {
				got = append(got, f.Anchor.String())
			}
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: anchors %q, want %q", c, got, want)
		}
	}
}
