package runtime

import "testing"

func TestInvalidArgsRejected(t *testing.T) {
	ia := &InvalidArgs{Violations: []Violation{
		{Path: "$.shipping", Message: "must be one of standard, express"},
		{Path: "$.lines[2].sku", Message: "is required"},
		{Path: `$["gift-note"]`, Message: "too long"},
	}}
	for name, want := range map[string]bool{
		"shipping": true, "lines": true, "gift-note": true,
		"ship": false, "shippingx": false, "email": false, "line": false,
	} {
		if got := ia.Rejected(name); got != want {
			t.Errorf("Rejected(%q) = %v, want %v", name, got, want)
		}
	}
	keys := &InvalidArgs{Violations: []Violation{{Path: "$", Message: `missing required property "items"`}, {Path: "$", Message: `unknown property "x"`}}}
	if keys.Rejected("email") {
		t.Error("a missing or unknown key rejects the values that are there")
	}
	if (*InvalidArgs)(nil).Rejected("shipping") {
		t.Error("nil rejects")
	}
	if !(&InvalidArgs{}).Rejected("email") || !(&InvalidArgs{Violations: []Violation{{Path: "$"}}}).Rejected("email") {
		t.Error("an error without a place, or at $, must reject everything")
	}

	// A batch item's own violations, re-rooted.
	b := &InvalidArgs{Violations: []Violation{{Path: "$.items[0].limit", Message: "m"}, {Path: "$.items[1].email", Message: "m"}}}
	it, ok := b.item(0, "v").(*InvalidArgs)
	if !ok || it.Args != "v" || len(it.Violations) != 1 || it.Violations[0].Path != "$.limit" || !it.Rejected("limit") || it.Rejected("email") {
		t.Errorf("item 0: %#v", b.item(0, "v"))
	}
	if got := (&InvalidArgs{Violations: []Violation{{Path: "$.items[1].x"}}}).item(0, "v"); got != "v" {
		t.Errorf("an item without violations: %#v", got)
	}
	if it := (&InvalidArgs{Violations: []Violation{{Path: "$"}}}).item(0, "v").(*InvalidArgs); !it.Rejected("email") {
		t.Error("a violation of the whole call rejects every value")
	}
	if got := (&InvalidArgs{Violations: []Violation{{Path: "$.items", Message: "must have at most 3 items"}}}).item(0, "v"); got != "v" {
		t.Errorf("a violation of the items list is not about an item's values: %#v", got)
	}
}
