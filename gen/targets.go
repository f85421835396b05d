package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/spec"
)

// Portability at generate time: every tool of a spec is put through the
// runtime's own encoders (runtime.EncodeTools, in each mode a host can ask
// for) for each dialect the module targets (spec.File.TargetDialects), and
// what they report is mapped back to the spec's positions. The rules live
// in the runtime only; this file reads their answers:
//
//   - an encoder error (a name the dialect's API takes no such name, a
//     schema it cannot send at all) is an error: the provider would refuse
//     the tool, so nothing is generated;
//   - a strict mode (OpenAI, Anthropic) that cannot carry the schema, so
//     the encoder falls back to sending it without strict, is a warning
//     naming the reason the rewrite gave (a map, a strict limit: 5,000
//     properties, 10 levels, 1,000 enum values, 120,000 characters);
//   - a keyword the dialect's rewrite drops or moves into the description,
//     found by comparing the schema the encoder sent with the generated one,
//     is a warning at the keyword, with the note the model reads instead;
//   - the limits of a request (runtime.CheckLimits: OpenAI's 128 tools and
//     1,024-character descriptions, Gemini's 128 declarations, Anthropic
//     strict's 20 tools, 24 optional and 16 union parameters), counted as
//     if all of the module's tools went into one request, are warnings at
//     the first tool past them (at the description for its length): a
//     host sends the tools a call needs and may send fewer.
//
// The tool's decoder still enforces every keyword; a warning says only that
// the model is shown less.
//
// Encoding is most of the check's cost, so what can be known without it is
// not encoded: a plain schema (runtime.PlainSchema: no reference or union,
// read from its bytes) under a name every dialect takes is taken by every
// plain mode as generated; the other modes are read from what they send
// (runtime.ToolSchema.Sent: the schema decoded once, each rewrite done
// once, nothing encoded and decoded again), and only a tool a mode refuses
// is encoded, to locate the refusal. Tools are checked in parallel and
// reported in order. TestTargetsFastMatchesSlow compares the answers with
// encoding every tool in every mode, over every spec in the repository.

// targetMode is one way a host can encode a catalog for a dialect.
type targetMode struct {
	dialect runtime.Dialect
	label   string // as warnings name it: "openai (strict)"
	opts    runtime.EncodeOptions
	strict  bool // reports a fallback from strict as a warning
}

func targetModes(dialect string) []targetMode {
	d := runtime.Dialect(dialect)
	switch d {
	case runtime.DialectOpenAI, runtime.DialectOpenAIChat, runtime.DialectAnthropic:
		return []targetMode{
			{dialect: d, label: dialect},
			{dialect: d, label: dialect + " (strict)", opts: runtime.EncodeOptions{Strict: true}, strict: true},
		}
	case runtime.DialectGemini:
		return []targetMode{
			{dialect: d, label: dialect},
			{dialect: d, label: dialect + " (parametersJsonSchema)", opts: runtime.EncodeOptions{GeminiJSONSchema: true}},
		}
	}
	return []targetMode{{dialect: d, label: dialect}}
}

// targetIssue is one finding, before the dialects that share it are
// merged.
type targetIssue struct {
	pos    spec.Pos
	msg    string // what, without the dialect
	labels []string
}

// checkTargets checks f's tools against its targeted dialects: for errors
// against every dialect unless the module names its `targets:`, for
// warnings only when it does (a keyword moved into the description is the
// runtime's designed behaviour, worth hearing about only for a dialect the
// module is meant for). The errors
// are a spec.ErrorList; warnings are located lines, one per place and
// finding, naming every dialect that has it.
func checkTargets(f *spec.File) (warnings []string, err error) {
	return checkTargetsWith(f, nil)
}

// checkTargetsWith is checkTargets, taking the tools' schema literals from
// schemas when it is not nil.
func checkTargetsWith(f *spec.File, schemas *schemaMemo) (warnings []string, err error) {
	return checkTargetsHow(f, schemas, targetsHow{})
}

// targetsHow tunes checkTargetsHow for the tests that compare its fast
// paths with encoding every tool in every mode.
type targetsHow struct {
	slow bool // encode every tool in every mode, as the runtime would
	// plain counts the tools whose plain modes were answered from the
	// schema's bytes (runtime.PlainSchema) and names alone.
	plain *int
}

