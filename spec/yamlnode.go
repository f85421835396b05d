package spec

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// parser walks yaml.v3 nodes, collecting every problem it finds.
type parser struct {
	file  string
	lines []string // the source, for columns inside quoted strings
	errs  ErrorList
	// refs and defaults wait for the named types to be known.
	refs     []ref
	defaults []deflt
	// aliases counts alias expansions, to stop a file that expands
	// exponentially (a "billion laughs").
	aliases int
	// extra are the module's own initialisms, for Go names.
	extra []string
	// itemTypes are the Go type names that go_name gives array items and
	// map values, for checkNames.
	itemTypes []itemType
	// later holds checks that need the whole file resolved (references,
	// parameter types); they run after the walk, given the parser that
	// resolves the file (not the one that queued them: see tools).
	later []func(p *parser)
	// allOfs are the schemas with an allOf, merged once references are
	// resolved (allof.go).
	allOfs []*allOfSite
	// exact is set while an example is read: see value.
	exact bool
	// nesting is how many schemas enclose the one being read (see
	// MaxNesting).
	nesting int
	tooDeep bool // the nesting error was reported for this top-level schema
	// patterns holds the answer of regexp.Compile for each pattern read.
	patterns map[string]error
}

// itemType is a Go type name a go_name gives array items or map values.
type itemType struct {
	name string
	pos  Pos
	what string
}

func (p *parser) pos(n *yaml.Node) Pos {
	if n == nil {
		return Pos{File: p.file, Line: 1, Col: 1}
	}
	return Pos{File: p.file, Line: n.Line, Col: n.Column}
}

