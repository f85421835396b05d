package diff

import (
	"os"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/spec"
)

// The stripe module's spec (10 tools, 7 named types), and a version with a
// bound tightened in every list tool and a parameter removed.
func benchSpecs(b *testing.B) (old, new []byte) {
	data, err := os.ReadFile("../../generated/stripe/stripe.tools.yaml")
	if err != nil {
		b.Fatal(err)
	}
	changed := strings.Replace(strings.ReplaceAll(string(data), "maximum: 100", "maximum: 50"), "      created_after:", "      created_afterwards:", 1)
	if changed == string(data) {
		b.Fatal("the change changed nothing")
	}
	return data, []byte(changed)
}

// BenchmarkParse is the baseline: loading the two specs, which toolgen
// diff does before it compares them.
func BenchmarkParse(b *testing.B) {
	old, new := benchSpecs(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := spec.Parse("stripe.tools.yaml", old); err != nil {
			b.Fatal(err)
		}
		if _, err := spec.Parse("stripe.tools.yaml", new); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompare compares the two loaded specs.
func BenchmarkCompare(b *testing.B) {
	old, new := benchSpecs(b)
	o, err := spec.Parse("stripe.tools.yaml", old)
	if err != nil {
		b.Fatal(err)
	}
	n, err := spec.Parse("stripe.tools.yaml", new)
	if err != nil {
		b.Fatal(err)
	}
	if len(Compare(Pair{o, n})) == 0 {
		b.Fatal("no findings")
	}
	b.ReportAllocs()
	for b.Loop() {
		Compare(Pair{o, n})
	}
}
