// Package hitl is the human-in-the-loop toolgen module and the durable store
// of pause points behind it.
//
// The module has one tool, wait_for_approval: the model describes an action
// it wants to take, the executor writes a pause point row and returns the
// runtime's pause sentinel (runtime.Pause), and Dispatch reports the call as
// paused with the pause point's id. The spec is hitl.tools.yaml;
// hitl_tools.gen.go is generated from it and the executor in hitl_tools.go is
// written by hand.
//
// The Store also implements runtime.Approvals, so the runtime's "ask"
// permission decision (a requires_approval tool, or a host policy) pauses on
// the same rows:
//
//	import _ "github.com/toolgen/toolgen/generated/hitl/sqlite" // or …/hitl/postgres
//
//	store, err := hitl.Open(ctx, "sqlite", "approvals.db", hitl.Options{})
//	reg := runtime.NewRegistry(runtime.Options{Approvals: store})
//	err = reg.AddModule(hitl.Module(&hitl.Tools{Store: store}))
//	// ... a call pauses with out.Pause.PausePointID; later, in the UI:
//	_, err = store.Resolve(ctx, id, hitl.Resolution{Approve: true, By: userID})
//	out, err = reg.Resume(ctx, call, id) // call.UserID: the owner; runs the original call, once
//
// Pause points live in SQLite (the embedded default, pure Go, driver
// "sqlite") or PostgreSQL (for several instances, pgx's database/sql driver
// "pgx"); the same code and queries serve both. This package links neither
// driver: import the sqlite or postgres sub-package (a blank import is
// enough) for the one you use. Only the owner of a pause point, or a
// resolver that Options.Authorize accepts, may resolve it or resume it; a
// decision is taken exactly once, can be used for Options.ClaimWindow, and
// is claimed for resumption by exactly one attempt. Every database error
// matches ErrUnavailable (runtime.ErrApprovalStoreUnavailable).
package hitl

//go:generate go run github.com/toolgen/toolgen/cmd/toolgen
