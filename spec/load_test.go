package spec

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func mustLoad(t *testing.T, path string) *File {
	t.Helper()
	f, err := Load(path)
	if err != nil {
		t.Fatalf("Load(%s):\n%v", path, err)
	}
	return f
}

func tool(t *testing.T, f *File, name string) *Tool {
	t.Helper()
	for _, tl := range f.Tools {
		if tl.Name == name {
			return tl
		}
	}
	t.Fatalf("no tool %q", name)
	return nil
}

func param(t *testing.T, tl *Tool, name string) *Property {
	t.Helper()
	p := tl.Params.Property(name)
	if p == nil {
		t.Fatalf("tool %s has no parameter %q", tl.Name, name)
	}
	return p
}

// flagState is a Flag without its position, for comparisons.
type flagState struct {
	Mode  FlagMode
	Value bool
	Set   bool
}

func states(fl Flags) map[string]flagState {
	st := func(f Flag) flagState { return flagState{f.Mode, f.Value, f.Set} }
	return map[string]flagState{
		"enabled": st(fl.Enabled), "read_only": st(fl.ReadOnly), "destructive": st(fl.Destructive),
		"idempotent": st(fl.Idempotent), "open_world": st(fl.OpenWorld),
		"concurrency_safe": st(fl.ConcurrencySafe), "requires_approval": st(fl.RequiresApproval),
	}
}

func ptr[T any](v T) *T { return &v }

