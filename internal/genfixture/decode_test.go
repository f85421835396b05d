package genfixture

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

func violationsOf(t *testing.T, err error) []runtime.Violation {
	t.Helper()
	if err == nil {
		return nil
	}
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("error %T (%v), want *runtime.ValidationError", err, err)
	}
	return ve.Violations
}

func show(vs []runtime.Violation) string {
	var b strings.Builder
	for _, v := range vs {
		b.WriteString("\n  " + v.String())
	}
	return b.String()
}

// minimal is the smallest valid fx_create_invoice call.
const minimal = `{"email": "ada@example.com", "items": [{"description": "Consulting", "unit_price": {"amount": 15000}}]}`

func TestDecodeValidAppliesDefaults(t *testing.T) {
	a, err := DecodeCreateInvoiceArgs([]byte(minimal))
	if err != nil {
		t.Fatal(err)
	}
	want := &CreateInvoiceArgs{
		Email:    "ada@example.com",
		Currency: CreateInvoiceCurrencyUsd, // default
		Send:     true,                     // default
		Items: []CreateInvoiceItem{{
			Description: "Consulting",
			Quantity:    1,                                     // default
			UnitPrice:   Money{Amount: 15000, Currency: "usd"}, // named type's default
		}},
	}
	if !reflect.DeepEqual(a, want) {
		t.Errorf("decoded\n%+v\nwant\n%+v", a, want)
	}
	// Optional without default: nil, not a zero value.
	if a.CustomerID != nil || a.Due != nil || a.DiscountPercent != nil || a.Items[0].Taxable != nil || a.Metadata != nil || a.Items[0].Tags != nil {
		t.Errorf("absent optionals are set: %+v", a)
	}
}

func TestDecodeFull(t *testing.T) {
	in := `{
		"email": "ada@example.com",
		"customer_id": "123e4567-e89b-12d3-a456-426614174000",
		"currency": "eur",
		"due": "2024-03-01T17:00:00+01:00",
		"service_date": "2024-02-29",
		"memo": "Thanks \u2014 \"Ada\"\n",
		"discount_percent": 12.5,
		"send": false,
		"items": [
			{"description": "Design", "quantity": 3, "unit_price": {"amount": 0, "currency": "eur"}, "tags": ["ux", "q1"], "taxable": false},
			{"description": "Build", "unit_price": {"amount": 250}}
		],
		"metadata": {"po": "PO-7", "team": "web"},
		"website": "https://example.com/clients/ada",
		"reference": null,
		"attachments": {"count": 2, "kind": "pdf", "list": [{"name": "a.pdf"}]}
	}`
	a, err := DecodeCreateInvoiceArgs([]byte(in))
	if err != nil {
		t.Fatalf("%v%s", err, show(violationsOf(t, err)))
	}
	due := time.Date(2024, 3, 1, 17, 0, 0, 0, time.FixedZone("", 3600))
	switch {
	case a.Currency != CreateInvoiceCurrencyEur || a.Send || *a.DiscountPercent != 12.5 || *a.ServiceDate != "2024-02-29":
		t.Errorf("scalars: %+v", a)
	case a.Due == nil || !a.Due.Equal(due):
		t.Errorf("due %v, want %v", a.Due, due)
	case *a.Memo != "Thanks — \"Ada\"\n":
		t.Errorf("memo %q", *a.Memo)
	case a.Reference != nil:
		t.Errorf("reference %v, want nil (null)", *a.Reference)
	case len(a.Items) != 2 || a.Items[0].Quantity != 3 || a.Items[1].Quantity != 1 || a.Items[0].UnitPrice.Currency != MoneyCurrencyEur:
		t.Errorf("items %+v", a.Items)
	case !slices.Equal(a.Items[0].Tags, []Tag{"ux", "q1"}) || a.Items[0].Taxable == nil || *a.Items[0].Taxable:
		t.Errorf("item 0 %+v", a.Items[0])
	case a.Metadata["po"] != "PO-7" || len(a.Metadata) != 2:
		t.Errorf("metadata %v", a.Metadata)
	case a.Attachments == nil || *a.Attachments.Count != 2 || string(a.Attachments.Extra["kind"]) != `"pdf"` || string(a.Attachments.Extra["list"]) != `[{"name": "a.pdf"}]`:
		t.Errorf("attachments %+v", a.Attachments)
	}
	// encoding/json agrees on everything it can represent.
	var std CreateInvoiceArgs
	if err := json.Unmarshal([]byte(in), &std); err != nil {
		t.Fatal(err)
	}
	std.Attachments.Extra = a.Attachments.Extra // json:"-"
	if !reflect.DeepEqual(a.Items[0], std.Items[0]) || !reflect.DeepEqual(a.Metadata, std.Metadata) || *a.Memo != *std.Memo || !a.Due.Equal(*std.Due) {
		t.Errorf("differs from encoding/json:\n%+v\n%+v", a, &std)
	}
}

