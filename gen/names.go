package gen

import "github.com/toolgen/toolgen/spec"

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
	if one, ok := spec.Singular(owner); ok && one != "" {
		_, taken := g.names[one]
		if _, check := g.names["check"+one]; !taken && !check { // a sibling's check function
			return one
		}
	}
	return owner + "Item"
}