func TestLoadStripe(t *testing.T) {
	f := mustLoad(t, "testdata/valid/stripe/stripe.tools.yaml")
	if f.Version != 1 || f.Provider != "stripe" || f.Package != "stripe" {
		t.Errorf("version, provider, package = %d, %q, %q", f.Version, f.Provider, f.Package)
	}
	if f.Gate != "stripe" || f.GateMessage != "Stripe is not connected for this account." {
		t.Errorf("module gate = %q, %q", f.Gate, f.GateMessage)
	}
	var names, goNames []string
	for _, tl := range f.Tools {
		names = append(names, tl.Name)
		goNames = append(goNames, tl.GoName)
	}
	wantGo := []string{"ListCustomers", "ListSubscriptions", "CreateInvoice", "RevenueMetrics", "DocsSearch"}
	if !reflect.DeepEqual(goNames, wantGo) {
		t.Errorf("tool Go names = %v, want %v (tools %v)", goNames, wantGo, names)
	}

	lc := tool(t, f, "stripe_list_customers")
	if lc.Kind != KindTool || lc.Pos.Line != 8 || lc.Pos.Col != 5 {
		t.Errorf("list_customers kind %q at %v", lc.Kind, lc.Pos)
	}
	// Flag defaults of DESIGN.md; concurrency_safe follows read_only.
	wantFlags := map[string]flagState{
		"enabled": {Static, true, false}, "read_only": {Static, true, true}, "destructive": {Static, false, false},
		"idempotent": {Static, false, false}, "open_world": {Static, true, false},
		"concurrency_safe": {Static, true, false}, "requires_approval": {Static, false, false},
	}
	if got := states(lc.Flags); !reflect.DeepEqual(got, wantFlags) {
		t.Errorf("list_customers flags = %v, want %v", got, wantFlags)
	}
	if lc.Gate != "stripe" || lc.GateMessage != f.GateMessage {
		t.Errorf("inherited gate = %q, %q", lc.Gate, lc.GateMessage)
	}
	wantParts := []LabelPart{
		{Text: "Looking up ", Pos: Pos{File: f.Path, Line: 11, Col: 14}},
		{Param: "email", Pos: Pos{File: f.Path, Line: 11, Col: 25}},
		{Text: " in Stripe", Pos: Pos{File: f.Path, Line: 11, Col: 32}},
	}
	if !reflect.DeepEqual(lc.StatusParts, wantParts) {
		t.Errorf("status parts = %+v\nwant %+v", lc.StatusParts, wantParts)
	}
	if lc.StatusFallback != "Pulling recent Stripe customers" {
		t.Errorf("status fallback = %q", lc.StatusFallback)
	}
	if got := lc.Params.Properties; len(got) != 2 || got[0].Name != "email" || got[1].Name != "limit" {
		t.Fatalf("params not in file order: %+v", got)
	}
	email, limit := param(t, lc, "email"), param(t, lc, "limit")
	if email.GoName != "Email" || email.Required || email.Schema.Type != TypeString || email.Schema.Format != "email" ||
		email.Schema.Description != "Optional filter by exact email." {
		t.Errorf("email = %+v, schema %+v", email, email.Schema)
	}
	ls := limit.Schema
	if ls.Type != TypeInteger || ls.Minimum.String() != "1" || ls.Maximum.String() != "100" ||
		!ls.HasDefault || ls.Default != int64(10) {
		t.Errorf("limit schema = %+v", ls)
	}
	if lc.Params.Type != TypeObject || lc.Params.AdditionalProperties || len(lc.Params.Required) != 0 {
		t.Errorf("params object = %+v", lc.Params)
	}

	ls2 := tool(t, f, "stripe_list_subscriptions")
	st := param(t, ls2, "status").Schema
	if !reflect.DeepEqual(st.Enum, []any{"active", "past_due", "canceled", "all"}) || st.Default != "all" {
		t.Errorf("status enum %v default %v", st.Enum, st.Default)
	}
	if want := []LabelPart{
		{Text: "Listing ", Pos: Pos{File: f.Path, Line: 20, Col: 13}},
		{Param: "status", Fallback: "all", HasFallback: true, Pos: Pos{File: f.Path, Line: 20, Col: 21}},
		{Text: " subscriptions", Pos: Pos{File: f.Path, Line: 20, Col: 33}},
	}; !reflect.DeepEqual(ls2.StatusParts, want) {
		t.Errorf("plain-scalar status parts = %+v\nwant %+v", ls2.StatusParts, want)
	}

	ci := tool(t, f, "stripe_create_invoice")
	if !ci.Flags.RequiresApproval.Value || !ci.Flags.RequiresApproval.Set || ci.Flags.ConcurrencySafe.Value {
		t.Errorf("create_invoice flags = %v", states(ci.Flags))
	}
	if !reflect.DeepEqual(ci.Params.Required, []string{"email", "amount_cents"}) {
		t.Errorf("required = %v", ci.Params.Required)
	}
	if !param(t, ci, "email").Required || !param(t, ci, "amount_cents").Required || param(t, ci, "currency").Required {
		t.Error("Required not marked from the tool's required list")
	}
	if am := param(t, ci, "amount_cents"); am.GoName != "AmountCents" || am.Schema.ExclusiveMinimum.String() != "0" {
		t.Errorf("amount_cents = %+v %+v", am, am.Schema)
	}
	if cur := param(t, ci, "currency").Schema; cur.Pattern != "^[a-z]{3}$" || cur.Default != "usd" {
		t.Errorf("currency = %+v", cur)
	}
	if want := []LabelPart{
		{Text: "Drafting invoice for ", Pos: Pos{File: f.Path, Line: 33, Col: 14}},
		{Param: "email", Fallback: "the customer", HasFallback: true, Pos: Pos{File: f.Path, Line: 33, Col: 35}},
	}; !reflect.DeepEqual(ci.StatusParts, want) {
		t.Errorf("single-quoted status parts = %+v\nwant %+v", ci.StatusParts, want)
	}

	rm := tool(t, f, "stripe_revenue_metrics")
	if rm.GateMessage != "Connect Stripe to see revenue." || rm.Gate != "stripe" {
		t.Errorf("tool gate message override: %q %q", rm.Gate, rm.GateMessage)
	}
	if rm.Flags.OpenWorld.Value || !rm.Flags.Idempotent.Value {
		t.Errorf("revenue flags = %v", states(rm.Flags))
	}
	if rm.Result == nil || rm.Result.Type != TypeObject || len(rm.Result.Properties) != 4 ||
		!rm.Result.Property("mrr_cents").Required || rm.Result.Property("outstanding_cents").Required ||
		rm.Result.Property("collected_30d_cents").GoName != "Collected30dCents" {
		t.Errorf("result = %+v", rm.Result)
	}
	if len(rm.StatusParts) != 1 || rm.StatusParts[0].Text != "Computing revenue metrics" {
		t.Errorf("constant status = %+v", rm.StatusParts)
	}
	if len(rm.Params.Properties) != 0 || rm.Params.Type != TypeObject {
		t.Errorf("a tool without params has an empty object: %+v", rm.Params)
	}

	ds := tool(t, f, "stripe_docs_search")
	if ds.Gate != "" || ds.GateMessage != "" {
		t.Errorf("gate: none left %q, %q", ds.Gate, ds.GateMessage)
	}
	if q := param(t, ds, "query").Schema; *q.MinLength != 1 || *q.MaxLength != 400 {
		t.Errorf("query lengths = %v %v", *q.MinLength, *q.MaxLength)
	}
}

