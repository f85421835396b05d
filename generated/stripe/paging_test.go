package stripe_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen/toolgen/generated/stripe"
	"github.com/toolgen/toolgen/runtime"
)

// fakeStripe serves Stripe's list endpoints over loopback from fixed data,
// paging like Stripe (limit, starting_after, has_more) but never returning
// more than pageCap objects a page, so that every list spans pages.
type fakeStripe struct {
	pageCap int
	// lists holds the objects by "path" or "path?status=x" or
	// "path?subscription=x"; each object has an "id".
	lists map[string][]map[string]any

	mu   sync.Mutex
	seen []string // "path?query" of each request, in order
}

func (f *fakeStripe) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f.mu.Lock()
	f.seen = append(f.seen, r.URL.Path+"?"+r.URL.RawQuery)
	f.mu.Unlock()
	key := r.URL.Path
	for _, k := range []string{"status", "subscription"} {
		if v := q.Get(k); v != "" {
			key += "?" + k + "=" + v
		}
	}
	objs := f.lists[key]
	limit := 10
	if l, err := strconv.Atoi(q.Get("limit")); err == nil {
		limit = l
	}
	limit = min(limit, f.pageCap)
	start := 0
	if after := q.Get("starting_after"); after != "" {
		start = -1
		for i, o := range objs {
			if o["id"] == after {
				start = i + 1
			}
		}
		if start < 0 {
			http.Error(w, `{"error":{"type":"invalid_request_error","message":"no such object"}}`, http.StatusBadRequest)
			return
		}
	}
	end := min(start+limit, len(objs))
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "url": r.URL.Path, "has_more": end < len(objs), "data": objs[start:end]})
}

func (f *fakeStripe) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.seen
	f.seen = nil
	return out
}

func startFake(t *testing.T, f *fakeStripe) *stripe.Tools {
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return &stripe.Tools{BaseURL: srv.URL, MaxNetworkRetries: -1}
}

func customers(n int) []map[string]any {
	out := make([]map[string]any, n)
	for i := range out {
		out[i] = map[string]any{"id": fmt.Sprintf("cus_%03d", i), "object": "customer", "email": fmt.Sprintf("c%d@example.com", i), "created": 1700000000 - i}
	}
	return out
}

func TestListToolsPageUpToTheLimit(t *testing.T) {
	for _, c := range []struct {
		name          string
		total, cap    int
		limit         int
		wantCount     int
		wantMore      bool
		wantAfter     []string // starting_after of each request
		wantPageLimit string
	}{
		{"across pages", 250, 10, 25, 25, true, []string{"", "cus_009", "cus_019"}, "25"},
		{"a hundred in pages of ten", 250, 10, 100, 100, true,
			[]string{"", "cus_009", "cus_019", "cus_029", "cus_039", "cus_049", "cus_059", "cus_069", "cus_079", "cus_089"}, "100"},
		{"exactly the limit, nothing more", 10, 10, 10, 10, false, []string{""}, "10"},
		{"fewer than the limit", 7, 10, 10, 7, false, []string{""}, "10"},
		{"more on the same page", 11, 100, 10, 10, true, []string{""}, "10"},
		{"limit one", 3, 100, 1, 1, true, []string{""}, "1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeStripe{pageCap: c.cap, lists: map[string][]map[string]any{"/v1/customers": customers(c.total)}}
			reg := newRegistry(t, startFake(t, f), runtime.Options{})
			out := dispatch(t, reg, "alice", stripe.ToolListCustomers, `{"limit":`+strconv.Itoa(c.limit)+`}`)
			var res customersJSON
			okJSON(t, out, &res)
			if res.Count != c.wantCount || len(res.Customers) != c.wantCount || res.HasMore != c.wantMore {
				t.Errorf("count %d (%d listed), has_more %v; want %d, %v", res.Count, len(res.Customers), res.HasMore, c.wantCount, c.wantMore)
			}
			for i, cu := range res.Customers {
				if want := fmt.Sprintf("cus_%03d", i); cu.ID != want {
					t.Fatalf("customer %d is %s, want %s (order or paging broken)", i, cu.ID, want)
				}
			}
			var after []string
			for _, r := range f.requests() {
				q := parseQuery(t, r)
				after = append(after, q.Get("starting_after"))
				if q.Get("limit") != c.wantPageLimit {
					t.Errorf("request %s: page limit %q, want %s", r, q.Get("limit"), c.wantPageLimit)
				}
			}
			if !slices.Equal(after, c.wantAfter) {
				t.Errorf("requests started after %q, want %q", after, c.wantAfter)
			}
		})
	}
}

