package spec

import (
	"testing"
)

func TestGoNamesFromTheSpec(t *testing.T) {
	f, err := Parse("shop/shop.tools.yaml", []byte(`toolgen: 1
provider: shop
initialisms: [CRM, SKU]
types:
  line:
    go_name: OrderLine
    type: object
    properties:
      sku: {type: string}
      sku_list: {type: array, items: {type: string}}
      crms: {type: integer}
tools:
  - name: shop_sync_crm
    description: Sync the CRM.
    params:
      crm_id: {type: string}
      qty: {type: integer, go_name: Quantity}
      line: {$ref: "#/types/line", go_name: FirstLine}
  - name: shop_x
    go_name: Explain
    description: Explain.
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Initialisms; len(got) != 2 || got[0] != "CRM" || got[1] != "SKU" {
		t.Errorf("Initialisms = %v", got)
	}
	want := map[string]string{
		"tool shop_sync_crm": "SyncCRM", "tool shop_x": "Explain",
		"type line":    "OrderLine",
		"param crm_id": "CRMID", "param qty": "Quantity", "param line": "FirstLine",
		"prop sku": "SKU", "prop sku_list": "SKUList", "prop crms": "CRMs",
	}
	got := map[string]string{
		"tool shop_sync_crm": f.Tools[0].GoName, "tool shop_x": f.Tools[1].GoName,
		"type line": f.Types[0].GoName,
	}
	for _, p := range f.Tools[0].Params.Properties {
		got["param "+p.Name] = p.GoName
	}
	for _, p := range f.Types[0].Schema.Properties {
		got["prop "+p.Name] = p.GoName
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: Go name %q, want %q", k, got[k], w)
		}
	}
	// Without the module's initialisms, Go's own still apply.
	if g := GoName("sync_crm_id"); g != "SyncCrmID" {
		t.Errorf("GoName = %q", g)
	}
	if g := f.GoName("skus"); g != "SKUs" {
		t.Errorf("File.GoName(skus) = %q", g)
	}
}