// checkTargetsHow is checkTargetsWith. A tool whose schema is plain
// (runtime.PlainSchema) and whose name every targeted dialect takes is not
// encoded in the plain modes: every one of them takes it, and sends it as
// generated (Gemini's parameters aside, which rewrite it and are compared
// when the module names its targets).
func checkTargetsHow(f *spec.File, schemas *schemaMemo, how targetsHow) (warnings []string, err error) {
	var errs spec.ErrorList
	var issues []*targetIssue
	index := map[string]*targetIssue{}
	named := len(f.Targets) > 0
	warn := func(pos spec.Pos, label, msg string) {
		if !named {
			return // warnings only for the dialects a module names
		}
		k := pos.String() + "\x00" + msg
		if is := index[k]; is != nil {
			if !slices.Contains(is.labels, label) {
				is.labels = append(is.labels, label)
			}
			return
		}
		is := &targetIssue{pos: pos, msg: msg, labels: []string{label}}
		index[k] = is
		issues = append(issues, is)
	}
	// Each tool is checked on its own (in parallel for a large spec), its
	// findings kept in order; they are then reported tool after tool, as
	// one pass over the tools would.
	results := make([]toolResult, len(f.Tools))
	eachTool(len(f.Tools), func(i int) { results[i] = checkTool(f, f.Tools[i], schemas, how, named) })
	tools := make([]*runtime.Tool, len(f.Tools))
	// What each tool sends on Anthropic strict, for its per-request limits;
	// nil when a tool was encoded instead (CheckLimits encodes them all).
	anthropicStrict := make([]runtime.SentSchema, len(f.Tools))
	for i, r := range results {
		if r.err != nil {
			return nil, r.err
		}
		tools[i] = r.tool
		if r.plain && how.plain != nil {
			*how.plain++
		}
		errs = append(errs, r.errs...)
		for _, w := range r.warnings {
			warn(w.pos, w.label, w.msg)
		}
		if !r.anthropicStrictOK {
			anthropicStrict = nil
		} else if anthropicStrict != nil {
			anthropicStrict[i] = r.anthropicStrict
		}
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	if named {
		for _, dialect := range f.TargetDialects() {
			for _, m := range targetModes(dialect) {
				if how.slow {
					anthropicStrict = nil
				}
				if err := checkLimits(f, tools, m, anthropicStrict, warn); err != nil {
					return nil, err
				}
			}
		}
	}
	slices.SortStableFunc(issues, func(a, b *targetIssue) int {
		if c := strings.Compare(a.pos.File, b.pos.File); c != 0 {
			return c
		}
		if a.pos.Line != b.pos.Line {
			return a.pos.Line - b.pos.Line
		}
		return a.pos.Col - b.pos.Col
	})
	for _, is := range issues {
		warnings = append(warnings, is.pos.String()+": "+strings.Replace(is.msg, "{on}", strings.Join(is.labels, ", "), 1))
	}
	return warnings, nil
}

// plainTool reports whether every dialect of dialects takes a tool named
// name with the argument schema schema in its plain mode, from the bytes
// and the name alone (false: encode it to know).
func plainTool(name string, schema []byte, dialects []string) bool {
	if !runtime.PlainSchema(schema) {
		return false
	}
	for _, d := range dialects {
		if runtime.CheckToolName(runtime.Dialect(d), name) != nil {
			return false
		}
	}
	return true
}

// toolResult is what checkTool found for one tool.
type toolResult struct {
	tool     *runtime.Tool // as the runtime sees it
	err      error         // its schema literal failed
	plain    bool          // plainTool
	errs     spec.ErrorList
	warnings []toolWarning // in the order found
	// What the tool sends on Anthropic strict (ok: known without encoding
	// it).
	anthropicStrict   runtime.SentSchema
	anthropicStrictOK bool
}

// toolWarning is one warning of one tool, before warnings at the same
// place are merged.
type toolWarning struct {
	pos        spec.Pos
	label, msg string
}

// checkTool checks tool t of f in every mode of its targeted dialects
// (the plain ones only unless named, and not those a plain tool passes).
func checkTool(f *spec.File, t *spec.Tool, schemas *schemaMemo, how targetsHow, named bool) toolResult {
	var r toolResult
	schema, err := schemas.json(t.Params)
	if err != nil {
		return toolResult{err: err}
	}
	r.tool = &runtime.Tool{Name: t.Name, Description: t.Description, Schema: schema}
	r.anthropicStrictOK = !how.slow
	c := toolCheck{t: t, rt: r.tool, errs: &r.errs, warn: func(pos spec.Pos, label, msg string) {
		if named { // warnings only for the dialects a module names
			r.warnings = append(r.warnings, toolWarning{pos, label, msg})
		}
	}}
	r.plain = !how.slow && plainTool(t.Name, schema, f.TargetDialects())
	for _, dialect := range f.TargetDialects() {
		for _, m := range targetModes(dialect) {
			if m.opts != (runtime.EncodeOptions{}) && !named {
				continue // warnings only for the dialects a module names
			}
			if r.plain && m.opts == (runtime.EncodeOptions{}) && (!named || m.dialect != runtime.DialectGemini) {
				continue // taken, and sent as generated or not compared
			}
			if how.slow {
				c.check(m, named)
				continue
			}
			sent, ok := c.checkSent(m, named)
			if m.dialect == runtime.DialectAnthropic && m.strict {
				r.anthropicStrict, r.anthropicStrictOK = sent, ok
			}
		}
	}
	return r
}

// parallelTools is the number of tools from which eachTool spreads the
// work over the processors.
const parallelTools = 64

// eachTool calls fn(i) for each i in [0, n): one after the other for a
// small n, else from GOMAXPROCS goroutines.
func eachTool(n int, fn func(i int)) {
	workers := min(goruntime.GOMAXPROCS(0), n/parallelTools)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				fn(i)
			}
		})
	}
	wg.Wait()
}

