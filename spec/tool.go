package spec

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// Batch defaults (the seed's parallelize defaults).
const (
	DefaultBatchMaxItems       = 50
	DefaultBatchMaxConcurrency = 8
	DefaultBatchMaxResultBytes = 20 << 20
)

func (p *parser) tool(n *yaml.Node, i int, f *File) *Tool {
	label := fmt.Sprintf("tool #%d", i+1)
	if d := deref(n); d != nil && d.Kind == yaml.MappingNode {
		for j := 0; j+1 < len(d.Content); j += 2 {
			if k, v := deref(d.Content[j]), deref(d.Content[j+1]); k.Value == "name" && v.Kind == yaml.ScalarNode && v.Value != "" {
				label = fmt.Sprintf("tool %q", v.Value)
				break
			}
		}
	}
	in := "in " + label
	m := p.mapping(n, label, in, toolKeys)
	if m == nil {
		return nil
	}
	d := deref(n)
	t := &Tool{Pos: p.pos(d), Kind: KindTool, Keys: p.keys(m)}

	if v := m.val("name"); v == nil {
		p.errorf(d, "missing required key \"name\" %s", in)
	} else if s, ok := p.str(v, "tool name"); ok {
		t.Name = s
		p.checkName(v, "tool name", s)
		t.GoName = f.ToolGoName(s)
	}
	if v := m.val("go_name"); v != nil {
		if s := p.goNameKey(v, in); s != "" {
			t.GoName = s
		}
	}
	if v := m.val("description"); v == nil {
		p.errorf(d, "missing required key \"description\" %s (the model reads it to choose the tool)", in)
	} else if s, ok := p.str(v, "description"); ok {
		if s == "" {
			p.errorf(v, "description %s is empty; the model reads it to choose the tool", in)
		}
		t.Description = s
	}
	if v := m.val("kind"); v != nil {
		if s, ok := p.str(v, "kind"); ok {
			switch Kind(s) {
			case KindTool, KindAgent:
				t.Kind = Kind(s)
			default:
				p.errorf(v, "kind %q %s must be tool or agent%s", s, in, didYouMean(s, []string{"tool", "agent"}))
			}
		}
	}

	// The argument object.
	// The tool's mapping holds the argument object's keywords (required,
	// additionalProperties): its Keys are the tool's.
	t.Params = &Schema{Pos: t.Pos, Type: TypeObject, Keys: t.Keys}
	if e, ok := m.get("params"); ok {
		t.Params.Pos = p.pos(e.Key)
		if !isNull(e.Val) {
			if pf := p.mappingOf(e.Val, text{"params ", in}, text{"in params of ", label}, nil); pf != nil {
				t.Params.Properties = p.properties(pf, func(name string) subject {
					return subject{kind: "parameter", tool: t.Name, path: name}
				}, "parameter", "tool "+fmt.Sprintf("%q", t.Name))
			}
		}
	}
	if v := m.val("required"); v != nil {
		p.required(v, t.Params, "parameter", fmt.Sprintf("tool %q", t.Name), "parameters")
	}
	if v := m.val("additionalProperties"); v != nil {
		p.additional(v, t.Params, subject{kind: "extra", tool: t.Name})
	}

	// Labels.
	if v := m.val("status"); v != nil {
		if s, ok := p.str(v, "status"); ok {
			t.Status = s
			t.StatusParts = p.label(v, s, "status", t)
		}
	}
	if v := m.val("status_fallback"); v != nil {
		t.StatusFallback, _ = p.str(v, "status_fallback")
	}
	if e, ok := m.get("prompt"); ok {
		if s, ok := p.str(e.Val, "prompt"); ok {
			if s == "" {
				p.errorf(e.Val, "prompt %s is empty; leave it out to send the default prompt (the task's arguments as JSON)", in)
			}
			t.Prompt = s
			t.PromptParts = p.label(e.Val, s, "prompt", t)
		}
		if t.Kind != KindAgent {
			p.errorf(e.Key, "prompt is only for agent tools; add kind: agent %s or remove prompt", in)
		}
	}

	p.gate(m, t, f, in)
	p.flags(m, t, in)
	t.DeferLoading = f.DeferLoading
	if v := m.val("defer_loading"); v != nil {
		t.DeferLoading, _ = p.booleanKey(v, "defer_loading", in)
	}
	if v := m.val("title"); v != nil {
		t.Title = p.title(v, in)
	}
	t.Icons = f.Icons
	if v := m.val("icons"); v != nil {
		t.Icons = p.icons(v, in, false)
	}

	if e, ok := m.get("result"); ok {
		if t.Kind == KindAgent {
			// The sub-agent's response is the result (text, or JSON for a
			// structured response); nothing would produce a typed value.
			p.errorf(e.Key, "result is not supported on kind: agent tools %s: the sub-agent's response is returned as is; remove result", in)
		} else {
			t.Result = p.schema(e.Val, subject{kind: "result", tool: t.Name})
		}
	}
	if v := m.val("examples"); v != nil {
		p.examples(v, t, in)
	}
	if v := m.val("batch"); v != nil {
		t.Batch = p.batch(v, t, in)
	}
	if v := m.val("http"); v != nil {
		t.HTTP = p.httpTool(v, t, f, in)
	}
	if v := m.val("mcp"); v != nil {
		t.MCP = p.mcpTool(v, t, f, in)
	}
	if t.HTTP != nil || t.MCP != nil {
		p.later = append(p.later, func(p *parser) { p.checkBoundResult(t) })
	}
	return t
}

