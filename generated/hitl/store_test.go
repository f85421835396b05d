package hitl

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// sampleCalls numbers the tool calls of samplePoint: each is a new call
// (Create is idempotent per tool call).
var sampleCalls atomic.Int64

// samplePoint is a pause point as a caller fills it in, for a new tool call.
func samplePoint(user string) PausePoint {
	return PausePoint{
		UserID:         user,
		ConversationID: "conv-1",
		TurnIndex:      3,
		ToolCallID:     fmt.Sprintf("call_%d", sampleCalls.Add(1)),
		Tool:           "stripe_create_invoice",
		// Key order and spacing are kept byte for byte.
		Arguments: json.RawMessage(`{"email": "ada@example.com", "amount":1200 ,"currency":"eur"}`),
		Label:     "Drafting invoice for ada@example.com",
		Reason:    "creates and sends an invoice",
	}
}

var idPattern = regexp.MustCompile(`^[0-9a-f]{32}$`)

func TestCreateGet(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		clk := newClock()
		s := open(Options{Now: clk.Now})
		in := samplePoint("ada")
		p, err := s.Create(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if !idPattern.MatchString(p.ID) {
			t.Errorf("ID = %q, want 32 lower-case hex digits", p.ID)
		}
		now := clk.Now().Truncate(time.Microsecond)
		want := in
		want.ID = p.ID
		want.Status = StatusPending
		want.CreatedAt = now
		want.ExpiresAt = now.Add(24 * time.Hour) // DefaultTTL
		assertPoint(t, "Create", p, want)

		got, err := s.Get(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		assertPoint(t, "Get", got, want)
		if got.CreatedAt.Location() != time.UTC {
			t.Errorf("CreatedAt location = %v, want UTC", got.CreatedAt.Location())
		}

		// Creating it again (a retry of the same tool call) returns the
		// pending point as stored; another tool call gets its own.
		clk.Advance(time.Second)
		again, err := s.Create(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		assertPoint(t, "Create again", again, want)
		other := in
		other.ToolCallID = "call_other"
		q, err := s.Create(ctx, other)
		if err != nil {
			t.Fatal(err)
		}
		if q.ID == p.ID {
			t.Errorf("two pause points share the id %s", p.ID)
		}
		if pending, _ := s.ListPending(ctx, "ada"); len(pending) != 2 {
			t.Errorf("%d pending points, want 2", len(pending))
		}
		// The same tool call id for another tool is an error, not its point.
		bad := in
		bad.Tool = "other_tool"
		if _, err := s.Create(ctx, bad); err == nil || !strings.Contains(err.Error(), "already waits") {
			t.Errorf("Create of another tool on the same call: %v", err)
		}

		// A caller may pick the id and the deadline.
		deadline := now.Add(90 * time.Minute)
		r, err := s.Create(ctx, PausePoint{ID: "mine", UserID: "ada", Tool: "t", ExpiresAt: deadline})
		if err != nil {
			t.Fatal(err)
		}
		if r.ID != "mine" || !r.ExpiresAt.Equal(deadline) {
			t.Errorf("Create with id and deadline = %q %v, want mine %v", r.ID, r.ExpiresAt, deadline)
		}
		if _, err := s.Create(ctx, PausePoint{ID: "mine", UserID: "ada", Tool: "t"}); err == nil {
			t.Error("Create with a duplicate id succeeded")
		}
		if got, err := s.Get(ctx, r.ID); err != nil || got.Arguments != nil {
			t.Errorf("Get of a point without arguments = %q, %v; want nil arguments", got.Arguments, err)
		}
	})
}

func assertPoint(t *testing.T, what string, got, want PausePoint) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("%s:\n got %s\nwant %s", what, g, w)
	}
	if string(got.Arguments) != string(want.Arguments) {
		t.Errorf("%s: arguments %q, want byte-identical %q", what, got.Arguments, want.Arguments)
	}
}

