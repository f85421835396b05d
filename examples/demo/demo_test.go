package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen/toolgen/internal/stripemock"
)

// moments are what every transcript shows, Stripe or not.
var moments = []string{
	"toolgen demo: a scripted conversation through the runtime: the model's calls, turn by turn, come from a script (no LLM)\n",
	"   approvals    a person approves each call of a tool whose spec says requires_approval (stripe's create tools),\n",
	"── 1. The catalog the model is shown for sam, who has not connected Stripe\n",
	"   (a summary, one line per tool: the model gets each tool's name, description and JSON Schema; step 3 shows one as it is sent)\n",
	"   hitl     wait_for_approval ",
	"   native   get_time ",
	"(no stripe_* tool: the stripe gate is closed for sam",
	"tool ← [call_1] error: Error: Stripe is not connected for this account.\n",
	"The executor never ran. The model reads every violation and tries again:\n",
	"The approval UI (its own connection to pausepoints.db) lists 1 pending pause point(s) for ada:\n",
	"     status        pending\n",
	"Resuming now is refused: ",
	"pause point not resolved yet",
	"sam tries to approve it: ",
	"not allowed to resolve this pause point",
	"     status        approved\n",
	`note "Go ahead."`,
	"A second Resume is refused: ",
	"pause point already consumed",
	"   ▸ Waiting for approval: Delete task 1 (Invoice Jenny for the March consulting)  [",
	"error: Error: a person denied the call of wait_for_approval: Keep it until Jenny has paid.\n",
	"   ▸ Checking the time in Europe/Paris  [",
	`ok: {"time":"`,
	`"timezone":"Europe/Paris"`,
	"ok: still served by the legacy switch\n",
	"tasks_list is still a case of the legacy switch, but the tasks module owns the name now",
	`error: Error: unknown tool "tasks_archive".` + "\n",
	`error: Error: unknown tool "tasks_lst". Did you mean "tasks_list"?` + "\n",
	"\nEvery step behaved as scripted.\n",
}

func check(t *testing.T, got string, want []string, notWant []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("transcript lacks %q", w)
		}
	}
	for _, w := range notWant {
		if strings.Contains(got, w) {
			t.Errorf("transcript has %q", w)
		}
	}
	if t.Failed() {
		t.Logf("transcript:\n%s", got)
	}
}

