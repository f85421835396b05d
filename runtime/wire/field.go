package wire

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