func TestCreateRejectsBadPoints(t *testing.T) {
	s := sqliteBackend().setup(t)(Options{})
	ctx := context.Background()
	for name, p := range map[string]PausePoint{
		"no owner":     {Tool: "t"},
		"no tool":      {UserID: "ada"},
		"resolved":     {UserID: "ada", Tool: "t", Status: StatusApproved},
		"with note":    {UserID: "ada", Tool: "t", Note: "ok"},
		"resolved by":  {UserID: "ada", Tool: "t", ResolvedBy: "bob"},
		"consumed":     {UserID: "ada", Tool: "t", ConsumedAt: time.Now()},
		"bogus status": {UserID: "ada", Tool: "t", Status: "maybe"},
	} {
		if _, err := s.Create(ctx, p); err == nil {
			t.Errorf("%s: Create succeeded", name)
		}
	}
}

func TestGetNotFound(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		s := open(Options{})
		_, err := s.Get(context.Background(), "0123456789abcdef0123456789abcdef")
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("Get of an unknown id: %v, want ErrNotFound", err)
		}
	})
}

func TestListPending(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		clk := newClock()
		s := open(Options{Now: clk.Now, TTL: time.Hour})
		create := func(user string) PausePoint {
			t.Helper()
			p, err := s.Create(ctx, samplePoint(user))
			if err != nil {
				t.Fatal(err)
			}
			clk.Advance(time.Second)
			return p
		}
		old := create("ada") // expires first
		clk.Advance(30 * time.Minute)
		a1 := create("ada")
		create("bob")
		approved := create("ada")
		denied := create("ada")
		a2 := create("ada")
		if _, err := s.Resolve(ctx, approved.ID, Resolution{Approve: true, By: "ada"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Resolve(ctx, denied.ID, Resolution{By: "ada"}); err != nil {
			t.Fatal(err)
		}
		ids := func(ps []PausePoint) []string {
			var out []string
			for _, p := range ps {
				out = append(out, p.ID)
			}
			return out
		}
		got, err := s.ListPending(ctx, "ada")
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{old.ID, a1.ID, a2.ID}; fmt.Sprint(ids(got)) != fmt.Sprint(want) {
			t.Errorf("ListPending(ada) = %v, want %v (oldest first, resolved left out)", ids(got), want)
		}
		// Past its TTL the first one is no longer pending, even before Expire marks it.
		clk.Advance(30 * time.Minute)
		got, err = s.ListPending(ctx, "ada")
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{a1.ID, a2.ID}; fmt.Sprint(ids(got)) != fmt.Sprint(want) {
			t.Errorf("ListPending(ada) after the first TTL = %v, want %v", ids(got), want)
		}
		if got, err := s.ListPending(ctx, "nobody"); err != nil || len(got) != 0 {
			t.Errorf("ListPending(nobody) = %v, %v; want none", got, err)
		}
	})
}

func TestResolve(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		clk := newClock()
		s := open(Options{Now: clk.Now})
		p, err := s.Create(ctx, samplePoint("ada"))
		if err != nil {
			t.Fatal(err)
		}
		clk.Advance(time.Minute)
		r, err := s.Resolve(ctx, p.ID, Resolution{Approve: true, Note: "go ahead", By: "ada"})
		if err != nil {
			t.Fatal(err)
		}
		want := p
		want.Status, want.Note, want.ResolvedBy, want.ResolvedAt = StatusApproved, "go ahead", "ada", clk.Now().Truncate(time.Microsecond)
		assertPoint(t, "Resolve", r, want)
		got, err := s.Get(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		assertPoint(t, "Get after Resolve", got, want)

		// The same decision again is idempotent and keeps the first note.
		clk.Advance(time.Minute)
		again, err := s.Resolve(ctx, p.ID, Resolution{Approve: true, Note: "sure", By: "ada"})
		if err != nil {
			t.Fatalf("approving twice: %v", err)
		}
		assertPoint(t, "Resolve again", again, want)
		// The other decision is refused, and the stored one stands.
		_, err = s.Resolve(ctx, p.ID, Resolution{Approve: false, Note: "no", By: "ada"})
		if !errors.Is(err, ErrAlreadyResolved) {
			t.Fatalf("denying an approved point: %v, want ErrAlreadyResolved", err)
		}
		got, _ = s.Get(ctx, p.ID)
		assertPoint(t, "Get after refused denial", got, want)

		// And the other way round.
		d, err := s.Create(ctx, samplePoint("ada"))
		if err != nil {
			t.Fatal(err)
		}
		if r, err := s.Resolve(ctx, d.ID, Resolution{Note: "too expensive", By: "ada"}); err != nil || r.Status != StatusDenied || r.Note != "too expensive" {
			t.Fatalf("deny: %+v, %v", r, err)
		}
		if _, err := s.Resolve(ctx, d.ID, Resolution{Approve: true, By: "ada"}); !errors.Is(err, ErrAlreadyResolved) {
			t.Fatalf("approving a denied point: %v, want ErrAlreadyResolved", err)
		}
		if _, err := s.Resolve(ctx, "nope", Resolution{Approve: true, By: "ada"}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("resolving an unknown id: %v, want ErrNotFound", err)
		}
	})
}

