// Package proptest holds the property-based, differential test of the
// generated decoders: random specs over the whole subset toolgen supports
// (unions too: union_test.go) are generated, compiled and run, and every
// generated decoder is compared with an independent JSON Schema 2020-12
// validator (santhosh-tekuri/jsonschema v6) on random and mutated
// instances, on accept/reject and on the decoded value.
//
// make test runs a fixed budget of seeds (go test ./internal/proptest);
// make proptest runs many more:
//
//	go test ./internal/proptest -run RandomSpecs -proptest.rounds=40 -proptest.seed=$RANDOM
//
// A disagreement is a failure, unless it is one of the deliberate
// strictnesses of the generated decoders, each named here (see strictness):
//   - duplicate object keys are a violation (JSON Schema validates the
//     last of them, as encoding/json keeps it);
//   - an integer must fit int64, a number float64 (JSON Schema has no
//     limit; the Go types do): in a union, the integer alternative then
//     refuses what another may take;
//   - values nest at most wire.MaxDepth (64) levels;
//   - patterns are RE2 (Go's regexp), which the spec loader checks, so no
//     drawn pattern can tell the difference.
package proptest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen/toolgen/gen"
	"github.com/toolgen/toolgen/spec"
)

var (
	flagRounds = flag.Int("proptest.rounds", 2, "random specs (generated packages) to draw, compile and run")
	flagTools  = flag.Int("proptest.tools", 60, "tools per random spec")
	flagCases  = flag.Int("proptest.cases", 40, "instances per tool")
	flagSeed   = flag.Uint64("proptest.seed", 1, "seed of the first round")
	flagKeep   = flag.String("proptest.keep", "", "directory to keep the failing rounds' specs and generated code in")
)

// outcome is one line of the driver's output.
type outcome struct {
	OK  bool            `json:"ok"`
	Vs  []string        `json:"vs"`
	V   json.RawMessage `json:"v"`
	Val string          `json:"val"`
	Err string          `json:"err"`
}

// testCase is one instance for one tool.
type testCase struct {
	tool   string
	text   string // the arguments as sent
	value  any    // the arguments as a value (nil when text is not from value)
	strict string // a deliberate strictness: the decoder must reject, whatever the reference says
}

// stats are what the test reports.
type stats struct {
	specs, tools, compiled, cases, accepted, rejected, strict int
	unions, consts                                            int // oneOf and anyOf drawn; consts of arrays and objects
	examples                                                  int // instances written as examples: (examplesAgree)
}

func TestRandomSpecs(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles generated packages")
	}
	root := repoRoot(t)
	work := t.TempDir()
	goSum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(work, "go.mod"), "module example.com/proptest\n\ngo 1.26\n\nrequire github.com/toolgen/toolgen v0.0.0\n\nreplace github.com/toolgen/toolgen => "+root+"\n")
	write(t, filepath.Join(work, "go.sum"), string(goSum))
	write(t, filepath.Join(work, "main.go"), driverMain)
	var st stats
	var problems []string
	for round := 0; round < *flagRounds; round++ {
		seed := *flagSeed + uint64(round)
		ps := runRound(t, work, seed, &st)
		if len(ps) > 0 && *flagKeep != "" {
			dst := filepath.Join(*flagKeep, "seed"+strconv.FormatUint(seed, 10))
			os.MkdirAll(dst, 0o755)
			for _, n := range []string{"p/p.tools.yaml", "p/p_tools.gen.go"} {
				if b, err := os.ReadFile(filepath.Join(work, n)); err == nil {
					os.WriteFile(filepath.Join(dst, filepath.Base(n)), b, 0o644)
				}
			}
		}
		problems = append(problems, ps...)
	}
	t.Logf("random specs: %d drawn, %d compiled, %d tools, %d unions, %d array or object consts; %d instances: %d accepted, %d rejected (%d of them by a deliberate strictness), %d also checked by the loader as examples; %d disagreements",
		st.specs, st.compiled, st.tools, st.unions, st.consts, st.cases, st.accepted, st.rejected, st.strict, st.examples, len(problems))
	for i, p := range problems {
		if i == 20 {
			t.Errorf("… and %d more", len(problems)-20)
			break
		}
		t.Error(p)
	}
}

