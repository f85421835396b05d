package wire

import (
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
