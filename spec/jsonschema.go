package spec

import _ "embed"

// JSONSchema is the published JSON Schema (draft 2020-12) of the spec file
// format, version 1: toolgen.schema.json in this package's directory. Its
// $id is SchemaID. It declares exactly the keys the loader accepts, so a YAML
// editor autocompletes and checks a spec as it is typed. With the YAML
// language server (VS Code's YAML extension, and editors built on it), put
// this comment on the first line of a `*.tools.yaml` file, with the path of
// a copy of the schema relative to the spec file (it works today), or the
// schema's URL once toolgen is published:
//
//	# yaml-language-server: $schema=../toolgen.schema.json
//	# yaml-language-server: $schema=https://raw.githubusercontent.com/toolgen/toolgen/main/spec/toolgen.schema.json
//
// The loader remains the authority: it also checks what a JSON Schema cannot
// say (references, reference cycles, label placeholders, Go name
// collisions, defaults against their schemas).
//
//go:embed toolgen.schema.json
var JSONSchema []byte

// SchemaID is the $id of JSONSchema.
const SchemaID = "https://github.com/toolgen/toolgen/spec/toolgen.schema.json"

// SchemaURL is where JSONSchema is served once toolgen is published: the
// address a spec's yaml-language-server comment names (SchemaID is only an
// identifier; nothing is served there). The importers write it on a spec's
// first line.
const SchemaURL = "https://raw.githubusercontent.com/toolgen/toolgen/main/spec/toolgen.schema.json"
