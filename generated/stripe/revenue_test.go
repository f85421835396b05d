package stripe

import (
	"maps"
	"math/big"
	"slices"
	"testing"
	"time"
)

var revenueNow = time.Date(2024, 3, 31, 12, 0, 0, 0, time.UTC)

func monthly(cur string, unit, qty int64) SubscriptionItemRecord {
	return SubscriptionItemRecord{Currency: cur, UnitAmount: unit, Quantity: qty, Interval: "month", IntervalCount: 1}
}

func item(cur string, unit, qty int64, interval string, count int64) SubscriptionItemRecord {
	return SubscriptionItemRecord{Currency: cur, UnitAmount: unit, Quantity: qty, Interval: interval, IntervalCount: count}
}

func sub(id, status string, items ...SubscriptionItemRecord) SubscriptionRecord {
	return SubscriptionRecord{ID: id, Status: status, Items: items}
}

// Each case isolates one rule; the expectations are computed by hand in the
// comments.
func TestComputeRevenueMRRNormalisation(t *testing.T) {
	for _, c := range []struct {
		name     string
		subs     []SubscriptionRecord
		mrr, arr map[string]int64
		counted  int
		skipped  int
	}{
		{"month", []SubscriptionRecord{sub("s", "active", monthly("usd", 1000, 1))},
			// 1000/month; ARR 12000.
			map[string]int64{"usd": 1000}, map[string]int64{"usd": 12000}, 1, 0},
		{"year", []SubscriptionRecord{sub("s", "active", item("usd", 12000, 1, "year", 1))},
			// 12000/12 = 1000.
			map[string]int64{"usd": 1000}, map[string]int64{"usd": 12000}, 1, 0},
		{"week", []SubscriptionRecord{sub("s", "active", item("usd", 100, 1, "week", 1))},
			// 100 × 52/12 = 433.33… → 433; ARR 100 × 52 = 5200 exactly.
			map[string]int64{"usd": 433}, map[string]int64{"usd": 5200}, 1, 0},
		{"day", []SubscriptionRecord{sub("s", "active", item("usd", 10, 1, "day", 1))},
			// 10 × 365/12 = 304.17 → 304; ARR 3650.
			map[string]int64{"usd": 304}, map[string]int64{"usd": 3650}, 1, 0},
		{"every 3 months, quantity 2", []SubscriptionRecord{sub("s", "past_due", item("usd", 3000, 2, "month", 3))},
			// 3000 × 2 / 3 = 2000; past_due counts.
			map[string]int64{"usd": 2000}, map[string]int64{"usd": 24000}, 1, 0},
		{"every 2 weeks", []SubscriptionRecord{sub("s", "active", item("eur", 500, 1, "week", 2))},
			// 500 × 52/12 / 2 = 1083.33… → 1083; ARR 500 × 26 = 13000.
			map[string]int64{"eur": 1083}, map[string]int64{"eur": 13000}, 1, 0},
		{"every 2 years", []SubscriptionRecord{sub("s", "active", item("usd", 24000, 1, "year", 2))},
			// 24000 / 24 = 1000.
			map[string]int64{"usd": 1000}, map[string]int64{"usd": 12000}, 1, 0},
		{"interval_count 0 means 1", []SubscriptionRecord{sub("s", "active", item("usd", 700, 1, "month", 0))},
			map[string]int64{"usd": 700}, map[string]int64{"usd": 8400}, 1, 0},
		{"quantity", []SubscriptionRecord{sub("s", "active", monthly("usd", 1500, 7))},
			// 1500 × 7 = 10500.
			map[string]int64{"usd": 10500}, map[string]int64{"usd": 126000}, 1, 0},
		{"quantity 0", []SubscriptionRecord{sub("s", "active", monthly("usd", 1500, 0))},
			map[string]int64{"usd": 0}, map[string]int64{"usd": 0}, 1, 0},
		{"multi-item, two currencies, skipped items", []SubscriptionRecord{sub("s", "active",
			monthly("usd", 500, 3),          // 1500
			item("usd", 1200, 1, "year", 1), // 100
			item("EUR", 2400, 1, "year", 1), // 200 eur (currency lower-cased)
			SubscriptionItemRecord{Currency: "usd", UnitAmount: 5, Quantity: 1, Interval: "month", UsageType: "metered"},
			SubscriptionItemRecord{Currency: "usd", Quantity: 1, Interval: "month", BillingScheme: "tiered"},
			SubscriptionItemRecord{Currency: "usd", UnitAmount: 999, Quantity: 1}, // one-time
			SubscriptionItemRecord{Currency: "usd", UnitAmount: 999, Quantity: 1, Interval: "fortnight"},
		)},
			map[string]int64{"usd": 1600, "eur": 200}, map[string]int64{"usd": 19200, "eur": 2400}, 1, 4},
		{"fractional unit amount", []SubscriptionRecord{sub("s", "active",
			SubscriptionItemRecord{Currency: "usd", UnitAmount: 0, UnitAmountDecimal: "0.5", Quantity: 3, Interval: "month"},
			SubscriptionItemRecord{Currency: "usd", UnitAmountDecimal: "1000.25", Quantity: 2, Interval: "month"},
		)},
			// 0.5 × 3 + 1000.25 × 2 = 1.5 + 2000.5 = 2002 exactly; ARR 24024.
			map[string]int64{"usd": 2002}, map[string]int64{"usd": 24024}, 1, 0},
		{"statuses other than active and past_due", []SubscriptionRecord{
			sub("trial", "trialing", monthly("usd", 9999, 1)),
			sub("c", "canceled", monthly("usd", 9999, 1)),
			sub("u", "unpaid", monthly("usd", 9999, 1)),
			sub("p", "paused", monthly("usd", 9999, 1)),
			sub("i", "incomplete", monthly("usd", 9999, 1)),
			sub("ie", "incomplete_expired", monthly("usd", 9999, 1)),
			sub("a", "active", monthly("usd", 1, 1)),
		}, map[string]int64{"usd": 1}, map[string]int64{"usd": 12}, 1, 0},
		{"sums exactly before rounding", []SubscriptionRecord{
			sub("w", "active", item("usd", 100, 1, "week", 1)), // 433.33…
			sub("d", "active", item("usd", 10, 1, "day", 1)),   // 304.166…
			// exact sum 8850/12 = 737.5 → 738 (half to even: 737.5 → 738);
			// rounding each first would give 433 + 304 = 737.
		}, map[string]int64{"usd": 738}, map[string]int64{"usd": 8850}, 2, 0},
		{"half to even at the end", []SubscriptionRecord{
			sub("a", "active", SubscriptionItemRecord{Currency: "usd", UnitAmountDecimal: "2.5", Quantity: 1, Interval: "month"}),
			sub("b", "active", SubscriptionItemRecord{Currency: "eur", UnitAmountDecimal: "3.5", Quantity: 1, Interval: "month"}),
		}, map[string]int64{"usd": 2, "eur": 4}, map[string]int64{"usd": 30, "eur": 42}, 2, 0},
		{"daily yen", []SubscriptionRecord{sub("s", "active", item("jpy", 1, 1, "day", 1))},
			// 365/12 = 30.42 → 30 yen; ARR 365.
			map[string]int64{"jpy": 30}, map[string]int64{"jpy": 365}, 1, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := ComputeRevenue(revenueNow, RevenueInput{Subscriptions: c.subs})
			if !maps.Equal(r.MRR, c.mrr) {
				t.Errorf("MRR = %v, want %v", r.MRR, c.mrr)
			}
			if !maps.Equal(r.ARR, c.arr) {
				t.Errorf("ARR = %v, want %v", r.ARR, c.arr)
			}
			if r.Subscriptions != c.counted || r.SkippedItems != c.skipped {
				t.Errorf("counted %d subscriptions, skipped %d items; want %d, %d", r.Subscriptions, r.SkippedItems, c.counted, c.skipped)
			}
		})
	}
}

