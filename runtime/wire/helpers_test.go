package wire

import (
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

func TestSmallHelpers(t *testing.T) {
	if p := Ptr(3); *p != 3 {
		t.Error("Ptr")
	}
	if got := Quote(`a"b`); got != `"a\"b"` {
		t.Errorf("Quote = %s", got)
	}
	if got := Quote(strings.Repeat("é", 80)); got != `"`+strings.Repeat("é", 64)+`"…` {
		t.Errorf("Quote(long) = %s", got)
	}
	if got := UniqueMessage(0, 3); got != "items must be unique: item 3 repeats item 0" {
		t.Errorf("UniqueMessage = %s", got)
	}
	var c Checker
	if c.Failed() || c.Err() != nil {
		t.Error("fresh checker failed")
	}
	c.Add("x")
	if !c.Failed() || c.Err() == nil {
		t.Error("checker with a violation did not fail")
	}
}

// TestSchemaDepth: objects and arrays opened by generated code count
// towards MaxDepth too.
func TestSchemaDepth(t *testing.T) {
	in := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	var d Decoder
	d.Reset([]byte(in))
	var open func(level int)
	open = func(level int) {
		if d.BeginArray() {
			for i := 0; d.NextItem(); i++ {
				d.EnterIndex(i)
				open(level + 1)
				d.Leave()
			}
		}
	}
	open(0)
	if !d.Stopped() {
		t.Error("not stopped")
	}
	vs := violations(t, d.Finish())
	if len(vs) != 1 || vs[0].Message != "value nests deeper than 64 levels" || !strings.HasPrefix(vs[0].Path, "$[0][0]") {
		t.Errorf("%v", vs)
	}
	// Objects likewise.
	in = strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1)
	d.Reset([]byte(in))
	var obj func()
	obj = func() {
		if d.BeginObject() {
			for d.NextKey() {
				d.Enter("a")
				obj()
				d.Leave()
			}
		}
	}
	obj()
	if vs := violations(t, d.Finish()); len(vs) != 1 || vs[0].Message != "value nests deeper than 64 levels" {
		t.Errorf("%v", vs)
	}
}

func TestStringErrors(t *testing.T) {
	for in, want := range map[string]string{
		"\"a\x01\"":    "malformed JSON at byte offset 2: expected closing '\"' of string (control characters must be escaped), found '\\x01'",
		"\"a\\n\x01\"": "malformed JSON at byte offset 4: expected closing '\"' of string (control characters must be escaped), found '\\x01'",
		`"a\`:          "malformed JSON at byte offset 3: expected escape sequence, found end of input",
		`"a\n`:         "malformed JSON at byte offset 4: expected closing '\"' of string, found end of input",
		`"\q"`:         "malformed JSON at byte offset 2: expected valid escape character after '\\', found 'q'",
	} {
		var d Decoder
		d.Reset([]byte(in))
		d.String()
		vs := violations(t, d.Finish())
		if len(vs) != 1 || vs[0].Message != want {
			t.Errorf("%q: %v, want %s", in, vs, want)
		}
	}
	// Type errors on every read.
	var d Decoder
	d.Reset([]byte(`[1, "x", true, {}, [], null]`))
	if d.BeginArray() {
		for i := 0; d.NextItem(); i++ {
			d.EnterIndex(i)
			switch i {
			case 0:
				d.Bytes()
			case 1:
				d.Bool()
			case 2:
				d.Float()
			case 3:
				d.BeginArray()
			case 4:
				d.BeginObject()
			case 5:
				d.Raw()
			}
			d.Leave()
		}
	}
	want := []string{"$[0]: expected string, got number 1", `$[1]: expected boolean, got string "x"`, "$[2]: expected number, got boolean true",
		"$[3]: expected array, got object", "$[4]: expected object, got array"}
	var got []string
	for _, v := range violations(t, d.Finish()) {
		got = append(got, v.String())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q", got)
	}
	// A long bad integer is cut in the message.
	d.Reset([]byte(strings.Repeat("1", 70) + ".5"))
	d.Int()
	if vs := violations(t, d.Finish()); len(vs) != 1 || !strings.HasSuffix(vs[0].Message, "…") {
		t.Errorf("%v", vs)
	}
}

// TestUnknownMessage: an unknown property gets the name the model most
// probably meant, or else the list of the object's properties.
func TestUnknownMessage(t *testing.T) {
	known := []string{"title", "due_date", "priority", "tags"}
	for _, c := range []struct {
		name  string
		known []string
		want  string
	}{
		{"titel", known, `unknown property "titel" (did you mean "title"?)`},
		{"dueDate", known, `unknown property "dueDate" (did you mean "due_date"?)`},
		{"Due-Date", known, `unknown property "Due-Date" (did you mean "due_date"?)`},
		{"tag", known, `unknown property "tag" (did you mean "tags"?)`},
		{"prioirty", known, `unknown property "prioirty" (did you mean "priority"?)`},
		{"tilte", known, `unknown property "tilte" (did you mean "title"?)`},
		{"colour", known, `unknown property "colour"; known properties: "title", "due_date", "priority", "tags"`},
		{"ab", []string{"a", "b"}, `unknown property "ab"; known properties: "a", "b"`}, // two at distance 1: no guess
		{"x", []string{"y"}, `unknown property "x"; known properties: "y"`},             // a guess must share half the name
		{"x", nil, `unknown property "x"`},
	} {
		if got := UnknownMessage(c.name, c.known); got != c.want {
			t.Errorf("UnknownMessage(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

// LabelArgs: the *T of a decoded call, or of an InvalidArgs with it; nil
// for anything else.
func TestLabelArgs(t *testing.T) {
	type args struct{ N int }
	x := &args{N: 1}
	inv := &runtime.InvalidArgs{Args: x}
	if a, bad := LabelArgs[*args](x); a != x || bad != nil {
		t.Errorf("decoded: %v %v", a, bad)
	}
	if a, bad := LabelArgs[*args](inv); a != x || bad != inv {
		t.Errorf("invalid: %v %v", a, bad)
	}
	for _, v := range []any{nil, args{}, "x", &runtime.InvalidArgs{}, &runtime.InvalidArgs{Args: 3}, (*args)(nil)} {
		if a, _ := LabelArgs[*args](v); a != nil {
			t.Errorf("%#v: got %v, want nil", v, a)
		}
	}
}
