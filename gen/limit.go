package gen

import (
	"fmt"
	"strconv"

	"github.com/toolgen/toolgen/spec"
)

// MaxSchemas is how many schemas one spec may hold: every tool counts one,
// and so does every schema in its parameters and its result (each
// parameter, nested property, array item and additionalProperties schema;
// a named type counts once, however often it is used). The code generated
// for a spec grows with this count, and the Go compiler holds a whole
// package in memory: `make scale` builds 1,000 tools of about 11 schemas
// each in 1.7 GiB and 40 s of CPU, so past the limit the package would need
// over 7 GiB and minutes to build, and toolgen stops with a located error
// instead. An API that large is split into several specs, one package each.
const MaxSchemas = 50_000

// checkSize fails, at the tool or named type that crosses MaxSchemas, when
// f holds more schemas than generated code can carry. Its cost is the
// spec's size.
func checkSize(f *spec.File) error {
	total := 0
	var at spec.Pos
	var what string
	add := func(n int, pos spec.Pos, name string) {
		if total <= MaxSchemas && total+n > MaxSchemas {
			at, what = pos, name
		}
		total += n
	}
	for _, nt := range f.Types {
		add(countSchemas(nt.Schema), nt.Pos, "the named type "+nt.Name)
	}
	for _, t := range f.Tools {
		add(1+countSchemas(t.Params)+countSchemas(t.Result), t.Pos, "the tool "+t.Name)
	}
	if total <= MaxSchemas {
		return nil
	}
	return spec.ErrorList{{Pos: at, Msg: fmt.Sprintf(
		"the spec is too large for one generated package: it holds %s schemas (each tool and each schema of its parameters and result), "+
			"more than the %s that generated code can carry (the Go compiler would need several GiB and minutes to build the package); "+
			"%s, here, passes the limit: split the tools into several specs, one package each",
		group(total), group(MaxSchemas), what)}}
}

// countSchemas counts s and the schemas nested in it; a reference to a
// named type counts one (the type is counted once, by itself).
func countSchemas(s *spec.Schema) int {
	if s == nil {
		return 0
	}
	n := 1
	if s.RefType != nil {
		return n
	}
	for _, p := range s.Properties {
		n += countSchemas(p.Schema)
	}
	n += countSchemas(s.Items)
	n += countSchemas(s.AdditionalPropertiesSchema)
	return n
}

// group writes n with thousands separators: 50,000.
func group(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