// runRound draws one spec, generates, compiles and runs it, and returns
// the disagreements.
func runRound(t *testing.T, work string, seed uint64, st *stats) []string {
	t.Helper()
	d := &drawer{r: rand.New(rand.NewPCG(seed, 0x70726f70))}
	text, drawn := d.drawFile(*flagTools)
	st.specs++
	st.unions += strings.Count(text, `"oneOf"`) + strings.Count(text, `"anyOf"`)
	st.consts += strings.Count(text, `"const":[`) + strings.Count(text, `"const":{`)
	tag := "seed " + strconv.FormatUint(seed, 10) + ": "
	path := filepath.Join(work, "p", "p.tools.yaml")
	os.RemoveAll(filepath.Dir(path)) // stubs are only appended to: start afresh
	write(t, path, text)
	f, err := spec.Parse(path, []byte(text))
	if err != nil {
		return []string{tag + "the loader refuses the drawn spec (its defaults and enum values passed the reference validator):\n" + err.Error()}
	}
	// The generated file and the stubs (an Executor the driver can hand
	// to Module; its methods are never called).
	outp, err := gen.Generate(f, filepath.Dir(path))
	if err != nil {
		return []string{tag + "generate: " + err.Error()}
	}
	for _, o := range outp.Files {
		if strings.HasSuffix(o.Path, ".go") {
			write(t, o.Path, string(o.Content))
		}
	}
	bin := filepath.Join(work, "driver")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod -buildvcs=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		return []string{tag + "generated code does not compile:\n" + string(out)}
	}
	st.compiled++

	// The cases.
	var cases []testCase
	params := map[string]*spec.Schema{}
	for _, tl := range f.Tools {
		st.tools++
		params[tl.Name] = tl.Params
		ps := drawn[tl.Name]
		for i := 0; i < *flagCases; i++ {
			cases = append(cases, d.drawCase(tl.Name, ps))
		}
		if tl.Batch != nil {
			st.tools++
			for i := 0; i < *flagCases/2; i++ {
				n := d.intn(tl.Batch.MaxItems + 2)
				items := []any{}
				for j := 0; j < n; j++ {
					items = append(items, d.maybeMutate(d.instance(ps, 2)))
				}
				v := map[string]any{"items": items}
				cases = append(cases, testCase{tool: tl.Batch.Name, text: jsonText(v), value: v})
			}
			cases = append(cases, testCase{tool: tl.Batch.Name, text: `{"items":[{}],"items":[{}]}`, strict: "duplicate key"})
		}
	}
	var in bytes.Buffer
	for _, c := range cases {
		in.WriteString(jsonText(map[string]string{"t": c.tool, "a": c.text}) + "\n")
	}
	run := exec.Command(bin)
	run.Stdin = &in
	var stderr bytes.Buffer
	run.Stderr = &stderr
	out, err := run.Output()
	if err != nil {
		return []string{tag + "driver: " + err.Error() + "\n" + stderr.String()}
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	sc.Scan()
	var schemas map[string]json.RawMessage
	if err := json.Unmarshal(sc.Bytes(), &schemas); err != nil {
		t.Fatal(err)
	}
	refs := map[string]*jsonschema.Schema{}
	for name, s := range schemas {
		refs[name] = compileRef(mustParse(string(s)))
	}
	var problems []string
	decoded := make([]bool, len(cases)) // the decoder's verdict, for examplesAgree
	for i, c := range cases {
		if !sc.Scan() {
			t.Fatalf("driver output ends early")
		}
		var o outcome
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			t.Fatal(err)
		}
		st.cases++
		decoded[i] = o.OK
		if o.OK {
			st.accepted++
		} else {
			st.rejected++
		}
		bad := func(format string, args ...any) {
			problems = append(problems, fmt.Sprintf(tag+"tool %s, schema %s\ninstance %s\n", c.tool, schemas[c.tool], c.text)+fmt.Sprintf(format, args...))
		}
		if o.Err != "" {
			bad("decoder returned a non-validation error: %s", o.Err)
			continue
		}
		if c.strict != "" {
			st.strict++
			if o.OK {
				bad("accepted, but a %s must be refused", c.strict)
			}
			continue
		}
		s, batch := params[c.tool], false
		if s == nil {
			s, batch = batchItems(f, c.tool), true
		}
		refInst := c.value
		if batch {
			refInst = trimBatch(s, c.value)
		} else {
			refInst = trimmed(s, c.value)
		}
		refErr := refs[c.tool].Validate(reparse(refInst))
		if why := tooBig(s, batch, c.value); why != "" && !o.OK && refErr == nil {
			st.strict++
			continue
		}
		if why := tooBig(s, batch, c.value); why != "" && o.OK && refErr != nil && unionIn(s) {
			// In a union the integer alternative refuses an integer
			// beyond int64, so that another can take it (a number: -1e308)
			// where the reference sees two matches.
			st.strict++
			continue
		}
		switch {
		case o.OK && refErr != nil:
			bad("the decoder accepts what the reference refuses: %v", refErr)
		case !o.OK && refErr == nil && refLax(o.Vs):
			st.strict++ // the reference is wrong (see refLax)
		case !o.OK && refErr == nil:
			bad("the decoder refuses what the reference accepts: %q", o.Vs)
		case o.OK && o.Val != "" && !strings.Contains(o.Val, "items must be unique") && tooBig(s, batch, expectAny(s, batch, c.value), true) == "":
			// (Validate judges the Go value. For uniqueItems, items that
			// differ only in null against absent, or in the spelling of a
			// date-time, are one Go value; decoding compares them as sent.
			// A number decodes to the nearest float64, which Validate
			// judges; decoding judges the number sent, exactly.)
			bad("decoded without violations, but Validate reports %s", o.Val)
		case o.OK:
			var want any
			if batch {
				want = expectBatch(s, c.value)
			} else {
				want = expect(s, c.value)
			}
			got := mustParse(string(o.V))
			if why := differ(s, batch, want, got); why != "" {
				bad("decoded value %s, want %s: %s", o.V, jsonText(want), why)
			}
		}
	}
	return append(problems, examplesAgree(tag, path, text, params, cases, decoded, st)...)
}

