package hitl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// Fault injection: every step of a pause point's life (Dispatch's Create,
// Resolve, Resume's Claim, the call and Finish) runs under a deadline swept
// from 0 up, so that contexts end before, during and after each database
// round trip — including after the server applied a write the client gave
// up on. The host retries as the README says (same tool call id, same
// decision, same resume attempt, fresh deadlines) and at the end every
// approved call ran exactly once, each tool call has exactly one pause
// point, none is left pending or claimed-but-unfinished, and every error the
// host saw was one of the kinds it is told to retry.

// faultDeadlines are the first attempt's deadlines; a retry doubles it.
var faultDeadlines = []time.Duration{
	0, time.Microsecond, 20 * time.Microsecond, 50 * time.Microsecond, 100 * time.Microsecond,
	200 * time.Microsecond, 350 * time.Microsecond, 500 * time.Microsecond, 750 * time.Microsecond,
	time.Millisecond, 1500 * time.Microsecond, 2 * time.Millisecond, 3 * time.Millisecond, 5 * time.Millisecond,
	8 * time.Millisecond, 13 * time.Millisecond, 21 * time.Millisecond,
}

// faultErrors counts the errors a host saw, by kind.
type faultErrors struct {
	deadline, unavailable int
}

// classify records err, failing the test unless it is a retryable kind:
// the context's deadline, or the store being unavailable.
func (f *faultErrors) classify(t *testing.T, what string, err error) {
	t.Helper()
	switch {
	case errors.Is(err, runtime.ErrApprovalStoreUnavailable):
		f.unavailable++
	case errors.Is(err, context.DeadlineExceeded):
		f.deadline++
	default:
		t.Fatalf("%s: error of no retryable kind: %v", what, err)
	}
}

// withRetries runs op with the deadline d, then again with doubling
// deadlines, until op reports done; a host would do the same.
func withRetries(t *testing.T, what string, d time.Duration, f *faultErrors, op func(ctx context.Context) (done bool, err error)) {
	t.Helper()
	for try := 0; ; try++ {
		if try == 40 {
			t.Fatalf("%s: still failing after %d tries", what, try)
		}
		ctx, cancel := context.WithTimeout(context.Background(), d)
		done, err := op(ctx)
		cancel()
		if done {
			return
		}
		if err != nil {
			f.classify(t, what, err)
		}
		d = max(2*d, 50*time.Microsecond)
	}
}

func TestFaultsRetryLikeAHost(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		store := open(Options{})
		tool := &sendMoney{}
		reg := askRegistry(t, store, tool)
		var f faultErrors
		reps := 3
		if testing.Short() {
			reps = 1
		}
		n := 0
		for rep := range reps {
			for _, d := range faultDeadlines {
				n++
				callID := fmt.Sprintf("call_%d_%d", rep, n)
				tc := runtime.ToolCall{ID: callID, Name: "send_money", Arguments: json.RawMessage(fmt.Sprintf(`{"to":"bob","amount":%d}`, n))}
				call := &runtime.Call{UserID: "ada", ConversationID: "conv-f"}

				// Dispatch until the call is paused at its point.
				var id string
				withRetries(t, "dispatch "+callID, d, &f, func(ctx context.Context) (bool, error) {
					out, err := reg.Dispatch(ctx, call, tc)
					switch {
					case err != nil:
						return false, err
					case out.Status == runtime.StatusPaused:
						if id != "" && id != out.Pause.PausePointID {
							t.Fatalf("%s: a retry paused at %s, the first attempt at %s", callID, out.Pause.PausePointID, id)
						}
						id = out.Pause.PausePointID
						return true, nil
					case out.Err != nil && out.Err.Kind == runtime.ErrApprovalStore:
						return false, out.Err
					}
					t.Fatalf("dispatch %s: %+v", callID, out)
					return false, nil
				})

				// The owner approves (the same decision again is fine).
				withRetries(t, "resolve "+callID, d, &f, func(ctx context.Context) (bool, error) {
					_, err := store.Resolve(ctx, id, Resolution{Approve: true, By: "ada"})
					return err == nil, err
				})

				// Resume with one attempt until it ran.
				opts := runtime.ResumeOptions{Attempt: "resume-" + callID}
				before := tool.count()
				withRetries(t, "resume "+callID, d, &f, func(ctx context.Context) (bool, error) {
					out, err := reg.ResumeWith(ctx, call, id, opts)
					if err != nil {
						return false, err
					}
					if out.Status != runtime.StatusOK {
						t.Fatalf("resume %s: %+v", callID, out)
					}
					return true, nil
				})
				if got := tool.count() - before; got != 1 {
					t.Fatalf("%s ran %d times, want exactly once", callID, got)
				}
				// Another resume, or this one again, never runs it again.
				for _, a := range []string{opts.Attempt, "another"} {
					if _, err := reg.ResumeWith(context.Background(), call, id, runtime.ResumeOptions{Attempt: a}); !errors.Is(err, runtime.ErrPausePointConsumed) {
						t.Fatalf("%s resumed by %s after it ran: %v", callID, a, err)
					}
				}
			}
		}
		if tool.count() != n {
			t.Errorf("%d calls ran, want %d", tool.count(), n)
		}
		assertOnePointPerCall(t, store, "conv-f", n)
		t.Logf("%d lifecycles; errors the host retried: %d deadline, %d store unavailable", n, f.deadline, f.unavailable)
		if f.deadline+f.unavailable == 0 {
			t.Error("no step ever failed: the deadlines injected no fault")
		}
	})
}

