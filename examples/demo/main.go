// Command demo plays a scripted conversation (the model's calls, turn by
// turn, come from a script: no LLM) through toolgen's runtime, and prints
// what happens for a person to read. It is what
// `make demo` runs.
//
// One registry holds the three modules this repository ships — stripe
// (generated/stripe, against a stripe-mock the demo starts on a free
// loopback port), hitl (generated/hitl, pause points in a SQLite file) and
// the example tasks module — and a legacy native catalog
// (examples/nativecatalog) as the fallback for names no module owns. The
// script shows the catalog with the Stripe gate closed and open, status
// labels as they render, several calls of one step run together, a
// validation error and the model's corrected retry, a destructive call
// that pauses, the stored pause point and the user's decision, the resumed
// call, a denial, legacy tools and unknown names.
//
// The demo is also a check: it exits with status 1 when a step does not
// behave as scripted.
//
//	go run ./examples/demo                 # starts stripe-mock if installed
//	go run ./examples/demo -no-stripe      # skips the Stripe part
//	go run ./examples/demo -stripe-mock-url http://127.0.0.1:12111
//
// stripe-mock is found as internal/stripemock.Find finds it ($STRIPE_MOCK_BIN,
// $PATH, $(go env GOPATH)/bin); `bash .ci/stripe-mock.sh` installs the pinned
// version. Without it the demo explains why and plays the rest.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/toolgen/toolgen/internal/stripemock"
)

func main() {
	os.Exit(mainStatus())
}

func mainStatus() int {
	noStripe := flag.Bool("no-stripe", false, "skip the Stripe part")
	stripeURL := flag.String("stripe-mock-url", "", "use the stripe-mock running at this base URL instead of starting one")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "demo: unexpected arguments %q\n", flag.Args())
		flag.Usage()
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	opts := options{StripeURL: *stripeURL}
	switch {
	case *noStripe:
		opts.StripeURL, opts.StripeSkipped = "", "-no-stripe was given."
	case opts.StripeURL == "":
		url, stopMock, err := stripemock.StartProcess(ctx, "")
		if err != nil {
			if ctx.Err() != nil {
				return 1
			}
			opts.StripeSkipped = explainStripeMock(err)
			break
		}
		defer stopMock()
		opts.StripeURL = url
	}
	if err := run(ctx, os.Stdout, opts); err != nil {
		fmt.Fprintf(os.Stderr, "\ndemo: FAILED at %v\n", err)
		return 1
	}
	return 0
}

// explainStripeMock says why stripe-mock could not be started, and what to do.
func explainStripeMock(err error) string {
	if errors.Is(err, stripemock.ErrNotFound) {
		return "stripe-mock was not found (looked at $STRIPE_MOCK_BIN, $PATH and $(go env GOPATH)/bin). " +
			"`make demo` installs it with .ci/stripe-mock.sh, which runs `go install github.com/stripe/stripe-mock@" +
			stripemock.Version + "` and needs the Go module proxy; run `bash .ci/stripe-mock.sh` to see why that failed."
	}
	return "stripe-mock did not start: " + err.Error() + ". Run `bash .ci/stripe-mock.sh` to reinstall it, " +
		"or pass -stripe-mock-url with the URL of one you started."
}
