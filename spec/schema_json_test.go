package spec

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

// node is the part of a JSON Schema this test walks.
type node struct {
	Ref                  string          `json:"$ref"`
	ID                   string          `json:"$id"`
	Schema               string          `json:"$schema"`
	Properties           map[string]node `json:"properties"`
	AdditionalProperties json.RawMessage `json:"additionalProperties"`
	Items                *node           `json:"items"`
	AnyOf                []node          `json:"anyOf"`
	AllOf                []node          `json:"allOf"`
	If                   *node           `json:"if"`
	Then                 *node           `json:"then"`
	PropertyNames        *node           `json:"propertyNames"`
	Enum                 []any           `json:"enum"`
	Const                any             `json:"const"`
	Pattern              string          `json:"pattern"`
	Defs                 map[string]node `json:"$defs"`
}

func loadSchemaTree(t *testing.T) node {
	t.Helper()
	var root node
	if err := json.Unmarshal(JSONSchema, &root); err != nil {
		t.Fatalf("toolgen.schema.json: %v", err)
	}
	return root
}

// deref follows a local "#/$defs/x" reference.
func (root node) deref(t *testing.T, n node) node {
	t.Helper()
	if n.Ref == "" {
		return n
	}
	name, ok := strings.CutPrefix(n.Ref, "#/$defs/")
	def, found := root.Defs[name]
	if !ok || !found {
		t.Fatalf("unresolvable $ref %q", n.Ref)
	}
	return def
}

func (n node) additional(t *testing.T) node {
	t.Helper()
	var a node
	if err := json.Unmarshal(n.AdditionalProperties, &a); err != nil {
		t.Fatalf("additionalProperties is not a schema: %s", n.AdditionalProperties)
	}
	return a
}

// refIn returns the $ref among n and its anyOf branches.
func refIn(n node) string {
	if n.Ref != "" {
		return n.Ref
	}
	for _, b := range n.AnyOf {
		if b.Ref != "" {
			return b.Ref
		}
	}
	return ""
}

func keys(m map[string]node) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// sameKeys checks that the schema declares exactly the keys the loader
// accepts at one level.
func sameKeys(t *testing.T, level string, schema map[string]node, loader []string) {
	t.Helper()
	for _, k := range loader {
		if _, ok := schema[k]; !ok {
			t.Errorf("%s: the loader accepts %q but toolgen.schema.json does not declare it", level, k)
		}
	}
	for _, k := range keys(schema) {
		if !contains(loader, k) {
			t.Errorf("%s: toolgen.schema.json declares %q but the loader rejects it", level, k)
		}
	}
}

