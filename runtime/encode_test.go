package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata/encode")

// The golden registry: a tool with nullable, optional, enum, nested array
// of objects and bounds; a read-only one; a destructive one; a gated one
// (closed: never shown) and a disabled one; the provider tools web_search
// and code_execution.
const (
	createTicketSchema = `{"additionalProperties":false,"properties":{` +
		`"assignee":{"description":"Who handles it; null for nobody.","format":"email","type":["string","null"]},` +
		`"due":{"format":"date-time","type":["string","null"]},` +
		`"estimate":{"description":"Hours of work.","exclusiveMinimum":0,"multipleOf":0.5,"type":"number"},` +
		`"priority":{"default":2,"description":"How urgent.","enum":[1,2,3],"type":"integer"},` +
		`"status":{"enum":["open","triage",null],"type":["string","null"]},` +
		`"subtasks":{"items":{"additionalProperties":false,"properties":{"done":{"default":false,"type":"boolean"},"name":{"maxLength":80,"minLength":1,"type":"string"}},"required":["name"],"type":"object"},"maxItems":20,"minItems":1,"type":"array"},` +
		`"tags":{"items":{"type":"string"},"type":"array","uniqueItems":true},` +
		`"title":{"description":"Short summary.","maxLength":200,"minLength":1,"type":"string"}` +
		`},"required":["title","assignee"],"type":"object"}`
	listTicketsSchema  = `{"additionalProperties":false,"properties":{"limit":{"default":10,"description":"Max rows (1-100).","maximum":100,"minimum":1,"type":"integer"}},"type":"object"}`
	deleteTicketSchema = `{"additionalProperties":false,"properties":{"id":{"pattern":"^T-[0-9]+$","type":"string"}},"required":["id"],"type":"object"}`
)

func encodeTestTool(name, desc, schema string, flags Flags) *Tool {
	t := regTool(name)
	t.Description = desc
	t.Schema = json.RawMessage(schema)
	t.Flags = flags
	return t
}

func goldenRegistry(t testing.TB) *Registry {
	t.Helper()
	r := NewRegistry(Options{Gates: GatesFunc(func(_ context.Context, _ *Call, gate string) (bool, error) {
		return gate == "tickets", nil
	})})
	create := encodeTestTool("create_ticket", "Open a ticket in the tracker.", createTicketSchema, DefaultFlags())
	create.Gate = "tickets"
	create.Examples = []json.RawMessage{
		json.RawMessage(`{"assignee": null, "title": "Printer on fire"}`),
		json.RawMessage(`{"assignee":"ada@example.com","priority":1,"subtasks":[{"name":"Find the extinguisher"}],"title":"Printer on fire"}`),
	}
	list := encodeTestTool("list_tickets", "List recent tickets.", listTicketsSchema,
		Flags{Enabled: true, ReadOnly: true, Idempotent: true, OpenWorld: true, ConcurrencySafe: true})
	list.Examples = []json.RawMessage{json.RawMessage(`{"limit":5}`)}
	// Title and icons: sent to MCP only.
	list.Title = "List tickets"
	list.Icons = []Icon{
		{Src: "https://example.com/tickets.png", MIMEType: "image/png", Sizes: []string{"48x48", "96x96"}, Theme: "light"},
		{Src: "data:image/svg+xml;base64,PHN2Zy8+", Sizes: []string{"any"}},
	}
	del := encodeTestTool("delete_ticket", "Delete a ticket for good.", deleteTicketSchema,
		Flags{Enabled: true, Destructive: true, Idempotent: true, OpenWorld: true, RequiresApproval: true})
	closed := encodeTestTool("billing_refund", "Refund a charge.", deleteTicketSchema, DefaultFlags())
	closed.Gate = "billing"
	off := encodeTestTool("old_tool", "Retired.", listTicketsSchema, Flags{})
	if err := r.Add(create, list, closed, del, off); err != nil {
		t.Fatal(err)
	}
	if err := r.AddProvider(ProviderTool{Name: WebSearch}, ProviderTool{Name: CodeExecution}); err != nil {
		t.Fatal(err)
	}
	return r
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "encode", name)
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(append([]byte(nil), got...), '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./runtime -run TestEncodeGolden -update to create it)", err)
	}
	if !bytes.Equal(got, bytes.TrimSuffix(want, []byte("\n"))) {
		t.Errorf("%s differs from the golden file\n got: %s\nwant: %s", name, got, want)
	}
}

func TestEncodeGolden(t *testing.T) {
	r := goldenRegistry(t)
	for _, c := range []struct {
		file string
		d    Dialect
		opts EncodeOptions
	}{
		{"openai_chat.json", DialectOpenAIChat, EncodeOptions{}},
		{"openai_chat_strict.json", DialectOpenAIChat, EncodeOptions{Strict: true}},
		{"openai_responses.json", DialectOpenAI, EncodeOptions{}},
		{"openai_responses_strict.json", DialectOpenAI, EncodeOptions{Strict: true}},
		{"anthropic.json", DialectAnthropic, EncodeOptions{}},
		{"anthropic_strict.json", DialectAnthropic, EncodeOptions{Strict: true}},
		{"gemini.json", DialectGemini, EncodeOptions{}},
		{"gemini_jsonschema.json", DialectGemini, EncodeOptions{GeminiJSONSchema: true}},
		{"mcp.json", DialectMCP, EncodeOptions{}},
	} {
		t.Run(c.file, func(t *testing.T) {
			got, err := r.EncodeCatalog(context.Background(), &Call{UserID: "u"}, c.d, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, c.file, got)
			// Same input, same bytes.
			again, err := r.EncodeCatalog(context.Background(), &Call{UserID: "u"}, c.d, c.opts)
			if err != nil || !bytes.Equal(got, again) {
				t.Errorf("second encoding differs: %v\n%s\n%s", err, got, again)
			}
		})
	}
}

