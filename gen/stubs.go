package gen

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	gobuild "go/build"
	"go/format"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/spec"
	"github.com/toolgen/toolgen/templates"
)

// pkgScan is what toolgen learns from the Go files of a package directory
// before it writes stubs: which type implements the executor interface and
// which of its methods already exist.
type pkgScan struct {
	impl      string // the implementation type's name
	implDecl  bool   // the type is declared somewhere in the package
	asserted  bool   // `var _ Executor = (*T)(nil)` (or similar) exists
	valueRecv bool   // the assertion uses a value, so methods need value receivers
	recv      string // the receiver name the type's methods use most
	methods   map[string]scannedMethod
	// declared holds the package-level names the package's files declare
	// (the generated file's too, once Generate adds them); dotImport is set
	// when a file dot-imports a package, whose names toolgen cannot know.
	declared  map[string]bool
	dotImport bool
	// pending gives the generated file's source (nil if there is none),
	// whose names are added to declared only when a check needs them
	// (declarePending): parsing several megabytes of generated Go is a
	// good part of generating a large spec, and only a method left over
	// from a removed tool needs it.
	pending func() []byte
}

// scannedMethod is a method of the implementation type found in the package.
type scannedMethod struct {
	name      string
	pos       token.Position
	decl      *ast.FuncDecl
	generated bool // found in a generated file
}

// scanPackage parses the Go files of dir that belong to the package as the
// go command would build it here (no _test.go files, build constraints
// honoured), except skip (the generated file about to be replaced). A file
// that does not parse, or that declares another package than pkg, is a
// located error: toolgen cannot tell which methods exist without it.
func scanPackage(dir, pkg string, skip string) (*pkgScan, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("gen: reading the package directory: %w", err)
	}
	fset := token.NewFileSet()
	type parsed struct {
		path string
		file *ast.File
	}
	var files []parsed
	var errs spec.ErrorList
	bctx := gobuild.Default
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		path := filepath.Join(dir, name)
		if samePath(path, skip) {
			continue
		}
		if ok, err := bctx.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("gen: %w", err)
		}
		file, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			errs = append(errs, stubsScanErrors(path, err)...)
			continue
		}
		if file.Name.Name != pkg {
			p := fset.Position(file.Name.Pos())
			errs = append(errs, &spec.Error{
				Pos: spec.Pos{File: path, Line: p.Line, Col: p.Column},
				Msg: fmt.Sprintf("package %s, but the spec generates package %s here; rename one of them (the spec's `package:` key sets the generated one)", file.Name.Name, pkg),
			})
			continue
		}
		files = append(files, parsed{path, file})
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}

	sc := &pkgScan{impl: DefaultImplName, methods: map[string]scannedMethod{}, declared: map[string]bool{}}
	for _, pf := range files {
		sc.declare(pf.file)
	}
	// The implementation type is the one asserted to implement the
	// interface; without an assertion, the default name.
findAssert:
	for _, pf := range files {
		for _, d := range pf.file.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != InterfaceName || len(vs.Values) != 1 {
					continue
				}
				if name, value := stubsAssertedType(vs.Values[0]); name != "" {
					sc.impl, sc.asserted, sc.valueRecv = name, true, value
					break findAssert
				}
			}
		}
	}
	recvs := map[string]int{}
	for _, pf := range files {
		gen := ast.IsGenerated(pf.file)
		for _, d := range pf.file.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				if d.Tok != token.TYPE {
					continue
				}
				for _, s := range d.Specs {
					if s.(*ast.TypeSpec).Name.Name == sc.impl {
						sc.implDecl = true
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) != 1 || stubsRecvType(d.Recv.List[0].Type) != sc.impl {
					continue
				}
				if names := d.Recv.List[0].Names; len(names) == 1 && names[0].Name != "_" {
					recvs[names[0].Name]++
				}
				if _, dup := sc.methods[d.Name.Name]; !dup {
					sc.methods[d.Name.Name] = scannedMethod{
						name: d.Name.Name, pos: fset.Position(d.Pos()), decl: d, generated: gen,
					}
				}
			}
		}
	}
	sc.recv = "t"
	best := 0
	for name, n := range recvs {
		if n > best || (n == best && name < sc.recv) {
			sc.recv, best = name, n
		}
	}
	if sc.recv == "ctx" || sc.recv == "call" || sc.recv == "args" {
		sc.recv = "t"
	}
	return sc, nil
}