func TestListPaymentsAndSubscriptionsPage(t *testing.T) {
	charges := make([]map[string]any, 9)
	for i := range charges {
		charges[i] = map[string]any{"id": fmt.Sprintf("ch_%d", i), "object": "charge", "amount": 100 * (i + 1), "currency": "usd", "status": "succeeded"}
	}
	subs := make([]map[string]any, 9)
	for i := range subs {
		subs[i] = map[string]any{"id": fmt.Sprintf("sub_%d", i), "object": "subscription", "status": "active"}
	}
	f := &fakeStripe{pageCap: 3, lists: map[string][]map[string]any{"/v1/charges": charges, "/v1/subscriptions": subs}}
	reg := newRegistry(t, startFake(t, f), runtime.Options{})

	var pays paymentsJSON
	okJSON(t, dispatch(t, reg, "alice", stripe.ToolListPayments, `{"limit":7}`), &pays)
	if pays.Count != 7 || !pays.HasMore || pays.Payments[6].ID != "ch_6" || pays.Payments[6].Amount != (money{700, "usd", "7.00 USD"}) {
		t.Errorf("payments %+v", pays)
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("%d requests for 7 payments in pages of 3, want 3", n)
	}
	var ss subscriptionsJSON
	okJSON(t, dispatch(t, reg, "alice", stripe.ToolListSubscriptions, `{"limit":100}`), &ss)
	if ss.Count != 9 || ss.HasMore || ss.Subscriptions[8].ID != "sub_8" {
		t.Errorf("subscriptions %+v", ss)
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("%d requests for 9 subscriptions in pages of 3, want 3", n)
	}
}

func price(id, cur string, unit int64, interval string, count int) map[string]any {
	return map[string]any{"id": id, "object": "price", "currency": cur, "unit_amount": unit, "unit_amount_decimal": strconv.FormatInt(unit, 10),
		"billing_scheme": "per_unit", "recurring": map[string]any{"interval": interval, "interval_count": count, "usage_type": "licensed"}}
}

func subItem(id string, p map[string]any, qty int) map[string]any {
	return map[string]any{"id": id, "object": "subscription_item", "quantity": qty, "price": p}
}

func subscription(id, status string, items []map[string]any, hasMore bool) map[string]any {
	return map[string]any{"id": id, "object": "subscription", "status": status, "customer": "cus_1",
		"items": map[string]any{"object": "list", "data": items, "has_more": hasMore, "url": "/v1/subscription_items?subscription=" + id}}
}

