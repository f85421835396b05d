package stripe

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	stripego "github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/client"

	"github.com/toolgen/toolgen/runtime"
)

// GateName is the connection gate of every tool of the module, as the spec
// declares it (gate: stripe).
const GateName = "stripe"

// NotConnectedMessage is what the model reads when the caller has no Stripe
// key: the spec's gate_message.
const NotConnectedMessage = "Stripe is not connected for this account."

// KeySource gives the Stripe secret key (sk_… or a restricted rk_… key) of
// the user a call is made for. The host implements it, usually by looking
// the key up in its own store of connected accounts.
type KeySource interface {
	// StripeKey returns the caller's key and true, or false when the user
	// has not connected Stripe. An error means the lookup itself failed.
	StripeKey(ctx context.Context, call *runtime.Call) (key string, ok bool, err error)
}

// KeySourceFunc adapts a function to KeySource.
type KeySourceFunc func(ctx context.Context, call *runtime.Call) (string, bool, error)

// StripeKey calls f.
func (f KeySourceFunc) StripeKey(ctx context.Context, call *runtime.Call) (string, bool, error) {
	return f(ctx, call)
}

// Gates returns the host's runtime.Gates with the "stripe" gate answered by
// keys: open when the caller has a key. Other gates are passed to next; a
// nil next keeps them closed. With it, users without a key do not see the
// module's tools in the catalog, and a direct call gets NotConnectedMessage.
func Gates(keys KeySource, next runtime.Gates) runtime.Gates {
	return runtime.GatesFunc(func(ctx context.Context, call *runtime.Call, gate string) (bool, error) {
		if gate != GateName {
			if next == nil {
				return false, nil
			}
			return next.GateOpen(ctx, call, gate)
		}
		if keys == nil {
			return false, nil
		}
		key, ok, err := keys.StripeKey(ctx, call)
		if err != nil {
			return false, err
		}
		return ok && key != "", nil
	})
}

// defaultHTTPTimeout matches stripe-go's own default client.
const defaultHTTPTimeout = 80 * time.Second

// client returns a Stripe client for the caller's key. The backends (HTTP
// client, base URL, retries, logger) are shared by every caller; the key is
// per client and is never stored in stripe-go's globals.
func (t *Tools) client(ctx context.Context, call *runtime.Call) (*client.API, error) {
	if t.Keys == nil {
		return nil, &runtime.ToolError{Kind: runtime.ErrGate, Message: NotConnectedMessage}
	}
	key, ok, err := t.Keys.StripeKey(ctx, call)
	if err != nil {
		if ctx.Err() != nil || runtime.IsFatal(err) {
			return nil, fmt.Errorf("stripe: looking up the key: %w", err)
		}
		return nil, &runtime.ToolError{Kind: runtime.ErrGate, Err: err,
			Message: "could not check the Stripe connection for this account; try again later."}
	}
	if !ok || key == "" {
		return nil, &runtime.ToolError{Kind: runtime.ErrGate, Message: NotConnectedMessage}
	}
	t.once.Do(t.initBackends)
	return client.New(key, t.backends), nil
}

func (t *Tools) initBackends() {
	hc := t.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: defaultHTTPTimeout}
	}
	var logger stripego.LeveledLoggerInterface = &stripego.LeveledLogger{Level: stripego.LevelNull}
	if t.Logger != nil {
		logger = slogLogger{t.Logger}
	}
	retries := int64(stripego.DefaultMaxNetworkRetries)
	switch {
	case t.MaxNetworkRetries > 0:
		retries = int64(t.MaxNetworkRetries)
	case t.MaxNetworkRetries < 0:
		retries = 0
	}
	// One config per backend: stripe-go fills a missing URL in the config it
	// is given, so a shared config would point every backend at the first's.
	config := func() *stripego.BackendConfig {
		c := &stripego.BackendConfig{HTTPClient: hc, LeveledLogger: logger, MaxNetworkRetries: stripego.Int64(retries)}
		if t.BaseURL != "" {
			c.URL = stripego.String(strings.TrimRight(t.BaseURL, "/"))
		}
		return c
	}
	t.backends = &stripego.Backends{
		API:     stripego.GetBackendWithConfig(stripego.APIBackend, config()),
		Connect: stripego.GetBackendWithConfig(stripego.ConnectBackend, config()),
		Uploads: stripego.GetBackendWithConfig(stripego.UploadsBackend, config()),
	}
}

// slogLogger adapts a *slog.Logger to stripe-go's leveled logger.
type slogLogger struct{ l *slog.Logger }

func (s slogLogger) Debugf(format string, v ...any) {
	s.l.Debug("stripe: " + fmt.Sprintf(format, v...))
}
func (s slogLogger) Infof(format string, v ...any) { s.l.Info("stripe: " + fmt.Sprintf(format, v...)) }
func (s slogLogger) Warnf(format string, v ...any) { s.l.Warn("stripe: " + fmt.Sprintf(format, v...)) }
func (s slogLogger) Errorf(format string, v ...any) {
	s.l.Error("stripe: " + fmt.Sprintf(format, v...))
}

