package wire

import (
	"strings"
	"testing"
	"time"
)

func TestDateTime(t *testing.T) {
	good := []string{
		"2024-01-31T12:00:00Z",
		"2024-02-29T23:59:59.123456789+01:00",
		"2000-02-29t00:00:00z",
		"1999-12-31T23:59:60Z",
		"2024-06-01T08:30:00.5-07:30",
		"2024-06-01T08:30:00.1234567891Z", // more than nanosecond digits
	}
	for _, s := range good {
		if !IsDateTime(s) {
			t.Errorf("IsDateTime(%q) = false", s)
		}
	}
	bad := []string{
		"", "2024-01-31", "2024-01-31T12:00:00", "2024-01-31 12:00:00Z", "2024-13-01T00:00:00Z",
		"2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2024-04-31T00:00:00Z", "2024-01-31T24:00:00Z",
		"2024-01-31T12:60:00Z", "2024-01-31T12:00:61Z", "2024-01-31T12:00:00.Z", "2024-01-31T12:00:00+0100",
		"2024-01-31T12:00:00+24:00", "2024-01-31T12:00:00Z ", "24-01-31T12:00:00Z", "2024-1-31T12:00:00Z",
		"2024-01-31T12:00:00+01:0", "２０２４-01-31T12:00:00Z",
	}
	for _, s := range bad {
		if IsDateTime(s) {
			t.Errorf("IsDateTime(%q) = true", s)
		}
	}
	for _, s := range []string{"2024-01-31T12:00:00Z", "2024-02-29T23:59:59.123456789+01:00", "2024-06-01T08:30:00.5-07:30"} {
		got, ok := ParseDateTime([]byte(s))
		want, err := time.Parse(time.RFC3339Nano, s)
		if !ok || err != nil || !got.Equal(want) {
			t.Errorf("ParseDateTime(%q) = %v, %v; time.Parse gives %v, %v", s, got, ok, want, err)
		}
		_, off := got.Zone()
		_, wantOff := want.Zone()
		if off != wantOff {
			t.Errorf("%q: offset %d, want %d", s, off, wantOff)
		}
	}
	if got, _ := ParseDateTime("2024-01-31T12:00:00Z"); got.Location() != time.UTC {
		t.Errorf("Z gives %v, want UTC", got.Location())
	}
}

func TestDate(t *testing.T) {
	for _, s := range []string{"2024-01-31", "2024-02-29", "0001-01-01"} {
		if !IsDate(s) {
			t.Errorf("IsDate(%q) = false", s)
		}
	}
	for _, s := range []string{"", "2024-02-30", "2023-02-29", "2024-1-31", "2024-01-31T00:00:00Z", "2024/01/31", "2024-00-10"} {
		if IsDate(s) {
			t.Errorf("IsDate(%q) = true", s)
		}
	}
}

func TestEmail(t *testing.T) {
	good := []string{"ada@example.com", "first.last+tag@sub.example.co.uk", "x@localhost", "o'hara@example.org", "a@[127.0.0.1]", "a@[IPv6:2001:db8::1]", "_@a-b.c"}
	for _, s := range good {
		if !IsEmail(s) {
			t.Errorf("IsEmail(%q) = false", s)
		}
	}
	bad := []string{"", "@example.com", "ada@", "ada", "ada@@example.com", ".ada@example.com", "ada.@example.com", "a..b@example.com",
		"ada@-example.com", "ada@example-.com", "ada@exa_mple.com", "ada@example..com", "a b@example.com", "ada@[300.0.0.1]",
		"ada@[1.2.3]", strings.Repeat("a", 65) + "@example.com", "ada@" + strings.Repeat("a", 64) + ".com", "ädä@example.com"}
	for _, s := range bad {
		if IsEmail(s) {
			t.Errorf("IsEmail(%q) = true", s)
		}
	}
}

func TestURIAndUUID(t *testing.T) {
	for _, s := range []string{"https://example.com/a?b=c#d", "mailto:ada@example.com", "urn:isbn:0451450523", "http://[::1]:80/", "file:///tmp/x%20y", "a+b.c-d:x"} {
		if !IsURI(s) {
			t.Errorf("IsURI(%q) = false", s)
		}
	}
	for _, s := range []string{"", "example.com", "/relative/path", "1http://x", "http://exa mple.com", "http://x/%zz", "http://x/%4", ":nothing", "http://x/<y>"} {
		if IsURI(s) {
			t.Errorf("IsURI(%q) = true", s)
		}
	}
	for _, s := range []string{"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000"} {
		if !IsUUID(s) {
			t.Errorf("IsUUID(%q) = false", s)
		}
	}
	for _, s := range []string{"", "123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g", "123e4567-e89b-12d3-a456_426614174000"} {
		if IsUUID(s) {
			t.Errorf("IsUUID(%q) = true", s)
		}
	}
}

func TestFormatAllocations(t *testing.T) {
	allocs := testing.AllocsPerRun(50, func() {
		IsEmail("first.last@example.com")
		IsURI("https://example.com/a")
		IsUUID("123e4567-e89b-12d3-a456-426614174000")
		IsDate("2024-01-31")
		ParseDateTime([]byte("2024-01-31T12:00:00.5Z"))
	})
	if allocs != 0 {
		t.Errorf("%v allocations, want 0", allocs)
	}
}

func TestClip(t *testing.T) {
	if got := Clip("short"); got != "short" {
		t.Errorf("Clip = %q", got)
	}
	long := strings.Repeat("é", 61)
	got := Clip(long)
	if n := len([]rune(got)); n != LabelMaxRunes || !strings.HasSuffix(got, "…") || !strings.HasPrefix(got, strings.Repeat("é", 59)) {
		t.Errorf("Clip(61 runes) = %q (%d runes)", got, n)
	}
	if got := Clip(strings.Repeat("x", 60)); got != strings.Repeat("x", 60) {
		t.Errorf("Clip(60 runes) cut: %q", got)
	}
	if got := Clip("two\nlines\t!"); got != "two lines !" {
		t.Errorf("Clip = %q", got)
	}
}

func TestDuplicate(t *testing.T) {
	if i, j, ok := Duplicate([]string{"a", "b", "a"}); !ok || i != 0 || j != 2 {
		t.Errorf("Duplicate = %d %d %v", i, j, ok)
	}
	big := make([]int, 100)
	for i := range big {
		big[i] = i
	}
	if _, _, ok := Duplicate(big); ok {
		t.Error("Duplicate on unique ints")
	}
	big[77] = 5
	if i, j, ok := Duplicate(big); !ok || i != 5 || j != 77 {
		t.Errorf("Duplicate = %d %d %v", i, j, ok)
	}
	type item struct {
		A []int
		B string
	}
	if i, j, ok := DuplicateJSON([]item{{[]int{1}, "x"}, {[]int{2}, "x"}, {[]int{1}, "x"}}); !ok || i != 0 || j != 2 {
		t.Errorf("DuplicateJSON = %d %d %v", i, j, ok)
	}
	if _, _, ok := DuplicateJSON([]item{{[]int{1}, "x"}, {[]int{1}, "y"}}); ok {
		t.Error("DuplicateJSON on unique items")
	}
}

func TestFormatNumber(t *testing.T) {
	for v, want := range map[float64]string{100: "100", 0.5: "0.5", -3: "-3", 1e21: "1e+21", 1e-7: "1e-07", 0: "0", 123456789: "123456789"} {
		if got := FormatNumber(v); got != want {
			t.Errorf("FormatNumber(%v) = %q, want %q", v, got, want)
		}
	}
}
