package stripemock

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
