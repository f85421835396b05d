package wire

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// A struct of every kind a table describes, decoded and validated both
// through its table (object.go) and through the member loop and validate
// method the generator writes for structs it does not table: the two must
// agree on every value, violation, message and path.

type tcolor string

func tcolorOf(b []byte) tcolor {
	switch string(b) {
	case "red":
		return "red"
	case "blue":
		return "blue"
	}
	return tcolor(b)
}

func checkTColor(c *Checker, v tcolor) {
	if v != "red" && v != "blue" {
		c.Add(`must be one of "red", "blue", got ` + Quote(string(v)))
	}
}

func checkShort(c *Checker, v string) {
	if n := len(v); n > 5 {
		c.Add("must be at most 5 characters long, got " + fmt.Sprint(n))
	}
}

func checkTTags(c *Checker, v []string) {
	if len(v) < 1 {
		c.Add(MinItemsMessage(1, len(v)))
	}
}

var (
	tcountRules = NumberRules{Minimum: Dec("1"), Maximum: Dec("10")}
	tratioRules = NumberRules{Maximum: Dec("1"), MultipleOf: Dec("0.25")}
)

type tsub struct {
	N    int64   `json:"n"`
	Name *string `json:"name,omitempty"`
}

var tsubFields = []Field{
	{Name: "n", Required: true, Value: Int{Rules: &tcountRules}},
	{Name: "name", Value: String{Check: checkShort}},
}

func (x *tsub) decode(d *Decoder)   { d.Object(tsubFields, &x.N, &x.Name) }
func (x *tsub) validate(c *Checker) { c.Object(tsubFields, &x.N, &x.Name) }

// The member-loop forms of tsub, as the generator writes them.
func (x *tsub) decodeLoop(d *Decoder) {
	if !d.BeginObject() {
		return
	}
	var hasN, hasName bool
	for d.NextKey() {
		switch string(d.Name()) {
		case "n":
			d.ReqInt(&hasN, "n", &x.N, &tcountRules)
		case "name":
			d.OptStringPtr(&hasName, "name", &x.Name, checkShort)
		default:
			d.Unknown("n", "name")
		}
	}
	if !hasN {
		d.Missing("n")
	}
}

func (x *tsub) validateLoop(c *Checker) {
	CheckAt(c, "n", x.N, tcountRules.CheckInt)
	CheckPtr(c, "name", x.Name, checkShort)
}

type trec struct {
	Name   string            `json:"name"`
	Note   *string           `json:"note,omitempty"`
	Count  int64             `json:"count"`
	Ratio  *float64          `json:"ratio,omitempty"`
	Score  float64           `json:"score"`
	Flag   *bool             `json:"flag,omitempty"`
	On     bool              `json:"on"`
	When   *time.Time        `json:"when,omitempty"`
	At     time.Time         `json:"at"`
	Color  tcolor            `json:"color"`
	Shade  *tcolor           `json:"shade,omitempty"`
	Tags   []string          `json:"tags"`
	Colors []tcolor          `json:"colors,omitempty"`
	Sub    *tsub             `json:"sub,omitempty"`
	Main   tsub              `json:"main"`
	Items  []tsub            `json:"items,omitempty"`
	Meta   map[string]string `json:"meta,omitempty"`
	// Nullable properties: null leaves them nil.
	Maybe *string  `json:"maybe,omitempty"`
	Must  *int64   `json:"must"`
	List  []string `json:"list,omitempty"`
	Obj   *tsub    `json:"obj,omitempty"`
}

var trecFields = []Field{
	{Name: "name", Required: true, Value: String{Check: checkShort}},
	{Name: "note", Value: String{}},
	{Name: "count", Value: Int{Rules: &tcountRules}},
	{Name: "ratio", Value: Float{Rules: &tratioRules}},
	{Name: "score", Value: Float{}},
	{Name: "flag", Value: Bool{}},
	{Name: "on", Value: Bool{}},
	{Name: "when", Value: DateTime{}},
	{Name: "at", Value: DateTime{}},
	{Name: "color", Value: Enum[tcolor]{Of: tcolorOf, Check: checkTColor}},
	{Name: "shade", Value: Enum[tcolor]{Of: tcolorOf, Check: checkTColor}},
	{Name: "tags", Required: true, Value: Strings{Max: 3, Item: checkShort, Check: checkTTags}},
	{Name: "colors", Value: Enums[tcolor]{Max: NoMaxItems, Of: tcolorOf, Item: checkTColor}},
	{Name: "sub", Value: Object[tsub]{Decode: (*tsub).decode, Validate: (*tsub).validate}},
	{Name: "main", Required: true, Value: Object[tsub]{Decode: (*tsub).decode, Validate: (*tsub).validate}},
	{Name: "items", Value: Objects[tsub]{Max: 2, Decode: (*tsub).decode, Validate: (*tsub).validate}},
	{Name: "meta", Value: StringMap{Check: checkShort}},
	{Name: "maybe", Nullable: true, Value: String{Check: checkShort}},
	{Name: "must", Required: true, Nullable: true, Value: Int{Rules: &tcountRules}},
	{Name: "list", Nullable: true, Value: Strings{Max: NoMaxItems, Item: checkShort}},
	{Name: "obj", Nullable: true, Value: Object[tsub]{Decode: (*tsub).decode, Validate: (*tsub).validate}},
}

