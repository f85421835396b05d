package wire

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// Field and OptionalField in a member loop: a duplicate is reported and
// skipped; an optional property's null gets the hint, or in NullAsAbsent
// mode reads as absent.
func TestField(t *testing.T) {
	read := func(data string, mode runtime.DecodeMode, optional bool) (got []string, seen bool, err error) {
		var d Decoder
		d.ResetMode([]byte(data), mode)
		if !d.BeginObject() {
			t.Fatalf("%s: not an object", data)
		}
		for d.NextKey() {
			enter := d.Field
			if optional {
				enter = d.OptionalField
			}
			if enter(&seen, "a") {
				if v, ok := d.String(); ok {
					got = append(got, v)
				}
				d.Leave()
			}
		}
		return got, seen, d.Finish()
	}
	got, seen, err := read(`{"a":"x","a":"y"}`, 0, false)
	if len(got) != 1 || got[0] != "x" || !seen || err == nil || !strings.HasSuffix(err.Error(), `$: duplicate property "a"`) {
		t.Errorf("duplicate: %v %v %v", got, seen, err)
	}
	_, _, err = read(`{"a":null}`, 0, true)
	if err == nil || err.Error() != readErr(`{"a":null}`, false) {
		t.Errorf("optional null: %v, want the hint of EnterOptional: %s", err, readErr(`{"a":null}`, false))
	}
	got, seen, err = read(`{"a":null}`, runtime.NullAsAbsent, true)
	if len(got) != 0 || seen || err != nil {
		t.Errorf("null as absent: %v %v %v", got, seen, err)
	}
	got, seen, err = read(`{"a":null,"a":"z"}`, runtime.NullAsAbsent, true)
	if len(got) != 1 || got[0] != "z" || !seen || err != nil {
		t.Errorf("null as absent, then a value: %v %v %v", got, seen, err)
	}
}

// readErr is the error of reading a string at "a" with Enter (required)
// or EnterOptional, written out by hand the old way.
func readErr(data string, required bool) string {
	var d Decoder
	d.Reset([]byte(data))
	d.BeginObject()
	for d.NextKey() {
		if required {
			d.Enter("a")
		} else {
			d.EnterOptional("a")
		}
		d.String()
		d.Leave()
	}
	if err := d.Finish(); err != nil {
		return err.Error()
	}
	return ""
}

type validated struct {
	N   int64
	Opt *string
}

func (x *validated) validate(c *Checker) {
	CheckAt(c, "n", x.N, func(c *Checker, v int64) {
		if v < 0 {
			c.Add("must be at least 0")
		}
	})
	CheckPtr(c, "opt", x.Opt, func(c *Checker, v string) {
		if v == "" {
			c.Add("must not be empty")
		}
	})
}

// Validate, CheckAt and CheckPtr: violations at the property's path, an
// absent pointer unchecked, a nil value one violation at $.
func TestValidateHelpers(t *testing.T) {
	empty := ""
	for _, c := range []struct {
		x    *validated
		want string
	}{
		{&validated{N: 1}, ""},
		{&validated{N: -1, Opt: &empty}, "$.n: must be at least 0; $.opt: must not be empty"},
		{&validated{Opt: &empty}, "$.opt: must not be empty"},
		{nil, "$: expected object, got nil"},
	} {
		err := Validate(c.x, (*validated).validate)
		var got string
		if err != nil {
			var ve *runtime.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("%T %v", err, err)
			}
			var parts []string
			for _, v := range ve.Violations {
				parts = append(parts, v.Path+": "+v.Message)
			}
			got = strings.Join(parts, "; ")
		}
		if got != c.want {
			t.Errorf("%+v: got %q, want %q", c.x, got, c.want)
		}
	}
}

type nested struct {
	One   *validated
	Two   validated
	Tags  tags
	Items []validated
}

type tags []string

func checkTags(c *Checker, v []string) {
	if len(v) > 2 {
		c.Add(MaxItemsMessage(2, len(v)))
	}
}

func checkTag(c *Checker, v string) {
	if v == "" {
		c.Add("must not be empty")
	}
}

func (x *nested) validate(c *Checker) {
	CheckObject(c, "one", x.One, (*validated).validate)
	CheckObject(c, "two", &x.Two, (*validated).validate)
	CheckSlice(c, "tags", x.Tags, checkTags, checkTag)
	CheckObjects(c, "items", x.Items, nil, (*validated).validate)
}

// CheckObject, CheckSlice and CheckObjects: violations at the paths of the
// object, the array and each item; nil is absent, unchecked.
func TestValidateNested(t *testing.T) {
	for _, c := range []struct {
		x    *nested
		want string
	}{
		{&nested{}, ""},
		{&nested{One: &validated{N: -1}, Two: validated{N: -2}}, "$.one.n: must be at least 0; $.two.n: must be at least 0"},
		{&nested{Tags: tags{"a", "", "c"}}, "$.tags: must have at most 2 items, got 3; $.tags[1]: must not be empty"},
		{&nested{Tags: tags{}, Items: []validated{{}, {N: -1}}}, "$.items[1].n: must be at least 0"},
	} {
		var got []string
		if err := Validate(c.x, (*nested).validate); err != nil {
			for _, v := range err.(*runtime.ValidationError).Violations {
				got = append(got, v.Path+": "+v.Message)
			}
		}
		if s := strings.Join(got, "; "); s != c.want {
			t.Errorf("%+v: got %q, want %q", c.x, s, c.want)
		}
	}
	// CheckSlice without checks walks nothing.
	var ch Checker
	CheckSlice[[]string](&ch, "x", []string{""}, nil, nil)
	if ch.Failed() {
		t.Error("CheckSlice with no checks reported a violation")
	}
}

// CheckMap and CheckObjectMap: each value at its key's path, keys in order;
// nil is absent.
func TestCheckMaps(t *testing.T) {
	var c Checker
	CheckMap(&c, "m", map[string]string{"b": "", "a": "", "c": "x"}, checkTag)
	CheckMap[map[string]string](&c, "nil", nil, checkTag)
	CheckObjectMap(&c, "o", map[string]validated{"z": {N: -1}, "y": {}}, (*validated).validate)
	var got []string
	for _, v := range c.Violations() {
		got = append(got, v.Path+": "+v.Message)
	}
	want := "$.m.a: must not be empty; $.m.b: must not be empty; $.o.z.n: must be at least 0"
	if s := strings.Join(got, "; "); s != want {
		t.Errorf("got %q, want %q", s, want)
	}
}
