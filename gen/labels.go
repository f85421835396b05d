package gen

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/spec"
)

// Status labels: per tool a function compiled from its status template.
// It never panics: it type-asserts its argument with the comma-ok form,
// checks every pointer, and falls back to the tool's status_fallback (or
// name) when a placeholder without its own fallback has no value. For a
// call whose arguments failed to decode (a *runtime.InvalidArgs) a
// placeholder whose parameter a violation is about has no value either:
// the label never shows what the call refused. Strings are clipped
// (wire.Clip); numbers, booleans and times are short already.

// labelFunc is the label function of a tool (a raw declaration: raw.go).
func (g *generator) labelFunc(t *toolIR) []jen.Code {
	tool := t.tool
	name := t.goLower + "Label"
	fallback := tool.StatusFallback
	if fallback == "" {
		fallback = tool.Name
	}
	w := newRawWriter()
	w.doc(name+" renders the status label of a call from its arguments (possibly partial or nil). It cannot fail.").
		str("func ", name, "(args any) string {\n")

	hasParam := false
	for _, p := range tool.StatusParts {
		if p.Param != "" {
			hasParam = true
		}
	}
	if !hasParam {
		text := fallback
		if len(tool.StatusParts) > 0 {
			text = ""
			for _, p := range tool.StatusParts {
				text += p.Text
			}
		}
		w.str("\treturn ").quote(text).str("\n}\n")
		return []jen.Code{g.raw(w)}
	}

	// A call whose arguments failed to decode comes as an *InvalidArgs:
	// its placeholders show only values no violation is about.
	value := func(w *rawWriter, f *field) (present, missing, text string) {
		present, missing, text = g.labelValue(w, f)
		rejected := "bad.Rejected(" + strconv.Quote(f.json) + ")"
		if present == "" {
			return "!" + rejected, rejected, text
		}
		return present + " && !" + rejected, missing + " || " + rejected, text
	}
	g.templateBody(w, t, tool.StatusParts, "status label", value, strconv.Quote(fallback), true)
	w.str("}\n")
	return []jen.Code{g.raw(w)}
}

// templateBody writes the body of a label or prompt function compiled from
// parts: it type-asserts the arguments, returns whenFallback when they are
// not there or a placeholder without its own fallback has no value, and
// returns the text with every placeholder's value inserted. value gives,
// for a field, the conditions under which it has a value and has none ("",
// "": it always has one) and the expression of its text; what names the
// template in generator errors. A label (label) unpacks its argument with
// wire.LabelValue, which also gives the *runtime.InvalidArgs (bad) of a call
// that failed to decode, and type-asserts the value itself (a generic
// unpacker would compile a wrapper per argument type).
//
// The text is gofmt'd as it is: every operator of the conditions and the
// concatenation (||, &&, ==, !=, +) is one gofmt writes with spaces around
// it in such expressions, and no operand is itself a binary expression.
func (g *generator) templateBody(w *rawWriter, t *toolIR, parts []spec.LabelPart, what string,
	value func(w *rawWriter, f *field) (present, missing, text string), whenFallback string, label bool) {
	absent := []string{"!ok", "a == nil"}
	if label {
		absent = []string{"a == nil"}
		w.str("\tv, bad := ", w.qual(wirePkg, "LabelValue"), "(args)\n\ta, _ := v.(*", t.args.name, ")\n")
	} else {
		w.str("\ta, ok := args.(*", t.args.name, ")\n")
	}
	var body, concat []string
	text := ""
	flush := func() {
		if text != "" {
			concat = append(concat, strconv.Quote(text))
			text = ""
		}
	}
	for i, p := range parts {
		if p.Param == "" {
			text += p.Text
			continue
		}
		f := t.args.field(p.Param)
		if f == nil {
			g.errs = append(g.errs, what+" of "+t.tool.Name+": no parameter "+strconv.Quote(p.Param))
			continue
		}
		present, missing, v := value(w, f)
		flush()
		switch {
		case present == "": // always has a value, fallback or not
			concat = append(concat, v)
		case p.HasFallback:
			id := "p" + strconv.Itoa(i)
			body = append(body, "\t"+id+" := "+strconv.Quote(p.Fallback)+"\n",
				"\tif "+present+" {\n\t\t"+id+" = "+v+"\n\t}\n")
			concat = append(concat, id)
		default:
			absent = append(absent, missing)
			concat = append(concat, v)
		}
	}
	flush()
	if len(concat) == 0 {
		concat = append(concat, `""`)
	}
	w.str("\tif ", strings.Join(absent, " || "), " {\n\t\treturn ", whenFallback, "\n\t}\n")
	w.str(body...)
	w.str("\treturn ", strings.Join(concat, " + "), "\n")
}

// labelValue gives the conditions under which the argument of f has a
// value and has none ("", "": it always has one), and the expression of
// its text.
func (g *generator) labelValue(w *rawWriter, f *field) (present, missing, value string) {
	x := "a." + f.name
	v := x
	if f.ptr {
		present, missing = x+" != nil", x+" == nil"
		v = "*" + x
	}
	switch f.typ.kind {
	case kString, kEnum:
		s := v
		if f.typ.name != "" {
			s = "string(" + v + ")"
		}
		if !f.ptr {
			present, missing = s+` != ""`, s+` == ""`
		}
		value = w.qual(wirePkg, "Clip") + "(" + s + ")"
	case kInt:
		value = w.qual("strconv", "FormatInt") + "(" + conv(f.typ, "int64", v) + ", 10)"
	case kFloat:
		value = w.qual(wirePkg, "FormatNumber") + "(" + conv(f.typ, "float64", v) + ")"
	case kBool:
		value = w.qual("strconv", "FormatBool") + "(" + conv(f.typ, "bool", v) + ")"
	case kTime:
		if !f.ptr {
			present, missing = "!"+v+".IsZero()", v+".IsZero()"
		}
		// Format has a value receiver: it reads through a pointer.
		value = x + ".Format(" + w.qual("time", "RFC3339") + ")"
	default:
		// The spec allows only scalar placeholders; show the type's name.
		g.errs = append(g.errs, "status label placeholder {"+f.json+"} names a parameter that is not a string, number or boolean")
		value = `""`
	}
	return present, missing, value
}

// conv converts a named scalar to its underlying type to for formatting.
func conv(t *goType, to, v string) string {
	if t.name != "" {
		return to + "(" + v + ")"
	}
	return v
}
