package openapi

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/toolgen/toolgen/gen"
	"github.com/toolgen/toolgen/spec"
)

// BenchmarkStripe measures the parts of importing stripe-mock's whole
// spec3.json (about 500 operations) side by side: kin-openapi's load and
// its strict validation (which Import runs for the report's warnings),
// toolgen's import of the loaded document (conversion, naming, YAML, the
// spec loader's check), and generating the Go code from the spec.
func BenchmarkStripe(b *testing.B) {
	p := stripeSpec(b)
	ctx := context.Background()
	b.Run("kin-load", func(b *testing.B) {
		for b.Loop() {
			if _, err := Load(ctx, p); err != nil {
				b.Fatal(err)
			}
		}
	})
	doc, err := Load(ctx, p)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("kin-validate", func(b *testing.B) {
		for b.Loop() {
			_ = doc.Validate(ctx)
		}
	})
	var out []byte
	b.Run("toolgen-import", func(b *testing.B) {
		for b.Loop() {
			im := &importer{doc: doc, opts: Options{Provider: "stripe"}, report: &Report{Document: "spec3.json"}}
			im.defaults()
			im.conv = newConverter(im)
			if out, err = im.run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	f, err := spec.Parse(filepath.Join("stripe", "stripe.tools.yaml"), out)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("toolgen-generate", func(b *testing.B) {
		for b.Loop() {
			if _, err := gen.Code(f); err != nil {
				b.Fatal(err)
			}
		}
	})
}
