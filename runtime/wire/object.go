package wire

import (
	"maps"
	"math/bits"
	"slices"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// Objects as tables. A generated struct whose properties are all of the
// common kinds (strings, numbers, booleans, date-times, enums, objects,
// arrays of strings, enums or objects, maps of strings) is described by a
// table of Fields, package-level data that compiles to data rather than
// code, and its decode and validate methods are one call each:
//
//	var addressFields = []wire.Field{
//		{Name: "line1", Required: true, Value: wire.String{Check: checkLine1}},
//		{Name: "city", Value: wire.String{}},
//	}
//
//	func (x *Address) decode(d *wire.Decoder) {
//		d.Object(addressFields, &x.Line1, &x.City)
//	}
//
//	func (x *Address) validate(c *wire.Checker) {
//		c.Object(addressFields, &x.Line1, &x.City)
//	}
//
// The addresses follow the table's order; each is the Go field the
// property is held in (a *string for a value, a **string for an optional
// property held as a pointer, nil when absent). Decoding and validating
// through a table give exactly the violations, messages and paths of the
// member loop and validate method written out field by field, which
// structs of other kinds still get.

// A Field is one property of a generated struct's table: its JSON name,
// whether it is required or takes null, and how its value is read and
// checked.
type Field struct {
	// Name is the property's name, without '"', '\\' or control
	// characters (a spec's names are letters, digits, '_' and '-'):
	// decoding compares it with the raw bytes of a key.
	Name     string
	Required bool
	// Nullable is a property that takes null: null leaves its field at
	// nil (the Go value of a nullable property can be nil), and is never
	// read as absent.
	Nullable bool
	Value    Value
}

// A Value reads and checks the value of one property: String, Int, Float,
// Bool, DateTime, Enum, Object, Strings, Enums, Objects or StringMap.
type Value interface {
	// read reads the property's value into p, the address of its field,
	// checking it as it is read.
	read(d *Decoder, p any)
	// check records the violations of the value at p at the property name
	// (a nil required value is missing).
	check(c *Checker, name string, required bool, p any)
}

// MaxTableFields is the most properties a table describes (Seen is a
// bit set of them); larger structs keep the member loop.
const MaxTableFields = 63

// Seen is the set of a table's properties one object had, by index.
type Seen uint64

// seenObject marks a Seen of a value that was an object.
const seenObject Seen = 1 << MaxTableFields

// Has reports whether the object had property i.
func (s Seen) Has(i int) bool { return s&(1<<uint(i)) != 0 }

// Absent reports whether the value was an object without property i: the
// properties whose defaults apply. (A value that was not an object was
// not read into the struct, and gets no defaults.)
func (s Seen) Absent(i int) bool { return s&seenObject != 0 && !s.Has(i) }

// Object reads the JSON object of a generated struct described by fields
// into the fields at ptrs (in the table's order), checking each value as it
// is read: unknown and duplicate properties and missing required ones are
// violations, as in a generated member loop. It returns the properties the
// object had, for the caller to fill in the defaults of the others.
func (d *Decoder) Object(fields []Field, ptrs ...any) Seen {
	if !d.BeginObject() {
		return 0
	}
	ptrs = ptrs[:len(fields)]
	seen := seenObject
	next := 0 // properties usually come in the schema's order: try that first
	for {
		i := d.nextField(fields, next)
		if i < 0 {
			if i == endObject {
				break
			}
			d.unknownField(fields)
			continue
		}
		next = i + 1
		f := &fields[i]
		if f.Nullable {
			if seen.Has(i) {
				d.duplicate(f.Name) // the key, as the key is the name
				continue
			}
			seen |= 1 << uint(i)
			d.Enter(f.Name)
			if !d.Null() {
				f.Value.read(d, ptrs[i])
			}
			d.Leave()
			continue
		}
		// An optional property that does not take null: null there gets a
		// hint to leave it out, or is read as absent (AbsentNull).
		optional := !f.Required
		if optional && d.mode&runtime.NullAsAbsent != 0 && d.Null() {
			continue
		}
		if seen.Has(i) {
			d.duplicate(f.Name)
			continue
		}
		seen |= 1 << uint(i)
		d.push(seg{name: f.Name, index: -1, optional: optional})
		f.Value.read(d, ptrs[i])
		d.Leave()
	}
	// The properties the object lacked, in order: the required ones are
	// missing.
	for m := ^seen & (1<<uint(len(fields)) - 1); m != 0; m &= m - 1 {
		if i := bits.TrailingZeros64(uint64(m)); fields[i].Required {
			d.Missing(fields[i].Name)
		}
	}
	return seen
}

// nextField is NextKey for an object described by fields: it reads the
// next member's key and the colon after it and returns the index of the
// property the key names, unknownKey for none (the key is in d.name), or
// endObject after the object's end. Properties usually come in the table's
// order, some left out: the raw key is compared with the names of
// fields[next] and fields[next+1] before it is read in full and looked
// up. (A table's names are plain — letters, digits, '_' and '-', as a spec
// writes them — so a key equal to one, byte for byte, has no escapes.)
func (d *Decoder) nextField(fields []Field, next int) int {
	data := d.data
	if i := skipWS(data, d.pos); i < len(data) && !d.stopped {
		c := data[i]
		if c == '}' {
			d.pos = i
			d.leave()
			return endObject
		}
		if !d.fresh {
			if c != ',' {
				goto general // a syntax error
			}
			if i = skipWS(data, i+1); i >= len(data) {
				goto general
			}
			c = data[i]
		}
		if c == '"' {
			q := i + 1
			for k := next; k < next+2 && k < len(fields); k++ {
				name := fields[k].Name
				e := q + len(name)
				if e+1 < len(data) && data[e] == '"' && data[e+1] == ':' && string(data[q:e]) == name {
					d.fresh = false
					d.pos = e + 2 // (d.name is not set: the key is the name)
					return k
				}
			}
		}
	}
general:
	if !d.NextKey() {
		return endObject
	}
	if i := lookup(fields, d.name, next); i >= 0 {
		return i
	}
	return unknownKey
}

// What nextField returns for a key that names no property, and after the
// object's end.
const (
	unknownKey = -1
	endObject  = -2
)

// lookup is the index of the property name in fields, trying from first
// on, or -1.
func lookup(fields []Field, name []byte, first int) int {
	for i := first; i < len(fields); i++ {
		if fields[i].Name == string(name) {
			return i
		}
	}
	for i := 0; i < first && i < len(fields); i++ {
		if fields[i].Name == string(name) {
			return i
		}
	}
	return -1
}

// unknownField is Unknown with the table's property names, which it lists
// only while there is room for the violation (past the cap, a flood of
// unknown keys costs no allocation each).
func (d *Decoder) unknownField(fields []Field) {
	if d.full() {
		d.skip(MaxDepth)
		return
	}
	var buf [16]string
	names := buf[:0]
	for i := range fields {
		names = append(names, fields[i].Name)
	}
	d.Unknown(names...)
}

// Object checks the struct described by fields whose fields are at ptrs
// (in the table's order), for values built in Go, as a generated validate
// method does. (Not inlined: each generated validate method would carry a
// copy of the loop.)
//
//go:noinline
func (c *Checker) Object(fields []Field, ptrs ...any) {
	for i := range fields {
		f := &fields[i]
		f.Value.check(c, f.Name, f.Required && !f.Nullable, ptrs[i])
	}
}

// checkValue checks v at the property name with check (nil for none).
func checkValue[T any](c *Checker, name string, v T, check func(*Checker, T)) {
	if check != nil {
		c.Enter(name)
		check(c, v)
		c.Leave()
	}
}

// String is the Value of a string property, held as a string or *string,
// with its check (nil for none).
type String struct{ Check func(*Checker, string) }

func (s String) read(d *Decoder, p any) {
	switch p := p.(type) {
	case *string:
		d.readStringTo(p, s.Check)
	case **string:
		if v, ok := d.String(); ok {
			if s.Check != nil {
				s.Check(&d.Checker, v)
			}
			*p = &v
		}
	}
}

func (s String) check(c *Checker, name string, _ bool, p any) {
	switch p := p.(type) {
	case *string:
		checkValue(c, name, *p, s.Check)
	case **string:
		if *p != nil {
			checkValue(c, name, **p, s.Check)
		}
	}
}

// Int is the Value of an integer property, held as an int64 or *int64,
// with its rules (nil for none).
type Int struct{ Rules *NumberRules }

func (n Int) read(d *Decoder, p any) {
	switch p := p.(type) {
	case *int64:
		d.readIntTo(p, n.Rules)
	case **int64:
		if v, ok := d.Int(); ok {
			if n.Rules != nil {
				n.Rules.CheckInt(&d.Checker, v)
			}
			*p = &v
		}
	}
}

func (n Int) check(c *Checker, name string, _ bool, p any) {
	if n.Rules == nil {
		return
	}
	switch p := p.(type) {
	case *int64:
		checkValue(c, name, *p, n.Rules.CheckInt)
	case **int64:
		if *p != nil {
			checkValue(c, name, **p, n.Rules.CheckInt)
		}
	}
}

// Float is the Value of a number property, held as a float64 or
// *float64, with its rules (nil for none), checked on the number's JSON
// text when decoding.
type Float struct{ Rules *NumberRules }

func (n Float) read(d *Decoder, p any) {
	switch p := p.(type) {
	case *float64:
		d.readFloatTo(p, n.Rules)
	case **float64:
		if v, tok, ok := d.Number(); ok {
			if n.Rules != nil {
				n.Rules.CheckFloat(&d.Checker, v, tok)
			}
			*p = &v
		}
	}
}

func (n Float) check(c *Checker, name string, _ bool, p any) {
	if n.Rules == nil {
		return
	}
	var v *float64
	switch p := p.(type) {
	case *float64:
		v = p
	case **float64:
		v = *p
	}
	if v != nil {
		c.Enter(name)
		n.Rules.CheckFloat(c, *v, nil)
		c.Leave()
	}
}

// Bool is the Value of a boolean property, held as a bool or *bool, with
// its check (nil for none).
type Bool struct{ Check func(*Checker, bool) }

func (b Bool) read(d *Decoder, p any) {
	switch p := p.(type) {
	case *bool:
		d.readBoolTo(p, b.Check)
	case **bool:
		if v, ok := d.Bool(); ok {
			if b.Check != nil {
				b.Check(&d.Checker, v)
			}
			*p = &v
		}
	}
}

func (b Bool) check(c *Checker, name string, _ bool, p any) {
	switch p := p.(type) {
	case *bool:
		checkValue(c, name, *p, b.Check)
	case **bool:
		if *p != nil {
			checkValue(c, name, **p, b.Check)
		}
	}
}

// DateTime is the Value of an RFC 3339 date-time property, held as a
// time.Time or *time.Time.
type DateTime struct{}

func (DateTime) read(d *Decoder, p any) {
	switch p := p.(type) {
	case *time.Time:
		if v, ok := d.readDateTime(); ok {
			*p = v
		}
	case **time.Time:
		if v, ok := d.readDateTime(); ok {
			*p = &v
		}
	}
}

func (DateTime) check(*Checker, string, bool, any) {} // a time.Time is always one

// Enum is the Value of an enum property of type E, held as an E or *E: Of
// converts the string (without allocating for the known values), Check
// reports a value that is not one of them.
type Enum[E ~string] struct {
	Of    func([]byte) E
	Check func(*Checker, E)
}

func (e Enum[E]) read(d *Decoder, p any) {
	switch p := p.(type) {
	case *E:
		readEnum(d, p, e.Of, e.Check)
	case **E:
		if b, ok := d.Bytes(); ok {
			v := e.Of(b)
			e.Check(&d.Checker, v)
			*p = &v
		}
	}
}

func (e Enum[E]) check(c *Checker, name string, _ bool, p any) {
	switch p := p.(type) {
	case *E:
		checkValue(c, name, *p, e.Check)
	case **E:
		if *p != nil {
			checkValue(c, name, **p, e.Check)
		}
	}
}

// Object is the Value of an object property of the generated struct T,
// held as a T or *T, read and checked with its generated methods as
// method expressions ((*Address).decode, (*Address).validate).
type Object[T any] struct {
	Decode   func(*T, *Decoder)
	Validate func(*T, *Checker)
}

func (o Object[T]) read(d *Decoder, p any) {
	switch p := p.(type) {
	case *T:
		o.Decode(p, d)
	case **T:
		*p = new(T)
		o.Decode(*p, d)
	}
}

func (o Object[T]) check(c *Checker, name string, _ bool, p any) {
	var v *T
	switch p := p.(type) {
	case *T:
		v = p
	case **T:
		v = *p
	}
	if v != nil {
		c.Enter(name)
		o.Validate(v, c)
		c.Leave()
	}
}

// Strings is the Value of an array of strings, held as a []string (nil is
// absent): Item checks each item at its index and Check the array (both
// nil for none); past Max items (maxItems, or NoMaxItems) the rest is
// counted and skipped.
type Strings struct {
	Max   int
	Item  func(*Checker, string)
	Check func(*Checker, []string)
}

func (s Strings) read(d *Decoder, p any) {
	d.readStrings(p.(*[]string), s.Max, s.Item, s.Check)
}

func (s Strings) check(c *Checker, name string, required bool, p any) {
	checkSlice(c, name, required, *p.(*[]string), s.Check, s.Item)
}

// checkSlice is CheckSlice, with a nil required array missing.
func checkSlice[T any](c *Checker, name string, required bool, v []T, check func(*Checker, []T), item func(*Checker, T)) {
	if v == nil {
		if required {
			c.Missing(name)
		}
		return
	}
	if check == nil && item == nil {
		return
	}
	CheckSlice(c, name, v, check, item)
}

// Enums is the Value of an array of enums of type E, held as a []E: Of
// converts each item, Item checks it (see Strings).
type Enums[E ~string] struct {
	Max   int
	Of    func([]byte) E
	Item  func(*Checker, E)
	Check func(*Checker, []E)
}

func (e Enums[E]) read(d *Decoder, p any) {
	readEnums(d, p.(*[]E), e.Max, e.Of, e.Item, e.Check)
}

func (e Enums[E]) check(c *Checker, name string, required bool, p any) {
	checkSlice(c, name, required, *p.(*[]E), e.Check, e.Item)
}

// Objects is the Value of an array of objects of the generated struct T,
// held as a []T, each item read and checked with T's generated methods
// (see Object and Strings).
type Objects[T any] struct {
	Max      int
	Decode   func(*T, *Decoder)
	Validate func(*T, *Checker)
	Check    func(*Checker, []T)
}

func (o Objects[T]) read(d *Decoder, p any) {
	readObjects(d, p.(*[]T), o.Max, o.Decode, o.Check)
}

func (o Objects[T]) check(c *Checker, name string, required bool, p any) {
	v := *p.(*[]T)
	if v == nil {
		if required {
			c.Missing(name)
		}
		return
	}
	CheckObjects(c, name, v, o.Check, o.Validate)
}

// StringMap is the Value of an object of free keys with string values,
// held as a map[string]string (nil is absent), each value checked with
// Check (nil for none) at its key.
type StringMap struct{ Check func(*Checker, string) }

func (s StringMap) read(d *Decoder, p any) {
	if !d.BeginObject() {
		return
	}
	m := map[string]string{}
	for d.NextKey() {
		// Past the violation cap the call fails anyway: build no more.
		if d.Full() {
			d.Skip()
			continue
		}
		k := d.str(d.name)
		if _, dup := m[k]; dup {
			d.Duplicate()
			continue
		}
		d.Enter(k)
		var e string
		if v, ok := d.String(); ok {
			if s.Check != nil {
				s.Check(&d.Checker, v)
			}
			e = v
		}
		m[k] = e
		d.Leave()
	}
	*p.(*map[string]string) = m
}

func (s StringMap) check(c *Checker, name string, required bool, p any) {
	v := *p.(*map[string]string)
	if v == nil {
		if required {
			c.Missing(name)
		}
		return
	}
	if s.Check == nil {
		return
	}
	c.Enter(name)
	for _, k := range slices.Sorted(maps.Keys(v)) {
		c.Enter(k)
		s.Check(c, v[k])
		c.Leave()
	}
	c.Leave()
}

// DecodeObject decodes data in mode, with a pooled Decoder, into the
// fields at ptrs of a struct described by fields (d.Object): it returns the
// properties the object had, for the caller's defaults, and every violation
// in a *runtime.ValidationError (nil if none). It is the body of a tool's
// decode function when its argument struct is a table.
func DecodeObject(data []byte, mode runtime.DecodeMode, fields []Field, ptrs ...any) (Seen, error) {
	d := Start(data, mode)
	seen := d.Object(fields, ptrs...)
	return seen, d.Done()
}

// ValidateObject checks the struct described by fields whose fields are at
// ptrs, for values built in Go (c.Object in a Checker of its own): every
// violation in a *runtime.ValidationError, or nil. It is the body of a
// tabled struct's Validate.
func ValidateObject(fields []Field, ptrs ...any) error {
	var c Checker
	c.Object(fields, ptrs...)
	return c.Err()
}
