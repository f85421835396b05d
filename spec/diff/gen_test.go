package diff_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/gen"
	"github.com/toolgen/toolgen/spec"
	"github.com/toolgen/toolgen/spec/diff"
)

// goDecls reads the Go code gen generates for f: the type expression of
// every field of every generated struct ("AArgs.X" → "*string") and of
// every other generated type but the Executor interface ("Code" →
// "int64"), and every constant
// ("AX" or "AXA" for enum values).
func goDecls(t *testing.T, f *spec.File) (fields map[string]string, consts []string) {
	t.Helper()
	src, err := gen.Code(f)
	if err != nil {
		t.Fatalf("%s: gen.Code: %v", f.Path, err)
	}
	file, err := parser.ParseFile(token.NewFileSet(), f.Path+".go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	fields = map[string]string{}
	for _, d := range file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range g.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				if _, ok := s.Type.(*ast.InterfaceType); ok {
					continue // the Executor: its methods are the tools' (TOOL_ADDED, KIND_CHANGED, ...)
				}
				st, ok := s.Type.(*ast.StructType)
				if !ok {
					fields[s.Name.Name] = types.ExprString(s.Type)
					continue
				}
				for _, fl := range st.Fields.List {
					for _, n := range fl.Names {
						fields[s.Name.Name+"."+n.Name] = types.ExprString(fl.Type)
					}
				}
			case *ast.ValueSpec:
				if g.Tok == token.CONST {
					for _, n := range s.Names {
						consts = append(consts, n.Name)
					}
				}
			}
		}
	}
	return fields, consts
}

// TestGoAPIAgainstGen checks the Go API rules against the generator
// itself, for every golden case: the Go code gen writes for the old and
// the new spec differs in the type of a field or type they both have
// exactly as often as GO_TYPE_CHANGED reports it (result types aside:
// RESULT_CHANGED reports them as one), and a generated constant goes only
// where a go-api finding says something went.
func TestGoAPIAgainstGen(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("testdata", "*"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, dir := range cases {
		olds, _ := filepath.Glob(filepath.Join(dir, "old", "*.tools.yaml"))
		for _, op := range olds {
			np := filepath.Join(dir, "new", filepath.Base(op))
			o, err1 := spec.Load(op)
			n, err2 := spec.Load(np)
			if err1 != nil || err2 != nil {
				continue // a case with a file on one side only
			}
			checked++
			findings := diff.Compare(diff.Pair{Old: o, New: n})
			count := func(id string) int {
				return len(slices.DeleteFunc(slices.Clone(findings), func(f diff.Finding) bool { return f.Rule.ID != id }))
			}
			goAPI := slices.ContainsFunc(findings, func(f diff.Finding) bool { return f.Breaking() && f.Concerns(diff.GoAPI) })

			of, oc := goDecls(t, o)
			nf, nc := goDecls(t, n)
			var changed []string
			for k, ot := range of {
				if nt, ok := nf[k]; ok && nt != ot && !strings.Contains(strings.SplitN(k, ".", 2)[0], "Result") {
					changed = append(changed, k+": "+ot+" → "+nt)
				}
			}
			slices.Sort(changed)
			if got := count("GO_TYPE_CHANGED"); got != len(changed) {
				t.Errorf("%s: %d GO_TYPE_CHANGED findings, but the generated Go changes %d types: %q\nfindings: %v", dir, got, len(changed), changed, findings)
			}
			var gone []string
			for _, c := range oc {
				if !slices.Contains(nc, c) {
					gone = append(gone, c)
				}
			}
			if len(gone) > 0 && !goAPI {
				t.Errorf("%s: the generated constants %q go, but no go-api finding says so: %v", dir, gone, findings)
			}
		}
	}
	if checked < 40 {
		t.Errorf("only %d cases checked", checked)
	}
}
