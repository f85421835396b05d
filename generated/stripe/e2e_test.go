package stripe_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	stripego "github.com/stripe/stripe-go/v76"

	"github.com/toolgen/toolgen/generated/stripe"
	"github.com/toolgen/toolgen/internal/stripemock"
	"github.com/toolgen/toolgen/runtime"
)

// Result shapes, decoded strictly: a field the executors add without the
// tests knowing fails the decode, so results stay compact on purpose.
type customerJSON struct {
	ID         string `json:"id"`
	Email      string `json:"email"`
	Name       string `json:"name"`
	Created    string `json:"created"`
	Delinquent bool   `json:"delinquent"`
	Balance    *money `json:"balance"`
}

type customersJSON struct {
	Customers []customerJSON `json:"customers"`
	Count     int            `json:"count"`
	HasMore   bool           `json:"has_more"`
}

type paymentsJSON struct {
	Payments []struct {
		ID             string `json:"id"`
		Created        string `json:"created"`
		Amount         money  `json:"amount"`
		Refunded       *money `json:"refunded"`
		Status         string `json:"status"`
		Captured       bool   `json:"captured"`
		Customer       string `json:"customer"`
		Description    string `json:"description"`
		ReceiptEmail   string `json:"receipt_email"`
		Invoice        string `json:"invoice"`
		PaymentIntent  string `json:"payment_intent"`
		FailureMessage string `json:"failure_message"`
	} `json:"payments"`
	Count   int  `json:"count"`
	HasMore bool `json:"has_more"`
}

type subscriptionJSON struct {
	ID       string `json:"id"`
	Customer string `json:"customer"`
	Status   string `json:"status"`
	Items    []struct {
		Price     string `json:"price"`
		Product   string `json:"product"`
		Nickname  string `json:"nickname"`
		Quantity  int64  `json:"quantity"`
		UnitPrice *money `json:"unit_price"`
		Every     string `json:"every"`
	} `json:"items"`
	Created           string `json:"created"`
	CurrentPeriodEnd  string `json:"current_period_end"`
	TrialEnd          string `json:"trial_end"`
	CancelAtPeriodEnd bool   `json:"cancel_at_period_end"`
	CancelAt          string `json:"cancel_at"`
	CollectionMethod  string `json:"collection_method"`
	LatestInvoice     string `json:"latest_invoice"`
}

type subscriptionsJSON struct {
	Subscriptions []subscriptionJSON `json:"subscriptions"`
	Count         int                `json:"count"`
	HasMore       bool               `json:"has_more"`
}

type paymentLinkJSON struct {
	ID     string `json:"id"`
	URL    string `json:"url"`
	Active bool   `json:"active"`
	Lines  []struct {
		Price     string `json:"price"`
		Quantity  int64  `json:"quantity"`
		UnitPrice *money `json:"unit_price"`
		Name      string `json:"name"`
	} `json:"line_items"`
	Total *money `json:"total"`
}

type invoiceJSON struct {
	ID              string `json:"id"`
	Number          string `json:"number"`
	Status          string `json:"status"`
	Customer        string `json:"customer"`
	CustomerEmail   string `json:"customer_email"`
	CustomerCreated bool   `json:"customer_created"`
	Total           money  `json:"total"`
	AmountDue       money  `json:"amount_due"`
	DueDate         string `json:"due_date"`
	URL             string `json:"hosted_invoice_url"`
	Lines           int    `json:"lines"`
	Sent            bool   `json:"sent"`
}

type revenueJSON struct {
	AsOf       string `json:"as_of"`
	ByCurrency []struct {
		Currency     string `json:"currency"`
		MRR          money  `json:"mrr"`
		ARR          money  `json:"arr"`
		Collected30d money  `json:"collected_30d"`
		Outstanding  money  `json:"outstanding"`
	} `json:"by_currency"`
	Subscriptions int    `json:"subscriptions_counted"`
	Charges       int    `json:"charges_counted"`
	OpenInvoices  int    `json:"open_invoices"`
	SkippedItems  int    `json:"items_without_fixed_price"`
	Method        string `json:"method"`
}

// mockEnv is stripe-mock behind a recording proxy.
type mockEnv struct {
	rec   *recorder
	tools *stripe.Tools
}

// fixtureTime is when stripe-mock's fixtures were "created".
var fixtureTime = time.Unix(1234567890, 0)