func (p *parser) errorAt(pos Pos, format string, args ...any) {
	p.errs = append(p.errs, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	p.errorAt(p.pos(n), format, args...)
}

// maxAliases bounds the alias expansions of one file.
const maxAliases = 10000

// expand is deref for the walkers that descend into what a node holds: it
// counts alias expansions and gives nil (reporting it once) past maxAliases.
func (p *parser) expand(n *yaml.Node) *yaml.Node {
	if n == nil || n.Kind != yaml.AliasNode {
		return n
	}
	p.aliases++
	if p.aliases == maxAliases+1 {
		p.errorf(n, "more than %d alias expansions: the file expands too much", maxAliases)
	}
	if p.aliases > maxAliases {
		return nil
	}
	return deref(n)
}

// deref follows aliases to the anchored node.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// tagOf is n.ShortTag() without its work for the tags yaml.v3's parser
// gives nodes (the short form, "!!str"): ShortTag gives those as they are.
func tagOf(n *yaml.Node) string {
	if strings.HasPrefix(n.Tag, "!!") {
		return n.Tag
	}
	return n.ShortTag()
}

// describe names what a node holds, for "found ..." in messages.
func describe(n *yaml.Node) string {
	n = deref(n)
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch tagOf(n) {
		case "!!null":
			return "null"
		case "!!bool":
			return "the boolean " + n.Value
		case "!!int", "!!float":
			return "the number " + n.Value
		case "!!str":
			return fmt.Sprintf("the string %q", n.Value)
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "an unsupported YAML node"
}

func isNull(n *yaml.Node) bool {
	n = deref(n)
	return n == nil || (n.Kind == yaml.ScalarNode && tagOf(n) == "!!null")
}

// entry is one key: value pair of a mapping.
type entry struct {
	Key, Val *yaml.Node
	name     string // the key's name: deref(Key).Value
}

// fields is a mapping node read into its pairs, in file order.
type fields struct {
	list []entry
	// index finds a key in a long mapping; a short one (the most) is
	// searched in order, which costs less than building a map.
	index map[string]int
	buf   [6]entry // list's array for a short mapping
}

// indexFrom is the length from which a mapping's keys are indexed.
const indexFrom = 12

// find is the index in f.list of key, or -1.
func (f *fields) find(key string) int {
	if f.index != nil {
		if i, ok := f.index[key]; ok {
			return i
		}
		return -1
	}
	for i := range f.list {
		if f.list[i].name == key {
			return i
		}
	}
	return -1
}

// add appends e, whose key is not in f yet.
func (f *fields) add(e entry) {
	f.list = append(f.list, e)
	switch {
	case f.index != nil:
		f.index[e.name] = len(f.list) - 1
	case len(f.list) == indexFrom:
		f.index = make(map[string]int, 2*indexFrom)
		for i := range f.list {
			f.index[f.list[i].name] = i
		}
	}
}

func (f *fields) get(key string) (entry, bool) {
	if f == nil {
		return entry{}, false
	}
	i := f.find(key)
	if i < 0 {
		return entry{}, false
	}
	return f.list[i], true
}

func (f *fields) val(key string) *yaml.Node {
	e, _ := f.get(key)
	return e.Val
}

func (f *fields) has(key string) bool {
	_, ok := f.get(key)
	return ok
}

// mapping reads a mapping node. Keys must be plain scalars and appear once;
// `<<` merge keys are expanded (explicit keys win). When known is non-nil, a
// key outside it is reported as unknown "where" (with a suggestion). A node
// that is not a mapping is reported as "what must be a mapping" and gives
// nil.
func (p *parser) mapping(n *yaml.Node, what, where string, known []string) *fields {
	return p.mappingOf(n, text{a: what}, text{a: where}, known)
}

// text is a message fragment in two parts, joined only when a message
// prints it: what most reads never need.
type text struct{ a, b string }

func (t text) String() string { return t.a + t.b }

// mappingOf is mapping with what and where in parts.
func (p *parser) mappingOf(n *yaml.Node, what, where text, known []string) *fields {
	n = p.expand(n)
	if p.aliases > maxAliases {
		return nil
	}
	if n == nil || n.Kind != yaml.MappingNode {
		p.errorf(n, "%s must be a mapping; found %s", what, describe(n))
		return nil
	}
	f := &fields{}
	if len(n.Content)/2 <= len(f.buf) {
		f.list = f.buf[:0]
	} else {
		f.list = make([]entry, 0, len(n.Content)/2)
	}
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && tagOf(k) == "!!merge" {
			merges = append(merges, v)
			continue
		}
		kd := deref(k)
		if kd.Kind != yaml.ScalarNode || tagOf(kd) == "!!null" {
			p.errorf(k, "keys must be plain names; found %s %s", describe(kd), where)
			continue
		}
		name := kd.Value
		if j := f.find(name); j >= 0 {
			p.errorf(k, "duplicate key %q %s (first given at line %d)", name, where, f.list[j].Key.Line)
			continue
		}
		if known != nil && !contains(known, name) {
			hint := didYouMean(name, known)
			switch {
			case n.Style&yaml.FlowStyle != 0 && isNull(v) && strings.Contains(name, " "):
				hint = " (a comma inside {...} ends the value before it: quote text that holds a comma)"
			case hint == "" && contains(known, "type") && unsupportedSchemaKeys[name]:
				hint = ": toolgen's subset of JSON Schema has no " + name
			}
			p.errorf(k, "unknown key %q %s%s", name, where, hint)
			continue
		}
		f.add(entry{k, v, name})
	}
	for _, m := range merges {
		m = deref(m)
		var srcs []*yaml.Node
		if m.Kind == yaml.SequenceNode {
			srcs = m.Content
		} else {
			srcs = []*yaml.Node{m}
		}
		for _, src := range srcs {
			mf := p.mappingOf(src, text{a: "a merged value (<<)"}, where, known)
			if mf == nil {
				continue
			}
			for _, e := range mf.list {
				if f.find(e.name) < 0 {
					f.add(e)
				}
			}
		}
	}
	return f
}

// sequence reads a list node; a non-list is reported and gives nil, false.
func (p *parser) sequence(n *yaml.Node, what string) ([]*yaml.Node, bool) {
	n = p.expand(n)
	if p.aliases > maxAliases {
		return nil, false
	}
	if n == nil || n.Kind != yaml.SequenceNode {
		p.errorf(n, "%s must be a list; found %s", what, describe(n))
		return nil, false
	}
	return n.Content, true
}

// sequenceKey is sequence(n, key+" "+in), the message made only for a
// problem.
func (p *parser) sequenceKey(n *yaml.Node, key, in string) ([]*yaml.Node, bool) {
	if n != nil && n.Kind == yaml.SequenceNode && p.aliases <= maxAliases {
		return n.Content, true
	}
	return p.sequence(n, key+" "+in)
}

// strKey is str(n, key+" "+in), the message made only for a problem.
func (p *parser) strKey(n *yaml.Node, key, in string) (string, bool) {
	if d := deref(n); d != nil && d.Kind == yaml.ScalarNode && tagOf(d) == "!!str" {
		return d.Value, true
	}
	return p.str(n, key+" "+in)
}

// booleanKey is boolean(n, key+" "+in), the message made only for a
// problem.
func (p *parser) booleanKey(n *yaml.Node, key, in string) (bool, bool) {
	if d := deref(n); d != nil && d.Kind == yaml.ScalarNode && tagOf(d) == "!!bool" {
		if b, ok := scalarBool(d); ok {
			return b, true
		}
	}
	return p.boolean(n, key+" "+in)
}

// countKey is count(n, key+" "+in, least), the message made only for a
// problem.
func (p *parser) countKey(n *yaml.Node, key, in string, least int) (int, bool) {
	if d := deref(n); d != nil && d.Kind == yaml.ScalarNode && tagOf(d) == "!!int" {
		if i, ok := scalarInt(d); ok && i >= int64(least) && i <= math.MaxInt32 {
			return int(i), true
		}
	}
	return p.count(n, key+" "+in, least)
}

// str reads a string scalar. Numbers and booleans are not strings: YAML
// would turn `description: 2024` into a number, so it must be quoted.
func (p *parser) str(n *yaml.Node, what string) (string, bool) {
	d := deref(n)
	if d == nil || d.Kind != yaml.ScalarNode || tagOf(d) != "!!str" {
		hint := ""
		if d != nil && d.Kind == yaml.ScalarNode && tagOf(d) != "!!null" {
			hint = " (quote it to make it a string)"
		}
		p.errorf(n, "%s must be a string; found %s%s", what, describe(d), hint)
		return "", false
	}
	return d.Value, true
}

// boolean reads a true/false scalar.
func (p *parser) boolean(n *yaml.Node, what string) (bool, bool) {
	d := deref(n)
	if d == nil || d.Kind != yaml.ScalarNode || tagOf(d) != "!!bool" {
		p.errorf(n, "%s must be true or false; found %s", what, describe(d))
		return false, false
	}
	b, ok := scalarBool(d)
	if !ok {
		p.errorf(n, "%s must be true or false; found %s", what, describe(d))
		return false, false
	}
	return b, true
}

// scalarBool decodes a !!bool scalar as d.Decode(&b) does, without its
// reflection for the words yaml.v3 resolves to a bool.
func scalarBool(d *yaml.Node) (bool, bool) {
	if d.Tag == "!!bool" {
		switch d.Value {
		case "true", "True", "TRUE":
			return true, true
		case "false", "False", "FALSE":
			return false, true
		}
	}
	var b bool
	if err := d.Decode(&b); err != nil {
		return false, false
	}
	return b, true
}

// number reads a finite number.
func (p *parser) number(n *yaml.Node, what string) (float64, bool) {
	d := deref(n)
	if d != nil && d.Kind == yaml.ScalarNode {
		switch tagOf(d) {
		case "!!int":
			if i, ok := scalarInt(d); ok {
				return float64(i), true
			}
			fallthrough
		case "!!float":
			if f, ok := scalarFloat(d); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
				return f, true
			}
		}
	}
	p.errorf(n, "%s must be a number; found %s", what, describe(d))
	return 0, false
}

