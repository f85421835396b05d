// Package gen turns a loaded spec (package spec) into Go code with
// github.com/dave/jennifer: the generated `<name>_tools.gen.go` (Code), the
// stubs file the developer owns, and the Markdown catalog (Generate writes
// none of them; it returns the files for the CLI to write or compare).
//
// Code works in two steps, like ogen: build lowers the spec model into a
// small intermediate form (goType: the Go type of each schema, with every
// package-level name declared once so collisions are reported instead of
// producing Go that does not compile), then one file per emitted concern
// renders it with small builder functions returning jen.Code:
//
//   - types.go: argument, result and named types, enums (constants, Valid);
//   - decode.go: one-pass decoders over runtime/wire, Decode<Tool>Args;
//   - validate.go: per-value check functions shared by the decoders and the
//     Validate methods;
//   - literal.go: Go literals for spec defaults;
//   - schema.go: the compact canonical JSON Schema literals;
//   - labels.go: status label functions;
//   - prompt.go: the prompt functions of agent tools (`kind: agent`);
//   - module.go: Provider and tool-name constants, the Executor interface
//     and Module (an agent tool's Execute is runtime.AgentExecute over the
//     executor method, which returns the sub-agent).
//
// The output is gofmt'd and deterministic.
package gen
