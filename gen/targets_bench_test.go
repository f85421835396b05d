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
// a small part of generating. memo=cold computes the tools' schema literals
// too (as when the check asks for them first); memo=warm takes them from a
// memo that has them (as when the code has): the check alone.
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
		for _, warm := range []bool{false, true} {
			var memo *schemaMemo
			name := "cold"
			if warm {
				memo, name = newSchemaMemo(), "warm"
				for _, t := range f.Tools {
					if _, err := memo.json(t.Params); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.Run(fmt.Sprintf("tools=%d/targets=%v/memo=%s", n, named, name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := checkTargetsWith(f, memo); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/tool")
			})
		}
	}
}
