package edge

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// TestTrimDecodes: trim: true strips the white space at both ends of every
// trimmed string as it is decoded — parameters, a named type, an enum, a
// date-time, a nested property, array items and map values — and leaves
// the other strings alone.
func TestTrimDecodes(t *testing.T) {
	a, err := DecodeTrimArgs([]byte(`{"q": "  x  "}`))
	if err != nil || a.Q != "x" || a.Mode != TrimModeFast {
		t.Fatalf(`"  x  " decoded as %q (mode %q): %v`, a.Q, a.Mode, err)
	}
	in := `{
		"q": " \t x  y \n",
		"bare": "   ",
		"word": "\u00a0 go \u3000",
		"mode": "  slow ",
		"at": " 2024-05-01T00:00:00Z\n",
		"code": " USD ",
		"mail": "  ada@example.com ",
		"nested": {"name": "  n  "},
		"items": [" a ", "b  "],
		"by_key": {"k": "  ab  "},
		"kept": "  kept  "
	}`
	a, err = DecodeTrimArgs([]byte(in))
	if err != nil {
		t.Fatalf("%v", violations(t, err))
	}
	want := &TrimArgs{
		Q:      "x  y", // inner white space stays
		Bare:   ptr(""),
		Word:   ptr(Word("go")),
		Mode:   TrimModeSlow,
		At:     ptr(time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)),
		Code:   ptr("USD"),
		Mail:   ptr("ada@example.com"),
		Nested: &TrimNested{Name: ptr("n")},
		Items:  []string{"a", "b"},
		ByKey:  map[string]string{"k": "ab"},
		Kept:   ptr("  kept  "), // no trim: untouched
	}
	if !reflect.DeepEqual(a, want) {
		t.Errorf("decoded\n%+v\nwant\n%+v", a, want)
	}
	if err := a.Validate(); err != nil {
		t.Errorf("a decoded value fails Validate: %v", violations(t, err))
	}
}

// TestTrimBeforeChecks: every check sees the trimmed value — a blank string
// is too short, padding does not count against maxLength, pattern, format,
// enum and uniqueItems judge the trimmed text — and each violation is at its
// path.
func TestTrimBeforeChecks(t *testing.T) {
	_, err := DecodeTrimArgs([]byte(`{"q": "   "}`))
	if got := violations(t, err); !slices.Equal(got, []string{"$.q: must be at least 1 character long after trimming white space, got 0"}) {
		t.Errorf("blank q: %q", got)
	}

	// 400 characters with white space around them fit maxLength 400.
	long := strings.Repeat("é", 400)
	a, err := DecodeTrimArgs([]byte(`{"q": "   ` + long + ` \n "}`))
	if err != nil || a.Q != long {
		t.Errorf("400 characters padded: %v, q has %d characters", violations(t, err), len([]rune(a.Q)))
	}
	_, err = DecodeTrimArgs([]byte(`{"q": " ` + long + `x "}`))
	if got := violations(t, err); !slices.Equal(got, []string{"$.q: must be at most 400 characters long after trimming white space, got 401"}) {
		t.Errorf("401 characters: %q", got)
	}

	in := `{
		"q": "ok",
		"word": "      ",
		"mode": " medium ",
		"at": " soon ",
		"code": " usd ",
		"mail": " nope ",
		"nested": {"name": " \t "},
		"items": [" a", "a ", "  "],
		"by_key": {"k": " abc ", "ok": " ab "}
	}`
	_, err = DecodeTrimArgs([]byte(in))
	want := []string{
		"$.word: must be at least 1 character long after trimming white space, got 0",
		`$.mode: must be one of "fast", "slow", got "medium"`,
		`$.at: must be an RFC 3339 date-time, such as "2024-01-31T09:30:00Z", got "soon"`,
		`$.code: must match the pattern "^[A-Z]{3}$", got "usd"`,
		`$.mail: must be an email address, got "nope"`,
		"$.nested.name: must be at least 1 character long after trimming white space, got 0",
		"$.items[2]: must be at least 1 character long after trimming white space, got 0",
		"$.items: items must be unique: item 1 repeats item 0",
		"$.by_key.k: must be at most 2 characters long after trimming white space, got 3",
	}
	if got := violations(t, err); !slices.Equal(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestTrimValidate: Validate accepts what decoding produces and reports a
// Go-built string with white space at either end (decoding could never
// produce it), then checks it as decoding would leave it.
func TestTrimValidate(t *testing.T) {
	ok := &TrimArgs{Q: "x", Mode: TrimModeFast, Items: []string{"a"}, ByKey: map[string]string{"k": "ab"}}
	if err := ok.Validate(); err != nil {
		t.Errorf("trimmed value: %v", violations(t, err))
	}
	bad := &TrimArgs{
		Q:      " x ",
		Word:   ptr(Word("   ")),
		Mode:   TrimModeFast,
		Code:   ptr("USD\n"),
		Nested: &TrimNested{Name: ptr(" n")},
		Items:  []string{"a", "b "},
		ByKey:  map[string]string{"k": " abc"},
		Kept:   ptr(" kept "),
	}
	const ws = "must not begin or end with white space (decoding trims it), got "
	want := []string{
		`$.q: ` + ws + `" x "`,
		`$.word: ` + ws + `"   "`,
		"$.word: must be at least 1 character long after trimming white space, got 0",
		`$.code: ` + ws + `"USD\n"`, // and the pattern holds once trimmed
		`$.nested.name: ` + ws + `" n"`,
		`$.items[1]: ` + ws + `"b "`,
		`$.by_key.k: ` + ws + `" abc"`,
		"$.by_key.k: must be at most 2 characters long after trimming white space, got 3",
	}
	if got := violations(t, bad.Validate()); !slices.Equal(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if bad.Q != " x " || *bad.Word != "   " {
		t.Error("Validate changed the value")
	}
}

// TestTrimDispatch: through a registry, a blank q is an invalid-arguments
// error at step 3 that never reaches the executor; a padded one runs
// trimmed, and the status label shows it trimmed.
func TestTrimDispatch(t *testing.T) {
	reg := runtime.NewRegistry(runtime.Options{})
	if err := reg.AddModule(Module(Tools{})); err != nil {
		t.Fatal(err)
	}
	call := func(args string) runtime.Outcome {
		out, err := reg.Dispatch(context.Background(), nil, runtime.ToolCall{ID: "1", Name: ToolTrim, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	out := call(`{"q": " \n "}`)
	if out.Status != runtime.StatusError || out.Err == nil || out.Err.Kind != runtime.ErrInvalidArgs || len(out.Err.Violations) != 1 ||
		out.Err.Violations[0].Path != "$.q" {
		t.Errorf("blank q: %+v", out)
	}
	if out.Label != "edge_trim" {
		t.Errorf("blank q label %q, want the fallback", out.Label)
	}
	out = call(`{"q": "  go  "}`)
	if out.Status != runtime.StatusOK || out.Label != "Trimming go" || !strings.HasPrefix(out.Result.String(), `{"q":"go",`) {
		t.Errorf("padded q: %s %q %s", out.Status, out.Label, out.Result.String())
	}
}
