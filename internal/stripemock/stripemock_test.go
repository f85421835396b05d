package stripemock

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	stripego "github.com/stripe/stripe-go/v76"
)

func TestStartServesStripeAPI(t *testing.T) {
	var url string
	t.Run("server", func(t *testing.T) {
		url = Start(t)
		if !strings.HasPrefix(url, "http://127.0.0.1:") {
			t.Fatalf("url = %q, want a loopback http URL", url)
		}
		req, _ := http.NewRequest(http.MethodGet, url+"/v1/charges?limit=1", nil)
		req.SetBasicAuth(TestKey, "")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /v1/charges: %s", resp.Status)
		}
	})
	if url == "" {
		return // skipped: no binary
	}
	// The subtest's cleanup stopped the server.
	if resp, err := http.Get(url + "/v1/charges"); err == nil {
		resp.Body.Close()
		t.Fatalf("stripe-mock still answers at %s after cleanup", url)
	}
}

// TestServesStripeGoAPIVersion: the server answers requests made at
// stripe-go v76's API version and, started with -strict-version-check,
// refuses any other version.
func TestServesStripeGoAPIVersion(t *testing.T) {
	url := Start(t)
	get := func(version string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, url+"/v1/invoices?limit=1", nil)
		req.SetBasicAuth(TestKey, "")
		req.Header.Set("Stripe-Version", version)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	if code, body := get(stripego.APIVersion); code != http.StatusOK {
		t.Errorf("Stripe-Version %s: HTTP %d %s", stripego.APIVersion, code, body)
	}
	if code, body := get("2020-08-27"); code != http.StatusBadRequest || !strings.Contains(body, "2020-08-27") {
		t.Errorf("Stripe-Version 2020-08-27: HTTP %d %s; want 400 (strict version check)", code, body)
	}
	if bin, err := Find(); err == nil {
		if v := moduleVersion(bin); v != "" && v != Version {
			t.Logf("%s is stripe-mock %s, not the pinned %s", bin, v, Version)
		}
	}
}

func TestWaitReadyReportsAVersionMismatchAtOnce(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Get("Stripe-Version")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"message":"Version sent in Stripe-Version header doesn't match version in OpenAPI specification '2026-08-26.dahlia'","type":"invalid_request_error"}}`)
	}))
	defer srv.Close()
	deadline := time.NewTimer(startTimeout)
	defer deadline.Stop()
	start := time.Now()
	err := waitReady(context.Background(), srv.URL, deadline.C, make(chan struct{}))
	if err == nil || !strings.Contains(err.Error(), "2026-08-26.dahlia") || !strings.Contains(err.Error(), Version) {
		t.Fatalf("err = %v; want the server's message and the pinned version", err)
	}
	if got != stripego.APIVersion {
		t.Errorf("probe sent Stripe-Version %q, want %q", got, stripego.APIVersion)
	}
	if d := time.Since(start); d > startTimeout/2 {
		t.Errorf("waitReady took %v to give up on a refusal", d)
	}
}

func TestPickPrefersThePinnedVersion(t *testing.T) {
	versions := map[string]string{"/a/stripe-mock": "v0.203.0", "/b/stripe-mock": Version, "/c/stripe-mock": ""}
	version := func(bin string) string { return versions[bin] }
	for _, c := range []struct {
		bins []string
		want string
		ok   bool
	}{
		{[]string{"/a/stripe-mock", "/b/stripe-mock"}, "/b/stripe-mock", true},
		{[]string{"/c/stripe-mock", "/a/stripe-mock"}, "/c/stripe-mock", true},
		{[]string{"/b/stripe-mock", "/a/stripe-mock"}, "/b/stripe-mock", true},
		{nil, "", false},
	} {
		if got, ok := pick(c.bins, version); got != c.want || ok != c.ok {
			t.Errorf("pick(%q) = %q, %v; want %q, %v", c.bins, got, ok, c.want, c.ok)
		}
	}
}

func TestModuleVersion(t *testing.T) {
	if v := moduleVersion(writeScript(t, "#!/bin/sh\n")); v != "" {
		t.Errorf("moduleVersion of a shell script = %q, want empty", v)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	if v := moduleVersion(exe); v != "" {
		t.Errorf("moduleVersion of the test binary (not stripe-mock) = %q, want empty", v)
	}
}

func TestTwoServersAtOnce(t *testing.T) {
	a, b := Start(t), Start(t)
	if a == b {
		t.Fatalf("two servers share %s", a)
	}
}

func TestFindHonoursEnv(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "stripe-mock")
	if err := os.WriteFile(notExec, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("STRIPE_MOCK_BIN", notExec)
	if _, err := Find(); err == nil || !strings.Contains(err.Error(), "not an executable") {
		t.Fatalf("Find with a non-executable STRIPE_MOCK_BIN: err = %v", err)
	}
	fake := writeScript(t, "#!/bin/sh\nexit 0\n")
	t.Setenv("STRIPE_MOCK_BIN", fake)
	if p, err := Find(); err != nil || p != fake {
		t.Fatalf("Find = %q, %v; want %q", p, err, fake)
	}
}

func TestRunReportsEarlyExit(t *testing.T) {
	bin := writeScript(t, "#!/bin/sh\necho 'bad flag' >&2\nexit 3\n")
	_, _, err := run(bin)
	if err == nil || !strings.Contains(err.Error(), "exited before listening") || !strings.Contains(err.Error(), "bad flag") {
		t.Fatalf("err = %v; want early exit with stderr", err)
	}
}

// recorder is a testing.TB that records Skip and Fatal instead of acting.
type recorder struct {
	testing.TB
	skipped, failed string
}

type stopped struct{}

func (r *recorder) Helper() {}
func (r *recorder) Skipf(format string, a ...any) {
	r.skipped = fmt.Sprintf(format, a...)
	panic(stopped{})
}
func (r *recorder) Fatalf(format string, a ...any) {
	r.failed = fmt.Sprintf(format, a...)
	panic(stopped{})
}

func startRecorded(t *testing.T) *recorder {
	r := &recorder{TB: t}
	func() {
		defer func() {
			if v := recover(); v != nil {
				if _, ok := v.(stopped); !ok {
					panic(v)
				}
			}
		}()
		Start(r)
	}()
	return r
}

func TestMissingBinarySkipsLocallyFailsInCI(t *testing.T) {
	t.Setenv("STRIPE_MOCK_BIN", filepath.Join(t.TempDir(), "missing"))
	t.Setenv("CI", "")
	if r := startRecorded(t); r.skipped == "" || r.failed != "" || !strings.Contains(r.skipped, ".ci/stripe-mock.sh") {
		t.Fatalf("locally: skipped=%q failed=%q; want a skip naming .ci/stripe-mock.sh", r.skipped, r.failed)
	}
	t.Setenv("CI", "true")
	if r := startRecorded(t); r.failed == "" || r.skipped != "" || !strings.Contains(r.failed, ".ci/stripe-mock.sh") {
		t.Fatalf("in CI: skipped=%q failed=%q; want a failure naming .ci/stripe-mock.sh", r.skipped, r.failed)
	}
}

func writeScript(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "stripe-mock")
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestScriptInstallsVersion: .ci/stripe-mock.sh installs the pinned Version.
func TestScriptInstallsVersion(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", ".ci", "stripe-mock.sh"))
	if err != nil {
		t.Fatal(err)
	}
	want := `STRIPE_MOCK_VERSION="${STRIPE_MOCK_VERSION:-` + Version + `}"`
	if !strings.Contains(string(b), want) {
		t.Errorf(".ci/stripe-mock.sh does not install %s: no line %s", Version, want)
	}
}
