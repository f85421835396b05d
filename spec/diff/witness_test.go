package diff_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen/toolgen/gen"
	"github.com/toolgen/toolgen/spec"
	"github.com/toolgen/toolgen/spec/diff"
)

// witness is a call's arguments, and whether the schema the model is shown
// accepts them before (Old) and after (New) the change.
type witness struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
	Old  bool            `json:"old"`
	New  bool            `json:"new"`
}

// toolSchema compiles the argument schema gen shows the model for tool in
// spec file path, with a reference JSON Schema validator that asserts
// formats.
func toolSchema(t *testing.T, path, tool string) *jsonschema.Schema {
	t.Helper()
	f, err := spec.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var ts *spec.Tool
	for _, x := range f.Tools {
		if x.Name == tool {
			ts = x
		}
	}
	if ts == nil {
		t.Fatalf("%s has no tool %s", path, tool)
	}
	lit, err := gen.SchemaJSON(ts.Params)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(lit))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("args.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("args.json")
	if err != nil {
		t.Fatalf("%s: %v\n%s", path, err, lit)
	}
	return s
}

// TestWitnesses checks the model and approvals rules against a reference
// validator: in each golden case with a witness.json, the schema gen shows
// the model for the old spec and for the new one accept or refuse each
// witness's arguments as it says: a tightening has arguments the old
// schema accepts and the new one refuses (a call the model made, or a
// pause point stored, before the change is refused after it), a loosening
// the reverse. Every case of a tightening or loosening rule about what
// the schema accepts has such a witness.
func TestWitnesses(t *testing.T) {
	needs := map[string]bool{ // rule → the direction its witness shows: true for a tightening
		"PARAM_REMOVED": true, "PARAM_ADDED_REQUIRED": true, "PARAM_REQUIRED": true, "TYPE_CHANGED": true,
		"NULLABLE_REMOVED": true, "BOUND_TIGHTENED": true, "LENGTH_TIGHTENED": true, "ENUM_VALUE_REMOVED": true,
		"PATTERN_CHANGED": true, "FORMAT_CHANGED": true, "ADDITIONAL_PROPERTIES_CLOSED": true,
		"PARAM_ADDED": false, "PARAM_OPTIONAL": false, "TYPE_WIDENED": false, "NULLABLE_ADDED": false,
		"BOUND_LOOSENED": false, "LENGTH_LOOSENED": false, "ENUM_VALUE_ADDED": false, "PATTERN_REMOVED": false,
		"FORMAT_REMOVED": false, "ADDITIONAL_PROPERTIES_OPENED": false,
	}
	for id, tight := range needs {
		r := diff.RuleByID(id)
		if r == nil {
			t.Fatalf("no rule %s", id)
		}
		if tight != (r.Level == diff.Breaking) {
			t.Errorf("%s is %s, but its witness shows a %s", id, r.Level, map[bool]string{true: "tightening", false: "loosening"}[tight])
		}
	}
	shown := map[string]bool{}
	cases, err := filepath.Glob(filepath.Join("testdata", "*", "witness.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, wf := range cases {
		dir := filepath.Dir(wf)
		data, err := os.ReadFile(wf)
		if err != nil {
			t.Fatal(err)
		}
		var ws []witness
		if err := json.Unmarshal(data, &ws); err != nil {
			t.Fatalf("%s: %v", wf, err)
		}
		want, err := os.ReadFile(filepath.Join(dir, "want.txt"))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range ws {
			old := toolSchema(t, filepath.Join(dir, "old", "t.tools.yaml"), w.Tool)
			new := toolSchema(t, filepath.Join(dir, "new", "t.tools.yaml"), w.Tool)
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(w.Args))
			if err != nil {
				t.Fatal(err)
			}
			oerr, nerr := old.Validate(v), new.Validate(v)
			if (oerr == nil) != w.Old || (nerr == nil) != w.New {
				t.Errorf("%s: %s: the old schema accepts it: %v (want %v; %v), the new one: %v (want %v; %v)",
					dir, w.Args, oerr == nil, w.Old, oerr, nerr == nil, w.New, nerr)
			}
		}
		for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n") {
			if _, id, ok := strings.Cut(line, " "); ok {
				if tight, ok := needs[id]; ok && strings.HasPrefix(filepath.Base(dir), strings.ToLower(id)) {
					for _, w := range ws {
						if w.Old == tight && w.New == !tight {
							shown[id] = true
						}
					}
				}
			}
		}
	}
	for id := range needs {
		if !shown[id] {
			t.Errorf("rule %s has no witness in its golden case (testdata/%s/witness.json)", id, strings.ToLower(id))
		}
	}
}
