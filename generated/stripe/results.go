package stripe

import (
	"strconv"
	"time"

	stripego "github.com/stripe/stripe-go/v76"
)

// The result shapes: compact JSON with the fields a model needs to answer
// and act, never whole Stripe objects. Times are RFC 3339 in UTC; amounts
// are Money.

type customerOut struct {
	ID         string `json:"id"`
	Email      string `json:"email,omitempty"`
	Name       string `json:"name,omitempty"`
	Created    string `json:"created,omitempty"`
	Delinquent bool   `json:"delinquent,omitempty"`
	// Balance is the customer's credit (negative) or debt (positive).
	Balance *Money `json:"balance,omitempty"`
}

type customersResult struct {
	Customers []customerOut `json:"customers"`
	Count     int           `json:"count"`
	// HasMore says Stripe has more customers beyond the limit.
	HasMore bool `json:"has_more"`
}

func toCustomer(c *stripego.Customer) customerOut {
	return customerOut{
		ID: c.ID, Email: c.Email, Name: c.Name, Created: unixTime(c.Created), Delinquent: c.Delinquent,
		Balance: moneyPtr(c.Balance, string(c.Currency)),
	}
}

type paymentOut struct {
	ID       string `json:"id"`
	Created  string `json:"created,omitempty"`
	Amount   Money  `json:"amount"`
	Refunded *Money `json:"refunded,omitempty"`
	// Status is succeeded, pending or failed.
	Status         string `json:"status"`
	Captured       bool   `json:"captured"`
	Customer       string `json:"customer,omitempty"`
	Description    string `json:"description,omitempty"`
	ReceiptEmail   string `json:"receipt_email,omitempty"`
	Invoice        string `json:"invoice,omitempty"`
	PaymentIntent  string `json:"payment_intent,omitempty"`
	FailureMessage string `json:"failure_message,omitempty"`
}

type paymentsResult struct {
	Payments []paymentOut `json:"payments"`
	Count    int          `json:"count"`
	HasMore  bool         `json:"has_more"`
}

func toPayment(c *stripego.Charge) paymentOut {
	p := paymentOut{
		ID: c.ID, Created: unixTime(c.Created), Amount: NewMoney(c.Amount, string(c.Currency)),
		Refunded: moneyPtr(c.AmountRefunded, string(c.Currency)), Status: string(c.Status), Captured: c.Captured,
		Description: c.Description, ReceiptEmail: c.ReceiptEmail, FailureMessage: c.FailureMessage,
	}
	if c.Customer != nil {
		p.Customer = c.Customer.ID
	}
	if c.Invoice != nil {
		p.Invoice = c.Invoice.ID
	}
	if c.PaymentIntent != nil {
		p.PaymentIntent = c.PaymentIntent.ID
	}
	return p
}

type subscriptionItemOut struct {
	Price     string `json:"price,omitempty"`
	Product   string `json:"product,omitempty"`
	Nickname  string `json:"nickname,omitempty"`
	Quantity  int64  `json:"quantity"`
	UnitPrice *Money `json:"unit_price,omitempty"`
	// Every is the billing period: "month", "3 months", "year".
	Every string `json:"every,omitempty"`
}

type subscriptionOut struct {
	ID                string                `json:"id"`
	Customer          string                `json:"customer,omitempty"`
	Status            string                `json:"status"`
	Items             []subscriptionItemOut `json:"items"`
	Created           string                `json:"created,omitempty"`
	CurrentPeriodEnd  string                `json:"current_period_end,omitempty"`
	TrialEnd          string                `json:"trial_end,omitempty"`
	CancelAtPeriodEnd bool                  `json:"cancel_at_period_end,omitempty"`
	CancelAt          string                `json:"cancel_at,omitempty"`
	CollectionMethod  string                `json:"collection_method,omitempty"`
	LatestInvoice     string                `json:"latest_invoice,omitempty"`
}

type subscriptionsResult struct {
	Subscriptions []subscriptionOut `json:"subscriptions"`
	Count         int               `json:"count"`
	HasMore       bool              `json:"has_more"`
}

