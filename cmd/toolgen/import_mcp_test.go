package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/spec"
)

// importServerEnv makes the test binary importServer over stdio.
const importServerEnv = "TOOLGEN_IMPORT_MCP_TEST_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(importServerEnv) != "" {
		if err := importServer().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// importServer is a go-sdk server with schemas inside and outside the spec
// format's subset.
func importServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "Remote Files", Version: "2.1"}, &sdk.ServerOptions{PageSize: 1})
	h := func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "picked " + string(req.Params.Arguments)}}}, nil
	}
	// lookup answers with a typed record made of its arguments.
	lookup := func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var a struct {
			ID   int    `json:"id"`
			Mode string `json:"mode"`
		}
		if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
			return nil, err
		}
		// The text differs from the structured record, which has a field
		// the outputSchema does not declare: a typed call decodes the
		// record and keeps only the declared fields.
		rec := map[string]any{"id": a.ID, "name": fmt.Sprintf("record %d (%s)", a.ID, a.Mode), "internal": true}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "found it"}}, StructuredContent: rec}, nil
	}
	no := false
	s.AddTool(&sdk.Tool{Name: "lookup", Description: "Look a record up.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer","minimum":1},` +
			`"mode":{"const":"fast"},"tags":{"type":"array","items":{"type":"string","format":"hostname"}},` +
			`"at":{"$ref":"#/$defs/point"},"note":{"anyOf":[{"type":"string"},{"type":"null"}]}},` +
			`"required":["id"],"additionalProperties":false,` +
			`"$defs":{"point":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"]}}}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}},"required":["id","name"]}`),
		Annotations:  &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no},
		Title:        "Look up a record",
		Icons: []sdk.Icon{
			{Source: "https://example.com/lookup.png", MIMEType: "image/png", Sizes: []string{"48x48"}, Theme: sdk.IconThemeLight},
			{Source: "file:///usr/share/icons/lookup.png"},
		}}, lookup)
	s.AddTool(&sdk.Tool{Name: "files.pick", Description: "Pick a file.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"choice":{"anyOf":[{"const":"a"},{"type":"integer"}]},` +
			`"path":{"type":"string"},` +
			`"shape":{"description":"A circle or a square.","oneOf":[` +
			`{"type":"object","properties":{"kind":{"const":"circle"},"r":{"type":"number"}},"required":["kind","r"]},` +
			`{"type":"object","properties":{"kind":{"const":"square"},"side":{"type":"number"}},"required":["kind","side"]},` +
			`{"type":"null"}],"discriminator":{"propertyName":"kind"}},` +
			`"target":{"oneOf":[{"type":"object","properties":{"name":{"type":"string"}}},{"type":"object","properties":{"id":{"type":"integer"}}}]}},` +
			`"required":["path"]}`),
		// A union in a result: typed results are decoded with
		// encoding/json, which cannot fill a union's interface.
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}`),
		Annotations:  &sdk.ToolAnnotations{Title: "Pick"}}, h)
	return s
}

func TestImportMCP(t *testing.T) {
	root := e2eRepoRoot(t) // before cliRun changes directory
	srv := importServer()
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() })

	dir := t.TempDir()
	out := filepath.Join(dir, "remote", "remote.tools.yaml")
	code, _, stderr := cliRun(t, dir, "import", "mcp", "-provider", "remote", "-url", hs.URL, "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		"tool files.pick: renamed files_pick_",
		// Two objects a value of both could match: the loader's reason, and
		// the property is free-form.
		"tool files.pick: inputSchema.properties.target: oneOf of several schemas cannot be carried by the spec format: " +
			"alternative 1 of oneOf and alternative 0 both accept the empty object {}: oneOf requires exactly one to match",
		"tool files.pick: inputSchema.properties.target: accepted as a free-form value",
		"tool lookup: inputSchema.properties.tags.items: format hostname is not checked by the spec format; dropped",
		`tool lookup: its icon #2 is left out: src has the scheme "file:"`,
		"tool files.pick: its outputSchema is not carried (results stay untyped): outputSchema.properties.v: anyOf in a result",
		"wrote " + out + " (2 tools)",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	f, err := spec.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Tools) != 2 || f.Provider != "remote" {
		t.Fatalf("tools %d, provider %q", len(f.Tools), f.Provider)
	}
	pick, lookup := f.Tools[0], f.Tools[1] // the SDK lists tools by name
	if lookup.Name != "lookup" || !strings.HasPrefix(pick.Name, "files_pick_") {
		t.Fatalf("names %q, %q", lookup.Name, pick.Name)
	}
	// Title (else annotations.title) and the icons the spec can hold.
	if lookup.Title != "Look up a record" || pick.Title != "Pick" {
		t.Errorf("titles %q, %q", lookup.Title, pick.Title)
	}
	wantIcons := []spec.Icon{{Src: "https://example.com/lookup.png", MIMEType: "image/png", Sizes: []string{"48x48"}, Theme: "light"}}
	if len(lookup.Icons) != 1 || pick.Icons != nil {
		t.Errorf("icons %+v, %+v", lookup.Icons, pick.Icons)
	} else if ic := lookup.Icons[0]; ic.Src != wantIcons[0].Src || ic.MIMEType != "image/png" || ic.Theme != "light" || len(ic.Sizes) != 1 || ic.Sizes[0] != "48x48" {
		t.Errorf("lookup's icon %+v", ic)
	}
	data, _ := os.ReadFile(out)
	for _, want := range []string{
		"read_only: true", "open_world: false",
		"id: {type: integer, minimum: 1}",
		"mode: {type: string, enum: [fast]}",
		"note: {type: string, nullable: true}",
		"x: {type: number}",
		"required: [id]",
		"destructive: true", // files.pick has no annotations: the safe default
		"path: {type: string}",
		"required: [path]",
		"additionalProperties: true", // target, free-form
		// Scalars told apart by JSON kind, and objects by a const property.
		"choice:\n        anyOf:\n          - {type: string, enum: [a]}\n          - {type: integer}\n",
		"shape:\n        oneOf:\n",
		"kind: {type: string, enum: [circle]}",
		"nullable: true\n        discriminator: {propertyName: kind}\n",
		"Imported from Remote Files 2.1",
		"# yaml-language-server: $schema=" + spec.SchemaURL + "\n", // as import openapi writes it
		"mcp: {server: Remote Files}",
		"mcp: {tool: lookup}",
		"mcp: {tool: files.pick}", // called by its remote name
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the spec lacks %q:\n%s", want, data)
		}
	}

	// The spec generates, and the arguments are typed: the generated
	// package builds, and a value of the wrong Go type does not compile.
	if testing.Short() {
		return
	}
	mod := filepath.Join(dir, "consumer")
	e2eWrite(t, filepath.Join(mod, "go.mod"), "module example.com/consumer\n\ngo 1.26\n\n"+
		"require github.com/toolgen/toolgen v0.0.0\n\nreplace github.com/toolgen/toolgen => "+root+"\n")
	e2eWrite(t, filepath.Join(mod, "remote", "remote.tools.yaml"), string(data))
	e2eWrite(t, filepath.Join(mod, "remote", "doc.go"), "// Package remote calls the remote server.\npackage remote\n")
	if code, _, stderr := cliRun(t, mod, "generate", "./remote"); code != exitOK {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	// The generated executors call the server: a consumer connects, adds
	// the module and dispatches typed arguments; the remote answers.
	e2eWrite(t, filepath.Join(mod, "main.go"), consumerMain)
	e2eGo(t, mod, "mod", "tidy")
	e2eGo(t, mod, "vet", "./...")
	if gen, err := os.ReadFile(filepath.Join(mod, "remote", "remote_tools.gen.go")); err != nil || strings.Contains(string(gen), "not implemented") {
		t.Errorf("the generated module has a stub (or is missing: %v)", err)
	}
	code, stdout, stderr := e2eRun(t, mod, "go", "run", ".", hs.URL)
	if code != 0 {
		t.Fatalf("consumer: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		`lookup: ok  {"id":3,"name":"record 3 (fast)"}`, // the remote's answer, decoded into LookupResult
		"typed: 3 record 3 (fast)",
		`pick: ok  picked {"path":"a.txt"}`, // called by its remote name files.pick
		"bad: error invalid_arguments",      // validated locally, never sent
		`"shape":{"kind":"square","side":2}`,
		"badshape: error invalid_arguments",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("consumer output lacks %q:\n%s", want, stdout)
		}
	}
	e2eWrite(t, filepath.Join(mod, "main.go"), "package main\n\nimport \"example.com/consumer/remote\"\n\n"+
		"func main() { _ = remote.LookupArgs{ID: \"three\"} }\n")
	if code, _, stderr := e2eRun(t, mod, "go", "build", "."); code == 0 || !strings.Contains(stderr, "cannot use") {
		t.Errorf("a string for the integer id compiled (exit %d):\n%s", code, stderr)
	}
}

