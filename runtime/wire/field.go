package wire

import (
	"maps"
	"slices"

	"github.com/toolgen/toolgen/runtime"
)

// Field starts reading the value of the property name, for a generated
// decoder's member loop: a second occurrence of the property (*seen already
// set) is recorded as a duplicate and skipped, and Field returns false;
// otherwise it sets *seen, steps into name (Enter) and returns true, and
// the caller reads the value and calls Leave. One call stands for the
// same few lines in every case of every generated decoder.
func (d *Decoder) Field(seen *bool, name string) bool {
	if *seen {
		d.Duplicate()
		return false
	}
	*seen = true
	d.Enter(name)
	return true
}

// OptionalField is Field for an optional property that does not take null:
// it steps in with EnterOptional (a null there is reported with a hint to
// leave it out), and in mode runtime.NullAsAbsent a null there is consumed
// and read as if the property were absent (false, *seen left as it was).
func (d *Decoder) OptionalField(seen *bool, name string) bool {
	if d.AbsentNull() {
		return false
	}
	if *seen {
		d.Duplicate()
		return false
	}
	*seen = true
	d.EnterOptional(name)
	return true
}

// Validate runs a generated validate method, as a method expression
// ((*ListArgs).validate), on x (a pointer to a generated struct): every
// violation, each with its JSON path, in a *runtime.ValidationError, or nil.
// A nil x is one violation at "$". It is the body of each generated
// Validate method.
func Validate[P any](x P, validate func(x P, c *Checker)) error {
	var zero P
	if any(x) == any(zero) { // P is a pointer: zero is nil
		return NilObject()
	}
	var c Checker
	validate(x, &c)
	return c.Err()
}

// NilObject is what Validate reports for a nil pointer to a generated
// struct: one violation at "$". Generated Validate methods return it.
func NilObject() error {
	return &runtime.ValidationError{Violations: []runtime.Violation{{Path: "$", Message: "expected object, got nil"}}}
}

// CheckAt runs check on the value v of the property name: its violations
// are recorded in c at that property's path. Generated validate methods
// check each property with constraints of its own with it.
func CheckAt[T any](c *Checker, name string, v T, check func(c *Checker, v T)) {
	c.Enter(name)
	check(c, v)
	c.Leave()
}

// CheckPtr is CheckAt for an optional property held as a pointer: nil
// (absent) has nothing to check.
func CheckPtr[T any](c *Checker, name string, v *T, check func(c *Checker, v T)) {
	if v != nil {
		CheckAt(c, name, *v, check)
	}
}

// CheckObject validates the object v (nil: absent, nothing to check) of the
// property name with a generated validate method, as a method expression
// ((*Address).validate), at that property's path.
func CheckObject[T any](c *Checker, name string, v *T, validate func(x *T, c *Checker)) {
	if v != nil {
		c.Enter(name)
		validate(v, c)
		c.Leave()
	}
}

// CheckSlice checks the array v (nil: absent) of the property name: check
// (nil for none) the array as a whole, item (nil for none) each item at its
// index.
func CheckSlice[S ~[]T, T any](c *Checker, name string, v S, check func(c *Checker, v []T), item func(c *Checker, v T)) {
	if v == nil {
		return
	}
	c.Enter(name)
	if check != nil {
		check(c, v)
	}
	if item != nil {
		for i := range v {
			c.EnterIndex(i)
			item(c, v[i])
			c.Leave()
		}
	}
	c.Leave()
}

// CheckObjects is CheckSlice for an array of objects, each validated with a
// generated validate method.
func CheckObjects[S ~[]T, T any](c *Checker, name string, v S, check func(c *Checker, v []T), validate func(x *T, c *Checker)) {
	if v == nil {
		return
	}
	c.Enter(name)
	if check != nil {
		check(c, v)
	}
	for i := range v {
		c.EnterIndex(i)
		validate(&v[i], c)
		c.Leave()
	}
	c.Leave()
}

// CheckMap checks each value of the object v (nil: absent) of the property
// name with check, at its key's path, in key order.
func CheckMap[M ~map[string]V, V any](c *Checker, name string, v M, check func(c *Checker, v V)) {
	if v == nil {
		return
	}
	c.Enter(name)
	for _, k := range slices.Sorted(maps.Keys(v)) {
		c.Enter(k)
		check(c, v[k])
		c.Leave()
	}
	c.Leave()
}

// CheckObjectMap is CheckMap for an object whose values are objects, each
// validated (a copy: map values are not addressable) with a generated
// validate method.
func CheckObjectMap[M ~map[string]V, V any](c *Checker, name string, v M, validate func(x *V, c *Checker)) {
	if v == nil {
		return
	}
	c.Enter(name)
	for _, k := range slices.Sorted(maps.Keys(v)) {
		c.Enter(k)
		e := v[k]
		validate(&e, c)
		c.Leave()
	}
	c.Leave()
}