// checkBoundResult reports a union in the typed result of a tool bound to
// an HTTP API or an MCP server. Its generated executor decodes the answer
// with encoding/json, which cannot fill a union's Go interface: the value
// would be lost (or the call fail) where the spec promises it.
func (p *parser) checkBoundResult(t *Tool) {
	if t.Result == nil {
		return
	}
	seen := map[*NamedType]bool{}
	var find func(s *Schema) *Union
	find = func(s *Schema) *Union {
		if s == nil {
			return nil
		}
		if s.RefType != nil {
			if seen[s.RefType] {
				return nil
			}
			seen[s.RefType] = true
		}
		r := s.Resolved()
		if r == nil {
			return nil
		}
		if r.Union != nil {
			return r.Union
		}
		for _, pr := range r.Properties {
			if u := find(pr.Schema); u != nil {
				return u
			}
		}
		if u := find(r.Items); u != nil {
			return u
		}
		return find(r.AdditionalPropertiesSchema)
	}
	if u := find(t.Result); u != nil {
		bound := "http:"
		if t.MCP != nil {
			bound = "mcp:"
		}
		p.errorAt(u.Pos, "the %s union in the result of tool %q, which is bound with %s, cannot be decoded: its executor reads the answer with encoding/json, which cannot fill a union's Go interface; leave the property out of result: or make it free-form ({type: object} or no type)", u.Kind, t.Name, bound)
	}
}

// checkName reports a tool, parameter or property name that some provider
// would refuse.
func (p *parser) checkName(n *yaml.Node, what, name string) {
	switch {
	case name == "":
		p.errorf(n, "%s is empty", what)
	case !validName(name):
		p.errorf(n, "%s %q has characters providers refuse: use letters, digits, _ and -, starting with a letter or _", what, name)
	case len(name) > MaxNameLen:
		p.errorf(n, "%s %q is %d characters long; providers accept at most %d", what, name, len(name), MaxNameLen)
	}
}

// gate resolves the tool's effective gate: its own `gate:` (none clears it),
// else the module's; the gate message is inherited the same way.
func (p *parser) gate(m *fields, t *Tool, f *File, in string) {
	t.Gate = f.Gate
	if v := m.val("gate"); v != nil {
		if s, ok := p.str(v, "gate"); ok {
			switch s {
			case "":
				p.errorf(v, "gate %s must name a gate, or be none to leave the module's gate", in)
			case "none":
				t.Gate = ""
			default:
				t.Gate = s
			}
		}
	}
	t.GateMessage = f.GateMessage
	if e, ok := m.get("gate_message"); ok {
		if s, ok := p.str(e.Val, "gate_message"); ok {
			t.GateMessage = s
		}
		if t.Gate == "" {
			p.errorf(e.Key, "gate_message %s has no gate to explain: the tool is ungated", in)
		}
	}
	if t.Gate == "" {
		t.GateMessage = ""
	}
}

