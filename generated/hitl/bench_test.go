package hitl

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// BenchmarkLifecycle measures one pause point's whole life on each backend:
// Create, Resolve, Claim (three writes and a read).
func BenchmarkLifecycle(b *testing.B) {
	ctx := context.Background()
	open := map[string]func(b *testing.B) *Store{
		"sqlite": func(b *testing.B) *Store {
			s, err := Open(ctx, "sqlite", filepath.Join(b.TempDir(), "bench.db"), Options{})
			if err != nil {
				b.Fatal(err)
			}
			return s
		},
		"postgres": func(b *testing.B) *Store {
			dsn := os.Getenv(postgresEnv)
			if dsn == "" {
				b.Skipf("%s is not set", postgresEnv)
			}
			dsn = withSearchPath(b, dsn, newTestSchema(b, dsn))
			s, err := Open(ctx, "pgx", dsn, Options{})
			if err != nil {
				b.Fatal(err)
			}
			return s
		},
	}
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			s := open[name](b)
			defer s.Close()
			p := samplePoint("bench")
			for b.Loop() {
				c, err := s.Create(ctx, p)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.Resolve(ctx, c.ID, Resolution{Approve: true, By: "bench"}); err != nil {
					b.Fatal(err)
				}
				if _, _, err := s.Claim(ctx, claimBy("bench", c.ID)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchStore opens a fresh store of the backend: "sqlite" and "postgres"
// as Open configures them; "sqlite-shared-pool" and "postgres-default-pool"
// on a plain sql.Open pool (what Open did before it sized pools and gave
// SQLite writes a connection of their own), for comparison in one run.
func benchStore(b *testing.B, backend string) *Store {
	b.Helper()
	ctx := context.Background()
	var s *Store
	var err error
	switch backend {
	case "sqlite", "sqlite-shared-pool":
		path := filepath.Join(b.TempDir(), "bench.db")
		if backend == "sqlite" {
			s, err = Open(ctx, "sqlite", path, Options{})
			break
		}
		db, oerr := sql.Open("sqlite", sqliteDSN(path))
		if oerr != nil {
			b.Fatal(oerr)
		}
		b.Cleanup(func() { db.Close() })
		if s, err = New(db, SQLite, Options{}); err == nil {
			err = s.Migrate(ctx)
		}
	case "postgres", "postgres-default-pool":
		dsn := os.Getenv(postgresEnv)
		if dsn == "" {
			b.Skipf("%s is not set", postgresEnv)
		}
		dsn = withSearchPath(b, dsn, newTestSchema(b, dsn))
		if backend == "postgres" {
			s, err = Open(ctx, "pgx", dsn, Options{})
			break
		}
		db, oerr := sql.Open("pgx", dsn)
		if oerr != nil {
			b.Fatal(oerr)
		}
		b.Cleanup(func() { db.Close() })
		if s, err = New(db, Postgres, Options{}); err == nil {
			err = s.Migrate(ctx)
		}
	}
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// runWorkers runs op(i) for i in [0, n) on workers goroutines and reports
// ops/s and the p99 of op's latency under unit.
func runWorkers(b *testing.B, workers, n int, unit string, op func(i int) error) {
	b.Helper()
	lat := make([]time.Duration, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	b.ResetTimer()
	start := time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				t0 := time.Now()
				if err := op(i); err != nil {
					errs <- err
					return
				}
				lat[i] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
	slices.Sort(lat)
	b.ReportMetric(float64(n)/elapsed.Seconds(), unit+"/s")
	b.ReportMetric(float64(lat[(n*99)/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkLoad runs whole lifecycles through the runtime — a paused
// Dispatch (Create), the owner's Resolve, ResumeWith (Claim, the call,
// Finish) — with 32 and 128 concurrent workers on each backend, and reports
// lifecycles/s and the p99 of one lifecycle. b.N is the number of
// lifecycles: -benchtime=2000x for comparable figures.
func BenchmarkLoad(b *testing.B) {
	ctx := context.Background()
	for _, backend := range []string{"sqlite", "postgres", "postgres-default-pool"} {
		for _, workers := range []int{32, 128} {
			b.Run(fmt.Sprintf("%s/workers=%d", backend, workers), func(b *testing.B) {
				s := benchStore(b, backend)
				tool := &sendMoney{}
				reg := runtime.NewRegistry(runtime.Options{Approvals: s})
				if err := reg.Add(tool.tool()); err != nil {
					b.Fatal(err)
				}
				runWorkers(b, workers, b.N, "lifecycles", func(i int) error {
					call := &runtime.Call{UserID: fmt.Sprintf("u%d", i%workers), ConversationID: "load"}
					out, err := reg.Dispatch(ctx, call, runtime.ToolCall{ID: fmt.Sprintf("c%d", i), Name: "send_money", Arguments: json.RawMessage(`{"to":"bob","amount":1}`)})
					if err != nil || out.Status != runtime.StatusPaused {
						return fmt.Errorf("dispatch: %v %+v", err, out.Err)
					}
					id := out.Pause.PausePointID
					if _, err := s.Resolve(ctx, id, Resolution{Approve: true, By: call.UserID}); err != nil {
						return err
					}
					if out, err = reg.Resume(ctx, call, id); err != nil || out.Status != runtime.StatusOK {
						return fmt.Errorf("resume: %v %+v", err, out.Err)
					}
					return nil
				})
				if tool.count() != b.N {
					b.Fatalf("%d calls ran, want %d", tool.count(), b.N)
				}
			})
		}
	}
}

// BenchmarkReadersVsWriters: 16 writers create pause points while 16
// readers list pending ones without pause; reports creates/s and the p99
// of one Create. "sqlite-shared-pool" is SQLite with readers and writers on
// one pool, as before Open gave writes their own connection; its writers
// can wait out the busy timeout and fail with SQLITE_BUSY (failed-creates).
func BenchmarkReadersVsWriters(b *testing.B) {
	ctx := context.Background()
	for _, backend := range []string{"sqlite", "sqlite-shared-pool", "postgres"} {
		b.Run(backend, func(b *testing.B) {
			s := benchStore(b, backend)
			for u := range 16 { // something to read
				for j := range 20 {
					p := samplePoint(fmt.Sprintf("r%d", u))
					p.ToolCallID = fmt.Sprintf("seed-%d", j)
					if _, err := s.Create(ctx, p); err != nil {
						b.Fatal(err)
					}
				}
			}
			stop := make(chan struct{})
			var readers sync.WaitGroup
			var reads atomic.Int64
			for r := range 16 {
				readers.Add(1)
				go func() {
					defer readers.Done()
					for {
						select {
						case <-stop:
							return
						default:
						}
						if _, err := s.ListPending(ctx, fmt.Sprintf("r%d", r)); err == nil {
							reads.Add(1)
						}
					}
				}()
			}
			start := time.Now()
			var failed atomic.Int64
			runWorkers(b, 16, b.N, "creates", func(i int) error {
				p := samplePoint(fmt.Sprintf("w%d", i%16))
				_, err := s.Create(ctx, p)
				if errors.Is(err, ErrUnavailable) {
					failed.Add(1) // SQLITE_BUSY past the busy timeout: counted, not fatal
					return nil
				}
				return err
			})
			elapsed := time.Since(start)
			close(stop)
			readers.Wait()
			b.ReportMetric(float64(reads.Load())/elapsed.Seconds(), "reads/s")
			b.ReportMetric(float64(failed.Load()), "failed-creates")
		})
	}
}
