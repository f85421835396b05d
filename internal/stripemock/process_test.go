package stripemock

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// findOrSkip returns the stripe-mock binary, skipping the test without it
// (failing it with CI=true), as Start does.
func findOrSkip(t *testing.T) string {
	t.Helper()
	bin, err := Find()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%v; run .ci/stripe-mock.sh", err)
		}
		t.Skipf("%v; run .ci/stripe-mock.sh to install it", err)
	}
	return bin
}

// answers reports whether stripe-mock at url serves an authenticated list.
func answers(url string) bool {
	req, _ := http.NewRequest(http.MethodGet, url+"/v1/customers?limit=1", nil)
	req.SetBasicAuth(TestKey, "")
	resp, err := (&http.Client{Timeout: 2 * time.Second}).Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

func TestStartProcessServesUntilStopped(t *testing.T) {
	bin := findOrSkip(t)
	url, stop, err := StartProcess(context.Background(), bin)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Errorf("url = %q, want a loopback http URL", url)
	}
	if !answers(url) {
		t.Fatalf("stripe-mock at %s does not answer", url)
	}
	stop()
	stop() // a second stop is harmless
	if answers(url) {
		t.Fatalf("stripe-mock still answers at %s after stop", url)
	}
}

func TestStartProcessFindsTheBinary(t *testing.T) {
	findOrSkip(t)
	url, stop, err := StartProcess(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if !answers(url) {
		t.Fatalf("stripe-mock at %s does not answer", url)
	}
}

func TestStartProcessStopsWhenContextEnds(t *testing.T) {
	bin := findOrSkip(t)
	ctx, cancel := context.WithCancel(context.Background())
	url, stop, err := StartProcess(ctx, bin)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	cancel()
	deadline := time.Now().Add(10 * time.Second)
	for answers(url) {
		if time.Now().After(deadline) {
			t.Fatalf("stripe-mock still answers at %s 10s after its context ended", url)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestStartProcessErrors(t *testing.T) {
	dir := t.TempDir()

	t.Run("context already done", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, _, err := StartProcess(ctx, filepath.Join(dir, "never-run")); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})

	t.Run("Find fails", func(t *testing.T) {
		t.Setenv("STRIPE_MOCK_BIN", filepath.Join(dir, "missing"))
		_, _, err := StartProcess(context.Background(), "")
		if err == nil || !strings.Contains(err.Error(), "STRIPE_MOCK_BIN") {
			t.Fatalf("err = %v, want Find's error about STRIPE_MOCK_BIN", err)
		}
	})

	t.Run("binary that cannot start", func(t *testing.T) {
		_, _, err := StartProcess(context.Background(), filepath.Join(dir, "missing"))
		if err == nil || !strings.Contains(err.Error(), "starting") {
			t.Fatalf("err = %v, want a start error", err)
		}
	})

	t.Run("binary that exits", func(t *testing.T) {
		bin := writeScript(t, "#!/bin/sh\necho 'unknown flag -http-addr' >&2\nexit 2\n")
		_, _, err := StartProcess(context.Background(), bin)
		if err == nil || !strings.Contains(err.Error(), "unknown flag -http-addr") {
			t.Fatalf("err = %v, want the early exit with its stderr", err)
		}
	})

	t.Run("context ends while starting", func(t *testing.T) {
		// A server that never says where it listens; it exits by itself
		// soon after, so nothing outlives the test for long.
		bin := writeScript(t, "#!/bin/sh\nexec sleep 2\n")
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, _, err := StartProcess(ctx, bin)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want context.DeadlineExceeded", err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("StartProcess returned %v after its context ended", d)
		}
	})
}