func TestResolveAuthorization(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		var asked []string
		s := open(Options{Authorize: func(ctx context.Context, resolver string, p PausePoint) bool {
			asked = append(asked, resolver+" on "+p.UserID+"'s "+p.Tool)
			return resolver == "admin"
		}})
		owners := open(Options{}) // same database, no Authorize
		p, err := s.Create(ctx, samplePoint("ada"))
		if err != nil {
			t.Fatal(err)
		}
		for _, by := range []string{"", "bob"} {
			if _, err := s.Resolve(ctx, p.ID, Resolution{Approve: true, By: by}); !errors.Is(err, ErrForbidden) {
				t.Errorf("resolve by %q: %v, want ErrForbidden", by, err)
			}
		}
		_, err = owners.Resolve(ctx, p.ID, Resolution{Approve: true, By: "admin"})
		if !errors.Is(err, ErrForbidden) {
			t.Errorf("resolve by admin without Authorize: %v, want ErrForbidden", err)
		}
		if want := `"admin" is neither its owner nor an authorised resolver`; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("resolve by admin without Authorize: %v, want it to say %s", err, want)
		}
		if got, _ := s.Get(ctx, p.ID); got.Status != StatusPending {
			t.Fatalf("refused resolutions changed the point: %s", got.Status)
		}
		r, err := s.Resolve(ctx, p.ID, Resolution{Approve: false, Note: "not today", By: "admin"})
		if err != nil || r.ResolvedBy != "admin" || r.Status != StatusDenied {
			t.Fatalf("resolve by an authorised admin: %+v, %v", r, err)
		}
		if want := "bob on ada's stripe_create_invoice,admin on ada's stripe_create_invoice"; fmt.Sprint(joinComma(asked)) != want {
			t.Errorf("Authorize was asked %q, want %q (never for the owner or an empty resolver)", joinComma(asked), want)
		}
		// The owner needs no authorisation.
		q, _ := owners.Create(ctx, samplePoint("ada"))
		if _, err := owners.Resolve(ctx, q.ID, Resolution{Approve: true, By: "ada"}); err != nil {
			t.Errorf("resolve by the owner: %v", err)
		}
	})
}

func joinComma(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += ","
		}
		out += s
	}
	return out
}

