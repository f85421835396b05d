package spec

import "testing"

func TestSingular(t *testing.T) {
	for in, want := range map[string]string{
		"CreateOrderItems": "CreateOrderItem",
		"Entries":          "Entry",
		"LineIDs":          "LineID",
		"URLs":             "URL",
		"Addresses":        "Address",
		"Batches":          "Batch",
		"Boxes":            "Box",
		"Statuses":         "Status",
		"Tags":             "Tag",
		"SKUs":             "SKU",
		"Address":          "",
		"Status":           "",
		"Analysis":         "",
		"Data":             "",
		"Items2":           "",
		"As":               "",
		"Info":             "",
	} {
		got, ok := Singular(in)
		if ok != (want != "") || got != want {
			t.Errorf("Singular(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}