// consumerMain connects to the server at os.Args[1] and calls its tools
// through the generated module.
const consumerMain = `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgen/toolgen/runtime"

	"example.com/consumer/remote"
)

func main() {
	ctx := context.Background()
	c := sdk.NewClient(&sdk.Implementation{Name: "consumer", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: os.Args[1]}, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()
	reg := runtime.NewRegistry(runtime.Options{})
	if err := reg.AddModule(remote.Module(struct{}{}, cs)); err != nil {
		panic(err)
	}
	call := func(label, tool string, args any) runtime.Outcome {
		raw, _ := json.Marshal(args)
		out, err := reg.Dispatch(ctx, &runtime.Call{}, runtime.ToolCall{ID: label, Name: tool, Arguments: raw})
		if err != nil {
			panic(err)
		}
		kind := ""
		if out.Err != nil {
			kind = string(out.Err.Kind)
		}
		fmt.Println(label+":", out.Status, kind, out.Result.String())
		return out
	}
	fast := remote.LookupMode("fast")
	call("lookup", remote.ToolLookup, remote.LookupArgs{ID: 3, Mode: &fast})
	call("pick", remote.ToolFilesPick5d92876b, remote.FilesPick5d92876bArgs{Path: "a.txt"}) // files.pick, aliased
	call("bad", remote.ToolLookup, map[string]any{"id": 0})
	// shape is a union: the discriminator chooses the alternative.
	call("shape", remote.ToolFilesPick5d92876b, map[string]any{"path": "b.txt", "shape": map[string]any{"kind": "square", "side": 2}})
	call("badshape", remote.ToolFilesPick5d92876b, map[string]any{"path": "b.txt", "shape": map[string]any{"kind": "triangle"}})
	var rec remote.LookupResult
	text := strings.TrimSpace(call("again", remote.ToolLookup, remote.LookupArgs{ID: 3, Mode: &fast}).Result.String())
	if err := json.Unmarshal([]byte(text), &rec); err != nil {
		panic(err)
	}
	fmt.Println("typed:", rec.ID, rec.Name)
}
`

