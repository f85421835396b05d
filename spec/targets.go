package spec

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// Dialects are the tool-calling dialects a module may name in `targets:`,
// spelled as the runtime's Dialect values (runtime.DialectOpenAI, …; a
// test in package gen keeps the two in step). A module without `targets:`
// targets them all.
var Dialects = []string{"openai", "openai_chat", "anthropic", "gemini", "mcp"}

// Target is one entry of a module's `targets:` list.
type Target struct {
	Pos     Pos
	Dialect string // one of Dialects
}

// TargetDialects returns the dialects f's tools are checked against at
// generate time: its `targets:`, else every one of Dialects.
func (f *File) TargetDialects() []string {
	if len(f.Targets) == 0 {
		return Dialects
	}
	ds := make([]string, len(f.Targets))
	for i, t := range f.Targets {
		ds[i] = t.Dialect
	}
	return ds
}

// targets reads a module's `targets:` list: known dialects, each once, at
// least one.
func (p *parser) targets(v *yaml.Node, f *File) {
	items, ok := p.sequence(v, "targets")
	if !ok {
		return
	}
	if len(items) == 0 {
		p.errorf(v, "targets must name at least one dialect (%s); leave targets out to target them all", strings.Join(Dialects, ", "))
		return
	}
	seen := map[string]bool{}
	for _, n := range items {
		s, ok := p.str(n, "a targets entry")
		if !ok {
			continue
		}
		switch {
		case !contains(Dialects, s):
			p.errorf(n, "unknown dialect %q in targets%s; the dialects are %s", s, didYouMean(s, Dialects), strings.Join(Dialects, ", "))
		case seen[s]:
			p.errorf(n, "targets lists %q twice", s)
		default:
			seen[s] = true
			f.Targets = append(f.Targets, Target{Pos: p.pos(n), Dialect: s})
		}
	}
}
