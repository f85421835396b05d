package templates

import (
	"slices"
	"strings"
	"testing"
)

func TestEveryTemplateParses(t *testing.T) {
	names := Names()
	if !slices.Contains(names, Catalog) || !slices.Contains(names, StubsHeader) {
		t.Fatalf("embedded templates = %q", names)
	}
	for _, name := range names {
		if _, err := Parse(name, nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestParseUnknown(t *testing.T) {
	if _, err := Parse("nope.tmpl", nil); err == nil || !strings.HasPrefix(err.Error(), "templates: ") {
		t.Errorf("err = %v", err)
	}
}

// A key the data lacks is an error, not "<no value>" in a generated file.
func TestMissingKeyFails(t *testing.T) {
	tmpl, err := Parse(StubsHeader, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := tmpl.Execute(&b, map[string]string{"Spec": "x.tools.yaml"}); err == nil {
		t.Errorf("rendered with missing keys:\n%s", b.String())
	}
	b.Reset()
	if err := tmpl.Execute(&b, map[string]string{"Spec": "x.tools.yaml", "Impl": "Tools", "Interface": "Executor"}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if !strings.HasPrefix(line, "//") {
			t.Errorf("the stubs header has a line that is not a comment: %q", line)
		}
	}
}