// TestRevenueMetricsWalksEveryPage checks hand-computed totals over data
// that spans several pages of every list, including a subscription whose
// items Stripe lists only in part.
func TestRevenueMetricsWalksEveryPage(t *testing.T) {
	now := time.Date(2024, 3, 31, 12, 0, 0, 0, time.UTC)
	monthly := price("price_m", "usd", 1000, "month", 1)

	var active []map[string]any
	for i := range 25 { // 25 × 10.00 usd a month = 25000
		active = append(active, subscription(fmt.Sprintf("sub_%03d", i), "active", []map[string]any{subItem(fmt.Sprintf("si_%03d", i), monthly, 1)}, false))
	}
	// sub_multi: 12 items, Stripe lists 10 inline. 10 × 1.00 usd a month
	// (1000) + 12.00 usd a year (100) + 5.00 eur every 2 weeks (500 × 52/24
	// = 1083.33…).
	var multi []map[string]any
	for i := range 10 {
		multi = append(multi, subItem(fmt.Sprintf("si_m%02d", i), price("price_s", "usd", 100, "month", 1), 1))
	}
	multi = append(multi, subItem("si_m10", price("price_y", "usd", 1200, "year", 1), 1), subItem("si_m11", price("price_w", "eur", 500, "week", 2), 1))
	active = append(active, subscription("sub_multi", "active", multi[:10], true))
	// sub_dec: 12.5 usd-cents a unit (unit_amount_decimal), 2 units, monthly = 25.
	dec := price("price_d", "usd", 0, "month", 1)
	dec["unit_amount"], dec["unit_amount_decimal"] = nil, "12.5"
	active = append(active, subscription("sub_dec", "active", []map[string]any{subItem("si_d", dec, 2)}, false))
	// past_due: 30.00 usd every 3 months = 1000; sub_005 again (its status
	// changed while listing) counts once.
	pastDue := []map[string]any{
		subscription("sub_pd", "past_due", []map[string]any{subItem("si_pd", price("price_q", "usd", 3000, "month", 3), 1)}, false),
		active[5],
	}
	// USD MRR: 25000 + 1000 + 100 + 25 + 1000 = 27125, ARR 325500.
	// EUR MRR: 1083.33… → 1083, ARR 13000.

	// Charges: 23 succeeded 1.00 usd, one refunded by 0.50 → 2250; a
	// failed one and one older than 30 days are not counted.
	var charges []map[string]any
	for i := range 23 {
		c := map[string]any{"id": fmt.Sprintf("ch_%02d", i), "object": "charge", "status": "succeeded", "currency": "usd",
			"amount": 100, "amount_captured": 100, "captured": true, "created": now.Add(-24 * time.Hour).Unix()}
		if i == 7 {
			c["amount_refunded"] = 50
		}
		charges = append(charges, c)
	}
	charges = append(charges,
		map[string]any{"id": "ch_failed", "object": "charge", "status": "failed", "currency": "usd", "amount": 5000, "created": now.Unix()},
		map[string]any{"id": "ch_old", "object": "charge", "status": "succeeded", "currency": "gbp", "amount": 999, "amount_captured": 999, "captured": true, "created": now.Add(-40 * 24 * time.Hour).Unix()})

	// Open invoices: 12 × 2.50 usd = 3000, one 5000 jpy.
	var invoices []map[string]any
	for i := range 12 {
		invoices = append(invoices, map[string]any{"id": fmt.Sprintf("in_%02d", i), "object": "invoice", "status": "open", "currency": "usd", "amount_remaining": 250})
	}
	invoices = append(invoices, map[string]any{"id": "in_jpy", "object": "invoice", "status": "open", "currency": "jpy", "amount_remaining": 5000})

	f := &fakeStripe{pageCap: 10, lists: map[string][]map[string]any{
		"/v1/subscriptions?status=active":               active,
		"/v1/subscriptions?status=past_due":             pastDue,
		"/v1/subscription_items?subscription=sub_multi": multi,
		"/v1/charges":              charges,
		"/v1/invoices?status=open": invoices,
	}}
	tools := startFake(t, f)
	tools.Now = func() time.Time { return now }
	reg := newRegistry(t, tools, runtime.Options{})
	var rev revenueJSON
	okJSON(t, dispatch(t, reg, "alice", stripe.ToolRevenueMetrics, `{}`), &rev)

	got := map[string][4]int64{}
	for _, c := range rev.ByCurrency {
		got[c.Currency] = [4]int64{c.MRR.AmountMinor, c.ARR.AmountMinor, c.Collected30d.AmountMinor, c.Outstanding.AmountMinor}
	}
	want := map[string][4]int64{
		"usd": {27125, 325500, 2250, 3000},
		"eur": {1083, 13000, 0, 0},
		"jpy": {0, 0, 0, 5000},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("by currency (mrr, arr, collected, outstanding) = %v, want %v", got, want)
	}
	if rev.Subscriptions != 28 || rev.Charges != 23 || rev.OpenInvoices != 13 || rev.AsOf != "2024-03-31T12:00:00Z" {
		t.Errorf("counts %+v", rev)
	}
	var eur money
	for _, c := range rev.ByCurrency {
		if c.Currency == "eur" {
			eur = c.MRR
		}
	}
	if eur.Display != "10.83 EUR" {
		t.Errorf("eur MRR display %q", eur.Display)
	}

	// Every page of every list was read.
	pages := map[string]int{}
	for _, r := range f.requests() {
		q := parseQuery(t, r)
		key := r[:strings.Index(r, "?")]
		if s := q.Get("status"); s != "" {
			key += " " + s
		}
		pages[key]++
		if strings.HasPrefix(r, "/v1/charges") && q.Get("created[gte]") != strconv.FormatInt(now.Add(-30*24*time.Hour).Unix(), 10) {
			t.Errorf("charges listed from %q, want 30 days before now", q.Get("created[gte]"))
		}
	}
	wantPages := map[string]int{"/v1/subscriptions active": 3, "/v1/subscriptions past_due": 1, "/v1/subscription_items": 2, "/v1/charges": 3, "/v1/invoices open": 2}
	if fmt.Sprint(pages) != fmt.Sprint(wantPages) {
		t.Errorf("pages read %v, want %v", pages, wantPages)
	}
}

