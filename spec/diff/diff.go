// Package diff compares two versions of toolgen specs and says what the
// change does: what it breaks for the Go code compiled against the
// generated types, for the models (and prompts, evals and cached catalogs)
// that were shown the schemas, for the pause points stored while a tool
// waited for approval, and what it changes about a tool's safety.
//
// It is modelled on buf breaking: every check is a Rule with an ID, the
// categories of consumers it concerns and a level, and every Finding is
// located at the new spec's file:line:col, or the old spec's for something
// that was removed.
package diff

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen/toolgen/spec"
)

// Category is who a change concerns.
type Category string

const (
	// GoAPI: the Go code that uses the generated package stops compiling
	// or changes meaning.
	GoAPI Category = "go-api"
	// Model: a call that was valid may now be refused, or what the model
	// is shown changes.
	Model Category = "model"
	// Approvals: the arguments of a stored pause point (a call waiting for
	// a person's approval) may no longer decode when it is resumed.
	Approvals Category = "approvals"
	// Safety: what a tool may do, or what stands between the model and
	// it, changed; a reviewer must see it even when nothing else changed.
	Safety Category = "safety"
)

// Categories lists every category, in the order findings print them.
var Categories = []Category{GoAPI, Model, Approvals, Safety}

// Level is how serious a finding is.
type Level int

const (
	// Breaking: something that worked may stop working (or, for Safety,
	// the tool became riskier).
	Breaking Level = iota
	// Warning: nothing that worked stops working, but what a consumer sees
	// changed (a description, a tool added to the catalog).
	Warning
	// Compatible: a loosening (a bound relaxed, a parameter made
	// optional, a tool made safer); listed so the reviewer sees it.
	Compatible
)

func (l Level) String() string {
	switch l {
	case Breaking:
		return "breaking"
	case Warning:
		return "warning"
	}
	return "compatible"
}

// MarshalText makes a Level print as its name in JSON.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// Rule is one check: a handler for pairs of files, of tools or of schemas
// (a rule may have more than one), which the comparison calls for every
// pair it matched.
type Rule struct {
	// ID names the rule in output and in testdata (PARAM_REMOVED).
	ID string
	// Level is the level of the rule's findings.
	Level Level
	// Categories are the categories the rule's findings may concern; a
	// finding concerns a subset (a parameter removed from a type that only
	// a result uses concerns the Go API only).
	Categories []Category
	// Doc says what the rule finds, in one sentence.
	Doc string

	file   func(a adder, old, new *spec.File)
	tool   func(a adder, old, new *spec.Tool)
	schema func(a adder, s *site, old, new *spec.Schema)
}

// Finding is one change a rule found.
type Finding struct {
	Rule *Rule
	// Categories are the categories this finding concerns (a subset of
	// the rule's).
	Categories []Category
	// Pos is where the change is: in the new spec, or in the old one when
	// Old is set (something removed).
	Pos spec.Pos
	Old bool
	// Anchor is, for a finding in the old spec, the closest place in the
	// new spec (the tool or the file that held what was removed); zero
	// when there is none (the file itself is gone).
	Anchor spec.Pos
	// Tool is the name of the tool concerned, "" for a module-level change.
	Tool    string
	Message string
}

// Breaking reports whether the finding is at level Breaking.
func (f Finding) Breaking() bool { return f.Rule.Level == Breaking }

// Concerns reports whether the finding concerns category c.
func (f Finding) Concerns(c Category) bool { return slices.Contains(f.Categories, c) }

// Fails reports whether the finding fails a check that fails on the given
// categories: it is breaking and concerns one of them.
func (f Finding) Fails(failOn []Category) bool {
	if !f.Breaking() {
		return false
	}
	for _, c := range failOn {
		if f.Concerns(c) {
			return true
		}
	}
	return false
}

// String formats f as "file:line:col: RULE_ID level (categories): message".
func (f Finding) String() string {
	cats := make([]string, len(f.Categories))
	for i, c := range f.Categories {
		cats[i] = string(c)
	}
	where := f.Pos.String()
	msg := f.Message
	if f.Old {
		msg += " (the position is in the old spec)"
	}
	return fmt.Sprintf("%s: %s %s (%s): %s", where, f.Rule.ID, f.Rule.Level, strings.Join(cats, ", "), msg)
}

// Pair is one spec file as it was (Old) and as it is (New). Old is nil for
// a file that was added, New for one that was removed.
type Pair struct {
	Old, New *spec.File
}