// TestAgainstStripeMock calls every tool through runtime.Registry.Dispatch
// against stripe-mock, one server for all subtests.
func TestAgainstStripeMock(t *testing.T) {
	base := stripemock.Start(t)
	newEnv := func(t *testing.T) *mockEnv {
		rec := newRecorder(t, base)
		return &mockEnv{rec: rec, tools: &stripe.Tools{
			BaseURL: rec.URL, MaxNetworkRetries: -1,
			Now: func() time.Time { return fixtureTime.Add(24 * time.Hour) },
		}}
	}
	allow := runtime.Options{Policy: allowPolicy{}}

	t.Run("list customers", func(t *testing.T) {
		e := newEnv(t)
		reg := newRegistry(t, e.tools, runtime.Options{})
		var events []runtime.Event
		var mu sync.Mutex
		out, err := reg.Dispatch(context.Background(), &runtime.Call{UserID: "alice", Events: func(ev runtime.Event) {
			mu.Lock()
			events = append(events, ev)
			mu.Unlock()
		}}, runtime.ToolCall{ID: "c1", Name: stripe.ToolListCustomers, Arguments: json.RawMessage(`{"email":"jenny@example.com","limit":3}`)})
		if err != nil {
			t.Fatal(err)
		}
		var res customersJSON
		okJSON(t, out, &res)
		if res.Count != len(res.Customers) || res.Count == 0 || !strings.HasPrefix(res.Customers[0].ID, "cus_") || res.Customers[0].Created == "" {
			t.Errorf("result %+v", res)
		}
		if out.Label != "Looking up jenny@example.com in Stripe" {
			t.Errorf("label %q", out.Label)
		}
		if len(events) != 2 || events[0].Type != runtime.EventStart || events[1].Type != runtime.EventFinish || events[1].Status != runtime.StatusOK {
			t.Errorf("events %+v", events)
		}
		reqs := e.rec.take()
		if len(reqs) != 1 || reqs[0].String() != "GET /v1/customers" {
			t.Fatalf("requests %v", paths(reqs))
		}
		if q := reqs[0].Query; q.Get("email") != "jenny@example.com" || q.Get("limit") != "3" {
			t.Errorf("query %v", q)
		}
		if reqs[0].Auth != "Bearer sk_test_alice" {
			t.Errorf("Authorization %q, want alice's key", reqs[0].Auth)
		}
	})

	t.Run("each user's own key", func(t *testing.T) {
		e := newEnv(t)
		reg := newRegistry(t, e.tools, runtime.Options{})
		var wg sync.WaitGroup
		for _, user := range []string{"alice", "carol", "alice", "carol"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if out := dispatch(t, reg, user, stripe.ToolListCustomers, `{}`); out.Status != runtime.StatusOK {
					t.Errorf("%s: %s", user, out.Result.String())
				}
			}()
		}
		wg.Wait()
		var auths []string
		for _, r := range e.rec.take() {
			auths = append(auths, r.Auth)
		}
		slices.Sort(auths)
		if want := []string{"Bearer sk_test_alice", "Bearer sk_test_alice", "Bearer sk_test_carol", "Bearer sk_test_carol"}; !slices.Equal(auths, want) {
			t.Errorf("keys sent %v, want %v", auths, want)
		}
		if stripego.Key != "" {
			t.Errorf("stripe.Key = %q: the global key must stay untouched", stripego.Key)
		}
	})

	t.Run("list payments", func(t *testing.T) {
		e := newEnv(t)
		reg := newRegistry(t, e.tools, runtime.Options{})
		out := dispatch(t, reg, "alice", stripe.ToolListPayments, `{"customer":"cus_123","created_after":"2024-01-31","limit":5}`)
		var res paymentsJSON
		okJSON(t, out, &res)
		if res.Count == 0 {
			t.Fatalf("no payments: %s", out.Result.String())
		}
		p := res.Payments[0]
		if !strings.HasPrefix(p.ID, "ch_") || p.Amount != (money{100, "usd", "1.00 USD"}) || p.Status != "succeeded" || p.Refunded != nil {
			t.Errorf("payment %+v", p)
		}
		reqs := e.rec.take()
		if len(reqs) != 1 || reqs[0].String() != "GET /v1/charges" {
			t.Fatalf("requests %v", paths(reqs))
		}
		q := reqs[0].Query
		if q.Get("customer") != "cus_123" || q.Get("created[gte]") != "1706659200" || q.Get("limit") != "5" {
			t.Errorf("query %v; want customer, created[gte]=2024-01-31T00:00Z and limit", q)
		}
	})

	t.Run("list subscriptions", func(t *testing.T) {
		e := newEnv(t)
		reg := newRegistry(t, e.tools, runtime.Options{})
		out := dispatch(t, reg, "alice", stripe.ToolListSubscriptions, `{"status":"all","customer":"cus_123","price":"price_9"}`)
		var res subscriptionsJSON
		okJSON(t, out, &res)
		if res.Count == 0 || len(res.Subscriptions[0].Items) == 0 {
			t.Fatalf("result %s", out.Result.String())
		}
		s := res.Subscriptions[0]
		it := s.Items[0]
		if !strings.HasPrefix(s.ID, "sub_") || s.Status == "" || !strings.HasPrefix(s.Customer, "cus_") ||
			it.UnitPrice == nil || *it.UnitPrice != (money{2000, "usd", "20.00 USD"}) || it.Every != "month" || it.Quantity != 1 {
			t.Errorf("subscription %+v", s)
		}
		q := e.rec.take()[0].Query
		if q.Get("status") != "all" || q.Get("customer") != "cus_123" || q.Get("price") != "price_9" || q.Get("limit") != "10" {
			t.Errorf("query %v", q)
		}
	})

	t.Run("create payment link pauses, runs once approved", func(t *testing.T) {
		e := newEnv(t)
		ap := newApprovals()
		reg := newRegistry(t, e.tools, runtime.Options{Approvals: ap})
		out := dispatch(t, reg, "alice", stripe.ToolCreatePaymentLink,
			`{"line_items":[{"amount_minor":1999,"currency":"usd","name":"Workshop seat","quantity":3},{"price":"price_123"}],"after_completion_url":"https://example.com/thanks"}`)
		if out.Status != runtime.StatusPaused || out.Pause == nil {
			t.Fatalf("status %s, result %q; want paused for approval", out.Status, out.Result.String())
		}
		if reqs := e.rec.take(); len(reqs) != 0 {
			t.Fatalf("a paused call reached Stripe: %v", paths(reqs))
		}
		if _, err := reg.Resume(context.Background(), &runtime.Call{UserID: "alice"}, out.Pause.PausePointID); !errors.Is(err, runtime.ErrPausePointPending) {
			t.Fatalf("Resume before a decision: %v", err)
		}
		ap.decide(out.Pause.PausePointID, runtime.Allowed())
		res, err := reg.Resume(context.Background(), &runtime.Call{UserID: "alice"}, out.Pause.PausePointID)
		if err != nil {
			t.Fatal(err)
		}
		var link paymentLinkJSON
		okJSON(t, res, &link)
		if !strings.HasPrefix(link.ID, "plink_") || !strings.HasPrefix(link.URL, "https://") || len(link.Lines) != 2 {
			t.Errorf("link %+v", link)
		}
		if l := link.Lines[0]; !strings.HasPrefix(l.Price, "price_") || l.Quantity != 3 || l.Name != "Workshop seat" || *l.UnitPrice != (money{1999, "usd", "19.99 USD"}) {
			t.Errorf("ad-hoc line %+v", l)
		}
		if l := link.Lines[1]; l.Price != "price_123" || l.Quantity != 1 || l.UnitPrice != nil {
			t.Errorf("price line %+v", l)
		}
		if link.Total != nil {
			t.Errorf("total %+v for a link with a price line: want none", link.Total)
		}
		reqs := e.rec.take()
		if got, want := paths(reqs), []string{"POST /v1/prices", "POST /v1/payment_links"}; !slices.Equal(got, want) {
			t.Fatalf("requests %v, want %v", got, want)
		}
		if f := reqs[0].Form; f.Get("currency") != "usd" || f.Get("unit_amount") != "1999" || f.Get("product_data[name]") != "Workshop seat" {
			t.Errorf("price form %v", f)
		}
		f := reqs[1].Form
		if f.Get("line_items[0][price]") == "" || f.Get("line_items[0][quantity]") != "3" || f.Get("line_items[1][price]") != "price_123" ||
			f.Get("line_items[1][quantity]") != "1" || f.Get("after_completion[type]") != "redirect" || f.Get("after_completion[redirect][url]") != "https://example.com/thanks" {
			t.Errorf("payment link form %v", f)
		}
		for _, r := range reqs {
			if r.Idempotency == "" || r.Auth != "Bearer sk_test_alice" {
				t.Errorf("%s: idempotency key %q, auth %q", r, r.Idempotency, r.Auth)
			}
		}
		if _, err := reg.Resume(context.Background(), &runtime.Call{UserID: "alice"}, out.Pause.PausePointID); !errors.Is(err, runtime.ErrPausePointConsumed) {
			t.Errorf("second Resume: %v; want consumed", err)
		}
		if reqs := e.rec.take(); len(reqs) != 0 {
			t.Errorf("a second Resume reached Stripe: %v", paths(reqs))
		}
	})

	t.Run("create payment link denied", func(t *testing.T) {
		e := newEnv(t)
		ap := newApprovals()
		reg := newRegistry(t, e.tools, runtime.Options{Approvals: ap})
		out := dispatch(t, reg, "alice", stripe.ToolCreatePaymentLink, `{"line_items":[{"price":"price_123"}]}`)
		ap.decide(out.Pause.PausePointID, runtime.Denied("not this quarter"))
		res, err := reg.Resume(context.Background(), &runtime.Call{UserID: "alice"}, out.Pause.PausePointID)
		if err != nil {
			t.Fatal(err)
		}
		toolErr(t, res, runtime.ErrDenied)
		if !strings.Contains(res.Result.String(), "not this quarter") {
			t.Errorf("result %q", res.Result.String())
		}
		if reqs := e.rec.take(); len(reqs) != 0 {
			t.Errorf("a denied call reached Stripe: %v", paths(reqs))
		}
	})

	t.Run("create payment link of ad-hoc items has a total", func(t *testing.T) {
		e := newEnv(t)
		reg := newRegistry(t, e.tools, allow)
		out := dispatch(t, reg, "alice", stripe.ToolCreatePaymentLink,
			`{"line_items":[{"amount_minor":500,"currency":"jpy","name":"Tea","quantity":2},{"amount_minor":1200,"currency":"jpy","name":"Cake"}]}`)
		var link paymentLinkJSON
		okJSON(t, out, &link)
		if link.Total == nil || *link.Total != (money{2200, "jpy", "2200 JPY"}) {
			t.Errorf("total %+v, want 2200 JPY", link.Total)
		}
		if got := paths(e.rec.take()); !slices.Equal(got, []string{"POST /v1/prices", "POST /v1/prices", "POST /v1/payment_links"}) {
			t.Errorf("requests %v", got)
		}
	})

	t.Run("create invoice for a new customer and send it", func(t *testing.T) {
		e := newEnv(t)
		// stripe-mock always finds a customer; answer the email lookup
		// with an empty list to take the create-customer path.
		e.rec.setOverride(func(w http.ResponseWriter, r *http.Request, _ url.Values) bool {
			if r.Method == http.MethodGet && r.URL.Path == "/v1/customers" && r.URL.Query().Get("email") == "new@example.com" {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(`{"object":"list","data":[],"has_more":false,"url":"/v1/customers"}`))
				return true
			}
			return false
		})
		reg := newRegistry(t, e.tools, allow)
		out := dispatch(t, reg, "alice", stripe.ToolCreateInvoice, `{"customer_email":"new@example.com","customer_name":"New Co",
			"items":[{"description":"Design","amount_minor":150000},{"description":"Hosting","amount_minor":2500,"quantity":12}],
			"memo":"Thanks!","days_until_due":14,"currency":"eur"}`)
		if out.Label != "Drafting invoice for new@example.com" {
			t.Errorf("label %q", out.Label)
		}
		var inv invoiceJSON
		okJSON(t, out, &inv)
		if !strings.HasPrefix(inv.ID, "in_") || !inv.CustomerCreated || !inv.Sent || inv.Lines != 2 || !strings.HasPrefix(inv.Customer, "cus_") || inv.Total.Currency == "" {
			t.Errorf("invoice %+v", inv)
		}
		reqs := e.rec.take()
		want := []string{"GET /v1/customers", "POST /v1/customers", "POST /v1/invoices", "POST /v1/invoiceitems", "POST /v1/invoiceitems",
			"POST /v1/invoices/" + inv.ID + "/finalize", "POST /v1/invoices/" + inv.ID + "/send"}
		if got := paths(reqs); !slices.Equal(got, want) {
			t.Fatalf("requests %v, want %v", got, want)
		}
		if f := reqs[1].Form; f.Get("email") != "new@example.com" || f.Get("name") != "New Co" {
			t.Errorf("customer form %v", f)
		}
		if f := reqs[2].Form; f.Get("collection_method") != "send_invoice" || f.Get("days_until_due") != "14" || f.Get("currency") != "eur" ||
			f.Get("description") != "Thanks!" || f.Get("pending_invoice_items_behavior") != "exclude" || f.Get("auto_advance") != "false" {
			t.Errorf("invoice form %v", f)
		}
		if f := reqs[4].Form; f.Get("unit_amount_decimal") != "2500" || f.Get("quantity") != "12" || f.Get("currency") != "eur" || f.Get("description") != "Hosting" || f.Get("invoice") == "" {
			t.Errorf("invoice item form %v", f)
		}
		keys := map[string]bool{}
		for _, r := range reqs[1:] {
			if r.Idempotency == "" || keys[r.Idempotency] {
				t.Errorf("%s: idempotency key %q missing or reused within the call", r, r.Idempotency)
			}
			keys[r.Idempotency] = true
		}
	})

	t.Run("create invoice, draft only, existing customer by email", func(t *testing.T) {
		e := newEnv(t)
		reg := newRegistry(t, e.tools, allow)
		out := dispatch(t, reg, "alice", stripe.ToolCreateInvoice, `{"customer_email":"jenny@example.com","items":[{"description":"Audit","amount_minor":99}],"send":false}`)
		var inv invoiceJSON
		okJSON(t, out, &inv)
		if inv.CustomerCreated || inv.Sent || inv.CustomerEmail != "jenny@example.com" {
			t.Errorf("invoice %+v", inv)
		}
		want := []string{"GET /v1/customers", "POST /v1/invoices", "POST /v1/invoiceitems", "GET /v1/invoices/" + inv.ID}
		if got := paths(e.rec.take()); !slices.Equal(got, want) {
			t.Errorf("requests %v, want %v", got, want)
		}
	})

	t.Run("create invoice: a failed line deletes the draft", func(t *testing.T) {
		e := newEnv(t)
		e.rec.setOverride(func(w http.ResponseWriter, r *http.Request, form url.Values) bool {
			if r.URL.Path == "/v1/invoiceitems" && form.Get("description") == "Bad" {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				w.Write([]byte(`{"error":{"type":"invalid_request_error","message":"Amount must be no more than $999,999.99.","param":"unit_amount_decimal"}}`))
				return true
			}
			return false
		})
		reg := newRegistry(t, e.tools, allow)
		out := dispatch(t, reg, "alice", stripe.ToolCreateInvoice, `{"customer_id":"cus_123","items":[{"description":"Good","amount_minor":1},{"description":"Bad","amount_minor":99999999}]}`)
		toolErr(t, out, runtime.ErrExecution)
		text := out.Result.String()
		if !strings.Contains(text, "Amount must be no more than") || !strings.Contains(text, "parameter unit_amount_decimal") || !strings.Contains(text, "items[1]") || !strings.Contains(text, "draft invoice was deleted") {
			t.Errorf("result %q", text)
		}
		got := paths(e.rec.take())
		if len(got) != 4 || !strings.HasPrefix(got[3], "DELETE /v1/invoices/in_") {
			t.Errorf("requests %v; want the draft deleted last", got)
		}
	})

	t.Run("create subscription", func(t *testing.T) {
		e := newEnv(t)
		reg := newRegistry(t, e.tools, allow)
		out := dispatch(t, reg, "alice", stripe.ToolCreateSubscription, `{"customer":"cus_123","price":"price_123","quantity":5,"trial_period_days":14}`)
		var sub subscriptionJSON
		okJSON(t, out, &sub)
		if !strings.HasPrefix(sub.ID, "sub_") || sub.Status == "" {
			t.Errorf("subscription %+v", sub)
		}
		out = dispatch(t, reg, "alice", stripe.ToolCreateSubscription, `{"customer":"cus_123","price":"price_123","collection_method":"send_invoice"}`)
		okJSON(t, out, &sub)
		reqs := e.rec.take()
		if len(reqs) != 2 {
			t.Fatalf("requests %v", paths(reqs))
		}
		f := reqs[0].Form
		if f.Get("customer") != "cus_123" || f.Get("items[0][price]") != "price_123" || f.Get("items[0][quantity]") != "5" ||
			f.Get("trial_period_days") != "14" || f.Get("collection_method") != "charge_automatically" || f.Has("days_until_due") {
			t.Errorf("charge_automatically form %v", f)
		}
		if f := reqs[1].Form; f.Get("collection_method") != "send_invoice" || f.Get("days_until_due") != "30" || f.Get("items[0][quantity]") != "1" || f.Has("trial_period_days") {
			t.Errorf("send_invoice form %v", f)
		}
	})

	t.Run("revenue metrics", func(t *testing.T) {
		e := newEnv(t)
		reg := newRegistry(t, e.tools, runtime.Options{})
		var progress []string
		var mu sync.Mutex
		out, err := reg.Dispatch(context.Background(), &runtime.Call{UserID: "alice", Events: func(ev runtime.Event) {
			if ev.Type == runtime.EventProgress {
				mu.Lock()
				progress = append(progress, ev.Message)
				mu.Unlock()
			}
		}}, runtime.ToolCall{ID: "r1", Name: stripe.ToolRevenueMetrics, Arguments: json.RawMessage(`{}`)})
		if err != nil {
			t.Fatal(err)
		}
		var rev revenueJSON
		okJSON(t, out, &rev)
		// stripe-mock answers every list with its one fixture: an active
		// subscription of one 20.00 usd monthly item (listed for both
		// statuses, counted once), an uncaptured charge and a draft invoice.
		if len(rev.ByCurrency) != 1 {
			t.Fatalf("result %s", out.Result.String())
		}
		usd := rev.ByCurrency[0]
		if usd.Currency != "usd" || usd.MRR != (money{2000, "usd", "20.00 USD"}) || usd.ARR.AmountMinor != 24000 ||
			usd.Collected30d.AmountMinor != 0 || usd.Outstanding.AmountMinor != 0 {
			t.Errorf("usd %+v", usd)
		}
		if rev.Subscriptions != 1 || rev.Charges != 1 || rev.OpenInvoices != 0 || rev.AsOf != "2009-02-14T23:31:30Z" || rev.Method == "" {
			t.Errorf("result %+v", rev)
		}
		got := paths(e.rec.take())
		slices.Sort(got)
		if want := []string{"GET /v1/charges", "GET /v1/invoices", "GET /v1/subscriptions", "GET /v1/subscriptions"}; !slices.Equal(got, want) {
			t.Errorf("requests %v, want %v", got, want)
		}
		slices.Sort(progress)
		if want := []string{
			// What the lists returned, then (last) what counted: the
			// draft invoice is left out, as the result's figures say.
			"Counted 1 subscription, 1 succeeded charge of the last 30 days and 0 open invoices; left out: 1 subscription listed twice or neither active nor past_due, 1 invoice not open",
			"Stripe returned 1 charge for the last 30 days",
			"Stripe returned 1 invoice for status open",
			"Stripe returned 1 subscription for status active",
			"Stripe returned 1 subscription for status past_due",
		}; !slices.Equal(progress, want) {
			t.Errorf("progress %q, want %q (one message per list, then the count)", progress, want)
		}
	})

	t.Run("a retried tool call sends the same idempotency keys", func(t *testing.T) {
		e := newEnv(t)
		reg := newRegistry(t, e.tools, allow)
		args := `{"customer":"cus_123","price":"price_123"}`
		dispatchID(t, reg, "alice", "call_same", stripe.ToolCreateSubscription, args)
		dispatchID(t, reg, "alice", "call_same", stripe.ToolCreateSubscription, args)
		dispatchID(t, reg, "alice", "call_other", stripe.ToolCreateSubscription, args)
		dispatchID(t, reg, "alice", "call_same", stripe.ToolCreateSubscription, `{"customer":"cus_123","price":"price_456"}`)
		r := e.rec.take()
		if len(r) != 4 || r[0].Idempotency == "" || r[0].Idempotency != r[1].Idempotency || r[2].Idempotency == r[0].Idempotency || r[3].Idempotency == r[0].Idempotency {
			t.Errorf("idempotency keys %q %q %q %q: want equal for the retry only", r[0].Idempotency, r[1].Idempotency, r[2].Idempotency, r[3].Idempotency)
		}
		// List calls change nothing and carry no key.
		dispatch(t, reg, "alice", stripe.ToolListCustomers, `{}`)
		if r := e.rec.take(); r[0].Idempotency != "" {
			t.Errorf("a list call sent idempotency key %q", r[0].Idempotency)
		}
	})
}
