package runtime

import (
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Unions and references in the catalog encoders.
//
// A tool's schema may carry unions (anyOf, oneOf, an OpenAPI discriminator,
// type arrays) and local references ($ref to "#", "#/$defs/Name",
// "#/definitions/Name" or any other JSON pointer into the schema), some of
// them recursive (a tree). What each dialect takes, as its provider
// documents it:
//
//   - every dialect but MCP refuses a root that is not an object, or one
//     with anyOf, oneOf or allOf beside "type":"object" (OpenAI: "schema
//     must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/
//     'not' at the top level", in every mode; Anthropic: "input_schema does
//     not support oneOf, allOf, or anyOf at the top level"; Gemini: the
//     parameters "must describe an object"). A root union of objects is
//     flattened for them (flattenRoot): one object with every alternative's
//     properties, required only what every alternative requires, and the
//     alternatives listed in the description. MCP takes it as it is, with
//     "type":"object" added when the root has none.
//   - OpenAI strict (structured outputs, "Supported schemas"): anyOf, $defs
//     and recursion ("#" or "#/$defs/…") are supported; oneOf and
//     discriminator are not ("'oneOf' is not permitted"). oneOf becomes
//     anyOf, and a $ref is never written beside other keywords.
//   - Anthropic strict (structured outputs, "JSON Schema limitations"):
//     anyOf, allOf, const and local $ref/$defs are supported, recursive
//     schemas are not; oneOf becomes anyOf, and a recursive schema is sent
//     without strict (non-strict tool use takes it whole).
//   - Gemini parameters (Schema, the OpenAPI 3.0 subset): anyOf and
//     nullable only, no oneOf, no type arrays, no $ref. oneOf and type
//     arrays become anyOf, a null alternative becomes "nullable": true,
//     and references are inlined (see inlineRecursion).
//   - Gemini parametersJsonSchema: $ref, $defs, anyOf and oneOf ("interpreted
//     the same as anyOf") are taken; the schema goes with its references,
//     and oneOf gets its "exactly one" written into the description.
//   - non-strict OpenAI and Anthropic, and MCP: the schema goes as generated
//     (after the root flattening above).
//
// Wherever oneOf became anyOf, the description says that exactly one
// alternative applies; wherever a discriminator was dropped, each
// alternative it names gets its tag as a one-value property (const, or a
// one-value enum where const is not taken) and the description names the
// property. The tool's decoder still checks the union as written.

// InlineRecursion is how many times one referenced schema may appear on a
// path from the root when references are inlined (Gemini parameters, which
// have no $ref): the schema, its children and their children. Each level
// multiplies the schema's size by its fan-out, while the arguments a model
// writes in one call rarely nest deeper; a deeper level is cut where an
// optional property or an anyOf alternative can be left out, with a note,
// and the decoder still accepts any depth.
const InlineRecursion = 3

const inlineRecursion = InlineRecursion

// inlineBudget bounds the subschemas an inlining may write: this many times
// those of the schema as written, and at least minInlineBudget. A schema
// whose references fan out further (a "billion laughs" of $defs) is sent
// with its references instead (Gemini: as parametersJsonSchema), so that
// its cost stays proportional to its size.
const (
	inlineBudgetFactor = 8
	minInlineBudget    = 2000
)

// refInfo is what analyzeRefs learned about a schema's references.
type refInfo struct {
	refs      bool // the schema has a $ref
	recursive bool // a reference leads back to a schema that contains it
	nodes     int  // subschemas in the document
	// targets is the schema each $ref names, at the end of a chain of
	// references (A → B → {…}: both A and B name {…}).
	targets map[string]map[string]any
}

// subschemaKeys are the keywords whose value is a schema, a list of
// schemas, or a map of names to schemas.
var (
	schemaValued = []string{"items", "additionalProperties", "not", "if", "then", "else", "contains",
		"propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems"}
	schemaListed  = []string{"anyOf", "oneOf", "allOf", "prefixItems"}
	schemaMapped  = []string{"properties", "patternProperties", "dependentSchemas"}
	schemaDefined = []string{"$defs", "definitions"}
)

// eachSubschema calls fn for every direct subschema of s (defs too when
// defs is set), with the path segment that leads to it.
func eachSubschema(s map[string]any, p *schemaPath, defs bool, fn func(sub map[string]any, p *schemaPath) error) error {
	for _, k := range schemaValued {
		if v, ok := s[k]; ok {
			if k == "items" {
				if list, ok := v.([]any); ok { // draft-07 tuple form
					for i, e := range list {
						if m, ok := e.(map[string]any); ok {
							if err := fn(m, &schemaPath{up: p, kind: '|', name: k, i: i}); err != nil {
								return err
							}
						}
					}
					continue
				}
			}
			if m, ok := v.(map[string]any); ok {
				kind, name := byte('/'), k
				if k == "items" {
					kind, name = '[', ""
				}
				if err := fn(m, &schemaPath{up: p, kind: kind, name: name}); err != nil {
					return err
				}
			}
		}
	}
	for _, k := range schemaListed {
		list, _ := s[k].([]any)
		for i, e := range list {
			if m, ok := e.(map[string]any); ok {
				if err := fn(m, &schemaPath{up: p, kind: '|', name: k, i: i}); err != nil {
					return err
				}
			}
		}
	}
	keys := schemaMapped
	if defs {
		keys = slices.Concat(schemaMapped, schemaDefined)
	}
	for _, k := range keys {
		m, _ := s[k].(map[string]any)
		for _, name := range sortedKeys(m) {
			sub, ok := m[name].(map[string]any)
			if !ok {
				continue
			}
			sp := &schemaPath{up: p, kind: '.', name: name}
			if k != "properties" {
				sp = &schemaPath{up: &schemaPath{up: p, kind: '/', name: k}, kind: '/', name: name}
			}
			if err := fn(sub, sp); err != nil {
				return err
			}
		}
	}
	return nil
}

// resolvePointer returns the value the local reference ref ("#" or
// "#/a/b", a JSON pointer) names in root.
func resolvePointer(root map[string]any, ref string) (any, bool) {
	if ref == "#" {
		return root, true
	}
	rest, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil, false
	}
	var cur any = root
	for _, seg := range strings.Split(rest, "/") {
		seg = pointerToken(seg)
		switch c := cur.(type) {
		case map[string]any:
			if cur, ok = c[seg]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// pointerToken decodes one reference token of a "#/…" fragment: a $ref is
// a URI reference, so its fragment is percent-decoded first ("a%20b" is the
// key "a b"), then the JSON pointer escapes ~1 ("/") and ~0 ("~") (RFC 6901
// §§4 and 6).
func pointerToken(seg string) string {
	if strings.Contains(seg, "%") {
		if u, err := url.PathUnescape(seg); err == nil {
			seg = u
		}
	}
	return strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
}

// refAnalysis is one run of analyzeRefs.
type refAnalysis struct {
	root     map[string]any
	info     refInfo
	resolved map[string]map[string]any // a $ref already checked, and its target
	state    map[string]uint8          // recursion search: 1 on the path, 2 done
	depth    int
}

// analyzeRefs checks every $ref in schema root: it must be a local JSON
// pointer naming a schema, and a chain of references must reach a schema
// that is more than a reference (A → B → A is refused). It also reports
// whether a reference is recursive, and counts the subschemas. Each
// subschema is visited once (a referenced one once more, to search for
// recursion), so the cost is proportional to the schema's size; nesting
// deeper than maxSchemaDepth is not followed.
func analyzeRefs(root map[string]any) (refInfo, error) {
	a := &refAnalysis{root: root, resolved: map[string]map[string]any{}, state: map[string]uint8{}}
	if err := a.check(root, nil); err != nil {
		return refInfo{}, err
	}
	if a.info.refs {
		a.state["#"] = 1
		a.search(root)
	}
	a.info.targets = a.resolved
	return a.info, nil
}

func (a *refAnalysis) check(s map[string]any, p *schemaPath) error {
	if a.depth == maxSchemaDepth {
		return nil
	}
	a.depth++
	defer func() { a.depth-- }()
	a.info.nodes++
	if v, ok := s["$ref"]; ok {
		ref, ok := v.(string)
		if !ok {
			return malformed(p, `"$ref" must be a string`)
		}
		a.info.refs = true
		if _, err := a.target(ref, p); err != nil {
			return err
		}
	}
	return eachSubschema(s, p, true, a.check)
}

// target resolves ref (found at p), following a chain of references.
func (a *refAnalysis) target(ref string, p *schemaPath) (map[string]any, error) {
	if t, ok := a.resolved[ref]; ok {
		return t, nil
	}
	var chain []string
	inChain := map[string]bool{}
	cur := ref
	for {
		if !strings.HasPrefix(cur, "#") {
			return nil, malformed(p, "$ref %q is not local: only references into the schema itself (#/$defs/Name) are followed", clip(cur))
		}
		v, ok := resolvePointer(a.root, cur)
		if !ok {
			return nil, malformed(p, "$ref %q points to nothing", clip(cur))
		}
		t, ok := v.(map[string]any)
		if !ok {
			return nil, malformed(p, "$ref %q does not point to a schema object", clip(cur))
		}
		chain = append(chain, cur)
		inChain[cur] = true
		next, isRef := t["$ref"].(string)
		if _, done := a.resolved[next]; !isRef || done {
			for _, c := range chain {
				a.resolved[c] = t
			}
			return a.resolved[ref], nil
		}
		if inChain[next] {
			return nil, malformed(p, "$ref cycle: %s → %s", strings.Join(clipAll(chain), " → "), clip(next))
		}
		cur = next
	}
}

// search looks for a reference that leads back to a schema containing it,
// from s (the target of the references on the search path).
func (a *refAnalysis) search(s map[string]any) {
	if a.info.recursive || a.depth == maxSchemaDepth {
		return
	}
	a.depth++
	defer func() { a.depth-- }()
	if ref, ok := s["$ref"].(string); ok {
		switch a.state[ref] {
		case 1:
			a.info.recursive = true
			return
		case 0:
			a.state[ref] = 1
			if t := a.resolved[ref]; t != nil {
				a.search(t)
			}
			a.state[ref] = 2
		}
	}
	_ = eachSubschema(s, nil, false, func(sub map[string]any, _ *schemaPath) error {
		a.search(sub)
		return nil
	})
}

func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}

func clipAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = clip(s)
	}
	return out
}

