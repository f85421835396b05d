package runtime

import "sync"

// OnChange registers f to be called after every change to the registry's
// set of tools (a successful Add, AddMCP, AddModule or AddProvider, and a
// Remove that removed something), once per change, on the goroutine that
// made it and after the registry's lock is released, so f may read the
// registry. An MCP server uses it to send notifications/tools/list_changed.
// f must not block for long. The returned function unregisters f.
func (r *Registry) OnChange(f func()) (stop func()) {
	return r.watch.add(f)
}

// watchers are the OnChange functions of a Registry.
type watchers struct {
	mu   sync.Mutex
	next int
	fs   map[int]func()
}

func (w *watchers) add(f func()) func() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fs == nil {
		w.fs = make(map[int]func())
	}
	id := w.next
	w.next++
	w.fs[id] = f
	return func() {
		w.mu.Lock()
		delete(w.fs, id)
		w.mu.Unlock()
	}
}

// changed calls every watcher if ok.
func (w *watchers) changed(ok bool) {
	if !ok {
		return
	}
	w.mu.Lock()
	fs := make([]func(), 0, len(w.fs))
	for _, f := range w.fs {
		fs = append(fs, f)
	}
	w.mu.Unlock()
	for _, f := range fs {
		f()
	}
}
