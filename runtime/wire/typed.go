package wire

import (
	"context"
	"fmt"
	"sync"

	"github.com/toolgen/toolgen/runtime"
)

// The adapters of generated tools. Their type parameter P is the pointer
// type of a generated argument struct (*ListArgs), never a struct: all
// pointer types share one instantiation of a generic function, so a
// package of a thousand tools compiles each adapter once, not once per
// argument type; and the adapters that return a closure are not inlined,
// which would compile one closure per call site. (runtime.TypedDecode and
// TypedExecute are the general ones, over *T.)

// DecodeWith adapts a generated decode method, as a method expression
// ((*ListArgs).decode), to runtime.Tool.DecodeWith: it reads data in mode
// into a new value from newArgs (wire.New[ListArgs]) and returns it, as far
// as it was read, with every violation in a *runtime.ValidationError.
//
//go:noinline
func DecodeWith[P any](newArgs func() P, decode func(x P, d *Decoder)) func(data []byte, mode runtime.DecodeMode) (any, error) {
	return func(data []byte, mode runtime.DecodeMode) (any, error) {
		d := getDecoder()
		defer putDecoder(d)
		d.ResetMode(data, mode)
		x := newArgs()
		decode(x, d)
		return x, d.Finish()
	}
}

// New returns a new zero T: the constructor DecodeWith takes.
func New[T any]() *T { return new(T) }

// Decode decodes and validates data into x in one pass with a generated
// decode method, as a method expression ((*ListArgs).decode), and returns x,
// as far as it was read, with every violation in a *runtime.ValidationError.
// It is the body of each generated Decode<Tool>Args function:
// wire.Decode(data, new(ListArgs), (*ListArgs).decode).
func Decode[P any](data []byte, x P, decode func(x P, d *Decoder)) (P, error) {
	d := getDecoder()
	defer putDecoder(d)
	d.Reset(data)
	decode(x, d)
	return x, d.Finish()
}

// DecodeArgs adapts a generated Decode<Tool>Args function to
// runtime.Tool.Decode (runtime.TypedDecode for pointer types).
//
//go:noinline
func DecodeArgs[P any](decode func(data []byte) (P, error)) func(data []byte) (any, error) {
	return func(data []byte) (any, error) {
		return decode(data)
	}
}

// Execute adapts an executor method over P to runtime.Tool.Execute
// (runtime.TypedExecute for pointer types): arguments of another type, or a
// nil P, are an error, never a panic.
//
//go:noinline
func Execute[P any](f func(ctx context.Context, call *runtime.Call, args P) (runtime.Result, error)) func(context.Context, *runtime.Call, any) (runtime.Result, error) {
	return func(ctx context.Context, call *runtime.Call, args any) (runtime.Result, error) {
		var zero P
		a, ok := args.(P)
		if !ok || any(a) == any(zero) { // P is a pointer: zero is nil
			return runtime.Result{}, fmt.Errorf("internal error: arguments are %T, want %T", args, zero)
		}
		return f(ctx, call, a)
	}
}

// ExecuteJSON is Execute for an executor method with a typed result R,
// encoded as JSON (runtime.TypedExecuteJSON for pointer types).
//
//go:noinline
func ExecuteJSON[P, R any](f func(ctx context.Context, call *runtime.Call, args P) (R, error)) func(context.Context, *runtime.Call, any) (runtime.Result, error) {
	return Execute(func(ctx context.Context, call *runtime.Call, args P) (runtime.Result, error) {
		res, err := f(ctx, call, args)
		if err != nil {
			return runtime.Result{}, err
		}
		return runtime.JSON(res)
	})
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
