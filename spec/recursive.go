package spec

import (
	"slices"
	"strings"
)

// Recursive named types: a type may refer to itself, directly (a tree's
// children, a list's next node) or through other named types (A -> B ->
// A), as long as the reference cycle can end. It can end where it passes
// through
//
//   - an array's items or a map's values (the array or map may be empty),
//   - an optional property without a default (it may be left out), or
//   - a nullable schema (it may be null);
//
// the Go type is then finite too: []Node, map[string]Node, *Node. A cycle
// through required (or defaulted) non-nullable properties only has no
// finite JSON value, and neither has one through allOf parts or types that
// are only a $ref of another: both are located errors, reported at the
// reference that leaves the cycle's first type.
//
// The types on a cycle are marked Recursive: code generation gives them
// $defs/$ref in the schema literal instead of inlining them.

// refEdge is one reference made inside a named type.
type refEdge struct {
	ref
	to *NamedType
	// ends reports whether a cycle through the reference can end there.
	ends bool
	// trial reports that the reference is inside alternatives that
	// decoding tries in turn (see tried).
	trial bool
}

// recursion finds the references between named types, reports the cycles
// that cannot end and marks the types on the others Recursive. It runs
// after allOf parts are merged, so that a merged object's required list
// is known.
func (p *parser) recursion(f *File) {
	sites := make(map[*Schema]ref, len(p.refs))
	for _, r := range p.refs {
		sites[r.schema] = r
	}
	edges := map[*NamedType][]refEdge{}
	for _, nt := range f.Types {
		if nt.Schema == nil {
			continue
		}
		w := edgeWalk{nt: nt, sites: sites, out: edges}
		w.walk(nt.Schema, false, false, true)
	}

	// A cycle of references that cannot end is an error.
	hard := map[*NamedType][]ref{}
	for nt, es := range edges {
		for _, e := range es {
			if !e.ends {
				hard[nt] = append(hard[nt], e.ref)
			}
		}
	}
	p.cycles(f, hard)

	// toolgen writes a recursive type through a struct (an object's
	// properties): a cycle of arrays and maps only has no Go struct to
	// hold its decoder.
	flat := map[*NamedType][]ref{}
	for nt, es := range edges {
		if isStruct(nt) {
			continue
		}
		for _, e := range es {
			if e.ends && !isStruct(e.to) {
				flat[nt] = append(flat[nt], e.ref)
			}
		}
	}
	p.findCycles(f, flat, func(r ref, cyc []*NamedType, path string) {
		p.errorf(r.node, "type %q refers to itself through arrays and maps only (%s); toolgen generates recursive types through objects: make one type on the way an object with properties", cyc[0].Name, path)
	})

	// A cycle through alternatives tried in turn would decode each level
	// once per alternative tried: exponential in the depth.
	for _, nt := range f.Types {
		for _, e := range edges[nt] {
			if !e.trial || !e.ends {
				continue
			}
			// One error per type.
			if back := pathBetween(edges, e.to, nt); back != nil {
				names := []string{nt.Name}
				for _, t := range back {
					names = append(names, t.Name)
				}
				p.errorf(e.node, "type %q refers to itself (%s) through the alternatives of a union that decoding tries in turn (no discriminator, and two alternatives of one JSON type): "+
					"the cost of decoding would double with each level of nesting; give the union a discriminator, or alternatives of different JSON types", nt.Name, strings.Join(names, " -> "))
				break
			}
		}
	}

	for _, nt := range onCycles(f, edges) {
		nt.Recursive = true
	}
}

// pathBetween is a shortest path of references from one type to another
// (both included), or nil.
func pathBetween(edges map[*NamedType][]refEdge, from, to *NamedType) []*NamedType {
	prev := map[*NamedType]*NamedType{from: nil}
	queue := []*NamedType{from}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		if v == to {
			var path []*NamedType
			for ; v != nil; v = prev[v] {
				path = append([]*NamedType{v}, path...)
			}
			return path
		}
		for _, e := range edges[v] {
			if _, seen := prev[e.to]; !seen {
				prev[e.to] = v
				queue = append(queue, e.to)
			}
		}
	}
	return nil
}