func TestComputeRevenueCollected(t *testing.T) {
	ago := func(d time.Duration) time.Time { return revenueNow.Add(-d) }
	day := 24 * time.Hour
	charges := []ChargeRecord{
		{ID: "ch1", Created: ago(day), Status: "succeeded", Currency: "usd", AmountCaptured: 5000},
		{ID: "ch2", Created: ago(10 * day), Status: "succeeded", Currency: "usd", AmountCaptured: 2000, AmountRefunded: 500}, // 1500
		{ID: "failed", Created: ago(day), Status: "failed", Currency: "usd", AmountCaptured: 0},
		{ID: "pending", Created: ago(day), Status: "pending", Currency: "usd", AmountCaptured: 8000},
		{ID: "old", Created: ago(31 * day), Status: "succeeded", Currency: "usd", AmountCaptured: 7000},
		{ID: "just-old", Created: ago(30*day + time.Second), Status: "succeeded", Currency: "usd", AmountCaptured: 7000},
		{ID: "edge", Created: ago(30 * day), Status: "succeeded", Currency: "usd", AmountCaptured: 3000}, // window is inclusive
		{ID: "future", Created: revenueNow.Add(time.Hour), Status: "succeeded", Currency: "usd", AmountCaptured: 9000},
		{ID: "refunded", Created: ago(2 * day), Status: "succeeded", Currency: "EUR", AmountCaptured: 1000, AmountRefunded: 1000}, // 0
		{ID: "uncaptured", Created: ago(2 * day), Status: "succeeded", Currency: "usd"},                                           // an authorisation: 0
		{ID: "gbp", Created: ago(29*day + 23*time.Hour), Status: "succeeded", Currency: "gbp", AmountCaptured: 4200},
	}
	r := ComputeRevenue(revenueNow, RevenueInput{Charges: charges})
	// usd: 5000 + 1500 + 3000 + 0 = 9500; eur 0; gbp 4200.
	if want := map[string]int64{"usd": 9500, "eur": 0, "gbp": 4200}; !maps.Equal(r.Collected, want) {
		t.Errorf("Collected = %v, want %v", r.Collected, want)
	}
	if r.Charges != 6 {
		t.Errorf("counted %d charges, want 6 (ch1, ch2, edge, refunded, uncaptured, gbp)", r.Charges)
	}
	if len(r.MRR) != 0 || len(r.Outstanding) != 0 {
		t.Errorf("MRR %v, Outstanding %v: want empty", r.MRR, r.Outstanding)
	}
}