// declare records the package-level names file declares, and whether it
// dot-imports a package.
func (sc *pkgScan) declare(file *ast.File) {
	for _, is := range file.Imports {
		if is.Name != nil && is.Name.Name == "." {
			sc.dotImport = true
		}
	}
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				sc.declared[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					sc.declared[s.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range s.Names {
						sc.declared[n.Name] = true
					}
				}
			}
		}
	}
}

// declareGenerated records that the generated file, about to replace the
// one scanPackage skipped, declares names too: src gives its source (it
// may wait for it) when declarePending needs them.
func (sc *pkgScan) declareGenerated(src func() []byte) {
	sc.pending = src
}

// declarePending records the names of the generated file given to
// declareGenerated, once.
func (sc *pkgScan) declarePending() error {
	if sc.pending == nil {
		return nil
	}
	src := sc.pending()
	sc.pending = nil
	if src == nil {
		return nil // no code: Generate reports why
	}
	file, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return fmt.Errorf("gen: reading the generated code: %w", err)
	}
	sc.declare(file)
	return nil
}

// undeclared lists, in order and once each, the names fd's parameters and
// results use unqualified that nothing declares: not the package (with
// the new generated file), not the language, not the receiver's type
// parameters. A method using one keeps the package from building. Nil when
// a dot import makes that unknowable.
func (sc *pkgScan) undeclared(fd *ast.FuncDecl) []string {
	if sc.dotImport {
		return nil
	}
	known := map[string]bool{}
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		ast.Inspect(fd.Recv.List[0].Type, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				known[id.Name] = true
			}
			return true
		})
	}
	var out []string
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			// Its names are parameter or field names, not uses.
			ast.Inspect(n.Type, visit)
			return false
		case *ast.SelectorExpr:
			return false // pkg.Name: declared in another package
		case *ast.Ident:
			name := n.Name
			if name != "_" && !known[name] && !sc.declared[name] && types.Universe.Lookup(name) == nil {
				known[name] = true
				out = append(out, name)
			}
		}
		return true
	}
	for _, fl := range []*ast.FieldList{fd.Type.Params, fd.Type.Results} {
		if fl != nil {
			ast.Inspect(fl, visit)
		}
	}
	return out
}

// stubsScanErrors turns a go/parser error into located errors.
func stubsScanErrors(path string, err error) spec.ErrorList {
	var list scanner.ErrorList
	if errors.As(err, &list) {
		out := make(spec.ErrorList, 0, len(list))
		for _, e := range list {
			out = append(out, &spec.Error{
				Pos: spec.Pos{File: e.Pos.Filename, Line: e.Pos.Line, Col: e.Pos.Column},
				Msg: e.Msg + " (toolgen reads this file to find the executor methods you wrote)",
			})
		}
		return out
	}
	return spec.ErrorList{{Pos: spec.Pos{File: path}, Msg: err.Error()}}
}

// stubsAssertedType recognises the value of an interface assertion:
// (*T)(nil), &T{}, new(T) (pointer receivers) or T{} (value receivers).
func stubsAssertedType(e ast.Expr) (name string, value bool) {
	switch e := e.(type) {
	case *ast.CallExpr:
		if p, ok := e.Fun.(*ast.ParenExpr); ok {
			if s, ok := p.X.(*ast.StarExpr); ok {
				if id, ok := s.X.(*ast.Ident); ok {
					return id.Name, false
				}
			}
		}
		if id, ok := e.Fun.(*ast.Ident); ok && id.Name == "new" && len(e.Args) == 1 {
			if t, ok := e.Args[0].(*ast.Ident); ok {
				return t.Name, false
			}
		}
	case *ast.UnaryExpr:
		if cl, ok := e.X.(*ast.CompositeLit); ok && e.Op == token.AND {
			if id, ok := cl.Type.(*ast.Ident); ok {
				return id.Name, false
			}
		}
	case *ast.CompositeLit:
		if id, ok := e.Type.(*ast.Ident); ok {
			return id.Name, true
		}
	}
	return "", false
}

