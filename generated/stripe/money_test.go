package stripe

import (
	"encoding/json"
	"math"
	"testing"
)

func TestFormatMinor(t *testing.T) {
	for _, c := range []struct {
		minor    int64
		currency string
		want     string
	}{
		{1999, "usd", "19.99 USD"},
		{5, "usd", "0.05 USD"},
		{0, "eur", "0.00 EUR"},
		{-250, "USD", "-2.50 USD"},
		{500, "jpy", "500 JPY"},
		{1234, "kwd", "1.234 KWD"},
		{7, "bhd", "0.007 BHD"},
		{100000000, "gbp", "1000000.00 GBP"},
		{math.MinInt64, "usd", "-92233720368547758.08 USD"},
		{12, "", "0.12"},
	} {
		if got := formatMinor(c.minor, c.currency); got != c.want {
			t.Errorf("formatMinor(%d, %q) = %q, want %q", c.minor, c.currency, got, c.want)
		}
	}
}

func TestMoneyJSON(t *testing.T) {
	b, err := json.Marshal(NewMoney(1999, "USD"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"amount_minor":1999,"currency":"usd","display":"19.99 USD"}`; string(b) != want {
		t.Fatalf("got %s, want %s", b, want)
	}
	if moneyPtr(0, "usd") != nil || moneyPtr(1, "usd") == nil {
		t.Fatal("moneyPtr: want nil for zero only")
	}
}
