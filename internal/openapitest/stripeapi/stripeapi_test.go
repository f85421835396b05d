package stripeapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/toolgen/toolgen/internal/stripemock"
	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/httpapi"
)

// recorder is a reverse proxy in front of stripe-mock that keeps the
// requests, so the tests see what went on the wire as well as the answer.
type recorder struct {
	mu   sync.Mutex
	reqs []*http.Request
	body []string
}

func (r *recorder) last() (*http.Request, url.Values) {
	r.mu.Lock()
	defer r.mu.Unlock()
	req := r.reqs[len(r.reqs)-1]
	form, _ := url.ParseQuery(r.body[len(r.body)-1])
	return req, form
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

// setup starts stripe-mock behind a recording proxy and returns a registry
// with the module, for user "u1" (connected) and "u2" (not).
func setup(t *testing.T) (*runtime.Registry, *recorder) {
	return setupVersion(t, "2023-10-16")
}

// setupVersion sends the given Stripe-Version with every request.
func setupVersion(t *testing.T, version string) (*runtime.Registry, *recorder) {
	t.Helper()
	mock := stripemock.Start(t)
	target, err := url.Parse(mock)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		if r.Body != nil {
			buf := new(strings.Builder)
			_, _ = ioCopy(buf, r)
			b.WriteString(buf.String())
		}
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, r.Clone(context.Background()))
		rec.body = append(rec.body, b.String())
		rec.mu.Unlock()
		out, err := http.NewRequestWithContext(r.Context(), r.Method, target.String()+r.URL.RequestURI(), strings.NewReader(b.String()))
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		out.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(out)
		if err != nil {
			http.Error(w, err.Error(), 502)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = ioCopy(w, resp)
	}))
	t.Cleanup(proxy.Close)

	creds := httpapi.CredentialFunc(func(ctx context.Context, call *runtime.Call) (httpapi.Credentials, bool, error) {
		if call.UserID != "u1" {
			return httpapi.Credentials{}, false, nil
		}
		return httpapi.Credentials{BaseURL: proxy.URL, Token: stripemock.TestKey}, true, nil
	})
	client := &httpapi.Client{Credentials: creds, Header: http.Header{"Stripe-Version": {version}}}
	reg := runtime.NewRegistry(runtime.Options{
		Gates: Gates(creds, nil),
		// The tests approve every call (creates and deletes require approval).
		Policy: runtime.PolicyFuncs{PermissionFunc: func(ctx context.Context, call *runtime.Call, t *runtime.Tool, args any, prev runtime.Decision) runtime.Decision {
			return runtime.Allowed()
		}},
	})
	if err := reg.AddModule(Module(&Tools{}, client)); err != nil {
		t.Fatal(err)
	}
	return reg, rec
}

