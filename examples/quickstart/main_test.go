package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestQuickstart(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"== The catalog the model sees\n",
		"tasks_list — List tasks, newest first.",
		`parameters: {"additionalProperties":false,"properties":{"limit":{"default":10,`,
		"   ⋯ Adding task Write the README\n",
		`← [ok] {"id":2,"title":"Tidy go.mod","priority":"normal","due":"2026-12-01","done":false}`,
		"← [error] Error: invalid arguments for tasks_add:\n",
		"$.title: ",
		"$.priority: ",
		"$.due: ",
		`"colour"`,
		`← [ok] {"id":3,"title":"Ship it"`,
		"   ⋯ Searching tasks for readme\n",
		"← [ok] deleted task 2 (Tidy go.mod)\n",
		"← [error] Error: no task has id 42",
		`"total":2}`,
		`← [error] Error: unknown tool "tasks_archive"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("output:\n%s", got)
	}
}
