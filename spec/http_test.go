package spec

import (
	"path/filepath"
	"testing"
)

// TestHTTPSchemaKeysMatchLoader keeps the http levels of toolgen.schema.json
// in step with the loader's key sets.
func TestHTTPSchemaKeysMatchLoader(t *testing.T) {
	root := loadSchemaTree(t)
	mod := root.deref(t, root.Properties["http"])
	sameKeys(t, "module http", mod.Properties, httpModuleKeys)
	sameKeys(t, "auth", root.deref(t, mod.Properties["auth"]).Properties, httpAuthKeys)
	tool := root.deref(t, *root.Properties["tools"].Items)
	b := root.deref(t, tool.Properties["http"])
	sameKeys(t, "tool http", b.Properties, httpToolKeys)
	arg := root.deref(t, b.Properties["args"].additional(t))
	sameKeys(t, "args entry", arg.AnyOf[1].Properties, httpArgKeys)
	sameKeys(t, "paginate", root.deref(t, b.Properties["paginate"]).Properties, paginateKeys)
	enum := func(n node) []string {
		var out []string
		for _, v := range n.Enum {
			out = append(out, v.(string))
		}
		return sorted(out)
	}
	for name, c := range map[string]struct{ got, want []string }{
		"in":         {enum(arg.AnyOf[0]), argIns},
		"in (map)":   {enum(arg.AnyOf[1].Properties["in"]), argIns},
		"auth type":  {enum(root.deref(t, mod.Properties["auth"]).Properties["type"]), authTypes},
		"body":       {enum(b.Properties["body"]), bodyKinds},
		"page style": {enum(root.deref(t, b.Properties["paginate"]).Properties["style"]), pageStyles},
	} {
		if !equalStrings(c.got, sorted(c.want)) {
			t.Errorf("%s: schema %v, loader %v", name, c.got, c.want)
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestHTTPSchemaRejectsInvalid: the published schema refuses the http
// mistakes it can express.
func TestHTTPSchemaRejectsInvalid(t *testing.T) {
	sch := compileSpecSchema(t)
	for _, c := range []string{"http-binding"} {
		path := filepath.Join("testdata", "invalid", c, "spec.tools.yaml")
		if err := sch.Validate(yamlInstance(t, path)); err == nil {
			t.Errorf("%s matches toolgen.schema.json; want a failure", path)
		}
	}
}

// TestHTTPBindingDefaults loads a valid bound spec and checks the defaults
// the loader fills in.
func TestHTTPBindingDefaults(t *testing.T) {
	f := mustLoad(t, "testdata/valid/httpapi/httpapi.tools.yaml")
	if f.HTTP == nil || f.HTTP.BaseURL != "https://api.example.com/v2" || f.HTTP.Auth.Type != AuthAPIKey || f.HTTP.Auth.In != "header" || f.HTTP.Auth.Name != "X-API-Key" {
		t.Fatalf("module http %+v", f.HTTP)
	}
	type arg struct {
		param, name string
		in          ArgIn
		style       string
		explode     bool
	}
	want := map[string]struct {
		method, path, body string
		args               []arg
	}{
		"pets_get_pet": {"GET", "/pets/{id}", "", []arg{
			{"pet_id", "id", InPath, StyleSimple, false},
			{"fields", "fields", InQuery, StyleForm, true},
			{"filter", "filter", InQuery, StyleDeepObject, false},
			{"trace", "X-Trace", InHeader, StyleSimple, false},
		}},
		"pets_create_pet": {"POST", "/pets", BodyForm, []arg{
			{"name", "name", InBody, StyleForm, true},
			{"tags", "tags", InBody, StyleDeepObject, false},
		}},
		"pets_list_pets": {"GET", "/pets", "", []arg{
			{"limit", "limit", InQuery, StyleForm, true},
			{"starting_after", "starting_after", InQuery, StyleForm, true},
		}},
		"pets_replace_tags": {"PUT", "/pets/{id}/tags", BodyJSON, []arg{
			{"id", "id", InPath, StyleSimple, false},
			{"tags", "tags", InWholeBody, StyleForm, true},
		}},
	}
	for _, tool := range f.Tools {
		w := want[tool.Name]
		h := tool.HTTP
		if h == nil || h.Method != w.method || h.Path != w.path || h.Body != w.body {
			t.Errorf("%s: http %+v, want %s %s body %q", tool.Name, h, w.method, w.path, w.body)
			continue
		}
		var got []arg
		for _, a := range h.Args {
			got = append(got, arg{a.Param, a.Name, a.In, a.Style, a.Explode})
		}
		if len(got) != len(w.args) {
			t.Errorf("%s: args %+v, want %+v", tool.Name, got, w.args)
			continue
		}
		for i := range got {
			if got[i] != w.args[i] {
				t.Errorf("%s: arg %d is %+v, want %+v", tool.Name, i, got[i], w.args[i])
			}
		}
	}
	pg := f.Tools[2].HTTP.Paginate
	if pg == nil || pg.Style != PageCursor || pg.CursorField != "id" || pg.MaxPages != "max_pages" || pg.Items != "data" {
		t.Errorf("paginate %+v", pg)
	}
}
