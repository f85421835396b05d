package spec

import (
	"slices"
	"testing"
)

// TestTitleAndIcons: a tool's title and icons are read as written; a tool
// without icons takes the module's, and `icons: []` takes none.
func TestTitleAndIcons(t *testing.T) {
	src := `toolgen: 1
provider: art
icons:
  - {src: "https://example.com/art.svg", mimeType: image/svg+xml, sizes: [any]}
tools:
  - name: art_draw
    description: Draw a picture.
    title: Draw a picture
    icons:
      - {src: "https://example.com/draw-light.png", mimeType: image/png, sizes: [48x48, 96x96], theme: light}
      - {src: "data:image/png;base64,iVBORw0KGgo=", theme: dark}
  - name: art_erase
    description: Erase a picture.
  - name: art_plain
    description: No icons.
    icons: []
`
	f, err := Parse("art.tools.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	draw, erase, plain := f.Tools[0], f.Tools[1], f.Tools[2]
	if draw.Title != "Draw a picture" || erase.Title != "" {
		t.Errorf("titles %q, %q", draw.Title, erase.Title)
	}
	if len(draw.Icons) != 2 {
		t.Fatalf("art_draw icons: %+v", draw.Icons)
	}
	if ic := draw.Icons[0]; ic.Src != "https://example.com/draw-light.png" || ic.MIMEType != "image/png" ||
		!slices.Equal(ic.Sizes, []string{"48x48", "96x96"}) || ic.Theme != "light" || ic.Pos.Line != 10 {
		t.Errorf("art_draw icon 1: %+v", ic)
	}
	if ic := draw.Icons[1]; ic.Src != "data:image/png;base64,iVBORw0KGgo=" || ic.Theme != "dark" || ic.MIMEType != "" {
		t.Errorf("art_draw icon 2: %+v", ic)
	}
	if len(erase.Icons) != 1 || erase.Icons[0].Src != "https://example.com/art.svg" || erase.Icons[0].Sizes[0] != "any" {
		t.Errorf("art_erase icons (the module's): %+v", erase.Icons)
	}
	if plain.Icons == nil || len(plain.Icons) != 0 {
		t.Errorf("art_plain icons: %#v, want an empty list", plain.Icons)
	}
}
