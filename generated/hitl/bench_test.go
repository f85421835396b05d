package hitl

import (
	"context"
	"os"
	"path/filepath"
	"testing"
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