// examplesPerTool bounds the drawn instances examplesAgree writes as one
// tool's examples.
const examplesPerTool = 8

// examplesAgree compares the loader's check of examples: (spec.Example)
// with the generated decoder: the instances drawn for each tool (JSON,
// which is YAML) are written into the spec as its examples, one per line,
// and the loader must refuse exactly those the decoder refused, at their
// line. (A deliberate strictness of the decoder is one of the loader's
// too: an integer beyond int64, a number beyond float64.)
func examplesAgree(tag, path, text string, params map[string]*spec.Schema, cases []testCase, decoded []bool, st *stats) []string {
	type example struct {
		tool, text string
		ok         bool
	}
	perTool := map[string][]example{}
	seen := map[string]bool{}
	for i, c := range cases {
		if c.value == nil || c.strict != "" || params[c.tool] == nil || len(perTool[c.tool]) == examplesPerTool {
			continue
		}
		if _, isObj := c.value.(map[string]any); !isObj {
			continue // not an argument object: the loader's own error
		}
		t := jsonText(c.value)
		if seen[c.tool+"\x00"+t] {
			continue // a repeated example is an error of its own
		}
		seen[c.tool+"\x00"+t] = true
		perTool[c.tool] = append(perTool[c.tool], example{c.tool, t, decoded[i]})
	}
	var out []string
	at := map[int]example{} // line → example
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		out = append(out, line)
		tool, ok := strings.CutPrefix(line, "  - name: ")
		if !ok || len(perTool[tool]) == 0 {
			continue
		}
		out = append(out, "    examples:")
		for _, ex := range perTool[tool] {
			out = append(out, "      - "+ex.text)
			at[len(out)] = ex
		}
	}
	_, err := spec.Parse(path, []byte(strings.Join(out, "\n")+"\n"))
	refused := map[int]string{}
	var problems []string
	if err != nil {
		list, _ := err.(spec.ErrorList)
		for _, e := range list {
			if _, ok := at[e.Pos.Line]; !ok || strings.Contains(e.Msg, "yaml") {
				problems = append(problems, tag+"the spec with drawn examples does not load, other than for an example: "+e.Error())
				continue
			}
			if strings.Contains(e.Msg, "repeats example") {
				delete(at, e.Pos.Line) // equal to another as a value (-0 and 0): not a verdict
				continue
			}
			refused[e.Pos.Line] = e.Msg
		}
	}
	if len(problems) > 0 {
		return problems
	}
	for line, ex := range at {
		st.examples++
		why, bad := refused[line]
		switch {
		case bad && ex.ok:
			problems = append(problems, fmt.Sprintf("%stool %s, example %s: the decoder accepts it, the loader refuses it: %s", tag, ex.tool, ex.text, why))
		case !bad && !ex.ok:
			problems = append(problems, fmt.Sprintf("%stool %s, example %s: the decoder refuses it, the loader accepts it", tag, ex.tool, ex.text))
		}
	}
	slices.Sort(problems)
	return problems
}