func dispatch(t *testing.T, reg *runtime.Registry, user, tool, args string) (runtime.Outcome, map[string]any) {
	t.Helper()
	out, err := reg.Dispatch(context.Background(), &runtime.Call{UserID: user}, runtime.ToolCall{ID: "c1", Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var v map[string]any
	if out.Status == runtime.StatusOK {
		if err := json.Unmarshal([]byte(out.Result.String()), &v); err != nil {
			t.Fatalf("%s: result is not JSON: %v\n%s", tool, err, out.Result.String())
		}
	}
	return out, v
}

func mustOK(t *testing.T, out runtime.Outcome, tool string) {
	t.Helper()
	if out.Status != runtime.StatusOK {
		t.Fatalf("%s: %s: %s", tool, out.Status, out.Result.String())
	}
}

func TestCustomers(t *testing.T) {
	reg, rec := setup(t)
	out, v := dispatch(t, reg, "u1", ToolPostCustomers, `{"email":"ada@example.com","name":"Ada","metadata":{"plan":"pro","seats":"3"},
		"address":{"line1":"1 Main St","city":"Berlin","country":"DE"},"preferred_locales":["de","en"],"expand":["invoice_settings"]}`)
	mustOK(t, out, ToolPostCustomers)
	req, form := rec.last()
	if req.Method != "POST" || req.URL.Path != "/v1/customers" || req.Header.Get("Content-Type") != "application/x-www-form-urlencoded" ||
		req.Header.Get("Authorization") != "Bearer "+stripemock.TestKey {
		t.Errorf("request %s %s %v", req.Method, req.URL, req.Header)
	}
	for k, want := range map[string]string{
		"email": "ada@example.com", "metadata[plan]": "pro", "metadata[seats]": "3", "address[line1]": "1 Main St",
		"address[country]": "DE", "preferred_locales[0]": "de", "preferred_locales[1]": "en", "expand[0]": "invoice_settings",
	} {
		if got := form.Get(k); got != want {
			t.Errorf("form %s = %q, want %q (body %v)", k, got, want, form)
		}
	}
	id, _ := v["id"].(string)
	if !strings.HasPrefix(id, "cus_") || v["object"] != "customer" {
		t.Errorf("created customer %v", v)
	}

	out, v = dispatch(t, reg, "u1", ToolGetCustomersCustomer, `{"customer":"`+id+`","expand":["invoice_settings.default_payment_method"]}`)
	mustOK(t, out, ToolGetCustomersCustomer)
	req, _ = rec.last()
	if req.URL.Path != "/v1/customers/"+id || req.URL.Query().Get("expand[0]") != "invoice_settings.default_payment_method" {
		t.Errorf("retrieve request %s", req.URL)
	}
	if v["object"] != "customer" {
		t.Errorf("retrieved %v", v)
	}

	out, v = dispatch(t, reg, "u1", ToolGetCustomers, `{"limit":3,"email":"ada@example.com","max_pages":3}`)
	mustOK(t, out, ToolGetCustomers)
	if data, _ := v["data"].([]any); len(data) == 0 || v["object"] != "list" {
		t.Errorf("list %v", v)
	}
	req, _ = rec.last()
	if q := req.URL.Query(); q.Get("limit") != "3" || q.Get("email") != "ada@example.com" || q.Has("max_pages") {
		t.Errorf("list query %s (max_pages is not sent)", req.URL.RawQuery)
	}

	out, v = dispatch(t, reg, "u1", ToolDeleteCustomersCustomer, `{"customer":"`+id+`"}`)
	mustOK(t, out, ToolDeleteCustomersCustomer)
	if v["deleted"] != true {
		t.Errorf("delete %v", v)
	}

	// Invalid arguments stop at step 3, before any request.
	n := rec.count()
	out, _ = dispatch(t, reg, "u1", ToolGetCustomers, `{"limit":"three"}`)
	if out.Status != runtime.StatusError || out.Err.Kind != runtime.ErrInvalidArgs || rec.count() != n {
		t.Errorf("invalid args: %s %s", out.Status, out.Result.String())
	}
	// The API's own error message reaches the model: stripe-mock refuses
	// another API version than its document's.
	old, _ := setupVersion(t, "2020-08-27")
	out, _ = dispatch(t, old, "u1", ToolGetCustomersCustomer, `{"customer":"cus_123"}`)
	if out.Status != runtime.StatusError || out.Err.Kind != runtime.ErrExecution ||
		!strings.HasPrefix(out.Result.String(), "Error: the stripe API answered 400 Bad Request: ") || !strings.Contains(out.Result.String(), "2020-08-27") {
		t.Errorf("API error: %s %s", out.Status, out.Result.String())
	}
	// A user without credentials meets the gate.
	out, _ = dispatch(t, reg, "u2", ToolGetCustomers, `{}`)
	if out.Status != runtime.StatusError || out.Err.Kind != runtime.ErrGate {
		t.Errorf("gate: %s %s", out.Status, out.Result.String())
	}
	if tools, err := reg.Catalog(context.Background(), &runtime.Call{UserID: "u2"}); err != nil || len(tools) != 0 {
		t.Errorf("catalog without a connection: %d tools, %v", len(tools), err)
	}
}

func TestPricesProductsPaymentLinks(t *testing.T) {
	reg, rec := setup(t)
	out, prod := dispatch(t, reg, "u1", ToolPostProducts, `{"name":"Pro plan","metadata":{"tier":"pro"}}`)
	mustOK(t, out, ToolPostProducts)
	productID, _ := prod["id"].(string)
	if !strings.HasPrefix(productID, "prod_") {
		t.Fatalf("product %v", prod)
	}
	out, price := dispatch(t, reg, "u1", ToolPostPrices, `{"currency":"eur","unit_amount":1500,"product":"`+productID+`",
		"recurring":{"interval":"month","interval_count":1},"lookup_key":"pro_monthly"}`)
	mustOK(t, out, ToolPostPrices)
	_, form := rec.last()
	if form.Get("recurring[interval]") != "month" || form.Get("unit_amount") != "1500" || form.Get("product") != productID {
		t.Errorf("price form %v", form)
	}
	priceID, _ := price["id"].(string)
	if !strings.HasPrefix(priceID, "price_") || price["object"] != "price" {
		t.Fatalf("price %v", price)
	}
	// deepObject query: recurring[interval], lookup_keys[0].
	out, list := dispatch(t, reg, "u1", ToolGetPrices, `{"recurring":{"interval":"month"},"lookup_keys":["pro_monthly"],"active":true,"limit":2}`)
	mustOK(t, out, ToolGetPrices)
	req, _ := rec.last()
	if q := req.URL.Query(); q.Get("recurring[interval]") != "month" || q.Get("lookup_keys[0]") != "pro_monthly" || q.Get("active") != "true" {
		t.Errorf("prices query %s", req.URL.RawQuery)
	}
	if list["object"] != "list" {
		t.Errorf("prices %v", list)
	}

	// A payment link with nested line items: line_items[0][price], …
	out, link := dispatch(t, reg, "u1", ToolPostPaymentLinks, `{"line_items":[{"price":"`+priceID+`","quantity":2,
		"adjustable_quantity":{"enabled":true,"maximum":5}}],"metadata":{"campaign":"spring"},"after_completion":{"type":"redirect","redirect":{"url":"https://example.com/thanks"}}}`)
	mustOK(t, out, ToolPostPaymentLinks)
	_, form = rec.last()
	for k, want := range map[string]string{
		"line_items[0][price]": priceID, "line_items[0][quantity]": "2", "line_items[0][adjustable_quantity][enabled]": "true",
		"line_items[0][adjustable_quantity][maximum]": "5", "after_completion[redirect][url]": "https://example.com/thanks",
	} {
		if got := form.Get(k); got != want {
			t.Errorf("payment link form %s = %q, want %q", k, got, want)
		}
	}
	linkID, _ := link["id"].(string)
	if !strings.HasPrefix(linkID, "plink_") || link["object"] != "payment_link" {
		t.Fatalf("payment link %v", link)
	}
	out, items := dispatch(t, reg, "u1", ToolGetPaymentLinksPaymentLinkLineItems, `{"payment_link":"`+linkID+`","limit":5}`)
	mustOK(t, out, ToolGetPaymentLinksPaymentLinkLineItems)
	if items["object"] != "list" {
		t.Errorf("line items %v", items)
	}
	out, upd := dispatch(t, reg, "u1", ToolPostPaymentLinksPaymentLink, `{"payment_link":"`+linkID+`","active":false}`)
	mustOK(t, out, ToolPostPaymentLinksPaymentLink)
	if upd["object"] != "payment_link" {
		t.Errorf("updated link %v", upd)
	}
}

func TestInvoices(t *testing.T) {
	reg, rec := setup(t)
	out, inv := dispatch(t, reg, "u1", ToolPostInvoices, `{"customer":"cus_123","collection_method":"send_invoice","days_until_due":30,
		"custom_fields":[{"name":"PO","value":"4711"}],"metadata":{"order":"o-1"}}`)
	mustOK(t, out, ToolPostInvoices)
	_, form := rec.last()
	if form.Get("custom_fields[0][name]") != "PO" || form.Get("days_until_due") != "30" {
		t.Errorf("invoice form %v", form)
	}
	id, _ := inv["id"].(string)
	if !strings.HasPrefix(id, "in_") || inv["object"] != "invoice" {
		t.Fatalf("invoice %v", inv)
	}
	out, item := dispatch(t, reg, "u1", ToolPostInvoiceitems, `{"customer":"cus_123","invoice":"`+id+`","amount":2500,"currency":"eur","description":"Consulting"}`)
	mustOK(t, out, ToolPostInvoiceitems)
	if item["object"] != "invoiceitem" {
		t.Errorf("invoice item %v", item)
	}
	out, fin := dispatch(t, reg, "u1", ToolPostInvoicesInvoiceFinalize, `{"invoice":"`+id+`","auto_advance":false}`)
	mustOK(t, out, ToolPostInvoicesInvoiceFinalize)
	if fin["object"] != "invoice" {
		t.Errorf("finalized %v", fin)
	}
	out, got := dispatch(t, reg, "u1", ToolGetInvoicesInvoice, `{"invoice":"`+id+`","expand":["customer","lines.data.price"]}`)
	mustOK(t, out, ToolGetInvoicesInvoice)
	req, _ := rec.last()
	if q := req.URL.Query(); q.Get("expand[0]") != "customer" || q.Get("expand[1]") != "lines.data.price" {
		t.Errorf("expand query %s", req.URL.RawQuery)
	}
	if got["object"] != "invoice" {
		t.Errorf("invoice %v", got)
	}
	out, list := dispatch(t, reg, "u1", ToolGetInvoices, `{"customer":"cus_123","status":"open","limit":1,"max_pages":2}`)
	mustOK(t, out, ToolGetInvoices)
	if list["object"] != "list" {
		t.Errorf("invoices %v", list)
	}
}

// ioCopy copies a request's or response's body.
func ioCopy(w interface{ Write([]byte) (int, error) }, from any) (int64, error) {
	switch f := from.(type) {
	case *http.Request:
		return io.Copy(w, f.Body)
	case *http.Response:
		return io.Copy(w, f.Body)
	}
	return 0, nil
}