// toolCheck is one tool under check, with what its modes share.
type toolCheck struct {
	t  *spec.Tool
	rt *runtime.Tool       // t as the runtime sees it, with its generated argument schema
	in any                 // that schema, parsed once, for compare
	ts *runtime.ToolSchema // that schema, read once, for checkSent
	// compared holds what compare found for each schema sent, by its
	// identity: modes sent the same schema (OpenAI's two dialects, a
	// fallback to the schema as generated) find the same.
	compared map[uintptr][]finding
	warn     func(spec.Pos, string, string)
	errs     *spec.ErrorList
}

// finding is a warning before it names its dialects.
type finding struct {
	pos spec.Pos
	msg string
}

// checkSent is check, from what mode m sends of the tool's schema
// (runtime.ToolSchema.Sent) rather than from encoding the tool and
// decoding the result: the same findings, for a fraction of the cost. A
// tool m refuses is checked again by check, which locates the refusal;
// ok is false then.
func (c *toolCheck) checkSent(m targetMode, named bool) (sent runtime.SentSchema, ok bool) {
	t := c.t
	if c.ts == nil {
		c.ts = runtime.ReadToolSchema(c.rt.Schema)
	}
	sent, err := c.ts.Sent(m.dialect, t.Name, m.opts)
	if err != nil {
		c.check(m, named)
		return sent, false
	}
	if !named || m.opts == (runtime.EncodeOptions{}) && m.dialect != runtime.DialectGemini || sent.Schema == nil {
		return sent, true // as in check
	}
	if m.strict && !sent.Strict {
		if rerr := sent.NotStrict; rerr != nil {
			pos, what := locate(t, rerr)
			c.warn(pos, m.label, fmt.Sprintf("tool %q is sent without strict on {on}: %s cannot be strict (%s)", t.Name, what, reason(rerr)))
		}
		return sent, true
	}
	id := reflect.ValueOf(sent.Schema).Pointer()
	if found, ok := c.compared[id]; ok {
		for _, f := range found {
			c.warn(f.pos, m.label, f.msg)
		}
		return sent, true
	}
	var found []finding
	compare(t, t.Params, "", c.ts.Root(), sent.Schema, m.label, func(pos spec.Pos, label, msg string) {
		found = append(found, finding{pos, msg})
		c.warn(pos, label, msg)
	})
	if c.compared == nil {
		c.compared = map[uintptr][]finding{}
	}
	c.compared[id] = found
	return sent, true
}