// assertOnePointPerCall checks that each of the conversation's n tool calls
// has exactly one pause point, approved, claimed and finished.
func assertOnePointPerCall(t *testing.T, s *Store, conv string, n int) {
	t.Helper()
	rows, err := s.DB().QueryContext(context.Background(), s.dialect.rebind(
		`SELECT tool_call_id, COUNT(*), MIN(status), MAX(status), COUNT(finished_at) FROM pause_points
		 WHERE conversation_id = ? GROUP BY tool_call_id`), conv)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	calls := 0
	for rows.Next() {
		var id, minStatus, maxStatus string
		var count, finished int
		if err := rows.Scan(&id, &count, &minStatus, &maxStatus, &finished); err != nil {
			t.Fatal(err)
		}
		calls++
		if count != 1 || minStatus != "approved" || maxStatus != "approved" || finished != 1 {
			t.Errorf("tool call %s: %d pause points (%s…%s), %d finished; want one, approved and finished", id, count, minStatus, maxStatus, finished)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if calls != n {
		t.Errorf("%d tool calls have pause points, want %d", calls, n)
	}
}

// TestFaultsWhileLocked: another connection holds the lock a step needs (a
// PostgreSQL row or table lock, SQLite's write lock) while the step's
// deadline passes; the lock is then released, and the host's retry finds
// the point the first attempt may have written, or claims it again, and the
// approved call runs exactly once.
func TestFaultsWhileLocked(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		store := open(Options{})
		tool := &sendMoney{}
		reg := askRegistry(t, store, tool)
		call := &runtime.Call{UserID: "ada", ConversationID: "conv-l"}
		// lock holds the lock a write to the point id (or, with id "", an
		// insert) needs, from a second connection, until release is called.
		lock := func(id string) (release func()) {
			t.Helper()
			conn, err := store.DB().Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var stmts []string
			switch {
			case store.dialect == Postgres && id != "":
				stmts = []string{`BEGIN`, `SELECT id FROM pause_points WHERE id = '` + id + `' FOR UPDATE`}
			case store.dialect == Postgres:
				stmts = []string{`BEGIN`, `LOCK TABLE pause_points IN SHARE ROW EXCLUSIVE MODE`}
			default:
				stmts = []string{`BEGIN IMMEDIATE`}
			}
			for _, q := range stmts {
				if _, err := conn.ExecContext(ctx, q); err != nil {
					conn.Close()
					t.Fatalf("%s: %v", q, err)
				}
			}
			return func() {
				if _, err := conn.ExecContext(ctx, `ROLLBACK`); err != nil {
					t.Errorf("rollback: %v", err)
				}
				conn.Close()
			}
		}
		short := func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(ctx, 100*time.Millisecond)
		}
		for i := range 3 {
			tc := runtime.ToolCall{ID: fmt.Sprintf("call_l%d", i), Name: "send_money", Arguments: json.RawMessage(`{"to":"bob","amount":7}`)}

			// Create while locked: the dispatch times out.
			release := lock("")
			c, cancel := short()
			out, err := reg.Dispatch(c, call, tc)
			cancel()
			release()
			if err == nil && out.Status != runtime.StatusPaused {
				t.Fatalf("dispatch while locked: %+v", out)
			}
			if err != nil && !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("dispatch while locked: %v, want the deadline", err)
			}
			out, err = reg.Dispatch(ctx, call, tc) // the host's retry
			if err != nil || out.Status != runtime.StatusPaused {
				t.Fatalf("retried dispatch: %+v %v", out, err)
			}
			id := out.Pause.PausePointID
			if _, err := store.Resolve(ctx, id, Resolution{Approve: true, By: "ada"}); err != nil {
				t.Fatal(err)
			}

			// Claim while the point is locked: the resume times out.
			opts := runtime.ResumeOptions{Attempt: "attempt-" + tc.ID}
			release = lock(id)
			c, cancel = short()
			_, err = reg.ResumeWith(c, call, id, opts)
			cancel()
			release()
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("resume while locked: %v, want the deadline", err)
			}
			before := tool.count()
			if out, err := reg.ResumeWith(ctx, call, id, opts); err != nil || out.Status != runtime.StatusOK {
				t.Fatalf("retried resume: %+v %v", out, err)
			}
			if got := tool.count() - before; got != 1 {
				t.Fatalf("the approved call ran %d times, want once", got)
			}
			if _, err := reg.ResumeWith(ctx, call, id, runtime.ResumeOptions{Attempt: "another"}); !errors.Is(err, runtime.ErrPausePointConsumed) {
				t.Fatalf("another resume: %v", err)
			}
		}
		assertOnePointPerCall(t, store, "conv-l", 3)
	})
}