func TestLoadShop(t *testing.T) {
	f := mustLoad(t, "testdata/valid/shop/shop.tools.yaml")
	if f.Package != "shoptools" {
		t.Errorf("explicit package = %q", f.Package)
	}
	var typeNames []string
	for _, nt := range f.Types {
		typeNames = append(typeNames, nt.Name+"/"+nt.GoName)
	}
	if want := []string{"Money/Money", "Address/Address", "LineItem/LineItem"}; !reflect.DeepEqual(typeNames, want) {
		t.Errorf("types = %v, want %v", typeNames, want)
	}
	money, address, lineItem := f.Types[0], f.Types[1], f.Types[2]
	if money.Schema.Description != "An amount in a currency's minor unit." || money.Schema.Property("currency").Schema.Default != "usd" {
		t.Errorf("Money = %+v", money.Schema)
	}
	if l2 := address.Schema.Property("line2").Schema; l2.Type != TypeString || !l2.Nullable {
		t.Errorf("[string, null] = %+v", l2)
	}
	if pc := address.Schema.Property("postal_code"); pc.GoName != "PostalCode" || pc.Required {
		t.Errorf("postal_code = %+v", pc)
	}
	if up := lineItem.Schema.Property("unit_price").Schema; up.Ref != "Money" || up.RefType != money || up.Resolved() != money.Schema {
		t.Errorf("unit_price ref = %+v", up)
	}
	if tags := lineItem.Schema.Property("tags").Schema; tags.Type != TypeArray || !tags.UniqueItems || tags.Items.Type != TypeString {
		t.Errorf("tags = %+v", tags)
	}

	co := tool(t, f, "shop_create_order")
	if co.GoName != "CreateOrder" || co.Gate != "shop_api" || co.GateMessage != "" {
		t.Errorf("create_order = %q gate %q %q", co.GoName, co.Gate, co.GateMessage)
	}
	if !co.Flags.PermissionCheck {
		t.Error("permission_check not read")
	}
	if p := param(t, co, "userId"); p.GoName != "UserID" {
		t.Errorf("userId Go name = %q", p.GoName)
	}
	if cid := param(t, co, "customer_id"); cid.GoName != "CustomerID" || !cid.Required || cid.Schema.Format != "uuid" {
		t.Errorf("customer_id = %+v", cid)
	}
	lines := param(t, co, "lines").Schema
	if lines.Type != TypeArray || *lines.MinItems != 1 || *lines.MaxItems != 50 || lines.Items.RefType != lineItem {
		t.Errorf("lines = %+v", lines)
	}
	if r := lines.Items.Resolved(); r != lineItem.Schema || !r.Property("sku").Required || r.Property("quantity").Schema.Default != int64(1) {
		t.Errorf("lines[] resolved = %+v", r)
	}
	if st := param(t, co, "ship_to").Schema; !st.Nullable || st.RefType != address {
		t.Errorf("ship_to = %+v", st)
	}
	if da := param(t, co, "deliver_after").Schema; !da.Nullable || da.Format != "date-time" {
		t.Errorf("deliver_after = %+v", da)
	}
	if gn := param(t, co, "gift_note").Schema; !gn.HasDefault || gn.Default != "" {
		t.Errorf("empty-string default = %+v", gn)
	}
	if pr := param(t, co, "priority").Schema; pr.Default != 1.0 || pr.MultipleOf.String() != "0.5" || pr.ExclusiveMaximum.String() != "10" {
		t.Errorf("number default is float64: %#v", pr.Default)
	}
	opts := param(t, co, "options").Schema
	if !opts.AdditionalProperties || opts.AdditionalPropertiesSchema == nil || opts.AdditionalPropertiesSchema.Type != TypeString {
		t.Errorf("options additionalProperties = %v %+v", opts.AdditionalProperties, opts.AdditionalPropertiesSchema)
	}
	if w := opts.Property("wrap").Schema; !w.HasDefault || w.Default != false {
		t.Errorf("false default = %+v", w)
	}
	if co.Result == nil || co.Result.RefType != money {
		t.Errorf("result ref = %+v", co.Result)
	}
	if want := (&Batch{Name: "shop_create_orders", MaxItems: 20, MaxConcurrency: 4, MaxResultBytes: DefaultBatchMaxResultBytes}); co.Batch == nil ||
		co.Batch.Name != want.Name || co.Batch.MaxItems != want.MaxItems || co.Batch.MaxConcurrency != want.MaxConcurrency || co.Batch.MaxResultBytes != want.MaxResultBytes {
		t.Errorf("batch = %+v", co.Batch)
	}
	if got := labelString(co.StatusParts); got != "Creating an order for {customer_id} ({{{currency|usd}}})" {
		t.Errorf("status round trip = %q", got)
	}
	if len(co.StatusParts) != 5 || co.StatusParts[2].Text != " ({" || co.StatusParts[4].Text != "})" {
		t.Errorf("literal braces = %+v", co.StatusParts)
	}

	rq := tool(t, f, "shop_run_query")
	if rq.Flags.ReadOnly.Mode != ByInput || rq.Flags.ConcurrencySafe.Mode != ByInput || rq.Flags.ConcurrencySafe.Set {
		t.Errorf("by_input flags = %v", states(rq.Flags))
	}
	if !rq.Flags.Destructive.Value || !rq.Params.AdditionalProperties || rq.Params.AdditionalPropertiesSchema != nil {
		t.Errorf("run_query: destructive %v, additionalProperties %v", rq.Flags.Destructive.Value, rq.Params.AdditionalProperties)
	}

	rs := tool(t, f, "shop_research")
	if rs.Kind != KindAgent || rs.Flags.Enabled.Value || !rs.Flags.ConcurrencySafe.Value || rs.Flags.ReadOnly.Value || rs.Gate != "" {
		t.Errorf("research = %q %v gate %q", rs.Kind, states(rs.Flags), rs.Gate)
	}
	if got := labelString(rs.PromptParts); rs.Prompt != "Research {question} and answer in {lang|English}." || got != rs.Prompt {
		t.Errorf("prompt = %q parts %q", rs.Prompt, got)
	}
	if b := rs.Batch; b == nil || b.Name != "shop_research_batch" || b.MaxItems != 50 || b.MaxConcurrency != 8 || b.MaxResultBytes != 20<<20 {
		t.Errorf("batch: true defaults = %+v", b)
	}
}

