package spec

import (
	"cmp"
	"slices"
	"strings"
)

// Error is one located problem in a spec file.
type Error struct {
	Pos Pos
	Msg string
	// Err is the underlying error, if any (reading the file); nil for a
	// problem in the spec's content.
	Err error
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Unwrap returns the underlying error, so that errors.Is(err,
// fs.ErrNotExist) works through an ErrorList.
func (e *Error) Unwrap() error { return e.Err }

// ErrorList is every problem found in a spec, sorted by position. Its Error
// method prints one `file:line:col: message` per line.
type ErrorList []*Error

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap returns the list's errors, for errors.Is and errors.As.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// Sort orders the list by file, line and column, keeping the order of
// errors at the same place.
func (l ErrorList) Sort() {
	slices.SortStableFunc(l, func(a, b *Error) int {
		return cmp.Or(
			cmp.Compare(a.Pos.File, b.Pos.File),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
		)
	})
}

// Err returns l as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
