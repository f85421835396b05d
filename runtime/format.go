package runtime

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	didyoumean "github.com/toolgen/toolgen/internal/suggest"
)

// This file is the one place where the texts a model reads about failed or
// paused calls are written. Every tool-error text starts with "Error: " and
// says what went wrong specifically enough for the model to act on it.

// errorPrefix starts every tool-error text the model reads.
const errorPrefix = "Error: "

// Text returns the text a model reads for e: "Error: " followed by the
// message.
func (e *ToolError) Text() string {
	if strings.HasPrefix(e.Message, errorPrefix) {
		return e.Message
	}
	return errorPrefix + e.Message
}

// Result returns e as a tool-error result (IsError set) holding e.Text().
func (e *ToolError) Result() Result {
	return Result{Parts: []Part{{Type: PartText, Text: e.Text()}}, IsError: true}
}

func unknownToolError(name, suggestion string) *ToolError {
	name = clipName(name)
	msg := "unknown tool " + strconv.Quote(name) + "."
	if suggestion != "" {
		msg += " Did you mean " + strconv.Quote(suggestion) + "?"
	}
	return &ToolError{Kind: ErrUnknownTool, Tool: name, Message: msg}
}

// maxSuggestLen is the longest name suggest considers: far beyond any tool
// name (64 characters at most), short enough to keep the edit distance cheap.
const maxSuggestLen = 256

// quoteMax is how many runes of a name or value a message quotes: more is
// cut and marked "…", so that a hostile input cannot make a huge message.
const quoteMax = 64

// clipName is name cut after quoteMax runes, "…" marking the cut.
func clipName(name string) string {
	n := 0
	for i := range name {
		if n == quoteMax {
			return name[:i] + "…"
		}
		n++
	}
	return name
}

func providerToolError(name string) *ToolError {
	return &ToolError{Kind: ErrProviderTool, Tool: name, Message: strconv.Quote(name) +
		" is a provider tool: the model provider runs it, this host cannot execute it."}
}

func argumentsTooLargeError(tool string, size, limit int) *ToolError {
	return &ToolError{Kind: ErrInvalidArgs, Tool: tool, Message: fmt.Sprintf(
		"arguments for %s are too large: %d bytes, the limit is %d bytes.", tool, size, limit)}
}

// resumedArgumentsError is invalidArgumentsError for a call resumed after
// a person approved it: its arguments decoded when it paused, so the
// tool's argument schema changed while it waited (toolgen diff lists such
// changes under "approvals"). The message says so and names the pause
// point; the violations follow as usual.
func resumedArgumentsError(te *ToolError, pausePointID string) *ToolError {
	list := strings.TrimPrefix(te.Message, "invalid arguments for "+te.Tool+":")
	te.Message = fmt.Sprintf("invalid arguments for %s: a person approved this call (pause point %q), but its arguments no longer fit the tool's schema, which changed while the call waited:%s",
		te.Tool, pausePointID, list)
	return te
}

// invalidArgumentsError reports a Decode failure. A *ValidationError lists
// every violation on its own line; any other error is shown as one line.
func invalidArgumentsError(tool string, err error) *ToolError {
	var b strings.Builder
	b.WriteString("invalid arguments for ")
	b.WriteString(tool)
	b.WriteByte(':')
	te := &ToolError{Kind: ErrInvalidArgs, Tool: tool, Err: err}
	var ve *ValidationError
	switch {
	case errors.As(err, &ve) && len(ve.Violations) > 0:
		te.Violations = ve.Violations
		for _, v := range ve.Violations {
			b.WriteString("\n- ")
			path := v.Path
			if path == "" {
				path = "$"
			}
			b.WriteString(path)
			b.WriteString(": ")
			b.WriteString(v.Message)
		}
	default:
		msg := strings.TrimPrefix(err.Error(), "json: ")
		te.Violations = []Violation{{Path: "$", Message: msg}}
		b.WriteString("\n- $: ")
		b.WriteString(msg)
	}
	te.Message = b.String()
	return te
}

func decodePanicError(tool string, v any) *ToolError {
	return &ToolError{Kind: ErrInvalidArgs, Tool: tool, Err: panicError(v),
		Message: "could not decode the arguments for " + tool + ": the decoder failed unexpectedly."}
}

func disabledError(tool string, byPolicy bool) *ToolError {
	msg := "tool " + tool + " is disabled."
	if byPolicy {
		msg = "tool " + tool + " is not available to this user here."
	}
	return &ToolError{Kind: ErrDisabled, Tool: tool, Message: msg}
}

func gateClosedError(t *Tool) *ToolError {
	msg := t.GateMessage
	if msg == "" {
		msg = t.Name + " needs the " + strconv.Quote(t.Gate) + " connection, which is not set up for this account."
	}
	return &ToolError{Kind: ErrGate, Tool: t.Name, Message: msg}
}

