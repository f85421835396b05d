package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/toolgen/toolgen/runtime"
)

// validator checks a remote tool's arguments against its inputSchema.
type validator struct{ schema *jsonschema.Schema }

// schemaURL is where a remote tool's schema is placed for compiling; a
// $ref to anything outside the schema itself is refused (noLoader), so an
// untrusted server cannot make the host read files or fetch URLs.
const schemaURL = "urn:toolgen:mcp:input-schema"

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("$ref to %s: a remote tool's schema may only refer to itself", url)
}

// compileSchema compiles a remote tool's inputSchema as JSON Schema
// 2020-12 (unless it names another draft in $schema).
func compileSchema(schema []byte) (*validator, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("input schema does not compile: %w", err)
	}
	return &validator{schema: s}, nil
}

var printer = message.NewPrinter(language.English)

// decode is the imported tool's Decode: the arguments must be JSON that
// the schema accepts; every leaf error is one violation. The value is the
// arguments as raw JSON, sent to the server as they came.
func (v *validator) decode(data []byte) (any, error) {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, &runtime.ValidationError{Violations: []runtime.Violation{{Path: "$", Message: "malformed JSON: " + err.Error()}}}
	}
	err = v.schema.Validate(inst)
	if err == nil {
		return json.RawMessage(data), nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, &runtime.ValidationError{Violations: []runtime.Violation{{Path: "$", Message: err.Error()}}}
	}
	var out []runtime.Violation
	leaves(ve, &out)
	// The validator visits properties in map order: sort by path, so the
	// same arguments always give the same text.
	slices.SortStableFunc(out, func(a, b runtime.Violation) int { return strings.Compare(a.Path, b.Path) })
	return json.RawMessage(data), &runtime.ValidationError{Violations: out}
}

// leaves appends the violations of e's leaf errors.
func leaves(e *jsonschema.ValidationError, out *[]runtime.Violation) {
	if len(e.Causes) == 0 {
		*out = append(*out, runtime.Violation{Path: jsonPath(e.InstanceLocation), Message: e.ErrorKind.LocalizedString(printer)})
		return
	}
	for _, c := range e.Causes {
		leaves(c, out)
	}
}

// jsonPath renders an instance location as "$.a[0].b".
func jsonPath(loc []string) string {
	var b strings.Builder
	b.WriteByte('$')
	for _, p := range loc {
		if _, err := strconv.Atoi(p); err == nil {
			b.WriteString("[" + p + "]")
			continue
		}
		if isIdent(p) {
			b.WriteString("." + p)
			continue
		}
		b.WriteString("[" + strconv.Quote(p) + "]")
	}
	return b.String()
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
