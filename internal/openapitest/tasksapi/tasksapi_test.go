package tasksapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/toolgen/toolgen/runtime"
	"github.com/toolgen/toolgen/runtime/httpapi"
)

// fakeTasks is an httptest server with the API's published shape: bearer
// auth, JSON bodies, pages of {results, next_cursor}.
type fakeTasks struct {
	mu     sync.Mutex
	tasks  []map[string]any
	bodies []string
	paths  []string
}

func (f *fakeTasks) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	f.bodies = append(f.bodies, string(body))
	f.paths = append(f.paths, r.Method+" "+r.URL.RequestURI())
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("Authorization") != "Bearer tok-1" {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":"Invalid token","error_tag":"AUTH_INVALID_TOKEN"}`)
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/api/v1/tasks")
	if !ok {
		http.NotFound(w, r)
		return
	}
	switch {
	case rest == "" && r.Method == "GET":
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		start, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
		end := min(start+limit, len(f.tasks))
		next := any(nil)
		if end < len(f.tasks) {
			next = strconv.Itoa(end)
		}
		json.NewEncoder(w).Encode(map[string]any{"results": f.tasks[start:end], "next_cursor": next})
	case rest == "" && r.Method == "POST":
		var in map[string]any
		if err := json.Unmarshal(body, &in); err != nil || in["content"] == "" {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":"content is required","error_tag":"ARGUMENT_MISSING"}`)
			return
		}
		if in["content"] == "rate limit me" {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":"Too many requests","error_tag":"LIMITS_REACHED"}`)
			return
		}
		t := map[string]any{"id": strconv.Itoa(len(f.tasks) + 100), "content": in["content"], "priority": in["priority"], "is_completed": false,
			"labels": in["labels"], "project_id": nil, "url": "https://tasks.example/t/1", "created_at": "2026-12-01T09:00:00Z",
			"due": map[string]any{"date": "2026-12-02", "string": in["due_string"], "datetime": nil, "is_recurring": false}, "kind": "task", "internal": "x"}
		f.tasks = append(f.tasks, t)
		json.NewEncoder(w).Encode(t)
	default:
		id, action, _ := strings.Cut(strings.TrimPrefix(rest, "/"), "/")
		for i, t := range f.tasks {
			if t["id"] != id {
				continue
			}
			switch {
			case action == "close" && r.Method == "POST":
				t["is_completed"] = true
				w.WriteHeader(http.StatusNoContent)
			case r.Method == "GET":
				json.NewEncoder(w).Encode(t)
			case r.Method == "DELETE":
				f.tasks = append(f.tasks[:i], f.tasks[i+1:]...)
				w.WriteHeader(http.StatusNoContent)
			}
			return
		}
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"error":"Task %s not found","error_tag":"NOT_FOUND"}`, id)
	}
}

func setup(t *testing.T) (*runtime.Registry, *fakeTasks) {
	fake := &fakeTasks{}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	creds := httpapi.CredentialFunc(func(ctx context.Context, call *runtime.Call) (httpapi.Credentials, bool, error) {
		switch call.UserID {
		case "ada":
			return httpapi.Credentials{BaseURL: srv.URL + "/api/v1", Token: "tok-1"}, true, nil
		case "eve":
			return httpapi.Credentials{BaseURL: srv.URL + "/api/v1", Token: "stolen"}, true, nil
		}
		return httpapi.Credentials{}, false, nil
	})
	reg := runtime.NewRegistry(runtime.Options{
		Gates: Gates(creds, nil),
		Policy: runtime.PolicyFuncs{PermissionFunc: func(ctx context.Context, call *runtime.Call, t *runtime.Tool, args any, prev runtime.Decision) runtime.Decision {
			return runtime.Allowed()
		}},
	})
	if err := reg.AddModule(Module(&Tools{}, &httpapi.Client{Credentials: creds})); err != nil {
		t.Fatal(err)
	}
	return reg, fake
}

func call(t *testing.T, reg *runtime.Registry, user, tool, args string) runtime.Outcome {
	t.Helper()
	out, err := reg.Dispatch(context.Background(), &runtime.Call{UserID: user}, runtime.ToolCall{ID: "1", Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return out
}

func TestTasksAgainstHTTPTest(t *testing.T) {
	reg, fake := setup(t)
	for i := range 5 {
		out := call(t, reg, "ada", ToolCreateTask, fmt.Sprintf(`{"content":"Task %d","labels":["home"],"due_string":"tomorrow","priority":%d}`, i, i%4+1))
		if out.Status != runtime.StatusOK {
			t.Fatalf("create: %s", out.Result.String())
		}
		if i == 0 {
			if got := fake.bodies[0]; got != `{"content":"Task 0","due_string":"tomorrow","labels":["home"],"priority":1}` {
				t.Errorf("JSON body %s", got)
			}
			// The typed result: unknown fields (kind, internal) dropped, the
			// nested due kept, created_at a time, nulls of optional fields
			// (project_id, due.datetime) absent.
			want := `{"content":"Task 0","created_at":"2026-12-01T09:00:00Z","due":{"date":"2026-12-02","is_recurring":false,"string":"tomorrow"},"id":"100","is_completed":false,"labels":["home"],"priority":1,"url":"https://tasks.example/t/1"}`
			if got := canonical(t, out.Result.String()); got != want {
				t.Errorf("typed result\n got %s\nwant %s", got, want)
			}
		}
	}
	// Pages: limit 2, three pages fetched in one call.
	out := call(t, reg, "ada", ToolGetTasks, `{"limit":2,"max_pages":3}`)
	var list struct {
		Results []struct {
			ID string `json:"id"`
		} `json:"results"`
		NextCursor *string `json:"next_cursor"`
	}
	if err := json.Unmarshal([]byte(out.Result.String()), &list); err != nil || len(list.Results) != 5 || list.NextCursor != nil {
		t.Errorf("paged list: %+v %v %s", list, err, out.Result.String())
	}
	if got := strings.Join(fake.paths[5:], " | "); got != "GET /api/v1/tasks?limit=2 | GET /api/v1/tasks?cursor=2&limit=2 | GET /api/v1/tasks?cursor=4&limit=2" {
		t.Errorf("page requests %s", got)
	}
	out = call(t, reg, "ada", ToolGetTasks, `{"limit":2,"max_pages":2}`)
	json.Unmarshal([]byte(out.Result.String()), &list)
	if len(list.Results) != 4 || list.NextCursor == nil || *list.NextCursor != "4" {
		t.Errorf("two pages: %s", out.Result.String())
	}

	if out := call(t, reg, "ada", ToolCloseTask, `{"task_id":"101"}`); out.Status != runtime.StatusOK || out.Result.String() != "Done: the tasks API answered with no content." {
		t.Errorf("close: %s", out.Result.String())
	}
	if out := call(t, reg, "ada", ToolGetTask, `{"task_id":"101"}`); !strings.Contains(out.Result.String(), `"is_completed":true`) {
		t.Errorf("closed task: %s", out.Result.String())
	}
	// The API's errors, with its message, status and Retry-After.
	for _, tc := range []struct{ user, tool, args, want string }{
		{"ada", ToolGetTask, `{"task_id":"999"}`, "Error: the tasks API answered 404 Not Found: Task 999 not found"},
		{"eve", ToolGetTask, `{"task_id":"100"}`, "Error: the tasks API answered 401 Unauthorized: Invalid token"},
		{"ada", ToolCreateTask, `{"content":"rate limit me"}`, "Error: the tasks API answered 429 Too Many Requests: Too many requests (retry after 7s)"},
	} {
		out := call(t, reg, tc.user, tc.tool, tc.args)
		if out.Status != runtime.StatusError || out.Result.String() != tc.want {
			t.Errorf("%s %s: %s %q, want %q", tc.user, tc.args, out.Status, out.Result.String(), tc.want)
		}
	}
	// Validation from the document's constraints stops bad calls first.
	n := len(fake.paths)
	out = call(t, reg, "ada", ToolCreateTask, `{"content":"","priority":9,"weight":10}`)
	if out.Status != runtime.StatusError || out.Err.Kind != runtime.ErrInvalidArgs || len(out.Err.Violations) != 3 || len(fake.paths) != n {
		t.Errorf("invalid: %s %v", out.Result.String(), out.Err)
	}
	// No credentials: the gate is closed and the catalog is empty.
	if out := call(t, reg, "bob", ToolGetTasks, `{}`); out.Err == nil || out.Err.Kind != runtime.ErrGate {
		t.Errorf("gate: %s", out.Result.String())
	}
}

func canonical(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
