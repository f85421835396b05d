package gen

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/spec"
)

// kind is the shape of a Go type generated for a schema.
type kind int

const (
	kString kind = iota // string
	kInt                // int64
	kFloat              // float64
	kBool               // bool
	kTime               // time.Time (format: date-time)
	kEnum               // a named string type with one constant per value
	kStruct             // a named struct (object with properties)
	kSlice              // []T (array)
	kMap                // map[string]T (object with only additionalProperties)
	kRaw                // json.RawMessage (free-form value)
	kUnion              // a sealed interface: oneOf, anyOf (union.go)
)

// goType is the Go type of the values of one schema: the generator's
// intermediate form between the spec model and the emitted code.
type goType struct {
	kind kind
	// name is the declared Go type name; "" for an unnamed type (string,
	// []T, map[string]T …).
	name string
	// shared marks a named type from `types:`, declared once in its own
	// section; alias marks one declared as an alias (`type T = time.Time`).
	shared bool
	alias  bool
	// schema is the resolved schema: the constraints to check.
	schema *spec.Schema
	// doc is the description from the spec ("" if none) and what says
	// what the type is ("the type of $.status in the arguments of the
	// tasks_list tool"): the doc comment is "<name> is <what>: <doc>".
	doc, what string
	// where locates the schema ("$.limit in the arguments of the x tool").
	where string

	// struct
	fields    []*field
	extra     *goType // element type of the Extra map; nil for a strict object
	extraName string  // name of the Extra field
	extraPtr  bool    // Extra values are pointers (nullable)
	// slice items, map values
	elem    *goType
	elemPtr bool // elements are pointers (nullable items)
	// enum
	enum []enumValue
	// union (kUnion)
	union *unionInfo
	// constVar names the wire.Const of an array, map or struct with a
	// const (constjson.go).
	constVar string

	// check names the function checking this value's own constraints ("" if
	// it has none). Structs have validate methods instead.
	check string
	// decode is set on types reachable from arguments: they get decoders
	// and validators.
	decode bool

	// recursive marks a named type on a reference cycle (see recursive.go).
	recursive bool
	// root marks a tool's argument struct: only its tool's decode
	// function and its Validate read and check it (no other type is ever
	// an alias of it), so when it is tabled they call its table
	// themselves, without decode and validate methods (table.go).
	root bool
	// tabled caches tabled(t): 0 not yet decided, 1 no, 2 yes.
	tabled int8

	// same is the type t is an alias of: a nested struct or enum of the same
	// shape declared before it (see shared.go). t is then declared as
	// `type <name> = <same.name>` (an enum with its own constants), and
	// decodes and validates with same's code.
	same *goType
}

// field is one property of a struct.
type field struct {
	prop     *spec.Property
	name     string // Go field name
	json     string // JSON name
	typ      *goType
	required bool
	nullable bool
	ptr      bool // the field is a pointer: nil is absent (or null)
	def      any
	hasDef   bool
	doc      string
}

type enumValue struct {
	name  string // constant name
	value string
}

