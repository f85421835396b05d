package postgres_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/generated/hitl"
	_ "github.com/toolgen/toolgen/generated/hitl/postgres"
)

// This test binary links only PostgreSQL's driver: hitl.Open names the
// package to import for SQLite.
func TestOpenLinksOnlyPostgres(t *testing.T) {
	_, err := hitl.Open(context.Background(), "sqlite", "pp.db", hitl.Options{})
	if err == nil || !strings.Contains(err.Error(), `import _ "github.com/toolgen/toolgen/generated/hitl/sqlite"`) {
		t.Fatalf("Open sqlite without its driver: %v", err)
	}
}
