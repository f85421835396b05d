// This file holds the hand-written executors of the stripe module. toolgen
// created it once and only ever appends stubs for new tools; edit freely.

package stripe

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	stripego "github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/client"

	"github.com/toolgen/toolgen/runtime"
)

// Tools runs the stripe module's tools against the calling user's Stripe
// account. Keys is required; every other field has a working zero value.
// A Tools is safe for concurrent use and must not be copied after first use.
type Tools struct {
	// Keys gives the calling user's Stripe key. Nil: every call fails with
	// the gate message.
	Keys KeySource
	// BaseURL is Stripe's API base URL. Empty: https://api.stripe.com.
	// Tests point it at stripe-mock.
	BaseURL string
	// HTTPClient sends the requests. Nil: a client with an 80-second
	// timeout (the call's context still bounds every request).
	HTTPClient *http.Client
	// MaxNetworkRetries is how often stripe-go retries a request that failed
	// for a transient reason. Zero: stripe-go's default (2); negative: never.
	MaxNetworkRetries int
	// Logger receives stripe-go's logs. Nil: none.
	Logger *slog.Logger
	// Now is the clock of revenue metrics' 30-day window. Nil: time.Now.
	Now func() time.Time

	once     sync.Once
	backends *stripego.Backends
}

var _ Executor = (*Tools)(nil)

// ListCustomers runs the stripe_list_customers tool: List recent customers, newest first; filter by exact email.
func (t *Tools) ListCustomers(ctx context.Context, call *runtime.Call, args *ListCustomersArgs) (runtime.Result, error) {
	sc, err := t.client(ctx, call)
	if err != nil {
		return runtime.Result{}, err
	}
	p := &stripego.CustomerListParams{Email: optString(args.Email)}
	p.Context, p.Limit = ctx, pageSize(int64(args.Limit))
	cs, more, err := take[*stripego.Customer](sc.Customers.List(p).Iter, int(args.Limit))
	if err != nil {
		return runtime.Result{}, stripeError("listing customers", err)
	}
	out := customersResult{Customers: make([]customerOut, 0, len(cs)), Count: len(cs), HasMore: more}
	for _, c := range cs {
		out.Customers = append(out.Customers, toCustomer(c))
	}
	return runtime.JSON(out)
}

// ListPayments runs the stripe_list_payments tool: List recent payments (charges), newest first, with status and refunds.
func (t *Tools) ListPayments(ctx context.Context, call *runtime.Call, args *ListPaymentsArgs) (runtime.Result, error) {
	p := &stripego.ChargeListParams{Customer: optString(args.Customer)}
	if args.CreatedAfter != nil {
		day, err := time.Parse(time.DateOnly, string(*args.CreatedAfter))
		if err != nil {
			return runtime.Result{}, invalidArgs(ToolListPayments, runtime.Violation{Path: "$.created_after", Message: "expected a date as YYYY-MM-DD"})
		}
		p.CreatedRange = &stripego.RangeQueryParams{GreaterThanOrEqual: day.Unix()}
	}
	sc, err := t.client(ctx, call)
	if err != nil {
		return runtime.Result{}, err
	}
	p.Context, p.Limit = ctx, pageSize(int64(args.Limit))
	cs, more, err := take[*stripego.Charge](sc.Charges.List(p).Iter, int(args.Limit))
	if err != nil {
		return runtime.Result{}, stripeError("listing payments", err)
	}
	out := paymentsResult{Payments: make([]paymentOut, 0, len(cs)), Count: len(cs), HasMore: more}
	for _, c := range cs {
		out.Payments = append(out.Payments, toPayment(c))
	}
	return runtime.JSON(out)
}

// ListSubscriptions runs the stripe_list_subscriptions tool: List subscriptions with their prices and renewal dates; filter by status or customer.
func (t *Tools) ListSubscriptions(ctx context.Context, call *runtime.Call, args *ListSubscriptionsArgs) (runtime.Result, error) {
	sc, err := t.client(ctx, call)
	if err != nil {
		return runtime.Result{}, err
	}
	p := &stripego.SubscriptionListParams{Customer: optString(args.Customer), Price: optString(args.Price)}
	if args.Status != nil {
		p.Status = stripego.String(string(*args.Status))
	}
	p.Context, p.Limit = ctx, pageSize(int64(args.Limit))
	ss, more, err := take[*stripego.Subscription](sc.Subscriptions.List(p).Iter, int(args.Limit))
	if err != nil {
		return runtime.Result{}, stripeError("listing subscriptions", err)
	}
	out := subscriptionsResult{Subscriptions: make([]subscriptionOut, 0, len(ss)), Count: len(ss), HasMore: more}
	for _, s := range ss {
		out.Subscriptions = append(out.Subscriptions, toSubscription(s))
	}
	return runtime.JSON(out)
}

