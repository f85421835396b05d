// Package runtime is the small library that toolgen's generated code imports
// and that hosts use to run tools when a model calls them.
//
// A host builds a Registry, adds generated modules (and hand-written, MCP and
// provider tools) to it, lists the Catalog the model may see, and passes each
// of the model's tool calls to Dispatch. Dispatch runs one fixed pipeline:
//
//  1. look the name up (constant time); unknown names go to the fallback or
//     come back as an unknown-tool error;
//  2. compute the status label and emit the start event;
//  3. decode and validate the arguments (strict, size and depth limited);
//  4. check that the tool is enabled (its flag, then the host's policy);
//  5. check the tool's connection gate;
//  6. check permission (the tool's own check, then the host's policy):
//     allow, deny with a reason, or ask (the call pauses for approval);
//  7. execute with a context and a progress emitter, recovering panics;
//  8. shape the result (size cap) and emit the finish event.
//
// Ordinary failures become tool-error results the model can read and correct
// from. Fatal errors (see Fatal) and a cancelled context are returned to the
// host as Go errors.
//
// A host's loop, in short:
//
//	reg := runtime.NewRegistry(runtime.Options{Gates: gates, Approvals: store})
//	err := reg.AddModule(stripe.Module(impl)) // generated modules; Add for hand-written tools
//	call := &runtime.Call{UserID: u, ConversationID: c, TurnIndex: n, Events: sink}
//	tools, err := reg.EncodeCatalog(ctx, call, runtime.DialectAnthropic, runtime.EncodeOptions{})
//	// send tools to the model, in the provider's own shape
//	// the model answers with tool calls:
//	outs, err := reg.RunCalls(ctx, call, toolCalls, runtime.RunOptions{})
//	// each outs[i].Result goes back to the model; err is fatal for the turn.
//	// An outcome with StatusPaused waits at outs[i].Pause.PausePointID;
//	// once a person has decided, the owner's call resumes it (retry an
//	// error with the same Attempt; see ResumeWith):
//	out, err := reg.ResumeWith(ctx, call, pausePointID, runtime.ResumeOptions{Attempt: requestID})
//
// Every Options field has a usable zero value (see Options), as does
// RunOptions; a Tool's Flags do not, so start from DefaultFlags.
//
// The package depends on the standard library only.
package runtime
