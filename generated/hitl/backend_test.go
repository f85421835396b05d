package hitl

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// postgresEnv names the variable holding the test PostgreSQL DSN; .ci/run
// sets it by sourcing .ci/postgres.sh.
const postgresEnv = "TOOLGEN_TEST_POSTGRES_DSN"

// opener returns a Store on the test's database (SQLite) or schema
// (PostgreSQL); every call in one test opens the same one. Stores are
// closed, and the PostgreSQL schema dropped, when the test ends.
type opener func(opts Options) *Store

// backend prepares a fresh database of one kind for a test.
type backend struct {
	name  string
	setup func(t *testing.T) opener
}

// forEachBackend runs f as a subtest per backend, each with a fresh
// database. Without a PostgreSQL DSN the postgres subtest is skipped, or
// fails when CI=true.
func forEachBackend(t *testing.T, f func(t *testing.T, open opener)) {
	t.Helper()
	for _, b := range []backend{sqliteBackend(), postgresBackend()} {
		t.Run(b.name, func(t *testing.T) { f(t, b.setup(t)) })
	}
}

func sqliteBackend() backend {
	return backend{name: "sqlite", setup: func(t *testing.T) opener {
		path := filepath.Join(t.TempDir(), "pause_points.db")
		return func(opts Options) *Store {
			t.Helper()
			s, err := Open(context.Background(), "sqlite", path, opts)
			if err != nil {
				t.Fatalf("Open sqlite %s: %v", path, err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		}
	}}
}

// requirePostgres returns the test DSN, or skips (fails under CI=true).
func requirePostgres(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv(postgresEnv)
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set but CI=true: .ci/run should have started PostgreSQL (source .ci/postgres.sh)", postgresEnv)
		}
		t.Skipf("%s is not set; run `source .ci/postgres.sh` to test against PostgreSQL", postgresEnv)
	}
	return dsn
}

func postgresBackend() backend {
	return backend{name: "postgres", setup: func(t *testing.T) opener {
		dsn := requirePostgres(t)
		dsn = withSearchPath(t, dsn, newTestSchema(t, dsn))
		return func(opts Options) *Store {
			t.Helper()
			s, err := Open(context.Background(), "pgx", dsn, opts)
			if err != nil {
				t.Fatalf("Open pgx: %v", err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		}
	}}
}

// newTestSchema creates a schema with a random name, dropped when the test
// ends, so that concurrent and repeated runs never see each other's rows.
func newTestSchema(t testing.TB, dsn string) string {
	t.Helper()
	var b [6]byte
	rand.Read(b[:])
	schema := "hitl_test_" + hex.EncodeToString(b[:])
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatalf("open admin connection: %v", err)
	}
	ctx := context.Background()
	if _, err := admin.ExecContext(ctx, `CREATE SCHEMA `+schema); err != nil {
		admin.Close()
		t.Fatalf("create schema %s (is PostgreSQL at %s running?): %v", schema, postgresEnv, err)
	}
	t.Cleanup(func() {
		if _, err := admin.ExecContext(context.Background(), `DROP SCHEMA `+schema+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
		admin.Close()
	})
	return schema
}

// withSearchPath adds search_path to a URL or keyword/value pgx DSN.
func withSearchPath(t testing.TB, dsn, schema string) string {
	t.Helper()
	if !strings.Contains(dsn, "://") {
		return dsn + " search_path=" + schema
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("parse %s: %v", postgresEnv, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// clock is a settable test clock for Options.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock {
	return &clock{t: time.Date(2025, 3, 14, 9, 26, 53, 589793000, time.UTC)}
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// claims numbers the attempts of claimBy.
var claims atomic.Int64

// claimBy is a claim of the pause point id by user, as a new resume attempt.
func claimBy(user, id string) runtime.ClaimRequest {
	return runtime.ClaimRequest{PausePointID: id, By: user, Attempt: fmt.Sprintf("attempt-%d", claims.Add(1))}
}
