package runtime

import (
	"errors"
	"strings"
	"testing"
)

// TestNormalizeArgumentsJSONWhiteSpace: only JSON white space around empty
// or null arguments means {} (issue 7 §6); other white space leaves the
// arguments malformed.
func TestNormalizeArgumentsJSONWhiteSpace(t *testing.T) {
	for in, want := range map[string]string{
		"": "{}", " \t\r\n": "{}", "null": "{}", " null\n": "{}",
		"\v": "\v", "\f": "\f", "\u00a0": "\u00a0", "\u2028null": "\u2028null", "null\v": "null\v",
		`{"a":1}`: `{"a":1}`,
	} {
		if got := string(normalizeArguments([]byte(in))); got != want {
			t.Errorf("normalizeArguments(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBatchDuplicateItems: the batch decoder rejects two "items" keys, as
// generated decoders reject duplicate keys (issue 7 §6).
func TestBatchDuplicateItems(t *testing.T) {
	bt := mustParallelize(t, newItemTool(squareExec), ParallelizeOptions{})
	_, err := bt.Decode([]byte(`{"items":[{"n":1}],"items":[{"n":2}]}`))
	var ve *ValidationError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), `duplicate property "items"`) {
		t.Fatalf("err = %v", err)
	}
}
