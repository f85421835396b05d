package hitl

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Dialect is the SQL dialect of a Store's database. The Store writes every
// query once, with "?" placeholders; the dialect rewrites them and picks the
// column type of timestamps.
type Dialect int

const (
	// SQLite is the embedded default (the pure-Go modernc.org/sqlite driver,
	// driver name "sqlite"). Timestamps are stored as fixed-width UTC
	// RFC 3339 text with microseconds, so they sort as text.
	SQLite Dialect = iota + 1
	// Postgres is PostgreSQL through pgx's database/sql driver (driver name
	// "pgx"). Timestamps are stored as timestamptz.
	Postgres
)

// String returns the dialect's name.
func (d Dialect) String() string {
	switch d {
	case SQLite:
		return "sqlite"
	case Postgres:
		return "postgres"
	}
	return "Dialect(" + strconv.Itoa(int(d)) + ")"
}

// DialectFor returns the dialect of a database/sql driver name: "sqlite"
// (modernc.org/sqlite) or "pgx" (also "postgres" and "pgx/v5").
func DialectFor(driver string) (Dialect, error) {
	switch driver {
	case "sqlite":
		return SQLite, nil
	case "pgx", "pgx/v5", "postgres":
		return Postgres, nil
	}
	return 0, fmt.Errorf("hitl: unsupported database driver %q (want \"sqlite\" or \"pgx\")", driver)
}

func (d Dialect) valid() bool { return d == SQLite || d == Postgres }

// driverPackage is the package that links the dialect's driver.
func (d Dialect) driverPackage() string {
	if d == Postgres {
		return "github.com/toolgen/toolgen/generated/hitl/postgres"
	}
	return "github.com/toolgen/toolgen/generated/hitl/sqlite"
}

// rebind rewrites the "?" placeholders of q for the dialect ($1, $2, … for
// PostgreSQL). The Store's queries contain no "?" inside string literals.
func (d Dialect) rebind(q string) string {
	if d != Postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

// timeType is the column type of timestamps.
func (d Dialect) timeType() string {
	if d == Postgres {
		return "TIMESTAMPTZ"
	}
	return "TEXT"
}

// timeLayout is how SQLite stores timestamps: UTC, fixed width, so that text
// order is time order.
const timeLayout = "2006-01-02T15:04:05.000000Z"

// timeArg is the query argument for t (already UTC, whole microseconds).
func (d Dialect) timeArg(t time.Time) any {
	if d == Postgres {
		return t
	}
	return t.UTC().Format(timeLayout)
}

// nullTimeArg is timeArg, with NULL for the zero time.
func (d Dialect) nullTimeArg(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return d.timeArg(t)
}

// dbTime scans a timestamp of either dialect (time.Time from pgx, text from
// SQLite); NULL leaves the zero time.
type dbTime struct{ t *time.Time }

func (s dbTime) Scan(v any) error {
	switch v := v.(type) {
	case nil:
		*s.t = time.Time{}
	case time.Time:
		*s.t = v.UTC()
	case string:
		return s.parse(v)
	case []byte:
		return s.parse(string(v))
	default:
		return fmt.Errorf("hitl: cannot scan %T into a timestamp", v)
	}
	return nil
}

func (s dbTime) parse(v string) error {
	t, err := time.Parse(timeLayout, v)
	if err != nil {
		// Accept any RFC 3339 time a person may have written by hand.
		if t, err = time.Parse(time.RFC3339Nano, v); err != nil {
			return fmt.Errorf("hitl: bad timestamp %q in the database: %w", v, err)
		}
	}
	*s.t = t.UTC()
	return nil
}

// sqliteDSN adds the Store's connection settings to a modernc.org/sqlite DSN
// unless the DSN sets them itself: a busy timeout (concurrent writers wait
// instead of failing), WAL journaling (readers do not block the writer; not
// for in-memory databases), foreign keys, and BEGIN IMMEDIATE transactions.
func sqliteDSN(dsn string) string {
	path, query, _ := strings.Cut(dsn, "?")
	q, err := url.ParseQuery(query)
	if err != nil {
		return dsn // the driver reports the bad query
	}
	has := func(keys ...string) bool {
		for _, k := range keys {
			if _, ok := q[k]; ok {
				return true
			}
		}
		for _, p := range q["_pragma"] {
			for _, k := range keys {
				if strings.HasPrefix(strings.ToLower(strings.TrimSpace(p)), strings.TrimPrefix(k, "_")) {
					return true
				}
			}
		}
		return false
	}
	var add []string
	if !has("_busy_timeout", "_timeout") {
		add = append(add, "_busy_timeout=10000")
	}
	if !has("_journal_mode", "_journal") && !isMemoryDSN(dsn) {
		add = append(add, "_journal_mode=WAL")
	}
	if !has("_foreign_keys", "_fk") {
		add = append(add, "_foreign_keys=1")
	}
	if !has("_txlock") {
		add = append(add, "_txlock=immediate")
	}
	if len(add) == 0 {
		return dsn
	}
	if query != "" {
		query += "&"
	}
	return path + "?" + query + strings.Join(add, "&")
}

// isMemoryDSN reports whether a SQLite DSN names an in-memory database.
func isMemoryDSN(dsn string) bool {
	return dsn == "" || strings.Contains(dsn, ":memory:") || strings.Contains(dsn, "mode=memory")
}
