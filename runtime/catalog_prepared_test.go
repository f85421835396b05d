package runtime

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// The prepared catalog writes what EncodeTools writes over the Catalog, in
// every dialect and mode, and follows the registry's changes.
func TestPreparedCatalogMatchesEncodeTools(t *testing.T) {
	ctx := context.Background()
	r := goldenRegistry(t)
	same := func(when string) {
		t.Helper()
		tools, err := r.Catalog(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range catalogModes {
			for _, strict := range []bool{false, true} {
				opts := m.opts
				opts.Strict = opts.Strict || strict
				want, werr := EncodeTools(m.d, tools, r.Provider(), opts)
				got, gerr := r.EncodeCatalog(ctx, nil, m.d, opts)
				if !bytes.Equal(got, want) || (werr == nil) != (gerr == nil) {
					t.Errorf("%s, %s strict=%v:\n got  %s %v\n want %s %v", when, m.name, opts.Strict, got, gerr, want, werr)
				}
			}
		}
	}
	same("at first")
	same("prepared")
	if !r.Remove("list_tickets") {
		t.Fatal("remove")
	}
	same("after Remove")
	if err := r.Add(encodeTestTool("list_tickets", "List them, again.", listTicketsSchema, DefaultFlags())); err != nil {
		t.Fatal(err)
	}
	same("after Add")
	// Enabled is read on every request.
	tool, _ := r.Get("delete_ticket")
	tool.Flags.Enabled = false
	same("after disabling a tool")
	out, _ := r.EncodeCatalog(ctx, nil, DialectMCP, EncodeOptions{})
	if bytes.Contains(out, []byte("delete_ticket")) {
		t.Error("a disabled tool is still listed")
	}
	if err := r.AddProvider(ProviderTool{Name: "computer_20250124"}); err != nil {
		t.Fatal(err)
	}
	same("after AddProvider")
}

// A tool that cannot be encoded fails the catalog only when it is shown; a
// provider tool's name that clashes with a shown tool's is refused.
func TestPreparedCatalogErrors(t *testing.T) {
	ctx := context.Background()
	open := map[string]bool{}
	r := NewRegistry(Options{Gates: GatesFunc(func(_ context.Context, _ *Call, g string) (bool, error) { return open[g], nil })})
	bad := encodeTestTool("bad", "", `{"type":"string"}`, DefaultFlags())
	bad.Gate = "g"
	dotted := encodeTestTool("a.b", "", "", DefaultFlags())
	dotted.Gate = "dots"
	fine := encodeTestTool("web_search", "", "", DefaultFlags())
	fine.Gate = "web"
	if err := r.Add(bad, dotted, fine, encodeTestTool("ok", "", "", DefaultFlags())); err != nil {
		t.Fatal(err)
	}
	if err := r.AddProvider(ProviderTool{Name: "web_search_20250305"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.EncodeCatalog(ctx, nil, DialectAnthropic, EncodeOptions{}); err != nil {
		t.Fatalf("nothing bad shown: %v", err)
	}
	open["g"] = true
	if _, err := r.EncodeCatalog(ctx, nil, DialectAnthropic, EncodeOptions{}); err == nil || !strings.Contains(err.Error(), `tool "bad"`) {
		t.Errorf("bad schema shown: %v", err)
	}
	open["g"], open["dots"] = false, true
	if _, err := r.EncodeCatalog(ctx, nil, DialectAnthropic, EncodeOptions{}); err == nil || !strings.Contains(err.Error(), `tool "a.b"`) {
		t.Errorf("dotted name for anthropic: %v", err)
	}
	if _, err := r.EncodeCatalog(ctx, nil, DialectMCP, EncodeOptions{}); err != nil {
		t.Errorf("dotted name for MCP: %v", err)
	}
	open["dots"], open["web"] = false, true
	if _, err := r.EncodeCatalog(ctx, nil, DialectAnthropic, EncodeOptions{}); !errors.Is(err, ErrDuplicate) {
		t.Errorf("web_search twice: %v", err)
	}
	if _, err := r.EncodeCatalog(ctx, nil, Dialect("nope"), EncodeOptions{}); err == nil {
		t.Error("unknown dialect")
	}
}