// labelString renders parts back as template text.
func labelString(parts []LabelPart) string {
	var b strings.Builder
	for _, pt := range parts {
		switch {
		case pt.Param == "":
			b.WriteString(strings.NewReplacer("{", "{{", "}", "}}").Replace(pt.Text))
		case pt.HasFallback:
			b.WriteString("{" + pt.Param + "|" + pt.Fallback + "}")
		default:
			b.WriteString("{" + pt.Param + "}")
		}
	}
	return b.String()
}

func TestParseErrorsAreListed(t *testing.T) {
	_, err := Parse("x.tools.yaml", []byte("toolgen: 1\nprovider: x\ntools:\n  - name: a\n    descripton: d\n  - nme: b\n"))
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %T is not an ErrorList", err)
	}
	want := `x.tools.yaml:4:5: missing required key "description" in tool "a" (the model reads it to choose the tool)
x.tools.yaml:5:5: unknown key "descripton" in tool "a" (did you mean "description"?)
x.tools.yaml:6:5: unknown key "nme" in tool #2 (did you mean "name"?)
x.tools.yaml:6:5: missing required key "name" in tool #2
x.tools.yaml:6:5: missing required key "description" in tool #2 (the model reads it to choose the tool)`
	if err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
	for i := 1; i < len(list); i++ {
		if list[i].Pos.Line < list[i-1].Pos.Line {
			t.Errorf("errors not sorted: %v before %v", list[i-1], list[i])
		}
	}
}