// TestViolations covers every kind of violation, each at its path.
func TestViolations(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []runtime.Violation
	}{
		{"missing required", `{"items": [{"unit_price": {}}]}`, []runtime.Violation{
			{Path: "$.items[0].unit_price", Message: `missing required property "amount"`},
			{Path: "$.items[0]", Message: `missing required property "description"`},
			{Path: "$", Message: `missing required property "email"`},
		}},
		{"unknown and duplicate", `{"email": "a@b.co", "emial": "x", "email": "c@d.co", "items": [{"description": "x", "unit_price": {"amount": 1, "cents": 2}}]}`, []runtime.Violation{
			{Path: "$", Message: `unknown property "emial" (did you mean "email"?)`},
			{Path: "$", Message: `duplicate property "email"`},
			{Path: "$.items[0].unit_price", Message: `unknown property "cents"; known properties: "amount", "currency"`},
		}},
		{"types", `{"email": 7, "send": "yes", "discount_percent": "10", "items": {}, "metadata": [], "due": 5}`, []runtime.Violation{
			{Path: "$.email", Message: "expected string, got number 7"},
			{Path: "$.send", Message: `expected boolean, got string "yes"`},
			{Path: "$.discount_percent", Message: `expected number, got string "10"`},
			{Path: "$.items", Message: "expected array, got object"},
			{Path: "$.metadata", Message: "expected object, got array"},
			{Path: "$.due", Message: "expected string, got number 5"},
		}},
		{"null for non-nullable", `{"email": null, "items": [null]}`, []runtime.Violation{
			{Path: "$.email", Message: "expected string, got null"},
			{Path: "$.items[0]", Message: "expected object, got null"},
		}},
		{"null for optional (a hint to leave it out)", `{"email": "a@b.co", "memo": null, "send": null, "items": [{"description": "x", "quantity": null, "tags": [null], "unit_price": {"amount": 1}}]}`, []runtime.Violation{
			{Path: "$.memo", Message: "expected string, got null; leave the property out instead of sending null"},
			{Path: "$.send", Message: "expected boolean, got null; leave the property out instead of sending null"},
			{Path: "$.items[0].quantity", Message: "expected integer, got null; leave the property out instead of sending null"},
			{Path: "$.items[0].tags[0]", Message: "expected string, got null"},
		}},
		{"integers", `{"email": "a@b.co", "items": [{"description": "x", "quantity": 1.5, "unit_price": {"amount": 9223372036854775808}}, {"description": "y", "quantity": 2.0, "unit_price": {"amount": 1e2}}]}`, []runtime.Violation{
			{Path: "$.items[0].quantity", Message: "expected integer, got 1.5"},
			{Path: "$.items[0].unit_price.amount", Message: "integer 9223372036854775808 is out of range (64-bit)"},
		}},
		{"enum", `{"email": "a@b.co", "currency": "yen", "items": [{"description": "x", "unit_price": {"amount": 1, "currency": "USD"}}]}`, []runtime.Violation{
			{Path: "$.currency", Message: `must be one of "usd", "eur", "gbp", got "yen"`},
			{Path: "$.items[0].unit_price.currency", Message: `must be one of "usd", "eur", got "USD"`},
		}},
		{"string lengths count runes", `{"email": "a@b.co", "memo": "` + strings.Repeat("é", 501) + `", "items": [{"description": "", "unit_price": {"amount": 1}}, {"description": "` + strings.Repeat("日", 200) + `", "unit_price": {"amount": 1}}]}`, []runtime.Violation{
			{Path: "$.memo", Message: "must be at most 500 characters long, got 501"},
			{Path: "$.items[0].description", Message: "must be at least 1 character long, got 0"},
		}},
		{"pattern and nullable", `{"email": "a@b.co", "reference": "inv-1", "items": [{"description": "x", "unit_price": {"amount": 1}, "tags": ["ok", "Not OK", ""]}]}`, []runtime.Violation{
			{Path: "$.reference", Message: `must match the pattern "^INV-[0-9]+$", got "inv-1"`},
			{Path: "$.items[0].tags[1]", Message: `must match the pattern "^[a-z0-9-]+$", got "Not OK"`},
			{Path: "$.items[0].tags[2]", Message: "must be at least 1 character long, got 0"},
			{Path: "$.items[0].tags[2]", Message: `must match the pattern "^[a-z0-9-]+$", got ""`},
		}},
		{"formats", `{"email": "ada at example", "customer_id": "123", "due": "tomorrow", "service_date": "2023-02-29", "website": "example.com", "items": [{"description": "x", "unit_price": {"amount": 1}}]}`, []runtime.Violation{
			{Path: "$.email", Message: `must be an email address, got "ada at example"`},
			{Path: "$.customer_id", Message: `must be a UUID, such as "123e4567-e89b-12d3-a456-426614174000", got "123"`},
			{Path: "$.due", Message: `must be an RFC 3339 date-time, such as "2024-01-31T09:30:00Z", got "tomorrow"`},
			{Path: "$.service_date", Message: `must be a date written YYYY-MM-DD, such as "2024-01-31", got "2023-02-29"`},
			{Path: "$.website", Message: `must be an absolute URI, such as "https://example.com/", got "example.com"`},
		}},
		{"bounds", `{"email": "a@b.co", "discount_percent": 100.5, "attachments": {"count": 0}, "items": [{"description": "x", "quantity": 0, "unit_price": {"amount": -1}}, {"description": "y", "quantity": 1001, "unit_price": {"amount": 1}}]}`, []runtime.Violation{
			{Path: "$.discount_percent", Message: "must be at most 100, got 100.5"},
			{Path: "$.attachments.count", Message: "must be greater than 0, got 0"},
			{Path: "$.items[0].quantity", Message: "must be at least 1, got 0"},
			{Path: "$.items[0].unit_price.amount", Message: "must be at least 0, got -1"},
			{Path: "$.items[1].quantity", Message: "must be at most 1000, got 1001"},
		}},
		{"exclusive maximum and multipleOf", `{"email": "a@b.co", "discount_percent": 12.25, "attachments": {"count": 10}, "items": [{"description": "x", "unit_price": {"amount": 1}}]}`, []runtime.Violation{
			{Path: "$.discount_percent", Message: "must be a multiple of 0.5, got 12.25"},
			{Path: "$.attachments.count", Message: "must be less than 10, got 10"},
		}},
		{"array sizes and uniqueness", `{"email": "a@b.co", "items": [{"description": "x", "unit_price": {"amount": 1}, "tags": ["a", "b", "a", "c", "d", "e"]}]}`, []runtime.Violation{
			{Path: "$.items[0].tags", Message: "must have at most 5 items, got 6"},
			{Path: "$.items[0].tags", Message: "items must be unique: item 2 repeats item 0"},
		}},
		{"min items", `{"email": "a@b.co", "items": []}`, []runtime.Violation{
			{Path: "$.items", Message: "must have at least 1 item, got 0"},
		}},
		{"additional properties schema", `{"email": "a@b.co", "metadata": {"ok": "x", "long": "` + strings.Repeat("x", 101) + `", "num": 5, "ok": "again"}, "items": [{"description": "x", "unit_price": {"amount": 1}}]}`, []runtime.Violation{
			{Path: "$.metadata.long", Message: "must be at most 100 characters long, got 101"},
			{Path: "$.metadata.num", Message: "expected string, got number 5"},
			{Path: "$.metadata", Message: `duplicate property "ok"`},
		}},
		{"odd keys in paths", `{"email": "a@b.co", "metadata": {"a b": 1, "x\"y": 2}, "items": [{"description": "x", "unit_price": {"amount": 1}}]}`, []runtime.Violation{
			{Path: `$.metadata["a b"]`, Message: "expected string, got number 1"},
			{Path: `$.metadata["x\"y"]`, Message: "expected string, got number 2"},
		}},
		{"not an object", `[1, 2]`, []runtime.Violation{{Path: "$", Message: "expected object, got array"}}},
		{"malformed JSON", `{"email": "a@b.co", "items": [1 2]}`, []runtime.Violation{
			{Path: "$", Message: "malformed JSON at byte offset 32: expected ',' or ']' after array item, found '2'"},
		}},
		{"trailing garbage", minimal + ` {}`, []runtime.Violation{
			{Path: "$", Message: "malformed JSON at byte offset " + strconv.Itoa(len(minimal)+1) + ": expected end of input after the top-level value, found '{'"},
		}},
		{"free-form values nest at most 64 deep", `{"email": "a@b.co", "items": [{"description": "x", "unit_price": {"amount": 1}}], "attachments": {"deep": ` +
			strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}}`, []runtime.Violation{
			{Path: "$.attachments.deep", Message: "value nests deeper than 64 levels"},
		}},
		{"unknown keys are skipped to any depth up to the limit", `{"email": "a@b.co", "items": [{"description": "x", "unit_price": {"amount": 1}}], "zzz": {"a": [{"b": [1, {"c": null}]}]}}`, []runtime.Violation{
			{Path: "$", Message: `unknown property "zzz"; known properties: "email", "customer_id", "currency", "due", "service_date", "memo", "discount_percent", "send", "items", "metadata", "website", "reference", "attachments"`},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := DecodeCreateInvoiceArgs([]byte(c.in))
			if a == nil {
				t.Fatal("decoder returned nil args")
			}
			got := violationsOf(t, err)
			if !slices.Equal(got, c.want) {
				t.Errorf("violations:%s\nwant:%s", show(got), show(c.want))
			}
		})
	}
}

// TestValidateMatchesDecode checks values built in Go: Validate reports
// what decoding the same value's JSON reports (for every violation a Go
// value can carry).
func TestValidateMatchesDecode(t *testing.T) {
	bad := &CreateInvoiceArgs{
		Email:           "not-an-email",
		Currency:        "yen",
		DiscountPercent: ptr(100.25),
		Memo:            ptr(strings.Repeat("x", 501)),
		Reference:       ptr("nope"),
		Items: []CreateInvoiceItem{
			{Description: "", Quantity: 0, UnitPrice: Money{Amount: -5, Currency: "gbp"}, Tags: []Tag{"a", "a", "B"}},
			{Description: "ok", Quantity: 2, UnitPrice: Money{Amount: 5, Currency: "usd"}},
		},
		Metadata:    map[string]string{"b": strings.Repeat("y", 101), "a": strings.Repeat("z", 101)},
		Attachments: &CreateInvoiceAttachments{Count: ptr[int64](11)},
	}
	verr := bad.Validate()
	data, err := json.Marshal(bad)
	if err != nil {
		t.Fatal(err)
	}
	_, derr := DecodeCreateInvoiceArgs(data)
	fromValidate, fromDecode := violationsOf(t, verr), violationsOf(t, derr)
	if len(fromValidate) < 12 {
		t.Errorf("Validate found too little:%s", show(fromValidate))
	}
	// Decoding reports in document order, Validate in field order (and
	// map keys sorted): compare as sets.
	sortV := func(vs []runtime.Violation) {
		slices.SortFunc(vs, func(a, b runtime.Violation) int { return strings.Compare(a.String(), b.String()) })
	}
	sortV(fromValidate)
	sortV(fromDecode)
	if !slices.Equal(fromValidate, fromDecode) {
		t.Errorf("Validate:%s\ndecode:%s", show(fromValidate), show(fromDecode))
	}

	good, err := DecodeCreateInvoiceArgs([]byte(minimal))
	if err != nil {
		t.Fatal(err)
	}
	if err := good.Validate(); err != nil {
		t.Errorf("Validate of a decoded valid value: %v", err)
	}
	// Required slices must be there.
	good.Items = nil
	if vs := violationsOf(t, good.Validate()); len(vs) != 1 || vs[0] != (runtime.Violation{Path: "$", Message: `missing required property "items"`}) {
		t.Errorf("nil required slice: %v", vs)
	}
	var nilArgs *CreateInvoiceArgs
	if err := nilArgs.Validate(); err == nil {
		t.Error("nil args validate")
	}
}

func ptr[T any](v T) *T { return &v }

// TestDecodeNeverReturnsNil: the partial value comes back on every error,
// for the status label.
func TestDecodeNeverReturnsNil(t *testing.T) {
	for _, in := range []string{``, `null`, `{`, `[]`, `{"email": 5}`, `{"email": "a@b.co", "items": [{"description": "x", "unit_price": {"amount": 1}}], "x": 1}`} {
		a, err := DecodeCreateInvoiceArgs([]byte(in))
		if a == nil || err == nil {
			t.Errorf("%q: args %v err %v", in, a, err)
		}
	}
	// Partially decoded: what came before the error is there.
	a, _ := DecodeCreateInvoiceArgs([]byte(`{"email": "ada@example.com", "currency": "eur", "items": 7}`))
	if a.Email != "ada@example.com" || a.Currency != CreateInvoiceCurrencyEur {
		t.Errorf("partial %+v", a)
	}
}

func TestOtherTools(t *testing.T) {
	s, err := DecodeSearchArgs([]byte(`{"query": "acme"}`))
	if err != nil || s.Query != "acme" || s.Limit != 10 || s.IncludeDeleted != nil {
		t.Errorf("search %+v %v", s, err)
	}
	if _, err := DecodePingArgs([]byte(` {} `)); err != nil {
		t.Error(err)
	}
	_, err = DecodePingArgs([]byte(`{"x": 1}`))
	if vs := violationsOf(t, err); len(vs) != 1 || vs[0].Message != `unknown property "x"` {
		t.Errorf("ping with a key: %v", vs)
	}
}

// TestDecodeAllocations: decoding allocates the value and its strings and
// slices, nothing per path step or per check.
func TestDecodeAllocations(t *testing.T) {
	data := []byte(benchCall)
	allocs := testing.AllocsPerRun(50, func() {
		if _, err := DecodeCreateInvoiceArgs(data); err != nil {
			t.Fatal(err)
		}
	})
	var std CreateInvoiceArgs
	stdAllocs := testing.AllocsPerRun(50, func() {
		std = CreateInvoiceArgs{}
		if err := json.Unmarshal(data, &std); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("allocations per decode: generated %v, encoding/json %v", allocs, stdAllocs)
	if allocs > stdAllocs {
		t.Errorf("generated decoder allocates more (%v) than encoding/json (%v)", allocs, stdAllocs)
	}
}
