package unions

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// benchPay is a union-heavy shapes_pay call (about 2 KB): a discriminated
// payment (its method last, so the decoder scans for it), an amount chosen
// by trying two objects, scalars chosen by JSON type, a nested anyOf, and
// a history of 16 discriminated payments.
var benchPay = func() string {
	var h []string
	for i := 0; i < 8; i++ {
		h = append(h, `{"method":"card","number":"4242424242424242"}`, `{"iban":"NL91ABNA0417164300","method":"transfer"}`)
	}
	return `{"payment":{"number":"4242424242424242","method":"card"},"amount":{"percent":12.5},"reference":"PO-2024-0117",` +
		`"note":["first","second"],"tip":"small","size":{"r":2.5},"coupon":{"method":"card","number":"4000000000000002"},` +
		`"history":[` + strings.Join(h, ",") + `]}`
}()

// BenchmarkDecodeUnions compares, in one run, the generated one-pass
// decoder of a union-heavy call (decode and every check) with
// encoding/json into the same Go types and no checks at all. encoding/json
// cannot fill an interface by itself: jsonPayArgs mirrors PayArgs with a
// small UnmarshalJSON per union, written as one would by hand — peek at the
// discriminator or at the keys with a first Unmarshal, then Unmarshal the
// alternative — and gives back a PayArgs holding the same values.
func BenchmarkDecodeUnions(b *testing.B) {
	data := []byte(benchPay)
	b.Run("generated", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DecodePayArgs(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding_json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var a jsonPayArgs
			if err := json.Unmarshal(data, &a); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestBenchComparator: the encoding/json comparator decodes the benchmark
// call to the value the generated decoder gives.
func TestBenchComparator(t *testing.T) {
	want, err := DecodePayArgs([]byte(benchPay))
	if err != nil {
		t.Fatal(err)
	}
	var a jsonPayArgs
	if err := json.Unmarshal([]byte(benchPay), &a); err != nil {
		t.Fatal(err)
	}
	w, _ := json.Marshal(want)
	g, _ := json.Marshal(a.args())
	if !bytes.Equal(w, g) {
		t.Errorf("comparator decoded\n%s\nwant\n%s", g, w)
	}
}

// jsonPayArgs is PayArgs for encoding/json: each union field a type with
// an UnmarshalJSON.
type jsonPayArgs struct {
	Payment   jsonPayment   `json:"payment"`
	Amount    jsonAmount    `json:"amount"`
	Reference jsonReference `json:"reference"`
	Note      jsonNote      `json:"note"`
	Tip       jsonTip       `json:"tip"`
	Size      jsonSize      `json:"size"`
	Coupon    *Card         `json:"coupon"`
	History   []jsonPayment `json:"history"`
}

func (a *jsonPayArgs) args() *PayArgs {
	x := &PayArgs{Payment: a.Payment.v, Amount: a.Amount.v, Reference: a.Reference.v, Note: a.Note.v,
		Tip: a.Tip.v, Size: a.Size.v, Coupon: a.Coupon}
	for _, h := range a.History {
		x.History = append(x.History, h.v)
	}
	return x
}

type jsonPayment struct{ v Payment }

func (u *jsonPayment) UnmarshalJSON(b []byte) error {
	var probe struct {
		Method string `json:"method"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return err
	}
	switch probe.Method {
	case "card":
		c := new(Card)
		u.v = c
		return json.Unmarshal(b, c)
	case "transfer":
		t := new(Transfer)
		u.v = t
		return json.Unmarshal(b, t)
	}
	return errors.New("unknown method")
}

type jsonAmount struct{ v PayAmount }

func (u *jsonAmount) UnmarshalJSON(b []byte) error {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		return err
	}
	if _, ok := keys["cents"]; ok {
		c := new(PayAmountCents)
		u.v = c
		return json.Unmarshal(b, c)
	}
	p := new(PayAmountPercent)
	u.v = p
	return json.Unmarshal(b, p)
}

type jsonReference struct{ v PayReference }

func (u *jsonReference) UnmarshalJSON(b []byte) error {
	switch b[0] {
	case '"':
		var s PayReferenceString
		err := json.Unmarshal(b, &s)
		u.v = s
		return err
	case 't', 'f':
		var x PayReferenceBoolean
		err := json.Unmarshal(b, &x)
		u.v = x
		return err
	}
	var n PayReferenceInteger
	err := json.Unmarshal(b, &n)
	u.v = n
	return err
}

type jsonNote struct{ v PayNote }

func (u *jsonNote) UnmarshalJSON(b []byte) error {
	switch b[0] {
	case 'n':
		return nil
	case '[':
		var l PayNoteList
		err := json.Unmarshal(b, &l)
		u.v = l
		return err
	}
	var s PayNoteString
	err := json.Unmarshal(b, &s)
	u.v = s
	return err
}

type jsonTip struct{ v PayTip }

func (u *jsonTip) UnmarshalJSON(b []byte) error {
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		switch PayTipChoiceEnum(s) {
		case PayTipChoiceEnumNone, PayTipChoiceEnumSmall, PayTipChoiceEnumLarge:
			u.v = PayTipChoiceEnum(s)
		default:
			u.v = PayTipChoiceDateTime(s)
		}
		return nil
	}
	var i PayTipInteger
	if err := json.Unmarshal(b, &i); err == nil {
		u.v = i
		return nil
	}
	var f PayTipNumber
	err := json.Unmarshal(b, &f)
	u.v = f
	return err
}

type jsonSize struct{ v PaySize }

func (u *jsonSize) UnmarshalJSON(b []byte) error {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		return err
	}
	if _, ok := keys["w"]; ok {
		w := new(PaySizeW)
		u.v = w
		return json.Unmarshal(b, w)
	}
	r := new(PaySizeR)
	u.v = r
	return json.Unmarshal(b, r)
}
