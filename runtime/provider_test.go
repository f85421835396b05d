package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestNativeToolName(t *testing.T) {
	for _, c := range []struct {
		d        Dialect
		portable string
		want     string
		ok       bool
	}{
		{DialectAnthropic, WebSearch, "web_search_20250305", true},
		{DialectOpenAI, WebSearch, "web_search_preview", true},
		{DialectGemini, WebSearch, "googleSearch", true},
		{DialectMCP, WebSearch, "", false},
		{DialectAnthropic, CodeExecution, "", false},
		{DialectOpenAI, CodeExecution, "code_interpreter", true},
		{DialectGemini, CodeExecution, "codeExecution", true},
		{DialectMCP, CodeExecution, "", false},
		{Dialect("other"), WebSearch, "", false},
		{DialectAnthropic, "text_editor_20250124", "text_editor_20250124", true},
		{DialectGemini, "urlContext", "urlContext", true},
	} {
		got, ok := NativeToolName(c.d, c.portable)
		if got != c.want || ok != c.ok {
			t.Errorf("NativeToolName(%s, %s) = %q, %v; want %q, %v", c.d, c.portable, got, ok, c.want, c.ok)
		}
	}
}

func TestProviderToolsFor(t *testing.T) {
	r := NewRegistry(Options{})
	cfg := map[string]any{"max_uses": 3, "user_location": map[string]any{"type": "approximate"}}
	if err := r.AddProvider(
		ProviderTool{Name: WebSearch, Config: cfg},
		ProviderTool{Name: CodeExecution},
		ProviderTool{Name: "computer_20250124", Config: map[string]any{"display_width_px": 1024}},
	); err != nil {
		t.Fatal(err)
	}
	got := r.ProviderToolsFor(DialectAnthropic)
	want := []NativeProviderTool{
		{Name: "web_search_20250305", Portable: WebSearch, Config: cfg},
		{Name: "computer_20250124", Portable: "computer_20250124", Config: map[string]any{"display_width_px": 1024}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("anthropic: %+v", got)
	}
	got = r.ProviderToolsFor(DialectOpenAI)
	if len(got) != 3 || got[0].Name != "web_search_preview" || got[1].Name != "code_interpreter" {
		t.Errorf("openai: %+v", got)
	}
	// Config passes through raw (same map, same values).
	if got[0].Config["max_uses"] != 3 {
		t.Errorf("config not passed through: %+v", got[0].Config)
	}
}

func TestProviderToolNameSpace(t *testing.T) {
	r := NewRegistry(Options{})
	if err := r.AddProvider(ProviderTool{Name: WebSearch}); err != nil {
		t.Fatal(err)
	}
	local := &Tool{Name: WebSearch, Decode: func([]byte) (any, error) { return nil, nil },
		Execute: func(context.Context, *Call, any) (Result, error) { return Text(""), nil }}
	if err := r.Add(local); !errors.Is(err, ErrDuplicate) {
		t.Errorf("local tool with a provider tool's name: %v", err)
	}
	if err := r.AddProvider(ProviderTool{Name: WebSearch}); !errors.Is(err, ErrDuplicate) {
		t.Errorf("duplicate provider tool: %v", err)
	}
	// A call to a provider tool is not executed here.
	out, err := r.Dispatch(context.Background(), nil, ToolCall{ID: "1", Name: WebSearch, Arguments: json.RawMessage(`{}`)})
	if err != nil || out.Status != StatusError || out.Err.Kind != ErrProviderTool {
		t.Errorf("dispatching a provider tool: %+v, %v", out, err)
	}
}

func TestNeedsWebSearchFallback(t *testing.T) {
	r := NewRegistry(Options{})
	for _, d := range []Dialect{DialectOpenAI, DialectAnthropic, DialectGemini, DialectMCP} {
		if !r.NeedsWebSearchFallback(d) {
			t.Errorf("%s: empty registry needs the fallback", d)
		}
	}
	if err := r.AddProvider(ProviderTool{Name: WebSearch}); err != nil {
		t.Fatal(err)
	}
	for d, want := range map[Dialect]bool{DialectOpenAI: false, DialectAnthropic: false, DialectGemini: false, DialectMCP: true} {
		if got := r.NeedsWebSearchFallback(d); got != want {
			t.Errorf("%s with a web_search provider tool: %v, want %v", d, got, want)
		}
	}
	// The host swaps the provider tool for a local fallback.
	r.Remove(WebSearch)
	local := &Tool{Name: WebSearch, Decode: func([]byte) (any, error) { return nil, nil },
		Execute: func(context.Context, *Call, any) (Result, error) { return Text(""), nil }}
	if err := r.Add(local); err != nil {
		t.Fatal(err)
	}
	if r.NeedsWebSearchFallback(DialectMCP) {
		t.Error("a registered local web_search tool is the fallback already")
	}
}
