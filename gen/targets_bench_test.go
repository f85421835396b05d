package gen

import (
	"fmt"
	"testing"

	"github.com/toolgen/toolgen/internal/scale"
	"github.com/toolgen/toolgen/spec"
)

// BenchmarkCheckTargets runs the generate-time portability check over the
// 1,000-tool spec of internal/scale, as written (no targets: every dialect,
// plain mode, errors only) and with every dialect named in targets (every
// mode, warnings too), beside Code on the same spec, to show the check stays
// a small part of generating:
//
//	go test ./gen -run '^$' -bench 'CheckTargets|Code/tools=1000' -benchmem
func BenchmarkCheckTargets(b *testing.B) {
	const n = 1000
	for _, named := range []bool{false, true} {
		f, err := spec.Parse("big.tools.yaml", scale.Spec(n))
		if err != nil {
			b.Fatal(err)
		}
		if named {
			for _, d := range spec.Dialects {
				f.Targets = append(f.Targets, spec.Target{Dialect: d})
			}
		}
		b.Run(fmt.Sprintf("tools=%d/targets=%v", n, named), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := checkTargets(f); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/tool")
		})
	}
}
