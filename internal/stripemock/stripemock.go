// Package stripemock starts stripe-mock, the Stripe API mock server that
// stripe-go's own tests use, for tests in this repository.
//
// The binary is installed by .ci/stripe-mock.sh (pinned version); tests find
// it through $STRIPE_MOCK_BIN, $PATH or $(go env GOPATH)/bin. Without it a
// test is skipped locally and fails when CI=true.
//
// The server is started with -strict-version-check, so it refuses any
// request whose Stripe-Version header is not the API version of its OpenAPI
// spec: a stripe-mock that does not serve stripe-go v76's API version
// (2023-10-16) fails to start instead of answering with objects of another
// API version.
package stripemock

import (
	"bufio"
	"bytes"
	"context"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"fmt"
	"go/build"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	stripego "github.com/stripe/stripe-go/v76"
)

// Version is the stripe-mock version .ci/stripe-mock.sh installs: a release
// (January 2024) whose OpenAPI spec is API version 2023-10-16, the version
// stripe-go v76 sends (stripe.APIVersion).
const Version = "v0.180.0"

// TestKey is a test-mode secret key; stripe-mock accepts any key of this form.
const TestKey = "sk_test_stripemock"

// startTimeout bounds how long Start waits for stripe-mock to listen and answer.
const startTimeout = 30 * time.Second

// Start starts stripe-mock on free loopback ports, waits until it answers,
// and returns its HTTP base URL ("http://127.0.0.1:<port>"). The server is
// stopped when the test ends. A missing binary skips the test, or fails it
// when the environment variable CI is "true".
func Start(t testing.TB) string {
	t.Helper()
	bin, err := Find()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("stripemock: %v; run .ci/stripe-mock.sh", err)
		}
		t.Skipf("stripemock: %v; run .ci/stripe-mock.sh to install it", err)
	}
	url, stop, err := run(bin)
	if err != nil {
		t.Fatalf("stripemock: %v", err)
	}
	t.Cleanup(stop)
	return url
}

// ErrNotFound is returned by Find when no stripe-mock binary is found.
var ErrNotFound = errors.New("stripe-mock binary not found (looked at $STRIPE_MOCK_BIN, $PATH and $(go env GOPATH)/bin)")

// Find returns the path of the stripe-mock binary: $STRIPE_MOCK_BIN if set
// (it must exist), else the first of stripe-mock on $PATH and in
// $(go env GOPATH)/bin that was built from the pinned Version, else the
// first of them that exists.
func Find() (string, error) {
	if p := os.Getenv("STRIPE_MOCK_BIN"); p != "" {
		if isExecutable(p) {
			return p, nil
		}
		return "", fmt.Errorf("STRIPE_MOCK_BIN=%s is not an executable file", p)
	}
	var found []string
	if p, err := exec.LookPath("stripe-mock"); err == nil {
		found = append(found, p)
	}
	var dirs []string
	for _, gp := range filepath.SplitList(build.Default.GOPATH) {
		dirs = append(dirs, filepath.Join(gp, "bin"))
	}
	// `go env GOPATH` also sees a GOPATH set with `go env -w`.
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		for _, gp := range filepath.SplitList(strings.TrimSpace(string(out))) {
			dirs = append(dirs, filepath.Join(gp, "bin"))
		}
	}
	for _, d := range dirs {
		if p := filepath.Join(d, "stripe-mock"); isExecutable(p) {
			found = append(found, p)
		}
	}
	if p, ok := pick(found, moduleVersion); ok {
		return p, nil
	}
	return "", ErrNotFound
}

// pick returns the first of the binaries whose module version is Version,
// else the first one; false when there are none.
func pick(bins []string, version func(bin string) string) (string, bool) {
	for _, b := range bins {
		if version(b) == Version {
			return b, true
		}
	}
	if len(bins) == 0 {
		return "", false
	}
	return bins[0], true
}

