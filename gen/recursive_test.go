package gen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	schemakind "github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// recursiveDriver decodes the arguments on each line of its input
// ("tool<TAB>json") with the generated decoders of the golden case
// recursive and prints the outcome as one JSON line; the lines "deep" and
// "cycle" check Validate of values built in Go instead, and "alloc<TAB>json"
// prints the bytes that decoding the arguments allocated.
const recursiveDriver = `package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	goruntime "runtime"
	"strings"

	"github.com/toolgen/toolgen/runtime"
)

type outcome struct {
	OK  bool                ` + "`json:\"ok\"`" + `
	Vs  []runtime.Violation ` + "`json:\"vs\"`" + `
	Val []runtime.Violation ` + "`json:\"val\"`" + `
	Out json.RawMessage     ` + "`json:\"out\"`" + `
}

func violations(err error) []runtime.Violation {
	if err == nil {
		return nil
	}
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) {
		panic(err)
	}
	return ve.Violations
}

func decode(tool string, data []byte) (any, error, error) {
	switch tool {
	case "outline_render":
		x, err := DecodeRenderArgs(data)
		return x, err, x.Validate()
	case "outline_count":
		x, err := DecodeCountArgs(data)
		return x, err, x.Validate()
	case "outline_eval":
		x, err := DecodeEvalArgs(data)
		return x, err, x.Validate()
	}
	panic("unknown tool " + tool)
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<26)
	enc := json.NewEncoder(os.Stdout)
	for sc.Scan() {
		tool, data, _ := strings.Cut(sc.Text(), "\t")
		switch tool {
		case "deep":
			// A list 100,000 sections long, built in Go.
			head := &Section{Title: "0"}
			for s, i := head, 1; i < 100000; i++ {
				s.Next = &Section{Title: fmt.Sprint(i)}
				s = s.Next
			}
			enc.Encode(outcome{Val: violations(head.Validate())})
			continue
		case "cycle":
			// A section that is its own next, twice in its notes: without
			// a bound on depth, Validate would never end.
			s := &Section{Title: ""}
			s.Next = s
			s.Notes = map[string]Section{"a": *s, "b": *s}
			enc.Encode(outcome{Val: violations(s.Validate())})
			continue
		case "alloc":
			var before, after goruntime.MemStats
			b := []byte(data)
			goruntime.GC()
			goruntime.ReadMemStats(&before)
			_, err := DecodeRenderArgs(b)
			goruntime.ReadMemStats(&after)
			fmt.Fprintln(os.Stdout, after.TotalAlloc-before.TotalAlloc)
			enc.Encode(outcome{Vs: violations(err)})
			continue
		}
		x, err, verr := decode(tool, []byte(data))
		o := outcome{OK: err == nil, Vs: violations(err)}
		if err == nil {
			o.Val = violations(verr)
			o.Out, _ = json.Marshal(x)
		}
		enc.Encode(o)
	}
}
`

type recursiveOutcome struct {
	OK  bool             `json:"ok"`
	Vs  []recViolation   `json:"vs"`
	Val []recViolation   `json:"val"`
	Out *json.RawMessage `json:"out"`
}

type recViolation struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (o recursiveOutcome) paths() []string {
	var ps []string
	for _, v := range o.Vs {
		ps = append(ps, v.Path)
	}
	slices.Sort(ps)
	return slices.Compact(ps)
}

