package runtime

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

func regTool(name string) *Tool {
	return &Tool{
		Name:    name,
		Flags:   DefaultFlags(),
		Decode:  func([]byte) (any, error) { return nil, nil },
		Execute: func(context.Context, *Call, any) (Result, error) { return Text(name), nil },
	}
}

func toolNames(ts []*Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

func providerNames(ps []ProviderTool) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}

func TestRegistryKindsAndAccessors(t *testing.T) {
	r := NewRegistry(Options{})
	if err := r.Add(regTool("a"), regTool("b")); err != nil {
		t.Fatal(err)
	}
	if err := r.AddMCP(regTool("m1")); err != nil {
		t.Fatal(err)
	}
	if err := r.AddProvider(ProviderTool{Name: "web_search", Config: map[string]any{"max_uses": 3}}); err != nil {
		t.Fatal(err)
	}
	if err := r.AddModule(&Module{Provider: "stripe", Tools: []*Tool{regTool("s1"), regTool("s2")}}); err != nil {
		t.Fatal(err)
	}
	if got, want := toolNames(r.Local()), []string{"a", "b", "s1", "s2"}; !slices.Equal(got, want) {
		t.Fatalf("Local %v, want %v", got, want)
	}
	if got, want := toolNames(r.MCP()), []string{"m1"}; !slices.Equal(got, want) {
		t.Fatalf("MCP %v, want %v", got, want)
	}
	if got, want := toolNames(r.Executable()), []string{"a", "b", "m1", "s1", "s2"}; !slices.Equal(got, want) {
		t.Fatalf("Executable %v, want %v", got, want)
	}
	if got, want := providerNames(r.Provider()), []string{"web_search"}; !slices.Equal(got, want) {
		t.Fatalf("Provider %v, want %v", got, want)
	}
	if r.Len() != 6 {
		t.Fatalf("Len %d", r.Len())
	}
	for _, n := range []string{"a", "m1", "web_search", "s2"} {
		if !r.Has(n) {
			t.Fatalf("Has(%q) false", n)
		}
	}
	if r.Has("zzz") {
		t.Fatal("Has(zzz)")
	}
	if s1, ok := r.Get("s1"); !ok || s1.Provider != "stripe" || s1.Source != SourceLocal {
		t.Fatalf("Get(s1) %+v %v", s1, ok)
	}
	if m1, ok := r.Get("m1"); !ok || m1.Source != SourceMCP {
		t.Fatalf("Get(m1) %+v %v", m1, ok)
	}
	if _, ok := r.Get("web_search"); ok {
		t.Fatal("Get returned a provider tool")
	}
	if p, ok := r.GetProvider("web_search"); !ok || p.Config["max_uses"] != 3 {
		t.Fatalf("GetProvider %+v %v", p, ok)
	}

	if !r.Remove("web_search") || r.Has("web_search") || r.Remove("web_search") {
		t.Fatal("Remove(provider)")
	}
	if !r.Remove("b") || r.Has("b") || r.Len() != 4 {
		t.Fatal("Remove(local)")
	}
	// A removed name can be registered again, as any kind, and goes last.
	if err := r.AddProvider(ProviderTool{Name: "b"}); err != nil {
		t.Fatal(err)
	}
	if err := r.Add(regTool("web_search")); err != nil {
		t.Fatal(err)
	}
	if got, want := toolNames(r.Executable()), []string{"a", "m1", "s1", "s2", "web_search"}; !slices.Equal(got, want) {
		t.Fatalf("Executable after churn %v, want %v", got, want)
	}
}

// A name is unique across local, MCP and provider tools, and a batch with a
// bad entry adds nothing.
func TestRegistryDuplicatesAcrossKinds(t *testing.T) {
	type add func(r *Registry, name string) error
	kinds := map[string]add{
		"Add":         func(r *Registry, n string) error { return r.Add(regTool(n)) },
		"AddMCP":      func(r *Registry, n string) error { return r.AddMCP(regTool(n)) },
		"AddProvider": func(r *Registry, n string) error { return r.AddProvider(ProviderTool{Name: n}) },
		"AddModule": func(r *Registry, n string) error {
			return r.AddModule(&Module{Provider: "p", Tools: []*Tool{regTool(n)}})
		},
	}
	for first, addFirst := range kinds {
		for second, addSecond := range kinds {
			t.Run(first+" then "+second, func(t *testing.T) {
				r := NewRegistry(Options{})
				if err := addFirst(r, "x"); err != nil {
					t.Fatal(err)
				}
				err := addSecond(r, "x")
				if !errors.Is(err, ErrDuplicate) || !strings.Contains(err.Error(), `"x"`) {
					t.Fatalf("err = %v, want ErrDuplicate naming x", err)
				}
				if r.Len() != 1 {
					t.Fatalf("Len %d", r.Len())
				}
			})
		}
	}
	batches := []struct {
		name string
		add  func(r *Registry) error
		is   error
		msg  string
	}{
		{"Add repeats a name", func(r *Registry) error { return r.Add(regTool("n1"), regTool("n1")) }, ErrDuplicate, `"n1"`},
		{"Add hits an existing name", func(r *Registry) error { return r.Add(regTool("n1"), regTool("old")) }, ErrDuplicate, `"old"`},
		{"AddMCP hits a provider name", func(r *Registry) error { return r.AddMCP(regTool("n1"), regTool("prov")) }, ErrDuplicate, `"prov"`},
		{"AddProvider repeats", func(r *Registry) error {
			return r.AddProvider(ProviderTool{Name: "n1"}, ProviderTool{Name: "n1"})
		}, ErrDuplicate, `"n1"`},
		{"AddProvider hits a local name", func(r *Registry) error {
			return r.AddProvider(ProviderTool{Name: "n1"}, ProviderTool{Name: "old"})
		}, ErrDuplicate, `"old"`},
		{"AddProvider empty name", func(r *Registry) error {
			return r.AddProvider(ProviderTool{Name: "n1"}, ProviderTool{})
		}, nil, "empty name"},
		{"AddModule hits an existing name", func(r *Registry) error {
			return r.AddModule(&Module{Provider: "p", Tools: []*Tool{regTool("n1"), regTool("old")}})
		}, ErrDuplicate, `"old"`},
		{"nil tool", func(r *Registry) error { return r.Add(regTool("n1"), nil) }, nil, "nil tool"},
		{"empty name", func(r *Registry) error { return r.Add(regTool("n1"), regTool("")) }, nil, "empty name"},
		{"no Execute", func(r *Registry) error {
			bad := regTool("bad")
			bad.Execute = nil
			return r.Add(regTool("n1"), bad)
		}, nil, `"bad" needs Decode (or DecodeWith) and Execute`},
		{"no Decode", func(r *Registry) error {
			bad := regTool("bad")
			bad.Decode = nil
			return r.AddMCP(regTool("n1"), bad)
		}, nil, `"bad" needs Decode (or DecodeWith) and Execute`},
		{"nil module", func(r *Registry) error { return r.AddModule(nil) }, nil, "nil module"},
	}
	for _, b := range batches {
		t.Run(b.name, func(t *testing.T) {
			r := NewRegistry(Options{})
			if err := r.Add(regTool("old")); err != nil {
				t.Fatal(err)
			}
			if err := r.AddProvider(ProviderTool{Name: "prov"}); err != nil {
				t.Fatal(err)
			}
			err := b.add(r)
			if err == nil || (b.is != nil && !errors.Is(err, b.is)) || !strings.Contains(err.Error(), b.msg) {
				t.Fatalf("err = %v, want %v containing %q", err, b.is, b.msg)
			}
			if r.Len() != 2 || r.Has("n1") {
				t.Fatalf("a failed batch added tools: Len %d, Has(n1) %v", r.Len(), r.Has("n1"))
			}
		})
	}
}