// drawCase draws one instance of a tool's arguments: valid-looking, or
// mutated, or (rarely) with a duplicate key.
func (d *drawer) drawCase(tool string, ps schema) testCase {
	v := d.maybeMutate(d.instance(ps, 2))
	text := jsonText(v)
	if m, ok := v.(map[string]any); ok && len(m) > 0 && d.chance(0.03) {
		k := sortedKeys(m)[0]
		return testCase{tool: tool, text: "{" + jsonText(k) + ":" + jsonText(m[k]) + "," + text[1:], strict: "duplicate key"}
	}
	if d.chance(0.05) {
		text = d.pick(" ", "\n", "\t", "\r\n") + text + d.pick(" ", "\n")
	}
	return testCase{tool: tool, text: text, value: v}
}

// maybeMutate changes v at a random place, half of the time.
func (d *drawer) maybeMutate(v any) any {
	if d.chance(0.5) {
		return v
	}
	return d.mutate(v)
}

func (d *drawer) mutate(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = e
		}
		keys := sortedKeys(out)
		switch n := d.intn(5); {
		case n == 0 || len(keys) == 0:
			out[d.pick("zz", "unknown", "A", "dueDate")] = d.freeValue(1)
		case n == 1:
			delete(out, keys[d.intn(len(keys))])
		case n == 2:
			out[keys[d.intn(len(keys))]] = d.freeValue(1)
		default:
			k := keys[d.intn(len(keys))]
			out[k] = d.mutate(out[k])
		}
		return out
	case []any:
		out := append([]any{}, x...)
		switch n := d.intn(4); {
		case n == 0 || len(out) == 0:
			out = append(out, d.freeValue(1))
		case n == 1:
			out = append(out, out[d.intn(len(out))])
		default:
			i := d.intn(len(out))
			out[i] = d.mutate(out[i])
		}
		return out
	case json.Number:
		r, _ := new(big.Rat).SetString(string(x))
		switch d.intn(4) {
		case 0:
			r.Add(r, big.NewRat(1, 1))
		case 1:
			r.Neg(r)
		case 2:
			r.Add(r, big.NewRat(1, 1000000000000000))
		default:
			return json.Number(d.pick("1e308", "-1e308", "9223372036854775808", "1.0000000000000001", "9007199254740993.0", "9.223372036854775807e18", "1e-400", "-0"))
		}
		return json.Number(spell(d, r))
	case string:
		switch d.intn(3) {
		case 0:
			return x + d.pick("x", " ", "é", "0")
		case 1:
			return strings.ToUpper(x)
		}
	}
	return d.freeValue(1)
}