func TestImportMCPStdio(t *testing.T) {
	t.Setenv(importServerEnv, "1") // the child process inherits it
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cliRun(t, t.TempDir(), "import", "mcp", "--", bin, "-test.run=^$")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	f, err := spec.Parse(filepath.Join("remote", "remote.tools.yaml"), []byte(stdout))
	if err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if f.Provider != "remote_files" || len(f.Tools) != 2 {
		t.Errorf("provider %q (from the server's name), %d tools", f.Provider, len(f.Tools))
	}
}

func TestImportMCPUsage(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"import", "mcp"},
		{"import", "mcp", "-url", "http://127.0.0.1:1", "--", "cmd"},
		{"import", "mcp", "-o", "x.yaml", "--", "cmd"},
	} {
		if code, _, stderr := cliRun(t, dir, args...); code != exitUsage || stderr == "" {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
	if code, stdout, _ := cliRun(t, dir, "import", "mcp", "-h"); code != exitOK || !strings.Contains(stdout, "toolgen import mcp") {
		t.Errorf("-h: exit %d", code)
	}
	// A command that is no MCP server.
	if code, _, stderr := cliRun(t, dir, "import", "mcp", "-timeout", "5s", "--", "true"); code != exitError || !strings.Contains(stderr, "connecting") {
		t.Errorf("a command that is no server: exit %d\n%s", code, stderr)
	}
}