func TestComputeRevenueOutstanding(t *testing.T) {
	r := ComputeRevenue(revenueNow, RevenueInput{Invoices: []InvoiceRecord{
		{ID: "in1", Status: "open", Currency: "usd", AmountRemaining: 10000},
		{ID: "in2", Status: "open", Currency: "usd", AmountRemaining: 2500}, // partly paid
		{ID: "in3", Status: "paid", Currency: "usd", AmountRemaining: 0},
		{ID: "in4", Status: "open", Currency: "eur", AmountRemaining: 700},
		{ID: "in5", Status: "draft", Currency: "usd", AmountRemaining: 5000},
		{ID: "in6", Status: "uncollectible", Currency: "usd", AmountRemaining: 5000},
		{ID: "in7", Status: "void", Currency: "usd", AmountRemaining: 5000},
	}})
	if want := map[string]int64{"usd": 12500, "eur": 700}; !maps.Equal(r.Outstanding, want) {
		t.Errorf("Outstanding = %v, want %v", r.Outstanding, want)
	}
	if r.Invoices != 3 {
		t.Errorf("counted %d invoices, want 3", r.Invoices)
	}
}

func TestComputeRevenueEverything(t *testing.T) {
	in := RevenueInput{
		Subscriptions: []SubscriptionRecord{
			sub("a", "active", monthly("usd", 2000, 1)),
			sub("b", "past_due", item("eur", 36000, 1, "year", 1)),
		},
		Charges:  []ChargeRecord{{Created: revenueNow.Add(-time.Hour), Status: "succeeded", Currency: "chf", AmountCaptured: 100}},
		Invoices: []InvoiceRecord{{Status: "open", Currency: "sek", AmountRemaining: 5}},
	}
	r := ComputeRevenue(revenueNow, in)
	if !r.AsOf.Equal(revenueNow) {
		t.Errorf("AsOf = %v", r.AsOf)
	}
	if got, want := r.Currencies(), []string{"chf", "eur", "sek", "usd"}; !slices.Equal(got, want) {
		t.Errorf("Currencies = %v, want %v", got, want)
	}
	if r.MRR["eur"] != 3000 || r.ARR["eur"] != 36000 || r.MRR["usd"] != 2000 {
		t.Errorf("MRR %v ARR %v", r.MRR, r.ARR)
	}
}

func TestRoundHalfEven(t *testing.T) {
	for _, c := range []struct {
		num, den int64
		want     int64
	}{
		{1, 2, 0}, {3, 2, 2}, {5, 2, 2}, {7, 2, 4}, {-1, 2, 0}, {-3, 2, -2}, {-5, 2, -2},
		{24999, 10000, 2}, {25001, 10000, 3}, {-26, 10, -3}, {-24, 10, -2}, {10, 1, 10}, {0, 7, 0},
		{1300, 3, 433}, {3650, 12, 304},
	} {
		if got := roundHalfEven(big.NewRat(c.num, c.den)); got != c.want {
			t.Errorf("roundHalfEven(%d/%d) = %d, want %d", c.num, c.den, got, c.want)
		}
	}
	huge := new(big.Rat).SetFrac(new(big.Int).Lsh(big.NewInt(1), 70), big.NewInt(1))
	if got := roundHalfEven(huge); got != 1<<63-1 {
		t.Errorf("roundHalfEven(2^70) = %d, want saturation", got)
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 open invoices", 1: "1 open invoice", 2: "2 open invoices", 100: "100 open invoices"} {
		if got := plural(n, "open invoice", "open invoices"); got != want {
			t.Errorf("plural(%d) = %q, want %q", n, got, want)
		}
	}
}
