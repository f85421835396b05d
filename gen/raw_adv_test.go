package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/spec"
)

// TestRawAdversarial generates each of rawSpecs with the raw declarations
// and with jennifer writing everything: the bytes must be the same, gofmt
// must leave them as they are, and the packages must compile and vet.
func TestRawAdversarial(t *testing.T) {
	tmp, err := os.MkdirTemp("testdata", "compile-raw-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	for _, c := range append(rawSpecs[:len(rawSpecs):len(rawSpecs)], manyToolsSpec(), wideSpec()) {
		f, err := spec.Parse(c.name+".tools.yaml", []byte(c.yaml))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		want, err := codeRaw(f, nil, false)
		if err != nil {
			t.Errorf("%s: with jennifer: %v", c.name, err)
			continue
		}
		got, err := codeRaw(f, nil, true)
		if err != nil {
			t.Errorf("%s: with raw declarations: %v", c.name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the raw declarations change the code:\n%s", c.name, firstDiff(got, want))
		}
		for way, src := range map[string][]byte{"raw": got, "jennifer": want} {
			if formatted, err := format.Source(src); err != nil || !bytes.Equal(formatted, src) {
				t.Errorf("%s: the code generated with %s is not gofmt'd (%v):\n%s", c.name, way, err, firstDiff(src, formatted))
			}
		}
		dir := filepath.Join(tmp, "p"+c.name) // "nul" is no path element on Windows
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, c.name+"_tools.gen.go"), got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if testing.Short() {
		return
	}
	cmd := exec.Command("go", "vet", "./"+filepath.ToSlash(tmp)+"/...")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go vet of the generated code: %v\n%s", err, out)
	}
}

// TestPlainDoc: the doc comment lines plainDoc lets through as they are
// are what gofmt writes for them.
func TestPlainDoc(t *testing.T) {
	for _, text := range []string{
		"X is plain.",
		"X is ``quoted''.",
		"X is 'single' and \"double\".",
		"X is (paren) *star *bold* and https://example.com/a_b?c=d.",
		"X is one line\nand another line\nand a third.",
		"X has a `` ``` `` mix.",
		"X ends in ''",
	} {
		lines := commentLines(text)
		if want := formatDoc(lines); plainDoc(lines) && !slicesEqual(lines, want) {
			t.Errorf("%q: plainDoc keeps %q, gofmt writes %q", text, lines, want)
		}
		src := "package p\n\n" + joinLines(docLines(text)) + "type X int\n"
		if formatted, err := format.Source([]byte(src)); err != nil || string(formatted) != src {
			t.Errorf("%q: docLines are not gofmt'd:\n%s\ngofmt:\n%s", text, src, formatted)
		}
	}
}

func slicesEqual(a, b []string) bool { return fmt.Sprint(a) == fmt.Sprint(b) && len(a) == len(b) }

