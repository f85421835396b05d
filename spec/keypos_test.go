package spec

import "testing"

func TestKeyPos(t *testing.T) {
	src := `toolgen: 1
provider: kp
package: kp
tools:
  - name: kp_a
    description: A.
    gate: g
    params:
      n: {type: integer, maximum: 9}
      s:
        type: string
        pattern: "^a"
`
	f, err := Parse("kp.tools.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tool := f.Tools[0]
	n, s := tool.Params.Property("n").Schema, tool.Params.Property("s").Schema
	for _, tc := range []struct {
		got  Pos
		line int
		col  int
	}{
		{f.KeyPos("package"), 3, 1},
		{f.KeyPos("gate"), 1, 1}, // not written: the file's position
		{tool.KeyPos("gate"), 7, 5},
		{tool.KeyPos("enabled"), 5, 5}, // not written: the tool's position
		{tool.Params.KeyPos("gate"), 7, 5},
		{n.KeyPos("maximum"), 9, 26},
		{n.KeyPos("minimum"), 9, 10},
		{s.KeyPos("pattern"), 12, 9},
	} {
		if tc.got.Line != tc.line || tc.got.Col != tc.col {
			t.Errorf("got %s, want %d:%d", tc.got, tc.line, tc.col)
		}
	}
}
