package runtime

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

type typedInner struct {
	Count int `json:"count"`
}

type typedArgs struct {
	Name   string       `json:"name"`
	Tags   []string     `json:"tags"`
	Filter *typedInner  `json:"filter"`
	Items  []typedInner `json:"items"`
	OK     bool         `json:"ok"`
}

func TestDecodeJSON(t *testing.T) {
	validate := func(a *typedArgs) []Violation {
		var vs []Violation
		if a.Name == "" {
			vs = append(vs, Violation{Path: "$.name", Message: "is required"})
		}
		if len(a.Tags) > 2 {
			vs = append(vs, Violation{Path: "$.tags", Message: "must have at most 2 items"})
		}
		return vs
	}
	decode := DecodeJSON(validate)
	cases := []struct {
		in   string
		want []Violation // nil: success
	}{
		{`{"name":"x","tags":["a"],"filter":{"count":2}}`, nil},
		{`{"name":"x","nmae":"y"}`, []Violation{{"$", `unknown field "nmae" is not allowed`}}},
		{`{"name":"x","filter":{"count":"2"}}`, []Violation{{"$.filter.count", "must be an integer, got string"}}},
		{`{"name":"x","items":[{"count":1},{"count":true}]}`, []Violation{{"$.items.count", "must be an integer, got bool"}}},
		{`{"name":"x","tags":"a"}`, []Violation{{"$.tags", "must be an array, got string"}}},
		{`{"name":"x","ok":1}`, []Violation{{"$.ok", "must be a boolean, got number"}}},
		{`{"name":"x","filter":{"count":1.5}}`, []Violation{{"$.filter.count", "must be an integer, got number 1.5"}}},
		{`"x"`, []Violation{{"$", "must be an object, got string"}}},
		{`{"name":"x"} {}`, []Violation{{"$", "unexpected data after the argument object"}}},
		{`{"name":"x",}`, []Violation{{"$", "malformed JSON at byte 13: invalid character '}' looking for beginning of object key string"}}},
		{`{"name":`, []Violation{{"$", "malformed JSON: the arguments end too early"}}},
		{`{"tags":["a","b","c"]}`, []Violation{{"$.name", "is required"}, {"$.tags", "must have at most 2 items"}}},
	}
	for _, c := range cases {
		v, err := decode([]byte(c.in))
		a, ok := v.(*typedArgs)
		if !ok || a == nil {
			t.Fatalf("%s: value %T, want *typedArgs even on error", c.in, v)
		}
		if c.want == nil {
			if err != nil {
				t.Fatalf("%s: %v", c.in, err)
			}
			continue
		}
		var ve *ValidationError
		if !errors.As(err, &ve) || !slices.Equal(ve.Violations, c.want) {
			t.Fatalf("%s:\n got %v\nwant %v", c.in, err, c.want)
		}
	}
	// The partial value is kept for the label.
	v, _ := decode([]byte(`{"name":"kept","tags":["a","b","c"]}`))
	if v.(*typedArgs).Name != "kept" {
		t.Fatalf("partial value %+v", v)
	}
	// No validate function.
	if _, err := DecodeJSON[typedArgs](nil)([]byte(`{}`)); err != nil {
		t.Fatal(err)
	}
}

func TestTypedAdapters(t *testing.T) {
	exec := TypedExecute(func(ctx context.Context, call *Call, a *typedArgs) (Result, error) {
		return Text("hello " + a.Name), nil
	})
	res, err := exec(context.Background(), nil, &typedArgs{Name: "x"})
	if err != nil || res.String() != "hello x" {
		t.Fatal(res, err)
	}
	for _, bad := range []any{nil, typedArgs{}, (*typedArgs)(nil), "x"} {
		if _, err := exec(context.Background(), nil, bad); err == nil || !strings.Contains(err.Error(), "*runtime.typedArgs") {
			t.Fatalf("%#v: err %v", bad, err)
		}
	}
	execJSON := TypedExecuteJSON(func(ctx context.Context, call *Call, a *typedArgs) (typedInner, error) {
		if a.Name == "" {
			return typedInner{}, errors.New("no name")
		}
		return typedInner{Count: len(a.Tags)}, nil
	})
	if res, err := execJSON(context.Background(), nil, &typedArgs{Name: "x", Tags: []string{"a", "b"}}); err != nil || res.String() != `{"count":2}` {
		t.Fatal(res, err)
	}
	if res, err := execJSON(context.Background(), nil, &typedArgs{}); err == nil || err.Error() != "no name" || res.String() != "" {
		t.Fatal(res, err)
	}
	if _, err := execJSON(context.Background(), nil, "x"); err == nil || !strings.Contains(err.Error(), "*runtime.typedArgs") {
		t.Fatalf("err %v", err)
	}
	decode := TypedDecode(func(data []byte) (*typedArgs, error) {
		a := &typedArgs{Name: string(data)}
		if a.Name == "" {
			return a, errors.New("empty")
		}
		return a, nil
	})
	if v, err := decode([]byte("n")); err != nil || v.(*typedArgs).Name != "n" {
		t.Fatal(v, err)
	}
	if v, err := decode(nil); err == nil || v.(*typedArgs) == nil {
		t.Fatal("the partial value is returned with the error:", v, err)
	}
	label := TypedLabel(func(a *typedArgs) string { return "Tagging " + a.Name })
	if got := label(&typedArgs{Name: "x"}); got != "Tagging x" {
		t.Fatal(got)
	}
	if got := label(nil); got != "" {
		t.Fatal(got)
	}
	if got := label((*typedArgs)(nil)); got != "" {
		t.Fatal(got)
	}
}

// A hand-written tool built from the typed helpers runs through Dispatch.
func TestTypedToolDispatch(t *testing.T) {
	r := NewRegistry(Options{})
	tool := &Tool{
		Name:   "tag",
		Flags:  DefaultFlags(),
		Decode: DecodeJSON(func(a *typedArgs) []Violation { return nil }),
		Label:  TypedLabel(func(a *typedArgs) string { return "Tagging " + a.Name }),
		Execute: TypedExecute(func(ctx context.Context, call *Call, a *typedArgs) (Result, error) {
			return Text(strings.Join(a.Tags, ",")), nil
		}),
	}
	if err := r.Add(tool); err != nil {
		t.Fatal(err)
	}
	out, err := r.Dispatch(context.Background(), nil, ToolCall{Name: "tag", Arguments: []byte(`{"name":"n","tags":["a","b"]}`)})
	if err != nil || out.Result.String() != "a,b" || out.Label != "Tagging n" {
		t.Fatalf("%+v %v", out, err)
	}
}