// refLax reports whether every violation is one where the reference is
// known to be wrong: a URI with a character RFC 3986 does not allow (a
// space, anything not ASCII), which the reference accepts because net/url
// does.
func refLax(vs []string) bool {
	for _, v := range vs {
		_, got, ok := strings.Cut(v, "must be an absolute URI")
		if !ok || !strings.ContainsFunc(got[strings.Index(got, "got"):], func(r rune) bool { return r == ' ' || r > 0x7f }) {
			return false
		}
	}
	return len(vs) > 0
}

// tooBig names the deliberate strictness v meets, if any: an integer
// beyond int64 or a number beyond float64 where the schema wants one.
func tooBig(s *spec.Schema, batch bool, v any, inexact ...bool) string {
	if batch {
		m, _ := v.(map[string]any)
		items, _ := m["items"].([]any)
		for _, it := range items {
			if why := tooBig(s, false, it, inexact...); why != "" {
				return why
			}
		}
		return ""
	}
	r := s.Resolved()
	if r.Union != nil {
		for _, a := range r.Union.Alts {
			if why := tooBig(a, false, v, inexact...); why != "" {
				return why
			}
		}
		return ""
	}
	switch x := v.(type) {
	case json.Number:
		d, _ := new(big.Rat).SetString(string(x))
		switch r.Type {
		case spec.TypeInteger:
			if d.IsInt() && !d.Num().IsInt64() {
				return "integer beyond int64"
			}
		case spec.TypeNumber:
			f, err := strconv.ParseFloat(string(x), 64)
			if err != nil {
				return "number beyond float64"
			}
			if len(inexact) > 0 && new(big.Rat).SetFloat64(f).Cmp(d) != 0 {
				return "number not exactly a float64"
			}
		}
	case []any:
		if r.Type == spec.TypeArray {
			for _, it := range x {
				if why := tooBig(r.Items, false, it, inexact...); why != "" {
					return why
				}
			}
		}
	case map[string]any:
		if r.Type == spec.TypeObject {
			for k, it := range x {
				var ps *spec.Schema
				if p := r.Property(k); p != nil {
					ps = p.Schema
				} else {
					ps = r.AdditionalPropertiesSchema
				}
				if ps != nil {
					if why := tooBig(ps, false, it, inexact...); why != "" {
						return why
					}
				}
			}
		}
	}
	return ""
}

// batchItems is the params schema of the tool a batch tool wraps.
func batchItems(f *spec.File, name string) *spec.Schema {
	for _, tl := range f.Tools {
		if tl.Batch != nil && tl.Batch.Name == name {
			return tl.Params
		}
	}
	panic("no tool " + name)
}

func trimBatch(s *spec.Schema, v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	items, ok := m["items"].([]any)
	if !ok {
		return v
	}
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = trimmed(s, it)
	}
	return map[string]any{"items": out}
}

func expectBatch(s *spec.Schema, v any) any {
	items := v.(map[string]any)["items"].([]any)
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = expect(s, it)
	}
	return map[string]any{"items": out}
}

// trimmed is v with the strings of trimmed schemas trimmed: what the
// decoder checks (trim: true trims before any check), so what the
// reference must see.
func trimmed(s *spec.Schema, v any) any {
	r := s.Resolved()
	if r.Union != nil {
		return v // alternatives hold no trim (union_test.go)
	}
	switch x := v.(type) {
	case string:
		if r.Type == spec.TypeString && r.Trim {
			return strings.TrimSpace(x)
		}
	case []any:
		if r.Type != spec.TypeArray {
			return v
		}
		out := make([]any, len(x))
		for i, it := range x {
			out[i] = trimmed(r.Items, it)
		}
		return out
	case map[string]any:
		if r.Type != spec.TypeObject {
			return v
		}
		out := map[string]any{}
		for k, it := range x {
			if p := r.Property(k); p != nil {
				out[k] = trimmed(p.Schema, it)
			} else if r.AdditionalPropertiesSchema != nil {
				out[k] = trimmed(r.AdditionalPropertiesSchema, it)
			} else {
				out[k] = it
			}
		}
		return out
	}
	return v
}

