package diff

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/toolgen/toolgen/runtime/wire"
	"github.com/toolgen/toolgen/spec"
)

// Rules are every rule, in the order they run (findings are sorted after).
var Rules = []*Rule{
	// Tools and the catalog.
	ruleToolRemoved, ruleToolAdded, ruleToolDisabled, ruleToolEnabled,
	ruleKindChanged, ruleGoNameChanged, rulePackageChanged, ruleGateConstantRemoved,
	ruleBatchRemoved, ruleBatchAdded,
	ruleDescriptionChanged, rulePromptChanged,
	ruleGateAdded, ruleGateRemoved, ruleGateChanged,
	ruleResultChanged, ruleHTTPChanged,
	// Types and parameters.
	ruleNamedTypeRemoved, ruleGoTypeChanged,
	ruleParamRemoved, ruleParamAddedRequired, ruleParamAdded,
	ruleParamRequired, ruleParamOptional,
	ruleTypeChanged, ruleTypeWidened,
	ruleNullableRemoved, ruleNullableAdded,
	// Constraints.
	ruleBoundTightened, ruleBoundLoosened,
	ruleLengthTightened, ruleLengthLoosened,
	ruleEnumValueRemoved, ruleEnumValueAdded,
	rulePatternChanged, rulePatternRemoved,
	ruleFormatChanged, ruleFormatRemoved,
	ruleAdditionalClosed, ruleAdditionalOpened,
	ruleTrimAdded, ruleTrimRemoved,
	ruleDefaultChanged, ruleDefaultAdded,
	// Safety.
	ruleReadOnlyRemoved, ruleReadOnlyAdded,
	ruleDestructiveAdded, ruleDestructiveRemoved,
	ruleIdempotentRemoved, ruleIdempotentAdded,
	ruleOpenWorldAdded, ruleOpenWorldRemoved,
	ruleConcurrencySafeAdded, ruleConcurrencySafeRemoved,
	ruleRequiresApprovalRemoved, ruleRequiresApprovalAdded,
	rulePermissionCheckRemoved, rulePermissionCheckAdded,
}

// RuleByID returns the rule with the given ID, or nil.
func RuleByID(id string) *Rule {
	for _, r := range Rules {
		if r.ID == id {
			return r
		}
	}
	return nil
}

var all3 = []Category{GoAPI, Model, Approvals}

// ---- Tools and the catalog ----

var ruleToolRemoved = &Rule{
	ID: "TOOL_REMOVED", Level: Breaking, Categories: all3,
	Doc: "A tool was removed: its Go types and Executor method go, models can no longer call it, and its pending approvals cannot be resumed.",
	file: func(a adder, o, n *spec.File) {
		if o == nil {
			return
		}
		gone, added := toolsOnlyIn(a.c, o, n), toolsOnlyIn(a.c, n, o)
		if n != nil {
			a.anchor = n.KeyPos("tools")
		}
		for _, t := range gone {
			hint := ""
			if len(gone) == 1 && len(added) == 1 {
				hint = fmt.Sprintf(" (renamed to %q?)", added[0].Name)
			}
			a.tool = t.Name
			goes := "its Go types and Executor method go"
			if t.HTTP != nil {
				goes = "its Go types go" // its executor was generated
			}
			a.atOld(t.Pos, "tool %q was removed%s: %s, models can no longer call it, and calls of it waiting for approval cannot be resumed", t.Name, hint, goes)
		}
	},
}

var ruleToolAdded = &Rule{
	ID: "TOOL_ADDED", Level: Warning, Categories: []Category{Model},
	Doc: "A tool was added to the catalog the model is shown.",
	file: func(a adder, o, n *spec.File) {
		for _, t := range toolsOnlyIn(a.c, n, o) {
			a.tool = t.Name
			a.at(t.Pos, "tool %q was added to the catalog", t.Name)
		}
	},
}

// toolsOnlyIn lists the tools of f that g (possibly nil) does not have.
func toolsOnlyIn(c *checker, f, g *spec.File) []*spec.Tool {
	if f == nil {
		return nil
	}
	var out []*spec.Tool
	for _, t := range f.Tools {
		if c.tool(g, t.Name) == nil {
			out = append(out, t)
		}
	}
	return out
}

var ruleToolDisabled = &Rule{
	ID: "TOOL_DISABLED", Level: Breaking, Categories: []Category{Model},
	Doc: "enabled: false: the tool leaves the catalog and its calls are refused.",
	tool: func(a adder, o, n *spec.Tool) {
		if o.Flags.Enabled.Value && !n.Flags.Enabled.Value {
			a.at(n.KeyPos("enabled"), "tool %q is now disabled: it leaves the catalog and calls of it are refused", n.Name)
		}
	},
}

var ruleToolEnabled = &Rule{
	ID: "TOOL_ENABLED", Level: Warning, Categories: []Category{Model},
	Doc: "A disabled tool was enabled: it joins the catalog.",
	tool: func(a adder, o, n *spec.Tool) {
		if !o.Flags.Enabled.Value && n.Flags.Enabled.Value {
			a.at(n.KeyPos("enabled"), "tool %q is now enabled: it joins the catalog", n.Name)
		}
	},
}

var ruleKindChanged = &Rule{
	ID: "KIND_CHANGED", Level: Breaking, Categories: []Category{GoAPI, Model},
	Doc: "A tool changed kind (tool ↔ agent): its Executor method and how it is presented change.",
	tool: func(a adder, o, n *spec.Tool) {
		if o.Kind != n.Kind {
			a.at(n.KeyPos("kind"), "tool %q changes kind from %s to %s", n.Name, o.Kind, n.Kind)
		}
	},
}

