package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportOpenAPI runs toolgen import openapi on the importer's 3.1 test
// document: it writes the spec and the report beside it, prints the report,
// and the spec generates.
func TestImportOpenAPI(t *testing.T) {
	doc, err := filepath.Abs(filepath.Join("..", "..", "spec", "openapi", "testdata", "features", "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	code, _, stderr := cliRun(t, dir, "import", "openapi", doc, "-o", "shop/shop.tools.yaml", "-headers",
		"-tag", "orders", "-exclude-operation", "deleteOrder", "-fields", "getOrder=id,status", "-prefix", "-")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	spec, err := os.ReadFile(filepath.Join(dir, "shop", "shop.tools.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile(filepath.Join(dir, "shop", "shop.import-report.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, string(report)) || !strings.HasPrefix(string(report), "toolgen import openapi openapi.yaml: 10 operations, 4 selected, 4 imported, 0 skipped") {
		t.Errorf("report\n%s\nstderr\n%s", report, stderr)
	}
	for _, want := range []string{"provider: shop\n", "  - name: list_orders\n", "  - name: fetch_order\n", "X-Request-Id: {in: header}"} {
		if !strings.Contains(string(spec), want) {
			t.Errorf("the spec lacks %q", want)
		}
	}
	if strings.Contains(string(spec), "delete_order") {
		t.Error("deleteOrder was excluded")
	}
	if code, _, stderr := cliRun(t, dir, "generate", "./shop"); code != exitOK {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
}

func TestImportOpenAPIUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"import", "openapi"}, exitUsage, "give one OpenAPI document"},
		{[]string{"import", "openapi", "doc.yaml"}, exitUsage, "-o FILE.tools.yaml is required"},
		{[]string{"import", "openapi", "doc.yaml", "-o", "x.yaml"}, exitUsage, "a spec file's name ends in .tools.yaml"},
		{[]string{"import", "openapi", "doc.yaml", "-fields", "nothing"}, exitUsage, "want OPERATION=field"},
		{[]string{"import", "openapi", "missing.yaml", "-o", "x.tools.yaml"}, exitError, "missing.yaml"},
		{[]string{"import", "openapi", "-h"}, exitOK, ""},
	} {
		code, stdout, stderr := cliRun(t, dir, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, stderr)
		}
		if tc.code == exitOK && !strings.HasPrefix(stdout, "Usage: toolgen import openapi") {
			t.Errorf("-h: %q", stdout)
		}
	}
}
