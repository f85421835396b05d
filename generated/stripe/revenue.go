package stripe

import (
	"math/big"
	"slices"
	"strings"
	"time"
)

// CollectedWindow is the period "collected" looks back over.
const CollectedWindow = 30 * 24 * time.Hour

// RevenueInput is the plain data revenue metrics are computed from: what
// the executor read from Stripe, every page of it.
type RevenueInput struct {
	// Subscriptions are the candidates for MRR (the executor reads the
	// active and past_due ones; others given here are ignored).
	Subscriptions []SubscriptionRecord
	// Charges are the candidates for "collected" (the executor reads those
	// created in the window).
	Charges []ChargeRecord
	// Invoices are the candidates for "outstanding" (the executor reads the
	// open ones).
	Invoices []InvoiceRecord
}

// SubscriptionRecord is what MRR needs of a subscription.
type SubscriptionRecord struct {
	ID     string
	Status string // active, past_due, trialing, …
	Items  []SubscriptionItemRecord
}

// SubscriptionItemRecord is what MRR needs of a subscription item and its
// price.
type SubscriptionItemRecord struct {
	Price    string
	Currency string
	// UnitAmount is the price per unit in minor units. UnitAmountDecimal,
	// when not empty, is the same as an exact decimal string that may have
	// a fraction of a minor unit ("0.5"), and takes precedence.
	UnitAmount        int64
	UnitAmountDecimal string
	Quantity          int64
	// Interval is day, week, month or year and IntervalCount how many of
	// them a billing period lasts (0 is read as 1). An empty Interval is a
	// one-time price.
	Interval      string
	IntervalCount int64
	// UsageType "metered" and BillingScheme "tiered" have no fixed amount
	// per period.
	UsageType     string
	BillingScheme string
}

// ChargeRecord is what "collected" needs of a charge.
type ChargeRecord struct {
	ID       string
	Created  time.Time
	Status   string // succeeded, pending, failed
	Currency string
	// AmountCaptured is what was actually taken (an uncaptured
	// authorisation has 0); AmountRefunded is what was given back since.
	AmountCaptured int64
	AmountRefunded int64
}

// InvoiceRecord is what "outstanding" needs of an invoice.
type InvoiceRecord struct {
	ID              string
	Status          string // draft, open, paid, uncollectible, void
	Currency        string
	AmountRemaining int64
}

// Revenue is the result of ComputeRevenue. Every amount is a map from
// currency (lower-case ISO code) to integer minor units; currencies are
// never mixed or converted.
type Revenue struct {
	// AsOf is the instant the metrics describe.
	AsOf time.Time
	// MRR is monthly recurring revenue: for every active or past_due
	// subscription, each item's unit amount × quantity, normalised to one
	// month. A year is 12 months, 52 weeks or 365 days; a period of
	// interval_count intervals is divided by interval_count. Sums are exact
	// (rational) and rounded half to even once, at the end.
	MRR map[string]int64
	// ARR is 12 × MRR, rounded from the exact MRR (so it may differ by a
	// few minor units from 12 × the rounded MRR).
	ARR map[string]int64
	// Collected is, over succeeded charges created in the CollectedWindow
	// before AsOf, the captured amount minus the amount refunded so far
	// (gross of Stripe's fees).
	Collected map[string]int64
	// Outstanding is the amount remaining on open invoices.
	Outstanding map[string]int64

	// Subscriptions, Charges and Invoices count the records that
	// contributed to MRR, Collected and Outstanding.
	Subscriptions, Charges, Invoices int
	// SkippedItems counts subscription items of counted subscriptions that
	// have no fixed amount per period (metered, tiered, one-time or with an
	// unknown interval) and so add nothing to MRR.
	SkippedItems int
}