// expect is the value the decoder must produce from v (which the reference
// accepts): trimmed strings, every declared property present (null when
// absent without a default), defaults filled in.
func expect(s *spec.Schema, v any) any {
	r := s.Resolved()
	if v == nil {
		return nil
	}
	if r.Union != nil {
		if a := chosen(r, v); a != nil {
			return expect(a, v)
		}
		return v
	}
	switch r.Type {
	case spec.TypeString:
		if r.Trim {
			return strings.TrimSpace(v.(string))
		}
	case spec.TypeArray:
		x := v.([]any)
		out := make([]any, len(x))
		for i, it := range x {
			out[i] = expect(r.Items, it)
		}
		return out
	case spec.TypeObject:
		x := v.(map[string]any)
		out := map[string]any{}
		for k, it := range x {
			switch {
			case r.Property(k) != nil:
				out[k] = expect(r.Property(k).Schema, it)
			case r.AdditionalPropertiesSchema != nil:
				out[k] = expect(r.AdditionalPropertiesSchema, it)
			default:
				out[k] = it
			}
		}
		for _, p := range r.Properties {
			if _, ok := x[p.Name]; ok {
				continue
			}
			def, has := p.Schema.Default, p.Schema.HasDefault
			if !has && p.Schema.RefType != nil && p.Schema.Resolved().HasDefault {
				def, has = p.Schema.Resolved().Default, true
			}
			if has {
				out[p.Name] = expect(p.Schema, mustParse(jsonText(def)))
			} else {
				out[p.Name] = nil
			}
		}
		return out
	}
	return v
}

func expectAny(s *spec.Schema, batch bool, v any) any {
	if batch {
		if m, ok := v.(map[string]any); ok {
			if _, ok := m["items"].([]any); ok {
				return expectBatch(s, v)
			}
		}
		return v
	}
	return expect(s, v)
}

// isTime reports whether r's values decode to time.Time.
func isTime(r *spec.Schema) bool {
	return r.Type == spec.TypeString && r.Format == "date-time" && r.Pattern == "" && r.MinLength == nil && r.MaxLength == nil && len(r.Enum) == 0
}

// differ says how got differs from want ("" if it does not).
func differ(s *spec.Schema, batch bool, want, got any) string {
	if batch {
		w, g := want.(map[string]any)["items"].([]any), got.(map[string]any)["items"].([]any)
		if len(w) != len(g) {
			return "item counts differ"
		}
		for i := range w {
			if why := differ(s, false, w[i], g[i]); why != "" {
				return "items[" + strconv.Itoa(i) + "]: " + why
			}
		}
		return ""
	}
	r := s.Resolved()
	if want == nil || got == nil {
		if want == nil && got == nil {
			return ""
		}
		return "null against non-null"
	}
	if r.Union != nil {
		return differUnion(r, want, got)
	}
	switch r.Type {
	case spec.TypeString:
		w, g := want.(string), got.(string)
		if isTime(r) {
			wt, ok1 := parseTime(w)
			gt, err := time.Parse(time.RFC3339Nano, g)
			if !ok1 || err != nil || !wt.Equal(gt) {
				return "instants differ: " + w + " and " + g
			}
			return ""
		}
		if w != g {
			return strconv.Quote(w) + " != " + strconv.Quote(g)
		}
	case spec.TypeInteger:
		if cmpNum(string(want.(json.Number)), string(got.(json.Number))) != 0 {
			return "integers differ"
		}
	case spec.TypeNumber:
		w, _ := strconv.ParseFloat(string(want.(json.Number)), 64)
		g, _ := strconv.ParseFloat(string(got.(json.Number)), 64)
		if w != g {
			return "numbers differ"
		}
	case spec.TypeBoolean:
		if want != got {
			return "booleans differ"
		}
	case spec.TypeArray:
		w, g := want.([]any), got.([]any)
		if len(w) != len(g) {
			return "lengths differ"
		}
		for i := range w {
			if why := differ(r.Items, false, w[i], g[i]); why != "" {
				return "[" + strconv.Itoa(i) + "]: " + why
			}
		}
	case spec.TypeObject:
		w, g := want.(map[string]any), got.(map[string]any)
		if len(w) != len(g) {
			return fmt.Sprintf("keys differ: %q and %q", sortedKeys(w), sortedKeys(g))
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return "missing key " + strconv.Quote(k)
			}
			var why string
			switch {
			case r.Property(k) != nil:
				why = differ(r.Property(k).Schema, false, wv, gv)
			case r.AdditionalPropertiesSchema != nil:
				why = differ(r.AdditionalPropertiesSchema, false, wv, gv)
			default:
				if !jsonEqual(wv, gv) {
					why = "free-form values differ"
				}
			}
			if why != "" {
				return "." + k + ": " + why
			}
		}
	}
	return ""
}

