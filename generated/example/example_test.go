package example_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/toolgen/toolgen/generated/example"
	"github.com/toolgen/toolgen/runtime"
)

// harness is a registry holding the example module, and the labels its
// start events carried.
type harness struct {
	reg  *runtime.Registry
	call *runtime.Call

	mu     sync.Mutex
	labels []string
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	h := &harness{reg: runtime.NewRegistry(runtime.Options{})}
	if err := h.reg.AddModule(example.Module(example.New())); err != nil {
		t.Fatal(err)
	}
	h.call = &runtime.Call{UserID: "u1", Events: func(e runtime.Event) {
		if e.Type == runtime.EventStart {
			h.mu.Lock()
			h.labels = append(h.labels, e.Label)
			h.mu.Unlock()
		}
	}}
	return h
}

func (h *harness) dispatch(t *testing.T, name, args string) runtime.Outcome {
	t.Helper()
	out, err := h.reg.Dispatch(context.Background(), h.call, runtime.ToolCall{ID: "c", Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	return out
}

func (h *harness) ok(t *testing.T, name, args string) string {
	t.Helper()
	out := h.dispatch(t, name, args)
	if out.Status != runtime.StatusOK {
		t.Fatalf("%s %s: %s: %s", name, args, out.Status, out.Result)
	}
	return out.Result.String()
}

func (h *harness) lastLabel() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.labels[len(h.labels)-1]
}

type listed struct {
	Tasks []example.Task `json:"tasks"`
	Total int            `json:"total"`
}

func (h *harness) list(t *testing.T, args string) listed {
	t.Helper()
	var l listed
	if err := json.Unmarshal([]byte(h.ok(t, example.ToolList, args)), &l); err != nil {
		t.Fatal(err)
	}
	return l
}

func titles(ts []example.Task) string {
	var s []string
	for _, t := range ts {
		s = append(s, t.Title)
	}
	return strings.Join(s, ",")
}

func TestRoundTrip(t *testing.T) {
	h := newHarness(t)
	var task example.Task
	got := h.ok(t, example.ToolAdd, `{"title":"Write the README","priority":"high","due":"2026-12-01","tags":["docs"]}`)
	if err := json.Unmarshal([]byte(got), &task); err != nil {
		t.Fatal(err)
	}
	want := example.Task{ID: 1, Title: "Write the README", Priority: "high", Due: "2026-12-01", Tags: []string{"docs"}}
	if fmt.Sprint(task) != fmt.Sprint(want) {
		t.Errorf("added %+v, want %+v", task, want)
	}
	if l := h.lastLabel(); l != "Adding task Write the README" {
		t.Errorf("label = %q", l)
	}
	// The priority's default applies.
	h.ok(t, example.ToolAdd, `{"title":"Tidy go.mod"}`)
	h.ok(t, example.ToolAdd, `{"title":"Review the readme"}`)
	if l := h.list(t, `{}`); titles(l.Tasks) != "Review the readme,Tidy go.mod,Write the README" || l.Total != 3 || l.Tasks[1].Priority != "normal" {
		t.Errorf("list = %+v", l)
	}
	if l := h.lastLabel(); l != "Listing tasks" {
		t.Errorf("label without a query = %q", l)
	}
	if l := h.list(t, `{"query":"README","limit":1}`); titles(l.Tasks) != "Review the readme" {
		t.Errorf("search = %+v", l)
	}
	if l := h.lastLabel(); l != "Searching tasks for README" {
		t.Errorf("label with a query = %q", l)
	}

	if got := h.ok(t, example.ToolComplete, `{"id":1}`); !strings.Contains(got, `"done":true`) {
		t.Errorf("complete = %s", got)
	}
	if l := h.list(t, `{"status":"done"}`); titles(l.Tasks) != "Write the README" {
		t.Errorf("done tasks = %+v", l)
	}
	if l := h.list(t, `{"status":"open"}`); titles(l.Tasks) != "Review the readme,Tidy go.mod" {
		t.Errorf("open tasks = %+v", l)
	}
	if got := h.ok(t, example.ToolDelete, `{"id":2}`); got != "deleted task 2 (Tidy go.mod)" {
		t.Errorf("delete = %q", got)
	}
	if l := h.list(t, `{}`); titles(l.Tasks) != "Review the readme,Write the README" {
		t.Errorf("after delete = %+v", l)
	}
}

// Invalid arguments never reach the executor, and the model reads every
// violation with its path.
func TestInvalidArguments(t *testing.T) {
	h := newHarness(t)
	out := h.dispatch(t, example.ToolAdd, `{"title":"","priority":"urgent","due":"tomorrow","tags":["a","a",""],"colour":"red"}`)
	if out.Status != runtime.StatusError || out.Err == nil || out.Err.Kind != runtime.ErrInvalidArgs {
		t.Fatalf("outcome = %+v", out)
	}
	paths := map[string]bool{}
	for _, v := range out.Err.Violations {
		paths[v.Path] = true
	}
	for _, p := range []string{"$.title", "$.priority", "$.due", "$.tags", "$.tags[2]"} {
		if !paths[p] {
			t.Errorf("no violation at %s: %v", p, out.Err.Violations)
		}
	}
	if !strings.Contains(out.Result.String(), "colour") {
		t.Errorf("the unknown key is not reported: %s", out.Result)
	}
	if l := h.list(t, `{}`); l.Total != 0 {
		t.Errorf("an invalid call added a task: %+v", l)
	}
	for _, args := range []string{`{"limit":0}`, `{"limit":51}`, `{"status":"later"}`, `{"query":""}`} {
		if out := h.dispatch(t, example.ToolList, args); out.Status != runtime.StatusError {
			t.Errorf("list %s: %s", args, out.Status)
		}
	}
	if out := h.dispatch(t, example.ToolDelete, `{}`); out.Status != runtime.StatusError || !strings.Contains(out.Result.String(), `missing required property "id"`) {
		t.Errorf("delete without id: %s", out.Result)
	}
}

// An executor's ordinary error is a tool error the model can act on.
func TestExecutorErrors(t *testing.T) {
	h := newHarness(t)
	out := h.dispatch(t, example.ToolComplete, `{"id":7}`)
	if out.Status != runtime.StatusError || out.Err.Kind != runtime.ErrExecution || !strings.Contains(out.Result.String(), "no task has id 7") {
		t.Errorf("complete of a missing task: %+v", out)
	}
	h.ok(t, example.ToolAdd, `{"title":"once"}`)
	if out := h.dispatch(t, example.ToolAdd, `{"title":"ONCE"}`); out.Status != runtime.StatusError || !strings.Contains(out.Result.String(), "exists already") {
		t.Errorf("duplicate add: %s", out.Result)
	}
}

func TestCatalogFlags(t *testing.T) {
	h := newHarness(t)
	tools, err := h.reg.Catalog(context.Background(), h.call)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
		if tool.Provider != example.Provider {
			t.Errorf("%s: provider %q", tool.Name, tool.Provider)
		}
	}
	if got := strings.Join(names, ","); got != "tasks_list,tasks_add,tasks_complete,tasks_delete" {
		t.Errorf("catalog = %s", got)
	}
	list, _ := h.reg.Get(example.ToolList)
	del, _ := h.reg.Get(example.ToolDelete)
	if !list.Flags.ReadOnly || !list.Flags.ConcurrencySafe || list.Flags.OpenWorld || !del.Flags.Destructive || del.Flags.ReadOnly {
		t.Errorf("flags: list %+v, delete %+v", list.Flags, del.Flags)
	}
}

// The executors are safe for concurrent calls (run with -race).
func TestConcurrentCalls(t *testing.T) {
	h := newHarness(t)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			h.ok(t, example.ToolAdd, fmt.Sprintf(`{"title":"task %d"}`, i))
			h.list(t, `{"limit":50}`)
		})
	}
	wg.Wait()
	l := h.list(t, `{"limit":50}`)
	if l.Total != 20 || len(l.Tasks) != 20 {
		t.Fatalf("total %d, listed %d", l.Total, len(l.Tasks))
	}
	seen := map[int64]bool{}
	for _, task := range l.Tasks {
		if seen[task.ID] {
			t.Errorf("id %d given twice", task.ID)
		}
		seen[task.ID] = true
	}
}