// Currencies returns every currency that appears in r, sorted.
func (r Revenue) Currencies() []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]int64{r.MRR, r.Collected, r.Outstanding} {
		for c := range m {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	slices.Sort(out)
	return out
}

// countsForMRR reports whether a subscription in this status is recurring
// revenue. Past-due subscriptions still bill (Stripe retries the payment)
// and are counted, as in Stripe's own MRR; trials have not paid yet, and
// unpaid, paused, incomplete and canceled ones do not bill.
func countsForMRR(status string) bool { return status == "active" || status == "past_due" }

// perMonth returns the fraction of a month one interval is, or nil for an
// interval that is not recurring.
func perMonth(interval string) *big.Rat {
	switch interval {
	case "day":
		return big.NewRat(365, 12)
	case "week":
		return big.NewRat(52, 12)
	case "month":
		return big.NewRat(1, 1)
	case "year":
		return big.NewRat(1, 12)
	}
	return nil
}

// ComputeRevenue computes revenue metrics as of now from in. It is a pure
// function: no I/O, no clock.
func ComputeRevenue(now time.Time, in RevenueInput) Revenue {
	r := Revenue{
		AsOf:        now,
		MRR:         map[string]int64{},
		ARR:         map[string]int64{},
		Collected:   map[string]int64{},
		Outstanding: map[string]int64{},
	}

	mrr := map[string]*big.Rat{}
	for _, s := range in.Subscriptions {
		if !countsForMRR(s.Status) {
			continue
		}
		r.Subscriptions++
		for _, it := range s.Items {
			monthly, ok := itemMonthly(it)
			if !ok {
				r.SkippedItems++
				continue
			}
			cur := strings.ToLower(it.Currency)
			if mrr[cur] == nil {
				mrr[cur] = new(big.Rat)
			}
			mrr[cur].Add(mrr[cur], monthly)
		}
	}
	twelve := big.NewRat(12, 1)
	for cur, m := range mrr {
		r.MRR[cur] = roundHalfEven(m)
		r.ARR[cur] = roundHalfEven(new(big.Rat).Mul(m, twelve))
	}

	from := now.Add(-CollectedWindow)
	for _, c := range in.Charges {
		if c.Status != "succeeded" || c.Created.Before(from) || c.Created.After(now) {
			continue
		}
		r.Charges++
		r.Collected[strings.ToLower(c.Currency)] += c.AmountCaptured - c.AmountRefunded
	}

	for _, inv := range in.Invoices {
		if inv.Status != "open" {
			continue
		}
		r.Invoices++
		r.Outstanding[strings.ToLower(inv.Currency)] += inv.AmountRemaining
	}
	return r
}

// itemMonthly returns an item's exact amount per month, in minor units.
func itemMonthly(it SubscriptionItemRecord) (*big.Rat, bool) {
	f := perMonth(it.Interval)
	if f == nil || it.UsageType == "metered" || it.BillingScheme == "tiered" {
		return nil, false
	}
	unit := new(big.Rat).SetInt64(it.UnitAmount)
	if it.UnitAmountDecimal != "" {
		if _, ok := unit.SetString(it.UnitAmountDecimal); !ok {
			return nil, false
		}
	}
	count := it.IntervalCount
	if count <= 0 {
		count = 1
	}
	m := new(big.Rat).Mul(unit, new(big.Rat).SetInt64(it.Quantity))
	m.Mul(m, f)
	m.Quo(m, new(big.Rat).SetInt64(count))
	return m, true
}

// roundHalfEven rounds r to the nearest integer, ties to even. Results
// beyond int64 saturate (no real account comes near).
func roundHalfEven(r *big.Rat) int64 {
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int)) // truncates toward zero
	// Compare 2|m| with the denominator (always positive).
	twice := new(big.Int).Abs(m)
	twice.Lsh(twice, 1)
	switch c := twice.Cmp(r.Denom()); {
	case c > 0, c == 0 && q.Bit(0) == 1:
		if r.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	if !q.IsInt64() {
		if q.Sign() < 0 {
			return -1 << 63
		}
		return 1<<63 - 1
	}
	return q.Int64()
}