// count reads a whole number (3 or 3.0) of at least least.
func (p *parser) count(n *yaml.Node, what string, least int) (int, bool) {
	f, ok := p.number(n, what)
	if !ok {
		return 0, false
	}
	if f != math.Trunc(f) || f < float64(least) {
		p.errorf(n, "%s must be a whole number of at least %d; found %s", what, least, deref(n).Value)
		return 0, false
	}
	if f > math.MaxInt32 {
		p.errorf(n, "%s must be at most %d; found %s", what, math.MaxInt32, deref(n).Value)
		return 0, false
	}
	return int(f), true
}

// scalarInt decodes a scalar as n.Decode(&i) into an int64 does, without
// its reflection for a !!int written in plain decimal digits.
func scalarInt(n *yaml.Node) (int64, bool) {
	if n.Tag == "!!int" && plainDecimal(n.Value, 18) {
		// yaml.v3 parses it with strconv.ParseInt(v, 0, 64): without a
		// leading 0 (octal) or underscores, base 10.
		i, err := strconv.ParseInt(n.Value, 10, 64)
		return i, err == nil
	}
	var i int64
	if err := n.Decode(&i); err != nil {
		return 0, false
	}
	return i, true
}

// scalarFloat decodes a scalar as n.Decode(&f) into a float64 does,
// without its reflection for a !!float written as digits, a point and
// digits.
func scalarFloat(n *yaml.Node) (float64, bool) {
	if n.Tag == "!!float" {
		v := strings.TrimPrefix(n.Value, "-")
		if dot := strings.IndexByte(v, '.'); dot > 0 && dot < len(v)-1 && digits(v[:dot]) && digits(v[dot+1:]) {
			// yaml.v3 gives it to strconv.ParseFloat as written.
			f, err := strconv.ParseFloat(n.Value, 64)
			return f, err == nil
		}
	}
	var f float64
	if err := n.Decode(&f); err != nil {
		return 0, false
	}
	return f, true
}

