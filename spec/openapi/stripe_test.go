package openapi

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/toolgen/toolgen/gen"
	"github.com/toolgen/toolgen/spec"
)

// stripeSpec is stripe-mock's own OpenAPI document, in the pinned module.
func stripeSpec(t testing.TB) string {
	t.Helper()
	if raceEnabled {
		t.Skip("the whole Stripe document takes minutes under -race: make test runs this test in its race-free pass")
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		home, _ := os.UserHomeDir()
		gopath = filepath.Join(home, "go")
	}
	p := filepath.Join(filepath.SplitList(gopath)[0], "pkg", "mod", "github.com", "stripe", "stripe-mock@v0.180.0", "embedded", "openapi", "spec3.json")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("stripe-mock's spec3.json is not in the module cache (go mod download github.com/stripe/stripe-mock@v0.180.0, or run .ci/stripe-mock.sh): %v", err)
	}
	return p
}

// stripeSelection are the options internal/openapitest/stripeapi was
// imported with.
var stripeSelection = Options{
	Provider: "stripe", Package: "stripeapi",
	Paths: []string{
		"/v1/customers", "/v1/customers/{customer}", "/v1/invoices", "/v1/invoices/{invoice}", "/v1/invoices/{invoice}/finalize",
		"/v1/invoiceitems", "/v1/prices", "/v1/prices/{price}", "/v1/products", "/v1/payment_links",
		"/v1/payment_links/{payment_link}", "/v1/payment_links/{payment_link}/line_items",
	},
}

// TestImportedPackagesCurrent re-imports the documents of the packages
// under internal/openapitest and compares with their committed specs and
// reports (go test ./spec/openapi -update rewrites them; then run
// toolgen generate ./internal/openapitest/...).
func TestImportedPackagesCurrent(t *testing.T) {
	for _, c := range []struct {
		dir, doc string
		opts     Options
	}{
		{"stripeapi", stripeSpec(t), stripeSelection},
		{"tasksapi", filepath.Join("testdata", "v31", "openapi.yaml"), Options{Provider: "tasks", Package: "tasksapi"}},
	} {
		t.Run(c.dir, func(t *testing.T) {
			res, err := Import(context.Background(), c.doc, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join("..", "..", "internal", "openapitest", c.dir)
			compare(t, filepath.Join(dir, c.dir+".tools.yaml"), res.Spec)
			compare(t, filepath.Join(dir, c.dir+".import-report.txt"), []byte(res.Report.String()))
		})
	}
}

// TestStripeWholeDocument imports all of stripe-mock's spec3.json and
// generates its Go code (compiling it takes minutes and gigabytes: make
// openapi-stripe does that).
func TestStripeWholeDocument(t *testing.T) {
	res, err := Import(context.Background(), stripeSpec(t), Options{Provider: "stripe"})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Report
	if r.Operations < 490 || r.Imported < r.Operations-5 || len(r.Skipped) != r.Operations-r.Imported {
		t.Errorf("report: %d operations, %d imported, %d skipped", r.Operations, r.Imported, len(r.Skipped))
	}
	for _, n := range r.Skipped {
		if n.Pointer == "" || n.Reason == "" || n.Operation == "" {
			t.Errorf("skipped operation without a pointer or reason: %+v", n)
		}
	}
	f, err := spec.Parse(filepath.Join("stripe", "stripe.tools.yaml"), res.Spec)
	if err != nil {
		t.Fatal(err)
	}
	code, err := gen.Code(f)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d tools, %d types; spec %d bytes, generated code %d bytes; %d skipped, %d notes",
		len(f.Tools), len(f.Types), len(res.Spec), len(code), len(r.Skipped), len(r.Notes))
}

// TestStripeWholeBuild compiles the generated code of the whole Stripe
// document: minutes and gigabytes, so only when TOOLGEN_OPENAPI_STRIPE_BUILD
// is set (make openapi-stripe). It logs the go build time and peak memory.
func TestStripeWholeBuild(t *testing.T) {
	if os.Getenv("TOOLGEN_OPENAPI_STRIPE_BUILD") == "" {
		t.Skip("set TOOLGEN_OPENAPI_STRIPE_BUILD=1 (make openapi-stripe) to compile the whole Stripe import")
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	dir := filepath.Join(root, "internal", "openapitest", "_stripefull")
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	start := time.Now()
	res, err := Import(context.Background(), stripeSpec(t), Options{Provider: "stripe", Package: "stripefull"})
	if err != nil {
		t.Fatal(err)
	}
	specPath := filepath.Join(dir, "stripefull.tools.yaml")
	if err := os.WriteFile(specPath, res.Spec, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := spec.Load(specPath)
	if err != nil {
		t.Fatal(err)
	}
	out, err := gen.Generate(f, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, of := range out.Files {
		if err := os.WriteFile(of.Path, of.Content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("import + generate: %v", time.Since(start))
	cmd := exec.Command("go", "build", "./internal/openapitest/_stripefull")
	cmd.Dir = root
	start = time.Now()
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss // KiB on Linux: the largest child (the compiler)
	}
	t.Logf("go build of %d tools: %v, peak RSS %d MiB", len(f.Tools), time.Since(start), rss/1024)
}
