package stripe

import (
	"strconv"
	"strings"
)

// Money is an amount as results show it: the integer amount in the
// currency's minor units (cents for usd, yen for jpy), the currency's ISO
// code in lower case, and the amount written for people ("19.99 USD"), so a
// model never has to guess the unit.
type Money struct {
	AmountMinor int64  `json:"amount_minor"`
	Currency    string `json:"currency"`
	Display     string `json:"display"`
}

// NewMoney returns the Money of amountMinor minor units of currency.
func NewMoney(amountMinor int64, currency string) Money {
	currency = strings.ToLower(currency)
	return Money{AmountMinor: amountMinor, Currency: currency, Display: formatMinor(amountMinor, currency)}
}

// moneyPtr returns a Money, or nil when amountMinor is zero (for fields a
// result leaves out when there is nothing to say).
func moneyPtr(amountMinor int64, currency string) *Money {
	if amountMinor == 0 {
		return nil
	}
	m := NewMoney(amountMinor, currency)
	return &m
}

// minorDigits returns how many decimal digits a currency's minor unit has in
// Stripe's API: 0 for Stripe's zero-decimal currencies, 3 for the
// three-decimal ones, 2 for every other currency.
func minorDigits(currency string) int {
	switch strings.ToLower(currency) {
	case "bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga", "pyg", "rwf", "ugx", "vnd", "vuv", "xaf", "xof", "xpf":
		return 0
	case "bhd", "jod", "kwd", "omr", "tnd":
		return 3
	}
	return 2
}

// formatMinor writes amountMinor minor units of currency for people:
// formatMinor(1999, "usd") is "19.99 USD", formatMinor(500, "jpy") "500 JPY".
func formatMinor(amountMinor int64, currency string) string {
	digits := minorDigits(currency)
	neg := amountMinor < 0
	// Work on the unsigned magnitude so the smallest int64 formats too.
	mag := uint64(amountMinor)
	if neg {
		mag = -mag
	}
	s := strconv.FormatUint(mag, 10)
	if digits > 0 {
		if len(s) <= digits {
			s = strings.Repeat("0", digits-len(s)+1) + s
		}
		s = s[:len(s)-digits] + "." + s[len(s)-digits:]
	}
	if neg {
		s = "-" + s
	}
	if currency != "" {
		s += " " + strings.ToUpper(currency)
	}
	return s
}