func TestExpiry(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		clk := newClock()
		s := open(Options{Now: clk.Now, TTL: 10 * time.Minute})
		p1, _ := s.Create(ctx, samplePoint("ada"))
		p2, _ := s.Create(ctx, samplePoint("ada"))
		clk.Advance(5 * time.Minute)
		p3, _ := s.Create(ctx, samplePoint("bob"))
		if !p1.ExpiresAt.Equal(p1.CreatedAt.Add(10 * time.Minute)) {
			t.Errorf("ExpiresAt = %v, want CreatedAt + TTL = %v", p1.ExpiresAt, p1.CreatedAt.Add(10*time.Minute))
		}
		// Just before the deadline, nothing expires.
		if n, err := s.Expire(ctx, p1.ExpiresAt.Add(-time.Microsecond)); err != nil || n != 0 {
			t.Fatalf("Expire before the deadline = %d, %v; want 0", n, err)
		}
		clk.Advance(5 * time.Minute) // p1, p2 due; p3 not
		_, err := s.Resolve(ctx, p1.ID, Resolution{Approve: true, By: "ada"})
		if !errors.Is(err, ErrExpired) {
			t.Fatalf("resolving a point past its TTL: %v, want ErrExpired", err)
		}
		if got, _ := s.Get(ctx, p1.ID); got.Status != StatusExpired || got.ResolvedAt.IsZero() {
			t.Errorf("after a late Resolve the point is %s (resolved at %v), want expired", got.Status, got.ResolvedAt)
		}
		n, err := s.Expire(ctx, clk.Now())
		if err != nil || n != 1 {
			t.Fatalf("Expire = %d, %v; want 1 (p2; p1 already expired, p3 not due)", n, err)
		}
		for _, id := range []string{p1.ID, p2.ID} {
			if _, err := s.Resolve(ctx, id, Resolution{By: "ada"}); !errors.Is(err, ErrExpired) {
				t.Errorf("resolving expired %s: %v, want ErrExpired", id, err)
			}
			if _, _, err := s.Claim(ctx, claimBy("ada", id)); !errors.Is(err, ErrExpired) {
				t.Errorf("claiming expired %s: %v, want ErrExpired", id, err)
			}
		}
		if got, _ := s.Get(ctx, p3.ID); got.Status != StatusPending {
			t.Errorf("p3 is %s, want pending", got.Status)
		}
		// A resolved point never expires.
		if _, err := s.Resolve(ctx, p3.ID, Resolution{Approve: true, By: "bob"}); err != nil {
			t.Fatal(err)
		}
		clk.Advance(time.Hour)
		if n, err := s.Expire(ctx, clk.Now()); err != nil || n != 0 {
			t.Fatalf("Expire after everything was decided = %d, %v; want 0", n, err)
		}
		// An approval's use-by window (default: the TTL) is over.
		if _, _, err := s.Claim(ctx, claimBy("bob", p3.ID)); !errors.Is(err, ErrExpired) || !strings.Contains(err.Error(), "was not used by") {
			t.Errorf("claiming an approval an hour after it was given (TTL 10m): %v, want ErrExpired", err)
		}
		// Within its window it can be claimed.
		p4, _ := s.Create(ctx, samplePoint("bob"))
		if _, err := s.Resolve(ctx, p4.ID, Resolution{Approve: true, By: "bob"}); err != nil {
			t.Fatal(err)
		}
		clk.Advance(10*time.Minute - time.Microsecond)
		if _, _, err := s.Claim(ctx, claimBy("bob", p4.ID)); err != nil {
			t.Errorf("claiming an approval just inside its window: %v", err)
		}
		// A longer ClaimWindow keeps approvals usable longer.
		long := open(Options{Now: clk.Now, TTL: 10 * time.Minute, ClaimWindow: 30 * 24 * time.Hour})
		p5, _ := long.Create(ctx, samplePoint("bob"))
		if _, err := long.Resolve(ctx, p5.ID, Resolution{Approve: true, By: "bob"}); err != nil {
			t.Fatal(err)
		}
		clk.Advance(29 * 24 * time.Hour)
		if _, _, err := long.Claim(ctx, claimBy("bob", p5.ID)); err != nil {
			t.Errorf("claiming within a 30-day window: %v", err)
		}
	})
}