// plainDecimal reports whether s is an integer in decimal digits with an
// optional "-", without leading zeros, of at most max digits (0: any
// number).
func plainDecimal(s string, max int) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || !digits(s) || (s[0] == '0' && len(s) > 1) {
		return false
	}
	return max == 0 || len(s) <= max
}

// digits reports whether s is one or more ASCII digits.
func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// yamlLine matches the line number in a yaml.v3 syntax error.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError turns a yaml.v3 decoding error into a located Error. lines
// are the file's lines, to find the tab of a tab indentation error.
func syntaxError(file string, lines []string, err error) *Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	pos := Pos{File: file, Line: 1}
	line := 0
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	if l, col := indentTab(lines, max(line, 1), msg); l > 0 {
		pos.Line, pos.Col = l, col
		msg += " (YAML does not allow tabs for indentation; use spaces)"
	} else {
		pos.Line, pos.Col, msg = locateSyntax(lines, line, msg)
	}
	return &Error{Pos: pos, Msg: "invalid YAML: " + msg}
}

// indentTab finds the tab behind a yaml.v3 error about indentation: the
// first tab in a line's leading white space. yaml.v3 reports "found
// character that cannot start any token" on the tab's own line (the message
// is about a tab only when that line has one), and "found a tab character
// that violates indentation" on the line where the construct it was reading
// began, so the tab may be on a later line. It returns 0, 0 when the error
// is not about such a tab.
func indentTab(lines []string, line int, msg string) (int, int) {
	last := line
	switch {
	case strings.HasPrefix(msg, "found character that cannot start any token"):
	case strings.HasPrefix(msg, "found a tab character"):
		last = len(lines)
	default:
		return 0, 0
	}
	for l := line; l >= 1 && l <= last && l <= len(lines); l++ {
		text := lines[l-1]
		indent := text[:len(text)-len(strings.TrimLeft(text, " \t"))]
		if i := strings.IndexByte(indent, '\t'); i >= 0 {
			return l, i + 1
		}
	}
	return 0, 0
}