// moduleVersion returns the version of github.com/stripe/stripe-mock a
// binary was built from by go install ("v0.180.0"), or "" when it cannot
// tell (a binary built otherwise, or not a Go binary).
func moduleVersion(bin string) string {
	info, err := buildinfo.ReadFile(bin)
	if err != nil || info.Main.Path != "github.com/stripe/stripe-mock" {
		return ""
	}
	return info.Main.Version
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// listenRE matches stripe-mock's "Listening for HTTP at address: 127.0.0.1:1234".
var listenRE = regexp.MustCompile(`Listening for HTTP at address: (\S+)`)

// run starts bin and returns its base URL and a function that stops it.
func run(bin string) (url string, stop func(), err error) {
	ctx, cancel := context.WithCancel(context.Background())
	// Port 0: the system picks free ports, so parallel test binaries never
	// collide. HTTPS is given its own loopback address because stripe-mock
	// would otherwise also listen on the default :12112 on every interface.
	// -strict-version-check: see the package doc.
	cmd := exec.CommandContext(ctx, bin, "-http-addr", "127.0.0.1:0", "-https-addr", "127.0.0.1:0", "-strict-version-check")
	cmd.WaitDelay = 5 * time.Second
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		cancel()
		return "", nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	done := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(done)
	}()
	stop = func() {
		cancel()
		<-done
	}
	fail := func(format string, a ...any) (string, func(), error) {
		stop()
		msg := fmt.Sprintf(format, a...)
		if s := strings.TrimSpace(stderr.String()); s != "" {
			msg += "; stderr: " + s
		}
		return "", nil, errors.New(msg)
	}

	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		found := false
		for sc.Scan() {
			if m := listenRE.FindStringSubmatch(sc.Text()); m != nil && !found {
				found = true
				addr <- m[1]
			}
		}
		close(addr)
		io.Copy(io.Discard, stdout) // keep the pipe drained until exit
	}()

	deadline := time.NewTimer(startTimeout)
	defer deadline.Stop()
	select {
	case a, ok := <-addr:
		if !ok {
			<-done
			return fail("%s exited before listening: %v", bin, waitErr)
		}
		url = "http://" + a
	case <-deadline.C:
		return fail("%s did not report its address within %v", bin, startTimeout)
	}
	if err := waitReady(ctx, url, deadline.C, done); err != nil {
		return fail("%s at %s: %v", bin, url, err)
	}
	return url, stop, nil
}

// waitReady polls url until stripe-mock answers an authenticated request
// made at stripe-go's API version.
func waitReady(ctx context.Context, url string, deadline <-chan time.Time, exited <-chan struct{}) error {
	client := &http.Client{Timeout: 2 * time.Second}
	var last error
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/v1/customers?limit=1", nil)
		if err != nil {
			return err
		}
		req.SetBasicAuth(TestKey, "")
		req.Header.Set("Stripe-Version", stripego.APIVersion)
		resp, err := client.Do(req)
		if err == nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
			switch {
			case resp.StatusCode == http.StatusOK:
				return nil
			case resp.StatusCode < 500:
				// A wrong API version, or another refusal: waiting will
				// not change the answer.
				return fmt.Errorf("GET /v1/customers with Stripe-Version %s: %s: %s (install %s with .ci/stripe-mock.sh)",
					stripego.APIVersion, resp.Status, errorMessage(body), Version)
			}
			err = fmt.Errorf("GET /v1/customers: %s", resp.Status)
		}
		last = err
		select {
		case <-exited:
			return fmt.Errorf("exited while starting (last error: %v)", last)
		case <-deadline:
			return fmt.Errorf("not ready within %v (last error: %v)", startTimeout, last)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// errorMessage returns the message of a Stripe error body, or the body.
func errorMessage(body []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		return e.Error.Message
	}
	return strings.TrimSpace(string(body))
}

// lockedBuffer is a bytes.Buffer safe for the writer goroutine of os/exec
// and a reader.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