// parseTime parses an RFC 3339 date-time, a leap second as the next
// second (as the decoder normalises it).
func parseTime(s string) (time.Time, bool) {
	leap := len(s) > 19 && s[17:19] == "60"
	if leap {
		s = s[:17] + "59" + s[19:]
	}
	s = strings.ToUpper(s)
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return t, false
	}
	if leap {
		t = t.Add(time.Second)
	}
	return t, true
}

// jsonEqual is JSON Schema equality of two values.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool, string:
		return a == b
	case json.Number:
		y, ok := b.(json.Number)
		return ok && cmpNum(string(x), string(y)) == 0
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// mustParse parses JSON text with numbers kept as json.Number.
func mustParse(text string) any {
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		panic(fmt.Sprintf("%v: %s", err, text))
	}
	return v
}

// reparse is v as the reference reads an instance.
func reparse(v any) any { return mustParse(jsonText(v)) }

// refDoc is a drawn schema as a JSON Schema document for the reference:
// named types reachable as #/types/<Name>, a nullable $ref as anyOf, no
// trim.
func (d *drawer) refDoc(s schema) any {
	doc := toRef(s).(map[string]any)
	types := map[string]any{}
	for k, v := range d.types {
		types[k] = toRef(v)
	}
	doc["types"] = types
	return reparse(doc)
}

func toRef(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			switch k {
			case "trim", "nullable":
			case "properties":
				props := map[string]any{}
				for pk, pv := range e.(map[string]any) {
					props[pk] = toRef(pv)
				}
				out[k] = props
			case "items", "additionalProperties":
				out[k] = toRef(e)
			case "oneOf", "anyOf":
				var alts []any
				for _, a := range e.([]any) {
					alts = append(alts, toRef(a))
				}
				out[k] = alts
			case "discriminator": // OpenAPI's: the consts say it
			default:
				out[k] = e
			}
		}
		if out["type"] == "object" || typeOfAny(out) == "object" {
			if _, ok := out["additionalProperties"]; !ok {
				if _, props := out["properties"]; props {
					out["additionalProperties"] = false
				} else {
					out["additionalProperties"] = false
				}
			}
		}
		if n, _ := x["nullable"].(bool); n {
			delete(out, "default")
			return map[string]any{"anyOf": []any{map[string]any{"type": "null"}, out}}
		}
		return out
	}
	return v
}

func typeOfAny(m map[string]any) string {
	if t, ok := m["type"].([]any); ok {
		s, _ := t[0].(string)
		return s
	}
	s, _ := m["type"].(string)
	return s
}

// compileRef compiles a JSON Schema document with the reference validator,
// formats asserted.
func compileRef(doc any) *jsonschema.Schema {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("mem:///s.json", doc); err != nil {
		panic(err)
	}
	s, err := c.Compile("mem:///s.json")
	if err != nil {
		panic(fmt.Sprintf("%v: %s", err, jsonText(doc)))
	}
	return s
}

func repoRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