func TestParseEmpty(t *testing.T) {
	for _, src := range []string{"", "# only a comment\n"} {
		_, err := Parse("e.tools.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "e.tools.yaml:1:1: empty spec file") {
			t.Errorf("Parse(%q) = %v", src, err)
		}
	}
}

// TestYAMLTabHint: a yaml.v3 error caused by a tab in a line's indentation
// points at the tab and says to use spaces; the same messages without such
// a tab (a character that cannot start a token, a tab inside a value) get
// no hint.
func TestYAMLTabHint(t *testing.T) {
	const hint = " (YAML does not allow tabs for indentation; use spaces)"
	for _, c := range []struct{ src, want string }{
		{"toolgen: 1\ntools:\n\t- name: x\n", "t.tools.yaml:3:1: invalid YAML: found character that cannot start any token" + hint},
		{"toolgen: 1\ntools:\n  - name: x\n    params:\n    \ta: {type: string}\n", "t.tools.yaml:5:5: invalid YAML: found character that cannot start any token" + hint},
		{"toolgen: 1\nprovider: demo\n\ttools: []\n", "t.tools.yaml:3:1: invalid YAML: found a tab character that violates indentation" + hint},
		{"toolgen: 1\nprovider: @demo\n", "t.tools.yaml:2: invalid YAML: found character that cannot start any token"},
		{"toolgen: 1\nprovider:\t@demo\n", "t.tools.yaml:2: invalid YAML: found character that cannot start any token"},
	} {
		_, err := Parse("t.tools.yaml", []byte(c.src))
		if err == nil || err.Error() != c.want {
			t.Errorf("Parse(%q) = %v\nwant %s", c.src, err, c.want)
		}
	}
}

func TestLoadMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.tools.yaml")
	_, err := Load(path)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load of a missing file = %v, want fs.ErrNotExist", err)
	}
	var list ErrorList
	if !errors.As(err, &list) || err.Error() != path+": cannot read the spec file: no such file or directory" {
		t.Errorf("Load of a missing file = %T %q", err, err)
	}
}

