package diff

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/scale"
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

// BenchmarkCompareScale compares specs of 100 and 1,000 tools shaped like
// an imported API (internal/scale) with themselves, every rule running on
// every pair: the time per tool should stay flat as the spec grows.
func BenchmarkCompareScale(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			f, err := spec.Parse("big.tools.yaml", scale.Spec(n))
			if err != nil {
				b.Fatal(err)
			}
			g, _ := spec.Parse("big.tools.yaml", scale.Spec(n))
			b.ReportAllocs()
			for b.Loop() {
				if fs := Compare(Pair{f, g}); len(fs) != 0 {
					b.Fatal(fs[0])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/tool")
		})
	}
}