var ruleGoNameChanged = &Rule{
	ID: "GO_NAME_CHANGED", Level: Breaking, Categories: []Category{GoAPI},
	Doc: "A Go name changed (go_name, initialisms, the provider prefix): a tool's Args type and Executor method, a named type, a struct field or an item type is renamed.",
	tool: func(a adder, o, n *spec.Tool) {
		if o.GoName != n.GoName {
			a.at(goNamePos(n.Keys, n.KeyPos("name")), "the Go name of tool %q changes from %s to %s: its Args type and Executor method are renamed", n.Name, o.GoName, n.GoName)
		}
	},
	file: func(a adder, o, n *spec.File) {
		if o == nil || n == nil {
			return
		}
		for _, nt := range n.Types {
			if ot := a.c.typ(o, nt.Name); ot != nil && ot.GoName != nt.GoName {
				pos := nt.Pos
				if nt.Schema != nil {
					pos = goNamePos(nt.Schema.Keys, pos)
				}
				a.at(pos, "the Go name of type %q changes from %s to %s", nt.Name, ot.GoName, nt.GoName)
			}
		}
	},
	schema: func(a adder, s *site, o, n *spec.Schema) {
		eachProp(s, o, n, func(op, np *spec.Property) {
			if op.GoName != np.GoName {
				pos := np.Pos
				if np.Schema != nil {
					pos = goNamePos(np.Schema.Keys, pos)
				}
				a.at(pos, "the Go field of %s is renamed from %s to %s", s.member(np.Name), op.GoName, np.GoName)
			}
		})
		if (strings.HasSuffix(s.path, "[]") || strings.HasSuffix(s.path, ".*")) && o.GoName != n.GoName {
			a.at(goNamePos(n.Keys, n.Pos), "the Go type of %s is renamed (go_name %q, was %q)", s, n.GoName, o.GoName)
		}
	},
}

// goNamePos is where go_name is written in keys, else def.
func goNamePos(keys map[string]spec.Pos, def spec.Pos) spec.Pos {
	if p, ok := keys["go_name"]; ok {
		return p
	}
	return def
}

var ruleGateConstantRemoved = &Rule{
	ID: "GATE_CONSTANT_REMOVED", Level: Breaking, Categories: []Category{GoAPI},
	Doc: "A gate's Go constant (Gate for the module's gate, GateCrm for a tool's gate crm, GateCRM with the initialism CRM) goes: no tool uses the gate any more, or it was renamed.",
	file: func(a adder, o, n *spec.File) {
		if o == nil {
			return
		}
		have := gateConsts(n)
		for c, pos := range gateConsts(o) {
			if _, ok := have[c]; !ok {
				a.atOld(pos, "the Go constant %s goes", c)
			}
		}
	},
}

// gateConsts are the gate constants the generated code of f declares, with
// where their gate is written.
func gateConsts(f *spec.File) map[string]spec.Pos {
	out := map[string]spec.Pos{}
	if f == nil {
		return out
	}
	if f.Gate != "" {
		out[f.GateConst(f.Gate)] = f.KeyPos("gate")
	}
	for _, g := range f.ToolGates() {
		c := f.GateConst(g)
		if c == "" {
			continue
		}
		for _, t := range f.Tools {
			if t.Gate == g {
				out[c] = t.KeyPos("gate")
				break
			}
		}
	}
	return out
}

var rulePackageChanged = &Rule{
	ID: "PACKAGE_CHANGED", Level: Breaking, Categories: []Category{GoAPI},
	Doc: "The generated Go package's name changed.",
	file: func(a adder, o, n *spec.File) {
		if o == nil || n == nil {
			return
		}
		// A package name neither spec writes comes from the directory's
		// name: different only when two files in differently named
		// directories are compared, which is no change to either.
		_, oset := o.Keys["package"]
		_, nset := n.Keys["package"]
		if (oset || nset) && o.Package != n.Package {
			a.at(n.KeyPos("package"), "the Go package name changes from %s to %s", o.Package, n.Package)
		}
	},
}

var ruleBatchRemoved = &Rule{
	ID: "BATCH_REMOVED", Level: Breaking, Categories: []Category{GoAPI, Model},
	Doc: "A tool's batch wrapper tool was removed (or renamed): models can no longer call it, and its Go name constant goes.",
	tool: func(a adder, o, n *spec.Tool) {
		if o.Batch != nil && (n.Batch == nil || n.Batch.Name != o.Batch.Name) {
			a.atOld(o.Batch.Pos, "the batch tool %q of tool %q was removed: models can no longer call it, and its Go name constant goes", o.Batch.Name, n.Name)
		}
	},
}

var ruleBatchAdded = &Rule{
	ID: "BATCH_ADDED", Level: Warning, Categories: []Category{Model},
	Doc: "A batch wrapper tool was added to the catalog.",
	tool: func(a adder, o, n *spec.Tool) {
		if n.Batch != nil && (o.Batch == nil || n.Batch.Name != o.Batch.Name) {
			a.at(n.Batch.Pos, "the batch tool %q of tool %q was added to the catalog", n.Batch.Name, n.Name)
		}
	},
}

var ruleDescriptionChanged = &Rule{
	ID: "DESCRIPTION_CHANGED", Level: Warning, Categories: []Category{Model},
	Doc: "A description the model reads changed (a tool's, a parameter's, a batch tool's, a gate message).",
	tool: func(a adder, o, n *spec.Tool) {
		if o.Description != n.Description {
			a.at(n.KeyPos("description"), "the description of tool %q changed", n.Name)
		}
		if o.Gate != "" && n.Gate != "" && o.GateMessage != n.GateMessage {
			a.at(n.KeyPos("gate_message"), "the gate message of tool %q changed", n.Name)
		}
		if o.Batch != nil && n.Batch != nil && o.Batch.Name == n.Batch.Name && o.Batch.Description != n.Batch.Description {
			a.at(n.Batch.Pos, "the description of the batch tool %q changed", n.Batch.Name)
		}
	},
	schema: func(a adder, s *site, o, n *spec.Schema) {
		if s.args && o.Description != n.Description {
			a.at(n.KeyPos("description"), "the description of %s changed", s)
		}
	},
}