// TestRecursiveEndToEnd builds the golden case recursive (a tree of
// sections through an array, an optional reference and a map; folders and
// entries referring to each other through a named array and a nullable
// reference) with a driver, and decodes valid and invalid trees with it,
// comparing each outcome with santhosh-tekuri/jsonschema v6 on the schema
// the tool publishes ($defs and $ref): the same verdict, and for a refused
// tree the same JSON paths, however deep in the tree the violation is.
// Accepted trees come back whole (encoding/json of the decoded value equals
// the input) and Validate agrees. Then the limits: a 100,000-deep document
// stops at wire.MaxDepth with one located violation and allocates less
// than its size; Validate of a 100,000-long list and of a cycle of
// pointers built in Go stops at the same depth.
func TestRecursiveEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	f := loadSpec(t, filepath.Join("testdata", "golden", "recursive", "recursive.tools.yaml"))
	f.Package = "main"
	src, err := Code(f)
	if err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp("testdata", "recursive-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	for name, text := range map[string][]byte{"outline_tools.gen.go": src, "main.go": []byte(recursiveDriver)} {
		if err := os.WriteFile(filepath.Join(tmp, name), text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(tmp, "driver")
	if out, err := exec.Command("go", "build", "-o", bin, "./"+filepath.ToSlash(tmp)).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	refs := map[string]*jsonschema.Schema{}
	for _, tl := range f.Tools {
		lit, err := SchemaJSON(tl.Params)
		if err != nil {
			t.Fatal(err)
		}
		refs[tl.Name] = compileRecursiveRef(t, string(lit))
	}

	type tcase struct{ tool, args string }
	render := func(args string) tcase { return tcase{"outline_render", args} }
	count := func(args string) tcase { return tcase{"outline_count", args} }
	eval := func(args string) tcase { return tcase{"outline_eval", args} }
	cases := []tcase{
		render(`{"root":{"title":"A"}}`),
		render(`{"root":{"title":"A","level":1,"tag":"draft","children":[{"title":"B","children":[{"title":"C","next":{"title":"D"}}]}],` +
			`"notes":{"n":{"title":"E","notes":{"m":{"title":"F"}}}}},"sections":[{"title":"S","next":{"title":"T"}}],` +
			`"tree":{"name":"root","entries":[{"file":"a.txt","folder":null},{"folder":{"name":"sub","entries":[{"folder":{"name":"deeper","entries":[]}}]}}]}}`),
		// One violation deep in the tree, of each kind.
		render(`{"root":{"title":"A","children":[{"title":"B","children":[{"title":""}]}]}}`),
		render(`{"root":{"title":"A","notes":{"n":{"title":"E","notes":{"m":{"title":"F","level":9}}}}}}`),
		render(`{"root":{"title":"A","next":{"title":"B","next":{"title":"C","bogus":1}}}}`),
		render(`{"root":{"title":"A","children":[{"title":"B"},{}]}}`),
		render(`{"root":{"title":"A","next":{"title":"B","tag":"wip"}}}`),
		render(`{"root":{"title":"A","children":[{"title":"B","children":[` + strings.Repeat(`{"title":"x"},`, 20) + `{"title":"y"}]}]}}`),
		render(`{"root":{"title":"A","next":"B"}}`),
		render(`{"root":{"title":"A","next":null}}`),
		render(`{"root":{"title":"A"},"tree":{"name":"a","entries":[{"folder":{"name":"b","entries":[{"folder":{"name":"BAD","entries":[]}}]}}]}}`),
		render(`{"root":{"title":"A"},"tree":{"name":"a","entries":[{"folder":{"name":"b","entries":[{"file":"x"}]}}]}}`),
		render(`{"root":{"title":"A"},"tree":{"name":"a","entries":[{"folder":"b"}]}}`),
		// Several at once, at different depths.
		render(`{"root":{"title":"","children":[{"title":"B","next":{"title":"C","level":0}}],"notes":{"k":{"title":"K","tag":"x"}}},` +
			`"sections":[{"title":"S","children":[{"level":3}]}],"tree":{"name":"a","entries":[{"folder":{"name":"Nope","entries":[{"file":"","folder":null}]}}]}}`),
		// Through a union: the JSON kind picks the alternative.
		eval(`{"expr":1.5}`),
		eval(`{"expr":{"op":"add","left":1,"right":{"op":"mul","left":[2,3],"right":4}}}`),
		eval(`{"expr":{"op":"add","left":1,"right":{"op":"sub","left":2,"right":3}}}`),
		eval(`{"expr":{"op":"add","left":1,"right":{"op":"mul","left":[2,{"op":"add","left":1}],"right":4}}}`),
		eval(`{"expr":[[[]]]}`),
		eval(`{"expr":{"op":"mul","left":2,"right":3,"scale":{"op":"add","left":1,"right":1,"scale":[0.5]}}}`),
		eval(`{"expr":{"op":"mul","left":2,"right":3,"scale":{"op":"add","left":1,"right":1,"scale":null}}}`),
		eval(`{"expr":{"op":"add","left":"one","right":2}}`),
		count(`{"tree":{"name":"a","entries":[{"folder":{"name":"b"}}]}}`),
		count(`{"tree":{"name":"a","entries":[{"folder":{"name":"b","entries":[{"folder":{"name":"c","entries":[],"extra":true}}]}}]}}`),
	}
	// Random trees, each also with one value spoiled at a random depth.
	r := rand.New(rand.NewPCG(8, 8))
	for i := 0; i < 60; i++ {
		tree := randomSection(r, 0)
		cases = append(cases, render(`{"root":`+mustJSON(t, tree)+`}`))
		spoil(r, tree)
		cases = append(cases, render(`{"root":`+mustJSON(t, tree)+`}`))
		folder := randomFolder(r, 0)
		cases = append(cases, count(`{"tree":`+mustJSON(t, folder)+`}`))
		spoilFolder(r, folder)
		cases = append(cases, count(`{"tree":`+mustJSON(t, folder)+`}`))
	}

	var in bytes.Buffer
	for _, c := range cases {
		in.WriteString(c.tool + "\t" + c.args + "\n")
	}
	deepNext := `{"root":` + strings.Repeat(`{"title":"a","next":`, 100000) + `{"title":"z"}` + strings.Repeat(`}`, 100000) + `}`
	deepChildren := `{"root":` + strings.Repeat(`{"title":"a","children":[`, 50000) + `{"title":"z"}` + strings.Repeat(`]}`, 50000) + `}`
	in.WriteString("alloc\t" + deepNext + "\n")
	in.WriteString("alloc\t" + deepChildren + "\n")
	in.WriteString("deep\n")
	in.WriteString("cycle\n")

	run := exec.Command(bin)
	run.Stdin = &in
	out, err := run.Output()
	if err != nil {
		t.Fatalf("driver: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	next := func() recursiveOutcome {
		t.Helper()
		if !sc.Scan() {
			t.Fatal("driver output ends early")
		}
		var o recursiveOutcome
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			t.Fatalf("%v: %s", err, sc.Bytes())
		}
		return o
	}
	accepted, refused, deepest := 0, 0, 0
	for _, c := range cases {
		o := next()
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(c.args))
		if err != nil {
			t.Fatal(err)
		}
		refErr := refs[c.tool].Validate(inst)
		switch {
		case o.OK && refErr != nil:
			t.Errorf("%s %s: decoded, but the reference refuses it: %v", c.tool, c.args, refErr)
		case !o.OK && refErr == nil:
			t.Errorf("%s %s: refused, but the reference accepts it: %v", c.tool, c.args, o.Vs)
		case o.OK:
			accepted++
			if len(o.Val) > 0 {
				t.Errorf("%s %s: decoded, but Validate reports %v", c.tool, c.args, o.Val)
			}
			if o.Out == nil || !sameJSON(t, string(*o.Out), c.args) {
				t.Errorf("%s %s: decoded as %s", c.tool, c.args, *o.Out)
			}
		case c.tool == "outline_eval":
			// A union's violations are the decoder's own (one naming the
			// alternatives where none fits): only the verdict compares.
			refused++
		default:
			refused++
			got, want := o.paths(), refPaths(refErr)
			if !slices.Equal(got, want) {
				t.Errorf("%s %s:\n got violations at %q (%v)\nwant (reference) %q\n%v", c.tool, c.args, got, o.Vs, want, refErr)
			}
			for _, p := range got {
				deepest = max(deepest, strings.Count(p, ".")+strings.Count(p, "["))
			}
		}
	}
	t.Logf("%d cases: %d accepted, %d refused (deepest violation %d steps down), all as the reference judges them", len(cases), accepted, refused, deepest)
	if accepted < 60 || refused < 60 || deepest < 6 {
		t.Errorf("the cases do not exercise enough: %d accepted, %d refused, deepest %d", accepted, refused, deepest)
	}

	// 100,000 levels: one violation where MaxDepth (64) is crossed, and the
	// decoding allocates less than the document's size.
	for _, deep := range []struct {
		text, path string
	}{
		// The arguments object is level 1, root level 2: the 63rd next
		// would be level 65.
		{deepNext, "$.root" + strings.Repeat(".next", 63)},
		{deepChildren, "$.root" + strings.Repeat(".children[0]", 31) + ".children"},
	} {
		if !sc.Scan() {
			t.Fatal("driver output ends early")
		}
		allocated, err := strconv.Atoi(sc.Text())
		if err != nil {
			t.Fatal(err)
		}
		o := next()
		want := []recViolation{{Path: deep.path, Message: "value nests deeper than 64 levels"}}
		if !slices.Equal(o.Vs, want) {
			t.Errorf("%d-byte deep document: got %v, want %v", len(deep.text), o.Vs, want)
		}
		if allocated > len(deep.text) {
			t.Errorf("decoding a %d-byte deep document allocated %d bytes", len(deep.text), allocated)
		}
		t.Logf("a %d-byte document nested 100,000 deep: %d bytes allocated (%.4f× its size), one violation at %.40s…", len(deep.text), allocated, float64(allocated)/float64(len(deep.text)), deep.path)
	}
	// Validate of values built in Go.
	if o := next(); len(o.Val) != 1 || o.Val[0].Path != "$"+strings.Repeat(".next", 64) || o.Val[0].Message != "value nests deeper than 64 levels" {
		t.Errorf("Validate of a 100,000-long list: %v", o.Val)
	}
	o := next()
	var msgs []string
	for _, v := range o.Val {
		msgs = append(msgs, v.Path+": "+v.Message)
	}
	if len(o.Val) == 0 || o.Val[0].Path != "$.title" || !slices.Contains(msgs, "$"+strings.Repeat(".next", 64)+": value nests deeper than 64 levels") {
		t.Errorf("Validate of a cycle: %q", msgs)
	}
}