func TestCatalog(t *testing.T) {
	tr := &pipeTrace{}
	gates := &pipeGates{trace: tr, open: map[string]bool{"stripe": true, "github": false}}
	policy := &catalogPolicy{hidden: map[string]bool{"hidden_by_policy": true}}
	r := NewRegistry(Options{Gates: gates, Policy: policy})
	disabled := regTool("disabled")
	disabled.Flags.Enabled = false
	gated := func(name, gate string) *Tool {
		tool := regTool(name)
		tool.Gate = gate
		return tool
	}
	if err := r.Add(regTool("plain"), disabled, regTool("hidden_by_policy"), gated("stripe_a", "stripe"),
		gated("github_a", "github"), gated("stripe_b", "stripe"), gated("github_b", "github")); err != nil {
		t.Fatal(err)
	}
	if err := r.AddMCP(regTool("mcp_tool")); err != nil {
		t.Fatal(err)
	}
	if err := r.AddProvider(ProviderTool{Name: "web_search"}); err != nil {
		t.Fatal(err)
	}
	want := []string{"plain", "stripe_a", "stripe_b", "mcp_tool"}
	for range 3 { // stable across calls
		tr.reset()
		got, err := r.Catalog(context.Background(), &Call{UserID: "u1"})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(toolNames(got), want) {
			t.Fatalf("Catalog %v, want %v", toolNames(got), want)
		}
		// Each distinct gate is checked once per Catalog call.
		assertTrace(t, tr.list(), "gate:stripe", "gate:github")
	}
	if policy.sawRegistry != r || policy.sawUser != "u1" {
		t.Fatalf("policy saw registry %p user %q", policy.sawRegistry, policy.sawUser)
	}
	defs, err := r.Definitions(context.Background(), nil)
	if err != nil || len(defs) != 4 || defs[1].Name != "stripe_a" {
		t.Fatalf("Definitions %+v %v", defs, err)
	}

	gates.set("github", true)
	got, _ := r.Catalog(context.Background(), nil)
	if want := []string{"plain", "stripe_a", "github_a", "stripe_b", "github_b", "mcp_tool"}; !slices.Equal(toolNames(got), want) {
		t.Fatalf("gate opened: %v, want %v", toolNames(got), want)
	}

	gates.err = errors.New("timeout")
	got, err = r.Catalog(context.Background(), nil)
	if err != nil || !slices.Equal(toolNames(got), []string{"plain", "mcp_tool"}) {
		t.Fatalf("failing gate check: %v %v", toolNames(got), err)
	}
	gates.err = Fatal(errors.New("secrets store down"))
	if _, err := r.Catalog(context.Background(), nil); !IsFatal(err) {
		t.Fatalf("fatal gate check: %v", err)
	}
	gates.err = nil
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Catalog(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}

	noGates := NewRegistry(Options{})
	if err := noGates.Add(gated("stripe_a", "stripe"), regTool("plain")); err != nil {
		t.Fatal(err)
	}
	got, err = noGates.Catalog(context.Background(), nil)
	if err != nil || !slices.Equal(toolNames(got), []string{"plain"}) {
		t.Fatalf("nil Gates: %v %v", toolNames(got), err)
	}
}

type catalogPolicy struct {
	hidden      map[string]bool
	sawRegistry *Registry
	sawUser     string
}

func (p *catalogPolicy) Enabled(ctx context.Context, call *Call, t *Tool) bool {
	p.sawRegistry, p.sawUser = call.Registry, call.UserID
	return !p.hidden[t.Name]
}

func (p *catalogPolicy) Permission(ctx context.Context, call *Call, t *Tool, args any, prev Decision) Decision {
	return prev
}