var rulePromptChanged = &Rule{
	ID: "PROMPT_CHANGED", Level: Warning, Categories: []Category{Model},
	Doc: "The prompt an agent tool sends its sub-agent changed.",
	tool: func(a adder, o, n *spec.Tool) {
		if o.Kind == spec.KindAgent && n.Kind == spec.KindAgent && o.Prompt != n.Prompt {
			a.at(n.KeyPos("prompt"), "the prompt of agent tool %q changed", n.Name)
		}
	},
}

// gatePos is where the tool's effective gate is written: its own gate:,
// else the module's.
func gatePos(a adder, t *spec.Tool) spec.Pos {
	if _, ok := t.Keys["gate"]; ok || a.file == nil {
		return t.KeyPos("gate")
	}
	if _, ok := a.file.Keys["gate"]; ok && t.Gate != "" {
		return a.file.KeyPos("gate")
	}
	return t.Pos
}

var ruleGateAdded = &Rule{
	ID: "GATE_ADDED", Level: Breaking, Categories: []Category{Model},
	Doc: "A tool became gated: it leaves the catalog and its calls are refused while the connection is missing.",
	tool: func(a adder, o, n *spec.Tool) {
		if o.Gate == "" && n.Gate != "" {
			a.at(gatePos(a, n), "tool %q is now gated by %q: it leaves the catalog and calls of it are refused for users without that connection", n.Name, n.Gate)
		}
	},
}

var ruleGateRemoved = &Rule{
	ID: "GATE_REMOVED", Level: Breaking, Categories: []Category{Safety},
	Doc: "A tool's gate was removed: it runs for users without the connection.",
	tool: func(a adder, o, n *spec.Tool) {
		if o.Gate != "" && n.Gate == "" {
			a.at(gatePos(a, n), "tool %q is no longer gated by %q: it is offered and runs for users without that connection", n.Name, o.Gate)
		}
	},
}

var ruleGateChanged = &Rule{
	ID: "GATE_CHANGED", Level: Breaking, Categories: []Category{Model, Safety},
	Doc: "A tool's gate changed to another connection.",
	tool: func(a adder, o, n *spec.Tool) {
		if o.Gate != "" && n.Gate != "" && o.Gate != n.Gate {
			a.at(gatePos(a, n), "the gate of tool %q changes from %q to %q", n.Name, o.Gate, n.Gate)
		}
	},
}

var ruleResultChanged = &Rule{
	ID: "RESULT_CHANGED", Level: Breaking, Categories: []Category{GoAPI},
	Doc: "A tool's result schema changed: its Go result type and the Executor method that returns it change.",
	tool: func(a adder, o, n *spec.Tool) {
		switch {
		case o.Result == nil && n.Result == nil:
		case o.Result == nil:
			a.at(n.KeyPos("result"), "tool %q now has a typed result: its Executor method returns it", n.Name)
		case n.Result == nil:
			a.atOld(o.KeyPos("result"), "the typed result of tool %q was removed: its Executor method returns a runtime.Result", n.Name)
		case canonical(o.Result) != canonical(n.Result):
			a.at(n.KeyPos("result"), "the result schema of tool %q changed: its Go result type changes", n.Name)
		}
	},
}

var ruleHTTPChanged = &Rule{
	ID: "HTTP_CHANGED", Level: Warning, Categories: []Category{Safety},
	Doc: "The HTTP operation a tool calls changed (method or path), or the tool gained or lost its HTTP binding: what a call does changed, with nothing else to show it.",
	tool: func(a adder, o, n *spec.Tool) {
		switch {
		case o.HTTP == nil && n.HTTP == nil:
		case o.HTTP == nil:
			a.at(n.KeyPos("http"), "tool %q now calls %s %s (its executor is generated)", n.Name, n.HTTP.Method, n.HTTP.Path)
		case n.HTTP == nil:
			a.at(n.Pos, "tool %q no longer calls %s %s: its executor is hand-written", n.Name, o.HTTP.Method, o.HTTP.Path)
		case o.HTTP.Method != n.HTTP.Method || o.HTTP.Path != n.HTTP.Path:
			a.at(n.KeyPos("http"), "tool %q now calls %s %s (was %s %s)", n.Name, n.HTTP.Method, n.HTTP.Path, o.HTTP.Method, o.HTTP.Path)
		}
	},
}

// ---- Types and parameters ----

var ruleNamedTypeRemoved = &Rule{
	ID: "NAMED_TYPE_REMOVED", Level: Breaking, Categories: []Category{GoAPI},
	Doc: "A named type (types:) was removed: its Go type goes.",
	file: func(a adder, o, n *spec.File) {
		if o == nil || n == nil {
			return // a removed file's types go with its tools
		}
		a.anchor = n.KeyPos("types")
		for _, t := range o.Types {
			if a.c.typ(n, t.Name) == nil {
				a.atOld(t.Pos, "type %q was removed: the Go type %s goes", t.Name, t.GoName)
			}
		}
	},
}

var ruleGoTypeChanged = &Rule{
	ID: "GO_TYPE_CHANGED", Level: Breaking, Categories: []Category{GoAPI},
	Doc: "The Go type of a parameter, property or named type changed (its JSON type, optional ↔ required, nullable, a default, an enum, a named type).",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		if s.typ != "" && s.path == "" {
			if ot, nt := goType(o), goType(n); ot != nt {
				a.at(n.Pos, "the Go type of %s changes from %s to %s", s, ot, nt)
			}
		}
		ro, rn, ok := s.shapes(o, n)
		if !ok {
			return
		}
		for _, np := range rn.Properties {
			op := ro.Property(np.Name)
			if op == nil {
				continue
			}
			if ot, nt := fieldType(op), fieldType(np); ot != nt {
				a.at(np.Pos, "the Go type of %s changes from %s to %s", s.member(np.Name), ot, nt)
			}
		}
	},
}