// compileRecursiveRef compiles a schema literal with the reference
// validator (2020-12, formats asserted).
func compileRecursiveRef(t *testing.T, lit string) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(lit))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("mem:///s.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem:///s.json")
	if err != nil {
		t.Fatalf("%v: %s", err, lit)
	}
	return s
}

// refPaths are the JSON paths of the reference's innermost errors, written
// as the generated decoders write them; the branch of a nullable reference
// that wanted null is left out (the decoder reports what the value lacks
// as the type it was given).
func refPaths(err error) []string {
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		if k, ok := e.ErrorKind.(*schemakind.Type); ok && slices.Equal(k.Want, []string{"null"}) {
			return
		}
		p := "$"
		for _, s := range e.InstanceLocation {
			if _, err := strconv.Atoi(s); err == nil {
				p += "[" + s + "]"
			} else {
				p += "." + s
			}
		}
		out = append(out, p)
	}
	if ve, ok := err.(*jsonschema.ValidationError); ok {
		walk(ve)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sameJSON reports whether a and b are the same JSON value, but for
// empty arrays and objects as property values, which encoding/json leaves
// out of an optional field (omitempty).
func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return mustJSON(t, dropEmpty(x)) == mustJSON(t, dropEmpty(y))
}

func dropEmpty(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch ev := e.(type) {
			case []any:
				if len(ev) == 0 {
					delete(x, k)
					continue
				}
			case map[string]any:
				if len(ev) == 0 {
					delete(x, k)
					continue
				}
			}
			x[k] = dropEmpty(e)
		}
	case []any:
		for i, e := range x {
			x[i] = dropEmpty(e)
		}
	}
	return v
}

