// Package unions is a generated fixture for the composition keywords of
// the spec format (const, allOf merged at load time), compiled and run by
// the tests here against an independent JSON Schema validator.
package unions

//go:generate go run github.com/toolgen/toolgen/cmd/toolgen

import (
	"context"

	"github.com/toolgen/toolgen/runtime"
)

// Tools implements Executor.
type Tools struct{}

var _ Executor = Tools{}

// Draw accepts every valid drawing.
func (Tools) Draw(ctx context.Context, call *runtime.Call, args *DrawArgs) (runtime.Result, error) {
	return runtime.Text("drawn"), nil
}

// Pay accepts every valid payment.
func (Tools) Pay(ctx context.Context, call *runtime.Call, args *PayArgs) (runtime.Result, error) {
	return runtime.Text("paid"), nil
}