func TestAnchorsAndMerge(t *testing.T) {
	src := `toolgen: 1
provider: demo
package: demo
types:
  Base: &base
    type: string
    minLength: 1
tools:
  - name: demo_a
    description: &d Shared description.
    params:
      q:
        <<: *base
        maxLength: 10
      r: *base
  - name: demo_b
    description: *d
`
	f, err := Parse("demo.tools.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	q := f.Tools[0].Params.Property("q").Schema
	if q.Type != TypeString || *q.MinLength != 1 || *q.MaxLength != 10 {
		t.Errorf("merged schema = %+v", q)
	}
	if r := f.Tools[0].Params.Property("r").Schema; r.Type != TypeString || *r.MinLength != 1 {
		t.Errorf("aliased schema = %+v", r)
	}
	if f.Tools[1].Description != "Shared description." {
		t.Errorf("aliased description = %q", f.Tools[1].Description)
	}
}

func TestDefaultPackage(t *testing.T) {
	dir := t.TempDir()
	spec := []byte("toolgen: 1\nprovider: demo\ntools:\n  - name: demo_a\n    description: A.\n")
	for _, tt := range []struct{ dir, pkg, err string }{
		{"my-tools", "mytools", ""},
		{"Stripe.API", "stripeapi", ""},
		{"v2", "v2", ""},
		{"2fa", "", `cannot make a Go package name from the directory name "2fa"; add a package: key`},
		{"go", "", `cannot make a Go package name from the directory name "go"; add a package: key`},
		{"---", "", `cannot make a Go package name from the directory name "---"; add a package: key`},
	} {
		path := filepath.Join(dir, tt.dir, "x.tools.yaml")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, spec, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := Load(path)
		switch {
		case tt.err != "":
			if err == nil || !strings.HasSuffix(err.Error(), tt.err) || !strings.HasPrefix(err.Error(), path+":1:1: ") {
				t.Errorf("dir %q: error %v, want %q", tt.dir, err, tt.err)
			}
		case err != nil:
			t.Errorf("dir %q: %v", tt.dir, err)
		case f.Package != tt.pkg:
			t.Errorf("dir %q: package %q, want %q", tt.dir, f.Package, tt.pkg)
		}
	}
}

func TestCompileLabel(t *testing.T) {
	tests := []struct {
		in    string
		parts []LabelPart
		errs  []labelError
	}{
		{"plain", []LabelPart{{Text: "plain"}}, nil},
		{"", nil, nil},
		{"{a}", []LabelPart{{Param: "a"}}, nil},
		{"x {a|none} y", []LabelPart{{Text: "x "}, {Param: "a", Fallback: "none", HasFallback: true, Pos: Pos{Col: 2}}, {Text: " y", Pos: Pos{Col: 10}}}, nil},
		{"{a|}", []LabelPart{{Param: "a", HasFallback: true}}, nil},
		{"{{a}}", []LabelPart{{Text: "{a}"}}, nil},
		{"{a}{b}", []LabelPart{{Param: "a"}, {Param: "b", Pos: Pos{Col: 3}}}, nil},
		{"a } b", []LabelPart{{Text: "a  b"}}, []labelError{{2, "unmatched } (write }} for a literal brace)"}}},
		{"a { b", []LabelPart{{Text: "a  b"}}, []labelError{{2, "unclosed { (close the placeholder with }, or write {{ for a literal brace)"}}},
		{"{}", nil, []labelError{{0, "empty placeholder: name a parameter, as in {email}"}}},
		{"{|x}", nil, []labelError{{0, "empty placeholder: name a parameter, as in {email}"}}},
		{"{a {b}", []LabelPart{{Param: "b", Pos: Pos{Col: 3}}}, []labelError{{0, "unclosed { (close the placeholder with }, or write {{ for a literal brace)"}}},
	}
	for _, tt := range tests {
		parts, errs := compileLabel(tt.in)
		if tt.errs == nil && len(errs) != 0 || tt.errs != nil && !reflect.DeepEqual(errs, tt.errs) {
			t.Errorf("compileLabel(%q) errors = %v, want %v", tt.in, errs, tt.errs)
		}
		if len(errs) == 0 && !reflect.DeepEqual(parts, tt.parts) {
			t.Errorf("compileLabel(%q) = %+v, want %+v", tt.in, parts, tt.parts)
		}
	}
}

func TestLabelColumnsWithEscapes(t *testing.T) {
	src := "toolgen: 1\nprovider: demo\npackage: demo\ntools:\n" +
		"  - name: demo_a\n    description: A.\n" +
		`    status: "Say \"hi\" to {nam}"` + "\n" +
		"  - name: demo_b\n    description: B.\n" +
		`    status: 'It''s {nam}'` + "\n" +
		"  - name: demo_c\n    description: C.\n" +
		"    status: |\n      Block {nam}\n"
	_, err := Parse("demo.tools.yaml", []byte(src))
	want := `demo.tools.yaml:7:28: status placeholder {nam} of tool "demo_a" names no parameter; the tool has no parameters
demo.tools.yaml:10:20: status placeholder {nam} of tool "demo_b" names no parameter; the tool has no parameters
demo.tools.yaml:13:13: status placeholder {nam} of tool "demo_c" names no parameter; the tool has no parameters`
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

func TestSuggest(t *testing.T) {
	tests := []struct {
		word string
		want string
	}{
		{"minLenght", "minLength"},
		{"descripton", "description"},
		{"MinLength", "minLength"},
		{"provder", "provider"},
		{"items", ""}, // exact matches are not suggestions of themselves
		{"zzzzzz", ""},
		{"max_concurency", "max_concurrency"},
		{"", ""},
	}
	cands := append(append([]string{}, schemaKeys...), "provider", "description", "max_concurrency")
	cands = append(cands[:0:0], cands...)
	for _, tt := range tests {
		c := cands
		if tt.word == "items" {
			c = []string{"items"}
		}
		if got := suggest(tt.word, c); got != tt.want {
			t.Errorf("suggest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestCheckFormat(t *testing.T) {
	good := map[string][]string{
		"date-time": {"2024-05-01T12:00:00Z", "2024-05-01T12:00:00.5+02:00"},
		"date":      {"2024-05-01"},
		"email":     {"a@example.com"},
		"uri":       {"https://example.com/x?y=1", "urn:isbn:0451450523"},
		"uuid":      {"123e4567-e89b-12d3-a456-426614174000"},
	}
	bad := map[string][]string{
		"date-time": {"2024-05-01", "yesterday"},
		"date":      {"2024-13-01", "01/05/2024"},
		"email":     {"not an email", "Name <a@example.com>"},
		"uri":       {"/relative/path", "example.com"},
		"uuid":      {"123e4567e89b12d3a456426614174000", "xyz"},
	}
	for f, vs := range good {
		for _, v := range vs {
			if why := checkFormat(f, v); why != "" {
				t.Errorf("checkFormat(%q, %q) = %q, want ok", f, v, why)
			}
		}
	}
	for f, vs := range bad {
		for _, v := range vs {
			if checkFormat(f, v) == "" {
				t.Errorf("checkFormat(%q, %q) accepted it", f, v)
			}
		}
	}
}

// TestAliasBomb: a file whose aliases expand exponentially is refused
// quickly with one located error instead of being walked.
func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("toolgen: 1\nprovider: demo\npackage: demo\ntools:\n  - name: demo_a\n    description: A.\n    params:\n")
	b.WriteString("      p0: {type: array, items: {type: integer}, default: &l0 [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "      p%d: {type: array, items: {type: integer}, default: &l%d [", i, i)
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]}\n")
	}
	_, err := Parse("bomb.tools.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "more than 10000 alias expansions") {
		t.Fatalf("got %v", err)
	}
	if n := strings.Count(err.Error(), "alias expansions"); n != 1 {
		t.Errorf("the expansion limit is reported %d times", n)
	}
}

// TestLoadTrim reads trim: true wherever a string schema can be (parameter,
// nested property, array item, named type, map value), keeps trimmed
// defaults and enum values, and leaves trim off where it is not written or
// written false.
func TestLoadTrim(t *testing.T) {
	src := `toolgen: 1
provider: demo
types:
  Word: {type: string, trim: true, minLength: 1, default: "go"}
tools:
  - name: demo_trim
    description: Trimmed strings everywhere.
    params:
      q: {type: string, trim: true, minLength: 1, maxLength: 400}
      plain: {type: string, trim: false}
      untouched: {type: string, default: "  kept  "}
      mode: {type: string, trim: true, enum: [fast, slow], default: fast}
      nested:
        type: object
        properties:
          name: {type: string, trim: true}
      list: {type: array, items: {type: string, trim: true}, default: [a, "b c"]}
      word: {$ref: "#/types/Word"}
      byKey: {type: object, additionalProperties: {type: string, trim: true, format: email}}
    required: [q]
`
	f, err := Parse("trim.tools.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tl := tool(t, f, "demo_trim")
	schemaOf := func(name string) *Schema { return param(t, tl, name).Schema }
	for name, s := range map[string]*Schema{
		"q":            schemaOf("q"),
		"mode":         schemaOf("mode"),
		"nested.name":  schemaOf("nested").Property("name").Schema,
		"list[]":       schemaOf("list").Items,
		"types.Word":   f.Types[0].Schema,
		"word (ref'd)": schemaOf("word").Resolved(),
		"byKey.*":      schemaOf("byKey").AdditionalPropertiesSchema,
	} {
		if s == nil || !s.Trim {
			t.Errorf("%s: trim not set: %+v", name, s)
		}
	}
	for _, name := range []string{"plain", "untouched", "word"} {
		if schemaOf(name).Trim {
			t.Errorf("%s: trim set", name)
		}
	}
	if d := schemaOf("untouched").Default; d != "  kept  " {
		t.Errorf("a default without trim changed: %q", d)
	}
	if d := schemaOf("list").Default; !reflect.DeepEqual(d, []any{"a", "b c"}) {
		t.Errorf("list default = %#v", d)
	}
	if m := schemaOf("mode"); !reflect.DeepEqual(m.Enum, []any{"fast", "slow"}) || m.Default != "fast" {
		t.Errorf("mode enum %v default %v", m.Enum, m.Default)
	}
}

func TestLoadExamples(t *testing.T) {
	src := `toolgen: 1
provider: demo
tools:
  - name: demo_find
    description: Find things.
    params:
      q: {type: string, trim: true, minLength: 1}
      n: {type: number, maximum: 10}
      at: {type: string, format: date-time}
      extra: {type: object, additionalProperties: true}
    required: [q]
    examples:
      - {q: "  spaced  ", n: 2}
      - q: x
        at: 2024-01-31T09:30:00Z
        extra: {any: [1, null]}
  - name: demo_none
    description: No examples.
`
	f, err := Parse("ex.tools.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ex := tool(t, f, "demo_find").Examples
	if len(ex) != 2 {
		t.Fatalf("%d examples, want 2", len(ex))
	}
	// As written: the string keeps its white space (the decoder trims
	// it), numbers are int64 as YAML wrote them, the timestamp a string.
	want := []map[string]any{
		{"q": "  spaced  ", "n": int64(2)},
		{"q": "x", "at": "2024-01-31T09:30:00Z", "extra": map[string]any{"any": []any{int64(1), nil}}},
	}
	for i := range want {
		if !reflect.DeepEqual(ex[i].Value, want[i]) {
			t.Errorf("example %d = %#v, want %#v", i+1, ex[i].Value, want[i])
		}
	}
	if p := ex[1].Pos; p.Line != 14 || p.Col != 9 {
		t.Errorf("example 2 at %v, want line 14 col 9", p)
	}
	if ex := tool(t, f, "demo_none").Examples; ex != nil {
		t.Errorf("a tool without examples has %v", ex)
	}
}
