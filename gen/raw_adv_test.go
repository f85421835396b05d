package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
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
	for _, c := range rawSpecs {
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
