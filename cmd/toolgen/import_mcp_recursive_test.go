package main

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/gen"
	"github.com/toolgen/toolgen/spec"
)

// TestImportMCPRecursive: an inputSchema whose $defs refer to themselves
// (a tree, A -> B -> A) imports them as recursive named types the spec
// loads and gen generates; a definition that refers to itself through
// required properties only is accepted free-form, with a note; a
// non-recursive $def stays inlined.
func TestImportMCPRecursive(t *testing.T) {
	tools := []*sdk.Tool{
		{Name: "outline", Description: "Render an outline.", InputSchema: json.RawMessage(`{"type":"object",` +
			`"properties":{"root":{"$ref":"#/$defs/section","description":"The first section."},"at":{"$ref":"#/$defs/point"},` +
			`"tree":{"$ref":"#/$defs/folder"},"chain":{"$ref":"#/$defs/chain"}},"required":["root"],` +
			`"$defs":{` +
			`"section":{"type":"object","properties":{"title":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/section"}},` +
			`"next":{"$ref":"#/$defs/section"},"notes":{"type":"object","additionalProperties":{"$ref":"#/$defs/section"}}},"required":["title"]},` +
			`"point":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"]},` +
			`"folder":{"type":"object","properties":{"name":{"type":"string"},"entries":{"type":"array","items":{"$ref":"#/$defs/entry"}}},"required":["name","entries"]},` +
			`"entry":{"type":"object","properties":{"folder":{"anyOf":[{"$ref":"#/$defs/folder"},{"type":"null"}]}},"required":["folder"]},` +
			`"chain":{"type":"object","properties":{"next":{"$ref":"#/$defs/chain"}},"required":["next"]}}}`)},
		// A second tool with a definition of the same name gets its own type.
		{Name: "walk", Description: "Walk a tree.", InputSchema: json.RawMessage(`{"type":"object",` +
			`"properties":{"node":{"$ref":"#/$defs/section"}},"required":["node"],` +
			`"$defs":{"section":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/section"}}}}}}`)},
	}
	data, notes := mcpSpec(&sdk.Implementation{Name: "Outline", Version: "1"}, tools, "outline", "test")
	text := string(data)
	f, err := spec.Parse("outline.tools.yaml", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	var recursive []string
	for _, nt := range f.Types {
		if nt.Recursive {
			recursive = append(recursive, nt.Name)
		}
	}
	if got := strings.Join(recursive, " "); got != "section folder section_2" {
		t.Errorf("recursive types %q\n%s", got, text)
	}
	for _, want := range []string{
		"root: {$ref: '#/types/section', description: The first section.}",
		"$ref: '#/types/section'",
		"$ref: '#/types/folder'",
		"$ref: '#/types/section_2'",
		"x: {type: number}", // point: inlined
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the spec lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(strings.Join(notes, "\n"), "tool outline: inputSchema.properties.chain→#/$defs/chain.properties.next: $ref #/$defs/chain, a recursive reference through required properties only (no value of it is finite), cannot be carried by the spec format") {
		t.Errorf("notes: %q", notes)
	}
	if _, err := gen.Code(f); err != nil {
		t.Fatal(err)
	}
}