var ruleParamRemoved = &Rule{
	ID: "PARAM_REMOVED", Level: Breaking, Categories: all3,
	Doc: "A parameter or property was removed (or renamed): its Go field goes, and calls (and stored pause points) that give it are refused.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		ro, rn, ok := s.shapes(o, n)
		if !ok {
			return
		}
		gone, added := propsOnlyIn(ro, rn), propsOnlyIn(rn, ro)
		a = a.only(s.cats(all3...)...)
		for _, p := range gone {
			hint := ""
			if len(gone) == 1 && len(added) == 1 {
				hint = fmt.Sprintf(" (renamed to %q?)", added[0].Name)
			}
			a.atOld(p.Pos, "%s was removed%s", s.member(p.Name), hint)
		}
	},
}

var ruleParamAddedRequired = &Rule{
	ID: "PARAM_ADDED_REQUIRED", Level: Breaking, Categories: []Category{Model, Approvals},
	Doc: "A required parameter was added: calls (and stored pause points) without it are refused.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		ro, rn, ok := s.shapes(o, n)
		if !ok {
			return
		}
		a = a.only(s.cats(Model, Approvals)...)
		for _, p := range propsOnlyIn(rn, ro) {
			if p.Required {
				a.at(p.Pos, "required %s was added: calls without it are refused", s.member(p.Name))
			}
		}
	},
}

var ruleParamAdded = &Rule{
	ID: "PARAM_ADDED", Level: Compatible, Categories: []Category{GoAPI, Model},
	Doc: "An optional parameter or property was added.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		ro, rn, ok := s.shapes(o, n)
		if !ok {
			return
		}
		a = a.only(s.cats(GoAPI, Model)...)
		for _, p := range propsOnlyIn(rn, ro) {
			if !p.Required {
				a.at(p.Pos, "optional %s was added", s.member(p.Name))
			}
		}
	},
}

// propsOnlyIn lists the properties of s that t does not have.
func propsOnlyIn(s, t *spec.Schema) []*spec.Property {
	var out []*spec.Property
	for _, p := range s.Properties {
		if t.Property(p.Name) == nil {
			out = append(out, p)
		}
	}
	return out
}

// eachProp calls f for the properties of the objects at s that both have.
func eachProp(s *site, o, n *spec.Schema, f func(op, np *spec.Property)) {
	ro, rn, ok := s.shapes(o, n)
	if !ok {
		return
	}
	for _, np := range rn.Properties {
		if op := ro.Property(np.Name); op != nil {
			f(op, np)
		}
	}
}

var ruleParamRequired = &Rule{
	ID: "PARAM_REQUIRED", Level: Breaking, Categories: []Category{Model, Approvals},
	Doc: "An optional parameter became required: calls (and stored pause points) without it are refused.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		a = a.only(s.cats(Model, Approvals)...)
		eachProp(s, o, n, func(op, np *spec.Property) {
			if !op.Required && np.Required {
				a.at(np.Pos, "%s is now required: calls without it are refused", s.member(np.Name))
			}
		})
	},
}

var ruleParamOptional = &Rule{
	ID: "PARAM_OPTIONAL", Level: Compatible, Categories: []Category{Model},
	Doc: "A required parameter became optional.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		a = a.only(s.cats(Model)...)
		eachProp(s, o, n, func(op, np *spec.Property) {
			if op.Required && !np.Required {
				a.at(np.Pos, "%s is now optional", s.member(np.Name))
			}
		})
	},
}

var ruleTypeChanged = &Rule{
	ID: "TYPE_CHANGED", Level: Breaking, Categories: []Category{Model, Approvals},
	Doc: "A parameter's JSON type changed: calls (and stored pause points) with the old type are refused.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		ro, rn, ok := s.shapes(o, n)
		if !ok || ro.Type == rn.Type || (ro.Type == spec.TypeInteger && rn.Type == spec.TypeNumber) {
			return
		}
		a.only(s.cats(Model, Approvals)...).at(typePos(n), "the type of %s changes from %s to %s", s, ro.Type, rn.Type)
	},
}

var ruleTypeWidened = &Rule{
	ID: "TYPE_WIDENED", Level: Compatible, Categories: []Category{Model},
	Doc: "A parameter's type widened from integer to number.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		ro, rn, ok := s.shapes(o, n)
		if ok && ro.Type == spec.TypeInteger && rn.Type == spec.TypeNumber {
			a.only(s.cats(Model)...).at(typePos(n), "the type of %s widens from integer to number", s)
		}
	},
}

// typePos is where a schema's type is given: type:, else $ref:.
func typePos(s *spec.Schema) spec.Pos {
	if _, ok := s.Keys["type"]; ok {
		return s.KeyPos("type")
	}
	return s.KeyPos("$ref")
}

// nullable says whether null is allowed at s; only the schema's own
// nullable when both refer to the same named type (the type is compared
// on its own).
func nullable(s *spec.Schema, sameRef bool) bool {
	if sameRef {
		return s.Nullable
	}
	return s.Nullable || s.Resolved().Nullable
}

func sameRef(o, n *spec.Schema) bool { return o.Ref != "" && o.Ref == n.Ref }

func nullablePos(s *spec.Schema) spec.Pos {
	if _, ok := s.Keys["nullable"]; ok {
		return s.KeyPos("nullable")
	}
	return s.KeyPos("type")
}