func (x *trec) decode(d *Decoder) {
	seen := d.Object(trecFields, &x.Name, &x.Note, &x.Count, &x.Ratio, &x.Score, &x.Flag, &x.On, &x.When, &x.At,
		&x.Color, &x.Shade, &x.Tags, &x.Colors, &x.Sub, &x.Main, &x.Items, &x.Meta, &x.Maybe, &x.Must, &x.List, &x.Obj)
	if seen.Absent(2) {
		x.Count = 5
	}
}

func (x *trec) validate(c *Checker) {
	c.Object(trecFields, &x.Name, &x.Note, &x.Count, &x.Ratio, &x.Score, &x.Flag, &x.On, &x.When, &x.At,
		&x.Color, &x.Shade, &x.Tags, &x.Colors, &x.Sub, &x.Main, &x.Items, &x.Meta, &x.Maybe, &x.Must, &x.List, &x.Obj)
}

func (x *trec) decodeLoop(d *Decoder) {
	if !d.BeginObject() {
		return
	}
	var hasName, hasNote, hasCount, hasRatio, hasScore, hasFlag, hasOn, hasWhen, hasAt, hasColor, hasShade, hasTags, hasColors, hasSub, hasMain, hasItems, hasMeta, hasMaybe, hasMust, hasList, hasObj bool
	for d.NextKey() {
		switch string(d.Name()) {
		case "name":
			d.ReqString(&hasName, "name", &x.Name, checkShort)
		case "note":
			d.OptStringPtr(&hasNote, "note", &x.Note, nil)
		case "count":
			d.OptInt(&hasCount, "count", &x.Count, &tcountRules)
		case "ratio":
			d.OptFloatPtr(&hasRatio, "ratio", &x.Ratio, &tratioRules)
		case "score":
			d.OptFloat(&hasScore, "score", &x.Score, nil)
		case "flag":
			d.OptBoolPtr(&hasFlag, "flag", &x.Flag, nil)
		case "on":
			d.OptBool(&hasOn, "on", &x.On, nil)
		case "when":
			d.OptDateTimePtr(&hasWhen, "when", &x.When)
		case "at":
			d.OptDateTime(&hasAt, "at", &x.At)
		case "color":
			OptEnum(d, &hasColor, "color", &x.Color, tcolorOf, checkTColor)
		case "shade":
			OptEnumPtr(d, &hasShade, "shade", &x.Shade, tcolorOf, checkTColor)
		case "tags":
			d.ReqStrings(&hasTags, "tags", &x.Tags, 3, checkShort, checkTTags)
		case "colors":
			OptEnums(d, &hasColors, "colors", &x.Colors, NoMaxItems, tcolorOf, checkTColor, nil)
		case "sub":
			OptObjectPtr(d, &hasSub, "sub", &x.Sub, (*tsub).decodeLoop)
		case "main":
			ReqObject(d, &hasMain, "main", &x.Main, (*tsub).decodeLoop)
		case "items":
			OptObjects(d, &hasItems, "items", &x.Items, 2, (*tsub).decodeLoop, nil)
		case "meta":
			if d.OptionalField(&hasMeta, "meta") {
				if d.BeginObject() {
					m := map[string]string{}
					for d.NextKey() {
						if d.Full() {
							d.Skip()
							continue
						}
						k := string(d.Name())
						if _, dup := m[k]; dup {
							d.Duplicate()
							continue
						}
						d.Enter(k)
						var e string
						if v1, ok := d.String(); ok {
							checkShort(&d.Checker, v1)
							e = v1
						}
						m[k] = e
						d.Leave()
					}
					x.Meta = m
				}
				d.Leave()
			}
		// Nullable properties, in the long form the generator writes.
		case "maybe":
			if d.Field(&hasMaybe, "maybe") {
				if !d.Null() {
					if v, ok := d.String(); ok {
						checkShort(&d.Checker, v)
						x.Maybe = &v
					}
				}
				d.Leave()
			}
		case "must":
			if d.Field(&hasMust, "must") {
				if !d.Null() {
					if v, ok := d.Int(); ok {
						tcountRules.CheckInt(&d.Checker, v)
						x.Must = &v
					}
				}
				d.Leave()
			}
		case "list":
			if d.Field(&hasList, "list") {
				if !d.Null() {
					if d.BeginArray() {
						x.List = make([]string, 0, d.ItemsHint(NoMaxItems))
						for i := 0; d.NextItem(); i++ {
							d.EnterIndex(i)
							x.List = append(x.List, "")
							if v, ok := d.String(); ok {
								checkShort(&d.Checker, v)
								x.List[i] = v
							}
							d.Leave()
						}
					}
				}
				d.Leave()
			}
		case "obj":
			if d.Field(&hasObj, "obj") {
				if !d.Null() {
					x.Obj = new(tsub)
					x.Obj.decodeLoop(d)
				}
				d.Leave()
			}
		default:
			d.Unknown("name", "note", "count", "ratio", "score", "flag", "on", "when", "at", "color", "shade", "tags", "colors", "sub", "main", "items", "meta", "maybe", "must", "list", "obj")
		}
	}
	if !hasName {
		d.Missing("name")
	}
	if !hasCount {
		x.Count = 5
	}
	if !hasTags {
		d.Missing("tags")
	}
	if !hasMain {
		d.Missing("main")
	}
	if !hasMust {
		d.Missing("must")
	}
}