// randomSection is a valid section tree, at most 5 levels deep.
func randomSection(r *rand.Rand, depth int) map[string]any {
	s := map[string]any{"title": fmt.Sprintf("s%d", r.IntN(100))}
	if r.IntN(3) == 0 {
		s["level"] = int64(1 + r.IntN(6))
	}
	if r.IntN(4) == 0 {
		s["tag"] = []string{"draft", "final"}[r.IntN(2)]
	}
	if depth >= 5 {
		return s
	}
	if r.IntN(2) == 0 {
		var kids []any
		for range r.IntN(4) {
			kids = append(kids, randomSection(r, depth+1))
		}
		s["children"] = append([]any{}, kids...)
	}
	if r.IntN(3) == 0 {
		s["next"] = randomSection(r, depth+1)
	}
	if r.IntN(4) == 0 {
		notes := map[string]any{}
		for i := range r.IntN(3) {
			notes[fmt.Sprintf("n%d", i)] = randomSection(r, depth+1)
		}
		s["notes"] = notes
	}
	return s
}

// spoil breaks one value of a random section of the tree.
func spoil(r *rand.Rand, s map[string]any) {
	for {
		var subs []map[string]any
		if kids, ok := s["children"].([]any); ok {
			for _, k := range kids {
				subs = append(subs, k.(map[string]any))
			}
		}
		if n, ok := s["next"].(map[string]any); ok {
			subs = append(subs, n)
		}
		if notes, ok := s["notes"].(map[string]any); ok {
			for _, k := range sortedMapKeys(notes) {
				subs = append(subs, notes[k].(map[string]any))
			}
		}
		if len(subs) == 0 || r.IntN(3) == 0 {
			break
		}
		s = subs[r.IntN(len(subs))]
	}
	switch r.IntN(6) {
	case 0:
		s["title"] = ""
	case 1:
		delete(s, "title")
	case 2:
		s["level"] = int64(7)
	case 3:
		s["tag"] = "wip"
	case 4:
		s["colour"] = "red"
	default:
		s["next"] = nil
	}
}