// build lowers the spec into the generator's model, declaring every
// package-level name.
func build(f *spec.File) (*generator, error) {
	g := &generator{f: f, names: map[string]string{}, named: map[*spec.NamedType]*goType{},
		checks: map[string]string{}, checkUses: map[string]int{}, checkDone: map[string]bool{},
		shapes: map[string]*goType{}}
	g.declare("Provider", "the Provider constant")
	g.declare(InterfaceName, "the executor interface")
	g.declare("Module", "the Module function")
	if f.Gate != "" {
		g.declare("Gate", "the Gate constant (the module has a gate:)")
		if f.GateMessage != "" {
			g.declare("gateMessage", "the gateMessage constant (the module has a gate_message:)")
		}
	}
	for _, gate := range f.ToolGates() {
		if c := f.GateConst(gate); c != "" {
			g.declare(c, "the "+c+" constant (a tool has gate: "+gate+")")
		}
	}
	for _, nt := range f.Types {
		if t := g.namedType(nt); !g.aliasNamed(nt, t) {
			g.namedOrder = append(g.namedOrder, t)
		}
	}
	for _, t := range f.Tools {
		if executesMethod(t) {
			g.declare("bind", "the bind function of Module (module.go)")
			break
		}
	}
	for _, t := range f.Tools {
		ti := &toolIR{tool: t, goLower: lowerFirst(t.GoName)}
		g.declare("Tool"+t.GoName, "the name constant of tool "+t.Name)
		if t.Batch != nil {
			g.declare(batchConst(f, t), "the name constant of the batch tool "+t.Batch.Name)
		}
		g.declare("Decode"+ArgsTypeName(t), "the decoder of tool "+t.Name)
		g.declare(ti.goLower+"Label", "the label function of tool "+t.Name)
		g.declare(toolStatic(ti), "the runtime.Tool variable of tool "+t.Name)
		g.declare(toolDecode(ti), "the DecodeWith function of tool "+t.Name)
		if bindsMore(t) {
			g.declare(toolFunc(ti), "the constructor of tool "+t.Name)
		}
		if executesMethod(t) {
			g.declare(toolRun(ti), "the run function of tool "+t.Name)
		}
		g.declare(ti.goLower+"Schema", "the schema constant of tool "+t.Name)
		if len(t.Examples) > 0 {
			g.declare(examplesFunc(t), "the examples function of tool "+t.Name)
		}
		if isAgent(t) && t.Prompt != "" {
			g.declare(promptName(ti), "the prompt function of tool "+t.Name)
		}
		params := t.Params
		if params == nil {
			params = &spec.Schema{Type: spec.TypeObject}
		}
		ti.args = g.structType(params, ArgsTypeName(t), t.GoName, loc{"the arguments of the " + t.Name + " tool", "$"})
		ti.args.doc = ArgsTypeName(t) + " holds the arguments of the " + t.Name + " tool."
		ti.args.what = "the arguments of the " + t.Name + " tool"
		ti.args.root = true
		mark(ti.args)
		if t.Result != nil {
			g.declare(ti.goLower+"ResultSchema", "the result schema constant of tool "+t.Name)
			name := ResultTypeName(t)
			if t.Result.RefType != nil {
				// The result is a shared type: <Tool>Result is an alias of it.
				g.declare(name, "the result type of tool "+t.Name)
				ti.result = g.namedType(t.Result.RefType)
				ti.resultAlias = jen.Comment(name + " is the typed result of the " + t.Name + " tool.").Line().
					Type().Id(name).Op("=").Id(ti.result.name)
			} else {
				ti.result = g.typeOf(t.Result, name, name, loc{"the result of the " + t.Name + " tool", "$"})
				if ti.result.name == "" {
					// A result that is not an object or enum still gets its name.
					g.declare(name, "the result type of tool "+t.Name)
					ti.result.name = name
				}
				ti.result.alias = ti.result.kind == kTime
				ti.result.what = "the typed result of the " + t.Name + " tool"
			}
		}
		g.tools = append(g.tools, ti)
	}
	return g, g.err()
}

// mark flags t and every type it contains as needing decode code.
func mark(t *goType) {
	if t == nil || t.decode {
		return
	}
	t.decode = true
	mark(t.same)
	for _, f := range t.fields {
		mark(f.typ)
	}
	mark(t.extra)
	mark(t.elem)
	for _, a := range unionAlts(t) {
		mark(a.typ)
	}
}

// namedType returns the Go type of a `types:` entry, building it once.
func (g *generator) namedType(nt *spec.NamedType) *goType {
	if t, ok := g.named[nt]; ok {
		return t
	}
	if nt.Schema != nil && nt.Schema.RefType != nil {
		// Only a $ref of another named type: that type (an alias).
		t := g.namedType(nt.Schema.RefType)
		g.named[nt] = t
		return t
	}
	slot := g.recursiveSlot(nt) // a recursive type meets itself while it is built
	t := g.typeOf(nt.Schema, nt.GoName, nt.GoName, loc{"the named type " + nt.Name, "$"})
	if slot != nil {
		*slot, t = *t, slot
		t.recursive = true
	}
	if t.name == "" {
		t.name = nt.GoName
		g.declare(t.name, "the named type "+nt.Name)
		if t.kind == kTime {
			t.alias = true
		}
	}
	t.shared = true
	t.doc = nt.Schema.Description
	t.what = "a type shared by the " + g.f.Provider + " tools"
	if nt.Name != t.name {
		t.what = "the type " + nt.Name + " shared by the " + g.f.Provider + " tools"
	}
	g.named[nt] = t
	return t
}

// loc says where a schema is: a JSON path in a context ("$.lines[*]" in
// "the arguments of the shop_create_order tool").
type loc struct{ ctx, path string }

func (l loc) String() string { return l.path + " in " + l.ctx }

// typeOf says what the type of the schema at l is, for doc comments.
func (l loc) typeOf() string {
	if l.path == "$" {
		return l.ctx
	}
	return "the type of " + l.String()
}

