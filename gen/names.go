package gen

import (
	"strings"

	"github.com/toolgen/toolgen/spec"
)

// itemName is the Go name of the type of the items of the array whose own
// name is owner: the items' go_name if the spec gives one, else the
// singular of owner when its last word is a plural ("CreateOrderItems"
// gives "CreateOrderItem", "Entries" gives "Entry", "URLs" gives "URL")
// and that name is still free, else owner+"Item". (Items that refer to a
// named type use the named type and never get here.)
func (g *generator) itemName(items *spec.Schema, owner string) string {
	if items.GoName != "" {
		return items.GoName
	}
	if one, ok := singular(owner); ok && one != "" {
		_, taken := g.names[one]
		if _, check := g.names["check"+one]; !taken && !check { // a sibling's check function
			return one
		}
	}
	return owner + "Item"
}

// singular returns the singular of a CamelCase name's last word, and
// whether that word read as an English plural.
func singular(name string) (string, bool) {
	for _, r := range []struct{ plural, one string }{
		{"ies", "y"},
		{"sses", "ss"}, {"shes", "sh"}, {"ches", "ch"}, {"xes", "x"}, {"zzes", "zz"},
		{"atuses", "atus"},
	} {
		if base, ok := strings.CutSuffix(name, r.plural); ok && base != "" && !endsWord(base) {
			return base + r.one, true
		}
	}
	base, ok := strings.CutSuffix(name, "s")
	if !ok || base == "" || endsWord(base) {
		return "", false
	}
	for _, not := range []string{"s", "u", "i"} {
		if strings.HasSuffix(base, not) {
			return "", false // Address, Status, Analysis
		}
	}
	return base, true
}

// endsWord reports whether a CamelCase name ends where a word ends
// before a capital, so the suffix cut off was a word of its own ("S" of
// "ItemS" is not a plural): base is empty or ends in an upper-case
// letter followed by nothing lower-case.
func endsWord(base string) bool {
	if base == "" {
		return true
	}
	last := base[len(base)-1]
	// "IDs": base "ID" ends in a capital, and the "s" is a plural of the
	// initialism; a single-letter word ("As") is not.
	if last >= 'A' && last <= 'Z' {
		n := 0
		for i := len(base) - 1; i >= 0 && base[i] >= 'A' && base[i] <= 'Z'; i-- {
			n++
		}
		return n < 2
	}
	return last < 'a' || last > 'z'
}
