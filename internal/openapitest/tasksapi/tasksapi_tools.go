// This file is yours: toolgen wrote these stubs once. Later runs only append
// stubs for new tools (and add the imports those need); they never change what
// you write here.
//
// Tools implements Executor, the interface generated from tasksapi.tools.yaml:
// replace each stub's body with the tool's work. When you add a tool to the
// spec, `go generate` appends its stub at the end of this file; when you remove
// one, it tells you which methods to delete (the package does not build until
// you do, since their argument type is gone). Methods may live in any file of
// the package.

package tasksapi

// Tools implements Executor, the tools of tasksapi.tools.yaml. Give it the
// fields your tools need (clients, stores, configuration).
type Tools struct{}

var _ Executor = (*Tools)(nil)
