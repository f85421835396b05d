package gen

import (
	"bytes"
	"errors"
	"path"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"github.com/dave/jennifer/jen"
)

// Rendering: jennifer writes Go source and gofmt's it (go/format), which is
// most of what generating a large spec costs. A file's sections (the module
// wiring, one per tool, the named types) are independent declarations, so
// they are rendered and formatted in chunks, in parallel, and joined: gofmt
// formats each top-level declaration on its own, and the chunks' imports are
// merged into one block, so the bytes are those of rendering the whole file
// at once (TestRenderChunked holds it to that).

// chunkSections is how many sections one chunk renders. It is fixed, not
// derived from the machine, so that the output never depends on the number
// of CPUs.
var chunkSections = 32

// render renders sections as one file of package pkg under the header
// comment, chunk sections at a time.
func render(pkg, header string, sections [][]jen.Code, chunk int) ([]byte, error) {
	r := newRenderer(pkg, header, chunk, nil)
	for _, sec := range sections {
		r.add(sec)
	}
	return r.finish()
}

// renderer renders a file whose sections come one by one: each chunk is
// rendered as soon as the section after it arrives, while the caller goes
// on building the next ones. The chunks are those render would cut from
// the whole list, so the bytes are the same.
type renderer struct {
	pkg, header string
	chunk       int
	sections    [][]jen.Code
	chunks      []*renderedChunk // those started, in order
	wg          sync.WaitGroup
	sem         chan struct{}
	// raws holds the declarations written as text (raw.go) whose
	// placeholders the sections hold; nil when there are none.
	raws *rawStore
}

// renderedChunk is a chunk's formatted source, or why it failed; its
// goroutine writes it before the renderer's wait returns, split into its
// head, import lines and body, with the raw declarations spliced into the
// body (parts).
type renderedChunk struct {
	src []byte
	err error
	parts
}

// parts are a formatted file split by splitFile (ok: it could be), its
// body with the raw declarations spliced in, and the import paths those
// use.
type parts struct {
	head    []byte
	imports [][]byte
	body    []byte
	paths   []string
	left    string // a placeholder line splice left (leftPlaceholder)
	ok      bool
}

// split splits the formatted file src of the renderer and splices its raw
// declarations in.
func (r *renderer) split(src []byte) parts {
	var p parts
	p.head, p.imports, p.body, p.ok = splitFile(src, r.pkg)
	if p.ok {
		p.body, p.paths = r.raws.splice(p.body)
		if !r.raws.empty() {
			p.left = leftPlaceholder(p.body)
		}
	}
	return p
}

func newRenderer(pkg, header string, chunk int, raws *rawStore) *renderer {
	return &renderer{pkg: pkg, header: header, chunk: chunk, sem: make(chan struct{}, runtime.GOMAXPROCS(0)), raws: raws}
}

// newFile is a jennifer file of the renderer's package holding codes, with
// the header comment when it is the first.
func (r *renderer) newFile(codes [][]jen.Code, first bool) *jen.File {
	f := jen.NewFile(r.pkg)
	if first {
		f.HeaderComment(r.header)
	}
	f.ImportName(runtimePkg, "runtime")
	f.ImportName(wirePkg, "wire")
	f.ImportName(httpapiPkg, "httpapi")
	for _, sec := range codes {
		for _, c := range sec {
			f.Add(c)
		}
	}
	return f
}

// add appends a section, which must not change afterwards. A chunk is
// started only once a section follows it, so that a file of at most one
// chunk is rendered whole, as render does.
func (r *renderer) add(sec []jen.Code) {
	r.sections = append(r.sections, sec)
	if r.chunk > 0 && len(r.sections)%r.chunk == 1 && len(r.sections) > r.chunk {
		r.start(len(r.chunks))
	}
}

// start renders chunk i in the background.
func (r *renderer) start(i int) {
	c := &renderedChunk{}
	r.chunks = append(r.chunks, c)
	part := r.sections[i*r.chunk : min((i+1)*r.chunk, len(r.sections))]
	r.wg.Go(func() {
		r.sem <- struct{}{}
		defer func() { <-r.sem }()
		var buf bytes.Buffer
		c.err = r.newFile(part, i == 0).Render(&buf)
		c.src = buf.Bytes()
		if c.err == nil {
			c.parts = r.split(c.src)
		}
	})
}

// discard waits for the chunks started, when the file is not wanted after
// all.
func (r *renderer) discard() { r.wg.Wait() }