var ruleNullableRemoved = &Rule{
	ID: "NULLABLE_REMOVED", Level: Breaking, Categories: []Category{Model, Approvals},
	Doc: "A parameter no longer accepts null.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		if same := sameRef(o, n); nullable(o, same) && !nullable(n, same) {
			a.only(s.cats(Model, Approvals)...).at(nullablePos(n), "%s no longer accepts null", s)
		}
	},
}

var ruleNullableAdded = &Rule{
	ID: "NULLABLE_ADDED", Level: Compatible, Categories: []Category{Model},
	Doc: "A parameter now accepts null.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		if same := sameRef(o, n); !nullable(o, same) && nullable(n, same) {
			a.only(s.cats(Model)...).at(nullablePos(n), "%s now accepts null", s)
		}
	},
}

// ---- Constraints ----

// bound is one side of a numeric range.
type bound struct {
	set       bool
	v         float64
	exclusive bool
	key       string
}

func lower(s *spec.Schema) bound {
	switch {
	case s.ExclusiveMinimum != nil && (s.Minimum == nil || *f64(s.ExclusiveMinimum) >= *f64(s.Minimum)):
		return bound{true, *f64(s.ExclusiveMinimum), true, "exclusiveMinimum"}
	case s.Minimum != nil:
		return bound{true, *f64(s.Minimum), false, "minimum"}
	}
	return bound{}
}

func upper(s *spec.Schema) bound {
	switch {
	case s.ExclusiveMaximum != nil && (s.Maximum == nil || *f64(s.ExclusiveMaximum) <= *f64(s.Maximum)):
		return bound{true, *f64(s.ExclusiveMaximum), true, "exclusiveMaximum"}
	case s.Maximum != nil:
		return bound{true, *f64(s.Maximum), false, "maximum"}
	}
	return bound{}
}

func (b bound) String() string {
	if !b.set {
		return "none"
	}
	return fmt.Sprintf("%s %s", b.key, fmtNum(b.v))
}

func fmtNum(f float64) string { return fmt.Sprintf("%g", f) }

// tighter compares bounds on one side: +1 when n admits less than o, -1
// when more, 0 when the same. up is set for upper bounds.
func tighter(o, n bound, up bool) int {
	switch {
	case !o.set && !n.set:
		return 0
	case !o.set:
		return 1
	case !n.set:
		return -1
	}
	if o.v != n.v {
		if (n.v > o.v) != up {
			return 1
		}
		return -1
	}
	switch {
	case n.exclusive && !o.exclusive:
		return 1
	case !n.exclusive && o.exclusive:
		return -1
	}
	return 0
}

// multipleOf compares multipleOf: +1 when n admits less, -1 when more.
func multipleOf(o, n *float64) int {
	switch {
	case o == nil && n == nil:
		return 0
	case o == nil:
		return 1
	case n == nil:
		return -1
	case *o == *n:
		return 0
	}
	// Every multiple of o is a multiple of n when o/n is whole (up to
	// rounding: 0.1/0.01 is 10.000000000000002).
	if q := *o / *n; math.Abs(q-math.Round(q)) < 1e-9 {
		return -1
	}
	return 1
}

// boundChanges calls f for each numeric constraint of the pair that
// changed, with +1 for tighter and -1 for looser.
func boundChanges(s *site, o, n *spec.Schema, f func(dir int, pos spec.Pos, what string)) {
	ro, rn, ok := s.shapes(o, n)
	if !ok {
		return
	}
	side := func(ob, nb bound, up bool) {
		if d := tighter(ob, nb, up); d != 0 {
			key := nb.key
			if key == "" {
				key = ob.key
			}
			f(d, rn.KeyPos(key), fmt.Sprintf("changes from %s to %s", ob, nb))
		}
	}
	side(lower(ro), lower(rn), false)
	side(upper(ro), upper(rn), true)
	if d := multipleOf(f64(ro.MultipleOf), f64(rn.MultipleOf)); d != 0 {
		f(d, rn.KeyPos("multipleOf"), fmt.Sprintf("changes multipleOf from %s to %s", optNum(f64(ro.MultipleOf)), optNum(f64(rn.MultipleOf))))
	}
}

func optNum(f *float64) string {
	if f == nil {
		return "none"
	}
	return fmtNum(*f)
}

var ruleBoundTightened = &Rule{
	ID: "BOUND_TIGHTENED", Level: Breaking, Categories: []Category{Model, Approvals},
	Doc: "A numeric bound (minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf) admits fewer values.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		a = a.only(s.cats(Model, Approvals)...)
		boundChanges(s, o, n, func(dir int, pos spec.Pos, what string) {
			if dir > 0 {
				a.at(pos, "%s tightens: it %s", s, what)
			}
		})
	},
}

var ruleBoundLoosened = &Rule{
	ID: "BOUND_LOOSENED", Level: Compatible, Categories: []Category{Model},
	Doc: "A numeric bound admits more values.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		a = a.only(s.cats(Model)...)
		boundChanges(s, o, n, func(dir int, pos spec.Pos, what string) {
			if dir < 0 {
				a.at(pos, "%s loosens: it %s", s, what)
			}
		})
	},
}

