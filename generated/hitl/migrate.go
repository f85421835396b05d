package hitl

import (
	"context"
	"fmt"
	"strings"
)

// migration is one step of the schema's history. Steps are never edited once
// released; a change is a new step with the next version.
type migration struct {
	version int
	stmts   []string // "{time}" is replaced by the dialect's timestamp type
}

// migrations returns the schema's history, oldest first.
func migrations() []migration {
	return []migration{{
		version: 1,
		stmts: []string{
			`CREATE TABLE IF NOT EXISTS pause_points (
				id              TEXT PRIMARY KEY,
				user_id         TEXT NOT NULL,
				conversation_id TEXT NOT NULL DEFAULT '',
				turn_index      INTEGER NOT NULL DEFAULT 0,
				tool_call_id    TEXT NOT NULL DEFAULT '',
				tool_name       TEXT NOT NULL,
				arguments       TEXT NOT NULL DEFAULT '',
				label           TEXT NOT NULL DEFAULT '',
				reason          TEXT NOT NULL DEFAULT '',
				status          TEXT NOT NULL DEFAULT 'pending'
				                CHECK (status IN ('pending', 'approved', 'denied', 'expired')),
				note            TEXT NOT NULL DEFAULT '',
				resolved_by     TEXT NOT NULL DEFAULT '',
				created_at      {time} NOT NULL,
				resolved_at     {time},
				expires_at      {time} NOT NULL,
				consumed_at     {time},
				CHECK (consumed_at IS NULL OR status IN ('approved', 'denied'))
			)`,
			// ListPending: a user's pending points, oldest first.
			`CREATE INDEX IF NOT EXISTS pause_points_user_status ON pause_points (user_id, status, created_at)`,
			// Expire: pending points by deadline.
			`CREATE INDEX IF NOT EXISTS pause_points_status_expiry ON pause_points (status, expires_at)`,
			// wait_for_approval finds the point of a tool call it paused.
			`CREATE INDEX IF NOT EXISTS pause_points_tool_call ON pause_points (user_id, tool_call_id)`,
		},
	}, {
		version: 2,
		stmts: []string{
			// Retry-safe claims: who claimed, with which resume attempt,
			// and when the claimed call was reported as run.
			`ALTER TABLE pause_points ADD COLUMN claimed_by TEXT NOT NULL DEFAULT ''`,
			`ALTER TABLE pause_points ADD COLUMN claim_attempt TEXT NOT NULL DEFAULT ''`,
			`ALTER TABLE pause_points ADD COLUMN finished_at {time}`,
			// Points claimed before version 2 count as finished: nobody
			// can claim them again.
			`UPDATE pause_points SET finished_at = consumed_at WHERE consumed_at IS NOT NULL`,
			// At most one pending point per tool call (idempotent Create):
			// older duplicates, which version 1 allowed, expire.
			`UPDATE pause_points SET status = 'expired', resolved_at = created_at
				WHERE status = 'pending' AND tool_call_id <> '' AND EXISTS (
					SELECT 1 FROM pause_points n WHERE n.status = 'pending'
					AND n.user_id = pause_points.user_id AND n.conversation_id = pause_points.conversation_id
					AND n.tool_call_id = pause_points.tool_call_id
					AND (n.created_at > pause_points.created_at OR n.created_at = pause_points.created_at AND n.id > pause_points.id))`,
			`CREATE UNIQUE INDEX IF NOT EXISTS pause_points_pending_call ON pause_points (user_id, conversation_id, tool_call_id)
				WHERE status = 'pending' AND tool_call_id <> ''`,
		},
	}}
}

// SchemaVersion is the schema version this code migrates to.
func SchemaVersion() int {
	ms := migrations()
	return ms[len(ms)-1].version
}

// migrateLockKey is the PostgreSQL advisory lock that serialises concurrent
// Migrate calls from several instances ("hitl" in ASCII).
const migrateLockKey = 0x686974_6c

// Migrate brings the database's schema up to date: it creates the
// pause_points table, its indexes and the pause_points_schema version table
// when missing and applies any newer migration, in one transaction. It is
// idempotent, safe to run from several instances at once (PostgreSQL takes an
// advisory lock; SQLite an immediate transaction when opened by Open), and
// refuses a database migrated by newer code.
func (s *Store) Migrate(ctx context.Context) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("hitl: migrate: %w", err)
	}
	defer tx.Rollback()
	if s.dialect == Postgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrateLockKey)); err != nil {
			return fmt.Errorf("hitl: migrate: lock: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS pause_points_schema (
		version    INTEGER PRIMARY KEY,
		applied_at `+s.dialect.timeType()+` NOT NULL
	)`); err != nil {
		return fmt.Errorf("hitl: migrate: version table: %w", err)
	}
	var current int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM pause_points_schema`).Scan(&current); err != nil {
		return fmt.Errorf("hitl: migrate: read schema version: %w", err)
	}
	if latest := SchemaVersion(); current > latest {
		return fmt.Errorf("hitl: migrate: the database's schema version %d is newer than this code's %d", current, latest)
	}
	insert := s.dialect.rebind(`INSERT INTO pause_points_schema (version, applied_at) VALUES (?, ?)`)
	for _, m := range migrations() {
		if m.version <= current {
			continue
		}
		for _, stmt := range m.stmts {
			stmt = strings.ReplaceAll(stmt, "{time}", s.dialect.timeType())
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("hitl: migrate to version %d: %w", m.version, err)
			}
		}
		if _, err := tx.ExecContext(ctx, insert, m.version, s.dialect.timeArg(s.now())); err != nil {
			return fmt.Errorf("hitl: migrate to version %d: %w", m.version, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("hitl: migrate: commit: %w", err)
	}
	return nil
}
