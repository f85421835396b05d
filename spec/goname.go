package spec

import (
	"fmt"
	"go/token"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// initialismRe is what a module's `initialisms:` entry may be: an upper-case
// word, as it is to appear in Go names ("CRM", "SKU", "B2B").
var initialismRe = regexp.MustCompile(`^[A-Z][A-Z0-9]*$`)

// GoName is the package-level GoName with the module's own initialisms
// (`initialisms:`) besides Go's: with initialisms: [CRM], "sync_crm" gives
// "SyncCRM" and "crms" gives "CRMs".
func (f *File) GoName(name string) string {
	return goName(name, f.Initialisms)
}

// ToolGoName is the package-level ToolGoName with the module's initialisms.
func (f *File) ToolGoName(tool string) string {
	return toolGoName(f.Provider, tool, f.Initialisms)
}

// initialisms reads the module's `initialisms:` list.
func (p *parser) initialisms(v *yaml.Node, f *File) {
	items, ok := p.sequence(v, "initialisms")
	if !ok {
		return
	}
	for _, n := range items {
		s, ok := p.str(n, "an initialisms entry")
		if !ok {
			continue
		}
		switch {
		case !initialismRe.MatchString(s):
			hint := ""
			if up := strings.ToUpper(s); initialismRe.MatchString(up) {
				hint = fmt.Sprintf(" (%q)", up)
			}
			p.errorf(n, "initialism %q must be written as it is to appear in Go names: an upper-case letter, then upper-case letters or digits%s", s, hint)
		case contains(f.Initialisms, s):
			p.errorf(n, "initialisms lists %q twice", s)
		default:
			f.Initialisms = append(f.Initialisms, s)
		}
	}
	p.extra = f.Initialisms
}

// goNameKey reads a `go_name:` value: an exported Go identifier. It
// returns "" (having reported it) when the value is not one.
func (p *parser) goNameKey(v *yaml.Node, in string) string {
	s, ok := p.str(v, "go_name")
	if !ok {
		return ""
	}
	switch {
	case s == "":
		p.errorf(v, "go_name %s is empty; leave it out for the name made from the spec's", in)
	case !token.IsIdentifier(s):
		p.errorf(v, "go_name %q %s is not a valid Go identifier", s, in)
	case !token.IsExported(s):
		p.errorf(v, "go_name %q %s must be exported (start with an upper-case letter): %q", s, in, strings.ToUpper(s[:1])+s[1:])
	default:
		return s
	}
	return ""
}

// GateConst is the Go constant the generated code declares for gate (a
// gate some tool of the module needs): "Gate" for the module's own gate,
// else "Gate" and the gate's Go name ("crm" gives GateCRM with initialisms:
// [CRM], GateCrm without); "" when the gate has no letters or digits to make
// a name from (the code then spells the gate out).
func (f *File) GateConst(gate string) string {
	if gate == f.Gate {
		return "Gate"
	}
	if n := f.GoName(gate); n != "" {
		return "Gate" + n
	}
	return ""
}

// ToolGates are the gates of the module's tools other than the module's
// own, in the order the tools first use them.
func (f *File) ToolGates() []string {
	var out []string
	for _, t := range f.Tools {
		if t.Gate != "" && t.Gate != f.Gate && !contains(out, t.Gate) {
			out = append(out, t.Gate)
		}
	}
	return out
}
