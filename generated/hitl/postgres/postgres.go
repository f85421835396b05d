// Package postgres links the PostgreSQL driver (pgx's database/sql driver)
// for the hitl store, and nothing else: a host that keeps its pause points
// in PostgreSQL imports it, and does not link SQLite's driver.
//
//	import (
//		"github.com/toolgen/toolgen/generated/hitl"
//		_ "github.com/toolgen/toolgen/generated/hitl/postgres"
//	)
//
//	store, err := hitl.Open(ctx, "pgx", "postgres://…", hitl.Options{})
//
// Open is a shorthand for that call.
package postgres

import (
	"context"

	"github.com/toolgen/toolgen/generated/hitl"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the database/sql driver "pgx"
)

// Driver is the database/sql driver name to pass to hitl.Open.
const Driver = "pgx"

// Open opens (and migrates) a hitl store in the PostgreSQL database at dsn,
// a pgx connection string: hitl.Open(ctx, "pgx", dsn, opts).
func Open(ctx context.Context, dsn string, opts hitl.Options) (*hitl.Store, error) {
	return hitl.Open(ctx, Driver, dsn, opts)
}
