package spec

import (
	"fmt"
)

// resolve links every $ref to its named type, merges allOf parts, reports
// reference cycles between named types that cannot end (recursive.go),
// then runs the checks that needed the whole file: defaults and label
// placeholders.
func (p *parser) resolve(f *File, types map[string]*NamedType) {
	names := make([]string, len(f.Types))
	for i, nt := range f.Types {
		names[i] = nt.Name
	}
	for _, r := range p.refs {
		nt, ok := types[r.schema.Ref]
		if !ok {
			hint := didYouMean(r.schema.Ref, names)
			if len(names) == 0 {
				hint = " (the file declares no types)"
			}
			p.errorf(r.node, "unknown type %q in $ref of %s%s", r.schema.Ref, r.sub, hint)
			continue
		}
		r.schema.RefType = nt
	}
	p.mergeAllOfs()
	p.recursion(f)
	for _, check := range p.later {
		check(p)
	}
	p.checkDefaults()
}

// checkNames reports duplicate tool names and Go name collisions between
// tools, batch tools, named types and the names the generator declares.
func (p *parser) checkNames(f *File) {
	type owner struct {
		what string
		pos  Pos
	}
	byName := map[string]owner{}
	byGo := map[string]owner{}
	for _, t := range f.Tools {
		if t.Name == "" {
			continue
		}
		what := fmt.Sprintf("tool %q", t.Name)
		if first, dup := byName[t.Name]; dup {
			p.errorAt(t.Pos, "duplicate tool name %q: %s is already defined at line %d", t.Name, first.what, first.pos.Line)
			continue
		}
		byName[t.Name] = owner{what, t.Pos}
		if t.GoName == "" {
			p.errorAt(t.Pos, "tool name %q has no letters or digits left to make a Go name from", t.Name)
			continue
		}
		if first, dup := byGo[t.GoName]; dup {
			p.errorAt(t.Pos, "%s has the Go name %s, like %s (line %d); rename one, or give it a go_name", what, t.GoName, first.what, first.pos.Line)
			continue
		}
		byGo[t.GoName] = owner{what, t.Pos}
	}
	for _, t := range f.Tools {
		if t.Batch == nil || t.Name == "" || t.Batch.Name == "" {
			continue // an empty batch name is reported where it is read
		}
		b := t.Batch
		what := fmt.Sprintf("the batch tool %q of tool %q", b.Name, t.Name)
		if first, dup := byName[b.Name]; dup {
			p.errorAt(b.Pos, "%s has the same name as %s (line %d); give the batch another name", what, first.what, first.pos.Line)
			continue
		}
		byName[b.Name] = owner{what, b.Pos}
		// The batch tool's name constant is Tool<gn>.
		gn := f.ToolGoName(b.Name)
		if gn == "" {
			p.errorAt(b.Pos, "%s has no letters or digits left to make a Go name from", what)
			continue
		}
		if first, dup := byGo[gn]; dup {
			p.errorAt(b.Pos, "%s has the Go name %s, like %s (line %d); give the batch another name", what, gn, first.what, first.pos.Line)
			continue
		}
		byGo[gn] = owner{what, b.Pos}
	}

	// Go type names at package level.
	typeNames := map[string]owner{
		"Executor": {what: "the generated executor interface"},
		"Tools":    {what: "the stub implementation type"},
		"Module":   {what: "the generated Module function"},
		"Provider": {what: "the generated Provider constant"},
	}
	if f.Gate != "" {
		typeNames["Gate"] = owner{what: "the generated Gate constant (the module has a gate)"}
	}
	for _, t := range f.Tools {
		if t.Gate == "" || t.Gate == f.Gate {
			continue
		}
		c := f.GateConst(t.Gate)
		if c == "" {
			continue
		}
		what := fmt.Sprintf("the generated %s constant of gate %q", c, t.Gate)
		if first, dup := typeNames[c]; dup && first.what != what {
			p.errorAt(t.Pos, "gate %q of tool %q has the Go constant %s, like %s%s; rename the gate, or add an initialisms: entry", t.Gate, t.Name, c, first.what, lineOf(first.pos))
			continue
		}
		typeNames[c] = owner{what, t.Pos}
	}
	for _, t := range f.Tools {
		if t.GoName == "" {
			continue
		}
		reserve := func(name, what string) {
			if _, taken := typeNames[name]; !taken {
				typeNames[name] = owner{fmt.Sprintf("%s of tool %q", what, t.Name), t.Pos}
			}
		}
		reserve(t.GoName+"Args", "the argument struct")
		if t.Result != nil {
			reserve(t.GoName+"Result", "the result struct")
		}
	}
	for _, nt := range f.Types {
		if nt.GoName == "" {
			continue
		}
		what := fmt.Sprintf("type %q", nt.Name)
		if first, dup := typeNames[nt.GoName]; dup {
			where := ""
			if first.pos.Line > 0 {
				where = fmt.Sprintf(" (line %d)", first.pos.Line)
			}
			p.errorAt(nt.Pos, "%s has the Go name %s, like %s%s; rename the type", what, nt.GoName, first.what, where)
			continue
		}
		typeNames[nt.GoName] = owner{what, nt.Pos}
	}
	for _, it := range p.itemTypes {
		if first, dup := typeNames[it.name]; dup {
			p.errorAt(it.pos, "go_name %s of %s is already the Go name of %s%s; choose another", it.name, it.what, first.what, lineOf(first.pos))
			continue
		}
		typeNames[it.name] = owner{it.what, it.pos}
	}
}

// lineOf is " (line N)" for a position in the file, "" for none.
func lineOf(pos Pos) string {
	if pos.Line == 0 {
		return ""
	}
	return fmt.Sprintf(" (line %d)", pos.Line)
}
