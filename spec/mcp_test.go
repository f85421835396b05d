package spec

import "testing"

// TestMCPSchemaKeysMatchLoader keeps the mcp levels of toolgen.schema.json
// in step with the loader's key sets.
func TestMCPSchemaKeysMatchLoader(t *testing.T) {
	root := loadSchemaTree(t)
	sameKeys(t, "module mcp", root.deref(t, root.Properties["mcp"]).Properties, mcpModuleKeys)
	tool := root.deref(t, *root.Properties["tools"].Items)
	sameKeys(t, "tool mcp", root.deref(t, tool.Properties["mcp"]).Properties, mcpToolKeys)
}

func TestMCPBinding(t *testing.T) {
	f, err := Parse("remote.tools.yaml", []byte(`toolgen: 1
provider: remote
mcp: {server: everything}
tools:
  - name: remote_files_read_1a2b3c4d
    description: Reads a file.
    mcp: {tool: files.read}
  - name: remote_local
    description: Hand-written.
`))
	if err != nil {
		t.Fatal(err)
	}
	if f.MCP == nil || f.MCP.Server != "everything" || f.MCP.Pos.Line != 3 {
		t.Errorf("module mcp = %+v", f.MCP)
	}
	if b := f.Tools[0].MCP; b == nil || b.Tool != "files.read" || b.Pos.Line != 7 {
		t.Errorf("tool mcp = %+v", b)
	}
	if f.Tools[1].MCP != nil {
		t.Errorf("unbound tool has mcp %+v", f.Tools[1].MCP)
	}
}
