package stripe

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	stripego "github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/client"
	"golang.org/x/sync/errgroup"

	"github.com/toolgen/toolgen/runtime"
)

// loadRevenue reads, across every page, what ComputeRevenue needs: the
// active and past_due subscriptions (with all their items), the charges
// created in the window before now, and the open invoices. The four lists
// are read at once; the first error stops the others.
//
// Its progress messages say what Stripe returned for each list, not what
// counts: ComputeRevenue decides that, and RevenueMetrics reports it
// (revenueCounted). listed is how many records each list returned.
func loadRevenue(ctx context.Context, sc *client.API, call *runtime.Call, now time.Time) (in RevenueInput, listed revenueListed, err error) {
	var (
		mu  sync.Mutex
		sub = make(map[string][]loadedSubscription) // by status, kept apart for a stable order
	)
	g, ctx := errgroup.WithContext(ctx)
	for _, status := range []string{"active", "past_due"} {
		g.Go(func() error {
			p := &stripego.SubscriptionListParams{Status: stripego.String(status)}
			p.Context, p.Limit = ctx, stripego.Int64(100)
			var recs []loadedSubscription
			err := walk(sc.Subscriptions.List(p).Iter, func(s *stripego.Subscription) {
				recs = append(recs, toSubscriptionRecord(s))
			})
			if err != nil {
				return stripeError("listing "+status+" subscriptions", err)
			}
			// A subscription lists at most a page of its items inline.
			for i, s := range recs {
				if !s.itemsTruncated {
					continue
				}
				items, err := allItems(ctx, sc, s.ID)
				if err != nil {
					return err
				}
				recs[i].Items = items
			}
			call.Progress("Stripe returned " + plural(len(recs), "subscription", "subscriptions") + " for status " + status)
			mu.Lock()
			sub[status] = recs
			listed.Subscriptions += len(recs)
			mu.Unlock()
			return nil
		})
	}
	g.Go(func() error {
		p := &stripego.ChargeListParams{CreatedRange: &stripego.RangeQueryParams{GreaterThanOrEqual: now.Add(-CollectedWindow).Unix()}}
		p.Context, p.Limit = ctx, stripego.Int64(100)
		var recs []ChargeRecord
		err := walk(sc.Charges.List(p).Iter, func(c *stripego.Charge) {
			recs = append(recs, ChargeRecord{
				ID: c.ID, Created: time.Unix(c.Created, 0), Status: string(c.Status), Currency: string(c.Currency),
				AmountCaptured: c.AmountCaptured, AmountRefunded: c.AmountRefunded,
			})
		})
		if err != nil {
			return stripeError("listing charges", err)
		}
		call.Progress("Stripe returned " + plural(len(recs), "charge", "charges") + " for the last 30 days")
		mu.Lock()
		in.Charges = recs
		listed.Charges = len(recs)
		mu.Unlock()
		return nil
	})
	g.Go(func() error {
		p := &stripego.InvoiceListParams{Status: stripego.String("open")}
		p.Context, p.Limit = ctx, stripego.Int64(100)
		var recs []InvoiceRecord
		err := walk(sc.Invoices.List(p).Iter, func(inv *stripego.Invoice) {
			recs = append(recs, InvoiceRecord{ID: inv.ID, Status: string(inv.Status), Currency: string(inv.Currency), AmountRemaining: inv.AmountRemaining})
		})
		if err != nil {
			return stripeError("listing open invoices", err)
		}
		call.Progress("Stripe returned " + plural(len(recs), "invoice", "invoices") + " for status open")
		mu.Lock()
		in.Invoices = recs
		listed.Invoices = len(recs)
		mu.Unlock()
		return nil
	})
	if err := g.Wait(); err != nil {
		return RevenueInput{}, revenueListed{}, err
	}
	// A subscription whose status changed while the lists were read may
	// appear in both; it counts once.
	seen := make(map[string]bool)
	for _, s := range []string{"active", "past_due"} {
		for _, r := range sub[s] {
			if !seen[r.ID] {
				seen[r.ID] = true
				in.Subscriptions = append(in.Subscriptions, r.SubscriptionRecord)
			}
		}
	}
	return in, listed, nil
}

// revenueListed counts the records Stripe's lists returned (a subscription
// listed for both statuses counts twice).
type revenueListed struct{ Subscriptions, Charges, Invoices int }

// revenueCounted is the progress message that ties what the lists
// returned to the figures of the result: how many records counted, and,
// when some did not, why they can not have.
func revenueCounted(r Revenue, listed revenueListed) string {
	msg := "Counted " + plural(r.Subscriptions, "subscription", "subscriptions") + ", " +
		plural(r.Charges, "succeeded charge", "succeeded charges") + " of the last 30 days and " +
		plural(r.Invoices, "open invoice", "open invoices")
	var left []string
	if n := listed.Subscriptions - r.Subscriptions; n > 0 {
		left = append(left, plural(n, "subscription", "subscriptions")+" listed twice or neither active nor past_due")
	}
	if n := listed.Charges - r.Charges; n > 0 {
		left = append(left, plural(n, "charge", "charges")+" not succeeded or not of the last 30 days")
	}
	if n := listed.Invoices - r.Invoices; n > 0 {
		left = append(left, plural(n, "invoice", "invoices")+" not open")
	}
	if len(left) > 0 {
		msg += "; left out: " + strings.Join(left, ", ")
	}
	return msg
}

// plural writes n and the noun in the right number: "1 charge", "2 charges".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// loadedSubscription is a SubscriptionRecord and whether Stripe listed only
// part of its items inline.
type loadedSubscription struct {
	SubscriptionRecord
	itemsTruncated bool
}

func toSubscriptionRecord(s *stripego.Subscription) loadedSubscription {
	r := loadedSubscription{SubscriptionRecord: SubscriptionRecord{ID: s.ID, Status: string(s.Status)}}
	if s.Items != nil {
		for _, it := range s.Items.Data {
			r.Items = append(r.Items, toItemRecord(it))
		}
		r.itemsTruncated = s.Items.HasMore
	}
	return r
}

// allItems lists every item of a subscription.
func allItems(ctx context.Context, sc *client.API, subscription string) ([]SubscriptionItemRecord, error) {
	p := &stripego.SubscriptionItemListParams{Subscription: stripego.String(subscription)}
	p.Context, p.Limit = ctx, stripego.Int64(100)
	var items []SubscriptionItemRecord
	err := walk(sc.SubscriptionItems.List(p).Iter, func(it *stripego.SubscriptionItem) {
		items = append(items, toItemRecord(it))
	})
	if err != nil {
		return nil, stripeError(fmt.Sprintf("listing the items of subscription %s", subscription), err)
	}
	return items, nil
}

func toItemRecord(it *stripego.SubscriptionItem) SubscriptionItemRecord {
	r := SubscriptionItemRecord{Quantity: it.Quantity}
	p := it.Price
	if p == nil {
		return r
	}
	r.Price, r.Currency, r.UnitAmount, r.BillingScheme = p.ID, string(p.Currency), p.UnitAmount, string(p.BillingScheme)
	// unit_amount_decimal carries fractions of a minor unit; stripe-go
	// reads it into a float64, whose shortest decimal form is the string
	// Stripe sent (at most 12 decimals).
	if d := p.UnitAmountDecimal; d != 0 && d != float64(p.UnitAmount) {
		r.UnitAmountDecimal = strconv.FormatFloat(d, 'f', -1, 64)
	}
	if rec := p.Recurring; rec != nil {
		r.Interval, r.IntervalCount, r.UsageType = string(rec.Interval), rec.IntervalCount, string(rec.UsageType)
	}
	return r
}
