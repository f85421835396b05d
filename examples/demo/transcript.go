package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime"
)

// transcript writes what happens for a person to read: headings, the
// model's calls as JSON, the events as the host's activity sidebar would
// render them, and the results the model reads. It is safe for concurrent
// use (events of parallel calls arrive from several goroutines).
type transcript struct {
	mu sync.Mutex
	w  io.Writer
	n  int // headings so far
}

func (p *transcript) printf(format string, a ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, format, a...)
}

// heading starts a numbered section.
func (p *transcript) heading(title string) {
	p.mu.Lock()
	p.n++
	n := p.n
	p.mu.Unlock()
	p.printf("\n── %d. %s\n", n, title)
}

// note is a line of explanation.
func (p *transcript) note(format string, a ...any) {
	p.printf("   %s\n", fmt.Sprintf(format, a...))
}

// modelCalls prints the calls the model returned in one step.
func (p *transcript) modelCalls(calls ...runtime.ToolCall) {
	for _, c := range calls {
		b, err := json.Marshal(c)
		if err != nil {
			b = []byte(fmt.Sprintf("%+v", c)) // arguments that are not JSON
		}
		p.printf("model → %s\n", b)
	}
}

// event renders a pipeline event as the activity sidebar would.
func (p *transcript) event(e runtime.Event) {
	switch e.Type {
	case runtime.EventStart:
		p.printf("   ▸ %s  [%s]\n", e.Label, e.CallID)
	case runtime.EventProgress:
		p.printf("     · %s  [%s]\n", e.Message, e.CallID)
	case runtime.EventFinish:
		p.printf("   ■ %s: %s in %s  [%s]\n", e.Label, e.Status, roundDuration(e.Duration), e.CallID)
	}
}

// result prints what the model reads for one call.
func (p *transcript) result(out runtime.Outcome) {
	text := strings.ReplaceAll(out.Result.String(), "\n", "\n        ")
	p.printf("tool ← [%s] %s: %s\n", out.CallID, out.Status, text)
}

// field prints one labelled value of a record (a pause point row).
func (p *transcript) field(name string, value any) {
	p.printf("     %-13s %v\n", name, value)
}

// definition prints one catalog entry.
func (p *transcript) definition(source string, d runtime.Definition) {
	p.printf("   %-8s %-28s %s\n", source, d.Name, shorten(d.Description, 70))
}

func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(100 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// shorten cuts s to at most n runes, marking a cut with "…".
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// wrap breaks s into lines of at most width runes at spaces (a longer word
// gets a line of its own).
func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= width:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
