package spec

import "testing"

// defer_loading: the module's value is each tool's default, a tool's own
// overrides it either way.
func TestDeferLoading(t *testing.T) {
	for _, c := range []struct {
		module string
		want   []bool // find, list, get
	}{
		{"", []bool{false, true, false}},
		{"defer_loading: false\n", []bool{false, true, false}},
		{"defer_loading: true\n", []bool{true, true, false}},
	} {
		src := "toolgen: 1\nprovider: catalog\n" + c.module + `tools:
  - name: catalog_find
    description: Find an entry.
  - name: catalog_list
    description: List the entries.
    defer_loading: true
  - name: catalog_get
    description: Get an entry.
    defer_loading: false
`
		f, err := Parse("catalog.tools.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for i, tool := range f.Tools {
			if tool.DeferLoading != c.want[i] {
				t.Errorf("module %q: %s DeferLoading = %v, want %v", c.module, tool.Name, tool.DeferLoading, c.want[i])
			}
		}
	}
}
