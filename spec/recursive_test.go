package spec

import (
	"slices"
	"testing"
)

// TestRecursiveTypes: the types on a reference cycle that can end are
// loaded and marked Recursive; the others are not.
func TestRecursiveTypes(t *testing.T) {
	src := `toolgen: 1
provider: demo
types:
  Node:
    type: object
    properties:
      children: {type: array, items: {$ref: "#/types/Node"}}
      next: {$ref: "#/types/Node"}
      parent: {$ref: "#/types/Node", nullable: true}
      byName: {type: object, additionalProperties: {$ref: "#/types/Node"}}
      tag: {$ref: "#/types/Tag"}
    required: [parent]
  A:
    type: object
    properties:
      b: {$ref: "#/types/B"}
    required: [b]
  B:
    type: object
    properties:
      as: {$ref: "#/types/As"}
  As:
    type: array
    items: {$ref: "#/types/A"}
  NullableSelf:
    type: [object, "null"]
    properties:
      self: {$ref: "#/types/NullableSelf"}
    required: [self]
  Tag: {type: string}
  Plain:
    type: object
    properties:
      tag: {$ref: "#/types/Tag"}
tools:
  - name: demo_walk
    description: Walk.
    params:
      node: {$ref: "#/types/Node"}
      a: {$ref: "#/types/A"}
      n: {$ref: "#/types/NullableSelf"}
      p: {$ref: "#/types/Plain"}
`
	f, err := Parse("demo.tools.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, nt := range f.Types {
		if nt.Recursive {
			got = append(got, nt.Name)
		}
	}
	if want := []string{"Node", "A", "B", "As", "NullableSelf"}; !slices.Equal(got, want) {
		t.Errorf("recursive types %q, want %q", got, want)
	}
}
