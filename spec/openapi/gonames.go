package openapi

import (
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/toolgen/toolgen/runtime/wire"
	"github.com/toolgen/toolgen/spec"
)

// The generator names nested types after where they are (a tool's stem
// and the property path: PostCustomersCustomer + CashBalance + Settings),
// enum constants after their type and value, check functions after their
// type. Two tools or types can so declare one Go name between them
// (post_customers_customer's cash_balance.settings and
// post_customers_customer_cash_balance's settings). collisions predicts
// those names from the loaded spec, following gen's rules (over-
// approximating where gen's choice depends on order), and says which
// owners to rename: the later of two, tools after types.

// owner is a tool (by name) or a named type (by name) that declares Go
// names.
type owner struct {
	tool bool
	name string
}

type nameWalk struct {
	f        *spec.File
	declared map[string]owner
	rename   map[owner]bool
	cur      owner
}

func (w *nameWalk) decl(name string) {
	if first, ok := w.declared[name]; ok {
		if first != w.cur {
			w.rename[w.cur] = true
		}
		return
	}
	w.declared[name] = w.cur
}

// collisions returns the owners to rename.
func collisions(f *spec.File) map[owner]bool {
	w := &nameWalk{f: f, declared: map[string]owner{}, rename: map[owner]bool{}}
	w.cur = owner{name: "\x00generated"}
	for _, n := range []string{"Executor", "Tools", "Module", "Provider", "Gate", "Gates", "httpAPI", "gateMessage"} {
		w.decl(n)
	}
	for _, t := range f.Tools {
		if t.Gate != "" {
			w.decl("Gate" + f.GoName(t.Gate))
		}
	}
	for _, nt := range f.Types {
		w.cur = owner{name: nt.Name}
		w.decl(nt.GoName)
		w.typeOf(nt.Schema, nt.GoName, nt.GoName, true)
	}
	for _, t := range f.Tools {
		w.cur = owner{tool: true, name: t.Name}
		s := t.GoName
		low := spec.LowerFirst(s)
		for _, n := range []string{"Tool" + s, s + "Args", "Decode" + s + "Args", low + "Label", low + "Schema", low + "HTTP"} {
			w.decl(n)
		}
		for _, p := range t.Params.Properties {
			w.typeOf(p.Schema, s+p.GoName, s+p.GoName, false)
		}
		if t.Result != nil {
			w.decl(s + "Result")
			w.decl(low + "ResultSchema")
			w.typeOf(t.Result, s+"Result", s+"Result", true)
		}
	}
	return w.rename
}

// typeOf mirrors gen's typeOf: named is true when name is declared anyway
// (a named type, a result).
func (w *nameWalk) typeOf(s *spec.Schema, name, own string, named bool) {
	if s == nil || s.RefType != nil {
		return
	}
	if u := s.Union; u != nil {
		// gen's unionType: the union, its decoder and validator, and each
		// inline alternative after the union and what sets it apart.
		w.decl(name)
		w.decl("decode" + name)
		w.decl("validate" + name)
		for _, a := range u.Alts {
			if a.RefType != nil {
				continue
			}
			an := name + w.altSuffix(a)
			w.decl(an)
			w.typeOf(a, an, an, false)
		}
		return
	}
	switch s.Type {
	case spec.TypeObject:
		if len(s.Properties) > 0 || (!s.AdditionalProperties && s.AdditionalPropertiesSchema == nil) {
			w.decl(name)
			for _, p := range s.Properties {
				w.typeOf(p.Schema, own+p.GoName, own+p.GoName, false)
			}
			if v := s.AdditionalPropertiesSchema; v != nil {
				w.typeOf(v, own+"Extra", own+"Extra", false)
			}
			return
		}
		if v := s.AdditionalPropertiesSchema; v != nil {
			vn := own + "Value"
			if v.GoName != "" {
				vn = v.GoName
			}
			w.typeOf(v, vn, vn, false)
		}
	case spec.TypeString:
		if len(s.Enum) > 0 {
			w.decl(name)
			w.decl(spec.LowerFirst(name) + "Of")
			for i, v := range s.Enum {
				str, _ := v.(string)
				c := name + w.f.GoName(str)
				if w.f.GoName(str) == "" {
					c = name + "Empty"
				}
				w.decl(c)
				w.decl(name + "Value" + strconv.Itoa(i))
			}
			w.decl("check" + name)
			return
		}
		if s.MinLength != nil || s.MaxLength != nil || s.Pattern != "" || s.Format != "" || s.Trim {
			w.decl("check" + name)
		}
	case spec.TypeInteger, spec.TypeNumber:
		if len(s.Enum) > 0 || s.Minimum != nil || s.Maximum != nil || s.ExclusiveMinimum != nil || s.ExclusiveMaximum != nil || s.MultipleOf != nil {
			w.decl("check" + name)
		}
	case spec.TypeArray:
		if s.MinItems != nil || s.MaxItems != nil || s.UniqueItems {
			w.decl("check" + name)
		}
		if s.Items != nil {
			if s.Items.GoName != "" {
				w.typeOf(s.Items, s.Items.GoName, s.Items.GoName, false)
				return
			}
			// gen takes the singular when it is free, else …Item: both may be.
			if one, ok := spec.Singular(own); ok && one != "" {
				w.typeOf(s.Items, one, one, false)
			}
			w.typeOf(s.Items, own+"Item", own+"Item", false)
		}
	}
}

