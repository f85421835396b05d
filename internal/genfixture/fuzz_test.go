package genfixture

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// FuzzDecodeCreateInvoiceArgs feeds the generated decoder arbitrary bytes:
// it must never panic, always return the (partial) value, return either nil
// or a *runtime.ValidationError, and accept nothing that is not valid JSON.
// Its label and Validate must not panic on the partial value either. The
// seed corpus is in testdata/fuzz/FuzzDecodeCreateInvoiceArgs.
func FuzzDecodeCreateInvoiceArgs(f *testing.F) {
	f.Add([]byte(minimal))
	f.Add([]byte(benchCall))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := DecodeCreateInvoiceArgs(data)
		if a == nil {
			t.Fatal("nil args")
		}
		if err != nil {
			var ve *runtime.ValidationError
			if !errors.As(err, &ve) || len(ve.Violations) == 0 {
				t.Fatalf("error %T %v", err, err)
			}
		} else {
			if !json.Valid(data) {
				t.Fatalf("accepted invalid JSON %q", data)
			}
			if verr := a.Validate(); verr != nil {
				t.Fatalf("decoded without error, but Validate says %v", verr)
			}
		}
		createInvoiceLabel(a)
		_ = a.Validate()
	})
}