// overlapProxy forwards to stripe-mock at base, and holds the first
// customer list (step 4's stripe_list_customers) until revenue metrics, the
// other read-only call of that step, has sent its first request, or for 10
// seconds. Calls that run in parallel pass at once, however busy the
// machine; calls run one after the other make the customer list finish
// after the wait, before revenue metrics starts.
func overlapProxy(t *testing.T, base string) string {
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	revenue := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/subscriptions", "/v1/charges", "/v1/invoices":
			once.Do(func() { close(revenue) })
		case "/v1/customers":
			select {
			case <-revenue:
			case <-time.After(10 * time.Second):
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestDemoWithStripe(t *testing.T) {
	url := overlapProxy(t, stripemock.Start(t))
	var out bytes.Buffer
	if err := run(context.Background(), &out, options{StripeURL: url, Dir: t.TempDir()}); err != nil {
		t.Fatalf("run: %v\ntranscript:\n%s", err, out.String())
	}
	got := out.String()
	check(t, got, append(moments,
		"Stripe       stripe-mock at "+url+"; ada has connected Stripe, sam has not\n",
		"── 3. The catalog for ada, who has connected Stripe\n",
		"   stripe   stripe_create_invoice ",
		"   stripe   stripe_revenue_metrics ",
		"What is sent: EncodeCatalog encodes the registry's 12 tools for Anthropic as one JSON array (",
		`     {"name":"stripe_list_customers","description":"List recent customers, newest first; filter by exact email.","input_schema":{"additionalProperties":false,`,
		// One step, several calls: labels as they render, then the results.
		"RunCalls: the two read-only ones run in parallel",
		`model → {"id":"call_2","name":"stripe_list_customers","arguments":{"limit":3}}`,
		"   ▸ Pulling recent Stripe customers  [call_2]\n",
		"   ▸ Computing Stripe revenue metrics  [call_3]\n",
		"     · Stripe returned 1 subscription for status active  [call_3]\n",
		"     · Stripe returned 1 charge for the last 30 days  [call_3]\n",
		// The last progress line and the figures agree.
		"     · Counted 1 subscription, 0 succeeded charges of the last 30 days and 0 open invoices; left out: 1 subscription listed twice or neither active nor past_due, 1 charge not succeeded or not of the last 30 days, 1 invoice not open  [call_3]\n",
		`"subscriptions_counted":1,"charges_counted":0,"open_invoices":0,`,
		"   ▸ Adding task Invoice Jenny for the March consulting  [call_4]\n",
		`tool ← [call_2] ok: {"customers":[{"id":"cus_`,
		`tool ← [call_3] ok: {"as_of":`,
		// The validation error and the retry.
		`model → {"id":"call_5","name":"stripe_list_customers","arguments":{"email":"jenny.rosen(at)example","limit":500}}`,
		"error: Error: invalid arguments for stripe_list_customers:\n        - $.email: ",
		"        - $.limit: must be at most 100, got 500\n",
		"   ▸ Looking up jenny.rosen@example.com in Stripe  [call_6]\n",
		// The invoice pauses, is approved, and runs on Resume.
		"stripe_create_invoice is destructive and requires_approval in its spec.",
		"   ■ Drafting invoice for jenny.rosen@example.com: paused in ",
		"paused: The call of stripe_create_invoice is waiting for a person's approval and has not run yet: the tool requires approval before every call. Its result",
		"     tool          stripe_create_invoice\n",
		"     reason        the tool requires approval before every call\n",
		"     label         Drafting invoice for jenny.rosen@example.com\n",
		"   ■ Drafting invoice for jenny.rosen@example.com: ok in ",
		`tool ← [call_7] ok: {"id":"in_`,
		// The canned answers of stripe-mock are explained.
		"stripe-mock ignores the lists' filters and answers each with its one canned sample object: the same\n",
		"figures are subscriptions_counted 1, charges_counted 0 and open_invoices 0, as the last progress line says.\n",
		"a real Stripe account would return the sent invoice: open, 2400.00 USD, due in 14 days.\n",
	), []string{"SKIPPED"})

	// The resumed call ran after the approval, not before.
	if approved, ran := strings.Index(got, "     status        approved"), strings.Index(got, `tool ← [call_7] ok:`); approved < 0 || ran < approved {
		t.Errorf("the invoice ran at %d, before its approval at %d", ran, approved)
	}
	// Step 4's two read-only calls overlap: both start before either
	// finishes (overlapProxy makes this independent of the machine's load).
	starts := regexp.MustCompile(`▸ Pulling recent Stripe customers  \[call_2\]|▸ Computing Stripe revenue metrics  \[call_3\]`).FindAllStringIndex(got, -1)
	finish := regexp.MustCompile(`■ (Pulling recent Stripe customers|Computing Stripe revenue metrics): ok`).FindStringIndex(got)
	if len(starts) != 2 || finish == nil || starts[1][0] > finish[0] {
		t.Errorf("the two read-only calls did not run in parallel")
	}
}

func TestDemoWithoutStripe(t *testing.T) {
	var out bytes.Buffer
	why := explainStripeMock(stripemock.ErrNotFound)
	if err := run(context.Background(), &out, options{StripeSkipped: why, Dir: t.TempDir()}); err != nil {
		t.Fatalf("run: %v\ntranscript:\n%s", err, out.String())
	}
	check(t, out.String(), append(moments,
		"Stripe       SKIPPED: stripe-mock was not found ",
		"`make demo` installs it with .ci/stripe-mock.sh,",
		"RunCalls: the writes run in order",
		"error: Error: invalid arguments for tasks_add:\n",
		"        - $.priority: must be one of",
		"   ▸ Adding task Call the accountant  [call_6]\n",
		"tasks_delete is destructive, and the host's policy asks a person first.",
		"paused: The call of tasks_delete is waiting for a person's approval and has not run yet: the host asks a person before any destructive action.",
		"     tool          tasks_delete\n",
		"ok: deleted task 2 (Archive the 2025 receipts)\n",
	), []string{"stripe   stripe_", "stripe-mock at", "in_", "canned"})
}

// The demo is also a check: a step that goes wrong fails the run.
func TestDemoFailsWhenAStepMisbehaves(t *testing.T) {
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(`{"error":{"type":"api_error","message":"boom"}}`))
	}))
	defer broken.Close()
	var out bytes.Buffer
	err := run(context.Background(), &out, options{StripeURL: broken.URL, Dir: t.TempDir()})
	if err == nil {
		t.Fatalf("run against a failing Stripe succeeded; transcript:\n%s", out.String())
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "step 4: ") || !strings.Contains(msg, "Stripe had an internal error") {
		t.Errorf("error %q; want step 4 to fail with Stripe's error", msg)
	}
	if strings.Contains(out.String(), "Every step behaved as scripted") {
		t.Error("a failed run claims success")
	}
}

func TestDemoStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	if err := run(ctx, &out, options{Dir: t.TempDir()}); err == nil {
		t.Fatalf("run with a cancelled context succeeded; transcript:\n%s", out.String())
	}
}

func TestExplainStripeMock(t *testing.T) {
	got := explainStripeMock(stripemock.ErrNotFound)
	for _, want := range []string{"was not found", ".ci/stripe-mock.sh", "github.com/stripe/stripe-mock@" + stripemock.Version, "module proxy"} {
		if !strings.Contains(got, want) {
			t.Errorf("explanation %q lacks %q", got, want)
		}
	}
	if got := explainStripeMock(context.DeadlineExceeded); !strings.Contains(got, "did not start: context deadline exceeded") || !strings.Contains(got, "-stripe-mock-url") {
		t.Errorf("explanation %q", got)
	}
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		want  []string
	}{
		{"", 10, nil},
		{"one two three four", 9, []string{"one two", "three", "four"}},
		{"one two three four", 100, []string{"one two three four"}},
		{"a verylongword b", 4, []string{"a", "verylongword", "b"}},
		{"  spaced   out  ", 20, []string{"spaced out"}},
		{"né à été", 5, []string{"né à", "été"}},
	} {
		if got := wrap(tc.s, tc.width); !slices.Equal(got, tc.want) {
			t.Errorf("wrap(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}