// check encodes the tool in mode m and reports what the encoder refused
// and, when the module names its targets, what it weakened.
func (c *toolCheck) check(m targetMode, named bool) {
	t, schema := c.t, c.rt.Schema
	raw, err := runtime.EncodeTools(m.dialect, []*runtime.Tool{c.rt}, nil, m.opts)
	if err != nil {
		if m.opts != (runtime.EncodeOptions{}) {
			return // reported by the plain mode
		}
		// The name alone, then the schema under a name every dialect
		// takes, so that each refusal is located where it belongs.
		if _, err := runtime.EncodeTools(m.dialect, []*runtime.Tool{{Name: t.Name}}, nil, m.opts); err != nil {
			*c.errs = append(*c.errs, &spec.Error{Pos: t.KeyPos("name"),
				Msg: fmt.Sprintf("%s cannot take the tool name %q: %s", m.label, t.Name, reason(err))})
			return
		}
		if _, err := runtime.EncodeTools(m.dialect, []*runtime.Tool{{Name: "t", Schema: schema}}, nil, m.opts); err != nil {
			pos, what := locate(t, err)
			*c.errs = append(*c.errs, &spec.Error{Pos: pos, Msg: fmt.Sprintf("%s cannot take %s of tool %q: %s", m.label, what, t.Name, reason(err))})
		}
		return
	}
	if !named {
		return // nothing refused; weakening is reported for named targets only
	}
	if m.opts == (runtime.EncodeOptions{}) && m.dialect != runtime.DialectGemini {
		return // sent as generated: nothing weakened
	}
	sent, strict := sentSchema(m.dialect, raw)
	if sent == nil {
		return
	}
	if m.strict && !strict {
		var rerr error
		if m.dialect == runtime.DialectAnthropic {
			_, rerr = runtime.AnthropicStrictSchema(schema)
		} else {
			_, rerr = runtime.OpenAIStrictSchema(schema)
		}
		if rerr != nil {
			pos, what := locate(t, rerr)
			c.warn(pos, m.label, fmt.Sprintf("tool %q is sent without strict on {on}: %s cannot be strict (%s)", t.Name, what, reason(rerr)))
		}
		return
	}
	if c.in == nil && json.Unmarshal(schema, &c.in) != nil {
		return
	}
	compare(t, t.Params, "", c.in, sent, m.label, c.warn)
}

// sentSchema is the argument schema in the one-tool catalog raw, and
// whether it is sent strict.
func sentSchema(d runtime.Dialect, raw []byte) (any, bool) {
	var list []map[string]json.RawMessage
	if json.Unmarshal(raw, &list) != nil || len(list) == 0 {
		return nil, false
	}
	item := list[0]
	var key string
	switch d {
	case runtime.DialectOpenAIChat:
		var fn map[string]json.RawMessage
		if json.Unmarshal(item["function"], &fn) != nil {
			return nil, false
		}
		item, key = fn, "parameters"
	case runtime.DialectOpenAI:
		key = "parameters"
	case runtime.DialectAnthropic:
		key = "input_schema"
	case runtime.DialectMCP:
		key = "inputSchema"
	case runtime.DialectGemini:
		var decls []map[string]json.RawMessage
		if json.Unmarshal(item["functionDeclarations"], &decls) != nil || len(decls) == 0 {
			return nil, false
		}
		item, key = decls[0], "parameters"
		if _, ok := item[key]; !ok {
			key = "parametersJsonSchema"
		}
	}
	var s any
	if json.Unmarshal(item[key], &s) != nil {
		return nil, false
	}
	return s, bytes.Equal(bytes.TrimSpace(item["strict"]), []byte("true"))
}

