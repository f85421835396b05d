package wire

import "github.com/toolgen/toolgen/runtime"

// DecodeWith adapts a generated decode method, as a method expression
// ((*ListArgs).decode), to runtime.Tool.DecodeWith: it reads data in mode
// into a new T and returns it, as far as it was read, with every violation
// in a *runtime.ValidationError. Generated modules use it so that each tool
// does not carry its own copy of this body.
func DecodeWith[T any](decode func(x *T, d *Decoder)) func(data []byte, mode runtime.DecodeMode) (any, error) {
	return func(data []byte, mode runtime.DecodeMode) (any, error) {
		var d Decoder
		d.ResetMode(data, mode)
		x := new(T)
		decode(x, &d)
		return x, d.Finish()
	}
}