// isObjectLike reports whether s describes objects only: "type":"object",
// or no type and nothing but object keywords (an alternative such as
// {"required":["a"]}).
func isObjectLike(s map[string]any) bool {
	if t, ok := s["type"]; ok {
		return t == "object"
	}
	for k := range s {
		switch k {
		case "properties", "required", "additionalProperties", "minProperties", "maxProperties",
			"description", "title", "$comment", "discriminator":
		default:
			return false
		}
	}
	return true
}

// discriminator is an OpenAPI discriminator: the property whose value
// names the alternative, and the names of the alternatives' references.
type discriminator struct {
	prop    string
	mapping map[string]string // $ref → tag
}

func parseDiscriminator(s map[string]any, p *schemaPath) (*discriminator, error) {
	v, ok := s["discriminator"]
	if !ok {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	prop, _ := m["propertyName"].(string)
	if !ok || prop == "" {
		return nil, malformed(p, `"discriminator" must be an object with a "propertyName"`)
	}
	d := &discriminator{prop: prop, mapping: map[string]string{}}
	mapping, _ := m["mapping"].(map[string]any)
	for _, tag := range sortedKeys(mapping) {
		ref, ok := mapping[tag].(string)
		if !ok {
			return nil, malformed(p, `"discriminator" mapping %q must name a $ref`, clip(tag))
		}
		if _, seen := d.mapping[ref]; !seen {
			d.mapping[ref] = tag
		}
	}
	return d, nil
}

// tag is the discriminator value that selects alternative alt: the mapping's
// name for its $ref, else (OpenAPI's implicit mapping) the last segment of
// the $ref. "" when alt is not a reference.
func (d *discriminator) tag(alt map[string]any) string {
	ref, ok := alt["$ref"].(string)
	if !ok {
		return ""
	}
	if t, ok := d.mapping[ref]; ok {
		return t
	}
	seg := ref[strings.LastIndexByte(ref, '/')+1:]
	return strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
}

// mergeRef is the reference node alt with its $ref replaced by target,
// the schema it names: target's keywords, then alt's others over them
// (a description beside the $ref wins). Neither is changed.
func mergeRef(alt, target map[string]any) map[string]any {
	out := make(map[string]any, len(alt)+len(target))
	for k, v := range target {
		if k != "$defs" && k != "definitions" {
			out[k] = v
		}
	}
	for k, v := range alt {
		if k != "$ref" {
			out[k] = v
		}
	}
	return out
}

// withTag returns object schema s with property prop fixed to tag (a
// const, its type string unless it has one) and required. s itself is
// left alone.
func withTag(s map[string]any, prop, tag string) map[string]any {
	out := make(map[string]any, len(s)+2)
	for k, v := range s {
		out[k] = v
	}
	props, _ := out["properties"].(map[string]any)
	np := make(map[string]any, len(props)+1)
	for k, v := range props {
		np[k] = v
	}
	ps := map[string]any{}
	if old, ok := np[prop].(map[string]any); ok {
		for k, v := range old {
			if k != "enum" && k != "const" {
				ps[k] = v
			}
		}
	}
	ps["const"] = tag
	if _, ok := ps["type"]; !ok {
		ps["type"] = "string"
	}
	np[prop] = ps
	out["properties"] = np
	req, _ := out["required"].([]any)
	if !slices.Contains(req, any(prop)) {
		out["required"] = append(slices.Clip(req), prop)
	}
	if _, ok := out["type"]; !ok {
		out["type"] = "object"
	}
	return out
}

// flattenRoot returns the root of schema s as the dialects that take only
// an object at the top level need it, and whether it changed:
//
//   - a root $ref is replaced by the schema it names (keeping the root's
//     $defs and definitions, so references still resolve);
//   - a root anyOf or oneOf whose alternatives are all objects is merged
//     into one object: the root's own properties and every alternative's
//     (a property that alternatives describe differently becomes the anyOf
//     of its descriptions, or one enum of their tags), required what the
//     root requires and what every alternative requires, closed when the
//     root or every alternative is closed; the description lists the
//     alternatives and says how many of them must match. A discriminator's
//     tags are fixed in each alternative first.
//
// The decoder still checks the union as written; the model reads a looser
// schema and the alternatives in words. A root that is neither an object
// nor a union of objects is an error.
func flattenRoot(s map[string]any, info refInfo) (map[string]any, bool, error) {
	s, changed, err := resolveRootRef(s, info)
	if err != nil {
		return nil, false, err
	}
	out, flattened, err := flattenUnion(s)
	return out, changed || flattened, err
}

// resolveRootRef replaces a root $ref by the schema it names, keeping the
// root's $defs and definitions (and description).
func resolveRootRef(s map[string]any, info refInfo) (map[string]any, bool, error) {
	changed := false
	if ref, ok := s["$ref"].(string); ok && info.refs {
		v, _ := resolvePointer(s, ref)
		t, _ := v.(map[string]any)
		if t == nil {
			return nil, false, malformed(nil, "$ref %q points to nothing", clip(ref))
		}
		out := make(map[string]any, len(t)+2)
		for k, v := range t {
			out[k] = v
		}
		for _, k := range schemaDefined {
			if v, ok := s[k]; ok {
				out[k] = v
			}
		}
		if d, ok := s["description"]; ok {
			out["description"] = d
		}
		s, changed = out, true
	}
	return s, changed, nil
}

// flattenUnion merges a root anyOf or oneOf of objects (see flattenRoot).
func flattenUnion(s map[string]any) (map[string]any, bool, error) {
	key, alts, tags, d, err := rootAlternatives(s)
	if err != nil || key == "" {
		return s, false, err
	}
	return mergeAlternatives(s, key, alts, tags, d), true, nil
}

// rootAlternatives returns the keyword of root union s ("" when s is no
// union) and its alternatives, each written out (a $ref replaced by its
// schema, a discriminator's tag fixed) and checked to be an object.
func rootAlternatives(s map[string]any) (key string, alts []map[string]any, tags []string, d *discriminator, err error) {
	for _, k := range [...]string{"oneOf", "anyOf"} {
		if _, ok := s[k]; ok {
			if key != "" {
				return "", nil, nil, nil, malformed(nil, "the top level has both anyOf and oneOf")
			}
			key = k
		}
	}
	if key == "" {
		return "", nil, nil, nil, nil
	}
	if t, ok := s["type"]; ok && t != "object" {
		return "", nil, nil, nil, malformed(nil, `the top level must be {"type":"object"} or a union of objects`)
	}
	list, ok := s[key].([]any)
	if !ok || len(list) == 0 {
		return "", nil, nil, nil, malformed(nil, "%q must be a non-empty array", key)
	}
	if d, err = parseDiscriminator(s, nil); err != nil {
		return "", nil, nil, nil, err
	}
	alts = make([]map[string]any, len(list))
	tags = make([]string, len(list))
	for i, e := range list {
		p := &schemaPath{kind: '|', name: key, i: i}
		alt, ok := e.(map[string]any)
		if !ok {
			return "", nil, nil, nil, malformed(p, "a schema must be an object")
		}
		var target map[string]any
		if ref, ok := alt["$ref"].(string); ok {
			v, _ := resolvePointer(s, ref)
			if target, _ = v.(map[string]any); target == nil {
				return "", nil, nil, nil, malformed(p, "$ref %q points to nothing", clip(ref))
			}
		}
		if d != nil {
			tags[i] = d.tag(alt)
		}
		if target != nil {
			alt = mergeRef(alt, target)
		}
		if tags[i] != "" {
			alt = withTag(alt, d.prop, tags[i])
		}
		if !isObjectLike(alt) {
			return "", nil, nil, nil, malformed(p, "the top level is a union with an alternative that is not an object; every dialect takes only an object there")
		}
		alts[i] = alt
	}
	return key, alts, tags, d, nil
}

// mergeAlternatives is flattenRoot's one object for root union s.
func mergeAlternatives(s map[string]any, key string, alts []map[string]any, tags []string, d *discriminator) map[string]any {

	out := make(map[string]any, len(s)+3)
	for k, v := range s {
		switch k {
		case "oneOf", "anyOf", "discriminator":
		default:
			out[k] = v
		}
	}
	out["type"] = "object"
	// Properties: the root's, then each alternative's in order.
	var names []string
	variants := map[string][]any{}
	rootProps, _ := s["properties"].(map[string]any)
	for _, name := range sortedKeys(rootProps) {
		names = append(names, name)
		variants[name] = []any{rootProps[name]}
	}
	for _, alt := range alts {
		props, _ := alt["properties"].(map[string]any)
		for _, name := range sortedKeys(props) {
			if _, seen := variants[name]; !seen {
				names = append(names, name)
			}
			// Distinct schemas, compared against at most maxVariants of
			// them so that a huge union costs in proportion to its size.
			vs := variants[name]
			if !slices.ContainsFunc(vs[:min(len(vs), maxVariants)], func(v any) bool { return reflect.DeepEqual(v, props[name]) }) {
				variants[name] = append(variants[name], props[name])
			}
		}
	}
	props := make(map[string]any, len(names))
	for _, name := range names {
		props[name] = combineVariants(variants[name])
	}
	out["properties"] = props
	// Required: the root's, and what every alternative requires.
	var required []any
	rootReq, _ := s["required"].([]any)
	required = append(required, rootReq...)
	first, _ := alts[0]["required"].([]any)
	for _, r := range first {
		all := true
		for _, alt := range alts[1:] {
			req, _ := alt["required"].([]any)
			all = all && slices.Contains(req, r)
		}
		if all && !slices.Contains(required, r) {
			required = append(required, r)
		}
	}
	if len(required) > 0 {
		out["required"] = required
	} else {
		delete(out, "required")
	}
	if _, ok := s["additionalProperties"]; !ok {
		closed := true
		for _, alt := range alts {
			closed = closed && alt["additionalProperties"] == false
		}
		if closed {
			out["additionalProperties"] = false
		}
	}
	// The description: the root's, then the alternatives.
	forms := make([]string, len(alts))
	for i, alt := range alts {
		forms[i] = describeForm(alt, d, tags[i], required)
	}
	how := "at least one"
	if key == "oneOf" {
		how = "exactly one"
	}
	note := fmt.Sprintf("Takes %s of these forms: %s.", how, strings.Join(forms, "; "))
	if desc, _ := s["description"].(string); desc != "" {
		note = desc + " " + note
	}
	out["description"] = note
	return out
}

// maxVariants is how many distinct schemas of one property flattenRoot
// compares a new one against.
const maxVariants = 8

// combineVariants is one property's schema from the different schemas
// alternatives give it: the one, an enum of their tags when each is a
// string constant, else their anyOf.
func combineVariants(list []any) any {
	if len(list) == 1 {
		return list[0]
	}
	var tags []any
	var desc any
	for _, v := range list {
		m, _ := v.(map[string]any)
		c, ok := m["const"].(string)
		if !ok {
			return map[string]any{"anyOf": list}
		}
		for k, e := range m {
			switch {
			case k == "const":
			case k == "type" && e == "string":
			case k == "description":
				if desc == nil {
					desc = e
				}
			default:
				return map[string]any{"anyOf": list}
			}
		}
		if !slices.Contains(tags, any(c)) {
			tags = append(tags, c)
		}
	}
	out := map[string]any{"type": "string", "enum": tags}
	if desc != nil {
		out["description"] = desc
	}
	return out
}

// describeForm names alternative alt of a flattened root for the
// description: by its tag, title or description, and the properties it
// requires beyond those the merged object requires.
func describeForm(alt map[string]any, d *discriminator, tag string, required []any) string {
	var parts []string
	switch {
	case tag != "":
		parts = append(parts, fmt.Sprintf("%s %s", d.prop, literal(tag)))
	case alt["title"] != nil:
		parts = append(parts, fmt.Sprint(alt["title"]))
	case alt["description"] != nil:
		parts = append(parts, strings.TrimSuffix(fmt.Sprint(alt["description"]), "."))
	}
	req, _ := alt["required"].([]any)
	var extra []string
	for _, r := range req {
		if !slices.Contains(required, r) && (d == nil || r != d.prop) {
			extra = append(extra, fmt.Sprint(r))
		}
	}
	switch {
	case len(extra) > 0 && len(parts) > 0:
		parts = append(parts, "(requires "+strings.Join(extra, ", ")+")")
	case len(extra) > 0:
		parts = append(parts, "with "+strings.Join(extra, ", "))
	case len(parts) == 0:
		parts = append(parts, "with no other property required")
	}
	return strings.Join(parts, " ")
}

// splitTypes rewrites a schema whose type array names several non-null
// types as the anyOf of one schema per type, each with the keywords that
// apply to its type; a "null" in the array becomes a {"type":"null"}
// alternative. The other keywords (description, default, …) stay outside.
// For dialects without type arrays (Gemini parameters).
func splitTypes(in map[string]any, types []string) map[string]any {
	out := map[string]any{}
	alts := make([]any, 0, len(types))
	byType := map[string]map[string]any{}
	for _, t := range types {
		m := map[string]any{"type": t}
		byType[t] = m
		alts = append(alts, m)
	}
	for k, v := range in {
		var for_ []string
		switch k {
		case "type":
			continue
		case "minLength", "maxLength", "pattern":
			for_ = []string{"string"}
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
			for_ = []string{"number", "integer"}
		case "items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains":
			for_ = []string{"array"}
		case "properties", "required", "additionalProperties", "minProperties", "maxProperties", "patternProperties", "propertyNames":
			for_ = []string{"object"}
		case "format":
			for_ = []string{"string", "number", "integer"}
		case "enum":
			vals, _ := v.([]any)
			for _, t := range types {
				var keep []any
				for _, e := range vals {
					if schemaKindOf(e) == t || t == "number" && schemaKindOf(e) == "integer" {
						keep = append(keep, e)
					}
				}
				if len(keep) > 0 {
					byType[t]["enum"] = keep
				}
			}
			continue
		default:
			out[k] = v
			continue
		}
		for _, t := range for_ {
			if m := byType[t]; m != nil {
				m[k] = v
			}
		}
	}
	out["anyOf"] = alts
	return out
}

// schemaKindOf is the JSON Schema type name of decoded JSON value v (numbers
// written without a fraction or exponent are integers).
func schemaKindOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	default:
		if s := fmt.Sprint(x); !strings.ContainsAny(s, ".eE") {
			return "integer"
		}
		return "number"
	}
}

