package openapi

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// stripeSpec is stripe-mock's own OpenAPI document, in the pinned module.
func stripeSpec(t testing.TB) string {
	t.Helper()
	home, _ := os.UserHomeDir()
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = filepath.Join(home, "go")
	}
	p := filepath.Join(gopath, "pkg", "mod", "github.com", "stripe", "stripe-mock@v0.180.0", "embedded", "openapi", "spec3.json")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("stripe-mock's spec3.json is not in the module cache (go mod download github.com/stripe/stripe-mock@v0.180.0): %v", err)
	}
	return p
}

func TestStripePhases(t *testing.T) {
	p := stripeSpec(t)
	t0 := time.Now()
	doc, err := Load(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Now()
	doc.Validate(context.Background())
	t2 := time.Now()
	_, err = ImportDoc(context.Background(), doc, p, Options{Provider: "stripe"})
	t3 := time.Now()
	t.Logf("load %v validate %v import %v err %v", t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), err)
}

func BenchmarkStripeImportOnly(b *testing.B) {
	p := stripeSpec(b)
	doc, err := Load(context.Background(), p)
	if err != nil {
		b.Fatal(err)
	}
	im := &importer{doc: doc, opts: Options{Provider: "stripe"}, report: &Report{}}
	_ = im
	for b.Loop() {
		im := &importer{doc: doc, opts: Options{Provider: "stripe"}, report: &Report{Document: "spec3.json"}}
		im.defaults()
		im.conv = newConverter(im)
		if _, err := im.run(); err != nil {
			b.Fatal(err)
		}
	}
}