func TestClaim(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(Options{})
		var approvals runtime.Approvals = s
		in := samplePoint("ada")
		id, err := approvals.RequestApproval(ctx, runtime.ApprovalRequest{
			UserID: in.UserID, ConversationID: in.ConversationID, TurnIndex: in.TurnIndex, ToolCallID: in.ToolCallID,
			Tool: in.Tool, Arguments: in.Arguments, Label: in.Label, Reason: in.Reason,
		})
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Get(ctx, id)
		if err != nil || p.Status != StatusPending || p.Tool != in.Tool || string(p.Arguments) != string(in.Arguments) {
			t.Fatalf("RequestApproval stored %+v, %v", p, err)
		}
		if _, _, err := approvals.Claim(ctx, claimBy("ada", id)); !errors.Is(err, ErrNotResolved) {
			t.Fatalf("claiming a pending point: %v, want ErrNotResolved", err)
		}
		if _, err := s.Resolve(ctx, id, Resolution{Approve: true, Note: "fine", By: "ada"}); err != nil {
			t.Fatal(err)
		}
		req, dec, err := approvals.Claim(ctx, claimBy("ada", id))
		if err != nil {
			t.Fatal(err)
		}
		wantReq := runtime.ApprovalRequest{
			UserID: "ada", ConversationID: "conv-1", TurnIndex: 3, ToolCallID: in.ToolCallID, Tool: "stripe_create_invoice",
			Arguments: in.Arguments, Label: in.Label, Reason: in.Reason,
		}
		if fmt.Sprintf("%+v", req) != fmt.Sprintf("%+v", wantReq) {
			t.Errorf("Claim request = %+v, want %+v", req, wantReq)
		}
		if dec.Behavior != runtime.Allow {
			t.Errorf("Claim decision = %v, want allow", dec)
		}
		if got, _ := s.Get(ctx, id); !got.Consumed() {
			t.Error("a claimed point is not marked consumed")
		}
		if _, _, err := approvals.Claim(ctx, claimBy("ada", id)); !errors.Is(err, ErrConsumed) {
			t.Fatalf("second Claim: %v, want ErrConsumed", err)
		}

		// A denial carries the reviewer's note, or says there was none.
		for note, want := range map[string]string{"over budget": "over budget", "": "no reason given"} {
			p, _ := s.Create(ctx, samplePoint("ada"))
			if _, err := s.Resolve(ctx, p.ID, Resolution{Note: note, By: "ada"}); err != nil {
				t.Fatal(err)
			}
			_, dec, err := s.Claim(ctx, claimBy("ada", p.ID))
			if err != nil || dec.Behavior != runtime.Deny || dec.Reason != want {
				t.Errorf("Claim of a denial with note %q = %v %q, %v; want deny %q", note, dec.Behavior, dec.Reason, err, want)
			}
		}
		if _, _, err := s.Claim(ctx, claimBy("ada", "nope")); !errors.Is(err, ErrNotFound) {
			t.Errorf("claiming an unknown id: %v, want ErrNotFound", err)
		}
	})
}

// TestConcurrentResolve: many goroutines resolve one point at once with
// mixed decisions; exactly one resolution is written, everyone who asked
// for the same decision sees it, everyone else gets ErrAlreadyResolved.
func TestConcurrentResolve(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		const n = 32
		ctx := context.Background()
		s := open(Options{Authorize: func(context.Context, string, PausePoint) bool { return true }})
		for round := 0; round < 3; round++ {
			p, err := s.Create(ctx, samplePoint("ada"))
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			start := make(chan struct{})
			results := make([]PausePoint, n)
			errs := make([]error, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					results[i], errs[i] = s.Resolve(ctx, p.ID, Resolution{
						Approve: i%2 == 0, Note: fmt.Sprintf("note %d", i), By: fmt.Sprintf("reviewer-%d", i),
					})
				}()
			}
			close(start)
			wg.Wait()

			stored, err := s.Get(ctx, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !stored.Status.Resolved() {
				t.Fatalf("after %d concurrent resolutions the point is %s", n, stored.Status)
			}
			winners := 0
			for i := range n {
				approve := i%2 == 0
				same := approve == (stored.Status == StatusApproved)
				switch {
				case same && errs[i] != nil:
					t.Errorf("reviewer %d asked for the stored decision and got %v", i, errs[i])
				case same && (results[i].ResolvedBy != stored.ResolvedBy || results[i].Note != stored.Note):
					t.Errorf("reviewer %d was told %q/%q, but %q/%q is stored", i, results[i].ResolvedBy, results[i].Note, stored.ResolvedBy, stored.Note)
				case !same && !errors.Is(errs[i], ErrAlreadyResolved):
					t.Errorf("reviewer %d asked for the other decision and got %v, want ErrAlreadyResolved", i, errs[i])
				}
				if fmt.Sprintf("reviewer-%d", i) == stored.ResolvedBy {
					winners++
					if stored.Note != fmt.Sprintf("note %d", i) || same != true {
						t.Errorf("the stored resolution mixes reviewer %d with note %q", i, stored.Note)
					}
				}
			}
			if winners != 1 {
				t.Errorf("%d winners, want exactly 1", winners)
			}
		}
	})
}

