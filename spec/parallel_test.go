package spec

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/scale"
)

// loadBoth parses data with the tools read in parallel (and a large file's
// YAML in chunks) and read in turn on one goroutine; both must give the same
// model and the same errors.
func loadBoth(t *testing.T, name string, data []byte) {
	t.Helper()
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	pf, perr := Parse("x/y/spec.tools.yaml", data)
	prev := runtime.GOMAXPROCS(1)
	sf, serr := Parse("x/y/spec.tools.yaml", data)
	runtime.GOMAXPROCS(prev)
	if fmt.Sprint(perr) != fmt.Sprint(serr) {
		t.Fatalf("%s: the errors differ:\nin parallel:\n%v\nin turn:\n%v", name, perr, serr)
	}
	if !reflect.DeepEqual(pf, sf) {
		t.Fatalf("%s: the models differ", name)
	}
}

// withTools is scale.Spec(n) with text added to every k-th tool (after its
// name line).
func withTools(n, k int, text func(i int) string) []byte {
	lines := strings.SplitAfter(string(scale.Spec(n)), "\n")
	var b strings.Builder
	tool := 0
	for _, l := range lines {
		b.WriteString(l)
		if strings.HasPrefix(l, "  - name: ") {
			if tool%k == 0 {
				b.WriteString(text(tool))
			}
			tool++
		}
	}
	return []byte(b.String())
}

func TestParallelTools(t *testing.T) {
	cases := map[string][]byte{
		"scale":  scale.Spec(300),
		"scale1": scale.Spec(parallelFrom),
		// Problems in many tools: the errors come in one order.
		"errors": withTools(300, 7, func(i int) string {
			return []string{
				"    colour: red\n",
				"    result: {$ref: \"#/types/Missing\"}\n",
				"    status_fallback: 3\n",
				"    examples: [{nope: 1}]\n",
				"    batch: {max_items: 0}\n",
				"    go_name: ListCustomers\n",
				"    prompt: \"{x}\"\n",
			}[i%7]
		}),
		// The same tool name twice, far apart.
		"duplicate": withTools(300, 150, func(i int) string { return "    go_name: Same\n" }),
		// An anchor in one tool, aliases in others.
		"aliases": withTools(300, 5, func(i int) string {
			if i == 0 {
				return "    title: &t Shared title\n"
			}
			return "    title: *t\n"
		}),
		// More alias expansions than a file may make: the error stops the
		// walk where reading in turn stops it.
		"too many aliases": withTools(300, 1, func(i int) string {
			if i == 0 {
				return "    title: &t T\n    icons: []\n"
			}
			return "    examples: [{x: [" + strings.Repeat("*t, ", 40) + "*t]}]\n"
		}),
	}
	for name, data := range cases {
		loadBoth(t, name, data)
	}
}
