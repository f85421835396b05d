// Package templates holds the text/template files toolgen renders for what is
// not Go code: the Markdown tool catalog and the stubs file's header comment.
// The files are embedded in the binary, so a toolgen build needs nothing on
// disk.
package templates

import (
	"embed"
	"fmt"
	"text/template"
)

// Names of the embedded templates.
const (
	// Catalog renders a module's Markdown tool catalog (`<name>_tools.md`).
	Catalog = "catalog.md.tmpl"
	// StubsHeader renders the comment at the top of a new stubs file
	// (`<name>_tools.go`).
	StubsHeader = "stubs_header.go.tmpl"
)

//go:embed *.tmpl
var files embed.FS

// Parse parses the embedded template called name (one of the constants
// above) with funcs available to it. Executing it fails on a missing map key
// rather than printing "<no value>". Each call returns a fresh template.
func Parse(name string, funcs template.FuncMap) (*template.Template, error) {
	src, err := files.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	t, err := template.New(name).Funcs(funcs).Option("missingkey=error").Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	return t, nil
}

// Names lists the embedded templates.
func Names() []string {
	entries, err := files.ReadDir(".")
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