func TestGeminiSchema(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
		unsupported    bool
	}{
		{name: "nested nullable object",
			in:   `{"additionalProperties":false,"properties":{"addr":{"additionalProperties":false,"properties":{"city":{"type":"string"},"zip":{"type":["string","null"]}},"required":["city"],"type":["object","null"]}},"type":"object"}`,
			want: `{"properties":{"addr":{"nullable":true,"properties":{"city":{"type":"STRING"},"zip":{"nullable":true,"type":"STRING"}},"required":["city"],"type":"OBJECT"}},"type":"OBJECT"}`},
		{name: "array of nullable items",
			in:   `{"properties":{"tags":{"items":{"maxLength":3,"type":["string","null"]},"type":["array","null"],"uniqueItems":true}},"type":"object"}`,
			want: `{"properties":{"tags":{"description":"Items must be unique.","items":{"maxLength":3,"nullable":true,"type":"STRING"},"nullable":true,"type":"ARRAY"}},"type":"OBJECT"}`},
		{name: "array of nullable objects",
			in:   `{"properties":{"rows":{"items":{"additionalProperties":false,"properties":{"x":{"type":"number"}},"type":["object","null"]},"type":"array"}},"type":"object"}`,
			want: `{"properties":{"rows":{"items":{"nullable":true,"properties":{"x":{"type":"NUMBER"}},"type":"OBJECT"},"type":"ARRAY"}},"type":"OBJECT"}`},
		{name: "number enum becomes a description",
			in:   `{"properties":{"n":{"description":"Level.","enum":[1,2.5,null],"type":["number","null"]}},"type":"object"}`,
			want: `{"properties":{"n":{"description":"Level. One of: 1, 2.5.","nullable":true,"type":"NUMBER"}},"type":"OBJECT"}`},
		{name: "boolean enum",
			in:   `{"properties":{"b":{"enum":[true],"type":"boolean"}},"type":"object"}`,
			want: `{"properties":{"b":{"description":"One of: true.","type":"BOOLEAN"}},"type":"OBJECT"}`},
		{name: "string enum takes format enum",
			in:   `{"properties":{"s":{"enum":["a","b"],"format":"date-time","type":"string"}},"type":"object"}`,
			want: `{"properties":{"s":{"description":"Format: date-time.","enum":["a","b"],"format":"enum","type":"STRING"}},"type":"OBJECT"}`},
		{name: "formats",
			in:   `{"properties":{"a":{"format":"double","type":"number"},"b":{"format":"int32","type":"number"},"c":{"format":"int64","type":"integer"},"d":{"format":"uuid","type":"string"}},"type":"object"}`,
			want: `{"properties":{"a":{"format":"double","type":"NUMBER"},"b":{"description":"Format: int32.","type":"NUMBER"},"c":{"format":"int64","type":"INTEGER"},"d":{"description":"Format: uuid.","type":"STRING"}},"type":"OBJECT"}`},
		{name: "bounds kept and dropped",
			in:   `{"properties":{"n":{"default":4,"exclusiveMaximum":10,"exclusiveMinimum":0,"maximum":9,"minimum":1,"multipleOf":2,"title":"N","type":"integer"}},"type":"object"}`,
			want: `{"properties":{"n":{"description":"Must be greater than 0. Must be less than 10. Must be a multiple of 2. Default: 4.","maximum":9,"minimum":1,"title":"N","type":"INTEGER"}},"type":"OBJECT"}`},
		{name: "open object with properties",
			in:   `{"additionalProperties":{"type":"string"},"properties":{"id":{"type":"string"}},"type":"object"}`,
			want: `{"description":"Keys other than those listed are allowed.","properties":{"id":{"type":"STRING"}},"type":"OBJECT"}`},
		{name: "anyOf",
			in:   `{"properties":{"v":{"anyOf":[{"type":"string"},{"type":["integer","null"]}]}},"type":"object"}`,
			want: `{"properties":{"v":{"anyOf":[{"type":"STRING"},{"nullable":true,"type":"INTEGER"}]}},"type":"OBJECT"}`},
		{name: "no parameters", in: `{"additionalProperties":false,"properties":{},"type":"object"}`, want: ``},
		{name: "map", in: `{"properties":{"m":{"additionalProperties":{"type":"number"},"type":"object"}},"type":"object"}`, unsupported: true},
		{name: "nested empty object", in: `{"properties":{"e":{"additionalProperties":false,"properties":{},"type":"object"}},"type":"object"}`, unsupported: true},
		{name: "root map", in: `{"additionalProperties":true,"type":"object"}`, unsupported: true},
		{name: "array without items", in: `{"properties":{"a":{"type":"array"}},"type":"object"}`, unsupported: true},
		{name: "type array as anyOf", in: `{"properties":{"u":{"description":"U.","enum":["a",1],"maxLength":3,"maximum":9,"type":["string","integer","null"]}},"type":"object"}`,
			want: `{"properties":{"u":{"anyOf":[{"enum":["a"],"format":"enum","maxLength":3,"type":"STRING"},{"description":"One of: 1.","maximum":9,"type":"INTEGER"}],"description":"U.","nullable":true}},"type":"OBJECT"}`},
		{name: "nullable anyOf collapses", in: `{"properties":{"u":{"anyOf":[{"type":"null"},{"minLength":1,"type":"string"}],"description":"U."}},"type":"object"}`,
			want: `{"properties":{"u":{"description":"U.","minLength":1,"nullable":true,"type":"STRING"}},"type":"OBJECT"}`},
		{name: "oneOf as anyOf", in: `{"properties":{"u":{"oneOf":[{"type":"string"},{"type":"boolean"}]}},"type":"object"}`,
			want: `{"properties":{"u":{"anyOf":[{"type":"STRING"},{"type":"BOOLEAN"}],"description":"Exactly one of the alternatives (anyOf) must match."}},"type":"OBJECT"}`},
		{name: "ref inlined", in: `{"$defs":{"S":{"maxLength":3,"type":"string"}},"properties":{"u":{"$ref":"#/$defs/S","description":"U."}},"type":"object"}`,
			want: `{"properties":{"u":{"description":"U.","maxLength":3,"type":"STRING"}},"type":"OBJECT"}`},
		{name: "required recursion cannot be cut", in: `{"$defs":{"N":{"properties":{"next":{"$ref":"#/$defs/N"}},"required":["next"],"type":"object"}},"properties":{"n":{"$ref":"#/$defs/N"}},"required":["n"],"type":"object"}`, unsupported: true},
		{name: "only null union", in: `{"properties":{"u":{"anyOf":[{"type":"null"}]}},"type":"object"}`, unsupported: true},
		{name: "only null", in: `{"properties":{"u":{"type":"null"}},"type":"object"}`, unsupported: true},
		{name: "const as a one-value enum", in: `{"properties":{"c":{"const":"x","type":"string"}},"type":"object"}`,
			want: `{"properties":{"c":{"enum":["x"],"format":"enum","type":"STRING"}},"type":"OBJECT"}`},
		{name: "not", in: `{"properties":{"c":{"not":{"const":"x"},"type":"string"}},"type":"object"}`, unsupported: true},
		{name: "root not an object", in: `{"type":"string"}`, unsupported: true},
		{name: "root nullable", in: `{"properties":{"a":{"type":"string"}},"type":["object","null"]}`, unsupported: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := GeminiSchema(json.RawMessage(c.in))
			if c.unsupported {
				if !errors.Is(err, ErrUnsupportedSchema) {
					t.Fatalf("got %s, %v; want ErrUnsupportedSchema", got, err)
				}
				return
			}
			if err != nil || string(got) != c.want {
				t.Errorf("got  %s, %v\nwant %s", got, err, c.want)
			}
		})
	}
	// A malformed schema is an error of its own, not a fallback.
	for _, in := range []string{`{"properties":[],"type":"object"}`, `{"properties":{"a":{"type":7}},"type":"object"}`,
		`{"properties":{"a":{"type":"string"}},"required":"a","type":"object"}`, `{"properties":{"a":{"type":"strin"}},"type":"object"}`, `[`, `{} {}`,
		`{"properties":{"c":{"$ref":"#/$defs/x"}},"type":"object"}`} {
		if _, err := GeminiSchema(json.RawMessage(in)); err == nil || errors.Is(err, ErrUnsupportedSchema) {
			t.Errorf("GeminiSchema(%s) = %v, want a schema error", in, err)
		}
	}
}

