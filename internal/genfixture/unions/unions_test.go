package unions

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen/toolgen/runtime"
)

func compile(t *testing.T, schema string) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem://schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem://schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func messages(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("%T %v", err, err)
	}
	var out []string
	for _, v := range ve.Violations {
		out = append(out, v.String())
	}
	return out
}

// TestDrawAgreesWithJSONSchema decodes valid and invalid arguments of a
// tool with const and allOf-merged objects, and compares each verdict with
// santhosh-tekuri/jsonschema's over the schema literal the model is sent:
// the merged object the literal shows is what the decoder checks.
func TestDrawAgreesWithJSONSchema(t *testing.T) {
	ref := compile(t, drawSchema)
	circle := `"circle":{"name":"c","kind":"circle","radius":1}`
	tests := []struct {
		args string
		want string // a violation the decoder reports; "" when valid
	}{
		{`{` + circle + `,"version":2}`, ""},
		{`{` + circle + `,"version":2,"ratio":0.5,"confirm":true,"label":"fixed"}`, ""},
		{`{` + circle + `,"version":2,"label":null}`, ""},
		{`{` + circle + `,"version":2,"style":{"stroke":"solid","fill":"red","opacity":0.3}}`, ""},
		{`{"circle":{"name":"c","kind":"circle","radius":1,"note":"n"},"version":2}`, ""},
		// const
		{`{` + circle + `,"version":3}`, `$.version: must be 2, got 3`},
		{`{` + circle + `,"version":2,"ratio":0.25}`, `$.ratio: must be 0.5, got 0.25`},
		{`{` + circle + `,"version":2,"confirm":false}`, `$.confirm: must be true, got false`},
		{`{` + circle + `,"version":2,"label":"other"}`, `$.label: must be "fixed", got "other"`},
		{`{"circle":{"name":"c","kind":"square","radius":1},"version":2}`, `$.circle.kind: must be "circle", got "square"`},
		// allOf: required from either part, properties of both, strict.
		{`{"circle":{"kind":"circle","radius":1},"version":2}`, `$.circle: missing required property "name"`},
		{`{"circle":{"name":"c","kind":"circle"},"version":2}`, `$.circle: missing required property "radius"`},
		{`{"circle":{"name":"","kind":"circle","radius":1},"version":2}`, `$.circle.name: must be at least 1 character long`},
		{`{"circle":{"name":"c","kind":"circle","radius":0},"version":2}`, `$.circle.radius: must be greater than 0`},
		{`{"circle":{"name":"c","kind":"circle","radius":1,"extra":1},"version":2}`, `$.circle`},
		{`{` + circle + `,"version":2,"style":{"fill":"red"}}`, `$.style: missing required property "stroke"`},
		{`{` + circle + `,"version":2,"style":{"stroke":"dotted"}}`, `$.style.stroke: must be one of`},
		{`{` + circle + `,"version":2,"style":{"stroke":"solid","opacity":2}}`, `$.style.opacity: must be at most 1`},
		{`{` + circle + `,"version":2,"style":{"stroke":"solid","width":2}}`, `$.style`},
	}
	for _, tt := range tests {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(tt.args))
		if err != nil {
			t.Fatal(err)
		}
		refOK := ref.Validate(inst) == nil
		x, err := DecodeDrawArgs([]byte(tt.args))
		got := messages(t, err)
		if (err == nil) != refOK {
			t.Errorf("%s: decoder %v, jsonschema valid %v", tt.args, got, refOK)
			continue
		}
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.args, got)
				continue
			}
			// A valid value comes back as the same JSON (an optional
			// null is left out), and validates.
			if verr := x.Validate(); verr != nil {
				t.Errorf("%s: Validate: %v", tt.args, verr)
			}
			b, _ := json.Marshal(x)
			if !strings.Contains(tt.args, "null") && !sameJSON(t, b, []byte(tt.args)) {
				t.Errorf("%s: re-encoded as %s", tt.args, b)
			}
			continue
		}
		if !strings.Contains(strings.Join(got, "\n"), tt.want) {
			t.Errorf("%s: violations %q, want one with %q", tt.args, got, tt.want)
		}
	}
}

// TestValidateConst: values built in Go are checked against const too.
func TestValidateConst(t *testing.T) {
	x := &DrawArgs{Circle: Circle{Name: "c", Kind: "square", Radius: 1}, Version: 3}
	got := messages(t, x.Validate())
	want := []string{`$.circle.kind: must be "circle", got "square"`, `$.version: must be 2, got 3`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q, want %q", got, want)
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	ca, _ := json.Marshal(x)
	cb, _ := json.Marshal(y)
	return bytes.Equal(ca, cb)
}
