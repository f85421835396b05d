package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// DecodeJSON returns a Tool.Decode for hand-written tools whose arguments
// are the Go type T: strict encoding/json decoding into a *T (unknown
// fields, trailing data and type mismatches are violations, located as
// precisely as encoding/json allows), then validate, if not nil, which
// reports every further violation. The decoded value is a *T; on error it
// is still returned, as far as it was decoded, for the status label.
func DecodeJSON[T any](validate func(*T) []Violation) func(data []byte) (any, error) {
	return func(data []byte) (any, error) {
		v := new(T)
		if err := decodeStrict(data, v); err != nil {
			return v, err
		}
		if validate != nil {
			if vs := validate(v); len(vs) > 0 {
				return v, &ValidationError{Violations: vs}
			}
		}
		return v, nil
	}
}

func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &ValidationError{Violations: []Violation{jsonViolation(err)}}
	}
	if _, err := dec.Token(); err != io.EOF {
		return &ValidationError{Violations: []Violation{{Path: "$", Message: "unexpected data after the argument object"}}}
	}
	return nil
}

// jsonViolation turns an encoding/json error into a located violation.
func jsonViolation(err error) Violation {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return Violation{Path: "$", Message: fmt.Sprintf("malformed JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(syn.Error(), "json: "))}
	case errors.As(err, &typ):
		path := "$"
		if typ.Field != "" {
			path += "." + typ.Field
		}
		return Violation{Path: path, Message: "must be " + jsonKindOf(typ.Type) + ", got " + typ.Value}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return Violation{Path: "$", Message: "malformed JSON: the arguments end too early"}
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if name, ok := strings.CutPrefix(msg, "unknown field "); ok {
		return Violation{Path: "$", Message: "unknown field " + name + " is not allowed"}
	}
	return Violation{Path: "$", Message: msg}
}

// jsonKindOf names the JSON type a Go type decodes from.
func jsonKindOf(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a " + t.String()
}

// TypedExecute adapts a function over *T to Tool.Execute, for tools whose
// Decode returns a *T (as DecodeJSON's does). Arguments of another type are
// reported as an error, never a panic.
func TypedExecute[T any](f func(ctx context.Context, call *Call, args *T) (Result, error)) func(context.Context, *Call, any) (Result, error) {
	return func(ctx context.Context, call *Call, args any) (Result, error) {
		a, ok := args.(*T)
		if !ok || a == nil {
			return Result{}, fmt.Errorf("internal error: arguments are %T, want %T", args, a)
		}
		return f(ctx, call, a)
	}
}

// TypedExecuteJSON is TypedExecute for a function with a typed result R:
// a result without error is encoded as JSON, as JSON does. Generated tools
// with a `result:` schema use it.
func TypedExecuteJSON[T, R any](f func(ctx context.Context, call *Call, args *T) (R, error)) func(context.Context, *Call, any) (Result, error) {
	return TypedExecute(func(ctx context.Context, call *Call, args *T) (Result, error) {
		res, err := f(ctx, call, args)
		if err != nil {
			return Result{}, err
		}
		return JSON(res)
	})
}

// TypedDecode adapts a decoder that returns a *T, such as a generated
// Decode<Tool>Args function, to Tool.Decode. The *T is returned even with
// an error, as the decoder returned it (for the status label).
func TypedDecode[T any](decode func(data []byte) (*T, error)) func(data []byte) (any, error) {
	return func(data []byte) (any, error) {
		return decode(data)
	}
}

// TypedLabel adapts a function over *T to Tool.Label. Label receives an
// *InvalidArgs when decoding failed; f is only called with a non-nil *T
// (the arguments decoded), and "" (the tool's name) is used otherwise.
func TypedLabel[T any](f func(args *T) string) func(any) string {
	return func(args any) string {
		if a, ok := args.(*T); ok && a != nil {
			return f(a)
		}
		return ""
	}
}
