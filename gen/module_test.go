package gen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/spec"
)

// TestFlagsValue: the Flags literal names the true flags only, in field
// order, and says Enabled: false for a disabled tool.
func TestFlagsValue(t *testing.T) {
	on := func(v bool) spec.Flag { return spec.Flag{Value: v} }
	base := func() spec.Flags { // a tool that says nothing
		return spec.Flags{Enabled: on(true), OpenWorld: on(true)}
	}
	readOnly := base()
	readOnly.ReadOnly, readOnly.ConcurrencySafe, readOnly.Idempotent = on(true), on(true), on(true)
	disabled := spec.Flags{}
	disabledClosed := spec.Flags{Destructive: on(true)}
	byInput := base()
	byInput.ReadOnly = spec.Flag{Mode: spec.ByInput}
	for _, c := range []struct {
		name  string
		flags spec.Flags
		want  string
	}{
		{"defaults", base(), "runtime.Flags{Enabled: true, OpenWorld: true}"},
		{"read-only", readOnly, "runtime.Flags{\n\tEnabled:         true,\n\tReadOnly:        true,\n\tIdempotent:      true,\n\tOpenWorld:       true,\n\tConcurrencySafe: true,\n}"},
		{"disabled", disabled, "runtime.Flags{Enabled: false}"},
		{"disabled destructive", disabledClosed, "runtime.Flags{Enabled: false, Destructive: true}"},
		{"by input", byInput, "runtime.Flags{Enabled: true, OpenWorld: true}"},
	} {
		got := fmt.Sprintf("%#v", flagsValue(c.flags))
		if got != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}

// TestComment: long lines wrap at spaces within the width; short lines,
// blank lines, indented lines and list items are kept as they are.
func TestComment(t *testing.T) {
	long := strings.Repeat("word ", 30)
	got := fmt.Sprintf("%#v", comment("Short line.\n\n"+long+"\n  indented "+long+"\n- item "+long+"\n12. item "+long))
	lines := strings.Split(got, "\n")
	if lines[0] != "// Short line." || lines[1] != "//" {
		t.Errorf("short and blank lines changed:\n%s", got)
	}
	wrapped := 0
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "// word"):
			wrapped++
			if len(l) > commentWidth {
				t.Errorf("line of %d bytes, want at most %d: %q", len(l), commentWidth, l)
			}
		case strings.HasPrefix(l, "//   indented"), strings.HasPrefix(l, "// - item"), strings.HasPrefix(l, "// 12. item"):
			if !strings.HasSuffix(l, "word") {
				t.Errorf("special line was wrapped: %q", l)
			}
		}
	}
	if wrapped < 2 {
		t.Errorf("the long line was not wrapped:\n%s", got)
	}
	if strings.Count(got, "word") != 4*30 {
		t.Errorf("words lost or added:\n%s", got)
	}
	if w := wrap(strings.Repeat("x", 100)+" y", 20); len(w) != 2 || w[1] != "y" {
		t.Errorf("wrap of an over-long word = %q", w)
	}
}

// TestDocComment: type docs start with the type's name.
func TestDocComment(t *testing.T) {
	for _, c := range []struct{ what, text, want string }{
		{"the type of $.status in the arguments of the x_list tool", "Only open ones.", "// Status is the type of $.status in the arguments of the x_list tool: Only open\n// ones."},
		{"a type shared by the x tools", "", "// Status is a type shared by the x tools."},
		{"a type shared by the x tools", "Status says how far a task is.", "// Status says how far a task is."},
	} {
		got := fmt.Sprintf("%#v", doc("Status", c.what, c.text, nil))
		if strings.TrimSpace(got) != c.want {
			t.Errorf("doc(%q, %q) =\n%s\nwant\n%s", c.what, c.text, got, c.want)
		}
	}
}

// TestGateConstant: a module gate becomes the Gate constant that tools
// using it refer to; every other gate gets its own Gate<Name> constant
// (with the module's initialisms); a tool with its own message keeps the
// literal; a named type called Gate is then a collision.
func TestGateConstant(t *testing.T) {
	str := &spec.Schema{Type: spec.TypeString}
	tool := func(name, goName, gate, msg string) *spec.Tool {
		return &spec.Tool{Name: name, GoName: goName, Description: "d", Kind: spec.KindTool, Gate: gate, GateMessage: msg,
			Params: &spec.Schema{Type: spec.TypeObject}}
	}
	f := &spec.File{
		Path: "x.tools.yaml", Provider: "x", Package: "x", Gate: "crm", GateMessage: "The CRM is not connected.",
		Initialisms: []string{"ERP"},
		Tools: []*spec.Tool{
			tool("x_a", "A", "crm", "The CRM is not connected."),
			tool("x_b", "B", "crm", "Reconnect the CRM."),
			tool("x_c", "C", "disk", "The disk is gone."),
			tool("x_d", "D", "", ""),
			tool("x_e", "E", "erp", ""),
		},
	}
	src, err := Code(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"const Gate = \"crm\"\n",
		"const gateMessage = \"The CRM is not connected.\"\n",
		"Gate:        Gate,\n\tGateMessage: gateMessage,\n",
		"Gate:        Gate,\n\tGateMessage: \"Reconnect the CRM.\",\n",
		"Gate:        GateDisk,\n\tGateMessage: \"The disk is gone.\",\n",
		"\t// GateDisk is the connection the tools that say gate: disk need.\n\tGateDisk = \"disk\"\n",
		"\t// GateERP is the connection the tools that say gate: erp need.\n\tGateERP = \"erp\"\n",
		" GateERP,\n", // x_e: Gate: GateERP, no message
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("generated code lacks %q", want)
		}
	}
	if n := strings.Count(string(src), "Gate:"); n != 4 {
		t.Errorf("%d tools with a gate, want 4", n)
	}

	f.Types = []*spec.NamedType{{Name: "Gate", GoName: "Gate", Schema: str}}
	if _, err := Code(f); err == nil || !strings.Contains(err.Error(), "the Go name Gate of the named type Gate collides with the Gate constant") {
		t.Errorf("a named type Gate: err = %v", err)
	}
}