func parseQuery(t *testing.T, req string) interface{ Get(string) string } {
	t.Helper()
	r, err := http.NewRequest(http.MethodGet, "http://x"+req, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r.URL.Query()
}

func TestStripeErrorsReadWell(t *testing.T) {
	for _, c := range []struct {
		status int
		body   string
		want   []string
	}{
		{401, `{"error":{"type":"invalid_request_error","message":"Invalid API Key provided: sk_test_***"}}`, []string{"rejected this account's API key", "reconnect Stripe"}},
		{400, `{"error":{"type":"invalid_request_error","message":"No such customer: 'cus_x'","param":"customer"}}`,
			[]string{"Stripe refused listing payments: No such customer: 'cus_x' (parameter customer).", "[request req_42]"}},
		{403, `{"error":{"type":"invalid_request_error","message":"The provided key does not have the required permissions"}}`, []string{"not allowed", "required permissions"}},
		{429, `{"error":{"type":"invalid_request_error","message":"Too many requests"}}`, []string{"rate limiting", "try again"}},
		{500, `{"error":{"type":"api_error","message":"boom"}}`, []string{"internal error", "try again later"}},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Request-Id", "req_42")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(c.status)
			w.Write([]byte(c.body))
		}))
		reg := newRegistry(t, &stripe.Tools{BaseURL: srv.URL, MaxNetworkRetries: -1}, runtime.Options{})
		out := dispatch(t, reg, "alice", stripe.ToolListPayments, `{}`)
		toolErr(t, out, runtime.ErrExecution)
		for _, w := range c.want {
			if !strings.Contains(out.Result.String(), w) {
				t.Errorf("HTTP %d: result %q, want it to say %q", c.status, out.Result.String(), w)
			}
		}
		srv.Close()
	}

	// Nothing listening.
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	reg := newRegistry(t, &stripe.Tools{BaseURL: srv.URL, MaxNetworkRetries: -1}, runtime.Options{})
	out := dispatch(t, reg, "alice", stripe.ToolListCustomers, `{}`)
	toolErr(t, out, runtime.ErrExecution)
	if !strings.HasPrefix(out.Result.String(), "Error: could not reach Stripe while listing customers") {
		t.Errorf("result %q", out.Result.String())
	}
}

func TestCancelledCallGoesToTheHost(t *testing.T) {
	started := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { close(started) })
		<-r.Context().Done()
	}))
	defer srv.Close()
	reg := newRegistry(t, &stripe.Tools{BaseURL: srv.URL, MaxNetworkRetries: -1}, runtime.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	out, err := reg.Dispatch(ctx, &runtime.Call{UserID: "alice"}, runtime.ToolCall{ID: "c", Name: stripe.ToolRevenueMetrics, Arguments: json.RawMessage(`{}`)})
	if !errors.Is(err, context.Canceled) || out.Status != runtime.StatusFatal {
		t.Fatalf("Dispatch = %s, %v; want a fatal context.Canceled for the host", out.Status, err)
	}
}