// finish renders what is left and returns the file.
func (r *renderer) finish() ([]byte, error) {
	sections := r.sections
	whole := func() ([]byte, error) {
		var buf bytes.Buffer
		if err := r.newFile(sections, true).Render(&buf); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	if r.chunk <= 0 || len(sections) <= r.chunk {
		src, err := whole()
		if err != nil || r.raws.empty() {
			return src, err
		}
		return r.join([]parts{r.split(src)}, whole)
	}
	n := (len(sections) + r.chunk - 1) / r.chunk
	for len(r.chunks) < n {
		r.start(len(r.chunks))
	}
	r.wg.Wait()
	out := make([]parts, n)
	errs := make([]error, n)
	for i, c := range r.chunks {
		out[i], errs[i] = c.parts, c.err
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return r.join(out, whole)
}

// join joins formatted chunks into one file: the first chunk's head, one
// import block merging theirs and those of the raw declarations spliced
// into their bodies, and the bodies. When the chunks cannot be joined
// (their imports clash) it renders the file whole instead; a file with raw
// declarations must join (raw.go keeps them to names that cannot clash).
func (r *renderer) join(out []parts, whole func() ([]byte, error)) ([]byte, error) {
	fallback := func(why string) ([]byte, error) {
		if !r.raws.empty() {
			return nil, errors.New("internal error: the raw declarations cannot be joined: " + why)
		}
		return whole()
	}
	// Split each chunk into its head (up to the package clause), imports
	// and body; merge the imports.
	imports := map[string]string{} // path → its line in the import block
	names := map[string]string{}   // package name → path
	addImport := func(l string) string {
		p, name, ok := importOf([]byte(l))
		if !ok {
			return "an import line " + l
		}
		if prev, seen := imports[p]; seen {
			if prev != l {
				return "one path imported under two names: " + p // a raw one and a jennifer one
			}
			return ""
		}
		if other, clash := names[name]; clash && other != p {
			return "two paths under one name: " + name // jennifer would rename one
		}
		imports[p], names[name] = l, p
		return ""
	}
	var head []byte
	bodies := make([][]byte, len(out))
	for i, c := range out {
		if !c.ok {
			return fallback("a chunk without its package clause")
		}
		if c.left != "" {
			return nil, errors.New("internal error: a raw declaration's placeholder was not replaced: " + strconv.Quote(c.left))
		}
		if i == 0 {
			head = c.head
		}
		for _, line := range c.imports {
			if why := addImport(string(line)); why != "" {
				return fallback(why)
			}
		}
		for _, p := range c.paths {
			if why := addImport(importLine(p)); why != "" {
				return fallback(why)
			}
		}
		bodies[i] = c.body
	}

	var buf bytes.Buffer
	size := len(head) + len(bodies) + len("import (\n)\n\n")
	for p, l := range imports {
		size += len(p) + len(l) + 2
	}
	for _, b := range bodies {
		size += len(b)
	}
	buf.Grow(size)
	buf.Write(head)
	paths := make([]string, 0, len(imports))
	for p := range imports {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	switch len(paths) {
	case 0:
	case 1:
		buf.WriteString("import " + imports[paths[0]] + "\n\n")
	default:
		// The standard library's imports first, then a blank line and
		// the others, as groupImports (and goimports) write them.
		buf.WriteString("import (\n")
		std := 0
		for _, p := range paths {
			if isStd(p) {
				buf.WriteString("\t" + imports[p] + "\n")
				std++
			}
		}
		if std > 0 && std < len(paths) {
			buf.WriteByte('\n')
		}
		for _, p := range paths {
			if !isStd(p) {
				buf.WriteString("\t" + imports[p] + "\n")
			}
		}
		buf.WriteString(")\n\n")
	}
	for i, b := range bodies {
		if i > 0 {
			buf.WriteByte('\n')
		}
		buf.Write(b)
	}
	return buf.Bytes(), nil
}

// splitFile splits a formatted file into its head (everything up to and
// including the package clause and the blank line after it), the lines of
// its import declaration (without indentation) and its body.
func splitFile(src []byte, pkg string) (head []byte, imports [][]byte, body []byte, ok bool) {
	clause := []byte("package " + pkg + "\n")
	i := bytes.Index(src, clause)
	if i < 0 || (i > 0 && src[i-1] != '\n') {
		return nil, nil, nil, false
	}
	head, rest := src[:i+len(clause)], src[i+len(clause):]
	rest = bytes.TrimLeft(rest, "\n")
	head = append(head[:len(head):len(head)], '\n')
	switch {
	case bytes.HasPrefix(rest, []byte("import (\n")):
		end := bytes.Index(rest, []byte("\n)\n"))
		if end < 0 {
			return nil, nil, nil, false
		}
		for _, l := range bytes.Split(rest[len("import (\n"):end], []byte("\n")) {
			if l = bytes.TrimSpace(l); len(l) > 0 {
				imports = append(imports, l)
			}
		}
		rest = rest[end+len("\n)\n"):]
	case bytes.HasPrefix(rest, []byte("import ")):
		end := bytes.IndexByte(rest, '\n')
		if end < 0 {
			return nil, nil, nil, false
		}
		imports = append(imports, bytes.TrimSpace(rest[len("import "):end]))
		rest = rest[end+1:]
	}
	return head, imports, bytes.TrimLeft(rest, "\n"), true
}

// importOf reads an import line, `"path"` or `name "path"`: its path and
// the name it is known by (for an unnamed import, the path's last element,
// which is the package name of every package generated code imports).
func importOf(line []byte) (p, name string, ok bool) {
	alias, quoted, found := bytes.Cut(line, []byte(" "))
	if !found {
		quoted, alias = line, nil
	}
	p, err := strconv.Unquote(string(quoted))
	if err != nil {
		return "", "", false
	}
	if alias != nil {
		return p, string(alias), true
	}
	return p, path.Base(p), true
}
