package runtime

import (
	"errors"
	"strconv"
	"strings"
)

// InvalidArgs is what a tool's Label receives, in place of the decoded
// value, for a call whose arguments failed to decode. The label is
// rendered before validation stops the call (pipeline step 2 comes before
// step 3), so that a host can show the start of every call; a label must
// then not show what the model wrote and the call refused ("Creating an
// order with teleport shipping"). Generated labels show only the values
// that passed their checks (see Rejected) and otherwise the tool's
// status_fallback; a hand-written Label that does not know InvalidArgs
// fails its type assertion and so shows its fallback, as it should.
type InvalidArgs struct {
	// Args is the value as far as Decode got (possibly nil).
	Args any
	// Violations are the decoder's, by path; nil when the error said
	// nothing about where (malformed JSON, arguments too large).
	Violations []Violation
}

// Rejected reports whether the top-level argument name may not be shown:
// a violation is about it (at "$.name", or `$["a-b"]` for a name that
// is not an identifier, or below it) or about the whole object ("$": not
// an object, malformed JSON; a missing or unknown key is not about the
// other values), or the error did not say where it was. A nil a (the
// arguments decoded) rejects nothing.
func (a *InvalidArgs) Rejected(name string) bool {
	if a == nil {
		return false
	}
	if len(a.Violations) == 0 {
		return true
	}
	for _, v := range a.Violations {
		if v.Path == "$" && !aboutKeys(v.Message) {
			return true
		}
		rest, ok := strings.CutPrefix(v.Path, "$."+name)
		if ok && (rest == "" || rest[0] == '.' || rest[0] == '[') {
			return true
		}
		if rest, ok := strings.CutPrefix(v.Path, "$["+strconv.Quote(name)+"]"); ok && (rest == "" || rest[0] == '.' || rest[0] == '[') {
			return true
		}
	}
	return false
}

// labelArgs is what Label gets for a call whose Decode returned args and
// err: args itself when err is nil, else an *InvalidArgs.
func labelArgs(args any, err error) any {
	if err == nil {
		return args
	}
	ia := &InvalidArgs{Args: args}
	var ve *ValidationError
	if errors.As(err, &ve) {
		ia.Violations = ve.Violations
	}
	return ia
}

// item is the InvalidArgs of item i (whose value is v) of a batch call's
// "items": its violations re-rooted at "$", and every one of them
// rejected when a violation is about the whole call or did not say where.
// (One about the items list, such as too many items, is not about the
// values of an item.) It returns v itself when no violation is about the
// item.
func (a *InvalidArgs) item(i int, v any) any {
	prefix := "$.items[" + strconv.Itoa(i) + "]"
	out := &InvalidArgs{Args: v}
	all := len(a.Violations) == 0
	for _, x := range a.Violations {
		switch rest, ok := strings.CutPrefix(x.Path, prefix); {
		case x.Path == "$" && !aboutKeys(x.Message):
			all = true
		case ok && (rest == "" || rest[0] == '.' || rest[0] == '['):
			out.Violations = append(out.Violations, Violation{Path: "$" + rest, Message: x.Message})
		}
	}
	switch {
	case all:
		out.Violations = nil // Rejected: everything
	case len(out.Violations) == 0:
		return v
	}
	return out
}

// aboutKeys reports whether a violation at "$" is about the object's keys
// (a required property missing, an unknown one: runtime/wire's messages),
// which says nothing about the values that are there.
func aboutKeys(msg string) bool {
	return strings.HasPrefix(msg, "missing required property ") || strings.HasPrefix(msg, "unknown property ")
}