// stubsRecvType is the type name of a method receiver (T or *T).
func stubsRecvType(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// stubsExecutorShaped reports whether a method looks like one toolgen asked
// for: exported, and taking a pointer to an ...Args type of the package, as
// every Executor method does. Helpers (unexported, or without such a
// parameter) are left alone.
func stubsExecutorShaped(fd *ast.FuncDecl) bool {
	if !fd.Name.IsExported() {
		return false
	}
	for _, f := range fd.Type.Params.List {
		if s, ok := f.Type.(*ast.StarExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok && strings.HasSuffix(id.Name, "Args") {
				return true
			}
		}
	}
	return false
}

// stubsResult is the stubs file Generate wants, and what it noticed.
type stubsResult struct {
	content  []byte   // nil: no stubs file is needed
	added    []string // methods whose stubs content adds
	warnings []string
	breaks   []string // the warnings that mean the package will not build
}

// stubsFor computes the stubs file at path: its current content (or, for a
// new file, a header) followed by a stub for every executor method that
// exists nowhere in the package. Nothing the developer wrote is changed:
// stubs and any missing imports are inserted as text, and the file is
// gofmt'd only when it already was.
func stubsFor(f *spec.File, pkg, path string, methods []Method, sc *pkgScan) (*stubsResult, error) {
	res := &stubsResult{}
	want := map[string]bool{}
	var missing []Method
	for _, m := range methods {
		want[m.Name] = true
		if _, ok := sc.methods[m.Name]; !ok {
			missing = append(missing, m)
			res.added = append(res.added, m.Name)
		}
	}
	var left []scannedMethod
	for name, m := range sc.methods {
		if !want[name] && !m.generated && stubsExecutorShaped(m.decl) {
			left = append(left, m)
		}
	}
	slices.SortFunc(left, func(a, b scannedMethod) int {
		return strings.Compare(fmt.Sprintf("%s:%09d", a.pos.Filename, a.pos.Line), fmt.Sprintf("%s:%09d", b.pos.Filename, b.pos.Line))
	})
	if len(left) > 0 {
		if err := sc.declarePending(); err != nil {
			return nil, err
		}
	}
	for _, m := range left {
		// A method that uses a type the generated file no longer declares
		// (the removed tool's Args) breaks the build; one that does not
		// can wait.
		then := "delete it when you are done with it"
		gone := sc.undeclared(m.decl)
		if len(gone) > 0 {
			then = "the package will not build until you delete it or its use of " + andList(gone)
		}
		w := fmt.Sprintf(
			"%s:%d: method %s.%s is no longer part of the %s interface (tool removed from the spec?); %s",
			m.pos.Filename, m.pos.Line, sc.impl, m.name, InterfaceName, then)
		res.warnings = append(res.warnings, w)
		if len(gone) > 0 {
			res.breaks = append(res.breaks, w)
		}
	}

	existing, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		existing = nil
	case err != nil:
		return nil, fmt.Errorf("gen: %w", err)
	}
	if len(missing) == 0 && sc.implDecl && sc.asserted {
		res.content = existing
		return res, nil
	}

	var imports []stubsImport
	var fset *token.FileSet
	var file *ast.File
	if existing != nil {
		fset = token.NewFileSet()
		file, err = parser.ParseFile(fset, path, existing, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, stubsScanErrors(path, err)
		}
		for _, is := range file.Imports {
			p, _ := strconv.Unquote(is.Path.Value)
			imp := stubsImport{path: p, name: stubsGuessName(p)}
			if is.Name != nil {
				imp.name, imp.explicit = is.Name.Name, true
			}
			imports = append(imports, imp)
		}
	}

	// Render the new declarations in a file whose import names agree with
	// the existing file's; re-render while a new import's name is taken.
	hints := map[string]string{}
	for _, imp := range imports {
		if imp.explicit && imp.name != "_" && imp.name != "." {
			hints[imp.path] = imp.name
		}
	}
	var rendered []byte
	var newImports []stubsImport
	for attempt := 0; ; attempt++ {
		// A new file is formatted once, whole, below: render it unformatted.
		rendered, err = stubsRender(f, pkg, sc, missing, hints, existing == nil)
		if err != nil {
			return nil, err
		}
		rf, err := parser.ParseFile(token.NewFileSet(), "", rendered, parser.ImportsOnly)
		if err != nil {
			return nil, fmt.Errorf("gen: rendering stubs: %w", err)
		}
		newImports = nil
		retry := false
		for _, is := range rf.Imports {
			p, _ := strconv.Unquote(is.Path.Value)
			imp := stubsImport{path: p, name: stubsGuessName(p)}
			if is.Name != nil {
				imp.name, imp.explicit = is.Name.Name, true
			}
			if slices.ContainsFunc(imports, func(e stubsImport) bool { return e.path == p }) {
				continue
			}
			if slices.ContainsFunc(imports, func(e stubsImport) bool { return e.name == imp.name }) {
				hints[p] = stubsUniqueName(imp.name, imports)
				retry = true
			}
			newImports = append(newImports, imp)
		}
		if !retry {
			break
		}
		if attempt == 3 {
			return nil, fmt.Errorf("gen: %s: cannot find free import names for the stubs", path)
		}
	}

	if existing == nil {
		if len(hints) == 0 && !stubsViaJen {
			res.content, err = newStubsText(f, pkg, sc, missing)
		} else {
			res.content, err = newStubsFile(f, sc, rendered)
		}
		if err != nil {
			return nil, err
		}
		return res, nil
	}

	// Append to the existing file: the declarations after the rendered
	// file's imports, and the imports they need that the file lacks.
	decls := stubsAfterImports(rendered)
	out := stubsAddImports(existing, fset, file, newImports)
	if !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	out = append(out, '\n')
	out = append(out, decls...)
	if formatted, err := format.Source(existing); err == nil && bytes.Equal(formatted, existing) {
		if out, err = format.Source(out); err != nil {
			return nil, fmt.Errorf("gen: formatting %s after adding stubs: %w", path, err)
		}
	}
	res.content = out
	return res, nil
}

