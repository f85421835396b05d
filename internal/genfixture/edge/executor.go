// Package edge is a second generated fixture: every shape the generator
// supports (defaults of every kind, nullable items and values, named
// scalar, array and time types, nested arrays, typed additional
// properties, aliased and non-object results), compiled and run by the
// tests here.
package edge

//go:generate go run github.com/toolgen/toolgen/cmd/toolgen

import (
	"context"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// Tools implements Executor.
type Tools struct{}

var _ Executor = Tools{}

// All returns the origin point.
func (Tools) All(ctx context.Context, call *runtime.Call, args *AllArgs) (*AllResult, error) {
	return &args.Origin, nil
}

// Time returns a fixed time.
func (Tools) Time(ctx context.Context, call *runtime.Call, args *TimeArgs) (*TimeResult, error) {
	t := time.Date(2024, 1, 31, 9, 30, 0, 0, time.UTC)
	return &t, nil
}

// Trim echoes its (trimmed) arguments as JSON.
func (Tools) Trim(ctx context.Context, call *runtime.Call, args *TrimArgs) (runtime.Result, error) {
	return runtime.JSON(args)
}