// isNullSchema reports whether s is {"type":"null"} (with annotations at
// most).
func isNullSchema(s map[string]any) bool {
	if s["type"] != "null" {
		return false
	}
	for k := range s {
		switch k {
		case "type", "description", "title":
		default:
			return false
		}
	}
	return true
}

// oneOfRule is what a dialect's rewrite does with oneOf.
type oneOfRule uint8

const (
	oneOfAsAnyOf  oneOfRule = iota // becomes anyOf, "exactly one" in the description
	oneOfKeepNote                  // kept, "exactly one" also in the description (the dialect reads it as anyOf)
)

// refMode is what a dialect's rewrite does with a $ref.
type refMode uint8

const (
	keepRefs   refMode = iota // kept, the schemas they name rewritten once and sent in $defs
	inlineRefs                // replaced by the schema they name, inlineRecursion levels deep
)

// maxCost caps what a schema is counted to spend of Anthropic strict's
// budget: far past the limits, and safe from overflow however its
// references multiply.
const maxCost = 1 << 20

// cutError is returned by a subschema inlining a reference too deep; the
// nearest optional property or anyOf alternative above it is left out.
type cutError struct{ ref string }

func (e *cutError) Error() string { return "cut at " + e.ref }

func isCut(err error) bool {
	_, ok := err.(*cutError)
	return ok
}

