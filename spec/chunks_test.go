package spec

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/toolgen/toolgen/internal/scale"
)

// parseWhole is yaml.v3's answer for the whole file, as file1 asks for
// it: the tree, or nil for any error or a second document.
func parseWhole(data []byte) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil || err.Error() != "EOF" {
		return nil
	}
	return &doc
}

// sameTree reports where two node trees differ (comments aside), or "".
func sameTree(a, b *yaml.Node, path string, seen map[*yaml.Node]*yaml.Node) string {
	if a == nil || b == nil {
		if a != b {
			return path + ": nil"
		}
		return ""
	}
	if m, ok := seen[a]; ok {
		if m != b {
			return path + ": shared differently"
		}
		return ""
	}
	seen[a] = b
	switch {
	case a.Kind != b.Kind, a.Style != b.Style, a.Tag != b.Tag, a.Value != b.Value, a.Anchor != b.Anchor,
		a.Line != b.Line, a.Column != b.Column, len(a.Content) != len(b.Content):
		return fmt.Sprintf("%s: %+v vs %+v", path, *a, *b)
	}
	if d := sameTree(a.Alias, b.Alias, path+"*", seen); d != "" {
		return d
	}
	for i := range a.Content {
		if d := sameTree(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", path, i), seen); d != "" {
			return d
		}
	}
	return ""
}

// checkCut parses data cut in n chunks; when that answers, the whole file
// must parse to the same tree. It reports whether the cut answered.
func checkCut(t *testing.T, name string, data []byte, n int) bool {
	t.Helper()
	doc, ok := parseCut(data, n, 2)
	if !ok {
		return false
	}
	whole := parseWhole(data)
	if whole == nil {
		t.Fatalf("%s in %d chunks: parsed, but the whole file does not parse:\n%s", name, n, data)
	}
	if d := sameTree(doc, whole, "", map[*yaml.Node]*yaml.Node{}); d != "" {
		t.Fatalf("%s in %d chunks: the tree differs from the whole file's at %s\n%s", name, n, d, data)
	}
	return true
}

func TestParseChunksScale(t *testing.T) {
	for n, cuts := range map[int][]int{100: {2, 3, maxChunks}, 1000: {2}} {
		data := scale.Spec(n)
		for _, chunks := range cuts {
			if !checkCut(t, fmt.Sprintf("scale.Spec(%d)", n), data, chunks) {
				t.Fatalf("scale.Spec(%d) was not cut in %d chunks", n, chunks)
			}
		}
	}
}

