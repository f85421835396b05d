// Package sqlite links the SQLite driver (modernc.org/sqlite, pure Go, no
// cgo) for the hitl store, and nothing else: a host that keeps its pause
// points in SQLite imports it, and does not link PostgreSQL's driver.
//
//	import (
//		"github.com/toolgen/toolgen/generated/hitl"
//		_ "github.com/toolgen/toolgen/generated/hitl/sqlite"
//	)
//
//	store, err := hitl.Open(ctx, "sqlite", "approvals.db", hitl.Options{})
//
// Open is a shorthand for that call.
package sqlite

import (
	"context"

	"github.com/toolgen/toolgen/generated/hitl"

	_ "modernc.org/sqlite" // registers the database/sql driver "sqlite"
)

// Driver is the database/sql driver name to pass to hitl.Open.
const Driver = "sqlite"

// Open opens (and migrates) a hitl store in the SQLite database at dsn, a
// file path or a "file:" URI: hitl.Open(ctx, "sqlite", dsn, opts).
func Open(ctx context.Context, dsn string, opts hitl.Options) (*hitl.Store, error) {
	return hitl.Open(ctx, Driver, dsn, opts)
}