func (l loc) child(step string) loc { return loc{l.ctx, l.path + step} }

// typeOf builds the Go type of schema s. name is the Go name it gets if it
// needs one (objects, enums; for named types every kind); owner is the
// prefix for the names of its own nested types. where locates it for docs
// and error messages.
func (g *generator) typeOf(s *spec.Schema, name, owner string, where loc) *goType {
	noTime := g.noTime
	g.noTime = false
	if s.RefType != nil {
		return g.namedType(s.RefType)
	}
	if s.Union != nil {
		return g.unionType(s, name, owner, where)
	}
	if s.Type == spec.TypeObject && (len(s.Properties) > 0 || (!s.AdditionalProperties && s.AdditionalPropertiesSchema == nil)) {
		t := g.structType(s, name, owner, where)
		t.doc = s.Description
		return t
	}
	t := &goType{schema: s}
	switch s.Type {
	case spec.TypeString:
		switch {
		case len(s.Enum) > 0:
			t.kind = kEnum
			t.name = name
			t.doc = s.Description
			t.what = where.typeOf()
			g.declare(name, "the enum type of "+where.String())
			t.same = g.sameEnum(t, where)
			if t.same == nil {
				g.declare(lowerFirst(name)+"Of", "the enum parser of "+where.String())
			}
			used := map[string]bool{}
			for i, v := range s.Enum {
				str, _ := v.(string)
				c := name + g.f.GoName(str)
				if g.f.GoName(str) == "" {
					c = name + "Empty"
				}
				if used[c] {
					c = name + "Value" + strconv.Itoa(i)
				}
				used[c] = true
				g.declare(c, "a constant of the enum type of "+where.String())
				t.enum = append(t.enum, enumValue{name: c, value: str})
			}
		case s.Format == "date-time" && s.Pattern == "" && s.MinLength == nil && s.MaxLength == nil && !s.HasConst && !noTime:
			t.kind = kTime
		default:
			t.kind = kString
		}
	case spec.TypeInteger:
		t.kind = kInt
	case spec.TypeNumber:
		t.kind = kFloat
	case spec.TypeBoolean:
		t.kind = kBool
	case spec.TypeArray:
		t.kind = kSlice
		items := s.Items
		if items == nil {
			items = &spec.Schema{Type: spec.TypeString}
		}
		in := g.itemName(items, owner)
		t.elem = g.typeOf(items, in, in, where.child("[*]"))
		t.elemPtr = items.Nullable || items.Resolved().Nullable
	case spec.TypeObject: // only additionalProperties: a map
		t.kind = kMap
		if v := s.AdditionalPropertiesSchema; v != nil {
			vn := owner + "Value"
			if v.GoName != "" {
				vn = v.GoName
			}
			t.elem = g.typeOf(v, vn, vn, where.child(".*"))
			t.elemPtr = v.Nullable || v.Resolved().Nullable
		} else {
			t.elem = &goType{kind: kRaw}
		}
	}
	if t.kind == kSlice || t.kind == kMap {
		g.setConst(t, name, where)
	}
	if t.same != nil {
		t.check = t.same.check
	} else if hasChecks(t) {
		var owner bool
		t.where = where.String()
		if t.check, owner = g.sharedCheck(t, name); owner {
			what := "the check function of "
			if t.kind == kInt || t.kind == kFloat {
				what = "the numeric rules of "
			}
			g.declare(t.check, what+where.String())
			if s.Pattern != "" {
				g.declare(patternVar(t), "the pattern of "+where.String())
			}
		}
	}
	return t
}