func (x *trec) validateLoop(c *Checker) {
	CheckAt(c, "name", x.Name, checkShort)
	CheckAt(c, "count", x.Count, tcountRules.CheckInt)
	if x.Ratio != nil {
		c.Enter("ratio")
		tratioRules.CheckFloat(c, *x.Ratio, nil)
		c.Leave()
	}
	CheckAt(c, "color", x.Color, checkTColor)
	CheckPtr(c, "shade", x.Shade, checkTColor)
	if x.Tags == nil {
		c.Missing("tags")
	}
	CheckSlice(c, "tags", x.Tags, checkTTags, checkShort)
	CheckSlice(c, "colors", x.Colors, nil, checkTColor)
	CheckObject(c, "sub", x.Sub, (*tsub).validateLoop)
	CheckObject(c, "main", &x.Main, (*tsub).validateLoop)
	CheckObjects(c, "items", x.Items, nil, (*tsub).validateLoop)
	CheckMap(c, "meta", x.Meta, checkShort)
	CheckPtr(c, "maybe", x.Maybe, checkShort)
	CheckPtr(c, "must", x.Must, tcountRules.CheckInt)
	CheckSlice(c, "list", x.List, nil, checkShort)
	CheckObject(c, "obj", x.Obj, (*tsub).validateLoop)
}

var tableInputs = []string{
	`{"name":"ab","tags":["x"],"main":{"n":2}}`,
	`{"name":"abcdefg","note":"hi","count":0,"ratio":0.3,"score":1e400,"flag":true,"on":false,"when":"2024-01-02T03:04:05Z","at":"nope","color":"green","shade":"red","tags":[],"colors":["red","pink"],"sub":{"n":11,"name":"toolong"},"main":{},"items":[{"n":1},{"n":2},{"n":3}],"meta":{"a":"b","c":"dddddd"}}`,
	`{"tags":["aaaaaaa","b","c","d","e"],"main":{"n":"x","extra":1}}`,
	`{"name":"a","name":"b","tags":["x"],"tags":["y"],"main":{"n":1},"main":{"n":2}}`,
	`{"name":null,"note":null,"count":null,"ratio":null,"flag":null,"when":null,"color":null,"shade":null,"tags":null,"colors":null,"sub":null,"main":null,"items":null,"meta":null}`,
	`{"note":null,"note":"x","count":null,"count":3,"name":"n","tags":["t"],"main":{"n":1}}`,
	`{"nmae":"typo","tgas":[],"main":{"n":1,"nam":"x"},"zzz":{"deep":[1,2,{"a":null}]}}`,
	`{"main":{"n":1},"meta":{"k":"v","k":"w","n":1},"name":"z","tags":["q"],"count":4.0,"items":[{"n":1},"x"]}`,
	`[]`,
	`null`,
	`{"name":1,"note":2,"count":"3","ratio":"4","score":true,"flag":"no","on":1,"when":5,"at":6,"color":7,"shade":8,"tags":"x","colors":{},"sub":[],"main":"m","items":{},"meta":[]}`,
	`{"count":9223372036854775808,"ratio":0.75,"score":-0,"tags":["a","b","c"],"main":{"n":10},"name":""}`,
	`{"name":"a","tags":["x"],"main":{"n":1},"must":null,"maybe":null,"list":null,"obj":null}`,
	`{"name":"a","tags":["x"],"main":{"n":1},"must":0,"maybe":"toolong","list":["ok","toolong"],"obj":{"n":0}}`,
	`{"name":"a","tags":["x"],"main":{"n":1},"maybe":null,"maybe":"x","must":3,"must":null,"obj":[],"list":"x"}`,
}