// newStubsFile is a new stubs file: the header, then the declarations
// stubsRender rendered, gofmt'd (once: rendered may be unformatted).
func newStubsFile(f *spec.File, sc *pkgScan, rendered []byte) ([]byte, error) {
	t, err := templates.Parse(templates.StubsHeader, nil)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	err = t.Execute(&buf, map[string]string{
		"Spec": filepath.Base(f.Path), "Impl": sc.impl, "Interface": InterfaceName,
	})
	if err != nil {
		return nil, fmt.Errorf("gen: rendering the stubs header: %w", err)
	}
	buf.WriteByte('\n')
	buf.Write(stubsGroupImports(rendered))
	out, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gen: formatting stubs: %w", err)
	}
	return out, nil
}

// stubsViaJen makes a new stubs file be rendered and formatted by
// newStubsFile even when newStubsText can write it (tests compare).
var stubsViaJen = false

// newStubsText is what newStubsFile makes of stubsRender's declarations,
// written directly as gofmt'd text: formatting a large spec's stubs was a
// good part of generating it. TestStubsTextMatchesFormat compares the two.
func newStubsText(f *spec.File, pkg string, sc *pkgScan, missing []Method) ([]byte, error) {
	t, err := templates.Parse(templates.StubsHeader, nil)
	if err != nil {
		return nil, err
	}
	var header bytes.Buffer
	err = t.Execute(&header, map[string]string{
		"Spec": filepath.Base(f.Path), "Impl": sc.impl, "Interface": InterfaceName,
	})
	if err != nil {
		return nil, fmt.Errorf("gen: rendering the stubs header: %w", err)
	}
	w := newRawWriter()
	doc := func(text string) {
		var lines []string
		for _, l := range stubsWrap(text) {
			lines = append(lines, strings.TrimRightFunc(commentText.Replace("// "+l), unicode.IsSpace))
		}
		if !plainDoc(lines) {
			lines = formatDoc(lines)
		}
		for _, l := range lines {
			w.str(l, "\n")
		}
	}
	var decls []string
	if !sc.implDecl {
		doc(fmt.Sprintf("%s implements %s, the tools of %s. Give it the fields your tools need (clients, stores, configuration).",
			sc.impl, InterfaceName, filepath.Base(f.Path)))
		w.str("type ", sc.impl, " struct{}\n")
		decls = append(decls, string(w.b))
		w.b = w.b[:0]
	}
	if !sc.asserted {
		if sc.valueRecv {
			decls = append(decls, "var _ "+InterfaceName+" = "+sc.impl+"{}\n")
		} else {
			decls = append(decls, "var _ "+InterfaceName+" = (*"+sc.impl+")(nil)\n")
		}
	}
	recv := sc.recv + " *" + sc.impl
	if sc.valueRecv {
		recv = sc.recv + " " + sc.impl
	}
	var uses string
	for _, m := range missing {
		doc(m.Doc)
		w.str("func (", recv, ") ", m.Name, m.sig, " {\n\t", m.zero, "\n}\n")
		decls = append(decls, string(w.b))
		w.b = w.b[:0]
		uses += m.sig + m.zero
	}
	var std, other []string
	for _, p := range []string{"context", "errors"} {
		if strings.Contains(uses, p+".") {
			std = append(std, strconv.Quote(p))
		}
	}
	if strings.Contains(uses, "runtime.") {
		other = append(other, strconv.Quote(runtimePkg))
	}
	var out bytes.Buffer
	out.Write(header.Bytes())
	out.WriteString("\npackage " + pkg + "\n\n")
	switch imports := append(append([]string(nil), std...), other...); len(imports) {
	case 0:
	case 1:
		out.WriteString("import " + imports[0] + "\n\n")
	default:
		out.WriteString("import (\n")
		for _, l := range std {
			out.WriteString("\t" + l + "\n")
		}
		if len(std) > 0 && len(other) > 0 {
			out.WriteString("\n")
		}
		for _, l := range other {
			out.WriteString("\t" + l + "\n")
		}
		out.WriteString(")\n\n")
	}
	out.WriteString(strings.Join(decls, "\n"))
	return out.Bytes(), nil
}

