// Package example is a toolgen module kept as a consuming repository would
// keep it: its spec (example.tools.yaml), the code toolgen generates from it
// (example_tools.gen.go), the executors written by hand (example_tools.go,
// started from toolgen's stubs) and the tool catalog (example_tools.md).
//
// The tools manage a task list kept in memory: list and search it, add,
// complete and delete tasks. Register them with
//
//	reg.AddModule(example.Module(example.New()))
package example

//go:generate go run github.com/toolgen/toolgen/cmd/toolgen