// now returns the Tools' clock reading.
func (t *Tools) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}

// idempotencyKey returns the Stripe idempotency key of one request (step) of
// a tool call: the same tool call with the same arguments always sends the
// same key, so a host that retries a call does not create anything twice.
// It is empty (no key) when the call has no tool call id.
func idempotencyKey(call *runtime.Call, step string, args any) string {
	if call == nil || call.ToolCallID == "" {
		return ""
	}
	a, _ := json.Marshal(args)
	h := sha256.New()
	for _, s := range []string{call.UserID, call.ConversationID, call.ToolName, call.ToolCallID, step} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	h.Write(a)
	return "toolgen-" + hex.EncodeToString(h.Sum(nil)[:20])
}

// setIdempotency sets the idempotency key of p for step, if there is one.
func setIdempotency(p *stripego.Params, call *runtime.Call, step string, args any) {
	if k := idempotencyKey(call, step, args); k != "" {
		p.SetIdempotencyKey(k)
	}
}

// stripeError turns an error of stripe-go into what the model reads. A
// cancelled or expired context is returned wrapped as it is, so that the
// runtime hands it to the host; anything else becomes a tool error that says
// what Stripe answered.
func stripeError(doing string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("stripe: %s: %w", doing, err)
	}
	var se *stripego.Error
	if !errors.As(err, &se) {
		return &runtime.ToolError{Kind: runtime.ErrExecution, Err: err,
			Message: "could not reach Stripe while " + doing + ": " + err.Error()}
	}
	var msg string
	switch {
	case se.HTTPStatusCode == http.StatusUnauthorized:
		msg = "Stripe rejected this account's API key while " + doing + "; the user needs to reconnect Stripe."
	case se.HTTPStatusCode == http.StatusForbidden:
		msg = "the connected Stripe key is not allowed to do this (" + doing + "): " + se.Msg
	case se.HTTPStatusCode == http.StatusTooManyRequests:
		msg = "Stripe is rate limiting requests (" + doing + "); try again in a minute."
	case se.HTTPStatusCode >= 500:
		msg = "Stripe had an internal error while " + doing + "; try again later."
	default:
		msg = "Stripe refused " + doing + ": " + strings.TrimSuffix(se.Msg, ".")
		if se.Param != "" {
			msg += " (parameter " + se.Param + ")"
		}
		msg += "."
	}
	if se.RequestID != "" {
		msg += " [request " + se.RequestID + "]"
	}
	return &runtime.ToolError{Kind: runtime.ErrExecution, Message: msg, Err: err}
}

// invalidArgs reports violations the schema cannot express (which fields go
// together), in the same form as the runtime's argument errors.
func invalidArgs(tool string, vs ...runtime.Violation) error {
	var b strings.Builder
	b.WriteString("invalid arguments for " + tool + ":")
	for _, v := range vs {
		b.WriteString("\n- " + v.Path + ": " + v.Message)
	}
	return &runtime.ToolError{Kind: runtime.ErrInvalidArgs, Tool: tool, Message: b.String(), Violations: vs}
}

// take reads up to limit items of type T from it, fetching further pages
// as needed and no more, and reports whether Stripe has more beyond them.
func take[T any](it *stripego.Iter, limit int) (items []T, more bool, err error) {
	for len(items) < limit && it.Next() {
		v, ok := it.Current().(T)
		if !ok {
			return items, false, fmt.Errorf("unexpected %T in a Stripe list", it.Current())
		}
		items = append(items, v)
	}
	if err := it.Err(); err != nil {
		return items, false, err
	}
	if len(items) < limit {
		return items, false, nil
	}
	// Either the last page says there is more, or the page holds items we
	// did not take; Next only fetches when the first is true, so this asks
	// Stripe nothing.
	more = it.Meta().HasMore || it.Next()
	return items, more, it.Err()
}

// walk calls fn for every item of type T in it, across every page.
func walk[T any](it *stripego.Iter, fn func(T)) error {
	for it.Next() {
		v, ok := it.Current().(T)
		if !ok {
			return fmt.Errorf("unexpected %T in a Stripe list", it.Current())
		}
		fn(v)
	}
	return it.Err()
}

// pageSize is the page size to ask Stripe for when limit items are wanted.
func pageSize(limit int64) *int64 {
	return stripego.Int64(min(max(limit, 1), 100))
}

// optString converts an optional string of a spec type (CustomerID,
// Email, …) to the *string stripe-go takes.
func optString[T ~string](p *T) *string {
	if p == nil {
		return nil
	}
	return stripego.String(string(*p))
}

// unixTime renders a Stripe timestamp as RFC 3339 in UTC; zero is "".
func unixTime(sec int64) string {
	if sec == 0 {
		return ""
	}
	return time.Unix(sec, 0).UTC().Format(time.RFC3339)
}