// ref rewrites the reference node in (to ref) at p.
func (r *rewrite) ref(in map[string]any, ref string, p *schemaPath, optional bool) (map[string]any, error) {
	if r.refs == inlineRefs {
		// The end of the chain of references: a chain of any length
		// is one step (analyzeRefs resolved it once).
		target := r.info.targets[ref]
		if target == nil {
			v, _ := resolvePointer(r.doc, ref)
			if target, _ = v.(map[string]any); target == nil { // analyzeRefs checked every $ref: a schema a rewrite made up
				return nil, malformed(p, "$ref %q points to nothing", clip(ref))
			}
		}
		if r.active[ref] >= inlineRecursion {
			return nil, &cutError{ref: ref}
		}
		if r.active == nil {
			r.active = map[string]int{}
		}
		r.active[ref]++
		defer func() { r.active[ref]-- }()
		r.depth-- // the reference is no level of its own
		defer func() { r.depth++ }()
		return r.node(mergeRef(in, target), p, optional)
	}

	siblings := false
	for k := range in {
		switch k {
		case "$ref", "$comment", "title":
		case "description":
			siblings = siblings || !r.refSiblings
		default:
			siblings = true
		}
	}
	if siblings || optional && r.nullOptional {
		// {"anyOf":[{"$ref":…}], …}: the same values, with the other
		// keywords (and strict mode's null) where a $ref takes none.
		wrapped := make(map[string]any, len(in))
		for k, v := range in {
			if k != "$ref" {
				wrapped[k] = v
			}
		}
		wrapped["anyOf"] = []any{map[string]any{"$ref": ref}}
		r.depth--
		defer func() { r.depth++ }()
		return r.node(wrapped, p, optional)
	}
	v, _ := resolvePointer(r.doc, ref)
	target, ok := v.(map[string]any)
	if !ok {
		return nil, malformed(p, "$ref %q points to nothing", clip(ref))
	}
	name, kept := keptDef(ref)
	if !kept {
		return nil, unsupported(p, "a $ref to %q (kept are only #, #/$defs/Name and #/definitions/Name)", clip(ref))
	}
	switch {
	case ref == "#" || r.walking[ref]:
		if !r.recursion {
			return nil, unsupported(p, "a recursive $ref")
		}
	case r.defs[ref] != nil:
		// Each use spends what the schema spends (counted once per
		// use, as if inlined), saturating: uses may multiply.
		c := r.defCost[ref]
		r.optional, r.unions = min(r.optional+c.optional, maxCost), min(r.unions+c.unions, maxCost)
	default:
		if r.defs == nil {
			r.defs, r.walking, r.defCost = map[string]map[string]any{}, map[string]bool{}, map[string]strictCost{}
		}
		r.walking[ref] = true
		before := strictCost{r.optional, r.unions}
		dp := &schemaPath{up: &schemaPath{kind: '/', name: name[0]}, kind: '/', name: name[1]}
		out, err := r.node(target, dp, false)
		r.walking[ref] = false
		if err != nil {
			return nil, err
		}
		r.defs[ref] = out
		r.defCost[ref] = strictCost{r.optional - before.optional, r.unions - before.unions}
	}
	out := map[string]any{"$ref": ref}
	if d, ok := in["description"]; ok {
		out["description"] = d
	}
	return out, nil
}

