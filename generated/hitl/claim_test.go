package hitl

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// TestClaimOwnerAttemptFinish: only the owner (or an authorised claimer)
// claims; the attempt that claimed can claim again until Finish; any other
// attempt loses.
func TestClaimOwnerAttemptFinish(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(Options{Authorize: func(ctx context.Context, by string, p PausePoint) bool { return by == "lead" }})
		p, err := s.Create(ctx, samplePoint("ada"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Resolve(ctx, p.ID, Resolution{Approve: true, By: "ada"}); err != nil {
			t.Fatal(err)
		}
		c := func(by, attempt string) runtime.ClaimRequest {
			return runtime.ClaimRequest{PausePointID: p.ID, By: by, Attempt: attempt}
		}
		for _, by := range []string{"", "bob"} {
			if _, _, err := s.Claim(ctx, c(by, "a1")); !errors.Is(err, ErrForbidden) || !errors.Is(err, runtime.ErrPausePointForbidden) {
				t.Fatalf("claim by %q: %v, want ErrForbidden", by, err)
			}
		}
		if got, _ := s.Get(ctx, p.ID); got.Consumed() {
			t.Fatal("a refused claimer consumed the point")
		}
		req, _, err := s.Claim(ctx, c("lead", "a1"))
		if err != nil || req.UserID != "ada" {
			t.Fatalf("claim by an authorised lead: %+v %v", req, err)
		}
		if got, _ := s.Get(ctx, p.ID); got.ClaimedBy != "lead" || !got.Consumed() || !got.FinishedAt.IsZero() {
			t.Errorf("after the claim: %+v", got)
		}
		if _, _, err := s.Claim(ctx, c("ada", "a2")); !errors.Is(err, ErrConsumed) {
			t.Fatalf("another attempt: %v, want ErrConsumed", err)
		}
		if _, _, err := s.Claim(ctx, c("lead", "a1")); err != nil {
			t.Fatalf("the same attempt again: %v", err)
		}
		// Finishing another attempt changes nothing.
		if err := s.Finish(ctx, c("ada", "a2")); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Claim(ctx, c("lead", "a1")); err != nil {
			t.Fatalf("the same attempt after another's Finish: %v", err)
		}
		if err := s.Finish(ctx, c("lead", "a1")); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Claim(ctx, c("lead", "a1")); !errors.Is(err, ErrConsumed) || !strings.Contains(err.Error(), "finished at") {
			t.Fatalf("the same attempt after Finish: %v, want ErrConsumed", err)
		}
		if got, _ := s.Get(ctx, p.ID); got.FinishedAt.IsZero() {
			t.Error("FinishedAt not recorded")
		}
	})
}

// TestResumeOnlyByOwner: Registry.Resume with another user's Call is refused
// unless Options.Authorize accepts them.
func TestResumeOnlyByOwner(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		store := open(Options{Authorize: func(ctx context.Context, by string, p PausePoint) bool { return by == "lead" }})
		tool := &sendMoney{}
		reg := askRegistry(t, store, tool)
		id := pauseSend(t, reg, store, "call_o", `{"to":"bob","amount":5}`)
		if _, err := store.Resolve(ctx, id, Resolution{Approve: true, By: "ada"}); err != nil {
			t.Fatal(err)
		}
		for _, c := range []*runtime.Call{nil, {}, {UserID: "mallory"}} {
			if _, err := reg.Resume(ctx, c, id); !errors.Is(err, runtime.ErrPausePointForbidden) || tool.count() != 0 {
				t.Fatalf("Resume by %+v: %v (runs %d)", c, err, tool.count())
			}
		}
		out, err := reg.Resume(ctx, &runtime.Call{UserID: "lead"}, id)
		if err != nil || out.Status != runtime.StatusOK || tool.count() != 1 {
			t.Fatalf("Resume by the authorised lead: %+v %v", out, err)
		}
	})
}

// TestDrivers: the hitl package links no database driver; each driver
// package links its own and not the other's.
func TestDrivers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	const (
		pgx    = "github.com/jackc/pgx/v5/stdlib"
		sqlite = "modernc.org/sqlite"
		mod    = "github.com/toolgen/toolgen/generated/hitl"
	)
	for pkg, want := range map[string][2]bool{ // links pgx, links sqlite
		mod:               {false, false},
		mod + "/sqlite":   {false, true},
		mod + "/postgres": {true, false},
	} {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		deps := strings.Fields(string(out))
		has := func(p string) bool {
			for _, d := range deps {
				if d == p {
					return true
				}
			}
			return false
		}
		if got := [2]bool{has(pgx), has(sqlite)}; got != want {
			t.Errorf("%s links pgx %v, sqlite %v; want %v, %v", pkg, got[0], got[1], want[0], want[1])
		}
	}
}