// Compare runs every rule over the pairs and returns the findings, sorted
// by file, line, column and rule ID.
func Compare(pairs ...Pair) []Finding {
	c := &checker{tools: map[*spec.File]map[string]*spec.Tool{}, types: map[*spec.File]map[string]*spec.NamedType{}}
	for _, p := range pairs {
		c.files(p.Old, p.New)
	}
	slices.SortStableFunc(c.findings, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(a.Pos.File, b.Pos.File),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
			cmp.Compare(a.Rule.ID, b.Rule.ID),
			cmp.Compare(a.Message, b.Message),
		)
	})
	return c.findings
}

// checker walks the pairs, running the rules.
type checker struct {
	findings []Finding
	file     *spec.File // the new file of the pair being compared
	// tools and types index the files' tools and named types by name.
	tools map[*spec.File]map[string]*spec.Tool
	types map[*spec.File]map[string]*spec.NamedType
}

// tool returns f's tool called name, or nil; f may be nil.
func (c *checker) tool(f *spec.File, name string) *spec.Tool {
	if f == nil {
		return nil
	}
	m, ok := c.tools[f]
	if !ok {
		m = make(map[string]*spec.Tool, len(f.Tools))
		for _, t := range f.Tools {
			m[t.Name] = t
		}
		c.tools[f] = m
	}
	return m[name]
}

// typ returns f's named type called name, or nil; f may be nil.
func (c *checker) typ(f *spec.File, name string) *spec.NamedType {
	if f == nil {
		return nil
	}
	m, ok := c.types[f]
	if !ok {
		m = make(map[string]*spec.NamedType, len(f.Types))
		for _, t := range f.Types {
			m[t.Name] = t
		}
		c.types[f] = m
	}
	return m[name]
}

// adder is what a handler reports through: bound to its rule, the tool
// and the anchor of the place being compared.
type adder struct {
	c      *checker
	rule   *Rule
	tool   string
	anchor spec.Pos
	// cats are the categories of the findings when narrowed is set (by
	// only), else the rule's.
	cats     []Category
	narrowed bool
	// file is the new spec file being compared (nil when it was removed).
	file *spec.File
}

// only narrows the categories of the findings to those of cats that the
// rule declares.
func (a adder) only(cats ...Category) adder {
	var keep []Category
	for _, c := range a.rule.Categories {
		if slices.Contains(cats, c) {
			keep = append(keep, c)
		}
	}
	a.cats, a.narrowed = keep, true
	return a
}

// at reports a finding at pos in the new spec.
func (a adder) at(pos spec.Pos, format string, args ...any) {
	a.add(pos, false, format, args...)
}

// atOld reports a finding at pos in the old spec.
func (a adder) atOld(pos spec.Pos, format string, args ...any) {
	a.add(pos, true, format, args...)
}

func (a adder) add(pos spec.Pos, old bool, format string, args ...any) {
	cats := a.rule.Categories
	if a.narrowed {
		cats = a.cats
	}
	if len(cats) == 0 {
		return
	}
	f := Finding{
		Rule:       a.rule,
		Categories: slices.Clone(cats),
		Pos:        pos,
		Old:        old,
		Tool:       a.tool,
		Message:    fmt.Sprintf(format, args...),
	}
	if old {
		f.Anchor = a.anchor
	}
	a.c.findings = append(a.c.findings, f)
}

func (c *checker) adder(r *Rule, tool string, anchor spec.Pos) adder {
	return adder{c: c, rule: r, tool: tool, anchor: anchor, file: c.file}
}

// files compares one pair of files: the file rules, then every pair of
// tools with the same name, then every pair of named types.
func (c *checker) files(o, n *spec.File) {
	c.file = n
	var anchor spec.Pos
	if n != nil {
		anchor = n.Pos
	}
	for _, r := range Rules {
		if r.file != nil {
			r.file(c.adder(r, "", anchor), o, n)
		}
	}
	if o == nil || n == nil {
		return
	}
	for _, nt := range n.Tools {
		ot := c.tool(o, nt.Name)
		if ot == nil {
			continue
		}
		for _, r := range Rules {
			if r.tool != nil {
				r.tool(c.adder(r, nt.Name, nt.Pos), ot, nt)
			}
		}
		c.schema(&site{tool: nt.Name, args: true}, ot.Params, nt.Params)
	}
	oldArgs, newArgs := argTypes(o), argTypes(n)
	for _, ntyp := range n.Types {
		otyp := c.typ(o, ntyp.Name)
		if otyp == nil {
			continue
		}
		s := &site{typ: ntyp.Name, args: oldArgs[ntyp.Name] || newArgs[ntyp.Name]}
		c.schema(s, otyp.Schema, ntyp.Schema)
	}
}

