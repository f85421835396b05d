package gen

import (
	"fmt"
	"strings"
)

// Shared code for repeated shapes: an API repeats its constraints (every
// `limit` is 1–100, every `expand` item a non-empty string, every id
// matches one pattern), so schemas whose checks are the same share one
// check function, declared at its first use, instead of one per use.

// sharedCheck returns the name of the check function t can share, declaring
// it for t when no schema before had the same checks.
func (g *generator) sharedCheck(t *goType, name string) (check string, owner bool) {
	key, ok := checkKey(t)
	if ok {
		if c, seen := g.checks[key]; seen {
			g.checkUses[c]++
			return c, false
		}
	}
	check = "check" + name
	if ok {
		g.checks[key] = check
		g.checkUses[check] = 1
	}
	return check, true
}

// checkKey is everything the check function of t depends on: the Go type of
// the value it checks and the schema's own constraints (not its
// description, default or nesting, which other code handles). An enum's
// check calls its own type's Valid, so enums share none (ok false).
func checkKey(t *goType) (key string, ok bool) {
	if t.kind == kEnum {
		return "", false
	}
	s := t.schema
	var b strings.Builder
	fmt.Fprintf(&b, "%s|enum%v|len%s,%s|pat%q|fmt%q|trim%v", typeKey(t), s.Enum,
		intp(s.MinLength), intp(s.MaxLength), s.Pattern, s.Format, s.Trim)
	fmt.Fprintf(&b, "|num%s,%s,%s,%s,%s", floatp(s.Minimum), floatp(s.Maximum),
		floatp(s.ExclusiveMinimum), floatp(s.ExclusiveMaximum), floatp(s.MultipleOf))
	if t.kind == kSlice {
		fmt.Fprintf(&b, "|items%s,%s,%v,%v", intp(s.MinItems), intp(s.MaxItems), s.UniqueItems, comparable(t.elem))
	}
	return b.String(), true
}

// typeKey identifies the Go type of t.
func typeKey(t *goType) string {
	if t == nil {
		return "-"
	}
	return fmt.Sprintf("%d:%s:%v[%s]", t.kind, t.name, t.elemPtr, typeKey(t.elem))
}

func intp(p *int) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

func floatp(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}
