package hitl

// The package's own tests use both backends; the package itself links
// neither driver (see the sqlite and postgres packages, and TestDrivers).
import (
	_ "github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"
)