// maxDepth bounds the walk into nested schemas (named types cannot refer
// to themselves, so this is only a guard).
const maxDepth = 64

// schema compares one pair of schemas at s, then their parts.
func (c *checker) schema(s *site, o, n *spec.Schema) {
	if o == nil || n == nil || s.depth > maxDepth {
		return
	}
	for _, r := range Rules {
		if r.schema != nil {
			// Something removed here is placed, in the new spec, at
			// the schema that held it.
			r.schema(c.adder(r, s.tool, n.Pos), s, o, n)
		}
	}
	ro, rn, ok := s.shapes(o, n)
	if !ok {
		return
	}
	for _, np := range rn.Properties {
		if op := ro.Property(np.Name); op != nil {
			c.schema(s.child("."+np.Name), op.Schema, np.Schema)
		}
	}
	c.schema(s.child("[]"), ro.Items, rn.Items)
	c.schema(s.child(".*"), ro.AdditionalPropertiesSchema, rn.AdditionalPropertiesSchema)
}

// site is where a pair of schemas is: in a tool's arguments or in a named
// type, at a path.
type site struct {
	tool string // the tool whose arguments hold the schema ("" for a named type)
	typ  string // the named type that holds it ("" for a tool's arguments)
	path string // dotted path from the root: "address.street", "tags[]", "" for the root
	// args is set when the schema is part of some tool's arguments (a
	// named type is when a parameter refers to it, in either version):
	// the model's calls and stored pause points must fit it.
	args  bool
	depth int // how deep in the walk, for maxDepth
}

func (s *site) child(seg string) *site {
	c := *s
	if c.path == "" {
		seg = strings.TrimPrefix(seg, ".")
	}
	c.path += seg
	c.depth++
	return &c
}

// String names the place: `parameter "a.b" of tool "t"`, `the argument object
// of tool "t"`, `type "Money"`, `property "amount" of type "Money"`.
func (s *site) String() string {
	switch {
	case s.typ == "" && s.path == "":
		return fmt.Sprintf("the argument object of tool %q", s.tool)
	case s.typ == "":
		return fmt.Sprintf("parameter %q of tool %q", s.path, s.tool)
	case s.path == "":
		return fmt.Sprintf("type %q", s.typ)
	}
	return fmt.Sprintf("property %q of type %q", s.path, s.typ)
}

// member names a property of the object at s.
func (s *site) member(name string) string {
	path := name
	if s.path != "" {
		path = s.path + "." + name
	}
	if s.typ == "" {
		return fmt.Sprintf("parameter %q of tool %q", path, s.tool)
	}
	return fmt.Sprintf("property %q of type %q", path, s.typ)
}

// cats filters cats to what a change at s concerns: the model and stored
// pause points only see what is part of some tool's arguments.
func (s *site) cats(cats ...Category) []Category {
	if s.args {
		return cats
	}
	return slices.DeleteFunc(slices.Clone(cats), func(c Category) bool { return c == Model || c == Approvals })
}

// shapes returns the schemas that describe the values at s, references
// followed; ok is false when both refer to the same named type, which is
// compared once, as a type.
func (s *site) shapes(o, n *spec.Schema) (ro, rn *spec.Schema, ok bool) {
	if o.Ref != "" && o.Ref == n.Ref {
		return nil, nil, false
	}
	ro, rn = o.Resolved(), n.Resolved()
	return ro, rn, ro != nil && rn != nil
}

// argTypes are the named types reachable from some tool's arguments.
func argTypes(f *spec.File) map[string]bool {
	seen := map[string]bool{}
	var walk func(s *spec.Schema, depth int)
	walk = func(s *spec.Schema, depth int) {
		if s == nil || depth > maxDepth {
			return
		}
		if s.RefType != nil {
			if seen[s.Ref] {
				return
			}
			seen[s.Ref] = true
			walk(s.RefType.Schema, depth+1)
			return
		}
		for _, p := range s.Properties {
			walk(p.Schema, depth+1)
		}
		walk(s.Items, depth+1)
		walk(s.AdditionalPropertiesSchema, depth+1)
	}
	for _, t := range f.Tools {
		walk(t.Params, 0)
	}
	return seen
}