// lengthChanges calls f for each length or count constraint that changed:
// minLength, maxLength, minItems, maxItems, uniqueItems.
func lengthChanges(s *site, o, n *spec.Schema, f func(dir int, pos spec.Pos, what string)) {
	ro, rn, ok := s.shapes(o, n)
	if !ok {
		return
	}
	count := func(key string, ov, nv *int, max bool) {
		ob, nb := bound{key: key}, bound{key: key}
		if ov != nil {
			ob.set, ob.v = true, float64(*ov)
		}
		if nv != nil {
			nb.set, nb.v = true, float64(*nv)
		}
		if !max && ob.set && ob.v == 0 {
			ob.set = false // minLength: 0 is no bound
		}
		if !max && nb.set && nb.v == 0 {
			nb.set = false
		}
		if d := tighter(ob, nb, max); d != 0 {
			f(d, rn.KeyPos(key), fmt.Sprintf("%s changes from %s to %s", key, optInt(ov), optInt(nv)))
		}
	}
	count("minLength", ro.MinLength, rn.MinLength, false)
	count("maxLength", ro.MaxLength, rn.MaxLength, true)
	count("minItems", ro.MinItems, rn.MinItems, false)
	count("maxItems", ro.MaxItems, rn.MaxItems, true)
	switch {
	case !ro.UniqueItems && rn.UniqueItems:
		f(1, rn.KeyPos("uniqueItems"), "uniqueItems is now set")
	case ro.UniqueItems && !rn.UniqueItems:
		f(-1, rn.Pos, "uniqueItems is no longer set")
	}
}

func optInt(i *int) string {
	if i == nil {
		return "none"
	}
	return fmt.Sprint(*i)
}

var ruleLengthTightened = &Rule{
	ID: "LENGTH_TIGHTENED", Level: Breaking, Categories: []Category{Model, Approvals},
	Doc: "A length or count bound (minLength, maxLength, minItems, maxItems, uniqueItems, a batch's max_items) admits fewer values.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		a = a.only(s.cats(Model, Approvals)...)
		lengthChanges(s, o, n, func(dir int, pos spec.Pos, what string) {
			if dir > 0 {
				a.at(pos, "%s tightens: %s", s, what)
			}
		})
	},
	tool: func(a adder, o, n *spec.Tool) {
		if o.Batch != nil && n.Batch != nil && o.Batch.Name == n.Batch.Name && n.Batch.MaxItems < o.Batch.MaxItems {
			a.only(Model).at(n.Batch.Pos, "the batch tool %q accepts at most %d items (was %d)", n.Batch.Name, n.Batch.MaxItems, o.Batch.MaxItems)
		}
	},
}

var ruleLengthLoosened = &Rule{
	ID: "LENGTH_LOOSENED", Level: Compatible, Categories: []Category{Model},
	Doc: "A length or count bound admits more values.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		a = a.only(s.cats(Model)...)
		lengthChanges(s, o, n, func(dir int, pos spec.Pos, what string) {
			if dir < 0 {
				a.at(pos, "%s loosens: %s", s, what)
			}
		})
	},
	tool: func(a adder, o, n *spec.Tool) {
		if o.Batch != nil && n.Batch != nil && o.Batch.Name == n.Batch.Name && n.Batch.MaxItems > o.Batch.MaxItems {
			a.at(n.Batch.Pos, "the batch tool %q accepts up to %d items (was %d)", n.Batch.Name, n.Batch.MaxItems, o.Batch.MaxItems)
		}
	},
}

// enumDiff lists the values of o's enum that n's lacks; values are
// compared as JSON (the integer 1 is the number 1.0).
func enumDiff(o, n []any) []any {
	var out []any
	for _, v := range o {
		if !slices.ContainsFunc(n, func(w any) bool { return sameValue(v, w) }) {
			out = append(out, v)
		}
	}
	return out
}

// sameValue says whether two values of a spec (a default, an enum value)
// are the same JSON value.
func sameValue(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return reflect.DeepEqual(a, b)
	}
	return string(ja) == string(jb)
}

func fmtValues(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmtValue(v)
	}
	return strings.Join(parts, ", ")
}

func fmtValue(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("%q", v)
	case float64:
		return fmtNum(v)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

var ruleEnumValueRemoved = &Rule{
	ID: "ENUM_VALUE_REMOVED", Level: Breaking, Categories: all3,
	Doc: "An enum lost a value (or a value became restricted to an enum): calls with it are refused, and the Go constant of a string enum value goes.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		ro, rn, ok := s.shapes(o, n)
		if !ok || len(rn.Enum) == 0 {
			return
		}
		if len(ro.Enum) == 0 {
			a.only(s.cats(Model, Approvals)...).at(rn.KeyPos("enum"), "%s is now restricted to %s", s, fmtValues(rn.Enum))
			return
		}
		gone := enumDiff(ro.Enum, rn.Enum)
		if len(gone) == 0 {
			return
		}
		cats := s.cats(Model, Approvals)
		if ro.Type == spec.TypeString && rn.Type == spec.TypeString {
			cats = append(cats, GoAPI)
		}
		a.only(cats...).at(rn.KeyPos("enum"), "%s no longer accepts %s", s, fmtValues(gone))
	},
}

var ruleEnumValueAdded = &Rule{
	ID: "ENUM_VALUE_ADDED", Level: Compatible, Categories: []Category{Model},
	Doc: "An enum gained values, or the enum was removed.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		ro, rn, ok := s.shapes(o, n)
		if !ok || len(ro.Enum) == 0 {
			return
		}
		a = a.only(s.cats(Model)...)
		if len(rn.Enum) == 0 {
			a.at(rn.Pos, "%s is no longer restricted to an enum", s)
			return
		}
		if added := enumDiff(rn.Enum, ro.Enum); len(added) > 0 {
			a.at(rn.KeyPos("enum"), "%s now also accepts %s", s, fmtValues(added))
		}
	},
}

// stringChange reports a string keyword (pattern, format) added, changed
// or removed on the pair's shapes.
func stringChange(s *site, o, n *spec.Schema, get func(*spec.Schema) string) (ov, nv string, rn *spec.Schema, ok bool) {
	ro, rn, ok := s.shapes(o, n)
	if !ok {
		return "", "", nil, false
	}
	ov, nv = get(ro), get(rn)
	return ov, nv, rn, ov != nv
}

func pattern(s *spec.Schema) string { return s.Pattern }
func format(s *spec.Schema) string  { return s.Format }