// CreatePaymentLink runs the stripe_create_payment_link tool: Create a shareable checkout link for existing prices or ad-hoc items.
//
// Payment links on API version 2023-10-16 take existing prices only, so an
// ad-hoc line (amount_minor, currency, name) first becomes a one-time price
// with an inline product.
func (t *Tools) CreatePaymentLink(ctx context.Context, call *runtime.Call, args *CreatePaymentLinkArgs) (runtime.Result, error) {
	if vs := checkPaymentLinkItems(args.LineItems); len(vs) > 0 {
		return runtime.Result{}, invalidArgs(ToolCreatePaymentLink, vs...)
	}
	sc, err := t.client(ctx, call)
	if err != nil {
		return runtime.Result{}, err
	}
	out := paymentLinkResult{Lines: make([]paymentLinkLineOut, 0, len(args.LineItems))}
	params := &stripego.PaymentLinkParams{}
	var total int64
	adHoc := 0
	for i, li := range args.LineItems {
		line := paymentLinkLineOut{Quantity: li.Quantity}
		if li.Price != nil {
			line.Price = string(*li.Price)
		} else {
			pp := &stripego.PriceParams{
				Currency:    optString(li.Currency),
				UnitAmount:  stripego.Int64(*li.AmountMinor),
				ProductData: &stripego.PriceProductDataParams{Name: stripego.String(*li.Name)},
			}
			pp.Context = ctx
			setIdempotency(&pp.Params, call, "price-"+strconv.Itoa(i), args)
			price, err := sc.Prices.New(pp)
			if err != nil {
				return runtime.Result{}, stripeError(fmt.Sprintf("creating the price of line_items[%d]", i), err)
			}
			line.Price, line.Name = price.ID, *li.Name
			m := NewMoney(*li.AmountMinor, string(*li.Currency))
			line.UnitPrice = &m
			total += *li.AmountMinor * li.Quantity
			adHoc++
		}
		params.LineItems = append(params.LineItems, &stripego.PaymentLinkLineItemParams{
			Price: stripego.String(line.Price), Quantity: stripego.Int64(li.Quantity),
		})
		out.Lines = append(out.Lines, line)
	}
	if args.AfterCompletionURL != nil {
		params.AfterCompletion = &stripego.PaymentLinkAfterCompletionParams{
			Type:     stripego.String("redirect"),
			Redirect: &stripego.PaymentLinkAfterCompletionRedirectParams{URL: stripego.String(*args.AfterCompletionURL)},
		}
	}
	params.Context = ctx
	setIdempotency(&params.Params, call, "payment-link", args)
	pl, err := sc.PaymentLinks.New(params)
	if err != nil {
		return runtime.Result{}, stripeError("creating the payment link", err)
	}
	out.ID, out.URL, out.Active = pl.ID, pl.URL, pl.Active
	if adHoc == len(args.LineItems) {
		m := NewMoney(total, string(*args.LineItems[0].Currency))
		out.Total = &m
	}
	return runtime.JSON(out)
}

// checkPaymentLinkItems checks what the schema cannot: each line is either
// a price or an ad-hoc item, and ad-hoc lines share one currency.
func checkPaymentLinkItems(items []PaymentLinkItem) []runtime.Violation {
	var vs []runtime.Violation
	var currency Currency
	first := -1
	for i, li := range items {
		path := "$.line_items[" + strconv.Itoa(i) + "]"
		var adHoc, missing []string
		for _, f := range []struct {
			name string
			set  bool
		}{{"amount_minor", li.AmountMinor != nil}, {"currency", li.Currency != nil}, {"name", li.Name != nil}} {
			if f.set {
				adHoc = append(adHoc, f.name)
			} else {
				missing = append(missing, f.name)
			}
		}
		switch {
		case li.Price != nil && len(adHoc) > 0:
			vs = append(vs, runtime.Violation{Path: path, Message: "give either price or amount_minor, currency and name, not both (found price and " + strings.Join(adHoc, ", ") + ")"})
		case li.Price == nil && len(missing) > 0:
			vs = append(vs, runtime.Violation{Path: path, Message: "missing " + strings.Join(missing, ", ") + " (a line without price needs amount_minor, currency and name)"})
		case li.Price == nil:
			switch {
			case first < 0:
				currency, first = *li.Currency, i
			case *li.Currency != currency:
				vs = append(vs, runtime.Violation{Path: path + ".currency", Message: fmt.Sprintf(
					"a payment link has one currency: line_items[%d] is %s, this line is %s", first, currency, *li.Currency)})
			}
		}
	}
	return vs
}

