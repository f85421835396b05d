package stripemock

import (
	"context"
	"sync"
)

// StartProcess starts stripe-mock outside a test (the demo uses it): bin is
// the binary to run, or "" to look for it with Find. It starts the server
// on free loopback ports, waits until it answers (at most 30 seconds), and
// returns its HTTP base URL ("http://127.0.0.1:<port>") and a function that
// stops it and waits for it to exit. The server also stops when ctx is done;
// a ctx that is done during the start makes StartProcess return ctx's error
// (the half-started server is stopped). A missing binary is ErrNotFound.
//
// stripe-mock's own output is kept from the caller's stdout and stderr; its
// stderr is quoted in the error when it fails to start.
func StartProcess(ctx context.Context, bin string) (baseURL string, stop func(), err error) {
	if err := ctx.Err(); err != nil {
		return "", nil, err
	}
	if bin == "" {
		if bin, err = Find(); err != nil {
			return "", nil, err
		}
	}
	type started struct {
		url  string
		stop func()
		err  error
	}
	ch := make(chan started, 1)
	go func() {
		url, stop, err := run(bin)
		ch <- started{url, stop, err}
	}()
	select {
	case s := <-ch:
		if s.err != nil {
			return "", nil, s.err
		}
		var once sync.Once
		stopOnce := func() { once.Do(s.stop) }
		unregister := context.AfterFunc(ctx, stopOnce)
		return s.url, func() {
			unregister()
			stopOnce()
		}, nil
	case <-ctx.Done():
		// run gives up within its start timeout; stop what it started.
		go func() {
			if s := <-ch; s.err == nil {
				s.stop()
			}
		}()
		return "", nil, ctx.Err()
	}
}