// compare walks the generated schema in and the schema the dialect was sent,
// out, side by side with the spec schema site (at path, "" for the tool's
// parameters), and reports each keyword out lacks and each note the rewrite
// added to the description.
func compare(t *spec.Tool, site *spec.Schema, path string, in, out any, label string, warn func(spec.Pos, string, string)) {
	im, _ := in.(map[string]any)
	om, ok := out.(map[string]any)
	if im == nil || !ok || site == nil {
		return
	}
	if ref, ok := im["$ref"].(string); ok {
		compareRef(t, site, path, ref, om, label, warn)
		return
	}
	var dropped []string
	for _, k := range sortedMapKeys(im) {
		if _, kept := om[k]; kept {
			continue
		}
		switch {
		case k == "description":
		case k == "$defs" || k == "definitions": // inlined where used: reported at each $ref
		case k == "const" && om["enum"] != nil: // sent as a one-value enum
		case k == "additionalProperties" && im[k] == false: // closed, as without it (the runtime says why)
		default:
			dropped = append(dropped, k)
		}
	}
	inDesc, _ := im["description"].(string)
	outDesc, _ := om["description"].(string)
	note := strings.TrimSpace(strings.TrimPrefix(outDesc, inDesc))
	if len(dropped) > 0 || note != "" && outDesc != inDesc {
		what := "the tool's parameters"
		if path != "" {
			what = describePath(path)
		}
		pos := site.Pos
		if path != "" {
			pos = propPos(t, path)
		}
		var msg string
		if len(dropped) > 0 {
			pos = keywordPos(site, dropped[0], pos)
			msg = fmt.Sprintf("%s of tool %q: %s not sent to {on}", what, t.Name, quoteList(dropped))
		} else {
			msg = fmt.Sprintf("%s of tool %q: {on} ignores part of the schema", what, t.Name)
		}
		if note != "" {
			msg += fmt.Sprintf("; the description says %q", note)
		}
		warn(pos, label, msg)
	}
	r := site.Resolved()
	if props, ok := im["properties"].(map[string]any); ok {
		oprops, _ := om["properties"].(map[string]any)
		for _, name := range sortedMapKeys(props) {
			if p := r.Property(name); p != nil {
				compare(t, p.Schema, join(path, name), props[name], oprops[name], label, warn)
			}
		}
	}
	if items, ok := im["items"]; ok && r.Items != nil {
		compare(t, r.Items, path+"[]", items, om["items"], label, warn)
	}
	if u := r.Union; u != nil {
		compareAlternatives(t, u, path, im, om, label, warn)
	}
	if path == "" { // the recursive types, where the dialect keeps them as $defs
		idefs, _ := im["$defs"].(map[string]any)
		odefs, _ := om["$defs"].(map[string]any)
		for _, name := range sortedMapKeys(idefs) {
			if nt := namedType(t.Params, name); nt != nil && odefs[name] != nil {
				compare(t, nt.Schema, "$defs."+name, idefs[name], odefs[name], label, warn)
			}
		}
	}
}

// compareRef reports a reference to a recursive type (the only kind
// generated literals write as $ref) that dialect label does not keep: the
// type is written out inlineRecursion levels deep, the deeper ones left
// out. A $ref kept, alone or as the one alternative of an anyOf (where
// the dialect takes no keyword beside it), is not reported; what the
// referenced type loses is reported at the type.
func compareRef(t *spec.Tool, site *spec.Schema, path, ref string, out map[string]any, label string, warn func(spec.Pos, string, string)) {
	if out["$ref"] == ref {
		return
	}
	if alts, _ := out["anyOf"].([]any); len(alts) > 0 {
		if m, _ := alts[0].(map[string]any); m["$ref"] == ref {
			return
		}
	}
	name := ref[strings.LastIndexByte(ref, '/')+1:]
	pos := keywordPos(site, "$ref", propPos(t, path))
	warn(pos, label, fmt.Sprintf("parameter %q of tool %q: {on} takes no $ref, so the recursive type %q is written out %d levels deep; deeper levels are accepted but not shown", path, t.Name, name, runtime.InlineRecursion))
}

// namedType finds the named type called name among those the schema s
// refers to, at any depth.
func namedType(s *spec.Schema, name string) *spec.NamedType {
	seen := map[*spec.Schema]bool{}
	var find func(s *spec.Schema) *spec.NamedType
	find = func(s *spec.Schema) *spec.NamedType {
		if s == nil || seen[s] {
			return nil
		}
		seen[s] = true
		if s.RefType != nil {
			if s.RefType.Name == name {
				return s.RefType
			}
			return find(s.RefType.Schema)
		}
		for _, p := range s.Properties {
			if nt := find(p.Schema); nt != nil {
				return nt
			}
		}
		if nt := find(s.Items); nt != nil {
			return nt
		}
		if nt := find(s.AdditionalPropertiesSchema); nt != nil {
			return nt
		}
		if s.Union != nil {
			for _, a := range s.Union.Alts {
				if nt := find(a); nt != nil {
					return nt
				}
			}
		}
		return nil
	}
	return find(s)
}