func TestObjectTableMatchesMemberLoop(t *testing.T) {
	for _, mode := range []runtime.DecodeMode{0, runtime.NullAsAbsent} {
		for i, in := range tableInputs {
			t.Run(fmt.Sprintf("mode%d/%d", mode, i), func(t *testing.T) {
				var a, b trec
				var da, db Decoder
				da.ResetMode([]byte(in), mode)
				a.decode(&da)
				errA := da.Finish()
				db.ResetMode([]byte(in), mode)
				b.decodeLoop(&db)
				errB := db.Finish()
				if fmt.Sprint(errA) != fmt.Sprint(errB) {
					t.Errorf("%s\ntable: %v\nloop:  %v", in, errA, errB)
				}
				if !reflect.DeepEqual(a, b) {
					t.Errorf("%s\ntable: %+v\nloop:  %+v", in, a, b)
				}
				// Validate the decoded value both ways.
				var ca, cb Checker
				a.validate(&ca)
				b.validateLoop(&cb)
				if fmt.Sprint(ca.Err()) != fmt.Sprint(cb.Err()) {
					t.Errorf("validate %s\ntable: %v\nloop:  %v", in, ca.Err(), cb.Err())
				}
			})
		}
	}
	// Most inputs must be refused, and differently: the comparison above is
	// not between two empty results.
	refused := 0
	for _, in := range tableInputs {
		var x trec
		var d Decoder
		d.Reset([]byte(in))
		x.decode(&d)
		if err := d.Finish(); err != nil {
			refused++
			if in == tableInputs[1] && strings.Count(err.Error(), ";") < 10 {
				t.Errorf("input 1 should break a dozen rules: %v", err)
			}
		}
	}
	if refused < len(tableInputs)-2 {
		t.Errorf("%d of %d inputs refused; the corpus should exercise violations", refused, len(tableInputs))
	}
}

// A value built in Go with nil required arrays and bad nested values.
func TestObjectTableValidateGoValues(t *testing.T) {
	bad, long := "toolong", "abcdefgh"
	r := 2.0
	shade := tcolor("pink")
	values := []trec{
		{},
		{Name: long, Count: 99, Ratio: &r, Color: "x", Shade: &shade, Tags: []string{long, "a", "b", "c"},
			Colors: []tcolor{"red", "no"}, Sub: &tsub{N: 0, Name: &bad}, Items: []tsub{{N: 1}, {N: 0}},
			Meta: map[string]string{"z": long, "a": "ok", "m": long}},
	}
	for i, v := range values {
		var ca, cb Checker
		v.validate(&ca)
		v.validateLoop(&cb)
		if ca.Err() == nil {
			t.Errorf("value %d: no violations", i)
		}
		if fmt.Sprint(ca.Err()) != fmt.Sprint(cb.Err()) {
			t.Errorf("value %d\ntable: %v\nloop:  %v", i, ca.Err(), cb.Err())
		}
	}
}

// BenchmarkObjectTable compares, in one run, decoding a valid object
// through its table and through the member loop.
func BenchmarkObjectTable(b *testing.B) {
	data := []byte(`{"name":"ab","note":"hi","count":3,"ratio":0.5,"score":1.5,"flag":true,"on":true,"when":"2024-01-02T03:04:05Z","color":"red","shade":"blue","tags":["x","y"],"colors":["red"],"sub":{"n":2,"name":"s"},"main":{"n":1},"items":[{"n":1},{"n":2}],"meta":{"a":"b"}}`)
	for _, bc := range []struct {
		name   string
		decode func(*trec, *Decoder)
	}{{"table", (*trec).decode}, {"loop", (*trec).decodeLoop}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var d Decoder
			for b.Loop() {
				var x trec
				d.Reset(data)
				bc.decode(&x, &d)
				if err := d.Finish(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