// structType builds the struct for an object schema with properties.
func (g *generator) structType(s *spec.Schema, name, owner string, where loc) *goType {
	g.declare(name, "the struct type of "+where.String())
	g.declare(lowerFirst(name)+"Fields", "the property table of the struct type of "+where.String()) // table.go
	t := &goType{kind: kStruct, name: name, schema: s, what: where.typeOf()}
	taken := map[string]bool{}
	for _, p := range s.Properties {
		site := p.Schema
		r := site.Resolved()
		f := &field{
			prop:     p,
			name:     p.GoName,
			json:     p.Name,
			required: p.Required,
			nullable: site.Nullable || r.Nullable,
			doc:      site.Description,
		}
		if f.doc == "" && site.RefType == nil {
			f.doc = r.Description
		}
		f.def, f.hasDef = site.Default, site.HasDefault
		if !f.hasDef && site.RefType != nil && r.HasDefault {
			f.def, f.hasDef = r.Default, true
		}
		f.typ = g.typeOf(site, owner+p.GoName, owner+p.GoName, where.child("."+p.Name))
		f.ptr = (f.nullable || (!f.required && !f.hasDef)) && f.typ.kind != kSlice && f.typ.kind != kMap && f.typ.kind != kUnion
		if f.name == "Validate" {
			g.errs = append(g.errs, "the Go name Validate of "+where.child("."+p.Name).String()+" collides with the generated Validate method; rename the property")
		}
		taken[f.name] = true
		t.fields = append(t.fields, f)
	}
	if s.AdditionalProperties || s.AdditionalPropertiesSchema != nil {
		t.extraName = "Extra"
		if taken[t.extraName] {
			t.extraName = "ExtraProperties"
		}
		if v := s.AdditionalPropertiesSchema; v != nil {
			t.extra = g.typeOf(v, owner+t.extraName, owner+t.extraName, where.child(".*"))
			t.extraPtr = v.Nullable || v.Resolved().Nullable
		} else {
			t.extra = &goType{kind: kRaw}
		}
	}
	g.setConst(t, name, where)
	t.same = g.sameStruct(t, where)
	return t
}

// hasChecks reports whether values of t have constraints of their own.
func hasChecks(t *goType) bool {
	s := t.schema
	switch t.kind {
	case kString:
		return len(s.Enum) > 0 || s.HasConst || s.MinLength != nil || s.MaxLength != nil || s.Pattern != "" || s.Format != "" || s.Trim
	case kEnum:
		return true
	case kInt, kFloat:
		return len(s.Enum) > 0 || s.HasConst || s.Minimum != nil || s.Maximum != nil || s.ExclusiveMinimum != nil ||
			s.ExclusiveMaximum != nil || s.MultipleOf != nil
	case kBool:
		return s.HasConst
	case kSlice:
		return s.MinItems != nil || s.MaxItems != nil || (s.UniqueItems && !uniqueBySpans(t))
	}
	return false
}

// typeExpr is the Go type expression of t.
func (g *generator) typeExpr(t *goType) *jen.Statement {
	if t.name != "" {
		return jen.Id(t.name)
	}
	return g.underlying(t)
}

// underlying is the Go type expression of t, ignoring its name.
func (g *generator) underlying(t *goType) *jen.Statement {
	switch t.kind {
	case kString, kEnum:
		return jen.String()
	case kInt:
		return jen.Int64()
	case kFloat:
		return jen.Float64()
	case kBool:
		return jen.Bool()
	case kTime:
		return jen.Qual("time", "Time")
	case kSlice:
		return jen.Index().Add(g.elemExpr(t))
	case kMap:
		return jen.Map(jen.String()).Add(g.elemExpr(t))
	case kRaw:
		return jen.Qual("encoding/json", "RawMessage")
	case kStruct:
		return jen.Struct()
	}
	return jen.Any()
}

// elemExpr is the type of t's items or values.
func (g *generator) elemExpr(t *goType) *jen.Statement {
	if t.elemPtr && t.elem.kind != kUnion { // an interface is nil for null
		return jen.Op("*").Add(g.typeExpr(t.elem))
	}
	return g.typeExpr(t.elem)
}

// fieldExpr is the type of a struct field.
func (g *generator) fieldExpr(f *field) *jen.Statement {
	if f.ptr {
		return jen.Op("*").Add(g.typeExpr(f.typ))
	}
	return g.typeExpr(f.typ)
}

// typeDecl declares a named type: a struct, an enum (with its constants,
// Valid method and parser) or a defined type over a built-in type.
func (g *generator) typeDecl(t *goType) []jen.Code {
	if t.same != nil && t.kind == kStruct {
		return []jen.Code{g.aliasDecl(t)}
	}
	switch t.kind {
	case kStruct:
		if !g.jen {
			if d := g.rawStruct(t); d != nil {
				return []jen.Code{d}
			}
		}
		var fields []jen.Code
		for _, f := range t.fields {
			tag := f.json
			if !f.required && !f.hasDef {
				tag += ",omitempty"
			}
			fd := jen.Id(f.name).Add(g.fieldExpr(f)).Tag(map[string]string{"json": tag})
			fields = append(fields, comment(fieldDoc(f)).Line().Add(fd))
		}
		if t.extra != nil {
			elem := g.typeExpr(t.extra)
			if t.extraPtr && t.extra.kind != kUnion {
				elem = jen.Op("*").Add(elem)
			}
			fields = append(fields, doc(t.extraName, "",
				t.extraName+" holds the properties the schema does not name, by key.",
				jen.Id(t.extraName).Map(jen.String()).Add(elem).Tag(map[string]string{"json": "-"})))
		}
		return []jen.Code{doc(t.name, t.what, t.doc, jen.Type().Id(t.name).Struct(fields...)), jen.Line()}
	case kEnum:
		return g.enumDecl(t)
	case kUnion:
		return g.unionDecls(t)
	}
	if t.alias {
		return []jen.Code{doc(t.name, t.what, t.doc, jen.Type().Id(t.name).Op("=").Add(g.underlying(t))), jen.Line()}
	}
	return []jen.Code{doc(t.name, t.what, t.doc, jen.Type().Id(t.name).Add(g.underlying(t))), jen.Line()}
}