// TestPoolSizes: Open sizes the pool by default and as Options say; SQLite
// writes through one connection of their own.
func TestPoolSizes(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		def, set := open(Options{}), open(Options{MaxOpenConns: 7})
		want := DefaultPostgresConns
		if def.dialect == SQLite {
			want = sqliteReaders()
			if def.w == def.db || def.w.Stats().MaxOpenConnections != 1 {
				t.Errorf("SQLite writes do not have one connection of their own")
			}
		}
		if got := def.DB().Stats().MaxOpenConnections; got != want {
			t.Errorf("default pool: %d connections, want %d", got, want)
		}
		if got := set.DB().Stats().MaxOpenConnections; got != 7 {
			t.Errorf("MaxOpenConns 7: %d connections", got)
		}
	})
	if _, err := Open(context.Background(), "sqlite", ":memory:", Options{MaxOpenConns: -1}); err == nil {
		t.Error("a negative pool size was accepted")
	}
}

// TestMigrateV1ToV2: a version 1 database with duplicate pending points of
// one tool call (which version 1 allowed) and a consumed point migrates:
// the newest duplicate stays pending, the older ones expire, and the
// consumed point counts as finished.
func TestMigrateV1ToV2(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(Options{})
		db := s.DB()
		for _, q := range []string{`DROP TABLE pause_points`, `DROP TABLE pause_points_schema`} {
			if _, err := db.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		v1 := migrations()[0]
		for _, stmt := range v1.stmts {
			if _, err := db.ExecContext(ctx, strings.ReplaceAll(stmt, "{time}", s.dialect.timeType())); err != nil {
				t.Fatal(err)
			}
		}
		d := s.dialect
		if _, err := db.ExecContext(ctx, `CREATE TABLE pause_points_schema (version INTEGER PRIMARY KEY, applied_at `+d.timeType()+` NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		now := s.now()
		if _, err := db.ExecContext(ctx, d.rebind(`INSERT INTO pause_points_schema VALUES (1, ?)`), d.timeArg(now)); err != nil {
			t.Fatal(err)
		}
		insert := d.rebind(`INSERT INTO pause_points (id, user_id, conversation_id, tool_call_id, tool_name, status, created_at, resolved_at, expires_at, consumed_at)
			VALUES (?, 'ada', 'c', ?, 't', ?, ?, ?, ?, ?)`)
		for i, row := range []struct {
			id, call, status string
			age              time.Duration
			consumed         bool
		}{
			{"old", "dup", "pending", 2 * time.Minute, false},
			{"older", "dup", "pending", 3 * time.Minute, false},
			{"new", "dup", "pending", time.Minute, false},
			{"done", "x", "approved", time.Minute, true},
		} {
			created := now.Add(-row.age)
			var resolved, consumed any
			if row.consumed {
				resolved, consumed = d.timeArg(created), d.timeArg(created)
			}
			if _, err := db.ExecContext(ctx, insert, row.id, row.call, row.status, d.timeArg(created), resolved, d.timeArg(now.Add(time.Hour)), consumed); err != nil {
				t.Fatalf("row %d: %v", i, err)
			}
		}
		if err := s.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		for id, want := range map[string]Status{"old": StatusExpired, "older": StatusExpired, "new": StatusPending, "done": StatusApproved} {
			p, err := s.Get(ctx, id)
			if err != nil || p.Status != want {
				t.Errorf("%s: %s %v, want %s", id, p.Status, err, want)
			}
			if id == "done" && p.FinishedAt.IsZero() {
				t.Error("a point consumed before version 2 is not finished")
			}
		}
		// The surviving point is the tool call's: Create finds it.
		p, err := s.Create(ctx, PausePoint{UserID: "ada", ConversationID: "c", ToolCallID: "dup", Tool: "t"})
		if err != nil || p.ID != "new" {
			t.Errorf("Create after the migration: %q %v, want the pending point new", p.ID, err)
		}
	})
}

// A call without a user cannot pause: nobody could approve it. That is the
// host's mistake, returned as a fatal error, not a store outage to retry.
func TestRequestApprovalWithoutUser(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		reg := askRegistry(t, open(Options{}), &sendMoney{})
		out, err := reg.Dispatch(context.Background(), &runtime.Call{}, runtime.ToolCall{ID: "1", Name: "send_money", Arguments: []byte(`{"to":"bob","amount":1}`)})
		if !runtime.IsFatal(err) || errors.Is(err, runtime.ErrApprovalStoreUnavailable) || out.Status != runtime.StatusFatal {
			t.Fatalf("%+v %v", out, err)
		}
	})
}
