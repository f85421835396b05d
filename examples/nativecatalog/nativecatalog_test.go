package nativecatalog_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen/toolgen/examples/nativecatalog"
	"github.com/toolgen/toolgen/generated/example"
	"github.com/toolgen/toolgen/runtime"
)

// noon is get_time's clock in the tests: 2026-03-14 12:00 UTC, a Saturday.
var noon = time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)

func newCatalog() *nativecatalog.Catalog {
	return &nativecatalog.Catalog{
		Now:   func() time.Time { return noon },
		Tasks: []string{"Migrate tasks_list to a module"},
	}
}

// newRegistry returns a registry with the legacy catalog as its fallback
// and, when withModule, the example module (which owns tasks_*).
func newRegistry(t *testing.T, legacy *nativecatalog.Catalog, withModule bool) *runtime.Registry {
	t.Helper()
	reg := runtime.NewRegistry(runtime.Options{Fallback: legacy})
	if withModule {
		if err := reg.AddModule(example.Module(example.New())); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

func dispatch(t *testing.T, reg *runtime.Registry, call *runtime.Call, name, args string) runtime.Outcome {
	t.Helper()
	out, err := reg.Dispatch(context.Background(), call, runtime.ToolCall{ID: "call_" + name, Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s %s: fatal error %v", name, args, err)
	}
	return out
}

func TestDispatchModuleFirstThenLegacy(t *testing.T) {
	reg := newRegistry(t, newCatalog(), true)
	for _, tc := range []struct {
		name, args string
		status     runtime.Status
		kind       runtime.ErrorKind // for StatusError
		result     string
	}{
		// A name a module owns goes to the module.
		{name: example.ToolAdd, args: `{"title":"Write docs"}`, status: runtime.StatusOK,
			result: `{"id":1,"title":"Write docs","priority":"normal","done":false}`},
		// Names only the legacy switch has go to the fallback.
		{name: nativecatalog.ToolEcho, args: `{"text":"hello, legacy"}`, status: runtime.StatusOK, result: "hello, legacy"},
		{name: nativecatalog.ToolGetTime, args: `{"timezone":"Europe/Paris"}`, status: runtime.StatusOK,
			result: `{"time":"2026-03-14T13:00:00+01:00","timezone":"Europe/Paris","weekday":"Saturday"}`},
		{name: nativecatalog.ToolGetTime, args: ``, status: runtime.StatusOK,
			result: `{"time":"2026-03-14T12:00:00Z","timezone":"UTC","weekday":"Saturday"}`},
		// Names nobody has are a readable unknown-tool error.
		{name: "send_fax", args: `{}`, status: runtime.StatusError, kind: runtime.ErrUnknownTool,
			result: `Error: unknown tool "send_fax".`},
		{name: "tasks_ad", args: `{}`, status: runtime.StatusError, kind: runtime.ErrUnknownTool,
			result: `Error: unknown tool "tasks_ad". Did you mean "tasks_add"?`},
	} {
		out := dispatch(t, reg, nil, tc.name, tc.args)
		if out.Status != tc.status || out.Result.String() != tc.result {
			t.Errorf("%s %s: [%s] %q; want [%s] %q", tc.name, tc.args, out.Status, out.Result.String(), tc.status, tc.result)
		}
		if tc.status == runtime.StatusError && (out.Err == nil || out.Err.Kind != tc.kind) {
			t.Errorf("%s: error %+v, want kind %s", tc.name, out.Err, tc.kind)
		}
	}
}

func TestMigratedNameIsServedByTheModule(t *testing.T) {
	legacy := newCatalog()
	if !slices.Contains(legacy.Names(), nativecatalog.ToolTasksList) {
		t.Fatalf("the legacy switch should still have %s: %v", nativecatalog.ToolTasksList, legacy.Names())
	}
	legacyResult := `{"source":"legacy native catalog","tasks":["Migrate tasks_list to a module"]}`

	// Before the migration: only the legacy switch knows tasks_list.
	reg := newRegistry(t, legacy, false)
	if out := dispatch(t, reg, nil, example.ToolList, `{}`); out.Status != runtime.StatusOK || out.Result.String() != legacyResult {
		t.Fatalf("before the module: [%s] %s; want the legacy result", out.Status, out.Result.String())
	}

	// The module is added: it wins although the switch still has the case.
	if err := reg.AddModule(example.Module(example.New())); err != nil {
		t.Fatal(err)
	}
	dispatch(t, reg, nil, example.ToolAdd, `{"title":"Served by the module"}`)
	out := dispatch(t, reg, nil, example.ToolList, `{}`)
	var listed struct {
		Tasks []example.Task `json:"tasks"`
		Total int            `json:"total"`
	}
	if err := json.Unmarshal([]byte(out.Result.String()), &listed); err != nil || out.Status != runtime.StatusOK {
		t.Fatalf("after the module: [%s] %s (%v)", out.Status, out.Result.String(), err)
	}
	if listed.Total != 1 || len(listed.Tasks) != 1 || listed.Tasks[0].Title != "Served by the module" {
		t.Errorf("after the module: %s; want the module's task list", out.Result.String())
	}
	// The module validates as the legacy tool did not.
	if out := dispatch(t, reg, nil, example.ToolList, `{"limit":0}`); out.Err == nil || out.Err.Kind != runtime.ErrInvalidArgs {
		t.Errorf("the module's tasks_list with limit 0: [%s] %s; want invalid arguments", out.Status, out.Result.String())
	}

	// Rolling the migration back is removing the module's tool.
	if !reg.Remove(example.ToolList) {
		t.Fatal("Remove(tasks_list) = false")
	}
	if out := dispatch(t, reg, nil, example.ToolList, `{}`); out.Result.String() != legacyResult {
		t.Errorf("after Remove: %s; want the legacy result again", out.Result.String())
	}
	// The other module tools are unaffected.
	if out := dispatch(t, reg, nil, example.ToolComplete, `{"id":1}`); out.Status != runtime.StatusOK {
		t.Errorf("tasks_complete after Remove(tasks_list): [%s] %s", out.Status, out.Result.String())
	}
}

func TestDefinitionsLeaveOutNamesModulesOwn(t *testing.T) {
	legacy := newCatalog()
	names := func(defs []runtime.Definition) []string {
		var out []string
		for _, d := range defs {
			out = append(out, d.Name)
			if !json.Valid(d.Parameters) || d.Description == "" {
				t.Errorf("%s: description %q, parameters %s", d.Name, d.Description, d.Parameters)
			}
		}
		return out
	}
	all := []string{nativecatalog.ToolGetTime, nativecatalog.ToolEcho, nativecatalog.ToolTasksList}
	if got := names(legacy.Definitions(nil)); !slices.Equal(got, all) {
		t.Errorf("Definitions(nil) = %v, want %v", got, all)
	}
	if got := legacy.Names(); !slices.Equal(got, all) {
		t.Errorf("Names() = %v, want %v", got, all)
	}
	reg := newRegistry(t, legacy, true)
	if got, want := names(legacy.Definitions(reg.Has)), []string{nativecatalog.ToolGetTime, nativecatalog.ToolEcho}; !slices.Equal(got, want) {
		t.Errorf("Definitions(reg.Has) = %v, want %v", got, want)
	}
	// Each schema accepts what Dispatch accepts: the required field of echo.
	for _, d := range legacy.Definitions(nil) {
		var s struct {
			Type                 string         `json:"type"`
			AdditionalProperties *bool          `json:"additionalProperties"`
			Properties           map[string]any `json:"properties"`
			Required             []string       `json:"required"`
		}
		if err := json.Unmarshal(d.Parameters, &s); err != nil || s.Type != "object" || s.AdditionalProperties == nil || *s.AdditionalProperties {
			t.Errorf("%s: schema %s is not a strict object schema", d.Name, d.Parameters)
		}
		for _, r := range s.Required {
			if _, ok := s.Properties[r]; !ok {
				t.Errorf("%s: required %q is not a property", d.Name, r)
			}
		}
	}
}

func TestLegacyInvalidArguments(t *testing.T) {
	reg := newRegistry(t, newCatalog(), true)
	for _, tc := range []struct {
		name, args string
		paths      []string
		text       string
	}{
		{nativecatalog.ToolEcho, `{}`, []string{"$.text"}, "$.text: is required"},
		{nativecatalog.ToolEcho, `{"text":""}`, []string{"$.text"}, "$.text: must not be empty"},
		{nativecatalog.ToolEcho, `{"text":"hi","loud":true}`, []string{"$"}, `unknown field "loud"`},
		{nativecatalog.ToolEcho, `{"text":42}`, []string{"$.text"}, "$.text: must be a string"},
		{nativecatalog.ToolGetTime, `{"timezone":"Mars/Olympus_Mons"}`, []string{"$.timezone"}, `unknown time zone "Mars/Olympus_Mons"`},
		{nativecatalog.ToolGetTime, `{"timezone":"Local"}`, []string{"$.timezone"}, `unknown time zone "Local"`},
		{nativecatalog.ToolGetTime, `[1]`, []string{"$"}, "invalid arguments for get_time"},
	} {
		out := dispatch(t, reg, nil, tc.name, tc.args)
		if out.Status != runtime.StatusError || out.Err == nil || out.Err.Kind != runtime.ErrInvalidArgs {
			t.Errorf("%s %s: [%s] %+v; want invalid arguments", tc.name, tc.args, out.Status, out.Err)
			continue
		}
		var paths []string
		for _, v := range out.Err.Violations {
			paths = append(paths, v.Path)
		}
		text := out.Result.String()
		if !slices.Equal(paths, tc.paths) || !strings.HasPrefix(text, "Error: invalid arguments for "+tc.name+":\n- ") || !strings.Contains(text, tc.text) {
			t.Errorf("%s %s: paths %v, text %q; want paths %v and %q", tc.name, tc.args, paths, text, tc.paths, tc.text)
		}
	}
}

func TestLegacyCallsEmitTheirOwnEvents(t *testing.T) {
	reg := newRegistry(t, newCatalog(), true)
	var mu sync.Mutex
	var events []runtime.Event
	call := &runtime.Call{UserID: "u1", Events: func(e runtime.Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}}
	type ev struct {
		typ          runtime.EventType
		id, tool, lb string
		status       runtime.Status
	}
	got := func() []ev {
		var out []ev
		for _, e := range events {
			out = append(out, ev{e.Type, e.CallID, e.Tool, e.Label, e.Status})
		}
		events = nil
		return out
	}

	dispatch(t, reg, call, nativecatalog.ToolGetTime, `{"timezone":"Asia/Tokyo"}`)
	want := []ev{
		{runtime.EventStart, "call_get_time", "get_time", "Checking the time in Asia/Tokyo", ""},
		{runtime.EventFinish, "call_get_time", "get_time", "Checking the time in Asia/Tokyo", runtime.StatusOK},
	}
	if g := got(); !slices.Equal(g, want) {
		t.Errorf("get_time events %+v, want %+v", g, want)
	}

	dispatch(t, reg, call, nativecatalog.ToolEcho, `{}`)
	want = []ev{
		{runtime.EventStart, "call_echo", "echo", "Echoing", ""},
		{runtime.EventFinish, "call_echo", "echo", "Echoing", runtime.StatusError},
	}
	if g := got(); !slices.Equal(g, want) {
		t.Errorf("failed echo events %+v, want %+v", g, want)
	}

	// An unknown name reaches no tool: no events at all.
	dispatch(t, reg, call, "send_fax", `{}`)
	if g := got(); len(g) != 0 {
		t.Errorf("unknown tool events %+v, want none", g)
	}
}

func TestLabel(t *testing.T) {
	for _, tc := range []struct{ name, args, want string }{
		{nativecatalog.ToolGetTime, `{"timezone":"Europe/Paris"}`, "Checking the time in Europe/Paris"},
		{nativecatalog.ToolGetTime, `{}`, "Checking the time"},
		{nativecatalog.ToolGetTime, `not json`, "Checking the time"},
		{nativecatalog.ToolEcho, `{"text":"x"}`, "Echoing"},
		{nativecatalog.ToolTasksList, `{}`, "Listing legacy tasks"},
		{"send_fax", `{}`, "send_fax"},
	} {
		if got := nativecatalog.Label(tc.name, json.RawMessage(tc.args)); got != tc.want {
			t.Errorf("Label(%s, %s) = %q, want %q", tc.name, tc.args, got, tc.want)
		}
	}
}

func TestRunCallsMixesModuleAndLegacyCalls(t *testing.T) {
	reg := newRegistry(t, newCatalog(), true)
	outs, err := reg.RunCalls(context.Background(), &runtime.Call{UserID: "u1"}, []runtime.ToolCall{
		{ID: "a", Name: example.ToolAdd, Arguments: json.RawMessage(`{"title":"One"}`)},
		{ID: "b", Name: nativecatalog.ToolEcho, Arguments: json.RawMessage(`{"text":"two"}`)},
		{ID: "c", Name: example.ToolList, Arguments: json.RawMessage(`{}`)},
		{ID: "d", Name: "send_fax", Arguments: json.RawMessage(`{}`)},
	}, runtime.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range outs {
		got = append(got, o.CallID+":"+string(o.Status))
	}
	if want := []string{"a:ok", "b:ok", "c:ok", "d:error"}; !slices.Equal(got, want) {
		t.Fatalf("outcomes %v, want %v", got, want)
	}
	if outs[1].Result.String() != "two" || !strings.Contains(outs[2].Result.String(), `"title":"One"`) {
		t.Errorf("results %q, %q", outs[1].Result.String(), outs[2].Result.String())
	}
}