// stubsImport is an import of a Go file: its path and the name it is used by.
type stubsImport struct {
	path     string
	name     string
	explicit bool // the name is written in the import
}

// stubsGuessName is the package name an import path most likely has: its
// last element, without a ".vN" or "go-" decoration, or the element before a
// "/vN" major version.
func stubsGuessName(path string) string {
	elems := strings.Split(path, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = elems[len(elems)-2]
	}
	if i := strings.Index(last, ".v"); i > 0 {
		last = last[:i]
	}
	last = strings.TrimPrefix(last, "go-")
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '.' {
			return -1
		}
		return r
	}, last)
}

func stubsUniqueName(name string, taken []stubsImport) string {
	for i := 0; ; i++ {
		cand := "toolgen" + name
		if i > 0 {
			cand += strconv.Itoa(i)
		}
		if !slices.ContainsFunc(taken, func(e stubsImport) bool { return e.name == cand }) {
			return cand
		}
	}
}

// stubsRender renders, as a complete Go file, the declarations a stubs file
// lacks: the implementation type, its interface assertion and the stubs of
// the missing methods. hints maps import paths to the names to use. The
// file is gofmt'd unless raw.
func stubsRender(f *spec.File, pkg string, sc *pkgScan, missing []Method, hints map[string]string, raw bool) ([]byte, error) {
	jf := jen.NewFile(pkg)
	jf.NoFormat = raw
	jf.ImportName(runtimePkg, "runtime")
	for p, name := range hints {
		jf.ImportAlias(p, name)
	}
	if !sc.implDecl {
		for _, l := range stubsWrap(fmt.Sprintf(
			"%s implements %s, the tools of %s. Give it the fields your tools need (clients, stores, configuration).",
			sc.impl, InterfaceName, filepath.Base(f.Path))) {
			jf.Comment(strings.TrimRightFunc("// "+l, unicode.IsSpace)) // "// " written out: jennifer prints a line starting with "//" as it is
		}
		jf.Type().Id(sc.impl).Struct()
		jf.Line()
	}
	if !sc.asserted {
		if sc.valueRecv {
			jf.Var().Id("_").Id(InterfaceName).Op("=").Id(sc.impl).Values()
		} else {
			jf.Var().Id("_").Id(InterfaceName).Op("=").Parens(jen.Op("*").Id(sc.impl)).Parens(jen.Nil())
		}
		jf.Line()
	}
	for _, m := range missing {
		for _, l := range stubsWrap(m.Doc) {
			jf.Comment(strings.TrimRightFunc("// "+l, unicode.IsSpace)) // "// " written out: jennifer prints a line starting with "//" as it is
		}
		recv := jen.Id(sc.recv).Op("*").Id(sc.impl)
		if sc.valueRecv {
			recv = jen.Id(sc.recv).Id(sc.impl)
		}
		fn := jf.Func().Params(recv).Id(m.Name).Params(m.Params...)
		if len(m.Results) == 1 {
			fn.Add(m.Results[0])
		} else {
			fn.Params(m.Results...)
		}
		fn.Block(m.Zero)
		jf.Line()
	}
	var buf bytes.Buffer
	if err := jf.Render(&buf); err != nil {
		return nil, fmt.Errorf("gen: rendering stubs: %w", err)
	}
	return buf.Bytes(), nil
}

// stubsAfterImports returns the source after a file's package clause and
// imports.
func stubsAfterImports(src []byte) []byte {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return src
	}
	end := file.Name.End()
	for _, d := range file.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			end = gd.End()
		}
	}
	return bytes.TrimLeft(src[fset.Position(end).Offset:], "\n")
}

