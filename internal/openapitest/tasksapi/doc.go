// Package tasksapi is a small OpenAPI 3.1 document in the shape of
// Todoist's REST API (JSON bodies, bearer auth, cursor pages:
// spec/openapi/testdata/v31/openapi.yaml) imported by `toolgen import
// openapi`; its tests dispatch the generated tools against an httptest
// server. spec/openapi's TestImportedPackagesCurrent keeps
// tasksapi.tools.yaml in step with the importer.
package tasksapi

//go:generate go run ../../../cmd/toolgen
