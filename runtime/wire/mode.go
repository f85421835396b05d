package wire

import "github.com/toolgen/toolgen/runtime"

// ResetMode prepares d to read data from the start in the given mode (see
// runtime.DecodeMode); Reset reads in the default mode.
func (d *Decoder) ResetMode(data []byte, mode runtime.DecodeMode) {
	d.Reset(data)
	d.mode = mode
}

// AbsentNull reports whether the value next is a null to be read as if
// its property were absent, and consumes it. That is so only in mode
// runtime.NullAsAbsent; generated decoders ask it first for each optional
// property that does not take null.
func (d *Decoder) AbsentNull() bool {
	return d.mode&runtime.NullAsAbsent != 0 && d.Null()
}
