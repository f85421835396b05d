package hitl

import (
	"cmp"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	goruntime "runtime"
	"slices"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// DefaultTTL is how long a pause point waits for a decision when
// Options.TTL is zero.
const DefaultTTL = 24 * time.Hour

// Options configure a Store. The zero value is usable: pause points expire
// after DefaultTTL, only their owners may resolve them, and time is the
// wall clock.
type Options struct {
	// TTL is how long a new pause point waits for a decision before it
	// expires. Zero means DefaultTTL (24 hours); a negative TTL is an error.
	TTL time.Duration
	// Authorize lets a resolver other than the owner approve or deny a
	// pause point (an admin, a team lead). It is asked only when the
	// resolver is not the owner. Nil: only owners may resolve.
	Authorize func(ctx context.Context, resolver string, p PausePoint) bool
	// Now returns the current time. Nil: time.Now.
	Now func() time.Time
	// ClaimWindow is how long an approval may be used: a point approved at
	// ResolvedAt can be claimed (resumed) until ResolvedAt + ClaimWindow,
	// after which Claim fails with ErrExpired. Zero means the TTL; a
	// negative window is an error. A denial can always be claimed.
	ClaimWindow time.Duration
	// MaxOpenConns and MaxIdleConns size the connection pool of a database
	// Open opens (a Store made by New leaves its pool alone). Zero means
	// the defaults: for PostgreSQL 32 open and 32 idle connections (kept
	// for 5 minutes), so a busy host reuses connections instead of dialling
	// and logging in again per query; for a SQLite file one writer
	// connection (writers queue in the process instead of sleeping on the
	// busy timeout) and MaxOpenConns readers (default GOMAXPROCS, at least
	// 2: SQLite's reads are CPU-bound, and more readers than cores only
	// take the writer's CPU). A negative value is an error.
	MaxOpenConns int
	MaxIdleConns int
}

// DefaultPostgresConns is Open's PostgreSQL pool size (see
// Options.MaxOpenConns).
const DefaultPostgresConns = 32

// sqliteReaders is Open's default number of SQLite reader connections.
func sqliteReaders() int { return max(2, goruntime.GOMAXPROCS(0)) }

// Store keeps pause points in a SQL database (SQLite or PostgreSQL) and
// implements runtime.Approvals. It is safe for concurrent use, also by
// several processes sharing one PostgreSQL database: every state change is a
// single conditional UPDATE, so a decision is taken once and never lost.
type Store struct {
	db      *sql.DB // reads (and writes, unless w is set apart)
	w       *sql.DB // writes: db, or SQLite's single writer connection
	dialect Dialect
	opts    Options
	owned   bool // Open made db; Close closes it
	q       queries
}

// queries are the Store's statements, rebound for its dialect once.
type queries struct {
	insert, get, pendingByCall, listPending, resolve, expireOne, expireAll, claim, finish string
}

// columns of pause_points in the order scanPoint reads them.
const columns = "id, user_id, conversation_id, turn_index, tool_call_id, tool_name, arguments, label, reason, " +
	"status, note, resolved_by, created_at, resolved_at, expires_at, consumed_at, claimed_by, claim_attempt, finished_at"

// insertColumns are the columns Create writes.
const insertColumns = "id, user_id, conversation_id, turn_index, tool_call_id, tool_name, arguments, label, reason, " +
	"status, note, resolved_by, created_at, resolved_at, expires_at, consumed_at"

// Open opens the database with a database/sql driver — "sqlite"
// (modernc.org/sqlite; dsn is a file path or a "file:" URI) or "pgx"
// (PostgreSQL; dsn is a pgx connection string) — checks the connection and
// migrates the schema. The driver must be linked into the program: import
// github.com/toolgen/toolgen/generated/hitl/sqlite or
// github.com/toolgen/toolgen/generated/hitl/postgres (blank imports are
// enough), so that a host links only the database it uses.
//
// For SQLite it turns on WAL journaling, a busy timeout, foreign keys and
// immediate transactions unless the DSN sets them, and writes through one
// connection; for PostgreSQL it sizes the pool (see Options.MaxOpenConns).
// Close closes the database.
func Open(ctx context.Context, driver, dsn string, opts Options) (*Store, error) {
	d, err := DialectFor(driver)
	if err != nil {
		return nil, err
	}
	if opts.MaxOpenConns < 0 || opts.MaxIdleConns < 0 {
		return nil, fmt.Errorf("hitl: negative pool size (MaxOpenConns %d, MaxIdleConns %d)", opts.MaxOpenConns, opts.MaxIdleConns)
	}
	if !slices.Contains(sql.Drivers(), driver) {
		return nil, fmt.Errorf("hitl: the %s driver %q is not linked into this program: import _ %q", d, driver, d.driverPackage())
	}
	if d == SQLite {
		dsn = sqliteDSN(dsn)
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, fmt.Errorf("hitl: open %s database: %w", d, err)
	}
	var w *sql.DB
	switch {
	case d == SQLite && isMemoryDSN(dsn):
		// Every connection to ":memory:" is its own database: keep one.
		db.SetMaxOpenConns(1)
	case d == SQLite:
		// One writer connection: in-process writers wait their turn in the
		// pool instead of sleeping on SQLITE_BUSY, so readers (which WAL
		// never blocks) cannot starve them.
		if w, err = sql.Open(driver, dsn); err != nil {
			db.Close()
			return nil, fmt.Errorf("hitl: open %s database: %w", d, err)
		}
		w.SetMaxOpenConns(1)
		w.SetMaxIdleConns(1)
		db.SetMaxOpenConns(cmp.Or(opts.MaxOpenConns, sqliteReaders()))
		db.SetMaxIdleConns(cmp.Or(opts.MaxIdleConns, opts.MaxOpenConns, sqliteReaders()))
	default:
		db.SetMaxOpenConns(cmp.Or(opts.MaxOpenConns, DefaultPostgresConns))
		db.SetMaxIdleConns(cmp.Or(opts.MaxIdleConns, opts.MaxOpenConns, DefaultPostgresConns))
		db.SetConnMaxIdleTime(5 * time.Minute)
	}
	closeAll := func() {
		db.Close()
		if w != nil {
			w.Close()
		}
	}
	s, err := New(db, d, opts)
	if err != nil {
		closeAll()
		return nil, err
	}
	if w != nil {
		s.w = w
	}
	s.owned = true
	if err := db.PingContext(ctx); err != nil {
		closeAll()
		return nil, fmt.Errorf("hitl: connect to %s database: %w", d, err)
	}
	if err := s.Migrate(ctx); err != nil {
		closeAll()
		return nil, err
	}
	return s, nil
}

// New returns a Store on an open database of the given dialect. It does not
// touch the database: call Migrate before first use. Close leaves db open.
func New(db *sql.DB, dialect Dialect, opts Options) (*Store, error) {
	if db == nil {
		return nil, errors.New("hitl: nil *sql.DB")
	}
	if !dialect.valid() {
		return nil, fmt.Errorf("hitl: unknown dialect %v", dialect)
	}
	if opts.TTL < 0 {
		return nil, fmt.Errorf("hitl: negative TTL %v", opts.TTL)
	}
	if opts.TTL == 0 {
		opts.TTL = DefaultTTL
	}
	if opts.ClaimWindow < 0 {
		return nil, fmt.Errorf("hitl: negative ClaimWindow %v", opts.ClaimWindow)
	}
	if opts.ClaimWindow == 0 {
		opts.ClaimWindow = opts.TTL
	}
	r := dialect.rebind
	return &Store{
		db:      db,
		w:       db,
		dialect: dialect,
		opts:    opts,
		q: queries{
			// A pending point per (user, conversation, tool call id): a
			// retried Create finds the one already written.
			insert: r(`INSERT INTO pause_points (` + insertColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (user_id, conversation_id, tool_call_id) WHERE status = 'pending' AND tool_call_id <> '' DO NOTHING`),
			get: r(`SELECT ` + columns + ` FROM pause_points WHERE id = ?`),
			pendingByCall: r(`SELECT ` + columns + ` FROM pause_points
				WHERE user_id = ? AND conversation_id = ? AND tool_call_id = ? AND status = 'pending'`),
			listPending: r(`SELECT ` + columns + ` FROM pause_points
				WHERE user_id = ? AND status = 'pending' AND expires_at > ?
				ORDER BY created_at, id`),
			resolve: r(`UPDATE pause_points SET status = ?, note = ?, resolved_by = ?, resolved_at = ?
				WHERE id = ? AND status = 'pending' AND expires_at > ?`),
			expireOne: r(`UPDATE pause_points SET status = 'expired', resolved_at = ?
				WHERE id = ? AND status = 'pending' AND expires_at <= ?`),
			expireAll: r(`UPDATE pause_points SET status = 'expired', resolved_at = ?
				WHERE status = 'pending' AND expires_at <= ?`),
			// Claimed by this attempt, or first claimed now: an approval
			// within its use-by window, or a denial.
			claim: r(`UPDATE pause_points SET consumed_at = COALESCE(consumed_at, ?), claimed_by = ?, claim_attempt = ?
				WHERE id = ? AND status IN ('approved', 'denied') AND finished_at IS NULL
				AND (consumed_at IS NULL AND (status = 'denied' OR resolved_at > ?) OR consumed_at IS NOT NULL AND claim_attempt = ?)
				RETURNING ` + columns),
			finish: r(`UPDATE pause_points SET finished_at = ?
				WHERE id = ? AND claim_attempt = ? AND consumed_at IS NOT NULL AND finished_at IS NULL`),
		},
	}, nil
}

// DB returns the Store's database (for SQLite opened by Open, the pool it
// reads through; writes go through a single connection of their own).
func (s *Store) DB() *sql.DB { return s.db }

// Dialect returns the Store's SQL dialect.
func (s *Store) Dialect() Dialect { return s.dialect }

// Close closes the database if Open opened it; a Store made by New leaves
// its database to the caller.
func (s *Store) Close() error {
	if !s.owned {
		return nil
	}
	err := s.db.Close()
	if s.w != s.db {
		err = errors.Join(err, s.w.Close())
	}
	return err
}

// now is the Store's clock, in UTC whole microseconds (PostgreSQL's precision,
// so a stored time reads back equal).
func (s *Store) now() time.Time {
	t := time.Now()
	if s.opts.Now != nil {
		t = s.opts.Now()
	}
	return t.UTC().Truncate(time.Microsecond)
}

// newID returns 16 random bytes as 32 lower-case hex digits.
func newID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("hitl: random id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// Create stores p as a new pending pause point and returns it as stored.
// It fills in ID (when empty), Status (pending), CreatedAt and, when zero,
// ExpiresAt (now plus the Store's TTL). UserID and Tool are required;
// a Status other than pending, or resolution fields, are an error.
//
// Create is idempotent on (UserID, ConversationID, ToolCallID) when
// ToolCallID is set: while that tool call has a pending, unexpired point,
// Create returns it as stored instead of writing another (a retry after a
// timeout finds the point the first attempt wrote). The existing point
// must be of the same Tool. Errors of the database match
// runtime.ErrApprovalStoreUnavailable (ErrUnavailable).
func (s *Store) Create(ctx context.Context, p PausePoint) (PausePoint, error) {
	switch {
	case p.UserID == "":
		return PausePoint{}, errors.New("hitl: create pause point: empty UserID (the owner who may resolve it)")
	case p.Tool == "":
		return PausePoint{}, errors.New("hitl: create pause point: empty Tool")
	case p.Status != "" && p.Status != StatusPending:
		return PausePoint{}, fmt.Errorf("hitl: create pause point: status %q (a new point is pending)", p.Status)
	case p.Note != "" || p.ResolvedBy != "" || !p.ResolvedAt.IsZero() || !p.ConsumedAt.IsZero() ||
		p.ClaimedBy != "" || !p.FinishedAt.IsZero():
		return PausePoint{}, errors.New("hitl: create pause point: a new point cannot carry a resolution")
	}
	if p.ID == "" {
		id, err := newID()
		if err != nil {
			return PausePoint{}, err
		}
		p.ID = id
	}
	p.Status = StatusPending
	p.CreatedAt = s.now()
	if p.ExpiresAt.IsZero() {
		p.ExpiresAt = p.CreatedAt.Add(s.opts.TTL)
	}
	p.ExpiresAt = p.ExpiresAt.UTC().Truncate(time.Microsecond)
	if len(p.Arguments) == 0 {
		p.Arguments = nil
	}
	d := s.dialect
	for range 2 {
		r, err := s.w.ExecContext(ctx, s.q.insert,
			p.ID, p.UserID, p.ConversationID, p.TurnIndex, p.ToolCallID, p.Tool, string(p.Arguments), p.Label, p.Reason,
			string(p.Status), p.Note, p.ResolvedBy,
			d.timeArg(p.CreatedAt), d.nullTimeArg(p.ResolvedAt), d.timeArg(p.ExpiresAt), d.nullTimeArg(p.ConsumedAt))
		if err != nil {
			return PausePoint{}, storeErr("create pause point", err)
		}
		if n, err := r.RowsAffected(); err != nil {
			return PausePoint{}, storeErr("create pause point", err)
		} else if n == 1 {
			return p, nil
		}
		// The tool call already has a pending point.
		old, err := scanPoint(s.db.QueryRowContext(ctx, s.q.pendingByCall, p.UserID, p.ConversationID, p.ToolCallID))
		switch {
		case errors.Is(err, sql.ErrNoRows):
			continue // resolved in the meantime: write ours
		case err != nil:
			return PausePoint{}, storeErr("create pause point", err)
		case old.Tool != p.Tool:
			return PausePoint{}, fmt.Errorf("hitl: create pause point: tool call %q already waits at pause point %q for %s, not %s", p.ToolCallID, old.ID, old.Tool, p.Tool)
		case old.ExpiresAt.After(p.CreatedAt):
			return old, nil
		}
		// Past its TTL: mark it expired, then write ours.
		if _, err := s.expireIfDue(ctx, old.ID, p.CreatedAt); err != nil {
			return PausePoint{}, storeErr("create pause point", err)
		}
	}
	return PausePoint{}, fmt.Errorf("hitl: create pause point: tool call %q keeps conflicting with another pending point", p.ToolCallID)
}

// storeErr wraps an error of the database for the host: it names the
// operation and matches ErrUnavailable.
func storeErr(op string, err error) error {
	return runtime.StoreError(fmt.Errorf("hitl: %s: %w", op, err))
}

// rowScanner is *sql.Row or *sql.Rows.
type rowScanner interface{ Scan(dest ...any) error }

func scanPoint(r rowScanner) (PausePoint, error) {
	var p PausePoint
	var args, status string
	err := r.Scan(&p.ID, &p.UserID, &p.ConversationID, &p.TurnIndex, &p.ToolCallID, &p.Tool, &args, &p.Label, &p.Reason,
		&status, &p.Note, &p.ResolvedBy,
		dbTime{&p.CreatedAt}, dbTime{&p.ResolvedAt}, dbTime{&p.ExpiresAt}, dbTime{&p.ConsumedAt},
		&p.ClaimedBy, &p.claimAttempt, dbTime{&p.FinishedAt})
	if err != nil {
		return PausePoint{}, err
	}
	if args != "" {
		p.Arguments = []byte(args)
	}
	p.Status = Status(status)
	return p, nil
}

// Get returns the pause point with the given id, as stored (a pending point
// past its ExpiresAt stays pending until Expire, Resolve or Claim sees it).
func (s *Store) Get(ctx context.Context, id string) (PausePoint, error) {
	p, err := s.point(ctx, id)
	switch {
	case errors.Is(err, ErrNotFound):
		return PausePoint{}, fmt.Errorf("hitl: pause point %q: %w", id, ErrNotFound)
	case err != nil:
		return PausePoint{}, storeErr(fmt.Sprintf("get pause point %q", id), err)
	}
	return p, nil
}

// point reads the pause point id, or fails with ErrNotFound. Its errors do
// not name the point: its callers do.
func (s *Store) point(ctx context.Context, id string) (PausePoint, error) {
	p, err := scanPoint(s.db.QueryRowContext(ctx, s.q.get, id))
	if errors.Is(err, sql.ErrNoRows) {
		return PausePoint{}, ErrNotFound
	}
	return p, err
}

// ListPending returns the user's pending, unexpired pause points, oldest first.
func (s *Store) ListPending(ctx context.Context, userID string) ([]PausePoint, error) {
	rows, err := s.db.QueryContext(ctx, s.q.listPending, userID, s.dialect.timeArg(s.now()))
	if err != nil {
		return nil, storeErr("list pending pause points", err)
	}
	defer rows.Close()
	var out []PausePoint
	for rows.Next() {
		p, err := scanPoint(rows)
		if err != nil {
			return nil, storeErr("list pending pause points", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, storeErr("list pending pause points", err)
	}
	return out, nil
}

// Resolve approves or denies the pending pause point id and returns it as
// resolved.
//
// Only the point's owner (res.By == UserID) or a resolver Options.Authorize
// accepts may resolve (else ErrForbidden). Resolving a resolved point again
// with the same decision succeeds and returns the point as first resolved
// (its note and resolver unchanged); the other decision fails with
// ErrAlreadyResolved. A point past its TTL is marked expired and refused
// with ErrExpired. Concurrent resolutions are decided by one conditional
// UPDATE: exactly one wins.
func (s *Store) Resolve(ctx context.Context, id string, res Resolution) (PausePoint, error) {
	p, err := s.Get(ctx, id)
	if err != nil {
		return PausePoint{}, err
	}
	if res.By == "" {
		return PausePoint{}, fmt.Errorf("hitl: resolve pause point %q: no resolver given: %w", id, ErrForbidden)
	}
	if res.By != p.UserID && (s.opts.Authorize == nil || !s.opts.Authorize(ctx, res.By, p)) {
		return PausePoint{}, fmt.Errorf("hitl: resolve pause point %q: %q is neither its owner nor an authorised resolver: %w", id, res.By, ErrForbidden)
	}
	if p.Status != StatusPending {
		return resolvedAgain(p, res)
	}
	now := s.now()
	d := s.dialect
	want := res.status()
	r, err := s.w.ExecContext(ctx, s.q.resolve, string(want), res.Note, res.By, d.timeArg(now), id, d.timeArg(now))
	if err != nil {
		return PausePoint{}, storeErr(fmt.Sprintf("resolve pause point %q", id), err)
	}
	n, err := r.RowsAffected()
	if err != nil {
		return PausePoint{}, storeErr(fmt.Sprintf("resolve pause point %q", id), err)
	}
	if n == 1 {
		p.Status, p.Note, p.ResolvedBy, p.ResolvedAt = want, res.Note, res.By, now
		return p, nil
	}
	// Someone else resolved it first, or it is past its TTL: read what won.
	if p, err = s.expireIfDue(ctx, id, now); err != nil {
		return PausePoint{}, storeErr(fmt.Sprintf("resolve pause point %q", id), err)
	}
	if p.Status == StatusPending {
		return PausePoint{}, fmt.Errorf("hitl: resolve pause point %q: the update changed no row but the point is still pending", id)
	}
	return resolvedAgain(p, res)
}

// resolvedAgain answers a resolution of a point that is no longer pending.
func resolvedAgain(p PausePoint, res Resolution) (PausePoint, error) {
	switch {
	case p.Status == StatusExpired:
		return PausePoint{}, fmt.Errorf("hitl: resolve pause point %q: it expired at %s: %w", p.ID, p.ExpiresAt.Format(time.RFC3339), ErrExpired)
	case p.Status == res.status():
		return p, nil
	}
	return PausePoint{}, fmt.Errorf("hitl: resolve pause point %q: it was already %s by %q: %w", p.ID, p.Status, p.ResolvedBy, ErrAlreadyResolved)
}

// expireIfDue marks the point expired if it is pending and past its TTL, and
// returns it as it now stands. Its errors do not name the point: its
// callers do.
func (s *Store) expireIfDue(ctx context.Context, id string, now time.Time) (PausePoint, error) {
	d := s.dialect
	if _, err := s.w.ExecContext(ctx, s.q.expireOne, d.timeArg(now), id, d.timeArg(now)); err != nil {
		return PausePoint{}, fmt.Errorf("expire: %w", err)
	}
	return s.point(ctx, id)
}

// Expire marks every pending pause point whose ExpiresAt is at or before now
// as expired, and returns how many it marked. Hosts call it periodically;
// Resolve and Claim also expire the point they touch when it is due.
func (s *Store) Expire(ctx context.Context, now time.Time) (int64, error) {
	now = now.UTC().Truncate(time.Microsecond)
	d := s.dialect
	r, err := s.w.ExecContext(ctx, s.q.expireAll, d.timeArg(now), d.timeArg(now))
	if err != nil {
		return 0, storeErr("expire pause points", err)
	}
	n, err := r.RowsAffected()
	if err != nil {
		return 0, storeErr("expire pause points", err)
	}
	return n, nil
}
