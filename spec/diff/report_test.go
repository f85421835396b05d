package diff

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/spec"
)

func TestParseFailOn(t *testing.T) {
	for in, want := range map[string][]Category{
		"go-api,model":         {GoAPI, Model},
		" safety , approvals ": {Safety, Approvals},
		"model,model":          {Model},
		"all":                  Categories,
		"none":                 {},
	} {
		got, err := ParseFailOn(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("ParseFailOn(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseFailOn("model,gopher"); err == nil || !strings.Contains(err.Error(), `unknown category "gopher"`) {
		t.Errorf("ParseFailOn(model,gopher): %v", err)
	}
}

// TestGitHubEscapes checks the workflow command escapes: a message keeps
// its colons and commas, a property (file, title) does not, and a
// removal is placed at its anchor in the new spec.
func TestGitHubEscapes(t *testing.T) {
	f := Finding{
		Rule: ruleParamRemoved, Categories: []Category{GoAPI, Model},
		Pos: spec.Pos{File: "a,b:c.tools.yaml", Line: 9, Col: 7}, Old: true,
		Anchor:  spec.Pos{File: "a,b:c.tools.yaml", Line: 4, Col: 5},
		Message: "50% of x, y: z\nnext",
	}
	var b bytes.Buffer
	if err := WriteGitHub(&b, []Finding{f}, DefaultFailOn); err != nil {
		t.Fatal(err)
	}
	want := "::error file=a%2Cb%3Ac.tools.yaml,line=4,col=5,title=PARAM_REMOVED (breaking go-api%2C model)::50%25 of x, y: z%0Anext (was at line 9 of the old spec)\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}

// TestSameSpecNoFindings compares every spec of the repository and of the
// golden cases with itself: nothing changed, nothing found.
func TestSameSpecNoFindings(t *testing.T) {
	var paths []string
	for _, pat := range []string{"../../*/*/*.tools.yaml", "../../*/*/*/*.tools.yaml", "testdata/*/*/*.tools.yaml"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	if len(paths) < 60 {
		t.Fatalf("found only %d specs: %q", len(paths), paths)
	}
	compared := 0
	for _, p := range paths {
		if strings.Contains(filepath.ToSlash(p), "/spec/testdata/") || strings.Contains(filepath.ToSlash(p), "/gen/testdata/") {
			continue
		}
		a, err := spec.Load(p)
		if err != nil {
			continue // a negative case of another package
		}
		b, _ := spec.Load(p)
		compared++
		if fs := Compare(Pair{a, b}); len(fs) > 0 {
			t.Errorf("%s compared with itself: %v", p, fs)
		}
	}
	if compared < 100 {
		t.Errorf("only %d specs loaded", compared)
	}
}

func TestValuesAndMultiples(t *testing.T) {
	if !sameValue(int64(10), 10.0) || sameValue(int64(10), "10") || !sameValue([]any{"a", int64(1)}, []any{"a", 1.0}) {
		t.Error("sameValue")
	}
	if got := enumDiff([]any{int64(1), int64(2)}, []any{1.0, 3.0}); len(got) != 1 || got[0] != int64(2) {
		t.Errorf("enumDiff = %v", got)
	}
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		o, n *float64
		want int
	}{
		{f(0.1), f(0.01), -1}, // every multiple of 0.1 is one of 0.01
		{f(0.01), f(0.1), 1},
		{f(4), f(2), -1},
		{f(2), f(3), 1},
		{nil, f(2), 1},
		{f(2), nil, -1},
		{f(2), f(2), 0},
	} {
		if got := multipleOf(tc.o, tc.n); got != tc.want {
			t.Errorf("multipleOf(%v, %v) = %d, want %d", optNum(tc.o), optNum(tc.n), got, tc.want)
		}
	}
}
