package edge

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

func violations(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("%T %v", err, err)
	}
	var out []string
	for _, v := range ve.Violations {
		out = append(out, v.String())
	}
	return out
}

func TestDefaults(t *testing.T) {
	a, err := DecodeAllArgs([]byte(`{"when": "2024-05-01T00:00:00Z"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &AllArgs{
		Flag:                true,
		Ratio:               1.5,
		Prio:                2,
		When:                time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC),
		Start:               time.Date(2024, 1, 31, 9, 30, 0, 0, time.FixedZone("", 7200)),
		Tags:                []string{"a", "b"},
		Points:              []Point{{X: 1, Y: 0.5}}, // the item's own default applies too
		Origin:              Point{X: 0, Y: 0},
		Scores:              map[string]float64{"a": 1, "b": 2},
		NullableWithDefault: ptr("x"),
	}
	if !reflect.DeepEqual(a, want) {
		t.Errorf("decoded\n%+v\nwant\n%+v", a, want)
	}
	// Defaults are fresh values, not shared between calls.
	a.Tags[0] = "changed"
	a.Scores["a"] = 99
	b, _ := DecodeAllArgs([]byte(`{"when": "2024-05-01T00:00:00Z"}`))
	if b.Tags[0] != "a" || b.Scores["a"] != 1 {
		t.Error("defaults are shared between decodes")
	}
	// null on a nullable field with a default is null, not the default.
	c, _ := DecodeAllArgs([]byte(`{"when": "2024-05-01T00:00:00Z", "nullable_with_default": null}`))
	if c.NullableWithDefault != nil {
		t.Errorf("null gave %q", *c.NullableWithDefault)
	}
}

func TestShapes(t *testing.T) {
	in := `{
		"when": "2024-05-01T00:00:00Z",
		"labels": ["x"],
		"maybe_tags": ["a", null, "b"],
		"points": [{"x": 1, "y": 2}, {"x": 3}],
		"counts": {"a": 1, "b": null},
		"grid": [[{"x": 1}], [], [{"x": 2, "y": 3}]],
		"open": {"id": "o1", "k": "v", "n": null},
		"nothing": {},
		"big": 9
	}`
	a, err := DecodeAllArgs([]byte(in))
	if err != nil {
		t.Fatalf("%v", violations(t, err))
	}
	switch {
	case !slices.Equal(a.Labels, Labels{"x"}):
		t.Errorf("labels %v", a.Labels)
	case len(a.MaybeTags) != 3 || *a.MaybeTags[0] != "a" || a.MaybeTags[1] != nil || *a.MaybeTags[2] != "b":
		t.Errorf("maybe_tags %v", a.MaybeTags)
	case !reflect.DeepEqual(a.Points, []Point{{X: 1, Y: 2}, {X: 3, Y: 0.5}}):
		t.Errorf("points %v", a.Points)
	case *a.Counts["a"] != 1 || a.Counts["b"] != nil || len(a.Counts) != 2:
		t.Errorf("counts %v", a.Counts)
	case !reflect.DeepEqual(a.Grid, [][]Point{{{X: 1, Y: 0.5}}, {}, {{X: 2, Y: 3}}}):
		t.Errorf("grid %v", a.Grid)
	case a.Open == nil || *a.Open.ID != "o1" || *a.Open.Extra["k"] != "v" || a.Open.Extra["n"] != nil || len(a.Open.Extra) != 2:
		t.Errorf("open %+v", a.Open)
	case a.Nothing == nil || *a.Big != 9:
		t.Errorf("nothing %v big %v", a.Nothing, a.Big)
	}
	if err := a.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestEdgeViolations(t *testing.T) {
	in := `{
		"when": "soon",
		"ratio": 0,
		"prio": 4,
		"labels": [],
		"maybe_tags": ["abcd", null, null],
		"points": [{"x": 1, "y": 0.5}, {"y": 0.50, "x": 1.0}],
		"counts": {"a": -1},
		"grid": [[{"y": 1}]],
		"open": {"k": ""},
		"nothing": {"x": 1},
		"big": 10
	}`
	_, err := DecodeAllArgs([]byte(in))
	want := []string{
		`$.when: must be an RFC 3339 date-time, such as "2024-01-31T09:30:00Z", got "soon"`,
		"$.ratio: must be greater than 0, got 0",
		"$.prio: must be one of 1, 2, 3, got 4",
		"$.labels: must have at least 1 item, got 0",
		"$.maybe_tags[0]: must be at most 3 characters long, got 4",
		"$.maybe_tags: items must be unique: item 2 repeats item 1",
		"$.points: items must be unique: item 1 repeats item 0",
		"$.counts.a: must be at least 0, got -1",
		`$.grid[0][0]: missing required property "x"`,
		"$.open.k: must be at least 1 character long, got 0",
		`$.nothing: unknown property "x"`,
		"$.big: must be a multiple of 3, got 10",
	}
	if got := violations(t, err); !slices.Equal(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestEdgeUniqueAsSent: uniqueItems compares the items as sent, by JSON
// equality (issue 7 §2): defaults are not filled in first, null differs
// from absent, date-time strings compare as strings.
func TestEdgeUniqueAsSent(t *testing.T) {
	for _, in := range []string{
		`{"when": "2024-01-31T09:30:00Z", "points": [{"x": 1}, {"x": 1, "y": 0.5}]}`,
		`{"when": "2024-01-31T09:30:00Z", "maybe_tags": ["a", null]}`,
	} {
		if _, err := DecodeAllArgs([]byte(in)); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
	// Validate, for values built in Go, compares their JSON encodings.
	a := &AllArgs{When: time.Now(), Points: []Point{{X: 1, Y: 0.5}, {X: 1, Y: 0.5}}}
	if err := a.Validate(); err == nil || !strings.Contains(err.Error(), "items must be unique: item 1 repeats item 0") {
		t.Errorf("Validate: %v", err)
	}
}

func TestLabelAndResults(t *testing.T) {
	if got := allLabel(&AllArgs{Flag: true, Ratio: 0.25, Prio: 3}); got != "At some time: true 0.25 3" {
		t.Errorf("label %q", got)
	}
	when := time.Date(2024, 5, 1, 8, 0, 0, 0, time.UTC)
	if got := allLabel(&AllArgs{When: when, Prio: 1}); got != "At 2024-05-01T08:00:00Z: false 0 1" {
		t.Errorf("label %q", got)
	}
	m := Module(Tools{})
	res, err := m.Tools[0].Execute(context.Background(), nil, &AllArgs{Origin: Point{X: 1, Y: 2}})
	if err != nil || res.String() != `{"x":1,"y":2}` {
		t.Errorf("point result %v %v", res, err)
	}
	res, err = m.Tools[1].Execute(context.Background(), nil, &TimeArgs{})
	if err != nil || res.String() != `"2024-01-31T09:30:00Z"` {
		t.Errorf("time result %v %v", res, err)
	}
	var schema map[string]any
	if err := json.Unmarshal(m.Tools[1].ResultSchema, &schema); err != nil || schema["format"] != "date-time" {
		t.Errorf("time result schema %s", m.Tools[1].ResultSchema)
	}
}

func ptr[T any](v T) *T { return &v }
