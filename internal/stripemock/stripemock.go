// Package stripemock starts stripe-mock, the Stripe API mock server that
// stripe-go's own tests use, for tests in this repository.
//
// The binary is installed by .ci/stripe-mock.sh (pinned version); tests find
// it through $STRIPE_MOCK_BIN, $PATH or $(go env GOPATH)/bin. Without it a
// test is skipped locally and fails when CI=true.
package stripemock

import (
	"bufio"
	"bytes"
	"context"
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
)

// Version is the stripe-mock version .ci/stripe-mock.sh installs; it serves
// every call generated/stripe makes with stripe-go v76.
const Version = "v0.203.0"

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
// (it must exist), else stripe-mock on $PATH, else in $(go env GOPATH)/bin.
func Find() (string, error) {
	if p := os.Getenv("STRIPE_MOCK_BIN"); p != "" {
		if isExecutable(p) {
			return p, nil
		}
		return "", fmt.Errorf("STRIPE_MOCK_BIN=%s is not an executable file", p)
	}
	if p, err := exec.LookPath("stripe-mock"); err == nil {
		return p, nil
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
			return p, nil
		}
	}
	return "", ErrNotFound
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
	cmd := exec.CommandContext(ctx, bin, "-http-addr", "127.0.0.1:0", "-https-addr", "127.0.0.1:0")
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

// waitReady polls url until stripe-mock answers an authenticated request.
func waitReady(ctx context.Context, url string, deadline <-chan time.Time, exited <-chan struct{}) error {
	client := &http.Client{Timeout: 2 * time.Second}
	var last error
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/v1/customers?limit=1", nil)
		if err != nil {
			return err
		}
		req.SetBasicAuth(TestKey, "")
		resp, err := client.Do(req)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
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
