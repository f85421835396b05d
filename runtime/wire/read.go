package wire

import "time"

// One-line field reads: a generated decoder's member loop reads each
// property of the common kinds with one call, which stands for the block
//
//	case "title":
//		if d.Field(&hasTitle, "title") {
//			if v, ok := d.String(); ok {
//				checkAddTitle(&d.Checker, v)
//				x.Title = v
//			}
//			d.Leave()
//		}
//
// as d.ReqString(&hasTitle, "title", &x.Title, checkAddTitle). The prefix
// says how the property is entered: Req with Field (a required property, held
// as a value), Opt with OptionalField (an optional one with a default, held as
// a value), OptPtr with OptionalField into a pointer (an optional one without
// a default: nil is absent). The value is stored only when it was read; its
// check (nil for none) runs on it before it is stored, at the property's
// path. Nullable and trimmed properties and named scalar types keep the
// long form.

// ReqString reads the required string property name into *dst.
func (d *Decoder) ReqString(seen *bool, name string, dst *string, check func(*Checker, string)) {
	if d.Field(seen, name) {
		d.readStringTo(dst, check)
		d.Leave()
	}
}

// OptString reads the optional string property name into *dst.
func (d *Decoder) OptString(seen *bool, name string, dst *string, check func(*Checker, string)) {
	if d.OptionalField(seen, name) {
		d.readStringTo(dst, check)
		d.Leave()
	}
}

// OptStringPtr reads the optional string property name into a new *dst.
func (d *Decoder) OptStringPtr(seen *bool, name string, dst **string, check func(*Checker, string)) {
	if d.OptionalField(seen, name) {
		if v, ok := d.String(); ok {
			if check != nil {
				check(&d.Checker, v)
			}
			*dst = &v
		}
		d.Leave()
	}
}

func (d *Decoder) readStringTo(dst *string, check func(*Checker, string)) {
	if v, ok := d.String(); ok {
		if check != nil {
			check(&d.Checker, v)
		}
		*dst = v
	}
}

// ReqInt reads the required integer property name into *dst, checked with
// rules (nil for none).
func (d *Decoder) ReqInt(seen *bool, name string, dst *int64, rules *NumberRules) {
	if d.Field(seen, name) {
		d.readIntTo(dst, rules)
		d.Leave()
	}
}

// OptInt reads the optional integer property name into *dst.
func (d *Decoder) OptInt(seen *bool, name string, dst *int64, rules *NumberRules) {
	if d.OptionalField(seen, name) {
		d.readIntTo(dst, rules)
		d.Leave()
	}
}

// OptIntPtr reads the optional integer property name into a new *dst.
func (d *Decoder) OptIntPtr(seen *bool, name string, dst **int64, rules *NumberRules) {
	if d.OptionalField(seen, name) {
		if v, ok := d.Int(); ok {
			if rules != nil {
				rules.CheckInt(&d.Checker, v)
			}
			*dst = &v
		}
		d.Leave()
	}
}

func (d *Decoder) readIntTo(dst *int64, rules *NumberRules) {
	if v, ok := d.Int(); ok {
		if rules != nil {
			rules.CheckInt(&d.Checker, v)
		}
		*dst = v
	}
}

// ReqFloat reads the required number property name into *dst, checked
// exactly (on its JSON text) with rules (nil for none).
func (d *Decoder) ReqFloat(seen *bool, name string, dst *float64, rules *NumberRules) {
	if d.Field(seen, name) {
		d.readFloatTo(dst, rules)
		d.Leave()
	}
}

// OptFloat reads the optional number property name into *dst.
func (d *Decoder) OptFloat(seen *bool, name string, dst *float64, rules *NumberRules) {
	if d.OptionalField(seen, name) {
		d.readFloatTo(dst, rules)
		d.Leave()
	}
}

// OptFloatPtr reads the optional number property name into a new *dst.
func (d *Decoder) OptFloatPtr(seen *bool, name string, dst **float64, rules *NumberRules) {
	if d.OptionalField(seen, name) {
		if v, tok, ok := d.Number(); ok {
			if rules != nil {
				rules.CheckFloat(&d.Checker, v, tok)
			}
			*dst = &v
		}
		d.Leave()
	}
}

func (d *Decoder) readFloatTo(dst *float64, rules *NumberRules) {
	if v, tok, ok := d.Number(); ok {
		if rules != nil {
			rules.CheckFloat(&d.Checker, v, tok)
		}
		*dst = v
	}
}

