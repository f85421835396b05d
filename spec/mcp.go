package spec

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// MCP-bound tools: a tool with `mcp: {tool: NAME}` is a remote MCP
// server's tool (toolgen import mcp writes the binding), whose executor gen
// generates: it calls NAME through the runtime/mcp.Caller that Module
// takes. The module's `mcp: {server: NAME}` names the server.

// MCPModule is a module's `mcp:`: the MCP server its bound tools call.
type MCPModule struct {
	// Server is the server's name, as it gave it (documentation, and the
	// name in the generated code's errors).
	Server string
	Pos    Pos
}

// MCPBinding is a tool's `mcp:`.
type MCPBinding struct {
	// Tool is the remote tool's name on the server, which may differ from
	// the spec's name (an alias of a name the providers refuse).
	Tool string
	Pos  Pos
}

var (
	mcpModuleKeys = []string{"server"}
	mcpToolKeys   = []string{"tool"}
)

// mcpModule reads a module's `mcp:`.
func (p *parser) mcpModule(v *yaml.Node) *MCPModule {
	const in = "in mcp at module level"
	m := p.mapping(v, "mcp at module level", in, mcpModuleKeys)
	if m == nil {
		return nil
	}
	mm := &MCPModule{Pos: p.pos(deref(v))}
	if sv := m.val("server"); sv == nil {
		p.errorf(v, "missing required key \"server\" %s (the MCP server's name)", in)
	} else if s, ok := p.str(sv, "server "+in); ok {
		if strings.TrimSpace(s) == "" {
			p.errorf(sv, "server %s is empty", in)
		}
		mm.Server = s
	}
	return mm
}

// mcpTool reads a tool's `mcp:`.
func (p *parser) mcpTool(v *yaml.Node, t *Tool, f *File, in string) *MCPBinding {
	min := "in mcp of " + strings.TrimPrefix(in, "in ")
	m := p.mapping(v, "mcp "+in, min, mcpToolKeys)
	if m == nil {
		return nil
	}
	b := &MCPBinding{Pos: p.pos(deref(v))}
	if t.Kind == KindAgent {
		p.errorf(v, "mcp is not supported on kind: agent tools %s: an agent's sub-agent answers the call", in)
	}
	if t.HTTP != nil {
		p.errorf(v, "a tool has one binding: %s has both http and mcp", strings.TrimPrefix(in, "in "))
	}
	if f.MCP == nil {
		p.errorf(v, "mcp %s needs the module's mcp (server) at module level", in)
	}
	if tv := m.val("tool"); tv == nil {
		p.errorf(v, "missing required key \"tool\" %s (the remote tool's name on the server)", min)
	} else if s, ok := p.str(tv, "tool "+min); ok {
		if s == "" {
			p.errorf(tv, "tool %s is empty", min)
		}
		b.Tool = s
	}
	return b
}