// keptDef splits a reference a rewrite can keep ("#/$defs/Name",
// "#/definitions/Name", "#") into its keyword and name.
func keptDef(ref string) ([2]string, bool) {
	if ref == "#" {
		return [2]string{}, true
	}
	for _, k := range schemaDefined {
		if name, ok := strings.CutPrefix(ref, "#/"+k+"/"); ok && !strings.Contains(name, "/") {
			return [2]string{k, pointerToken(name)}, true
		}
	}
	return [2]string{}, false
}

// writeDefs adds to root, the rewritten root schema, the schemas its kept
// references name, under the keyword and name they were found at.
func (r *rewrite) writeDefs(root map[string]any) {
	for _, ref := range sortedKeys(anyMap(r.defs)) {
		name, _ := keptDef(ref)
		if name[0] == "" {
			continue
		}
		m, _ := root[name[0]].(map[string]any)
		if m == nil {
			m = map[string]any{}
			root[name[0]] = m
		}
		m[name[1]] = r.defs[ref]
	}
}

func anyMap(m map[string]map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// union rewrites the alternatives v of keyword key (anyOf or oneOf) of
// node n: a discriminator's tags fixed in the alternatives it names, null
// alternatives turned into nullable (nullableAnyOf), oneOf as the dialect
// takes it, and alternatives inlined too deep left out.
func (r *rewrite) union(n *schemaNode, key string, v any) error {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		// An empty anyOf/oneOf matches nothing (and JSON Schema requires a
		// non-empty array); left as is, the strict rewrite would make an
		// optional one {"anyOf":[{"type":"null"}]}, which asks for null.
		return malformed(n.path, "%q must be a non-empty array", key)
	}
	d, err := parseDiscriminator(n.in, n.path)
	if err != nil {
		return err
	}
	alts := make([]any, 0, len(list))
	cut := false
	for i, e := range list {
		ep := &schemaPath{up: n.path, kind: '|', name: key, i: i}
		alt, ok := e.(map[string]any)
		if !ok {
			return malformed(ep, "a schema must be an object")
		}
		entered := ""
		if tag := d.tagOf(alt); tag != "" {
			ref := alt["$ref"].(string)
			target := r.info.targets[ref]
			if target == nil {
				tv, _ := resolvePointer(r.doc, ref)
				target, _ = tv.(map[string]any)
			}
			if target == nil {
				return malformed(ep, "$ref %q points to nothing", clip(ref))
			}
			if r.refs == inlineRefs {
				if r.active[ref] >= inlineRecursion {
					cut = true
					continue
				}
				if r.active == nil {
					r.active = map[string]int{}
				}
				r.active[ref]++
				entered = ref
			}
			alt = withTag(mergeRef(alt, target), d.prop, tag)
		}
		if r.nullableAnyOf && isNullSchema(alt) {
			n.nullable = true
			continue
		}
		out, err := r.node(alt, ep, false)
		if entered != "" {
			r.active[entered]--
		}
		if isCut(err) {
			cut = true
			continue
		}
		if err != nil {
			return err
		}
		alts = append(alts, out)
	}
	if cut {
		if len(alts) == 0 {
			return &cutError{}
		}
		n.notes.add("cut", "the alternatives")
	}
	outKey := key
	if key == "oneOf" {
		if r.oneOf == oneOfAsAnyOf {
			outKey = "anyOf"
		}
		n.notes.add("oneOf", outKey)
	}
	if d != nil {
		n.notes.add("discriminator", d.prop)
	}
	n.out[outKey] = alts
	return nil
}

// tagOf is d.tag(alt), or "" for a nil d.
func (d *discriminator) tagOf(alt map[string]any) string {
	if d == nil {
		return ""
	}
	return d.tag(alt)
}

// prepareSchema parses a tool's argument schema, checks its references and
// flattens its root as the encoders do, for the exported rewrites.
func prepareSchema(raw []byte) (map[string]any, refInfo, error) {
	root, err := parseSchema(raw)
	if err != nil {
		return nil, refInfo{}, err
	}
	info, err := analyzeRefs(root)
	if err != nil {
		return nil, refInfo{}, err
	}
	flat, _, err := flattenRoot(root, info)
	if err != nil {
		return nil, refInfo{}, err
	}
	return flat, info, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