// isStruct reports whether the named type is an object with properties (or
// a strict empty object), a Go struct, or a union, a Go interface: types
// whose decoders are functions of their own.
func isStruct(nt *NamedType) bool {
	if nt.Schema == nil || nt.Schema.Ref != "" {
		return false
	}
	s := nt.Schema
	return s.Union != nil || s.Type == TypeObject && (len(s.Properties) > 0 || (!s.AdditionalProperties && s.AdditionalPropertiesSchema == nil))
}

// edgeWalk collects the references inside one named type.
type edgeWalk struct {
	nt    *NamedType
	sites map[*Schema]ref
	out   map[*NamedType][]refEdge
}

// walk visits s; ends says that a cycle can end on the way from the named
// type's root to s, trial that the way passes through a union whose
// alternatives decoding tries in turn, top that s is the root (or an allOf
// part of it).
func (w *edgeWalk) walk(s *Schema, ends, trial, top bool) {
	if s == nil {
		return
	}
	if s.Ref != "" {
		r, ok := w.sites[s]
		if !ok || s.RefType == nil {
			return // unresolved: reported already
		}
		if !top {
			// A nullable reference (or one to a nullable type) may be null.
			_, nullable := follow(s)
			ends = ends || nullable
		}
		// A type that is only a $ref of another is that type: no edge of
		// it can end a cycle.
		w.out[w.nt] = append(w.out[w.nt], refEdge{ref: r, to: s.RefType, ends: ends, trial: trial})
		return
	}
	for _, part := range s.AllOf {
		if part.Ref != "" {
			// An allOf part is merged into the object: it is always there.
			w.walk(part, ends, trial, true)
		}
		// Inline parts' properties are merged into s.Properties.
	}
	for _, prop := range s.Properties {
		ps := prop.Schema
		if ps == nil {
			continue
		}
		_, nullable := follow(ps)
		w.walk(ps, ends || nullable || (!prop.Required && !hasDefault(ps)), trial, false)
	}
	w.walk(s.Items, true, trial, false)
	w.walk(s.AdditionalPropertiesSchema, true, trial, false)
	if u := s.Union; u != nil {
		if len(u.Alts) == 1 {
			// A union of one is its alternative.
			w.walk(u.Alts[0], ends || s.Nullable, trial, top)
			return
		}
		// A union's value is one alternative of several: the cycle ends
		// in another, and its Go type is an interface.
		for i, alt := range u.Alts {
			w.walk(alt, true, trial || tried(u, i), false)
		}
	}
}

// tried reports whether decoding the union may try alternative i in turn
// with others (wire.Trial): the union has no discriminator, and another
// alternative takes values of one of the JSON types alternative i takes.
// A recursive type through it would cost twice as much with each level of
// nesting.
func tried(u *Union, i int) bool {
	if u.Discriminator != nil {
		return false
	}
	mine := jsonTypes(u.Alts[i], 0)
	for j, alt := range u.Alts {
		if j == i {
			continue
		}
		for k := range jsonTypes(alt, 0) {
			if mine[k] {
				return true
			}
		}
	}
	return false
}

// jsonTypes are the JSON types (object, array, string, number, boolean)
// of the values a schema takes, null aside.
func jsonTypes(s *Schema, depth int) map[string]bool {
	out := map[string]bool{}
	r, _ := follow(s)
	if r == nil || depth > 32 {
		return out
	}
	if r.Union != nil {
		for _, alt := range r.Union.Alts {
			for k := range jsonTypes(alt, depth+1) {
				out[k] = true
			}
		}
		return out
	}
	switch r.Type {
	case TypeInteger, TypeNumber:
		out["number"] = true
	case "":
	default:
		out[string(r.Type)] = true
	}
	return out
}

// hasDefault reports whether the schema at a property, or the type it
// refers to, has a default: an absent value is then the default, not
// nothing.
func hasDefault(s *Schema) bool {
	if s.HasDefault {
		return true
	}
	if s.Ref == "" {
		return false
	}
	r, _ := follow(s)
	return r != nil && r.HasDefault
}

