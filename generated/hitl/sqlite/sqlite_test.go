package sqlite_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/generated/hitl"
	"github.com/toolgen/toolgen/generated/hitl/sqlite"
)

// This test binary links only SQLite's driver: hitl.Open works for SQLite
// and names the package to import for PostgreSQL.
func TestOpenLinksOnlySQLite(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "pp.db"), hitl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Create(ctx, hitl.PausePoint{UserID: "ada", Tool: "t"}); err != nil {
		t.Fatal(err)
	}
	_, err = hitl.Open(ctx, "pgx", "postgres://127.0.0.1:1/x", hitl.Options{})
	if err == nil || !strings.Contains(err.Error(), `import _ "github.com/toolgen/toolgen/generated/hitl/postgres"`) {
		t.Fatalf("Open pgx without its driver: %v", err)
	}
}
