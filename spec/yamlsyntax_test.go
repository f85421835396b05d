package spec

import (
	"strings"
	"testing"
)

// Every yaml.v3 syntax error that lacks a column, or whose line is off,
// gets the line and column of what to fix.
func TestSyntaxErrorPositions(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
	}{
		{"unclosed list", "a: 1\nb: [x, y\nc: 2\n", "f:2:4: invalid YAML: did not find expected ',' or ']' in the list that starts here"},
		{"unclosed list at the end", "a: 1\nb: [x, y\n", "f:2:4: "},
		{"unclosed nested list", "a: 1\nb:\n  c: [x, [y], \"]\",\n     y\nd: 2\n", "f:3:6: "},
		{"unclosed mapping", "a: 1\nb: {x: 1, y: 2\nc: 2\n", "f:2:4: invalid YAML: did not find expected ',' or '}' in the mapping that starts here"},
		{"unclosed on the first line", "{a: 1, b: 2\n\n\n", "f:1:1: "},
		{"list on the first line", "[a, b\n", "f:1:1: "},
		{"bracket inside a plain scalar", "a: x[1\nb: [1,\nc: 2\n", "f:2:4: "},
		{"unterminated double quote", "a: 1\nb: \"abc\nc: 2\n", "f:2:4: invalid YAML: the quoted string that starts here is not closed"},
		{"unterminated single quote", "a: 'it''s'\nb: x\nc: 'abc\n", "f:3:4: "},
		{"closed quote before", "a: 1\nb: [\"x\", 'y', \"z\nc: 2\n", "f:2:15: "},
		{"too deep", "a: 1\nb: " + strings.Repeat("[", 10001) + "\n", "f:2:10004: invalid YAML: exceeded max depth of 10000: \"[\" and \"{\" nest more than that here"},
		{"too deep, no line", strings.Repeat("[", 20000), "f:1:10001: "},
		{"too deep across lines", "a:\n" + strings.Repeat("  [\n", 10001), "f:10002:3: "},
		{"too deep, block sequences", strings.Repeat("- ", 20000), "f:1:20001: invalid YAML: exceeded max depth of 10000: lists and mappings nest more than that here"},
		{"colon in a value", "a: 1\nb: c: d\n", "f:2:5: invalid YAML: mapping values are not allowed in this context"},
		{"misplaced key", "a: 1\nb: [x] y\n", "f:2:1: invalid YAML: did not find expected key"},
		{"misplaced dash", "a:\n  - 1\n - 2\n", "f:3:2: invalid YAML: did not find expected key"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("f", []byte(c.src))
			if err == nil {
				t.Fatal("no error")
			}
			first := strings.SplitN(err.Error(), "\n", 2)[0]
			if !strings.HasPrefix(first, c.want) {
				t.Errorf("got  %s\nwant %s…", first, c.want)
			}
		})
	}
}
