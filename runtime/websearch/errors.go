package websearch

import (
	"errors"
	"time"
)

// Sentinel errors classifying a failed search; an *Error wraps one of them.
var (
	// ErrUnauthorized: the API key is missing, wrong or not allowed (HTTP 401
	// or 403). Retrying does not help.
	ErrUnauthorized = errors.New("websearch: API key rejected")
	// ErrRateLimited: too many requests (HTTP 429); see Error.RetryAfter.
	ErrRateLimited = errors.New("websearch: rate limited")
	// ErrBadRequest: the API refused the request (another 4xx), for example
	// a query it cannot parse.
	ErrBadRequest = errors.New("websearch: request refused")
	// ErrUnavailable: the API failed (5xx) or could not be reached.
	ErrUnavailable = errors.New("websearch: service unavailable")
	// ErrTimeout: no answer within the backend's timeout.
	ErrTimeout = errors.New("websearch: timed out")
	// ErrBadResponse: the answer could not be read (malformed JSON).
	ErrBadResponse = errors.New("websearch: malformed response")
)

// Error is a failed search, with a message written for the model: what
// happened and what to do about it. errors.Is matches its Kind.
type Error struct {
	// Kind is one of the sentinel errors above.
	Kind error
	// Backend is the backend's name ("brave").
	Backend string
	// StatusCode is the HTTP status, when there was one.
	StatusCode int
	// RetryAfter is how long to wait before retrying (rate limits), when
	// the API said so.
	RetryAfter time.Duration
	// Message is the text the model reads.
	Message string
}

func (e *Error) Error() string { return e.Message }

// Unwrap returns Kind.
func (e *Error) Unwrap() error { return e.Kind }
