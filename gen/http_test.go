package gen

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/spec"
)

// The http golden case (testdata/golden/http) covers HTTP-bound tools: their
// generated executors and Module's httpapi client parameter.
func init() { goldenCases = append(goldenCases, "http") }

// TestHTTPNamesCollide: a named type whose Go name is one the bound tools'
// code declares (Gates) is a generate-time error, not Go that fails to build.
func TestHTTPNamesCollide(t *testing.T) {
	f, err := spec.Parse(filepath.Join("pets", "pets.tools.yaml"), []byte(`toolgen: 1
provider: pets
gate: pets
http: {base_url: "https://api.example.com"}
types:
  Gates: {type: string}
tools:
  - name: pets_ping
    description: Ping.
    params: {g: {$ref: "#/types/Gates"}}
    http: {method: GET, path: /ping}
`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Code(f); err == nil || !strings.Contains(err.Error(), "the Go name Gates") {
		t.Errorf("err = %v", err)
	}
}
