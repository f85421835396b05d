package wire

import (
	"sync"

	"github.com/toolgen/toolgen/runtime"
)

// DecodeWith adapts a generated decode method, as a method expression
// ((*ListArgs).decode), to runtime.Tool.DecodeWith: it reads data in mode
// into a new T and returns it, as far as it was read, with every violation
// in a *runtime.ValidationError. Generated modules use it so that each tool
// does not carry its own copy of this body.
func DecodeWith[T any](decode func(x *T, d *Decoder)) func(data []byte, mode runtime.DecodeMode) (any, error) {
	return func(data []byte, mode runtime.DecodeMode) (any, error) {
		d := getDecoder()
		defer putDecoder(d)
		d.ResetMode(data, mode)
		x := new(T)
		decode(x, d)
		return x, d.Finish()
	}
}

// Decode decodes and validates data in one pass with a generated decode
// method, as a method expression ((*ListArgs).decode): a new T, as far as
// it was read, with every violation in a *runtime.ValidationError. It is
// the body of each generated Decode<Tool>Args function.
func Decode[T any](data []byte, decode func(x *T, d *Decoder)) (*T, error) {
	d := getDecoder()
	defer putDecoder(d)
	d.Reset(data)
	x := new(T)
	decode(x, d)
	return x, d.Finish()
}

// decoders keeps Decoders for Decode and DecodeWith: a decode method called
// through a function value makes its Decoder escape, and a pooled one saves
// allocating it (and its grown buffers) on every call.
var decoders = sync.Pool{New: func() any { return new(Decoder) }}

func getDecoder() *Decoder { return decoders.Get().(*Decoder) }

// maxPooledScratch is the largest unescaping buffer a pooled Decoder keeps.
const maxPooledScratch = 64 << 10

// putDecoder returns d to the pool, holding on to nothing of its input or
// results (Finish hands out the violations; Reset starts a new slice).
func putDecoder(d *Decoder) {
	d.Reset(nil)
	d.data, d.name = nil, nil
	d.Checker.vs = nil
	if cap(d.scratch) > maxPooledScratch {
		d.scratch = nil
	}
	if cap(d.Checker.more) > inlineSegs {
		d.Checker.more = nil
	}
	decoders.Put(d)
}
