// Package wire is the JSON reader, violation collector and format checkers
// that toolgen's generated decoders are built on.
//
// It is an implementation detail of generated code: it is exported only
// because generated code lives in other packages. Its API follows what the
// generator needs and may change with it; hand-written code should use the
// generated Decode<Tool>Args functions and Validate methods instead.
//
// The reader works over a []byte in one pass, without encoding/json and
// without reflection, and allocates nothing for ordinary values beyond the
// strings it returns. Paths of violations ("$.items[2].email") are built only
// when something is wrong. Free-form values (skipped unknown keys, raw
// additional properties) and the document as a whole nest at most MaxDepth
// levels deep.
//
// The package imports only the standard library (and runtime for the
// Violation and ValidationError types).
package wire
