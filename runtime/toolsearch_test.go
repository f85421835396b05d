package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// The 500-tool catalog of the deferral tests: 25 nouns × 20 verbs
// ("create_invoice": "Create an invoice in the account."), each with a
// parameter object; every tool deferred except the ten list_… and get_…
// tools of the first five nouns. refund_payment is behind the closed gate
// billing, archive_coupon is disabled.
var (
	searchNouns = []string{"customer", "invoice", "charge", "subscription", "ticket", "order", "shipment", "payment",
		"product", "coupon", "refund", "dispute", "payout", "account", "webhook", "report", "user", "team",
		"project", "document", "calendar_event", "email_message", "file", "database_row", "deployment"}
	searchVerbs = []string{"list", "get", "create", "update", "delete", "search", "archive", "export", "import", "count",
		"restore", "refund", "approve", "reject", "assign", "tag", "merge", "duplicate", "schedule", "notify"}
)

const searchToolSchema = `{"additionalProperties":false,"properties":{"id":{"description":"The object's id.","type":"string"},` +
	`"limit":{"default":10,"maximum":100,"minimum":1,"type":"integer"},"note":{"maxLength":500,"type":"string"}},"required":["id"],"type":"object"}`

func searchRegistry(t testing.TB, search ...*Tool) *Registry {
	t.Helper()
	r := NewRegistry(Options{Gates: GatesFunc(func(_ context.Context, _ *Call, gate string) (bool, error) {
		return gate != "billing", nil
	})})
	for ni, noun := range searchNouns {
		for _, verb := range searchVerbs {
			name := verb + "_" + noun
			words := strings.ReplaceAll(noun, "_", " ")
			tool := encodeTestTool(name, strings.ToUpper(verb[:1])+verb[1:]+" a "+words+" in the account.",
				searchToolSchema, DefaultFlags())
			tool.DeferLoading = !(ni < 5 && (verb == "list" || verb == "get"))
			switch name {
			case "refund_payment":
				tool.Gate = "billing"
			case "archive_coupon":
				tool.Flags.Enabled = false
			}
			if err := r.Add(tool); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := r.Add(search...); err != nil {
		t.Fatal(err)
	}
	return r
}

func mustToolSearch(t testing.TB, opts ToolSearchOptions) *Tool {
	t.Helper()
	s, err := NewToolSearch(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// catalogNames returns the names of a catalog's function tools and the
// types of its other entries.
func catalogNames(t *testing.T, d Dialect, raw []byte) (names, others []string) {
	t.Helper()
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	str := func(m map[string]json.RawMessage, k string) string {
		var s string
		_ = json.Unmarshal(m[k], &s)
		return s
	}
	for _, it := range items {
		switch {
		case d == DialectOpenAIChat:
			var f map[string]json.RawMessage
			_ = json.Unmarshal(it["function"], &f)
			names = append(names, str(f, "name"))
		case d == DialectGemini && it["functionDeclarations"] != nil:
			var fs []map[string]json.RawMessage
			_ = json.Unmarshal(it["functionDeclarations"], &fs)
			for _, f := range fs {
				names = append(names, str(f, "name"))
			}
		case d == DialectMCP, d == DialectAnthropic && it["type"] == nil, d == DialectOpenAI && str(it, "type") == "function":
			names = append(names, str(it, "name"))
		default:
			others = append(others, string(mustCompact(t, it)))
		}
	}
	return names, others
}

func mustCompact(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDeferredCatalogSize: over 500 tools, a catalog with a portable search
// tool shows the ten loaded tools and the search tool, a small part of the
// whole; without one, every tool is sent. OpenAI Responses and Anthropic
// send every tool, the deferred ones marked, and their own search tool.
func TestDeferredCatalogSize(t *testing.T) {
	ctx := context.Background()
	call := &Call{UserID: "u"}
	for _, d := range []Dialect{DialectOpenAIChat, DialectGemini, DialectMCP} {
		t.Run(string(d), func(t *testing.T) {
			plain, err := searchRegistry(t).EncodeCatalog(ctx, call, d, EncodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r := searchRegistry(t, mustToolSearch(t, ToolSearchOptions{Dialect: d}))
			deferred, err := r.EncodeCatalog(ctx, call, d, EncodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			names, _ := catalogNames(t, d, plain)
			if len(names) != 498 { // 500 less the gated and the disabled tool
				t.Fatalf("without a search tool: %d tools, want 498", len(names))
			}
			names, _ = catalogNames(t, d, deferred)
			want := []string{"list_customer", "get_customer", "list_invoice", "get_invoice", "list_charge", "get_charge",
				"list_subscription", "get_subscription", "list_ticket", "get_ticket", ToolSearchName}
			if !slices.Equal(names, want) {
				t.Errorf("with a search tool: %v, want %v", names, want)
			}
			t.Logf("%s: catalog of 500 tools %d bytes, deferred %d bytes (%.1f%%)", d, len(plain), len(deferred),
				100*float64(len(deferred))/float64(len(plain)))
			if len(deferred)*20 > len(plain) {
				t.Errorf("deferred catalog is %d bytes of %d", len(deferred), len(plain))
			}
		})
	}
	for _, c := range []struct {
		d      Dialect
		search string
	}{
		{DialectOpenAI, openAIToolSearch},
		{DialectAnthropic, anthropicToolSearch},
	} {
		t.Run(string(c.d), func(t *testing.T) {
			// A portable search tool is not shown where the dialect has its own.
			r := searchRegistry(t, mustToolSearch(t, ToolSearchOptions{Dialect: DialectOpenAIChat}))
			out, err := r.EncodeCatalog(ctx, call, c.d, EncodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			names, others := catalogNames(t, c.d, out)
			if len(names) != 498 || slices.Contains(names, ToolSearchName) {
				t.Errorf("%d tools (search tool shown: %v), want the 498 shown", len(names), slices.Contains(names, ToolSearchName))
			}
			var search map[string]any
			if err := json.Unmarshal([]byte(c.search), &search); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(others, []string{string(mustCompact(t, search))}) {
				t.Errorf("other entries %v, want %s", others, c.search)
			}
			if n := bytes.Count(out, []byte(`"defer_loading":true`)); n != 488 {
				t.Errorf("%d tools say defer_loading, want 488", n)
			}
			// A host's own search tool replaces the default one.
			own := "tool_search_tool_regex_20251119"
			if c.d == DialectOpenAI {
				own = "tool_search"
			}
			r = searchRegistry(t)
			if err := r.AddProvider(ProviderTool{Name: own}); err != nil {
				t.Fatal(err)
			}
			out, err = r.EncodeCatalog(ctx, call, c.d, EncodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if _, others := catalogNames(t, c.d, out); len(others) != 1 || !strings.Contains(others[0], `"`+own+`"`) {
				t.Errorf("with the host's %s: other entries %v", own, others)
			}
		})
	}
}

// A catalog that defers nothing it shows has no search tool, native or
// portable.
func TestToolSearchOnlyWhereSomethingIsDeferred(t *testing.T) {
	ctx := context.Background()
	r := goldenRegistry(t)
	if err := r.Add(mustToolSearch(t, ToolSearchOptions{Dialect: DialectMCP})); err != nil {
		t.Fatal(err)
	}
	for _, m := range catalogModes {
		out, err := r.EncodeCatalog(ctx, nil, m.d, m.opts)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(out, []byte("tool_search")) || bytes.Contains(out, []byte("defer_loading")) {
			t.Errorf("%s: %s", m.name, out)
		}
	}
	// Deferring a gated tool whose gate is closed defers nothing shown.
	tool, _ := r.Get("billing_refund")
	tool.DeferLoading = true
	r.Remove(tool.Name)
	if err := r.Add(tool); err != nil {
		t.Fatal(err)
	}
	for _, m := range catalogModes {
		if out, _ := r.EncodeCatalog(ctx, nil, m.d, m.opts); bytes.Contains(out, []byte("tool_search")) {
			t.Errorf("%s, only a hidden tool deferred: %s", m.name, out)
		}
	}
}

// TestSearchFindsTools: the words of a query find the tools they name, best
// first; hidden, gated, disabled and loaded tools are never found.
func TestSearchFindsTools(t *testing.T) {
	ctx := context.Background()
	r := searchRegistry(t, mustToolSearch(t, ToolSearchOptions{Dialect: DialectMCP}))
	call := &Call{UserID: "u"}
	for _, c := range []struct {
		query string
		limit int
		first []string // the first results, in order
		all   []string // every result, in any order (nil: not checked)
		not   []string
	}{
		{query: "create invoice", first: []string{"create_invoice"}},
		{query: "Create an Invoice", first: []string{"create_invoice"}},
		{query: "createInvoice", first: []string{"create_invoice"}},
		{query: "invoices", limit: 20, all: []string{"create_invoice", "update_invoice", "delete_invoice", "search_invoice",
			"archive_invoice", "export_invoice", "import_invoice", "count_invoice", "restore_invoice", "refund_invoice",
			"approve_invoice", "reject_invoice", "assign_invoice", "tag_invoice", "merge_invoice", "duplicate_invoice",
			"schedule_invoice", "notify_invoice"}},
		// refund_customer is the first deferred refund_… tool; list_refund
		// and the others match "refund" in their names too.
		{query: "refund a payment", first: []string{"refund_customer", "refund_invoice", "refund_charge"}, not: []string{"refund_payment"}},
		{query: "refund payment", limit: 20, not: []string{"refund_payment"}},
		{query: "REFUND payment", not: []string{"refund_payment"}},
		{query: "archive coupon", not: []string{"archive_coupon"}},
		{query: "list customers", not: []string{"list_customer", "get_customer"}},
		{query: "calendar event schedule", first: []string{"schedule_calendar_event"}},
		{query: "dep", first: []string{"list_deployment"}},
		{query: "deploy", first: []string{"list_deployment"}},
		{query: "email", limit: 3, first: []string{"list_email_message", "get_email_message", "create_email_message"}},
		{query: "note", limit: 1, first: []string{"create_customer"}}, // a parameter name: every tool has it; registration order
		{query: "zebra", all: []string{}},
		{query: "the a of", all: []string{}},
	} {
		got, err := r.SearchTools(ctx, call, c.query, c.limit)
		if err != nil {
			t.Fatal(err)
		}
		names := toolNames(got)
		limit := c.limit
		if limit == 0 {
			limit = DefaultToolSearchResults
		}
		if len(names) > limit {
			t.Errorf("%q: %d results, limit %d", c.query, len(names), limit)
		}
		if len(names) < len(c.first) || !slices.Equal(names[:len(c.first)], c.first) {
			t.Errorf("%q: %v, want first %v", c.query, names, c.first)
		}
		if c.all != nil {
			a, b := slices.Clone(names), slices.Clone(c.all)
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) {
				t.Errorf("%q: %v, want %v", c.query, names, c.all)
			}
		}
		for _, n := range c.not {
			if slices.Contains(names, n) {
				t.Errorf("%q: found %s, which the catalog hides or already shows", c.query, n)
			}
		}
		if slices.Contains(names, ToolSearchName) {
			t.Errorf("%q: the search tool found itself", c.query)
		}
	}
}

// TestToolSearchDispatch: the search tool runs through Dispatch like any
// tool and returns the found tools in its dialect's format; a tool found
// is dispatched through the whole pipeline.
func TestToolSearchDispatch(t *testing.T) {
	ctx := context.Background()
	call := &Call{UserID: "u"}
	for _, d := range []Dialect{DialectOpenAIChat, DialectGemini, DialectMCP} {
		r := searchRegistry(t, mustToolSearch(t, ToolSearchOptions{Dialect: d, MaxResults: 3}))
		out, err := r.Dispatch(ctx, call, ToolCall{ID: "1", Name: ToolSearchName, Arguments: json.RawMessage(`{"query":"refund a payment"}`)})
		if err != nil || out.Status != StatusOK {
			t.Fatalf("%s: %v %+v", d, err, out)
		}
		names, others := catalogNames(t, d, []byte(out.Result.String()))
		if want := []string{"refund_customer", "refund_invoice", "refund_charge"}; !slices.Equal(names, want) || others != nil {
			t.Errorf("%s: found %v %v, want %v", d, names, others, want)
		}
		// Each definition is the catalog's, byte for byte.
		full, err := EncodeTools(d, []*Tool{mustGet(t, r, "refund_customer"), mustGet(t, r, "refund_invoice"), mustGet(t, r, "refund_charge")}, nil, EncodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := out.Result.String(); got != string(full) {
			t.Errorf("%s: search result\n%s\nwant\n%s", d, got, full)
		}
	}

	r := searchRegistry(t, mustToolSearch(t, ToolSearchOptions{Dialect: DialectMCP}))
	for _, c := range []struct{ args, want string }{
		{`{}`, "$.query: is required"},
		{`{"query":"  "}`, "$.query: must not be blank"},
		{`{"query":"x","limit":0}`, "$.limit: must be between 1 and 5, got 0"},
		{`{"query":"x","limit":6}`, "$.limit: must be between 1 and 5, got 6"},
		{`{"query":"x","other":1}`, `unknown field "other"`},
		{`{"query":"` + strings.Repeat("x", 201) + `"}`, "must be at most 200 characters, got 201"},
	} {
		out, err := r.Dispatch(ctx, call, ToolCall{Name: ToolSearchName, Arguments: json.RawMessage(c.args)})
		if err != nil || out.Status != StatusError || !strings.Contains(out.Result.String(), c.want) {
			t.Errorf("%s: %v %s %q, want an error with %q", c.args, err, out.Status, out.Result.String(), c.want)
		}
	}

	// A deferred tool is dispatched like any other, shown or not: its gate
	// and permission still apply.
	ran := map[string]bool{}
	for _, name := range []string{"create_invoice", "refund_payment", "delete_order", "archive_coupon"} {
		tool := mustGet(t, r, name)
		tool.Execute = func(context.Context, *Call, any) (Result, error) { ran[name] = true; return Text("done"), nil }
	}
	mustGet(t, r, "delete_order").Flags.RequiresApproval = true
	for _, c := range []struct {
		name   string
		status Status
		kind   ErrorKind
	}{
		{"create_invoice", StatusOK, ""},
		{"refund_payment", StatusError, ErrGate},
		{"archive_coupon", StatusError, ErrDisabled},
		{"delete_order", StatusError, ErrDenied}, // approval needed, and this registry has no Approvals
	} {
		out, err := r.Dispatch(ctx, call, ToolCall{Name: c.name, Arguments: json.RawMessage(`{"id":"x"}`)})
		if err != nil {
			t.Fatal(err)
		}
		if out.Status != c.status || (c.kind != "" && (out.Err == nil || out.Err.Kind != c.kind)) {
			t.Errorf("%s: %s %+v, want %s %s", c.name, out.Status, out.Err, c.status, c.kind)
		}
		if ran[c.name] != (c.status == StatusOK) {
			t.Errorf("%s: executed %v", c.name, ran[c.name])
		}
	}
}

func mustGet(t testing.TB, r *Registry, name string) *Tool {
	t.Helper()
	tool, ok := r.Get(name)
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	return tool
}

func TestNewToolSearchErrors(t *testing.T) {
	for _, c := range []struct {
		opts ToolSearchOptions
		want string
	}{
		{ToolSearchOptions{Dialect: DialectOpenAI}, "has its own tool search"},
		{ToolSearchOptions{Dialect: DialectAnthropic}, "has its own tool search"},
		{ToolSearchOptions{}, "unknown dialect"},
		{ToolSearchOptions{Dialect: DialectMCP, MaxResults: 21}, "MaxResults 21 is not between 1 and 20"},
		{ToolSearchOptions{Dialect: DialectMCP, Name: "bad name"}, "bad name"},
	} {
		if _, err := NewToolSearch(c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.opts, err, c.want)
		}
	}
}

func TestSearchWords(t *testing.T) {
	for in, want := range map[string]string{
		"list_customers":           "list customer",
		"listCustomers":            "list customer",
		"stripe.ListHTTPCustomers": "stripe list httpcustomer",
		"Refund a charge, fully.":  "refund charge fully",
		"address status bus":       "address statu bus",
		"Größe der Dateien":        "größe der dateien",
		"v2 API":                   "v2 api",
		"":                         "",
	} {
		if got := strings.Join(searchWords(in, nil), " "); got != want {
			t.Errorf("searchWords(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkToolSearch is one search over the 500-tool catalog (index built
// before the timer starts), through SearchTools and through the search
// tool's Dispatch (decode, pipeline, encoded results).
func BenchmarkToolSearch(b *testing.B) {
	ctx := context.Background()
	call := &Call{UserID: "u"}
	r := searchRegistry(b, mustToolSearch(b, ToolSearchOptions{Dialect: DialectOpenAIChat}))
	if _, err := r.SearchTools(ctx, call, "x", 0); err != nil {
		b.Fatal(err)
	}
	b.Run("SearchTools", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if got, err := r.SearchTools(ctx, call, "refund a payment for an invoice", 5); err != nil || len(got) != 5 {
				b.Fatal(err, len(got))
			}
		}
	})
	tc := ToolCall{Name: ToolSearchName, Arguments: json.RawMessage(`{"query":"refund a payment for an invoice"}`)}
	if _, err := r.Dispatch(ctx, call, tc); err != nil {
		b.Fatal(err)
	}
	b.Run("Dispatch", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if out, err := r.Dispatch(ctx, call, tc); err != nil || out.Status != StatusOK {
				b.Fatal(err, out.Status)
			}
		}
	})
}

// deferredGoldenRegistry is the golden registry with list_tickets and
// delete_ticket deferred, and a portable search tool for MCP.
func deferredGoldenRegistry(t testing.TB) *Registry {
	r := goldenRegistry(t)
	for _, name := range []string{"list_tickets", "delete_ticket"} {
		mustGet(t, r, name).DeferLoading = true
	}
	if err := r.Add(mustToolSearch(t, ToolSearchOptions{Dialect: DialectMCP})); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestEncodeDeferredGolden: the golden catalog with two tools deferred, in
// the dialects with a native tool search and in MCP with the portable one.
func TestEncodeDeferredGolden(t *testing.T) {
	r := deferredGoldenRegistry(t)
	for _, c := range []struct {
		file string
		d    Dialect
		opts EncodeOptions
	}{
		{"openai_responses_deferred.json", DialectOpenAI, EncodeOptions{}},
		{"anthropic_deferred.json", DialectAnthropic, EncodeOptions{}},
		{"anthropic_strict_deferred.json", DialectAnthropic, EncodeOptions{Strict: true}},
		{"mcp_deferred.json", DialectMCP, EncodeOptions{}},
	} {
		t.Run(c.file, func(t *testing.T) {
			got, err := r.EncodeCatalog(context.Background(), &Call{UserID: "u"}, c.d, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, c.file, got)
		})
	}
}

// The prepared catalog writes what EncodeTools writes with deferred tools
// and a search tool too, in every dialect and mode.
func TestPreparedCatalogDeferred(t *testing.T) {
	ctx := context.Background()
	r := deferredGoldenRegistry(t)
	tools, err := r.Catalog(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range catalogModes {
		want, werr := EncodeTools(m.d, tools, r.Provider(), m.opts)
		got, gerr := r.EncodeCatalog(ctx, nil, m.d, m.opts)
		if werr != nil || gerr != nil || !bytes.Equal(got, want) {
			t.Errorf("%s:\n got  %s %v\n want %s %v", m.name, got, gerr, want, werr)
		}
	}
}