// fieldDoc is a field's doc comment: its description and what an absent
// value means.
func fieldDoc(f *field) string {
	var note string
	switch {
	case f.required && f.nullable:
		note = "required; nil is null"
	case f.required:
		note = "required"
	case f.hasDef && f.nullable:
		note = "optional, default " + defaultText(f.def) + "; nil is null"
	case f.hasDef:
		note = "optional, default " + defaultText(f.def)
	case f.nullable:
		note = "optional; nil is absent or null"
	default:
		note = "optional; nil is absent"
	}
	d := strings.TrimSpace(f.doc)
	if d == "" {
		return f.name + " is " + note + "."
	}
	if last := d[len(d)-1]; last != '.' && last != '!' && last != '?' {
		d += "."
	}
	note = "(" + strings.ToUpper(note[:1]) + note[1:] + ".)"
	if len("// ")+len(d)+1+len(note) > commentWidth {
		return d + "\n" + note // wrapped, the note keeps a line of its own
	}
	return d + " " + note
}

// defaultText shows a default value as JSON.
func defaultText(v any) string {
	b, err := canonicalJSON(v)
	if err != nil {
		return "?"
	}
	return string(b)
}

// enumDecl declares an enum type, its constants, Valid and its parser.
func (g *generator) enumDecl(t *goType) []jen.Code {
	if !g.jen {
		return g.rawEnum(t)
	}
	var consts []jen.Code
	var parse []jen.Code
	for _, v := range t.enum {
		consts = append(consts, jen.Id(v.name).Id(t.name).Op("=").Lit(v.value))
		parse = append(parse, jen.Case(jen.Lit(v.value)).Block(jen.Return(jen.Id(v.name))))
	}
	if t.same != nil {
		return []jen.Code{
			g.aliasDecl(t),
			comment("The values of " + t.name + "."),
			jen.Const().Defs(consts...),
			jen.Line(),
		}
	}
	of := ofName(t)
	out := []jen.Code{
		doc(t.name, t.what, t.doc, jen.Type().Id(t.name).String()),
		jen.Line(),
		comment("The values of " + t.name + "."),
		jen.Const().Defs(consts...),
		jen.Line(),
		comment("Valid reports whether v is one of the values of " + t.name + "."),
		jen.Func().Params(jen.Id("v").Id(t.name)).Id("Valid").Params().Bool().Block(
			jen.Switch(jen.Id("v")).Block(jen.Case(caseList(t.enum)).Block(jen.Return(jen.True()))),
			jen.Return(jen.False()),
		),
		jen.Line(),
	}
	if !t.decode {
		return out // only decoders use the parser
	}
	return append(out,
		comment(of+" converts JSON string bytes to "+t.name+", without allocating for the known values."),
		jen.Func().Id(of).Params(jen.Id("b").Index().Byte()).Id(t.name).Block(
			jen.Switch(jen.String().Parens(jen.Id("b"))).Block(parse...),
			jen.Return(jen.Id(t.name).Parens(jen.Id("b"))),
		),
		jen.Line(),
	)
}

// caseList is the constants of an enum as the list of a case clause: on one
// line when they fit, else one per line.
func caseList(values []enumValue) jen.Code {
	var ids []jen.Code
	n := 0
	for _, v := range values {
		ids = append(ids, jen.Id(v.name))
		n += len(v.name) + 2
	}
	sep := ", "
	if n > 70 {
		sep = ",\n"
	}
	return jen.Custom(jen.Options{Separator: sep}, ids...)
}

// patternVar names the compiled pattern of t's check.
func patternVar(t *goType) string {
	return lowerFirst(t.check[len("check"):]) + "Pattern"
}
