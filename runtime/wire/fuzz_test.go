package wire

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzValid checks that the reader never panics and agrees with
// encoding/json on which inputs are valid JSON, and that strings decode to
// what encoding/json gives.
func FuzzValid(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `null`, `true`, `-0.5e+10`, `"\ud83d\ude00"`, `{"a":[1,{"b":null}],"c":"\u0041"}`,
		`{"a":1,}`, `[1 2]`, `"\x"`, "\"\xff\"", `01`, `{"a"}`, ` [ ] `, `[[[[[[]]]]]]`, `"\ud800\udc00"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Valid(data), json.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", data, got, want)
		}
		// A generated-decoder-like walk must not panic on anything.
		var d Decoder
		d.Reset(data)
		walk(&d, 0)
		err := d.Finish()
		var s string
		if json.Unmarshal(data, &s) == nil && bytes.TrimSpace(data)[0] == '"' {
			d.Reset(data)
			got, ok := d.String()
			if d.Finish() != nil || !ok || got != s {
				t.Fatalf("String(%q) = %q, %v; encoding/json gives %q", data, got, ok, s)
			}
		}
		_ = err
	})
}

// walk reads any value with the typed reads generated code uses.
func walk(d *Decoder, depth int) {
	switch kindOf(d.peek()) {
	case "object":
		if d.BeginObject() {
			for d.NextKey() {
				d.Enter(string(d.Name()))
				if depth%2 == 0 {
					walk(d, depth+1)
				} else {
					d.Raw()
				}
				d.Leave()
			}
		}
	case "array":
		if d.BeginArray() {
			for i := 0; d.NextItem(); i++ {
				d.EnterIndex(i)
				walk(d, depth+1)
				d.Leave()
			}
		}
	case "number":
		if depth%2 == 0 {
			d.Int()
		} else {
			d.Float()
		}
	case "string":
		b, _ := d.Bytes()
		IsDateTime(b)
		IsEmail(b)
		IsURI(b)
	case "boolean":
		d.Bool()
	case "null":
		d.Null()
	default:
		d.String() // not a value: a syntax error
	}
}
