package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgen/toolgen/gen"
	"github.com/toolgen/toolgen/spec/openapi"
)

const importOpenAPIUsage = `Usage: toolgen import openapi DOC [flags] -o FILE.tools.yaml

Imports a local OpenAPI 3.0 or 3.1 document (YAML or JSON; $refs to other
local files are followed, nothing is fetched over the network) as a spec with
one HTTP-bound tool per operation. What the spec format cannot carry is left
out and reported per operation, with a JSON pointer and the reason; the report
is printed and written beside the spec as FILE.import-report.txt. Run toolgen
generate on the spec to get the tools, whose executors call the API.

Flags:

	-o FILE.tools.yaml        the spec to write (required)
	-provider ID              the module's provider id (default: from FILE)
	-package NAME             the Go package name (default: the directory's)
	-prefix P                 tool name prefix (default: PROVIDER_; - for none)
	-gate G                   the connection gate (default: PROVIDER; - for none)
	-tag T, -exclude-tag T    select operations by tag
	-operation ID, -exclude-operation ID
	                          select by operationId
	-path GLOB, -exclude-path GLOB
	                          select by path (* within a segment, ** across)
	-method M                 select by method
	                          (list flags repeat or take a,b,c)
	-headers                  import header parameters as arguments
	-no-approval              do not require approval for POST/PUT/PATCH/DELETE
	-overlay FILE             x-toolgen settings per operation, outside DOC
	-fields OP=a,b.c          project OP's result (operationId or tool name)
	                          to the listed fields (repeatable)
	-max-pages N              the maximum of the max_pages argument (default 10)
	-base-url URL             the API's base URL (default: the first server)
	-description-max N        tool description budget in characters (default 1000)
`

// listFlag is a repeatable, comma-separated flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error {
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

// runImportOpenAPI is `toolgen import openapi`.
func runImportOpenAPI(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("toolgen import openapi", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var o openapi.Options
	out := fs.String("o", "", "")
	fs.StringVar(&o.Provider, "provider", "", "")
	fs.StringVar(&o.Package, "package", "", "")
	fs.StringVar(&o.Prefix, "prefix", "", "")
	fs.StringVar(&o.Gate, "gate", "", "")
	var tags, xtags, ops, xops, paths, xpaths, methods listFlag
	fs.Var(&tags, "tag", "")
	fs.Var(&xtags, "exclude-tag", "")
	fs.Var(&ops, "operation", "")
	fs.Var(&xops, "exclude-operation", "")
	fs.Var(&paths, "path", "")
	fs.Var(&xpaths, "exclude-path", "")
	fs.Var(&methods, "method", "")
	fs.BoolVar(&o.Headers, "headers", false, "")
	fs.BoolVar(&o.NoApproval, "no-approval", false, "")
	fs.StringVar(&o.Overlay, "overlay", "", "")
	fs.IntVar(&o.MaxPages, "max-pages", 0, "")
	fs.StringVar(&o.BaseURL, "base-url", "", "")
	fs.IntVar(&o.DescriptionMax, "description-max", 0, "")
	fs.Func("fields", "", func(s string) error {
		op, list, ok := strings.Cut(s, "=")
		if !ok || op == "" || list == "" {
			return fmt.Errorf("-fields %q: want OPERATION=field,field.sub", s)
		}
		if o.Fields == nil {
			o.Fields = map[string][]string{}
		}
		var l listFlag
		l.Set(list)
		o.Fields[op] = append(o.Fields[op], l...)
		return nil
	})
	var docs []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdout, importOpenAPIUsage)
				return exitOK
			}
			fmt.Fprintf(stderr, "toolgen import openapi: %v\nrun 'toolgen import openapi -h' for usage\n", err)
			return exitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		docs = append(docs, fs.Arg(0))
		args = fs.Args()[1:]
	}
	usageErr := func(msg string) int {
		fmt.Fprintf(stderr, "toolgen import openapi: %s\nrun 'toolgen import openapi -h' for usage\n", msg)
		return exitUsage
	}
	switch {
	case len(docs) != 1:
		return usageErr("give one OpenAPI document")
	case *out == "":
		return usageErr("-o FILE.tools.yaml is required")
	}
	name, ok := gen.SpecName(*out)
	if !ok {
		return usageErr(fmt.Sprintf("-o %s: a spec file's name ends in %s", *out, gen.SpecSuffix))
	}
	if o.Provider == "" {
		o.Provider = providerFrom(name)
	}
	o.Tags, o.ExcludeTags, o.Operations, o.ExcludeOperations = tags, xtags, ops, xops
	o.Paths, o.ExcludePaths, o.Methods = paths, xpaths, methods

	res, err := openapi.Import(context.Background(), docs[0], o)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen import openapi: %v\n", err)
		return exitError
	}
	report := res.Report.String()
	reportPath := filepath.Join(filepath.Dir(*out), name+".import-report.txt")
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		fmt.Fprintf(stderr, "toolgen import openapi: %v\n", err)
		return exitError
	}
	if err := gen.WriteFile(*out, res.Spec); err != nil {
		fmt.Fprintf(stderr, "toolgen import openapi: %v\n", err)
		return exitError
	}
	if err := gen.WriteFile(reportPath, []byte(report)); err != nil {
		fmt.Fprintf(stderr, "toolgen import openapi: %v\n", err)
		return exitError
	}
	fmt.Fprint(stderr, report)
	fmt.Fprintf(stderr, "wrote %s and %s\n", *out, reportPath)
	return exitOK
}

// providerFrom makes a provider id of a spec name ("my-api" gives "my_api").
func providerFrom(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9' && b.Len() > 0:
			b.WriteRune(r)
		case b.Len() > 0:
			b.WriteByte('_')
		}
	}
	p := strings.Trim(b.String(), "_")
	if p == "" {
		return "api"
	}
	return p
}