// flags reads the behaviour flags and applies the defaults of DESIGN.md.
func (p *parser) flags(m *fields, t *Tool, in string) {
	flag := func(key string, def bool, byInput bool) Flag {
		fl := Flag{Value: def}
		v := m.val(key)
		if v == nil {
			return fl
		}
		fl.Set, fl.Pos = true, p.pos(deref(v))
		d := deref(v)
		if byInput && d.Kind == yaml.ScalarNode && tagOf(d) == "!!str" {
			if d.Value == "by_input" {
				fl.Mode, fl.Value = ByInput, false
				return fl
			}
			p.errorf(v, "%s %s must be true, false or by_input; found %s%s", key, in, describe(d), didYouMean(d.Value, []string{"by_input"}))
			return fl
		}
		if byInput && (d.Kind != yaml.ScalarNode || tagOf(d) != "!!bool") {
			p.errorf(v, "%s %s must be true, false or by_input; found %s", key, in, describe(d))
			return fl
		}
		fl.Value, _ = p.booleanKey(v, key, in)
		return fl
	}
	fs := &t.Flags
	fs.Enabled = flag("enabled", true, false)
	fs.ReadOnly = flag("read_only", false, true)
	fs.Destructive = flag("destructive", false, false)
	fs.Idempotent = flag("idempotent", false, false)
	fs.OpenWorld = flag("open_world", true, false)
	fs.ConcurrencySafe = flag("concurrency_safe", false, true)
	if !fs.ConcurrencySafe.Set {
		fs.ConcurrencySafe.Mode, fs.ConcurrencySafe.Value = fs.ReadOnly.Mode, fs.ReadOnly.Value
	}
	fs.RequiresApproval = flag("requires_approval", false, false)
	if v := m.val("permission_check"); v != nil {
		fs.PermissionCheck, _ = p.booleanKey(v, "permission_check", in)
	}
	if fs.ReadOnly.Mode == Static && fs.ReadOnly.Value && fs.Destructive.Value {
		p.errorAt(fs.Destructive.Pos, "destructive: true contradicts read_only: true (line %d) %s: a read-only tool changes nothing", fs.ReadOnly.Pos.Line, in)
	}
}

// batch reads `batch: true` or a mapping of batch options, filling defaults.
func (p *parser) batch(v *yaml.Node, t *Tool, in string) *Batch {
	d := deref(v)
	b := &Batch{
		Pos:            p.pos(d),
		Name:           t.Name + "_batch",
		MaxItems:       DefaultBatchMaxItems,
		MaxConcurrency: DefaultBatchMaxConcurrency,
		MaxResultBytes: DefaultBatchMaxResultBytes,
	}
	if d.Kind == yaml.ScalarNode && tagOf(d) == "!!bool" {
		on, _ := p.boolean(v, "batch")
		if !on {
			return nil
		}
		if t.Name != "" && len(b.Name) > MaxNameLen {
			p.errorf(v, "the batch tool's default name %q is longer than %d characters; give it a name (batch: {name: ...})", b.Name, MaxNameLen)
		}
		return b
	}
	if d.Kind != yaml.MappingNode {
		p.errorf(v, "batch %s must be true, false or a mapping of options; found %s", in, describe(d))
		return nil
	}
	bin := "in batch of " + in[len("in "):]
	m := p.mapping(v, "batch", bin, batchKeys)
	if nv := m.val("name"); nv != nil {
		if s, ok := p.str(nv, "batch name"); ok {
			b.Name = s
			p.checkName(nv, "batch name", s)
		}
	} else if t.Name != "" && len(b.Name) > MaxNameLen {
		p.errorf(d, "the batch tool's default name %q is longer than %d characters; give it a name", b.Name, MaxNameLen)
	}
	if dv := m.val("description"); dv != nil {
		b.Description, _ = p.str(dv, "batch description")
	}
	atLeast1 := func(key string, dst *int) {
		if nv := m.val(key); nv != nil {
			if c, ok := p.count(nv, key+" "+bin, 1); ok {
				*dst = c
			}
		}
	}
	atLeast1("max_items", &b.MaxItems)
	atLeast1("max_concurrency", &b.MaxConcurrency)
	atLeast1("max_result_bytes", &b.MaxResultBytes)
	return b
}
