package gen

import "github.com/dave/jennifer/jen"

// Agent prompts: per agent tool with a `prompt:` template, a function
// compiled from it as status labels are (same placeholders: {param},
// {param|fallback}, {{ and }}), with three differences that suit a prompt:
// values are inserted whole, not clipped; a value is absent only when its
// field is nil (an empty string is inserted as it is); and when a
// placeholder without its own fallback has no value, the function returns
// the runtime's default prompt, as if the tool had no template. An agent
// tool without a template passes nil to runtime.AgentExecute, which sends
// the default prompt itself.

// promptName is the name of a tool's prompt function.
func promptName(t *toolIR) string { return t.goLower + "Prompt" }

// promptFunc is the prompt function of an agent tool with a template; nil
// for any other tool. It is a raw declaration (raw.go).
func (g *generator) promptFunc(t *toolIR) []jen.Code {
	tool := t.tool
	if !isAgent(tool) || tool.Prompt == "" {
		return nil
	}
	name := promptName(t)
	w := newRawWriter()
	w.doc(name+" renders the prompt sent to the sub-agent of one call of the "+tool.Name+" tool from its arguments, with the spec's prompt template. When a placeholder without a fallback has no value, it is the default prompt (the arguments as JSON).").
		str("func ", name, "(args any) string {\n")

	hasParam := false
	text := ""
	for _, p := range tool.PromptParts {
		if p.Param != "" {
			hasParam = true
		}
		text += p.Text
	}
	if !hasParam {
		w.str("\treturn ").quote(text).str("\n}\n")
		return []jen.Code{g.raw(w)}
	}
	fallback := w.qual(runtimePkg, "DefaultAgentPrompt") + "(args)"
	g.templateBody(w, t, tool.PromptParts, "prompt", g.promptValue, fallback, false)
	w.str("}\n")
	return []jen.Code{g.raw(w)}
}

// promptValue gives the conditions under which f has a value in a prompt
// and has none (only a nil pointer has none: an empty string is inserted as
// it is), and the expression of its text: a string as it is, a number or
// boolean formatted as in JSON, a time in RFC 3339 with its fraction of a
// second.
func (g *generator) promptValue(w *rawWriter, f *field) (present, missing, text string) {
	v := "a." + f.name
	if f.ptr {
		present, missing = v+" != nil", v+" == nil"
		v = "*" + v
	}
	switch f.typ.kind {
	case kString, kEnum:
		if f.typ.name != "" {
			return present, missing, "string(" + v + ")"
		}
		return present, missing, v
	case kInt:
		return present, missing, w.qual("strconv", "FormatInt") + "(" + conv(f.typ, "int64", v) + ", 10)"
	case kFloat:
		return present, missing, w.qual(wirePkg, "FormatNumber") + "(" + conv(f.typ, "float64", v) + ")"
	case kBool:
		return present, missing, w.qual("strconv", "FormatBool") + "(" + conv(f.typ, "bool", v) + ")"
	case kTime:
		// Format has a value receiver: it reads through a pointer.
		return present, missing, "a." + f.name + ".Format(" + w.qual("time", "RFC3339Nano") + ")"
	}
	// The spec allows only scalar placeholders.
	g.errs = append(g.errs, "prompt placeholder {"+f.json+"} names a parameter that is not a string, number or boolean")
	return present, missing, `""`
}

// field returns the field with JSON name name, or nil.
func (t *goType) field(name string) *field {
	for _, f := range t.fields {
		if f.json == name {
			return f
		}
	}
	return nil
}
