package unions

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestPayAgreesWithJSONSchema decodes valid and invalid arguments of a tool
// of unions (by JSON type, by trying alternatives, by a discriminator,
// nullable, nested) and compares each verdict with santhosh-tekuri/
// jsonschema's over the schema literal the model is sent; a valid value
// is re-encoded by encoding/json to the same JSON.
func TestPayAgreesWithJSONSchema(t *testing.T) {
	ref := compileFormats(t, paySchema)
	card := `"payment":{"method":"card","number":"4242424242424242"}`
	tests := []struct {
		args string
		want string // a violation the decoder reports; "" when valid
	}{
		{`{` + card + `,"amount":{"cents":100}}`, ""},
		{`{"payment":{"method":"transfer","iban":"NL91ABNA0417164300"},"amount":{"percent":12.5}}`, ""},
		{`{"payment":{"number":"4242424242424242","method":"card"},"amount":{"cents":1}}`, ""}, // discriminator not first
		{`{` + card + `,"amount":{"cents":100},"reference":7}`, ""},
		{`{` + card + `,"amount":{"cents":100},"reference":"po-7"}`, ""},
		{`{` + card + `,"amount":{"cents":100},"reference":true}`, ""},
		{`{` + card + `,"amount":{"cents":100},"note":"hi"}`, ""},
		{`{` + card + `,"amount":{"cents":100},"note":["a","b"]}`, ""},
		{`{` + card + `,"amount":{"cents":100},"note":null}`, ""},
		{`{` + card + `,"amount":{"cents":100},"tip":3}`, ""},
		{`{` + card + `,"amount":{"cents":100},"tip":12}`, ""},  // not an integer ≤ 10: a number ≥ 0
		{`{` + card + `,"amount":{"cents":100},"tip":2.5}`, ""}, // a number
		{`{` + card + `,"amount":{"cents":100},"tip":"small"}`, ""},
		{`{` + card + `,"amount":{"cents":100},"tip":"2024-01-31T09:30:00Z"}`, ""},
		{`{` + card + `,"amount":{"cents":100},"size":{"w":1,"h":2}}`, ""},
		{`{` + card + `,"amount":{"cents":100},"size":{"r":1.5}}`, ""},
		{`{` + card + `,"amount":{"cents":100},"coupon":null}`, ""},
		{`{` + card + `,"amount":{"cents":100},"coupon":{"method":"card","number":"4000000000000002"}}`, ""},
		{`{` + card + `,"amount":{"cents":100},"history":[{"method":"card","number":"4242424242424242"},{"method":"transfer","iban":"NL91ABNA0417164300"}]}`, ""},

		// Discriminator.
		{`{"payment":{"method":"cash"},"amount":{"cents":1}}`, `$.payment.method: must be one of "card" or "transfer", got "cash"`},
		{`{"payment":{"number":"4242424242424242"},"amount":{"cents":1}}`, `$.payment: missing required property "method", which chooses the alternative: "card" or "transfer"`},
		{`{"payment":{"method":3},"amount":{"cents":1}}`, `$.payment.method: expected string (one of "card" or "transfer"), got number 3`},
		{`{"payment":"card","amount":{"cents":1}}`, `$.payment: expected one of Card (object) or Transfer (object), got string "card"`},
		{`{"payment":{"method":"card","number":"12"},"amount":{"cents":1}}`, `$.payment.number: must match the pattern`},
		{`{"payment":{"method":"transfer","number":"4242424242424242"},"amount":{"cents":1}}`, `$.payment: unknown property "number"`},
		{`{"payment":{"method":"card","number":"4242424242424242"},"amount":{"cents":1},"history":[{"method":"x"}]}`, `$.history[0].method: must be one of`},
		// Objects tried in order (oneOf).
		{`{` + card + `,"amount":{}}`, `$.amount: matches none of the alternatives object with cents or object with percent; object with cents: missing required property "cents"; object with percent: missing required property "percent"`},
		{`{` + card + `,"amount":{"cents":0}}`, `$.amount: matches none of the alternatives object with cents or object with percent; object with cents: at $.amount.cents: must be at least 1`},
		{`{` + card + `,"amount":{"cents":1,"percent":2}}`, `$.amount: matches none of the alternatives`},
		{`{` + card + `,"amount":[1]}`, `$.amount: expected one of object with cents or object with percent, got array`},
		{`{` + card + `,"amount":{"cents":1},"size":{"w":1,"r":2}}`, `$.size: matches none`},
		// Scalars by JSON type.
		{`{` + card + `,"amount":{"cents":1},"reference":0}`, `$.reference: must be at least 1, got 0`},
		{`{` + card + `,"amount":{"cents":1},"reference":""}`, `$.reference: must be at least 1 character long`},
		{`{` + card + `,"amount":{"cents":1},"reference":1.5}`, `$.reference: expected integer, got 1.5`},
		{`{` + card + `,"amount":{"cents":1},"reference":null}`, `$.reference: expected one of integer, string or boolean, got null`},
		{`{` + card + `,"amount":{"cents":1},"reference":{}}`, `$.reference: expected one of integer, string or boolean, got object`},
		// Nullable anyOf.
		{`{` + card + `,"amount":{"cents":1},"note":"this note is longer than twenty"}`, `$.note: must be at most 20 characters long`},
		{`{` + card + `,"amount":{"cents":1},"note":["a","b","c","d"]}`, `$.note: must have at most 3 items, got 4`},
		{`{` + card + `,"amount":{"cents":1},"note":[1]}`, `$.note[0]: expected string, got number 1`},
		{`{` + card + `,"amount":{"cents":1},"note":true}`, `$.note: expected one of string or array of string, got boolean true`},
		// Nested.
		{`{` + card + `,"amount":{"cents":1},"tip":-1.5}`, `$.tip: matches none of the alternatives integer or number; integer: expected integer, got -1.5; number: must be at least 0, got -1.5`},
		{`{` + card + `,"amount":{"cents":1},"tip":"huge"}`, `$.tip: matches none of the alternatives string "none", "small", "large" or string (date-time)`},
		{`{` + card + `,"amount":{"cents":1},"tip":false}`, `$.tip: expected one of integer, oneOf (string "none", "small", "large", string (date-time)) or number, got boolean false`},
		// Nullable single alternative.
		{`{` + card + `,"amount":{"cents":1},"coupon":{"method":"card"}}`, `$.coupon: missing required property "number"`},
		// const of arrays and objects, by JSON equality.
		{`{` + card + `,"amount":{"cents":1},"split":[50,50]}`, ""},
		{`{` + card + `,"amount":{"cents":1},"split":[5e1,50.0]}`, ""},
		{`{` + card + `,"amount":{"cents":1},"unit":{"label":"centimetre","cm":1}}`, ""},
		{`{` + card + `,"amount":{"cents":1},"rates":{"eur":1}}`, ""},
		{`{` + card + `,"amount":{"cents":1},"split":[50,49]}`, `$.split: must be [50,50], got [50,49]`},
		{`{` + card + `,"amount":{"cents":1},"split":[50]}`, `$.split: must be [50,50], got [50]`},
		{`{` + card + `,"amount":{"cents":1},"unit":{"cm":1}}`, `$.unit: must be {"cm":1,"label":"centimetre"}, got {"cm":1}`},
		{`{` + card + `,"amount":{"cents":1},"rates":{"eur":1,"usd":1}}`, `$.rates: must be {"eur":1}, got {"eur":1,"usd":1}`},
		// Required.
		{`{"amount":{"cents":1}}`, `$: missing required property "payment"`},
		{`{` + card + `}`, `$: missing required property "amount"`},
	}
	for _, tt := range tests {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(tt.args))
		if err != nil {
			t.Fatal(err)
		}
		refOK := ref.Validate(inst) == nil
		x, err := DecodePayArgs([]byte(tt.args))
		got := messages(t, err)
		if (err == nil) != refOK {
			t.Errorf("%s: decoder %q, jsonschema valid %v", tt.args, got, refOK)
			continue
		}
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.args, got)
				continue
			}
			if verr := x.Validate(); verr != nil {
				t.Errorf("%s: Validate: %v", tt.args, verr)
			}
			b, err := json.Marshal(x)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(tt.args, "null") && !sameJSON(t, b, []byte(tt.args)) {
				t.Errorf("%s: re-encoded as %s", tt.args, b)
			}
			continue
		}
		if !strings.Contains(strings.Join(got, "\n"), tt.want) {
			t.Errorf("%s: violations %q, want one with %q", tt.args, got, tt.want)
		}
	}
}

