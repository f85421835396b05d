// Command toolgen turns YAML tool specs (`*.tools.yaml`) into typed Go code
// for LLM tool calling: argument types, validators, schemas, an executor
// interface with stubs you fill in, the module wiring, and a Markdown
// catalog of the tools.
//
// Usage:
//
//	toolgen [generate] [-v] [PATH ...]
//	toolgen check [-v] [PATH ...]
//	toolgen version
//
// With no arguments it generates the spec in the current directory, which
// is what `//go:generate go tool toolgen` runs. Run `toolgen -h` for the
// details.
package main

import (
	"os"
	"runtime/debug"
)

// gcPercent is the garbage collector's target for a run that does not set
// GOGC: toolgen is a short-lived process whose heap is mostly the code it
// renders, and collecting at the default 100 % spends a fifth of a large
// spec's generation in the collector.
const gcPercent = 400

func main() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