// randomFolder is a valid folder tree, at most 4 levels deep.
func randomFolder(r *rand.Rand, depth int) map[string]any {
	f := map[string]any{"name": []string{"docs", "src", "a", "tmp"}[r.IntN(4)]}
	entries := []any{}
	for range r.IntN(4) {
		e := map[string]any{}
		if depth < 4 && r.IntN(2) == 0 {
			e["folder"] = randomFolder(r, depth+1)
		} else {
			e["folder"] = nil
			e["file"] = fmt.Sprintf("f%d.txt", r.IntN(10))
		}
		entries = append(entries, e)
	}
	f["entries"] = entries
	return f
}

// spoilFolder breaks one value of a random folder of the tree.
func spoilFolder(r *rand.Rand, f map[string]any) {
	for {
		var subs []map[string]any
		for _, e := range f["entries"].([]any) {
			if sub, ok := e.(map[string]any)["folder"].(map[string]any); ok {
				subs = append(subs, sub)
			}
		}
		if len(subs) == 0 || r.IntN(3) == 0 {
			break
		}
		f = subs[r.IntN(len(subs))]
	}
	switch r.IntN(4) {
	case 0:
		f["name"] = "Upper"
	case 1:
		delete(f, "entries")
	case 2:
		f["entries"] = append(f["entries"].([]any), map[string]any{"file": ""})
	default:
		f["entries"] = append(f["entries"].([]any), map[string]any{"file": "x", "folder": "no"})
	}
}

// TestRecursiveCatalog: the catalog names a recursive type by link, gives
// it one section, and says through which fields it nests.
func TestRecursiveCatalog(t *testing.T) {
	f := loadSpec(t, filepath.Join("testdata", "golden", "recursive", "recursive.tools.yaml"))
	md, err := CatalogMarkdown(f)
	if err != nil {
		t.Fatal(err)
	}
	text := string(md)
	for _, want := range []string{
		"| `children` | array of [`Section`](#type-section) | optional |",
		"| `next` | [`Section`](#type-section) | optional |",
		"Recursive: `Section` values hold further `Section` values through `children`, `next` and `notes` (arguments nest at most 64 levels of JSON deep).",
		"Recursive: `Folder` values hold further `Folder` values through `entries` (arguments nest at most 64 levels of JSON deep).",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("catalog lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "### Type `Section`"); n != 1 {
		t.Errorf("type Section has %d sections", n)
	}
	if strings.Contains(text, "### Type `Tag`\n\nRecursive") {
		t.Error("Tag is not recursive")
	}
}