// TestPayTypes: the decoded alternatives are the Go types of the sum.
func TestPayTypes(t *testing.T) {
	x, err := DecodePayArgs([]byte(`{"payment":{"method":"transfer","iban":"NL91ABNA0417164300"},"amount":{"percent":5},` +
		`"reference":"po","note":["a"],"tip":"2024-01-31T09:30:00Z","size":{"r":2}}`))
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := x.Payment.(*Transfer); !ok || p.Iban != "NL91ABNA0417164300" {
		t.Errorf("payment %#v", x.Payment)
	}
	if a, ok := x.Amount.(*PayAmountPercent); !ok || a.Percent != 5 {
		t.Errorf("amount %#v", x.Amount)
	}
	if r, ok := x.Reference.(PayReferenceString); !ok || r != "po" {
		t.Errorf("reference %#v", x.Reference)
	}
	if n, ok := x.Note.(PayNoteList); !ok || len(n) != 1 {
		t.Errorf("note %#v", x.Note)
	}
	if tip, ok := x.Tip.(PayTipChoiceDateTime); !ok || tip != "2024-01-31T09:30:00Z" {
		t.Errorf("tip %#v", x.Tip)
	}
	if s, ok := x.Size.(*PaySizeR); !ok || s.R != 2 {
		t.Errorf("size %#v", x.Size)
	}
	var _ PayTip = PayTipChoice(PayTipChoiceEnumSmall) // a nested union's value is a value of the outer
}