// stubsAddImports inserts imports into src as text: into its first
// parenthesised import declaration (a standard library import after the
// last standard library import there, so that it joins their group), else
// after its last import, else after the package clause. The rest of src is
// untouched.
func stubsAddImports(src []byte, fset *token.FileSet, file *ast.File, add []stubsImport) []byte {
	if len(add) == 0 {
		return slices.Clone(src)
	}
	line := func(imp stubsImport) string {
		if imp.explicit {
			return "\t" + imp.name + " " + strconv.Quote(imp.path) + "\n"
		}
		return "\t" + strconv.Quote(imp.path) + "\n"
	}
	offset := func(p token.Pos) int { return fset.Position(p).Offset }
	var last *ast.GenDecl
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		if !gd.Lparen.IsValid() {
			last = gd
			continue
		}
		// Insertion points: the end of the line of the last standard
		// library import (if any), and the closing parenthesis.
		type insert struct {
			at   int
			text string
		}
		end := offset(gd.Rparen)
		stdAt := -1
		for _, sp := range gd.Specs {
			p, _ := strconv.Unquote(sp.(*ast.ImportSpec).Path.Value)
			if stubsIsStd(p) {
				stdAt = offset(sp.End())
				if i := bytes.IndexByte(src[stdAt:end], '\n'); i >= 0 {
					stdAt += i + 1
				} else {
					stdAt = -1
				}
			}
		}
		var ins []insert
		for _, imp := range add {
			at := end
			if stubsIsStd(imp.path) && stdAt >= 0 {
				at = stdAt
			}
			ins = append(ins, insert{at, line(imp)})
		}
		// Apply from the end so offsets stay valid; keep add's order at
		// one point.
		slices.SortStableFunc(ins, func(a, b insert) int { return b.at - a.at })
		out := slices.Clone(src)
		for i := 0; i < len(ins); {
			j := i
			var text string
			if ins[i].at == end && end > 0 && src[end-1] != '\n' {
				text = "\n" // import ("a")
			}
			for j < len(ins) && ins[j].at == ins[i].at {
				text += ins[j].text
				j++
			}
			out = slices.Concat(out[:ins[i].at], []byte(text), out[ins[i].at:])
			i = j
		}
		return out
	}
	at := offset(file.Name.End())
	if last != nil {
		at = offset(last.End())
	}
	var std, other strings.Builder
	for _, imp := range add {
		if stubsIsStd(imp.path) {
			std.WriteString(line(imp))
		} else {
			other.WriteString(line(imp))
		}
	}
	lines := std.String()
	if std.Len() > 0 && other.Len() > 0 {
		lines += "\n"
	}
	block := "\n\nimport (\n" + lines + other.String() + ")"
	return slices.Concat(src[:at], []byte(block), src[at:])
}

// stubsIsStd reports whether an import path is in the standard library
// (its first element has no dot).
func stubsIsStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// stubsGroupImports rewrites the parenthesised import block of a rendered
// file as two groups, standard library first.
func stubsGroupImports(src []byte) []byte {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "", src, parser.ImportsOnly)
	if err != nil {
		return src
	}
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT || !gd.Lparen.IsValid() {
			continue
		}
		var std, other []string
		for _, sp := range gd.Specs {
			is := sp.(*ast.ImportSpec)
			text := string(src[fset.Position(is.Pos()).Offset:fset.Position(is.End()).Offset])
			p, _ := strconv.Unquote(is.Path.Value)
			if stubsIsStd(p) {
				std = append(std, "\t"+text+"\n")
			} else {
				other = append(other, "\t"+text+"\n")
			}
		}
		body := strings.Join(std, "")
		if len(std) > 0 && len(other) > 0 {
			body += "\n"
		}
		body += strings.Join(other, "")
		lp, rp := fset.Position(gd.Lparen).Offset, fset.Position(gd.Rparen).Offset
		return slices.Concat(src[:lp+1], []byte("\n"+body), src[rp:])
	}
	return src
}

// stubsWrap splits a doc comment's text into lines of at most about 76
// columns, keeping its own line breaks.
func stubsWrap(text string) []string {
	var out []string
	for _, para := range strings.Split(strings.TrimSpace(text), "\n") {
		out = append(out, wrap(para, 76)...)
	}
	return out
}

// samePath reports whether a and b name the same file.
func samePath(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// andList joins "a", "b", "c" as "a, b and c".
func andList(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
