package runtime

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// policyTool is a tool that answers "done" and whose own permission check
// returns perm (nil: no check).
func policyTool(name string, destructive bool, perm func() Decision) *Tool {
	flags := DefaultFlags()
	flags.Destructive = destructive
	t := &Tool{
		Name:        name,
		Description: "A tool for policy tests.",
		Schema:      json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Flags:       flags,
		Decode:      DecodeJSON(func(*struct{}) []Violation { return nil }),
		Execute: func(ctx context.Context, call *Call, args any) (Result, error) {
			return Text("done"), nil
		},
	}
	if perm != nil {
		t.Permission = func(ctx context.Context, call *Call, args any) Decision { return perm() }
	}
	return t
}

// TestPolicyFuncsZero: the zero PolicyFuncs enables every tool and keeps
// every decision as it is, reason included.
func TestPolicyFuncsZero(t *testing.T) {
	var p Policy = PolicyFuncs{}
	ctx := context.Background()
	tool := policyTool("noop", false, nil)
	if !p.Enabled(ctx, &Call{}, tool) {
		t.Error("the zero PolicyFuncs disabled a tool")
	}
	for _, prev := range []Decision{Allowed(), Denied("no"), AskApproval("a person decides")} {
		if got := p.Permission(ctx, &Call{}, tool, nil, prev); got != prev {
			t.Errorf("Permission(prev %+v) = %+v, want prev", prev, got)
		}
	}
}

// TestPolicyFuncsPermissionOnly: a host that sets only PermissionFunc gets
// every tool enabled (in the catalog and at dispatch) and its rule applied
// to each call, with the tool's own decision as prev.
func TestPolicyFuncsPermissionOnly(t *testing.T) {
	var prevs []string
	reg := NewRegistry(Options{Policy: PolicyFuncs{
		PermissionFunc: func(ctx context.Context, call *Call, tool *Tool, args any, prev Decision) Decision {
			prevs = append(prevs, tool.Name+":"+prev.Behavior.String())
			if prev.Behavior == Allow && tool.Flags.Destructive {
				return Denied("this host allows no destructive action")
			}
			return prev
		},
	}})
	if err := reg.Add(policyTool("read", false, nil), policyTool("wipe", true, nil)); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	call := &Call{UserID: "ada"}
	cat, err := reg.Catalog(ctx, call)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cat {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, []string{"read", "wipe"}) {
		t.Errorf("catalog = %q, want both tools (no EnabledFunc: all enabled)", names)
	}
	out, err := reg.Dispatch(ctx, call, ToolCall{ID: "1", Name: "read", Arguments: json.RawMessage(`{}`)})
	if err != nil || out.Status != StatusOK || out.Result.String() != "done" {
		t.Errorf("read: %s %q, %v; want ok done", out.Status, out.Result.String(), err)
	}
	out, err = reg.Dispatch(ctx, call, ToolCall{ID: "2", Name: "wipe", Arguments: json.RawMessage(`{}`)})
	if err != nil || out.Err == nil || out.Err.Kind != ErrDenied || !strings.Contains(out.Result.String(), "this host allows no destructive action") {
		t.Errorf("wipe: %s %q, %v; want denied by the host's rule", out.Status, out.Result.String(), err)
	}
	if want := []string{"read:allow", "wipe:allow"}; !slices.Equal(prevs, want) {
		t.Errorf("PermissionFunc saw %q, want %q", prevs, want)
	}
}

// TestPolicyFuncsEnabledOnly: a host that sets only EnabledFunc hides the
// tools it turns off, and every call keeps the tool's own decision.
func TestPolicyFuncsEnabledOnly(t *testing.T) {
	reg := NewRegistry(Options{Policy: PolicyFuncs{
		EnabledFunc: func(ctx context.Context, call *Call, tool *Tool) bool {
			return tool.Name != "hidden"
		},
	}})
	mustAsk := func() Decision { return AskApproval("the tool asks") }
	if err := reg.Add(policyTool("shown", false, nil), policyTool("hidden", false, nil), policyTool("asks", false, mustAsk)); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	call := &Call{UserID: "ada"}
	cat, err := reg.Catalog(ctx, call)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cat {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, []string{"shown", "asks"}) {
		t.Errorf("catalog = %q, want shown and asks", names)
	}
	if out, err := reg.Dispatch(ctx, call, ToolCall{ID: "1", Name: "hidden", Arguments: json.RawMessage(`{}`)}); err != nil || out.Err == nil || out.Err.Kind != ErrDisabled {
		t.Errorf("hidden: %s %q, %v; want disabled", out.Status, out.Result.String(), err)
	}
	if out, err := reg.Dispatch(ctx, call, ToolCall{ID: "2", Name: "shown", Arguments: json.RawMessage(`{}`)}); err != nil || out.Status != StatusOK {
		t.Errorf("shown: %s %q, %v; want ok", out.Status, out.Result.String(), err)
	}
	// The tool's Ask stands (no Approvals here, so the call is refused
	// with the tool's reason rather than run).
	out, err := reg.Dispatch(ctx, call, ToolCall{ID: "3", Name: "asks", Arguments: json.RawMessage(`{}`)})
	if err != nil || out.Status == StatusOK || !strings.Contains(out.Result.String(), "the tool asks") {
		t.Errorf("asks: %s %q, %v; want the tool's Ask kept", out.Status, out.Result.String(), err)
	}
}