// TestValidatePay: values built in Go are checked against the alternative
// they hold.
func TestValidatePay(t *testing.T) {
	x := &PayArgs{
		Payment: &Card{Method: "card", Number: "12"},
		Amount:  &PayAmountCents{Cents: 0},
		Note:    PayNoteString(strings.Repeat("n", 21)),
		Tip:     PayTipChoiceDateTime(time.Now().Format(time.Kitchen)),
		History: []Payment{&Transfer{Method: TransferMethodTransfer, Iban: "x"}, (*Card)(nil)},
	}
	got := strings.Join(messages(t, x.Validate()), "\n")
	for _, want := range []string{
		`$.payment.number: must match the pattern`,
		`$.amount.cents: must be at least 1, got 0`,
		`$.note: must be at most 20 characters long`,
		`$.tip: must be an RFC 3339 date-time`,
		`$.history[0].iban: must be at least 15 characters long`,
		`$.history[1]: must be Card, got a nil *Card`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("violations\n%s\nwant one with %q", got, want)
		}
	}
	c := &PayArgs{Payment: &Card{Method: "card", Number: "4242424242424242"}, Amount: &PayAmountCents{Cents: 1},
		Split: []float64{50, 49}, Unit: &PayUnit{Cm: 2}, Rates: map[string]int64{"eur": 1}}
	got = strings.Join(messages(t, c.Validate()), "\n")
	want := `$.split: must be [50,50], got [50,49]` + "\n" + `$.unit: must be {"cm":1,"label":"centimetre"}, got {"cm":2}`
	if got != want {
		t.Errorf("const violations\n%s\nwant\n%s", got, want)
	}
	if err := (&PayArgs{Payment: &Card{Method: "card", Number: "4242424242424242"}}).Validate(); err == nil ||
		!strings.Contains(err.Error(), `missing required property "amount"`) {
		t.Errorf("a nil required union: %v", err)
	}
}

// compileFormats is compile asserting formats, as the decoder does.
func compileFormats(t *testing.T, schema string) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("mem://schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem://schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}
