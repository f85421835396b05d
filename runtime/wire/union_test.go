package wire

import (
	"strings"
	"testing"
)

func TestKind(t *testing.T) {
	for text, want := range map[string]Kind{`{}`: KindObject, ` [1]`: KindArray, `"x"`: KindString, `-1`: KindNumber,
		`7`: KindNumber, `true`: KindBool, `false`: KindBool, `null`: KindNull, `x`: KindNone, ``: KindNone} {
		var d Decoder
		d.Reset([]byte(text))
		if got := d.Kind(); got != want {
			t.Errorf("Kind(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestDiscriminator: the property is found wherever it is, escaped or
// not, and nothing is consumed or recorded.
func TestDiscriminator(t *testing.T) {
	tests := []struct {
		text, want string
		ok         bool
	}{
		{`{"kind":"card","n":1}`, "card", true},
		{`{"n":{"kind":"x","deep":[1,{"kind":"y"}]},"kind":"bank"}`, "bank", true},
		{`{"k\u0069nd":"c\"d"}`, `c"d`, true},
		{`{"n":1}`, "", false},
		{`{"kind":3}`, "", false},
		{`[{"kind":"card"}]`, "", false},
		{`{"n":[1,}`, "", false}, // malformed: the real read reports it
	}
	for _, tt := range tests {
		var d Decoder
		d.Reset([]byte(tt.text))
		v, ok := d.Discriminator("kind")
		if ok != tt.ok || string(v) != tt.want {
			t.Errorf("%s: got %q, %v; want %q, %v", tt.text, v, ok, tt.want, tt.ok)
		}
		if d.pos != 0 || d.Failed() || d.Stopped() || d.depth != 0 {
			t.Errorf("%s: the peek consumed or recorded something (pos %d, violations %v)", tt.text, d.pos, d.Violations())
		}
	}
}

func TestNoDiscriminator(t *testing.T) {
	tests := map[string]string{
		`{"kind":"cash"}`: `$.kind: must be one of "card" or "bank", got "cash" (it chooses the alternative)`,
		`{"n":1}`:         `$: missing required property "kind", which chooses the alternative: "card" or "bank"`,
		`{"kind":true}`:   `$.kind: expected string (one of "card" or "bank"), got boolean true (it chooses the alternative)`,
		`"card"`:          `$: expected Card or Bank, got string "card"`,
	}
	for text, want := range tests {
		var d Decoder
		d.Reset([]byte(text))
		d.NoDiscriminator("kind", []string{"card", "bank"}, "Card or Bank")
		err := d.Finish() // the value was skipped: nothing follows
		if err == nil || err.Error() != want && !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %s", text, err, want)
		}
	}
}

// TestTrial: a failed attempt's violations are taken back; oneOf reports
// two matches, anyOf stops at the first; none names each alternative.
func TestTrial(t *testing.T) {
	run := func(text string, oneOf bool, tries ...func(d *Decoder)) (int, error) {
		var d Decoder
		d.Reset([]byte(text))
		var tr Trial
		tr.Begin(&d, oneOf)
		chosen := -1
		for i, try := range tries {
			if tr.Next(&d) {
				try(&d)
				if tr.Matched(&d) && chosen < 0 {
					chosen = i
				}
			}
		}
		tr.End(&d, []string{"small", "big"})
		return chosen, d.Finish()
	}
	small := func(d *Decoder) {
		if v, ok := d.Int(); ok && v > 10 {
			d.Add("must be at most 10")
		}
	}
	big := func(d *Decoder) {
		if v, ok := d.Int(); ok && v < 5 {
			d.Add("must be at least 5")
		}
	}
	if c, err := run(`3`, true, small, big); c != 0 || err != nil {
		t.Errorf("3: %d %v", c, err)
	}
	if c, err := run(` 20 `, true, small, big); c != 1 || err != nil {
		t.Errorf("20: %d %v", c, err)
	}
	if _, err := run(`7`, true, small, big); err == nil || !strings.HasSuffix(err.Error(), "$: matches both small and big, but oneOf allows exactly one alternative") {
		t.Errorf("7 oneOf: %v", err)
	}
	if c, err := run(`7`, false, small, big); c != 0 || err != nil {
		t.Errorf("7 anyOf: %d %v", c, err)
	}
	if _, err := run(`"x"`, true, small, big); err == nil || !strings.HasSuffix(err.Error(),
		`$: matches none of the alternatives small or big; small: expected integer, got string "x"; big: expected integer, got string "x"`) {
		t.Errorf(`"x": %v`, err)
	}
	if _, err := run(`[1`, true, small, big); err == nil || !strings.Contains(err.Error(), "malformed JSON") {
		t.Errorf("malformed: %v", err)
	}
}

func TestConst(t *testing.T) {
	c := NewConst(`{"a":[1,2],"b":"x"}`)
	for text, ok := range map[string]bool{`{"b":"x","a":[1,2.0]}`: true, `{"a":[1,2],"b":"x"}`: true, `{"a":[2,1],"b":"x"}`: false, `{"a":[1,2]}`: false, `[]`: false} {
		var d Decoder
		d.Reset([]byte(text))
		start := c.Start(&d)
		d.Skip()
		c.Check(&d, start)
		if got := d.Finish() == nil; got != ok {
			t.Errorf("%s: valid %v, want %v (%v)", text, got, ok, d.Violations())
		}
	}
	var ch Checker
	c.CheckValue(&ch, map[string]any{"a": []int{1, 2}, "b": "x"})
	c.CheckValue(&ch, map[string]any{"a": []int{1}, "b": "x"})
	if got := ch.Violations(); len(got) != 1 || got[0].Message != `must be {"a":[1,2],"b":"x"}, got {"a":[1],"b":"x"}` {
		t.Errorf("CheckValue: %v", got)
	}
}