func joinLines(lines []string) string {
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// TestDocLinesGofmt: docLines of random texts built from what
// go/doc/comment reads specially (list markers, code indentation, headings,
// links and link definitions, doubled quotes, unicode spaces, directives)
// are a fixed point of gofmt, and plainDoc passes only lines gofmt leaves
// as they are.
func TestDocLinesGofmt(t *testing.T) {
	toks := []string{"X", "is", "a", "word", " ", " ", " ", "\n", "\n", "\n\n", "- ", "* ", "+ ", "1. ", "2) ", "# ", "#", "\t", "    ", "  ", "``", "''", "`", "'", "\"", "[", "]", "[Doc]", "[x]: https://e.com", "https://example.com/a", "http://x.y/(z)", "(", ")", "*", ".", ",", ":", "é", "日本", "//", "/*", "*/", "go:generate", "//go:x", "Heading Here", "ABC", "1", "0x", "...", "-", "–", "\u00a0", "\u2028", "\\", "<", ">", "&", "\u0085", "\u3000", "\v", "\f", "Z\n\nZZ Top\n\nq", "\n\n\tcode\n", "a.\n", "b:\n"}
	r := rand.New(rand.NewSource(1))
	bad := 0
	for i := 0; i < 20000 && bad < 10; i++ {
		var b strings.Builder
		b.WriteString("X ")
		for n := r.Intn(40); n > 0; n-- {
			b.WriteString(toks[r.Intn(len(toks))])
		}
		text := b.String()
		lines := docLines(text)
		src := "package p\n\n" + joinLines(lines) + "type X int\n"
		got, err := format.Source([]byte(src))
		if err != nil || string(got) != src {
			bad++
			t.Errorf("%q:\n%s\ngofmt:\n%s (%v)", text, src, got, err)
		}
		if plainDoc(commentLines(text)) {
			if f := formatDoc(commentLines(text)); strings.Join(f, "\n") != strings.Join(commentLines(text), "\n") {
				bad++
				t.Errorf("plain %q but formatDoc %q", text, f)
			}
		}
	}
}

// manyToolsSpec has more tools than a chunk has sections (chunkSections),
// so that raw declarations are spliced in several chunks that are then
// joined, each tool with doc text gofmt reformats, every placeholder kind
// and an agent tool with a prompt every seventh.
func manyToolsSpec() struct{ name, yaml string } {
	var b strings.Builder
	b.WriteString(`toolgen: 1
provider: m
package: m
types:
  When: {type: string, format: date-time, description: "When ` + "``t''" + `"}
  Num: {type: integer, minimum: -1, description: "# Num"}
  Hex: {type: string, pattern: "^[a-f]+$"}
  Flag: {type: boolean}
tools:
`)
	for i := range chunkSections + 13 {
		fmt.Fprintf(&b, "  - name: m_t%d\n    description: \"Tool %d ``q''.\\n\\n- a\\n- b\"\n", i, i)
		fmt.Fprintf(&b, "    status: \"T%d {s} {w|-} {n} {h} {f|?}\"\n", i)
		if i%7 == 0 {
			b.WriteString("    kind: agent\n    prompt: \"P {s} {w|x} {n} {h} {{}}\"\n")
		}
		if i%3 == 0 {
			b.WriteString("    title: T\n")
		}
		if i%2 == 0 {
			b.WriteString("    read_only: true\n")
		} else {
			b.WriteString("    destructive: true\n")
		}
		fmt.Fprintf(&b, `    params:
      s: {type: string, enum: [a, b, "c\"d"], description: "S %d.\n\n    code"}
      w: {$ref: "#/types/When", nullable: true}
      n: {$ref: "#/types/Num"}
      h: {$ref: "#/types/Hex", default: "ab"}
      f: {$ref: "#/types/Flag", nullable: true}
      u: {oneOf: [{type: string}, {type: integer}]}
      x: {type: object, properties: {a: {type: string}}, additionalProperties: {type: integer}}
    required: [s, n]
`, i)
	}
	return struct{ name, yaml string }{"many", b.String()}
}

// wideSpec has structs whose table calls are wrapped (tableArgs), with
// defaults of every kind the raw declarations write, one of more than 63
// properties (not tabled), and a wide result.
func wideSpec() struct{ name, yaml string } {
	var props, nested, items, big strings.Builder
	for i := range 30 {
		p := fmt.Sprintf("a_rather_long_property_name_%d: ", i)
		switch i % 4 {
		case 0:
			p += fmt.Sprintf("{type: string, default: \"d%d\"}", i)
		case 1:
			p += fmt.Sprintf("{type: integer, default: %d}", -i)
		case 2:
			p += "{type: boolean, default: true}"
		case 3:
			p += "{type: number}"
		}
		fmt.Fprintf(&props, "      %s\n", p)
		fmt.Fprintf(&nested, "          %s\n", p)
		fmt.Fprintf(&items, "            %s\n", p)
	}
	for i := range 70 {
		fmt.Fprintf(&big, "      p%d: {type: string}\n", i)
	}
	return struct{ name, yaml string }{"wide", `toolgen: 1
provider: w
package: w
tools:
  - name: w_wide
    description: Wide.
    status: "{a_rather_long_property_name_0} {a_rather_long_property_name_1} {a_rather_long_property_name_2}"
    params:
` + props.String() + `      nested:
        type: object
        properties:
` + nested.String() + `      items:
        type: array
        items:
          type: object
          properties:
` + items.String() + `    required: [a_rather_long_property_name_3, a_rather_long_property_name_7]
  - name: w_big
    description: More than 63 properties.
    params:
` + big.String() + `  - name: w_res
    description: Result with a wide struct.
    params: {}
    result:
      type: object
      properties:
` + nested.String()}
}

// TestLeftPlaceholder: a placeholder the splice did not replace is found
// wherever it starts a line; the marker inside user text is not.
func TestLeftPlaceholder(t *testing.T) {
	for body, want := range map[string]string{
		"":                          "",
		"var x = 1\n":               "",
		"//toolgen:raw:7\n":         "//toolgen:raw:7",
		"x\n\t//toolgen:raw:3\ny\n": "\t//toolgen:raw:3",
		"x\n//toolgen:raw:x":        "//toolgen:raw:x",
		"// //toolgen:raw:1\n":      "",
		"//\t//toolgen:raw:1\n":     "",
		"s := \"//toolgen:raw:  //toolgen:raw:2\"\n": "",
		"a //toolgen:raw:1\n  //toolgen:raw:2\n":     "  //toolgen:raw:2",
	} {
		if got := leftPlaceholder([]byte(body)); got != want {
			t.Errorf("leftPlaceholder(%q) = %q, want %q", body, got, want)
		}
	}
	// A store's splice leaves none in a file it generates, and an index
	// it does not hold is left, and found.
	s := &rawStore{}
	s.add(&rawDecl{text: []byte("var a = 1\n")})
	body, _ := s.splice([]byte("x\n\n//toolgen:raw:0\n\n//toolgen:raw:9\n"))
	if got := leftPlaceholder(body); got != "//toolgen:raw:9" {
		t.Errorf("after splice %q: leftPlaceholder = %q", body, got)
	}
}