// specFiles are the spec files of the repository.
func specFiles(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, ".tools.yaml") {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files[path] = data
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestParseCutFiles cuts every spec file of the repository (valid and
// invalid ones) where it can be cut.
func TestParseCutFiles(t *testing.T) {
	cut := 0
	files := specFiles(t)
	for path, data := range files {
		answered := false
		for _, n := range []int{2, 3, 5, 100} { // 100: at nearly every item
			answered = checkCut(t, path, data, n) || answered
		}
		if answered {
			cut++
		}
	}
	// Most files have one tool (which is never cut) or are not YAML.
	if cut < 50 {
		t.Fatalf("only %d of %d files were cut", cut, len(files))
	}
	t.Logf("%d of %d files were cut", cut, len(files))
}

// hazards are texts that are not what they seem at a cut: each is put
// between the tools of a spec, where a cut may fall.
var hazards = []string{
	"    description: \"a string\n  - name: that goes on\"\n",
	"    description: 'a string\n  - name: that goes on'\n",
	"    description: [a, list\n  - name, that goes on]\n",
	"    description: {a: map\n  - name: that goes on}\n",
	"    description: |\n      a block\n  - name: x\n",
	"    description: |+\n      kept\n\n  - name: x\n",
	"    description: >\n      folded\n    more\n",
	"    description: plain\n  that goes on\n",
	"    description: plain\n   that goes on\n",
	"    description: plain\n    that goes on\n",
	"    x: &a {type: string}\n",
	"    y: *a\n",
	"  - &b\n    name: anchored\n    description: d\n",
	"  - *b\n",
	"# a comment\n",
	"  # a comment\n",
	"\n\n",
	"---\n",
	"...\n",
	"%YAML 1.2\n",
	"types: {}\n",
	"  types: {}\n",
	"\t- name: tab\n",
	"  -\tname: tab\n",
	"  -\n    name: next line\n    description: d\n",
	"  - name: crlf\r\n    description: d\r\n",
	"  - name: cr\r    description: d\n",
	"  - name: nel\u0085    description: d\n",
	"  - ? name\n    : complex\n",
	"  - name: x\n    description: d\n   oops: 1\n",
	"  - name: x\n description: d\n",
	"  -name: x\n",
	"  - - nested\n    - list\n",
	"  - !!map {name: tagged, description: d}\n",
	"  - !!str text\n",
	"  - \"quoted item\"\n",
	"  - name: x\n    description: \"multi\n      line\"\n",
	"  - name: x\n    description: d # comment\n",
	"  - name: x\n    <<: {description: merged}\n",
	"  - name: x\n    description: d\n    description: twice\n",
	"  - name: \xff\n",
	"  - name: \x01\n",
	"  - name: x\n    description: \"unclosed\n",
	"  - name: x\n    description: [unclosed\n",
}

// TestParseCutHazards puts each hazard (and pairs of them) between the
// tools of a spec and cuts it at every place it can be cut.
func TestParseCutHazards(t *testing.T) {
	base := string(scale.Spec(12))
	items := strings.SplitAfter(base, "\n  - ")
	r := rand.New(rand.NewSource(4))
	cut := 0
	for i := 0; i < 300; i++ {
		parts := append([]string(nil), items...)
		for k := 1 + r.Intn(3); k > 0; k-- {
			j := 1 + r.Intn(len(parts)-1)
			// Put the hazard at the end of the item before, so that a
			// cut before item j falls right after it.
			h := hazards[r.Intn(len(hazards))]
			parts[j-1] = strings.TrimSuffix(parts[j-1], "  - ") + h + "  - "
		}
		data := []byte(strings.Join(parts, ""))
		for _, n := range []int{2, 3, 100} {
			if checkCut(t, fmt.Sprintf("hazards #%d", i), data, n) {
				cut++
			}
		}
	}
	if cut < 100 {
		t.Fatalf("only %d files with hazards were cut", cut)
	}
	t.Logf("%d files with hazards were cut", cut)
}

// FuzzParseCut: a file cut in chunks parses to the tree of the whole
// file, or is parsed whole.
func FuzzParseCut(f *testing.F) {
	f.Add(scale.Spec(5), 3)
	for _, h := range hazards {
		f.Add([]byte(strings.Replace(string(scale.Spec(4)), "  - name: big_create", h+"  - name: big_create", 1)), 2)
	}
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		checkCut(t, "fuzz", data, 2+(n&7))
	})
}

// TestParseCutDeep: a chunk that nests nearly as deeply as yaml.v3 allows
// has the file parsed whole (a chunk nests one level less than the file).
func TestParseCutDeep(t *testing.T) {
	deep := strings.Repeat("[", maxCutDepth+5) + strings.Repeat("]", maxCutDepth+5)
	data := []byte(strings.Replace(string(scale.Spec(8)), "  - name: big_create", "  - "+deep+"\n  - name: big_create", 1))
	if parseWhole(data) == nil {
		t.Fatal("the deep file does not parse whole")
	}
	for _, n := range []int{2, 3, 100} {
		if _, ok := parseCut(data, n, 2); ok {
			t.Fatalf("a file nesting %d levels was cut in %d chunks", maxCutDepth+5, n)
		}
	}
	shallow := []byte(strings.Replace(string(data), deep, "[[1]]", 1))
	if !checkCut(t, "shallow", shallow, 100) {
		t.Fatal("the shallow file was not cut")
	}
}