// altSuffix is the suffix gen gives an inline alternative's type.
func (w *nameWalk) altSuffix(r *spec.Schema) string {
	return w.f.AltSuffix(r)
}

// collisionsOut is collisions over the importer's own output (tools and
// named types as YAML nodes), so the renaming rounds need not write and
// load the spec each time.
func collisionsOut(provider string, tools []*toolOut, types []*named) map[owner]bool {
	f := &spec.File{Provider: provider}
	for _, nt := range types {
		f.Types = append(f.Types, &spec.NamedType{Name: nt.name, GoName: spec.GoName(nt.name), Schema: nodeSchema(nt.node)})
	}
	for _, t := range tools {
		st := &spec.Tool{Name: t.name, GoName: t.goName, Params: &spec.Schema{Type: spec.TypeObject}}
		if st.GoName == "" {
			st.GoName = spec.ToolGoName(provider, t.name)
		}
		for _, p := range t.params {
			st.Params.Properties = append(st.Params.Properties, &spec.Property{Name: p.name, GoName: spec.GoName(p.name), Schema: nodeSchema(p.schema)})
		}
		if t.result != nil {
			st.Result = nodeSchema(t.result)
		}
		f.Tools = append(f.Tools, st)
	}
	return collisions(f)
}

// placeholder stands for a constraint's value: collisions only asks
// whether one is set.
var (
	placeholderInt  = new(int)
	placeholderNum  = new(wire.Decimal)
	placeholderType = &spec.NamedType{}
)

// nodeSchema reads the parts of a schema node that decide generated names.
func nodeSchema(n *yaml.Node) *spec.Schema {
	s := &spec.Schema{}
	if n == nil {
		return s
	}
	if get(n, "$ref") != nil {
		s.RefType = placeholderType
		return s
	}
	for _, kw := range []spec.UnionKind{spec.OneOf, spec.AnyOf} {
		if alts := get(n, string(kw)); alts != nil {
			s.Union = &spec.Union{Kind: kw}
			for _, a := range alts.Content {
				s.Union.Alts = append(s.Union.Alts, nodeSchema(a))
			}
			return s
		}
	}
	if t := get(n, "type"); t != nil {
		s.Type = spec.Type(t.Value)
	}
	if e := get(n, "enum"); e != nil {
		for _, v := range e.Content {
			s.Enum = append(s.Enum, v.Value)
		}
	}
	for _, k := range []struct {
		key string
		dst **int
	}{{"minLength", &s.MinLength}, {"maxLength", &s.MaxLength}, {"minItems", &s.MinItems}, {"maxItems", &s.MaxItems}} {
		if get(n, k.key) != nil {
			*k.dst = placeholderInt
		}
	}
	for _, k := range []struct {
		key string
		dst **wire.Decimal
	}{{"minimum", &s.Minimum}, {"maximum", &s.Maximum}, {"exclusiveMinimum", &s.ExclusiveMinimum}, {"exclusiveMaximum", &s.ExclusiveMaximum}, {"multipleOf", &s.MultipleOf}} {
		if get(n, k.key) != nil {
			*k.dst = placeholderNum
		}
	}
	if p := get(n, "pattern"); p != nil {
		s.Pattern = p.Value
	}
	if p := get(n, "format"); p != nil {
		s.Format = p.Value
	}
	s.UniqueItems = get(n, "uniqueItems") != nil
	if it := get(n, "items"); it != nil {
		s.Items = nodeSchema(it)
	}
	if props := get(n, "properties"); props != nil {
		for i := 0; i+1 < len(props.Content); i += 2 {
			name := props.Content[i].Value
			s.Properties = append(s.Properties, &spec.Property{Name: name, GoName: spec.GoName(name), Schema: nodeSchema(props.Content[i+1])})
		}
	}
	if req := get(n, "required"); req != nil {
		for _, r := range req.Content {
			s.Required = append(s.Required, r.Value)
			for _, p := range s.Properties {
				if p.Name == r.Value {
					p.Required = true
				}
			}
		}
	}
	if ap := get(n, "additionalProperties"); ap != nil {
		if ap.Kind == yaml.MappingNode {
			s.AdditionalProperties = true
			s.AdditionalPropertiesSchema = nodeSchema(ap)
		} else {
			s.AdditionalProperties = ap.Value == "true"
		}
	}
	return s
}