var rulePatternChanged = &Rule{
	ID: "PATTERN_CHANGED", Level: Breaking, Categories: []Category{Model, Approvals},
	Doc: "A pattern was added or changed: values that matched may not any more.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		if ov, nv, rn, ok := stringChange(s, o, n, pattern); ok && nv != "" {
			msg := fmt.Sprintf("now has the pattern %q", nv)
			if ov != "" {
				msg = fmt.Sprintf("changes its pattern from %q to %q", ov, nv)
			}
			a.only(s.cats(Model, Approvals)...).at(rn.KeyPos("pattern"), "%s %s", s, msg)
		}
	},
}

var rulePatternRemoved = &Rule{
	ID: "PATTERN_REMOVED", Level: Compatible, Categories: []Category{Model},
	Doc: "A pattern was removed.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		if ov, nv, rn, ok := stringChange(s, o, n, pattern); ok && nv == "" {
			a.only(s.cats(Model)...).at(rn.Pos, "%s no longer has the pattern %q", s, ov)
		}
	},
}

var ruleFormatChanged = &Rule{
	ID: "FORMAT_CHANGED", Level: Breaking, Categories: []Category{Model, Approvals},
	Doc: "A format was added or changed: values that were accepted may not be any more.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		if ov, nv, rn, ok := stringChange(s, o, n, format); ok && nv != "" {
			msg := fmt.Sprintf("now has the format %s", nv)
			if ov != "" {
				msg = fmt.Sprintf("changes its format from %s to %s", ov, nv)
			}
			a.only(s.cats(Model, Approvals)...).at(rn.KeyPos("format"), "%s %s", s, msg)
		}
	},
}

var ruleFormatRemoved = &Rule{
	ID: "FORMAT_REMOVED", Level: Compatible, Categories: []Category{Model},
	Doc: "A format was removed.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		if ov, nv, rn, ok := stringChange(s, o, n, format); ok && nv == "" {
			a.only(s.cats(Model)...).at(rn.Pos, "%s no longer has the format %s", s, ov)
		}
	},
}

// openness is how an object treats keys it does not name: 0 closed,
// 1 extra values must match a schema, 2 anything.
func openness(s *spec.Schema) int {
	switch {
	case s.AdditionalPropertiesSchema != nil:
		return 1
	case s.AdditionalProperties:
		return 2
	}
	return 0
}

var openNames = []string{"closed (additionalProperties: false)", "open to extra keys matching a schema", "open to any extra keys"}

func additionalPos(s *spec.Schema) spec.Pos {
	if _, ok := s.Keys["additionalProperties"]; ok {
		return s.KeyPos("additionalProperties")
	}
	return s.Pos
}

var ruleAdditionalClosed = &Rule{
	ID: "ADDITIONAL_PROPERTIES_CLOSED", Level: Breaking, Categories: all3,
	Doc: "An object no longer takes extra keys (or now constrains them): calls with them are refused, and the Go Extra field goes.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		ro, rn, ok := s.shapes(o, n)
		if !ok || ro.Type != spec.TypeObject || rn.Type != spec.TypeObject {
			return
		}
		if oo, no := openness(ro), openness(rn); no < oo {
			cats := s.cats(Model, Approvals)
			if no == 0 && len(rn.Properties) > 0 {
				cats = append(cats, GoAPI) // the struct's Extra field goes
			}
			a.only(cats...).at(additionalPos(rn), "%s is now %s (was %s)", s, openNames[no], openNames[oo])
		}
	},
}

var ruleAdditionalOpened = &Rule{
	ID: "ADDITIONAL_PROPERTIES_OPENED", Level: Compatible, Categories: []Category{Model},
	Doc: "An object now takes extra keys.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		ro, rn, ok := s.shapes(o, n)
		if !ok || ro.Type != spec.TypeObject || rn.Type != spec.TypeObject {
			return
		}
		if oo, no := openness(ro), openness(rn); no > oo {
			a.only(s.cats(Model)...).at(additionalPos(rn), "%s is now %s (was %s)", s, openNames[no], openNames[oo])
		}
	},
}

var ruleTrimAdded = &Rule{
	ID: "TRIM_ADDED", Level: Breaking, Categories: []Category{Model, Approvals},
	Doc: "A string is now trimmed before it is checked: a value of only white space may now fail its length, pattern or enum.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		if ro, rn, ok := s.shapes(o, n); ok && !ro.Trim && rn.Trim {
			a.only(s.cats(Model, Approvals)...).at(rn.KeyPos("trim"), "%s is now trimmed before it is checked", s)
		}
	},
}

var ruleTrimRemoved = &Rule{
	ID: "TRIM_REMOVED", Level: Warning, Categories: []Category{Model},
	Doc: "A string is no longer trimmed: the executor sees the white space around it.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		if ro, rn, ok := s.shapes(o, n); ok && ro.Trim && !rn.Trim {
			a.only(s.cats(Model)...).at(rn.Pos, "%s is no longer trimmed", s)
		}
	},
}

// defaultOf is the default at s: its own, or (when it is not the same
// named type on both sides) its type's.
func defaultOf(s *spec.Schema, same bool) (any, bool) {
	if s.HasDefault {
		return s.Default, true
	}
	if !same {
		if r := s.Resolved(); r.HasDefault {
			return r.Default, true
		}
	}
	return nil, false
}

var ruleDefaultChanged = &Rule{
	ID: "DEFAULT_CHANGED", Level: Breaking, Categories: []Category{Model},
	Doc: "A default changed or was removed: a call that leaves the parameter out now means something else.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		same := sameRef(o, n)
		ov, oh := defaultOf(o, same)
		nv, nh := defaultOf(n, same)
		a = a.only(s.cats(Model)...)
		switch {
		case oh && nh && !sameValue(ov, nv):
			a.at(n.KeyPos("default"), "the default of %s changes from %s to %s", s, fmtValue(ov), fmtValue(nv))
		case oh && !nh:
			a.at(n.Pos, "%s no longer has a default (was %s)", s, fmtValue(ov))
		}
	},
}

