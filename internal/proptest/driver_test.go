package proptest

// driverMain is the program the test builds beside each generated package:
// it prints every tool's schema (what the model sees: the reference
// validator checks against exactly that), then reads one case per line from
// stdin ({"t": tool name, "a": arguments text}) and writes one outcome per
// line: accepted or not, the violations, the decoded value rendered as JSON
// (by reflection, Extra maps merged into their objects, nil as null) and
// what Validate says of an accepted value.
const driverMain = `package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/toolgen/toolgen/runtime"

	p "example.com/proptest/p"
)

type in struct {
	T string ` + "`json:\"t\"`" + `
	A string ` + "`json:\"a\"`" + `
}

type out struct {
	OK  bool            ` + "`json:\"ok\"`" + `
	Vs  []string        ` + "`json:\"vs,omitempty\"`" + `
	V   json.RawMessage ` + "`json:\"v,omitempty\"`" + `
	Val string          ` + "`json:\"val,omitempty\"`" + `
	Err string          ` + "`json:\"err,omitempty\"`" + `
}

func main() {
	mod := p.Module(&p.Tools{})
	tools := map[string]*runtime.Tool{}
	schemas := map[string]json.RawMessage{}
	for _, t := range mod.Tools {
		tools[t.Name] = t
		schemas[t.Name] = t.Schema
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(schemas)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var c in
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			panic(err)
		}
		v, err := tools[c.T].DecodeArgs([]byte(c.A))
		var o out
		var ve *runtime.ValidationError
		switch {
		case err == nil:
			o.OK = true
			var b strings.Builder
			render(&b, reflect.ValueOf(v))
			o.V = json.RawMessage(b.String())
			if x, ok := v.(interface{ Validate() error }); ok {
				if err := x.Validate(); err != nil {
					o.Val = err.Error()
				}
			}
		case errors.As(err, &ve):
			for _, x := range ve.Violations {
				o.Vs = append(o.Vs, x.Path+": "+x.Message)
			}
		default:
			o.Err = err.Error()
		}
		enc.Encode(o)
	}
}

var timeType = reflect.TypeOf(time.Time{})
var rawType = reflect.TypeOf(json.RawMessage(nil))

func render(b *strings.Builder, v reflect.Value) {
	if !v.IsValid() {
		b.WriteString("null")
		return
	}
	if v.Type() == timeType {
		b.WriteString(strconv.Quote(v.Interface().(time.Time).Format(time.RFC3339Nano)))
		return
	}
	if v.Type() == rawType {
		if v.IsNil() {
			b.WriteString("null")
		} else {
			b.Write(v.Bytes())
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString("null")
			return
		}
		render(b, v.Elem())
	case reflect.String:
		s, _ := json.Marshal(v.String())
		b.Write(s)
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Float64:
		b.WriteString(strconv.FormatFloat(v.Float(), 'g', -1, 64))
	case reflect.Slice:
		if v.IsNil() {
			b.WriteString("null")
			return
		}
		b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			render(b, v.Index(i))
		}
		b.WriteByte(']')
	case reflect.Map:
		if v.IsNil() {
			b.WriteString("null")
			return
		}
		b.WriteByte('{')
		first := true
		renderMap(b, v, &first)
		b.WriteByte('}')
	case reflect.Struct:
		if ba, ok := v.Interface().(runtime.BatchArgs); ok {
			b.WriteString("{\"items\":")
			render(b, reflect.ValueOf(ba.Items))
			b.WriteByte('}')
			return
		}
		b.WriteByte('{')
		first := true
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				renderMap(b, v.Field(i), &first)
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if !first {
				b.WriteByte(',')
			}
			first = false
			k, _ := json.Marshal(name)
			b.Write(k)
			b.WriteByte(':')
			render(b, v.Field(i))
		}
		b.WriteByte('}')
	default:
		panic("cannot render " + v.Type().String())
	}
}

func renderMap(b *strings.Builder, m reflect.Value, first *bool) {
	it := m.MapRange()
	for it.Next() {
		if !*first {
			b.WriteByte(',')
		}
		*first = false
		k, _ := json.Marshal(it.Key().String())
		b.Write(k)
		b.WriteByte(':')
		render(b, it.Value())
	}
}
`