// TestConcurrentClaim: exactly one of many concurrent Claims succeeds.
func TestConcurrentClaim(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		const n = 32
		ctx := context.Background()
		s := open(Options{})
		p, _ := s.Create(ctx, samplePoint("ada"))
		if _, err := s.Resolve(ctx, p.ID, Resolution{Approve: true, By: "ada"}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, _, errs[i] = s.Claim(ctx, claimBy("ada", p.ID))
			}()
		}
		close(start)
		wg.Wait()
		ok := 0
		for i, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, ErrConsumed):
				t.Errorf("claim %d: %v, want nil or ErrConsumed", i, err)
			}
		}
		if ok != 1 {
			t.Errorf("%d claims succeeded, want exactly 1", ok)
		}
	})
}

func TestMigrate(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(Options{}) // Open migrates
		p, err := s.Create(ctx, samplePoint("ada"))
		if err != nil {
			t.Fatal(err)
		}
		// Again, and from several instances at once: nothing changes.
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = s.Migrate(ctx) }()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("concurrent Migrate %d: %v", i, err)
			}
		}
		_ = open(Options{})
		var versions int
		if err := s.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM pause_points_schema`).Scan(&versions); err != nil {
			t.Fatal(err)
		}
		if versions != SchemaVersion() {
			t.Errorf("%d rows in pause_points_schema, want %d", versions, SchemaVersion())
		}
		if _, err := s.Get(ctx, p.ID); err != nil {
			t.Errorf("a point did not survive re-migration: %v", err)
		}
		// A database from newer code is refused.
		if _, err := s.DB().ExecContext(ctx, s.dialect.rebind(`INSERT INTO pause_points_schema (version, applied_at) VALUES (?, ?)`),
			SchemaVersion()+1, s.dialect.timeArg(time.Now().UTC())); err != nil {
			t.Fatal(err)
		}
		if err := s.Migrate(ctx); err == nil {
			t.Error("Migrate accepted a database with a newer schema version")
		}
	})
}

func TestMigrateFreshConcurrent(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		// Several instances start against an empty database at once.
		ctx := context.Background()
		base := open(Options{})
		if _, err := base.DB().ExecContext(ctx, `DROP TABLE pause_points`); err != nil {
			t.Fatal(err)
		}
		if _, err := base.DB().ExecContext(ctx, `DROP TABLE pause_points_schema`); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 6)
		for i := range errs {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = base.Migrate(ctx) }()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("Migrate %d on an empty database: %v", i, err)
			}
		}
		if _, err := base.Create(ctx, samplePoint("ada")); err != nil {
			t.Errorf("Create after concurrent migrations: %v", err)
		}
	})
}

// TestSQLiteFileSurvivesRestart: a pause point written to a SQLite file is
// there, decision and all, after the Store is closed and the file reopened.
func TestSQLiteFileSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hitl.db")
	s, err := Open(ctx, "sqlite", path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Create(ctx, samplePoint("ada"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.Resolve(ctx, p.ID, Resolution{Approve: true, Note: "ok", By: "ada"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, p.ID); err == nil {
		t.Fatal("Get after Close succeeded; the database was not closed")
	}

	s2, err := Open(ctx, "sqlite", path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got, err := s2.Get(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	assertPoint(t, "after reopening", got, want)
	if _, _, err := s2.Claim(ctx, claimBy("ada", p.ID)); err != nil {
		t.Errorf("Claim after reopening: %v", err)
	}
	var mode string
	if err := s2.DB().QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	var fk int
	if err := s2.DB().QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys = %d, %v; want 1", fk, err)
	}
}

func TestSQLiteInMemory(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, "sqlite", ":memory:", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, err := s.Create(ctx, samplePoint("ada"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, p.ID); err != nil {
		t.Fatalf("an in-memory store lost its point: %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := Open(ctx, "mysql", "x", Options{}); err == nil {
		t.Error("Open with an unsupported driver succeeded")
	}
	if _, err := Open(ctx, "sqlite", filepath.Join(t.TempDir(), "no", "such", "dir", "x.db"), Options{}); err == nil {
		t.Error("Open of a file in a missing directory succeeded")
	}
	if _, err := New(nil, SQLite, Options{}); err == nil {
		t.Error("New(nil) succeeded")
	}
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := New(db, Dialect(9), Options{}); err == nil {
		t.Error("New with an unknown dialect succeeded")
	}
	if _, err := New(db, SQLite, Options{TTL: -time.Second}); err == nil {
		t.Error("New with a negative TTL succeeded")
	}
	// New does not migrate and does not own the database.
	s, err := New(db, SQLite, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(ctx, samplePoint("ada")); err == nil {
		t.Error("Create before Migrate succeeded")
	}
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(ctx, samplePoint("ada")); err != nil {
		t.Error(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.PingContext(ctx); err != nil {
		t.Errorf("Close of a Store made by New closed the caller's database: %v", err)
	}
}

func TestDialect(t *testing.T) {
	q := `UPDATE t SET a = ?, b = ? WHERE c IN (?, 'x')`
	if got := SQLite.rebind(q); got != q {
		t.Errorf("SQLite.rebind = %q", got)
	}
	if got, want := Postgres.rebind(q), `UPDATE t SET a = $1, b = $2 WHERE c IN ($3, 'x')`; got != want {
		t.Errorf("Postgres.rebind = %q, want %q", got, want)
	}
	for driver, want := range map[string]Dialect{"sqlite": SQLite, "pgx": Postgres, "postgres": Postgres} {
		if d, err := DialectFor(driver); err != nil || d != want {
			t.Errorf("DialectFor(%q) = %v, %v; want %v", driver, d, err, want)
		}
	}
	if _, err := DialectFor("sqlite3"); err == nil {
		t.Error(`DialectFor("sqlite3") succeeded (that is the cgo driver's name)`)
	}
	// SQLite timestamps sort as text in time order.
	a := time.Date(2025, 1, 2, 3, 4, 5, 6000, time.UTC)
	b := time.Date(2025, 1, 2, 3, 4, 5, 7000, time.UTC)
	c := time.Date(2025, 10, 1, 0, 0, 0, 0, time.UTC)
	sa, sb, sc := SQLite.timeArg(a).(string), SQLite.timeArg(b).(string), SQLite.timeArg(c).(string)
	if !(sa < sb && sb < sc) || len(sa) != len(sc) {
		t.Errorf("timestamps do not sort as text: %s %s %s", sa, sb, sc)
	}
	var back time.Time
	if err := (dbTime{&back}).Scan(sa); err != nil || !back.Equal(a) {
		t.Errorf("scan %q = %v, %v; want %v", sa, back, err, a)
	}
}

func TestSQLiteDSN(t *testing.T) {
	for in, want := range map[string]string{
		"a.db":                                  "a.db?_busy_timeout=10000&_journal_mode=WAL&_foreign_keys=1&_txlock=immediate",
		"file:a.db?mode=rwc":                    "file:a.db?mode=rwc&_busy_timeout=10000&_journal_mode=WAL&_foreign_keys=1&_txlock=immediate",
		":memory:":                              ":memory:?_busy_timeout=10000&_foreign_keys=1&_txlock=immediate",
		"a.db?_pragma=busy_timeout(1)&_fk=0":    "a.db?_pragma=busy_timeout(1)&_fk=0&_journal_mode=WAL&_txlock=immediate",
		"a.db?_journal=DELETE&_txlock=deferred": "a.db?_journal=DELETE&_txlock=deferred&_busy_timeout=10000&_foreign_keys=1",
	} {
		if got := sqliteDSN(in); got != want {
			t.Errorf("sqliteDSN(%q) =\n %q, want\n %q", in, got, want)
		}
	}
}