// ReqBool reads the required boolean property name into *dst.
func (d *Decoder) ReqBool(seen *bool, name string, dst *bool, check func(*Checker, bool)) {
	if d.Field(seen, name) {
		d.readBoolTo(dst, check)
		d.Leave()
	}
}

// OptBool reads the optional boolean property name into *dst.
func (d *Decoder) OptBool(seen *bool, name string, dst *bool, check func(*Checker, bool)) {
	if d.OptionalField(seen, name) {
		d.readBoolTo(dst, check)
		d.Leave()
	}
}

// OptBoolPtr reads the optional boolean property name into a new *dst.
func (d *Decoder) OptBoolPtr(seen *bool, name string, dst **bool, check func(*Checker, bool)) {
	if d.OptionalField(seen, name) {
		if v, ok := d.Bool(); ok {
			if check != nil {
				check(&d.Checker, v)
			}
			*dst = &v
		}
		d.Leave()
	}
}

func (d *Decoder) readBoolTo(dst *bool, check func(*Checker, bool)) {
	if v, ok := d.Bool(); ok {
		if check != nil {
			check(&d.Checker, v)
		}
		*dst = v
	}
}

// ReqDateTime reads the required RFC 3339 date-time property name into
// *dst; a string that is not one is a violation.
func (d *Decoder) ReqDateTime(seen *bool, name string, dst *time.Time) {
	if d.Field(seen, name) {
		if v, ok := d.readDateTime(); ok {
			*dst = v
		}
		d.Leave()
	}
}

// OptDateTime reads the optional date-time property name into *dst.
func (d *Decoder) OptDateTime(seen *bool, name string, dst *time.Time) {
	if d.OptionalField(seen, name) {
		if v, ok := d.readDateTime(); ok {
			*dst = v
		}
		d.Leave()
	}
}

// OptDateTimePtr reads the optional date-time property name into a new
// *dst.
func (d *Decoder) OptDateTimePtr(seen *bool, name string, dst **time.Time) {
	if d.OptionalField(seen, name) {
		if v, ok := d.readDateTime(); ok {
			*dst = &v
		}
		d.Leave()
	}
}

// readDateTime reads a string that is an RFC 3339 date-time.
func (d *Decoder) readDateTime() (time.Time, bool) {
	b, ok := d.Bytes()
	if !ok {
		return time.Time{}, false
	}
	v, ok := ParseDateTime(b)
	if !ok {
		d.Add(FormatMessage("date-time") + ", got " + Quote(string(b)))
	}
	return v, ok
}

// ReqEnum reads the required enum property name into *dst: of converts the
// string (without allocating for the known values), check reports a value
// that is not one of them.
func ReqEnum[T ~string](d *Decoder, seen *bool, name string, dst *T, of func([]byte) T, check func(*Checker, T)) {
	if d.Field(seen, name) {
		readEnum(d, dst, of, check)
		d.Leave()
	}
}

// OptEnum reads the optional enum property name into *dst.
func OptEnum[T ~string](d *Decoder, seen *bool, name string, dst *T, of func([]byte) T, check func(*Checker, T)) {
	if d.OptionalField(seen, name) {
		readEnum(d, dst, of, check)
		d.Leave()
	}
}

// OptEnumPtr reads the optional enum property name into a new *dst.
func OptEnumPtr[T ~string](d *Decoder, seen *bool, name string, dst **T, of func([]byte) T, check func(*Checker, T)) {
	if d.OptionalField(seen, name) {
		if b, ok := d.Bytes(); ok {
			v := of(b)
			check(&d.Checker, v)
			*dst = &v
		}
		d.Leave()
	}
}

func readEnum[T ~string](d *Decoder, dst *T, of func([]byte) T, check func(*Checker, T)) {
	if b, ok := d.Bytes(); ok {
		v := of(b)
		check(&d.Checker, v)
		*dst = v
	}
}

// ReqObject reads the required object property name into *dst with a
// generated decode method, as a method expression ((*Address).decode).
func ReqObject[T any](d *Decoder, seen *bool, name string, dst *T, decode func(*T, *Decoder)) {
	if d.Field(seen, name) {
		decode(dst, d)
		d.Leave()
	}
}

// OptObject reads the optional object property name into *dst.
func OptObject[T any](d *Decoder, seen *bool, name string, dst *T, decode func(*T, *Decoder)) {
	if d.OptionalField(seen, name) {
		decode(dst, d)
		d.Leave()
	}
}

// OptObjectPtr reads the optional object property name into a new *dst.
func OptObjectPtr[T any](d *Decoder, seen *bool, name string, dst **T, decode func(*T, *Decoder)) {
	if d.OptionalField(seen, name) {
		*dst = new(T)
		decode(*dst, d)
		d.Leave()
	}
}