func TestOpenAIStrictSchema(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
		unsupported    bool
	}{
		{name: "already required stays as it is",
			in:   `{"additionalProperties":false,"properties":{"a":{"type":"string"},"b":{"type":["string","null"]}},"required":["b","a"],"type":"object"}`,
			want: `{"additionalProperties":false,"properties":{"a":{"type":"string"},"b":{"type":["string","null"]}},"required":["b","a"],"type":"object"}`},
		{name: "optional becomes required and nullable",
			in:   `{"properties":{"a":{"type":"string"},"b":{"enum":["x","y"],"type":"string"},"c":{"enum":["x",null],"type":["string","null"]}},"required":["a"],"type":"object"}`,
			want: `{"additionalProperties":false,"properties":{"a":{"type":"string"},"b":{"enum":["x","y",null],"type":["string","null"]},"c":{"enum":["x",null],"type":["string","null"]}},"required":["a","b","c"],"type":"object"}`},
		{name: "nested nullable objects",
			in:   `{"additionalProperties":false,"properties":{"addr":{"additionalProperties":false,"properties":{"city":{"type":"string"},"geo":{"additionalProperties":false,"properties":{"lat":{"type":"number"}},"type":["object","null"]}},"required":["city"],"type":["object","null"]}},"type":"object"}`,
			want: `{"additionalProperties":false,"properties":{"addr":{"additionalProperties":false,"properties":{"city":{"type":"string"},"geo":{"additionalProperties":false,"properties":{"lat":{"type":["number","null"]}},"required":["lat"],"type":["object","null"]}},"required":["city","geo"],"type":["object","null"]}},"required":["addr"],"type":"object"}`},
		{name: "array of nullable items",
			in:   `{"additionalProperties":false,"properties":{"xs":{"items":{"type":["integer","null"]},"minItems":1,"type":"array"}},"required":["xs"],"type":"object"}`,
			want: `{"additionalProperties":false,"properties":{"xs":{"items":{"type":["integer","null"]},"minItems":1,"type":"array"}},"required":["xs"],"type":"object"}`},
		{name: "array of objects with optional members",
			in:   `{"additionalProperties":false,"properties":{"rows":{"items":{"additionalProperties":false,"properties":{"k":{"type":"string"},"v":{"default":1,"type":"number"}},"required":["k"],"type":"object"},"type":"array"}},"required":["rows"],"type":"object"}`,
			want: `{"additionalProperties":false,"properties":{"rows":{"items":{"additionalProperties":false,"properties":{"k":{"type":"string"},"v":{"description":"Default: 1.","type":["number","null"]}},"required":["k","v"],"type":"object"},"type":"array"}},"required":["rows"],"type":"object"}`},
		{name: "anyOf optional gains a null branch",
			in:   `{"properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer"}]}},"type":"object"}`,
			want: `{"additionalProperties":false,"properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]}},"required":["v"],"type":"object"}`},
		{name: "unsupported keywords described",
			in:   `{"$schema":"x","properties":{"s":{"format":"uri","maxLength":9,"minLength":2,"title":"S","type":"string"},"e":{"format":"email","pattern":"@","type":"string"}},"required":["s","e"],"title":"T","type":"object"}`,
			want: `{"additionalProperties":false,"properties":{"e":{"format":"email","pattern":"@","type":"string"},"s":{"description":"Format: uri. At least 2 characters. At most 9 characters.","type":"string"}},"required":["s","e"],"type":"object"}`},
		{name: "empty object", in: `{"type":"object"}`, want: `{"additionalProperties":false,"properties":{},"required":[],"type":"object"}`},
		{name: "map", in: `{"properties":{"m":{"additionalProperties":{"type":"number"},"type":"object"}},"type":"object"}`, unsupported: true},
		{name: "open root", in: `{"additionalProperties":true,"properties":{"a":{"type":"string"}},"type":"object"}`, unsupported: true},
		{name: "const as a one-value enum", in: `{"properties":{"c":{"const":1,"type":"integer"}},"type":"object"}`,
			want: `{"additionalProperties":false,"properties":{"c":{"enum":[1,null],"type":["integer","null"]}},"required":["c"],"type":"object"}`},
		{name: "not", in: `{"properties":{"c":{"not":{"const":1},"type":"integer"}},"type":"object"}`, unsupported: true},
		{name: "untyped property", in: `{"properties":{"c":{"description":"anything"}},"type":"object"}`, unsupported: true},
		{name: "root nullable", in: `{"properties":{},"type":["object","null"]}`, unsupported: true},
		{name: "too deep", in: nested(11), unsupported: true},
		{name: "deep enough", in: nested(10), want: nested(10)},
		{name: "required names no property", in: `{"properties":{"a":{"type":"string"}},"required":["a","b"],"type":"object"}`, unsupported: true},
		{name: "required listed twice", in: `{"properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["b","b"],"type":"object"}`,
			want: `{"additionalProperties":false,"properties":{"a":{"type":["string","null"]},"b":{"type":"string"}},"required":["b","a"],"type":"object"}`},
		{name: "items on a string", in: `{"properties":{"s":{"items":{"type":"string"},"type":"string"}},"required":["s"],"type":"object"}`, unsupported: true},
		{name: "arrays too deep", in: deepArrays(maxSchemaDepth - 1), unsupported: true},
		{name: "arrays deep enough", in: deepArrays(maxSchemaDepth - 2), want: deepArrays(maxSchemaDepth - 2)},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := OpenAIStrictSchema(json.RawMessage(c.in))
			if c.unsupported {
				if !errors.Is(err, ErrUnsupportedSchema) {
					t.Fatalf("got %s, %v; want ErrUnsupportedSchema", got, err)
				}
				return
			}
			if err != nil || string(got) != c.want {
				t.Errorf("got  %s, %v\nwant %s", got, err, c.want)
			}
			// The transform is idempotent: its output is strict already.
			again, err := OpenAIStrictSchema(got)
			if err != nil || string(again) != string(got) {
				t.Errorf("second pass: %s, %v", again, err)
			}
		})
	}
	// Too many enum values or properties.
	var enum, props []string
	for i := range 1001 {
		enum = append(enum, `"v`+strconv.Itoa(i)+`"`)
		props = append(props, `"p`+strconv.Itoa(i)+`":{"type":"string"}`)
	}
	big := `{"properties":{"e":{"enum":[` + strings.Join(enum, ",") + `],"type":"string"}},"required":["e"],"type":"object"}`
	if _, err := OpenAIStrictSchema(json.RawMessage(big)); !errors.Is(err, ErrUnsupportedSchema) {
		t.Errorf("1001 enum values: %v", err)
	}
	for i := len(props); i <= strictMaxProperties; i++ {
		props = append(props, `"p`+strconv.Itoa(i)+`":{"type":"string"}`)
	}
	wide := `{"properties":{` + strings.Join(props[:strictMaxProperties+1], ",") + `},"type":"object"}`
	if _, err := OpenAIStrictSchema(json.RawMessage(wide)); !errors.Is(err, ErrUnsupportedSchema) {
		t.Errorf("%d properties: %v", strictMaxProperties+1, err)
	}

	// The other documented limits, each just within and just over.
	enumOf := func(n, size int) string {
		vals := make([]string, n)
		for i := range vals {
			v := strconv.Itoa(i)
			vals[i] = `"` + v + strings.Repeat("x", size-len(v)) + `"`
		}
		return `{"enum":[` + strings.Join(vals, ",") + `],"type":"string"}`
	}
	for _, c := range []struct {
		name, in string
		ok       bool
	}{
		{"1000 enum values", `{"properties":{"e":` + enumOf(1000, 4) + `},"required":["e"],"type":"object"}`, true},
		{"999 enum values and a null", `{"properties":{"e":` + enumOf(1000, 4) + `},"type":"object"}`, false},
		{"250 long strings", `{"properties":{"e":` + enumOf(250, 60) + `},"required":["e"],"type":"object"}`, true},
		{"251 shorter strings", `{"properties":{"e":` + enumOf(251, 59) + `},"required":["e"],"type":"object"}`, true},
		{"251 long strings", `{"properties":{"e":` + enumOf(251, 60) + `},"required":["e"],"type":"object"}`, false},
		{"120000 characters", `{"properties":{"` + strings.Repeat("a", 60000) + `":{"type":"string"},"` +
			strings.Repeat("b", 59990) + `":` + enumOf(1, 10) + `},"type":"object"}`, true},
		{"120001 characters", `{"properties":{"` + strings.Repeat("a", 60000) + `":{"type":"string"},"` +
			strings.Repeat("b", 59991) + `":` + enumOf(1, 10) + `},"type":"object"}`, false},
	} {
		_, err := OpenAIStrictSchema(json.RawMessage(c.in))
		if c.ok && err != nil || !c.ok && !errors.Is(err, ErrUnsupportedSchema) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestSchemaRewritesHostile: what a schema from an untrusted MCP server
// could hold costs bounded work and ends in an error, never a panic.
func TestSchemaRewritesHostile(t *testing.T) {
	rewrites := map[string]func(json.RawMessage) (json.RawMessage, error){
		"strict": OpenAIStrictSchema, "gemini": GeminiSchema}
	for name, rewrite := range rewrites {
		// Nesting: 64 schemas deep is fine, 65 falls back, 10001 is not JSON
		// the decoder reads.
		if _, err := rewrite(json.RawMessage(deepArrays(maxSchemaDepth - 2))); err != nil {
			t.Errorf("%s: %d deep: %v", name, maxSchemaDepth, err)
		}
		if _, err := rewrite(json.RawMessage(deepArrays(maxSchemaDepth - 1))); !errors.Is(err, ErrUnsupportedSchema) ||
			!strings.Contains(err.Error(), "nested more than 64 deep") {
			t.Errorf("%s: %d deep: %v", name, maxSchemaDepth+1, err)
		}
		if _, err := rewrite(json.RawMessage(deepArrays(10001))); err == nil || errors.Is(err, ErrUnsupportedSchema) {
			t.Errorf("%s: 10003 deep: %v", name, err)
		}
		// Malformed: an error naming the place.
		for _, in := range []string{
			`{"properties":{"a":{"type":"strin"}},"type":"object"}`,
			`{"properties":{"a":{"type":["string",1]}},"type":"object"}`,
			`{"properties":{"a":{"enum":"x","type":"string"}},"type":"object"}`,
			`{"properties":{"a":{"anyOf":{}}},"type":"object"}`,
			`{"properties":{"a":{"items":[],"type":"array"}},"type":"object"}`,
			`{"properties":{"a":7},"type":"object"}`,
			`{"properties":{"a":{"properties":{"b":{"type":"object","required":[1]}},"type":"object"}},"type":"object"}`,
		} {
			if _, err := rewrite(json.RawMessage(in)); err == nil || errors.Is(err, ErrUnsupportedSchema) ||
				!strings.Contains(err.Error(), "invalid schema at $.a") {
				t.Errorf("%s(%s) = %v, want an invalid-schema error at $.a", name, in, err)
			}
		}
		// A huge enum is read once; strict mode falls back.
		vals := make([]string, 100_000)
		for i := range vals {
			vals[i] = strconv.Quote(strconv.Itoa(i))
		}
		huge := `{"properties":{"e":{"enum":[` + strings.Join(vals, ",") + `],"type":"string"}},"required":["e"],"type":"object"}`
		if _, err := rewrite(json.RawMessage(huge)); name == "strict" && !errors.Is(err, ErrUnsupportedSchema) || name == "gemini" && err != nil {
			t.Errorf("%s: huge enum: %v", name, err)
		}
	}
	// DropNullOptionals follows a deep schema 64 levels down and no further.
	deep := `{"type":"string"}`
	for range 100 {
		deep = `{"properties":{"o":{"type":"string"},"in":` + deep + `},"type":"object"}`
	}
	args := strings.Repeat(`{"o":null,"in":`, 100) + `"x"` + strings.Repeat(`}`, 100)
	got := string(dropNullOptionals(json.RawMessage(deep), json.RawMessage(args)))
	if want := strings.Repeat(`{"in":`, 64) + strings.Repeat(`{"o":null,"in":`, 36) + `"x"` + strings.Repeat(`}`, 100); got != want {
		t.Errorf("deep arguments:\n got  %s\n want %s", got, want)
	}
}

// nested is an object schema with n levels of objects, each required.
func nested(n int) string {
	s := `{"additionalProperties":false,"properties":{},"required":[],"type":"object"}`
	for range n - 1 {
		s = `{"additionalProperties":false,"properties":{"in":` + s + `},"required":["in"],"type":"object"}`
	}
	return s
}

// deepArrays is an object schema whose property a is n arrays nested in
// each other, of strings: n+2 schemas deep, counting the root.
func deepArrays(n int) string {
	return `{"additionalProperties":false,"properties":{"a":` + strings.Repeat(`{"items":`, n) + `{"type":"string"}` +
		strings.Repeat(`,"type":"array"}`, n) + `},"required":["a"],"type":"object"}`
}

// edgeSchema is the argument schema of the generated edge-case fixture
// (internal/genfixture/edge): maps, open objects, nested arrays of
// objects, nullable items, defaults of every kind.
const edgeSchema = `{"additionalProperties":false,"properties":{"big":{"maximum":9007199254740992,"multipleOf":3,"type":"integer"},"counts":{"additionalProperties":{"minimum":0,"type":["integer","null"]},"type":"object"},"empty_default":{"default":"","type":"string"},"flag":{"default":true,"type":"boolean"},"grid":{"items":{"items":{"additionalProperties":false,"properties":{"x":{"type":"number"},"y":{"default":0.5,"type":"number"}},"required":["x"],"type":"object"},"type":"array"},"type":"array"},"labels":{"items":{"type":"string"},"minItems":1,"type":"array"},"maybe_tags":{"items":{"maxLength":3,"type":["string","null"]},"type":"array","uniqueItems":true},"nothing":{"additionalProperties":false,"properties":{},"type":"object"},"nullable_with_default":{"default":"x","type":["string","null"]},"open":{"additionalProperties":{"minLength":1,"type":["string","null"]},"properties":{"id":{"type":"string"}},"type":"object"},"origin":{"additionalProperties":false,"default":{"x":0,"y":0},"properties":{"x":{"type":"number"},"y":{"default":0.5,"type":"number"}},"required":["x"],"type":"object"},"points":{"default":[{"x":1}],"items":{"additionalProperties":false,"properties":{"x":{"type":"number"},"y":{"default":0.5,"type":"number"}},"required":["x"],"type":"object"},"type":"array","uniqueItems":true},"prio":{"default":2,"description":"How urgent.","enum":[1,2,3],"type":"integer"},"ratio":{"default":1.5,"exclusiveMinimum":0,"type":"number"},"scores":{"additionalProperties":{"type":"number"},"default":{"a":1,"b":2},"type":"object"},"start":{"default":"2024-01-31T09:30:00+02:00","format":"date-time","type":"string"},"tags":{"default":["a","b"],"items":{"type":"string"},"type":"array"},"when":{"format":"date-time","type":"string"}},"required":["when"],"type":"object"}`

// decodeItems decodes an encoded tool list.
func decodeItems(t *testing.T, raw []byte) []map[string]json.RawMessage {
	t.Helper()
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return items
}

func TestEncodeFallbacks(t *testing.T) {
	edge := encodeTestTool("edge", "Every edge case.", edgeSchema, DefaultFlags())
	none := encodeTestTool("ping", "No parameters.", `{"additionalProperties":false,"properties":{},"type":"object"}`, DefaultFlags())
	bare := encodeTestTool("bare", "Nil schema.", "", DefaultFlags())
	tools := []*Tool{edge, none, bare}

	// OpenAI strict: the edge tool (maps) cannot be strict and goes as it is.
	raw, err := EncodeTools(DialectOpenAI, tools, nil, EncodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	items := decodeItems(t, raw)
	if string(items[0]["strict"]) != "false" || string(items[0]["parameters"]) != edgeSchema {
		t.Errorf("edge tool in strict mode: %s %s", items[0]["strict"], items[0]["parameters"])
	}
	if string(items[1]["strict"]) != "true" || string(items[2]["strict"]) != "true" ||
		string(items[2]["parameters"]) != `{"additionalProperties":false,"properties":{},"required":[],"type":"object"}` {
		t.Errorf("strict tools without parameters: %s", raw)
	}
	raw, err = EncodeTools(DialectOpenAIChat, tools, nil, EncodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"function","function":{"name":"bare","description":"Nil schema.","parameters":{"properties":{},"type":"object"},"strict":false}}`; !strings.Contains(string(raw), want) {
		t.Errorf("nil schema on chat completions: %s", raw)
	}

	// Gemini: the edge tool goes as parametersJsonSchema, every keyword
	// kept and those Gemini ignores described; tools without parameters
	// have neither field.
	for _, opts := range []EncodeOptions{{}, {GeminiJSONSchema: true}} {
		raw, err := EncodeTools(DialectGemini, tools, nil, opts)
		if err != nil {
			t.Fatal(err)
		}
		var out []struct {
			FunctionDeclarations []map[string]json.RawMessage `json:"functionDeclarations"`
		}
		if err := json.Unmarshal(raw, &out); err != nil || len(out) != 1 || len(out[0].FunctionDeclarations) != 3 {
			t.Fatalf("%+v: %s, %v", opts, raw, err)
		}
		decls := out[0].FunctionDeclarations
		js := string(decls[0]["parametersJsonSchema"])
		for _, want := range []string{`"big":{"description":"Must be a multiple of 3.","maximum":9007199254740992,"multipleOf":3,`,
			`"ratio":{"default":1.5,"description":"Must be greater than 0. Default: 1.5.","exclusiveMinimum":0,`,
			`"open":{"additionalProperties":{"minLength":1,"type":["string","null"]},"properties":{"id":{"type":"string"}},"type":"object"}`,
			`"when":{"format":"date-time","type":"string"}`} {
			if !strings.Contains(js, want) || decls[0]["parameters"] != nil {
				t.Errorf("%+v: edge tool lacks %s: %s", opts, want, js)
			}
		}
		for _, d := range decls[1:] {
			if d["parameters"] != nil || d["parametersJsonSchema"] != nil || d["description"] == nil {
				t.Errorf("%+v: a tool without parameters: %s", opts, raw)
			}
		}
	}
}

// TestEncodedSchemasValid encodes the golden registry and the edge schema
// in every dialect and mode, and checks that the output is compact JSON
// and every schema in it is a JSON object describing an object.
func TestEncodedSchemasValid(t *testing.T) {
	r := goldenRegistry(t)
	edge := encodeTestTool("edge", "Every edge case.", edgeSchema, DefaultFlags())
	edge.ResultSchema = json.RawMessage(listTicketsSchema)
	if err := r.Add(edge); err != nil {
		t.Fatal(err)
	}
	dialects := []Dialect{DialectOpenAIChat, DialectOpenAI, DialectAnthropic, DialectGemini, DialectMCP}
	modes := []EncodeOptions{{}, {Strict: true}, {GeminiJSONSchema: true}, {MCPOutputSchema: true}}
	for _, d := range dialects {
		for _, opts := range modes {
			raw, err := r.EncodeCatalog(context.Background(), nil, d, opts)
			if err != nil {
				t.Fatalf("%s %+v: %v", d, opts, err)
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, raw); err != nil || !bytes.Equal(compact.Bytes(), raw) {
				t.Errorf("%s %+v: not compact JSON: %v", d, opts, err)
			}
			schemas := 0
			var walk func(key string, v any)
			walk = func(key string, v any) {
				switch v := v.(type) {
				case map[string]any:
					switch key {
					case "parameters", "input_schema", "inputSchema", "outputSchema", "parametersJsonSchema":
						schemas++
						if typ := v["type"]; typ != "object" && typ != "OBJECT" {
							t.Errorf("%s %+v: %s is not an object schema: %v", d, opts, key, v)
						}
						return
					}
					for k, e := range v {
						walk(k, e)
					}
				case []any:
					for _, e := range v {
						walk(key, e)
					}
				}
			}
			var doc any
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			walk("", doc)
			want := 4 // create, list, delete, edge
			if d == DialectMCP && opts.MCPOutputSchema {
				want++ // edge's result schema
			}
			if schemas != want {
				t.Errorf("%s %+v: %d schemas, want %d: %s", d, opts, schemas, want, raw)
			}
		}
	}
}

func TestEncodeProviderTools(t *testing.T) {
	ws := ProviderTool{Name: WebSearch, Config: map[string]any{"max_uses": 3, "allowed_domains": []string{"go.dev"}}}
	ce := ProviderTool{Name: CodeExecution}
	ceCfg := ProviderTool{Name: CodeExecution, Config: map[string]any{"container": "cntr_1"}}
	computer := ProviderTool{Name: "computer_20250124", Config: map[string]any{"display_width_px": 1024}}
	editor := ProviderTool{Name: "text_editor_20250728", Config: map[string]any{"name": "str_replace_based_edit_tool"}}
	for _, c := range []struct {
		d     Dialect
		tools []ProviderTool
		want  string
	}{
		{DialectAnthropic, []ProviderTool{ws, ce, computer, editor},
			`[{"type":"web_search_20250305","name":"web_search","allowed_domains":["go.dev"],"max_uses":3},` +
				`{"type":"computer_20250124","name":"computer","display_width_px":1024},` +
				`{"type":"text_editor_20250728","name":"str_replace_based_edit_tool"}]`},
		{DialectOpenAI, []ProviderTool{ws, ce}, `[{"type":"web_search_preview","allowed_domains":["go.dev"],"max_uses":3},{"type":"code_interpreter","container":{"type":"auto"}}]`},
		{DialectOpenAI, []ProviderTool{ceCfg}, `[{"type":"code_interpreter","container":"cntr_1"}]`},
		{DialectOpenAIChat, []ProviderTool{ws, ce}, `[]`},
		{DialectOpenAIChat, []ProviderTool{{Name: "custom", Config: map[string]any{"custom": map[string]any{"name": "x"}}}}, `[{"type":"custom","custom":{"name":"x"}}]`},
		{DialectGemini, []ProviderTool{ws, ce, {Name: "urlContext"}}, `[{"googleSearch":{"allowed_domains":["go.dev"],"max_uses":3}},{"codeExecution":{}},{"urlContext":{}}]`},
		{DialectMCP, []ProviderTool{ws, ce, computer}, `[]`},
	} {
		got, err := EncodeTools(c.d, nil, c.tools, EncodeOptions{})
		if err != nil || string(got) != c.want {
			t.Errorf("%s:\n got  %s, %v\n want %s", c.d, got, err, c.want)
		}
	}
}

func TestEncodeErrors(t *testing.T) {
	good := encodeTestTool("ok_tool", "Fine.", listTicketsSchema, DefaultFlags())
	for _, c := range []struct {
		name     string
		d        Dialect
		tools    []*Tool
		provider []ProviderTool
		want     string
	}{
		{"unknown dialect", Dialect("cohere"), nil, nil, `unknown dialect "cohere"`},
		{"nil tool", DialectOpenAI, []*Tool{nil}, nil, "nil tool"},
		{"space in name", DialectOpenAI, []*Tool{encodeTestTool("two words", "", listTicketsSchema, DefaultFlags())}, nil, `tool "two words": openai takes tool names`},
		{"dot in name", DialectAnthropic, []*Tool{encodeTestTool("a.b", "", listTicketsSchema, DefaultFlags())}, nil, `tool "a.b": anthropic takes tool names`},
		{"long name", DialectOpenAIChat, []*Tool{encodeTestTool(strings.Repeat("x", 65), "", listTicketsSchema, DefaultFlags())}, nil, "1 to 64"},
		{"gemini digit first", DialectGemini, []*Tool{encodeTestTool("1st", "", listTicketsSchema, DefaultFlags())}, nil, `tool "1st": gemini takes function names`},
		{"duplicate", DialectMCP, []*Tool{good, good}, nil, `tool "ok_tool": duplicate tool name`},
		{"provider name taken", DialectAnthropic, []*Tool{encodeTestTool(WebSearch, "", listTicketsSchema, DefaultFlags())},
			[]ProviderTool{{Name: WebSearch}}, `provider tool "web_search": duplicate tool name`},
		{"invalid schema", DialectAnthropic, []*Tool{encodeTestTool("bad", "", `{"type":"object"`, DefaultFlags())}, nil, `tool "bad": invalid schema`},
		{"string schema", DialectMCP, []*Tool{encodeTestTool("bad", "", `{"type":"string"}`, DefaultFlags())}, nil, `tool "bad": invalid schema: the top level must be {"type":"object"}`},
		{"array schema", DialectOpenAI, []*Tool{encodeTestTool("bad", "", `[]`, DefaultFlags())}, nil, `tool "bad": invalid schema: not a JSON object`},
		{"config type", DialectOpenAI, nil, []ProviderTool{{Name: WebSearch, Config: map[string]any{"type": "web_search"}}}, `provider tool "web_search": config sets "type"`},
		{"config name", DialectAnthropic, nil, []ProviderTool{{Name: WebSearch, Config: map[string]any{"name": 1}}}, `config "name" must be a string`},
		{"config value", DialectGemini, nil, []ProviderTool{{Name: WebSearch, Config: map[string]any{"f": func() {}}}}, `provider tool "web_search": config "f"`},
	} {
		_, err := EncodeTools(c.d, c.tools, c.provider, EncodeOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
	malformed := encodeTestTool("bad", "", `{"properties":{"a":{"type":7}},"type":"object"}`, DefaultFlags())
	for _, d := range []Dialect{DialectOpenAI, DialectGemini} {
		if _, err := EncodeTools(d, []*Tool{malformed}, nil, EncodeOptions{Strict: true}); err == nil ||
			!strings.Contains(err.Error(), `tool "bad": invalid schema at $.a: "type" must be`) {
			t.Errorf("%s: malformed schema: %v", d, err)
		}
	}
	withResult := encodeTestTool("r", "", listTicketsSchema, DefaultFlags())
	withResult.ResultSchema = json.RawMessage(`{`)
	if _, err := EncodeTools(DialectMCP, []*Tool{withResult}, nil, EncodeOptions{MCPOutputSchema: true}); err == nil ||
		!strings.Contains(err.Error(), `tool "r": result schema: invalid schema`) {
		t.Errorf("invalid result schema: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := goldenRegistry(t).EncodeCatalog(ctx, nil, DialectOpenAI, EncodeOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
	// Names each dialect accepts.
	for d, name := range map[Dialect]string{DialectOpenAI: "a-B_9", DialectGemini: "_ns.tool:v-1", DialectMCP: "any name at all"} {
		if _, err := EncodeTools(d, []*Tool{encodeTestTool(name, "", "", DefaultFlags())}, nil, EncodeOptions{}); err != nil {
			t.Errorf("%s %q: %v", d, name, err)
		}
	}
}

func TestEncodeMCPOutputSchema(t *testing.T) {
	obj := encodeTestTool("obj", "Typed result.", listTicketsSchema, DefaultFlags())
	obj.ResultSchema = json.RawMessage(`{ "type": "object", "properties": {} }`)
	str := encodeTestTool("str", "String result.", listTicketsSchema, DefaultFlags())
	str.ResultSchema = json.RawMessage(`{"type":"string"}`)
	raw, err := EncodeTools(DialectMCP, []*Tool{obj, str}, nil, EncodeOptions{MCPOutputSchema: true})
	if err != nil {
		t.Fatal(err)
	}
	items := decodeItems(t, raw)
	if string(items[0]["outputSchema"]) != `{"type":"object","properties":{}}` || items[1]["outputSchema"] != nil {
		t.Errorf("output schemas: %s", raw)
	}
	raw, err = EncodeTools(DialectMCP, []*Tool{obj}, nil, EncodeOptions{})
	if err != nil || strings.Contains(string(raw), "outputSchema") {
		t.Errorf("outputSchema without the option: %s, %v", raw, err)
	}
}

func TestDropNullOptionals(t *testing.T) {
	schema := json.RawMessage(createTicketSchema)
	for _, c := range []struct{ name, in, want string }{
		{"optional nulls dropped, nullable kept",
			`{"title":"t","assignee":null,"due":null,"estimate":null,"priority":null,"status":null,"subtasks":null,"tags":null}`,
			`{"title":"t","assignee":null,"due":null,"status":null}`},
		{"nested in array items",
			`{ "title" : "t", "subtasks": [ {"name":"a","done":null}, {"name":"b","done":true} ] }`,
			`{"title":"t","subtasks":[{"name":"a"},{"name":"b","done":true}]}`},
		{"required null kept for Decode to report", `{"title":null,"estimate":null}`, `{"title":null}`},
		{"unknown keys and duplicates kept", `{"x":null,"title":"a","title":"b","tags":null}`, `{"x":null,"title":"a","title":"b"}`},
		{"nothing to drop", `{"title": "t", "tags": ["null"]}`, `{"title": "t", "tags": ["null"]}`},
		{"no null at all", `{"title":"t"}`, `{"title":"t"}`},
		{"invalid JSON unchanged", `{"title":null,`, `{"title":null,`},
		{"not an object", `null`, `null`},
		{"escaped key", `{"t\u0069tle":"t","tags":null}`, `{"title":"t"}`},
	} {
		got := dropNullOptionals(schema, json.RawMessage(c.in))
		if string(got) != c.want {
			t.Errorf("%s:\n got  %s\n want %s", c.name, got, c.want)
		}
	}
	// Map values and anyOf.
	mapSchema := json.RawMessage(`{"properties":{"m":{"additionalProperties":{"properties":{"o":{"type":"string"},"n":{"anyOf":[{"type":"string"},{"type":"null"}]}},"type":"object"},"type":"object"},"u":{"anyOf":[{"type":"string"}]}},"type":"object"}`)
	got := dropNullOptionals(mapSchema, json.RawMessage(`{"m":{"k":{"o":null,"n":null},"j":null},"u":null}`))
	if want := `{"m":{"k":{"n":null},"j":null}}`; string(got) != want {
		t.Errorf("maps and anyOf:\n got  %s\n want %s", got, want)
	}
	// An enum without a type accepts null only if it lists it.
	enumSchema := json.RawMessage(`{"properties":{"e":{"enum":["a","b"]},"f":{"enum":["a",null]},"g":{}},"type":"object"}`)
	if got := dropNullOptionals(enumSchema, json.RawMessage(`{"e":null,"f":null,"g":null}`)); string(got) != `{"f":null,"g":null}` {
		t.Errorf("untyped enum: %s", got)
	}
	if got := dropNullOptionals(json.RawMessage(`{`), json.RawMessage(`{"a":null}`)); string(got) != `{"a":null}` {
		t.Errorf("invalid schema: %s", got)
	}

	// Through the registry's option: a tool without DecodeWith gets the
	// nulls removed; one with DecodeWith gets the arguments as sent, and
	// the NullAsAbsent mode; without the option, Decode gets them as sent,
	// and a tool with DecodeWith only (as generated tools are) gets them in
	// the zero mode.
	var gotData []byte
	var gotMode DecodeMode = 99
	plain := encodeTestTool("plain", "", listTicketsSchema, DefaultFlags())
	plain.Decode = func(data []byte) (any, error) { gotData = data; return nil, nil }
	moded := encodeTestTool("moded", "", listTicketsSchema, DefaultFlags())
	moded.Decode = plain.Decode
	moded.DecodeWith = func(data []byte, mode DecodeMode) (any, error) { gotData, gotMode = data, mode; return nil, nil }
	only := encodeTestTool("only", "", listTicketsSchema, DefaultFlags())
	only.Decode, only.DecodeWith = nil, moded.DecodeWith
	for _, c := range []struct {
		option   bool
		tool     string
		wantData string
		wantMode DecodeMode
	}{
		{true, "plain", `{}`, 99},
		{true, "moded", `{"limit":null}`, NullAsAbsent},
		{false, "plain", `{"limit":null}`, 99},
		{false, "moded", `{"limit":null}`, 99},
		{true, "only", `{"limit":null}`, NullAsAbsent},
		{false, "only", `{"limit":null}`, 0},
	} {
		r := NewRegistry(Options{DropNullOptionals: c.option})
		if err := r.Add(plain, moded, only); err != nil {
			t.Fatal(err)
		}
		gotData, gotMode = nil, 99
		if _, err := r.Dispatch(context.Background(), &Call{}, ToolCall{Name: c.tool, Arguments: json.RawMessage(`{"limit":null}`)}); err != nil {
			t.Fatal(err)
		}
		if string(gotData) != c.wantData || gotMode != c.wantMode {
			t.Errorf("option %v, %s: decoded %s in mode %d, want %s in mode %d", c.option, c.tool, gotData, gotMode, c.wantData, c.wantMode)
		}
	}
}

// BenchmarkEncodeCatalog encodes the golden registry (three visible tools,
// two provider tools) per dialect, as a host does for every request.
func BenchmarkEncodeCatalog(b *testing.B) {
	r := goldenRegistry(b)
	for _, c := range []struct {
		name string
		d    Dialect
		opts EncodeOptions
	}{
		{"anthropic", DialectAnthropic, EncodeOptions{}},
		{"openai", DialectOpenAI, EncodeOptions{}},
		{"openai_strict", DialectOpenAI, EncodeOptions{Strict: true}},
		{"gemini", DialectGemini, EncodeOptions{}},
		{"mcp", DialectMCP, EncodeOptions{}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.EncodeCatalog(context.Background(), nil, c.d, c.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Chat Completions has no provider tools: a host on it needs the web_search
// fallback even with a web_search provider tool registered.
func TestOpenAIChatDialect(t *testing.T) {
	for _, name := range []string{WebSearch, CodeExecution} {
		if got, ok := NativeToolName(DialectOpenAIChat, name); ok || got != "" {
			t.Errorf("NativeToolName(openai_chat, %s) = %q, %v", name, got, ok)
		}
	}
	r := NewRegistry(Options{})
	if err := r.AddProvider(ProviderTool{Name: WebSearch}); err != nil {
		t.Fatal(err)
	}
	if !r.NeedsWebSearchFallback(DialectOpenAIChat) || r.NeedsWebSearchFallback(DialectOpenAI) {
		t.Error("web_search fallback: chat completions needs it, responses does not")
	}
}