// A store that is down: the call reaches the model as a short, stable tool
// error of its own kind, and the host gets the cause.
func TestStoreDown(t *testing.T) {
	forEachBackend(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		store := open(Options{})
		reg := askRegistry(t, store, &sendMoney{})
		if err := reg.AddModule(Module(&Tools{Store: store})); err != nil {
			t.Fatal(err)
		}
		store.DB().Close()
		if store.w != store.db {
			store.w.Close()
		}
		call := &runtime.Call{UserID: "ada", ConversationID: "conv-d"}
		for _, tc := range []runtime.ToolCall{
			{ID: "c1", Name: "send_money", Arguments: json.RawMessage(`{"to":"bob","amount":1}`)},
			{ID: "c2", Name: ToolWaitForApproval, Arguments: json.RawMessage(`{"action":"Refund order 1009"}`)},
		} {
			out, err := reg.Dispatch(ctx, call, tc)
			if err != nil || out.Status != runtime.StatusError || out.Err.Kind != runtime.ErrApprovalStore {
				t.Fatalf("%s: %+v, %v", tc.Name, out, err)
			}
			if !errors.Is(out.Err, ErrUnavailable) || !strings.Contains(out.Err.Err.Error(), "database is closed") {
				t.Errorf("%s: the host's error %v does not match ErrUnavailable or lost its cause", tc.Name, out.Err.Err)
			}
			want := "Error: " + tc.Name + " needs a person's approval, but the approval could not be recorded, so the call did not run; try again later."
			if out.Result.String() != want {
				t.Errorf("%s: the model reads %q, want %q", tc.Name, out.Result.String(), want)
			}
		}
		if _, err := reg.Resume(ctx, call, "pp"); !errors.Is(err, runtime.ErrApprovalStoreUnavailable) {
			t.Errorf("resume with the store down: %v", err)
		}
	})
}
