package sdkcheck

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/generated/example"
	"github.com/toolgen/toolgen/runtime"
	toolmcp "github.com/toolgen/toolgen/runtime/mcp"
)

// wantListTitle and the icon checked below are generated/example's
// tasks_list, whose spec gives a title: and an icons: entry.
const wantListTitle = "List tasks"

func checkListTool(t *testing.T, where string, tool *mcp.Tool) {
	t.Helper()
	if tool.Title != wantListTitle {
		t.Errorf("%s: title %q, want %q", where, tool.Title, wantListTitle)
	}
	if len(tool.Icons) != 1 {
		t.Fatalf("%s: icons %+v, want the spec's one", where, tool.Icons)
	}
	ic := tool.Icons[0]
	if !strings.HasPrefix(ic.Source, "data:image/svg+xml;base64,") || len(ic.Sizes) != 1 || ic.Sizes[0] != "any" || ic.MIMEType != "" || ic.Theme != "" {
		t.Errorf("%s: icon %+v", where, ic)
	}
}

// TestMCPTitleAndIcons: the MCP encoding of a generated tool's title and
// icons decodes into go-sdk's mcp.Tool (Title, Icons of protocol revision
// 2025-11-25), and a go-sdk client listing the tools of runtime/mcp's
// server sees them; a tool without them has none.
func TestMCPTitleAndIcons(t *testing.T) {
	raw, err := runtime.EncodeTools(runtime.DialectMCP, example.Module(example.New()).Tools, nil, runtime.EncodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		t.Fatal(err)
	}
	for _, item := range items {
		var tool mcp.Tool
		if err := strictDecode(item, &tool); err != nil {
			t.Fatalf("%s: %v", item, err)
		}
		switch tool.Name {
		case example.ToolList:
			checkListTool(t, "EncodeTools", &tool)
		default:
			if tool.Title != "" || tool.Icons != nil {
				t.Errorf("EncodeTools: %s has title %q, icons %+v; its spec gives neither", tool.Name, tool.Title, tool.Icons)
			}
		}
	}

	reg := runtime.NewRegistry(runtime.Options{})
	if err := reg.AddModule(example.Module(example.New())); err != nil {
		t.Fatal(err)
	}
	srv := toolmcp.NewServer(reg, toolmcp.ServerOptions{})
	defer srv.Close()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "sdkcheck", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	seen := false
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if tool.Name == example.ToolList {
			seen = true
			checkListTool(t, "tools/list", tool)
		}
	}
	if !seen {
		t.Errorf("tools/list lacks %s", example.ToolList)
	}
}
