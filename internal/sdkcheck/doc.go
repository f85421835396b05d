// Package sdkcheck checks the catalogs toolgen's runtime encodes against the
// official SDKs' request types: each dialect's tools array, in every mode,
// decoded into the SDK's tool param type, encoded again by the SDK and
// compared with what toolgen sent, so that a field the SDK does not know,
// or a value it reads otherwise, fails.
//
// It is a module of its own so that the four SDKs stay out of toolgen's
// go.mod; `make test` runs its tests too.
package sdkcheck
