// This file is yours: toolgen wrote these stubs once and only adds stubs for
// new tools. It never changes what you write here.
//
// Tools implements Executor, the interface generated from example.tools.yaml:
// replace each stub's body with the tool's work. When you add a tool to the
// spec, `go generate` appends its stub at the end of this file; when you remove
// one, it tells you which method to delete. Methods may live in any file of the
// package.

package example

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen/toolgen/runtime"
)

// Tools implements Executor, the tools of example.tools.yaml: a task list
// kept in memory. Make one with New. It is safe for concurrent use.
type Tools struct {
	mu    sync.Mutex
	tasks []Task // in the order they were added
	next  int64
}

var _ Executor = (*Tools)(nil)

// Task is one task of the list, as the tools return it.
type Task struct {
	ID       int64    `json:"id"`
	Title    string   `json:"title"`
	Priority string   `json:"priority"`
	Due      string   `json:"due,omitempty"`
	Tags     []string `json:"tags,omitempty"`
	Done     bool     `json:"done"`
}

// New returns an empty task list.
func New() *Tools { return &Tools{next: 1} }

// List runs the tasks_list tool: List tasks, newest first. Optionally only
// those whose title contains a text, or with a given status.
func (t *Tools) List(ctx context.Context, call *runtime.Call, args *ListArgs) (runtime.Result, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	found := []Task{}
	for _, task := range slices.Backward(t.tasks) {
		if len(found) == int(args.Limit) {
			break
		}
		if args.Query != nil && !strings.Contains(strings.ToLower(task.Title), strings.ToLower(*args.Query)) {
			continue
		}
		if args.Status != nil && task.Done != (*args.Status == ListStatusDone) {
			continue
		}
		found = append(found, task)
	}
	return runtime.JSON(map[string]any{"tasks": found, "total": len(t.tasks)})
}

// Add runs the tasks_add tool: Add a task to the list and return it with its
// id.
func (t *Tools) Add(ctx context.Context, call *runtime.Call, args *AddArgs) (runtime.Result, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.next == 0 {
		t.next = 1
	}
	for _, task := range t.tasks {
		if strings.EqualFold(task.Title, args.Title) && !task.Done {
			return runtime.Result{}, fmt.Errorf("an open task titled %q exists already (id %d)", task.Title, task.ID)
		}
	}
	task := Task{ID: t.next, Title: args.Title, Priority: string(args.Priority), Tags: args.Tags}
	if args.Due != nil {
		task.Due = *args.Due
	}
	t.next++
	t.tasks = append(t.tasks, task)
	return runtime.JSON(task)
}

// Complete runs the tasks_complete tool: Mark a task as done.
func (t *Tools) Complete(ctx context.Context, call *runtime.Call, args *CompleteArgs) (runtime.Result, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	i, err := t.find(args.ID)
	if err != nil {
		return runtime.Result{}, err
	}
	t.tasks[i].Done = true
	return runtime.JSON(t.tasks[i])
}

// Delete runs the tasks_delete tool: Delete a task for good.
func (t *Tools) Delete(ctx context.Context, call *runtime.Call, args *DeleteArgs) (runtime.Result, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	i, err := t.find(args.ID)
	if err != nil {
		return runtime.Result{}, err
	}
	task := t.tasks[i]
	t.tasks = slices.Delete(t.tasks, i, i+1)
	return runtime.Text(fmt.Sprintf("deleted task %d (%s)", task.ID, task.Title)), nil
}

// find returns the index of the task with the id; t.mu is held.
func (t *Tools) find(id int64) (int, error) {
	i := slices.IndexFunc(t.tasks, func(task Task) bool { return task.ID == id })
	if i < 0 {
		return 0, fmt.Errorf("no task has id %d; tasks_list shows the ids", id)
	}
	return i, nil
}