// NoMaxItems is the max of an array read (ReqStrings, OptObjects …) whose
// schema has no maxItems.
const NoMaxItems = -1

// ReqStrings reads the required array-of-strings property name into *dst
// (an empty array as an empty slice): item checks each item at its index,
// check (both nil for none) the array; past max items (maxItems, or
// NoMaxItems) the rest is counted and skipped.
func (d *Decoder) ReqStrings(seen *bool, name string, dst *[]string, max int, item func(*Checker, string), check func(*Checker, []string)) {
	if d.Field(seen, name) {
		d.readStrings(dst, max, item, check)
		d.Leave()
	}
}

// OptStrings reads the optional array-of-strings property name into *dst
// (nil is absent).
func (d *Decoder) OptStrings(seen *bool, name string, dst *[]string, max int, item func(*Checker, string), check func(*Checker, []string)) {
	if d.OptionalField(seen, name) {
		d.readStrings(dst, max, item, check)
		d.Leave()
	}
}

func (d *Decoder) readStrings(dst *[]string, max int, item func(*Checker, string), check func(*Checker, []string)) {
	if !d.BeginArray() {
		return
	}
	s := make([]string, 0, d.ItemsHint(max))
	for i := 0; d.nextItem(i, max); i++ {
		d.EnterIndex(i)
		s = append(s, "")
		if v, ok := d.String(); ok {
			if item != nil {
				item(&d.Checker, v)
			}
			s[i] = v
		}
		d.Leave()
	}
	*dst = s
	if check != nil {
		check(&d.Checker, s)
	}
}

// nextItem is NextItemWithin, or NextItem for NoMaxItems.
func (d *Decoder) nextItem(i, max int) bool {
	if max < 0 {
		return d.NextItem()
	}
	return d.NextItemWithin(i, max)
}

// ReqEnums reads the required array-of-enums property name into *dst, each
// item converted by of and checked by item.
func ReqEnums[T ~string](d *Decoder, seen *bool, name string, dst *[]T, max int, of func([]byte) T, item func(*Checker, T), check func(*Checker, []T)) {
	if d.Field(seen, name) {
		readEnums(d, dst, max, of, item, check)
		d.Leave()
	}
}

// OptEnums reads the optional array-of-enums property name into *dst.
func OptEnums[T ~string](d *Decoder, seen *bool, name string, dst *[]T, max int, of func([]byte) T, item func(*Checker, T), check func(*Checker, []T)) {
	if d.OptionalField(seen, name) {
		readEnums(d, dst, max, of, item, check)
		d.Leave()
	}
}

func readEnums[T ~string](d *Decoder, dst *[]T, max int, of func([]byte) T, item func(*Checker, T), check func(*Checker, []T)) {
	if !d.BeginArray() {
		return
	}
	s := make([]T, 0, d.ItemsHint(max))
	for i := 0; d.nextItem(i, max); i++ {
		d.EnterIndex(i)
		s = append(s, "")
		if b, ok := d.Bytes(); ok {
			v := of(b)
			item(&d.Checker, v)
			s[i] = v
		}
		d.Leave()
	}
	*dst = s
	if check != nil {
		check(&d.Checker, s)
	}
}

// ReqObjects reads the required array-of-objects property name into *dst,
// each item with a generated decode method ((*Item).decode).
func ReqObjects[T any](d *Decoder, seen *bool, name string, dst *[]T, max int, decode func(*T, *Decoder), check func(*Checker, []T)) {
	if d.Field(seen, name) {
		readObjects(d, dst, max, decode, check)
		d.Leave()
	}
}

// OptObjects reads the optional array-of-objects property name into *dst.
func OptObjects[T any](d *Decoder, seen *bool, name string, dst *[]T, max int, decode func(*T, *Decoder), check func(*Checker, []T)) {
	if d.OptionalField(seen, name) {
		readObjects(d, dst, max, decode, check)
		d.Leave()
	}
}

func readObjects[T any](d *Decoder, dst *[]T, max int, decode func(*T, *Decoder), check func(*Checker, []T)) {
	if !d.BeginArray() {
		return
	}
	var zero T
	s := make([]T, 0, d.ItemsHint(max))
	for i := 0; d.nextItem(i, max); i++ {
		d.EnterIndex(i)
		if len(s) < cap(s) {
			s = s[:i+1] // zero already: make and append clear what they add
		} else {
			s = append(s, zero)
		}
		decode(&s[i], d)
		d.Leave()
	}
	*dst = s
	if check != nil {
		check(&d.Checker, s)
	}
}