func toSubscription(s *stripego.Subscription) subscriptionOut {
	o := subscriptionOut{
		ID: s.ID, Status: string(s.Status), Items: []subscriptionItemOut{}, Created: unixTime(s.Created),
		CurrentPeriodEnd: unixTime(s.CurrentPeriodEnd), TrialEnd: unixTime(s.TrialEnd),
		CancelAtPeriodEnd: s.CancelAtPeriodEnd, CancelAt: unixTime(s.CancelAt), CollectionMethod: string(s.CollectionMethod),
	}
	if s.Customer != nil {
		o.Customer = s.Customer.ID
	}
	if s.LatestInvoice != nil {
		o.LatestInvoice = s.LatestInvoice.ID
	}
	if s.Items != nil {
		for _, it := range s.Items.Data {
			o.Items = append(o.Items, toSubscriptionItem(it))
		}
	}
	return o
}

func toSubscriptionItem(it *stripego.SubscriptionItem) subscriptionItemOut {
	o := subscriptionItemOut{Quantity: it.Quantity}
	p := it.Price
	if p == nil {
		return o
	}
	o.Price, o.Nickname = p.ID, p.Nickname
	if p.Product != nil {
		o.Product = p.Product.ID
	}
	if p.BillingScheme != stripego.PriceBillingSchemeTiered {
		m := NewMoney(p.UnitAmount, string(p.Currency))
		o.UnitPrice = &m
	}
	if r := p.Recurring; r != nil {
		o.Every = every(string(r.Interval), r.IntervalCount)
	}
	return o
}

// every writes a billing period for people: "month", "3 months".
func every(interval string, count int64) string {
	if count <= 1 {
		return interval
	}
	return strconv.FormatInt(count, 10) + " " + interval + "s"
}

type paymentLinkLineOut struct {
	Price     string `json:"price"`
	Quantity  int64  `json:"quantity"`
	UnitPrice *Money `json:"unit_price,omitempty"`
	Name      string `json:"name,omitempty"`
}

type paymentLinkResult struct {
	ID     string               `json:"id"`
	URL    string               `json:"url"`
	Active bool                 `json:"active"`
	Lines  []paymentLinkLineOut `json:"line_items"`
	// Total is the sum of the ad-hoc lines, when every line is ad hoc.
	Total *Money `json:"total,omitempty"`
}

type invoiceResult struct {
	ID              string `json:"id"`
	Number          string `json:"number,omitempty"`
	Status          string `json:"status"`
	Customer        string `json:"customer"`
	CustomerEmail   string `json:"customer_email,omitempty"`
	CustomerCreated bool   `json:"customer_created,omitempty"`
	Total           Money  `json:"total"`
	AmountDue       Money  `json:"amount_due"`
	DueDate         string `json:"due_date,omitempty"`
	URL             string `json:"hosted_invoice_url,omitempty"`
	Lines           int    `json:"lines"`
	Sent            bool   `json:"sent"`
}

type revenueCurrencyOut struct {
	Currency     string `json:"currency"`
	MRR          Money  `json:"mrr"`
	ARR          Money  `json:"arr"`
	Collected30d Money  `json:"collected_30d"`
	Outstanding  Money  `json:"outstanding"`
}

type revenueResult struct {
	AsOf          string               `json:"as_of"`
	ByCurrency    []revenueCurrencyOut `json:"by_currency"`
	Subscriptions int                  `json:"subscriptions_counted"`
	Charges       int                  `json:"charges_counted"`
	OpenInvoices  int                  `json:"open_invoices"`
	SkippedItems  int                  `json:"items_without_fixed_price,omitempty"`
	Method        string               `json:"method"`
}

// revenueMethod tells the model, in one line, what the numbers mean.
const revenueMethod = "MRR: active and past_due subscriptions (trials excluded), unit price x quantity normalised to a month, discounts and metered usage not included; ARR = 12 x MRR; collected_30d: succeeded charges of the last 30 days minus refunds, before Stripe fees; outstanding: amount remaining on open invoices. Amounts are per currency, never converted."

func toRevenueResult(r Revenue) revenueResult {
	out := revenueResult{
		AsOf: r.AsOf.UTC().Format(time.RFC3339), ByCurrency: []revenueCurrencyOut{},
		Subscriptions: r.Subscriptions, Charges: r.Charges, OpenInvoices: r.Invoices, SkippedItems: r.SkippedItems,
		Method: revenueMethod,
	}
	for _, c := range r.Currencies() {
		out.ByCurrency = append(out.ByCurrency, revenueCurrencyOut{
			Currency: c, MRR: NewMoney(r.MRR[c], c), ARR: NewMoney(r.ARR[c], c),
			Collected30d: NewMoney(r.Collected[c], c), Outstanding: NewMoney(r.Outstanding[c], c),
		})
	}
	return out
}