// compareAlternatives compares the alternatives of union u, generated in
// in and sent in out: under the same keyword or, where the dialect has no
// oneOf, under anyOf. A {"type":"null"} alternative (the union's
// nullable, which Gemini's parameters send as "nullable": true) is
// skipped on both sides, as u.Alts leaves it out.
func compareAlternatives(t *spec.Tool, u *spec.Union, path string, in, out map[string]any, label string, warn func(spec.Pos, string, string)) {
	key := string(u.Kind)
	ialts, _ := in[key].([]any)
	oalts, ok := out[key].([]any)
	if !ok {
		oalts, _ = out["anyOf"].([]any)
	}
	nonNull := func(list []any) []any {
		var kept []any
		for _, a := range list {
			if m, ok := a.(map[string]any); !ok || m["type"] != "null" || len(m) > 1 {
				kept = append(kept, a)
			}
		}
		return kept
	}
	ialts, oalts = nonNull(ialts), nonNull(oalts)
	if len(ialts) != len(u.Alts) || len(oalts) != len(ialts) {
		return // not side by side: the difference is reported at the union
	}
	for i, alt := range u.Alts {
		compare(t, alt, fmt.Sprintf("%s.%s[%d]", path, key, i), ialts[i], oalts[i], label, warn)
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// keywordPos is where keyword k of the schema at site was written: beside
// a $ref, else in the referenced type; def when neither writes it.
func keywordPos(site *spec.Schema, k string, def spec.Pos) spec.Pos {
	for s := site; s != nil; {
		if p, ok := s.Keys[k]; ok {
			return p
		}
		if s.RefType == nil {
			break
		}
		s = s.RefType.Schema
	}
	return def
}

// locate maps the JSON path an encoder's error names ("at $.a[].b: …") to
// the spec: the key of the parameter it names (the tool's name for "$" or
// no path), and says what it is ("parameter \"a.b\"", "the schema").
func locate(t *spec.Tool, err error) (spec.Pos, string) {
	msg := err.Error()
	i := strings.Index(msg, "at $")
	if i < 0 {
		return t.KeyPos("name"), "the schema"
	}
	path := msg[i+len("at $"):]
	if j := strings.Index(path, ": "); j >= 0 {
		path = path[:j]
	}
	path = strings.TrimPrefix(path, ".")
	if path == "" {
		return t.KeyPos("name"), "the schema"
	}
	return propPos(t, path), describePath(path)
}

// describePath names the subschema at path for a message: `parameter
// "a.b"`, or for a path into a recursive type's $defs entry `type "Node"`
// or `"children[]" of type "Node"`.
func describePath(path string) string {
	name, ok := strings.CutPrefix(path, "$defs.")
	if !ok {
		return fmt.Sprintf("parameter %q", path)
	}
	if typ, rest, ok := strings.Cut(name, "."); ok {
		return fmt.Sprintf("%q of type %q", rest, typ)
	}
	return fmt.Sprintf("type %q", name)
}

// propPos is the position of the property key at path ("a.b", "a[].b")
// under t's parameters, or of the deepest one found.
func propPos(t *spec.Tool, path string) spec.Pos {
	pos := t.KeyPos("name")
	s := t.Params
	parts := strings.Split(path, ".")
	if len(parts) > 1 && parts[0] == "$defs" { // "$defs.Name.prop": in the named type
		nt := namedType(t.Params, parts[1])
		if nt == nil {
			return pos
		}
		pos, s, parts = nt.Pos, nt.Schema, parts[2:]
	}
	for _, part := range parts {
		name, items := strings.CutSuffix(part, "[]")
		for items {
			name, items = strings.CutSuffix(name, "[]")
		}
		if s == nil {
			break
		}
		if alt, ok := alternative(s, name); ok { // "oneOf[1]": into the union
			s = alt
			pos = alt.Pos
			continue
		}
		p := s.Resolved().Property(name)
		if p == nil {
			break
		}
		pos = p.Pos
		s = p.Schema
		for n := strings.Count(part, "[]"); n > 0 && s != nil; n-- {
			s = s.Resolved().Items
		}
	}
	return pos
}

// alternative is alternative i of the union of s named by part ("oneOf[i]"
// or "anyOf[i]", as the runtime's paths and compare name them).
func alternative(s *spec.Schema, part string) (*spec.Schema, bool) {
	u := s.Resolved().Union
	if u == nil {
		return nil, false
	}
	rest, ok := strings.CutPrefix(part, string(u.Kind)+"[")
	if !ok {
		if rest, ok = strings.CutPrefix(part, "anyOf["); !ok {
			return nil, false
		}
	}
	i, err := strconv.Atoi(strings.TrimSuffix(rest, "]"))
	if err != nil || i < 0 || i >= len(u.Alts) {
		return nil, false
	}
	return u.Alts[i], true
}

// reason is err's message without the runtime's prefixes.
func reason(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": at $"); i >= 0 {
		if j := strings.Index(msg[i+2:], ": "); j >= 0 {
			return msg[i+2+j+2:]
		}
	}
	if errors.Is(err, runtime.ErrUnsupportedSchema) {
		if _, after, ok := strings.Cut(msg, runtime.ErrUnsupportedSchema.Error()+": "); ok {
			return after
		}
	}
	if i := strings.LastIndex(msg, "\": "); i >= 0 {
		return msg[i+3:]
	}
	return msg
}

func quoteList(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = fmt.Sprintf("%q", k)
	}
	return strings.Join(q, ", ")
}

func sortedMapKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// checkLimits reports at f's tools the per-request and description limits
// (runtime.CheckLimits) that mode m's dialect would see if every tool of
// the module went into one request: a warning, since a host sends the
// tools a call needs, and may send fewer. The limits are the plain mode's,
// and for Anthropic the strict mode's budget.
//
// anthropicStrict, when it is not nil, is what each tool sends on
// Anthropic strict (so that the tools are not encoded again for it).
func checkLimits(f *spec.File, tools []*runtime.Tool, m targetMode, anthropicStrict []runtime.SentSchema, warn func(spec.Pos, string, string)) error {
	if m.opts.GeminiJSONSchema || m.strict && m.dialect != runtime.DialectAnthropic {
		return nil
	}
	var issues []runtime.LimitIssue
	var err error
	if m.strict && anthropicStrict != nil {
		issues, err = runtime.CheckLimitsSent(m.dialect, tools, m.opts, anthropicStrict)
	} else {
		issues, err = runtime.CheckLimits(m.dialect, tools, m.opts)
	}
	if err != nil {
		return err
	}
	pastCount := 0 // tools past Anthropic's strict tool count, after the first
	for _, is := range issues {
		if is.Limit == "strict_tools" {
			pastCount++
		}
	}
	for _, is := range issues {
		t := f.Tools[is.Tool]
		switch is.Limit {
		case "description":
			warn(t.KeyPos("description"), m.label, fmt.Sprintf("the description of tool %q may be refused by {on}: %s", t.Name, is.Msg))
		case "tools":
			warn(t.KeyPos("name"), m.label, fmt.Sprintf("{on} would refuse a request with all of the module's tools: %s (tool %q is the first past the limit)", is.Msg, t.Name))
		case "strict_tools":
			if pastCount < 0 {
				continue // one warning, at the first tool past the count
			}
			msg := fmt.Sprintf("tool %q is sent without strict on {on} when all of the module's tools go in one request: %s", t.Name, is.Msg)
			switch {
			case pastCount == 2:
				msg += "; so is the one tool after it that could be strict"
			case pastCount > 2:
				msg += fmt.Sprintf("; so are the %d tools after it that could be strict", pastCount-1)
			}
			warn(t.KeyPos("name"), m.label, msg)
			pastCount = -1
		default: // the other strict budgets
			warn(t.KeyPos("name"), m.label, fmt.Sprintf("tool %q is sent without strict on {on} when all of the module's tools go in one request: %s", t.Name, is.Msg))
		}
	}
	return nil
}