// CreateInvoice runs the stripe_create_invoice tool: Create an invoice for a customer and email it, due in days_until_due days.
//
// The invoice is created empty (pending invoice items of the customer stay
// out), the lines are added to it, then it is finalized and sent. If adding
// a line fails, the draft is deleted so that no half-made invoice is left.
func (t *Tools) CreateInvoice(ctx context.Context, call *runtime.Call, args *CreateInvoiceArgs) (runtime.Result, error) {
	var vs []runtime.Violation
	switch {
	case args.CustomerID == nil && args.CustomerEmail == nil:
		vs = append(vs, runtime.Violation{Path: "$", Message: "give customer_id or customer_email"})
	case args.CustomerID != nil && args.CustomerEmail != nil:
		vs = append(vs, runtime.Violation{Path: "$", Message: "give customer_id or customer_email, not both"})
	}
	if args.CustomerName != nil && args.CustomerEmail == nil {
		vs = append(vs, runtime.Violation{Path: "$.customer_name", Message: "only used with customer_email, to name a new customer"})
	}
	if len(vs) > 0 {
		return runtime.Result{}, invalidArgs(ToolCreateInvoice, vs...)
	}
	sc, err := t.client(ctx, call)
	if err != nil {
		return runtime.Result{}, err
	}
	out := invoiceResult{Lines: len(args.Items)}
	customer := ""
	if args.CustomerID != nil {
		customer = string(*args.CustomerID)
	} else {
		customer, out.CustomerCreated, err = customerByEmail(ctx, sc, call, args)
		if err != nil {
			return runtime.Result{}, err
		}
	}
	currency := string(args.Currency)

	ip := &stripego.InvoiceParams{
		Customer:                    stripego.String(customer),
		Currency:                    stripego.String(currency),
		CollectionMethod:            stripego.String(string(stripego.InvoiceCollectionMethodSendInvoice)),
		DaysUntilDue:                stripego.Int64(args.DaysUntilDue),
		AutoAdvance:                 stripego.Bool(false),
		PendingInvoiceItemsBehavior: stripego.String("exclude"),
		Description:                 args.Memo,
	}
	ip.Context = ctx
	setIdempotency(&ip.Params, call, "invoice", args)
	inv, err := sc.Invoices.New(ip)
	if err != nil {
		return runtime.Result{}, stripeError("creating the invoice", err)
	}
	for i, line := range args.Items {
		// unit_amount_decimal with quantity is accepted by every API version
		// (unit_amount is not, on the newest); whole minor units are exact.
		pp := &stripego.InvoiceItemParams{
			Customer:          stripego.String(customer),
			Invoice:           stripego.String(inv.ID),
			Currency:          stripego.String(currency),
			Description:       stripego.String(line.Description),
			UnitAmountDecimal: stripego.Float64(float64(line.AmountMinor)),
			Quantity:          stripego.Int64(line.Quantity),
		}
		pp.Context = ctx
		setIdempotency(&pp.Params, call, "item-"+strconv.Itoa(i), args)
		if _, err := sc.InvoiceItems.New(pp); err != nil {
			err = stripeError(fmt.Sprintf("adding items[%d] to invoice %s", i, inv.ID), err)
			dp := &stripego.InvoiceParams{}
			dp.Context = context.WithoutCancel(ctx)
			_, derr := sc.Invoices.Del(inv.ID, dp)
			if te, ok := err.(*runtime.ToolError); ok {
				if derr != nil {
					te.Message += " The draft invoice " + inv.ID + " could not be deleted and is left in Stripe."
				} else {
					te.Message += " The draft invoice was deleted; nothing was sent."
				}
			}
			return runtime.Result{}, err
		}
	}
	id := inv.ID
	if args.Send {
		fp := &stripego.InvoiceFinalizeInvoiceParams{AutoAdvance: stripego.Bool(false)}
		fp.Context = ctx
		setIdempotency(&fp.Params, call, "finalize", args)
		if _, err := sc.Invoices.FinalizeInvoice(id, fp); err != nil {
			return runtime.Result{}, stripeError("finalizing draft invoice "+id, err)
		}
		sp := &stripego.InvoiceSendInvoiceParams{}
		sp.Context = ctx
		setIdempotency(&sp.Params, call, "send", args)
		if inv, err = sc.Invoices.SendInvoice(id, sp); err != nil {
			return runtime.Result{}, stripeError("sending finalized invoice "+id, err)
		}
		out.Sent = true
	} else {
		gp := &stripego.InvoiceParams{}
		gp.Context = ctx
		if inv, err = sc.Invoices.Get(id, gp); err != nil {
			return runtime.Result{}, stripeError("reading back draft invoice "+id, err)
		}
	}
	out.ID, out.Number, out.Status, out.Customer = inv.ID, inv.Number, string(inv.Status), customer
	out.CustomerEmail = inv.CustomerEmail
	if out.CustomerEmail == "" && args.CustomerEmail != nil {
		out.CustomerEmail = string(*args.CustomerEmail)
	}
	cur := string(inv.Currency)
	if cur == "" {
		cur = currency
	}
	out.Total, out.AmountDue = NewMoney(inv.Total, cur), NewMoney(inv.AmountDue, cur)
	out.DueDate, out.URL = unixTime(inv.DueDate), inv.HostedInvoiceURL
	return runtime.JSON(out)
}