var ruleDefaultAdded = &Rule{
	ID: "DEFAULT_ADDED", Level: Warning, Categories: []Category{Model},
	Doc: "A default was added: a call that leaves the parameter out now gets it.",
	schema: func(a adder, s *site, o, n *spec.Schema) {
		same := sameRef(o, n)
		_, oh := defaultOf(o, same)
		nv, nh := defaultOf(n, same)
		if !oh && nh {
			a.only(s.cats(Model)...).at(n.KeyPos("default"), "%s now has the default %s", s, fmtValue(nv))
		}
	},
}

// ---- Safety ----

// flagRank orders a flag's values: 0 false, 1 decided per input
// (by_input), 2 true. For read_only going down is riskier, for
// destructive going up.
func flagRank(f spec.Flag) int {
	switch {
	case f.Mode == spec.ByInput:
		return 1
	case f.Value:
		return 2
	}
	return 0
}

func flagText(f spec.Flag) string {
	switch {
	case f.Mode == spec.ByInput:
		return "by_input"
	case f.Value:
		return "true"
	}
	return "false"
}

// flagRule makes the rule that finds the flag key's rank going up (up)
// or down.
func flagRule(id string, level Level, cats []Category, key string, up bool, doc, what string) *Rule {
	return &Rule{
		ID: id, Level: level, Categories: cats, Doc: doc,
		tool: func(a adder, o, n *spec.Tool) {
			of, nf := flagOf(o, key), flagOf(n, key)
			or, nr := flagRank(of), flagRank(nf)
			if (up && nr > or) || (!up && nr < or) {
				a.at(n.KeyPos(key), "tool %q %s: %s changes from %s to %s", n.Name, what, key, flagText(of), flagText(nf))
			}
		},
	}
}

func flagOf(t *spec.Tool, key string) spec.Flag {
	fs := t.Flags
	switch key {
	case "read_only":
		return fs.ReadOnly
	case "destructive":
		return fs.Destructive
	case "idempotent":
		return fs.Idempotent
	case "open_world":
		return fs.OpenWorld
	case "concurrency_safe":
		return fs.ConcurrencySafe
	case "requires_approval":
		return fs.RequiresApproval
	case "permission_check":
		return spec.Flag{Value: fs.PermissionCheck}
	}
	panic("diff: unknown flag " + key)
}

var safety = []Category{Safety}

var (
	ruleReadOnlyRemoved = flagRule("READ_ONLY_REMOVED", Breaking, safety, "read_only", false,
		"A tool is no longer (always) read-only: it may change things.", "may now change things")
	ruleReadOnlyAdded = flagRule("READ_ONLY_ADDED", Compatible, safety, "read_only", true,
		"A tool became read-only.", "is now read-only")
	ruleDestructiveAdded = flagRule("DESTRUCTIVE_ADDED", Breaking, safety, "destructive", true,
		"A tool became destructive.", "is now destructive")
	ruleDestructiveRemoved = flagRule("DESTRUCTIVE_REMOVED", Compatible, safety, "destructive", false,
		"A tool is no longer destructive.", "is no longer destructive")
	ruleIdempotentRemoved = flagRule("IDEMPOTENT_REMOVED", Breaking, safety, "idempotent", false,
		"A tool is no longer idempotent: repeating a call is no longer safe.", "is no longer idempotent")
	ruleIdempotentAdded = flagRule("IDEMPOTENT_ADDED", Compatible, safety, "idempotent", true,
		"A tool became idempotent.", "is now idempotent")
	ruleOpenWorldAdded = flagRule("OPEN_WORLD_ADDED", Breaking, safety, "open_world", true,
		"A tool now reaches outside systems (open_world).", "now reaches outside systems")
	ruleOpenWorldRemoved = flagRule("OPEN_WORLD_REMOVED", Compatible, safety, "open_world", false,
		"A tool no longer reaches outside systems.", "no longer reaches outside systems")
	ruleConcurrencySafeAdded = flagRule("CONCURRENCY_SAFE_ADDED", Breaking, safety, "concurrency_safe", true,
		"A tool may now run in parallel with other calls of the same turn.", "may now run in parallel")
	ruleConcurrencySafeRemoved = flagRule("CONCURRENCY_SAFE_REMOVED", Compatible, safety, "concurrency_safe", false,
		"A tool no longer runs in parallel with other calls.", "no longer runs in parallel")
	ruleRequiresApprovalRemoved = flagRule("REQUIRES_APPROVAL_REMOVED", Breaking, safety, "requires_approval", false,
		"A tool no longer waits for a person's approval before every call.", "no longer waits for approval")
	ruleRequiresApprovalAdded = flagRule("REQUIRES_APPROVAL_ADDED", Compatible, safety, "requires_approval", true,
		"A tool now waits for a person's approval before every call.", "now waits for approval")
	rulePermissionCheckRemoved = flagRule("PERMISSION_CHECK_REMOVED", Breaking, safety, "permission_check", false,
		"A tool's hand-written permission check is no longer called.", "no longer calls its permission check")
	rulePermissionCheckAdded = flagRule("PERMISSION_CHECK_ADDED", Compatible, safety, "permission_check", true,
		"A tool now has a hand-written permission check.", "now calls a permission check")
)

// f64 is a spec number (exact) as the float64 the comparisons here use; nil
// stays nil.
func f64(d *wire.Decimal) *float64 {
	if d == nil {
		return nil
	}
	f := d.Float64()
	return &f
}
