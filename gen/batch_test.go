package gen

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/spec"
)

const batchSpec = `toolgen: 1
provider: calc
package: main
tools:
  - name: calc_square
    description: Square a number.
    read_only: true
    status: "Squaring {n}"
    params:
      n: {type: integer, minimum: 0, maximum: 1000}
    required: [n]
    batch: {max_items: 3, max_concurrency: 2}
  - name: calc_negate
    description: Negate a number.
    params:
      n: {type: integer}
    required: [n]
`

// batchMain implements the generated Executor and dispatches the batch tool.
const batchMain = `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/toolgen/toolgen/runtime"
)

type impl struct{}

func (impl) Square(ctx context.Context, call *runtime.Call, args *SquareArgs) (runtime.Result, error) {
	return runtime.Text(strconv.FormatInt(args.N*args.N, 10)), nil
}

func (impl) Negate(ctx context.Context, call *runtime.Call, args *NegateArgs) (runtime.Result, error) {
	return runtime.Text(strconv.FormatInt(-args.N, 10)), nil
}

func main() {
	reg := runtime.NewRegistry(runtime.Options{})
	if err := reg.AddModule(Module(impl{})); err != nil {
		panic(err)
	}
	for _, t := range reg.Executable() {
		fmt.Println(t.Name, t.Provider, t.Flags.ReadOnly)
	}
	for _, args := range []string{` + "`" + `{"items":[{"n":2},{"n":3}]}` + "`" + `, ` + "`" + `{"items":[{"n":1},{"n":-1},{"n":2},{"n":3}]}` + "`" + `} {
		out, err := reg.Dispatch(context.Background(), nil, runtime.ToolCall{ID: "1", Name: ToolSquareBatch, Arguments: json.RawMessage(args)})
		if err != nil {
			panic(err)
		}
		fmt.Println(out.Label)
		fmt.Println(out.Result.String())
	}
}
`

// TestBatchToolGenerated: a tool with batch: gets a batch tool in Module,
// built by runtime.MustParallelize over the tool's variable with the spec's
// options, and a name constant; the batch's items are decoded by the tool's
// generated decoder. The generated code is built and run.
func TestBatchToolGenerated(t *testing.T) {
	f, err := spec.Parse("calc.tools.yaml", []byte(batchSpec))
	if err != nil {
		t.Fatal(err)
	}
	src, err := Code(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\tToolSquareBatch = \"calc_square_batch\"\n",
		"\tsquareBound := bind(&squareTool, impl, runSquare)\n",
		// MaxResultBytes is the runtime's default, so it is left out.
		`runtime.MustParallelize(squareBound, runtime.ParallelizeOptions{
				Name:           ToolSquareBatch,
				MaxItems:       3,
				MaxConcurrency: 2,
			})`,
	} {
		if !strings.Contains(string(src), want) {
			t.Fatalf("generated code lacks %s:\n%s", want, src)
		}
	}
	if testing.Short() {
		t.Skip("runs the go command")
	}
	tmp, err := os.MkdirTemp("testdata", "batch-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, "calc_tools.gen.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "main.go"), []byte(batchMain), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "run", "./"+filepath.ToSlash(tmp)).CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	wantOut := `calc_square calc true
calc_negate calc false
calc_square_batch calc true
Squaring 2 (+1 more)
[{"index":0,"input":{"n":2},"ok":true,"output":"4"},{"index":1,"input":{"n":3},"ok":true,"output":"9"}]
calc_square_batch
Error: invalid arguments for calc_square_batch:
- $.items: must have at most 3 items, got 4
`
	if got := string(out); !strings.HasPrefix(got, wantOut) {
		t.Errorf("output\n got %s\nwant it to start with %s", got, wantOut)
	}
}

// TestBatchOptions: the options of a batch tool as Module writes them: the
// name always (as its constant), the others only when they differ from the
// runtime's defaults, and a byte count as a shift with its unit when it is a
// whole number of KiB, MiB or GiB. A custom batch name gets the constant of
// its own Go name.
func TestBatchOptions(t *testing.T) {
	for _, c := range []struct {
		batch string
		want  []string
	}{
		{"true", []string{
			"ToolFetchBatch = \"demo_fetch_batch\"",
			"runtime.MustParallelize(fetchBound, runtime.ParallelizeOptions{\n\t\t\t\tName: ToolFetchBatch,\n\t\t\t}),",
		}},
		{"{max_items: 50, max_concurrency: 8, max_result_bytes: 20971520}", []string{
			"runtime.ParallelizeOptions{\n\t\t\t\tName: ToolFetchBatch,\n\t\t\t}),",
		}},
		{"{name: demo_fetch_many, description: Fetch many., max_result_bytes: 1048576}", []string{
			"ToolFetchMany = \"demo_fetch_many\"",
			"Name:           ToolFetchMany,",
			"Description:    \"Fetch many.\",",
			"MaxResultBytes: 1 << 20, // 1 MiB",
		}},
		{"{max_result_bytes: 524288}", []string{"MaxResultBytes: 512 << 10, // 512 KiB"}},
		{"{max_result_bytes: 1073741824}", []string{"MaxResultBytes: 1 << 30, // 1 GiB"}},
		{"{max_result_bytes: 1000}", []string{"MaxResultBytes: 1000,\n"}},
	} {
		src := "toolgen: 1\nprovider: demo\ntools:\n  - name: demo_fetch\n    description: Fetch one.\n    batch: " + c.batch + "\n"
		f, err := spec.Parse("demo.tools.yaml", []byte(src))
		if err != nil {
			t.Fatalf("batch: %s: %v", c.batch, err)
		}
		code, err := Code(f)
		if err != nil {
			t.Fatalf("batch: %s: %v", c.batch, err)
		}
		for _, w := range c.want {
			if !strings.Contains(string(code), w) {
				t.Errorf("batch: %s: generated code lacks %q:\n%s", c.batch, w, code)
			}
		}
		for _, never := range []string{"tools[", "MaxItems:       50", "MaxConcurrency: 8", "20971520"} {
			if strings.Contains(string(code), never) {
				t.Errorf("batch: %s: generated code has %q", c.batch, never)
			}
		}
	}
}