func gateUncheckedError(t *Tool, err error) *ToolError {
	return &ToolError{Kind: ErrGate, Tool: t.Name, Err: err, Message: "could not check whether the " +
		strconv.Quote(t.Gate) + " connection is set up, so " + t.Name + " did not run; try again later."}
}

func deniedError(tool, reason string) *ToolError {
	msg := "permission denied for " + tool
	if reason != "" {
		msg += ": " + reason
	}
	return &ToolError{Kind: ErrDenied, Tool: tool, Message: msg + "."}
}

func approvalUnavailableError(tool, reason string) *ToolError {
	msg := tool + " needs a person's approval, and approval is not available here, so the call did not run"
	if reason != "" {
		msg += " (" + reason + ")"
	}
	return &ToolError{Kind: ErrDenied, Tool: tool, Message: msg + "."}
}

func humanDeniedError(tool, note string) *ToolError {
	msg := "a person denied the call of " + tool
	if note != "" {
		msg += ": " + note
	}
	return &ToolError{Kind: ErrDenied, Tool: tool, Message: sentence(msg)}
}

func permissionPanicError(tool string, v any) *ToolError {
	return &ToolError{Kind: ErrDenied, Tool: tool, Err: panicError(v),
		Message: "permission denied for " + tool + ": its permission check failed unexpectedly."}
}

// executionError turns an executor's ordinary error into the tool error the
// model reads: the error's own message. An executor may return a *ToolError
// to choose the kind and text itself.
func executionError(tool string, err error) *ToolError {
	var te *ToolError
	if errors.As(err, &te) {
		out := *te
		if out.Tool == "" {
			out.Tool = tool
		}
		if out.Kind == "" {
			out.Kind = ErrExecution
		}
		if out.Message == "" {
			out.Message = tool + " failed."
		}
		return &out
	}
	msg := err.Error()
	if msg == "" {
		msg = tool + " failed."
	}
	return &ToolError{Kind: ErrExecution, Tool: tool, Message: msg, Err: err}
}

// resultError is a result the executor itself marked IsError.
func resultError(tool string, res Result) *ToolError {
	msg := res.String()
	if msg == "" {
		msg = tool + " failed."
	}
	return &ToolError{Kind: ErrExecution, Tool: tool, Message: msg}
}

func executionPanicError(tool string, v any) *ToolError {
	msg := tool + " failed unexpectedly"
	switch p := v.(type) {
	case string:
		msg += ": " + p
	case error:
		msg += ": " + p.Error()
	}
	return &ToolError{Kind: ErrExecution, Tool: tool, Err: panicError(v), Message: msg + "."}
}

// awaitingApprovalResult is what the model reads when a call pauses.
// notRun says the pipeline paused the call before running it (a permission
// "ask"); otherwise the tool itself paused. It tells the model not to repeat
// the call: a repeat would wait at a second pause point, and a person would
// be asked twice.
func awaitingApprovalResult(tool, reason string, notRun bool) Result {
	msg := "The call of " + tool + " is waiting for a person's approval"
	if notRun {
		msg += " and has not run yet"
	}
	if reason != "" {
		msg += ": " + reason
	}
	return Text(sentence(msg) + " Its result will be reported once a person has decided; do not call it again in the meantime.")
}

// sentence ends s with a period unless it already ends a sentence.
func sentence(s string) string {
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}

// PanicError is the error a recovered panic becomes (in ToolError.Err).
type PanicError struct {
	// Value is what was passed to panic.
	Value any
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

func panicError(v any) error { return &PanicError{Value: v} }

// truncationMarker says a result was cut, and from how many bytes.
func truncationMarker(total, limit int) string {
	return "\n[truncated: the result was " + strconv.Itoa(total) + " bytes, the limit is " +
		strconv.Itoa(limit) + " bytes]"
}

// omittedFileNote replaces a file part that does not fit in the result.
func omittedFileNote(f *File, size int) string {
	name := f.Name
	if name == "" {
		name = "unnamed"
	}
	return "[file " + strconv.Quote(name) + " (" + strconv.Itoa(size) + " bytes) omitted: it does not fit in the result size limit]"
}

// suggest returns the registered name closest to name, if one is close
// enough to be a likely typo, or "". Case is ignored; a name may be up to a
// third of its length away (at least 1 edit, at most 3), and a tie goes to
// the earliest name.
func suggest(name string, names []string) string {
	if len(name) > maxSuggestLen {
		return "" // no tool name is this long, and the distance would cost its square
	}
	return didyoumean.Closest(name, names, didyoumean.Options{
		MaxDistance: min(max(utf8.RuneCountInString(name)/3, 1), 3),
		IgnoreCase:  true,
	})
}