// onCycles returns the named types that lie on a reference cycle, in file
// order: the types of the strongly connected components of the reference
// graph with more than one type, or with a reference to itself.
func onCycles(f *File, edges map[*NamedType][]refEdge) []*NamedType {
	index := map[*NamedType]int{}
	low := map[*NamedType]int{}
	onStack := map[*NamedType]bool{}
	var stack []*NamedType
	on := map[*NamedType]bool{}
	n := 0
	var visit func(v *NamedType)
	visit = func(v *NamedType) {
		index[v], low[v] = n, n
		n++
		stack = append(stack, v)
		onStack[v] = true
		for _, e := range edges[v] {
			w := e.to
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
			if w == v {
				on[v] = true
			}
		}
		if low[v] != index[v] {
			return
		}
		var comp []*NamedType
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			comp = append(comp, w)
			if w == v {
				break
			}
		}
		if len(comp) > 1 {
			for _, w := range comp {
				on[w] = true
			}
		}
	}
	for _, nt := range f.Types {
		if _, seen := index[nt]; !seen {
			visit(nt)
		}
	}
	var out []*NamedType
	for _, nt := range f.Types {
		if on[nt] {
			out = append(out, nt)
		}
	}
	return out
}

// cycles reports each reference cycle among named types that has no end
// once, at the reference that leaves the cycle's first type (in file order).
func (p *parser) cycles(f *File, edges map[*NamedType][]ref) {
	p.findCycles(f, edges, func(r ref, cyc []*NamedType, path string) {
		const why = "no value can end it: every reference on the way is a required property (or one with a default), an allOf part or the whole type; " +
			"make a property on the way optional or nullable, or hold the reference in an array or a map"
		if len(cyc) == 1 {
			p.errorf(r.node, "type %q refers to itself (%s) and %s", cyc[0].Name, path, why)
		} else {
			p.errorf(r.node, "reference cycle between named types (%s): %s", path, why)
		}
	})
}

// findCycles calls report once for each cycle of edges it finds (a depth
// first search meets every strongly connected component's cycles, though
// not every cycle of one), with the reference that leaves the cycle's
// first-declared type, the cycle from that type and its path ("A -> B ->
// A").
func (p *parser) findCycles(f *File, edges map[*NamedType][]ref, report func(r ref, cyc []*NamedType, path string)) {
	order := map[*NamedType]int{}
	for i, nt := range f.Types {
		order[nt] = i
	}
	const (
		white = iota
		grey
		black
	)
	color := map[*NamedType]int{}
	var stack []*NamedType
	var via []ref // via[i] leads from stack[i] to stack[i+1]
	reported := map[string]bool{}
	var visit func(nt *NamedType)
	visit = func(nt *NamedType) {
		color[nt] = grey
		stack = append(stack, nt)
		for _, r := range edges[nt] {
			next := r.schema.RefType
			switch color[next] {
			case white:
				via = append(via, r)
				visit(next)
				via = via[:len(via)-1]
			case grey:
				// stack from next to nt, closed by r, is a cycle.
				start := slices.Index(stack, next)
				cyc := slices.Clone(stack[start:])
				refs := append(slices.Clone(via[start:]), r)
				// Rotate so that the cycle starts at its first-declared type.
				first := 0
				for i, t := range cyc {
					if order[t] < order[cyc[first]] {
						first = i
					}
				}
				cyc = append(cyc[first:], cyc[:first]...)
				refs = append(refs[first:], refs[:first]...)
				keyNames := make([]string, len(cyc))
				for i, t := range cyc {
					keyNames[i] = t.Name
				}
				key := strings.Join(keyNames, " -> ")
				if reported[key] {
					continue
				}
				reported[key] = true
				report(refs[0], cyc, key+" -> "+cyc[0].Name)
			}
		}
		stack = stack[:len(stack)-1]
		color[nt] = black
	}
	for _, nt := range f.Types {
		if color[nt] == white {
			visit(nt)
		}
	}
}