// customerByEmail finds the one customer with the invoice's email, or
// creates it; several customers with that email are an error for the model
// to resolve with customer_id.
func customerByEmail(ctx context.Context, sc *client.API, call *runtime.Call, args *CreateInvoiceArgs) (id string, created bool, err error) {
	email := string(*args.CustomerEmail)
	lp := &stripego.CustomerListParams{Email: stripego.String(email)}
	lp.Context, lp.Limit = ctx, stripego.Int64(3)
	found, more, err := take[*stripego.Customer](sc.Customers.List(lp).Iter, 3)
	if err != nil {
		return "", false, stripeError("looking up the customer by email", err)
	}
	switch {
	case len(found) == 1:
		return found[0].ID, false, nil
	case len(found) > 1:
		ids := make([]string, len(found))
		for i, c := range found {
			ids[i] = c.ID
		}
		list := strings.Join(ids, ", ")
		if more {
			list += ", …"
		}
		return "", false, &runtime.ToolError{Kind: runtime.ErrExecution, Message: fmt.Sprintf(
			"several Stripe customers have the email %s (%s); call again with customer_id.", email, list)}
	}
	cp := &stripego.CustomerParams{Email: stripego.String(email), Name: args.CustomerName}
	cp.Context = ctx
	setIdempotency(&cp.Params, call, "customer", args)
	c, err := sc.Customers.New(cp)
	if err != nil {
		return "", false, stripeError("creating a customer for "+email, err)
	}
	return c.ID, true, nil
}

// CreateSubscription runs the stripe_create_subscription tool: Start a recurring subscription for a customer on an existing price.
func (t *Tools) CreateSubscription(ctx context.Context, call *runtime.Call, args *CreateSubscriptionArgs) (runtime.Result, error) {
	sc, err := t.client(ctx, call)
	if err != nil {
		return runtime.Result{}, err
	}
	method := string(args.CollectionMethod)
	p := &stripego.SubscriptionParams{
		Customer:         stripego.String(string(args.Customer)),
		Items:            []*stripego.SubscriptionItemsParams{{Price: stripego.String(string(args.Price)), Quantity: stripego.Int64(args.Quantity)}},
		TrialPeriodDays:  args.TrialPeriodDays,
		CollectionMethod: stripego.String(method),
	}
	if method == string(stripego.SubscriptionCollectionMethodSendInvoice) {
		p.DaysUntilDue = stripego.Int64(args.DaysUntilDue)
	}
	p.Context = ctx
	setIdempotency(&p.Params, call, "subscription", args)
	s, err := sc.Subscriptions.New(p)
	if err != nil {
		return runtime.Result{}, stripeError("creating the subscription", err)
	}
	return runtime.JSON(toSubscription(s))
}

// RevenueMetrics runs the stripe_revenue_metrics tool: Compute MRR, ARR, cash collected in the last 30 days and open invoices outstanding, per currency.
func (t *Tools) RevenueMetrics(ctx context.Context, call *runtime.Call, args *RevenueMetricsArgs) (runtime.Result, error) {
	sc, err := t.client(ctx, call)
	if err != nil {
		return runtime.Result{}, err
	}
	now := t.now()
	in, listed, err := loadRevenue(ctx, sc, call, now)
	if err != nil {
		return runtime.Result{}, err
	}
	r := ComputeRevenue(now, in)
	call.Progress(revenueCounted(r, listed))
	return runtime.JSON(toRevenueResult(r))
}