// TestSchemaKeysMatchLoader keeps toolgen.schema.json in step with the
// loader's key sets, level by level, and with its enumerations.
func TestSchemaKeysMatchLoader(t *testing.T) {
	root := loadSchemaTree(t)
	if root.Schema != "https://json-schema.org/draft/2020-12/schema" || root.ID != SchemaID {
		t.Errorf("$schema %q, $id %q", root.Schema, root.ID)
	}
	sameKeys(t, "module", root.Properties, moduleKeys)

	tool := root.deref(t, *root.Properties["tools"].Items)
	sameKeys(t, "tool", tool.Properties, toolKeys)
	batchRef := refIn(tool.Properties["batch"])
	batch := root.deref(t, node{Ref: batchRef})
	sameKeys(t, "batch", batch.Properties, batchKeys)

	// Every place the loader reads a schema points at the same definition.
	schemaRef := refIn(root.Properties["types"].additional(t))
	schema := root.deref(t, node{Ref: schemaRef})
	sameKeys(t, "schema", schema.Properties, schemaKeys)
	places := map[string]string{
		"tool params":                 refIn(tool.Properties["params"].additional(t)),
		"tool result":                 refIn(tool.Properties["result"]),
		"tool additionalProperties":   refIn(tool.Properties["additionalProperties"]),
		"schema items":                refIn(schema.Properties["items"]),
		"schema properties":           refIn(schema.Properties["properties"].additional(t)),
		"schema additionalProperties": refIn(schema.Properties["additionalProperties"]),
	}
	for place, ref := range places {
		if ref != schemaRef {
			t.Errorf("%s refers to %q, want %q", place, ref, schemaRef)
		}
	}

	// Enumerations.
	enumOf := func(n node) []string {
		var out []string
		for _, v := range n.Enum {
			out = append(out, v.(string))
		}
		return sorted(out)
	}
	if got := enumOf(schema.Properties["format"]); !slices.Equal(got, sorted(formats)) {
		t.Errorf("format enum %v, loader %v", got, formats)
	}
	if got := enumOf(schema.Properties["type"].AnyOf[0]); !slices.Equal(got, sorted(typeNames)) {
		t.Errorf("type enum %v, loader %v", got, typeNames)
	}
	if tp := root.Properties["targets"]; tp.Items == nil {
		t.Errorf("targets declares no items")
	} else if got := enumOf(*tp.Items); !slices.Equal(got, sorted(Dialects)) {
		t.Errorf("targets enum %v, loader %v", got, Dialects)
	}
	if got := enumOf(tool.Properties["kind"]); !slices.Equal(got, []string{"agent", "tool"}) {
		t.Errorf("kind enum %v", got)
	}
	for _, k := range toolKeys {
		p := tool.Properties[k]
		byInput := len(p.AnyOf) == 2 && p.AnyOf[1].Const == "by_input"
		if want := k == "read_only" || k == "concurrency_safe"; byInput != want {
			t.Errorf("tool key %q accepts by_input: %v, loader: %v", k, byInput, want)
		}
	}

	// The keywords allowed per type match the loader's keywordTypes.
	for _, typ := range typeNames {
		var allowed []string
		for _, c := range schema.AllOf {
			if c.If == nil || c.Then == nil || c.Then.PropertyNames == nil {
				continue
			}
			if tp, ok := c.If.Properties["type"]; ok && len(tp.AnyOf) > 0 && tp.AnyOf[0].Const == typ {
				allowed = enumOf(*c.Then.PropertyNames)
			}
		}
		var want []string
		for _, k := range schemaKeys {
			if k == "oneOf" || k == "anyOf" || k == "discriminator" {
				continue // a union has no type (union.go)
			}
			if ts, ok := keywordTypes[k]; !ok || containsType(ts, Type(typ)) {
				want = append(want, k)
			}
		}
		if !slices.Equal(allowed, sorted(want)) {
			t.Errorf("keywords for type %s: schema %v, loader %v", typ, allowed, sorted(want))
		}
	}
	for _, c := range schema.AllOf {
		if c.If != nil && c.Then != nil && c.Then.PropertyNames != nil && len(c.If.Properties) == 0 && len(c.If.AnyOf) == 0 {
			if got := enumOf(*c.Then.PropertyNames); !slices.Equal(got, sorted(refSiblings)) {
				t.Errorf("keywords beside $ref: schema %v, loader %v", got, refSiblings)
			}
		}
	}

	// Name patterns agree with the loader on sample names.
	namePat := regexp.MustCompile(root.Defs["name"].Pattern)
	long := strings.Repeat("a", MaxNameLen)
	for _, name := range []string{"a", "_x", "list-customers", "stripe_list_customers", "A9", long, long + "a", "1a", "a.b", "a b", "", "-a", "é"} {
		loaderOK := nameChars.MatchString(name) && len(name) <= MaxNameLen
		if namePat.MatchString(name) != loaderOK {
			t.Errorf("name %q: schema pattern says %v, loader %v", name, namePat.MatchString(name), loaderOK)
		}
	}
	typePat := regexp.MustCompile(root.Properties["types"].PropertyNames.Pattern)
	for _, name := range []string{"Address", "line_item", "A", "a1", "_x", "1a", "a-b", strings.Repeat("T", MaxNameLen+1)} {
		loaderOK := typeNameRe.MatchString(name) && len(name) <= MaxNameLen
		if typePat.MatchString(name) != loaderOK {
			t.Errorf("type name %q: schema pattern says %v, loader %v", name, typePat.MatchString(name), loaderOK)
		}
	}
	provPat := regexp.MustCompile(root.Properties["provider"].Pattern)
	for _, p := range []string{"stripe", "hitl", "my_tools", "x1", "Stripe", "1x", "a-b", ""} {
		if provPat.MatchString(p) != providerRe.MatchString(p) {
			t.Errorf("provider %q: schema and loader disagree", p)
		}
	}
}

func compileSpecSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(JSONSchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaID, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(SchemaID) // also validates it against the 2020-12 meta-schema
	if err != nil {
		t.Fatalf("toolgen.schema.json does not compile: %v", err)
	}
	return sch
}

// yamlInstance reads a spec file as the JSON value a schema validator sees.
func yamlInstance(t *testing.T, path string) any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	js, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: not representable as JSON: %v", path, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// TestRepoSpecsMatchSchema validates every *.tools.yaml of the repository
// (except the negative cases under testdata/invalid) against the published
// JSON Schema.
func TestRepoSpecsMatchSchema(t *testing.T) {
	sch := compileSpecSchema(t)
	root := moduleRoot(t)
	var specs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "invalid" && filepath.Base(filepath.Dir(path)) == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ".tools.yaml") {
			specs = append(specs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, path := range specs {
		rel, _ := filepath.Rel(root, path)
		if strings.HasPrefix(filepath.ToSlash(rel), "spec/testdata/valid/") {
			seen++
		}
		t.Run(rel, func(t *testing.T) {
			if err := sch.Validate(yamlInstance(t, path)); err != nil {
				t.Errorf("%s does not match toolgen.schema.json:\n%v", rel, err)
			}
		})
	}
	if seen < 2 {
		t.Errorf("the walk found %d of the specs under spec/testdata/valid; found %v", seen, specs)
	}
}

// TestSchemaRejectsInvalidSpecs shows the schema is not vacuous: the
// negative cases whose mistakes a JSON Schema can express fail it.
func TestSchemaRejectsInvalidSpecs(t *testing.T) {
	sch := compileSpecSchema(t)
	for _, c := range []string{
		"unknown-key-module", "unknown-key-tool", "unknown-key-schema", "bad-type", "bad-names",
		"wrong-version", "missing-keys", "read-only-destructive", "prompt-without-agent",
		"keyword-type-mismatch", "unsupported-format", "exclusive-boolean", "batch-invalid",
		"enum-problems", "bad-package", "gates", "min-greater-than-max", "bad-ref", "agent-result", "agent-empty-prompt",
		"trim-problems",
	} {
		path := filepath.Join("testdata", "invalid", c, "spec.tools.yaml")
		if err := sch.Validate(yamlInstance(t, path)); err == nil {
			t.Errorf("%s matches toolgen.schema.json; want a failure", path)
		}
	}
}
