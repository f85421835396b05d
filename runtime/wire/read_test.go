package wire

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// The one-line field reads (read.go) give what the long form they replace
// gives: the same values and the same violations at the same paths, for
// valid values, values of the wrong type, values their checks reject,
// nulls, duplicates and oversized arrays, in both decode modes.
func TestFieldReads(t *testing.T) {
	short := func(s string) func(*Checker, string) {
		return func(c *Checker, v string) {
			if len(v) > 3 {
				c.Add("too long: " + s)
			}
		}
	}
	rules := &NumberRules{Minimum: Dec("1"), Maximum: Dec("10")}
	type color string
	colorOf := func(b []byte) color {
		if string(b) == "red" {
			return "red"
		}
		return color(b)
	}
	checkColor := func(c *Checker, v color) {
		if v != "red" {
			c.Add("must be red, got " + Quote(string(v)))
		}
	}
	checkLen := func(c *Checker, v []string) {
		if len(v) < 1 {
			c.Add(MinItemsMessage(1, len(v)))
		}
	}
	type item struct{ N int64 }
	decodeItem := func(x *item, d *Decoder) {
		if !d.BeginObject() {
			return
		}
		var has bool
		for d.NextKey() {
			switch string(d.Name()) {
			case "n":
				if d.Field(&has, "n") {
					if v, ok := d.Int(); ok {
						rules.CheckInt(&d.Checker, v)
						x.N = v
					}
					d.Leave()
				}
			default:
				d.Unknown("n")
			}
		}
	}

	// Each case reads property "a" of the inputs with a one-line read and
	// with the long form, printing the value read.
	type reader func(d *Decoder, seen *bool) string
	show := func(p any) string {
		switch v := p.(type) {
		case *string:
			if v != nil {
				return "&" + *v
			}
		case *int64:
			if v != nil {
				return fmt.Sprint("&", *v)
			}
		case *float64:
			if v != nil {
				return fmt.Sprint("&", *v)
			}
		case *bool:
			if v != nil {
				return fmt.Sprint("&", *v)
			}
		case *time.Time:
			if v != nil {
				return "&" + v.Format(time.RFC3339)
			}
		case *color:
			if v != nil {
				return "&" + string(*v)
			}
		case *item:
			if v != nil {
				return fmt.Sprint("&", *v)
			}
		default:
			return fmt.Sprintf("%#v", p)
		}
		return "nil"
	}
	// long is the long form: enter (Field or OptionalField), read, leave.
	long := func(optional bool, read func(d *Decoder)) func(d *Decoder, seen *bool) {
		return func(d *Decoder, seen *bool) {
			enter := d.Field
			if optional {
				enter = d.OptionalField
			}
			if enter(seen, "a") {
				read(d)
				d.Leave()
			}
		}
	}
	cases := []struct {
		name        string
		short, long reader
	}{
		{"ReqString", func(d *Decoder, seen *bool) string {
			var x string
			d.ReqString(seen, "a", &x, short("a"))
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x string
			long(false, func(d *Decoder) {
				if v, ok := d.String(); ok {
					short("a")(&d.Checker, v)
					x = v
				}
			})(d, seen)
			return show(x)
		}},
		{"OptString", func(d *Decoder, seen *bool) string {
			var x string
			d.OptString(seen, "a", &x, nil)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x string
			long(true, func(d *Decoder) {
				if v, ok := d.String(); ok {
					x = v
				}
			})(d, seen)
			return show(x)
		}},
		{"OptStringPtr", func(d *Decoder, seen *bool) string {
			var x *string
			d.OptStringPtr(seen, "a", &x, short("a"))
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x *string
			long(true, func(d *Decoder) {
				if v, ok := d.String(); ok {
					short("a")(&d.Checker, v)
					x = &v
				}
			})(d, seen)
			return show(x)
		}},
		{"ReqInt", func(d *Decoder, seen *bool) string {
			var x int64
			d.ReqInt(seen, "a", &x, rules)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x int64
			long(false, func(d *Decoder) {
				if v, ok := d.Int(); ok {
					rules.CheckInt(&d.Checker, v)
					x = v
				}
			})(d, seen)
			return show(x)
		}},
		{"OptInt", func(d *Decoder, seen *bool) string {
			var x int64
			d.OptInt(seen, "a", &x, nil)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x int64
			long(true, func(d *Decoder) {
				if v, ok := d.Int(); ok {
					x = v
				}
			})(d, seen)
			return show(x)
		}},
		{"OptIntPtr", func(d *Decoder, seen *bool) string {
			var x *int64
			d.OptIntPtr(seen, "a", &x, rules)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x *int64
			long(true, func(d *Decoder) {
				if v, ok := d.Int(); ok {
					rules.CheckInt(&d.Checker, v)
					x = &v
				}
			})(d, seen)
			return show(x)
		}},
		{"ReqFloat", func(d *Decoder, seen *bool) string {
			var x float64
			d.ReqFloat(seen, "a", &x, rules)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x float64
			long(false, func(d *Decoder) {
				if v, tok, ok := d.Number(); ok {
					rules.CheckFloat(&d.Checker, v, tok)
					x = v
				}
			})(d, seen)
			return show(x)
		}},
		{"OptFloat", func(d *Decoder, seen *bool) string {
			var x float64
			d.OptFloat(seen, "a", &x, rules)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x float64
			long(true, func(d *Decoder) {
				if v, tok, ok := d.Number(); ok {
					rules.CheckFloat(&d.Checker, v, tok)
					x = v
				}
			})(d, seen)
			return show(x)
		}},
		{"OptFloatPtr", func(d *Decoder, seen *bool) string {
			var x *float64
			d.OptFloatPtr(seen, "a", &x, nil)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x *float64
			long(true, func(d *Decoder) {
				if v, ok := d.Float(); ok {
					x = &v
				}
			})(d, seen)
			return show(x)
		}},
		{"ReqBool", func(d *Decoder, seen *bool) string {
			var x bool
			d.ReqBool(seen, "a", &x, nil)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x bool
			long(false, func(d *Decoder) {
				if v, ok := d.Bool(); ok {
					x = v
				}
			})(d, seen)
			return show(x)
		}},
		{"OptBool", func(d *Decoder, seen *bool) string {
			var x bool
			d.OptBool(seen, "a", &x, nil)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x bool
			long(true, func(d *Decoder) {
				if v, ok := d.Bool(); ok {
					x = v
				}
			})(d, seen)
			return show(x)
		}},
		{"OptBoolPtr", func(d *Decoder, seen *bool) string {
			var x *bool
			d.OptBoolPtr(seen, "a", &x, nil)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x *bool
			long(true, func(d *Decoder) {
				if v, ok := d.Bool(); ok {
					x = &v
				}
			})(d, seen)
			return show(x)
		}},
		{"ReqDateTime", func(d *Decoder, seen *bool) string {
			var x time.Time
			d.ReqDateTime(seen, "a", &x)
			return show(&x)
		}, func(d *Decoder, seen *bool) string {
			var x time.Time
			long(false, func(d *Decoder) {
				if b, ok := d.Bytes(); ok {
					if v, ok := ParseDateTime(b); ok {
						x = v
					} else {
						d.Add(FormatMessage("date-time") + ", got " + Quote(string(b)))
					}
				}
			})(d, seen)
			return show(&x)
		}},
		{"OptDateTimePtr", func(d *Decoder, seen *bool) string {
			var x *time.Time
			d.OptDateTimePtr(seen, "a", &x)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x *time.Time
			long(true, func(d *Decoder) {
				if b, ok := d.Bytes(); ok {
					if v, ok := ParseDateTime(b); ok {
						x = &v
					} else {
						d.Add(FormatMessage("date-time") + ", got " + Quote(string(b)))
					}
				}
			})(d, seen)
			return show(x)
		}},
		{"ReqEnum", func(d *Decoder, seen *bool) string {
			var x color
			ReqEnum(d, seen, "a", &x, colorOf, checkColor)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x color
			long(false, func(d *Decoder) {
				if b, ok := d.Bytes(); ok {
					v := colorOf(b)
					checkColor(&d.Checker, v)
					x = v
				}
			})(d, seen)
			return show(x)
		}},
		{"OptEnumPtr", func(d *Decoder, seen *bool) string {
			var x *color
			OptEnumPtr(d, seen, "a", &x, colorOf, checkColor)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x *color
			long(true, func(d *Decoder) {
				if b, ok := d.Bytes(); ok {
					v := colorOf(b)
					checkColor(&d.Checker, v)
					x = &v
				}
			})(d, seen)
			return show(x)
		}},
		{"ReqObject", func(d *Decoder, seen *bool) string {
			var x item
			ReqObject(d, seen, "a", &x, decodeItem)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x item
			long(false, func(d *Decoder) { decodeItem(&x, d) })(d, seen)
			return show(x)
		}},
		{"OptObjectPtr", func(d *Decoder, seen *bool) string {
			var x *item
			OptObjectPtr(d, seen, "a", &x, decodeItem)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x *item
			long(true, func(d *Decoder) {
				x = new(item)
				decodeItem(x, d)
			})(d, seen)
			return show(x)
		}},
		{"OptStrings", func(d *Decoder, seen *bool) string {
			var x []string
			d.OptStrings(seen, "a", &x, 2, short("item"), checkLen)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x []string
			long(true, func(d *Decoder) {
				if d.BeginArray() {
					x = []string{}
					for i := 0; d.NextItemWithin(i, 2); i++ {
						d.EnterIndex(i)
						x = append(x, "")
						if v, ok := d.String(); ok {
							short("item")(&d.Checker, v)
							x[i] = v
						}
						d.Leave()
					}
					checkLen(&d.Checker, x)
				}
			})(d, seen)
			return show(x)
		}},
		{"ReqStrings", func(d *Decoder, seen *bool) string {
			var x []string
			d.ReqStrings(seen, "a", &x, NoMaxItems, nil, nil)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x []string
			long(false, func(d *Decoder) {
				if d.BeginArray() {
					x = []string{}
					for i := 0; d.NextItem(); i++ {
						d.EnterIndex(i)
						x = append(x, "")
						if v, ok := d.String(); ok {
							x[i] = v
						}
						d.Leave()
					}
				}
			})(d, seen)
			return show(x)
		}},
		{"OptEnums", func(d *Decoder, seen *bool) string {
			var x []color
			OptEnums(d, seen, "a", &x, 2, colorOf, checkColor, nil)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x []color
			long(true, func(d *Decoder) {
				if d.BeginArray() {
					x = []color{}
					for i := 0; d.NextItemWithin(i, 2); i++ {
						d.EnterIndex(i)
						x = append(x, "")
						if b, ok := d.Bytes(); ok {
							v := colorOf(b)
							checkColor(&d.Checker, v)
							x[i] = v
						}
						d.Leave()
					}
				}
			})(d, seen)
			return show(x)
		}},
		{"ReqObjects", func(d *Decoder, seen *bool) string {
			var x []item
			ReqObjects(d, seen, "a", &x, 2, decodeItem, nil)
			return show(x)
		}, func(d *Decoder, seen *bool) string {
			var x []item
			long(false, func(d *Decoder) {
				if d.BeginArray() {
					x = []item{}
					for i := 0; d.NextItemWithin(i, 2); i++ {
						d.EnterIndex(i)
						x = append(x, item{})
						decodeItem(&x[i], d)
						d.Leave()
					}
				}
			})(d, seen)
			return show(x)
		}},
	}
	values := []string{
		`"ab"`, `"abcd"`, `"red"`, `"blue"`, `""`, `"2024-01-31T09:30:00Z"`, `"2024-13-01"`,
		`0`, `5`, `11`, `2.5`, `1e400`, `true`, `null`, `{}`, `{"n":3}`, `{"n":0,"m":1}`,
		`[]`, `["a"]`, `["abcd","red","x"]`, `[{"n":1},{"n":20},{}]`, `[1,"x"]`,
	}
	var inputs []string
	for _, v := range values {
		inputs = append(inputs, `{"a":`+v+`}`, `{"a":`+v+`,"a":`+v+`}`, `{"b":1,"a":`+v+`}`)
	}
	inputs = append(inputs, `{}`, `{"a":`, `[]`)
	for _, c := range cases {
		for _, mode := range []runtime.DecodeMode{0, runtime.NullAsAbsent} {
			for _, in := range inputs {
				run := func(read reader) string {
					var d Decoder
					d.ResetMode([]byte(in), mode)
					var seen bool
					got := ""
					if d.BeginObject() {
						for d.NextKey() {
							if string(d.Name()) == "a" {
								got = read(&d, &seen)
							} else {
								d.Skip()
							}
						}
					}
					var msgs []string
					if err := d.Finish(); err != nil {
						msgs = append(msgs, err.Error())
					}
					return fmt.Sprintf("%s seen=%v %s", got, seen, strings.Join(msgs, "; "))
				}
				if s, l := run(c.short), run(c.long); s != l {
					t.Errorf("%s mode %d %s:\n one line: %s\nlong form: %s", c.name, mode, in, s, l)
				}
			}
		}
	}
}
