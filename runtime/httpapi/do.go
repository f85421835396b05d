package httpapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// StatusError is a non-2xx answer of the API. The tool error Do returns for
// it wraps it (errors.As).
type StatusError struct {
	StatusCode int
	// Message is the API's own error message (from a JSON error body), or
	// the start of the body.
	Message string
	// RetryAfter is the Retry-After header's delay, 0 when absent.
	RetryAfter time.Duration
}

func (e *StatusError) Error() string {
	msg := strconv.Itoa(e.StatusCode) + " " + http.StatusText(e.StatusCode)
	if e.Message != "" {
		msg += ": " + e.Message
	}
	if e.RetryAfter > 0 {
		msg += fmt.Sprintf(" (retry after %s)", e.RetryAfter)
	}
	return msg
}

// Do runs one call of a bound tool: it sends op's request with args (the
// tool's decoded argument struct, read through its JSON form) for the
// caller's credentials and returns the tool's result. With a non-nil result
// (a pointer to the tool's typed result), the 2xx JSON body is decoded into
// it — fields the result type does not have are dropped, values of an
// unexpected type are left out — and the result is its JSON; without one,
// the body itself (compacted when it is JSON). An empty body (204 No
// Content) is a short text saying the call succeeded.
//
// A non-2xx answer, an unreachable API, a body over the size cap and a
// caller without credentials are tool errors for the model; a cancelled
// or expired ctx is returned as ctx's error.
func (c *Client) Do(ctx context.Context, call *runtime.Call, api *API, op *Operation, args, result any) (runtime.Result, error) {
	body, err := c.fetch(ctx, call, api, op, args)
	if err != nil {
		return runtime.Result{}, err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		// 204 No Content, say: nothing to decode, but the model should
		// read that the call succeeded.
		return runtime.Text("Done: the " + apiName(api) + " API answered with no content."), nil
	}
	if result == nil {
		if json.Valid(body) {
			var b bytes.Buffer
			if json.Compact(&b, body) == nil {
				return runtime.Text(b.String()), nil
			}
		}
		return runtime.Text(string(body)), nil
	}
	var te *json.UnmarshalTypeError
	if err := json.Unmarshal(body, result); err != nil && !errors.As(err, &te) {
		return runtime.Result{}, c.toolError(op, "the "+apiName(api)+" API's response is not the JSON the tool expects: "+err.Error(), err)
	}
	return runtime.JSON(result)
}

func apiName(api *API) string {
	if api.Name != "" {
		return api.Name
	}
	return "HTTP"
}

func (c *Client) toolError(op *Operation, msg string, err error) error {
	return &runtime.ToolError{Kind: runtime.ErrExecution, Tool: op.Tool, Message: msg, Err: err}
}

// fetch sends the request (every page of it) and returns the 2xx body,
// pages merged.
func (c *Client) fetch(ctx context.Context, call *runtime.Call, api *API, op *Operation, args any) ([]byte, error) {
	if c.Credentials == nil {
		return nil, &runtime.ToolError{Kind: runtime.ErrGate, Tool: op.Tool, Message: apiName(api) + " is not connected for this account.", Err: ErrNoCredentials}
	}
	creds, ok, err := c.Credentials.Credentials(ctx, call)
	if err != nil {
		return nil, &runtime.ToolError{Kind: runtime.ErrGate, Tool: op.Tool, Message: "the " + apiName(api) + " connection could not be checked", Err: err}
	}
	if !ok {
		return nil, &runtime.ToolError{Kind: runtime.ErrGate, Tool: op.Tool, Message: apiName(api) + " is not connected for this account.", Err: ErrNoCredentials}
	}
	base := api.BaseURL
	if creds.BaseURL != "" {
		base = creds.BaseURL
	}
	base = strings.TrimSuffix(base, "/")
	if base == "" {
		return nil, runtime.Fatal(fmt.Errorf("httpapi: %s: no base URL: the API declares none and the credentials give none", op.Tool))
	}
	vals, err := argValues(args)
	if err != nil {
		return nil, runtime.Fatal(fmt.Errorf("httpapi: %s: %w", op.Tool, err))
	}
	pg := op.Paginate
	pages := 1
	if pg != nil && pg.MaxPages != "" {
		if n, ok := vals[pg.MaxPages].(json.Number); ok {
			if i, err := n.Int64(); err == nil && i > 1 {
				pages = int(min(i, MaxPagesLimit))
			}
		}
	}

	req, err := c.newRequest(ctx, base, api, op, vals, creds)
	if err != nil {
		return nil, c.toolError(op, "the request could not be built: "+err.Error(), err)
	}
	first, err := c.send(ctx, api, op, req)
	if err != nil || pg == nil || pages == 1 {
		return first, err
	}
	return c.morePages(ctx, call, base, api, op, vals, creds, req.URL, first, pages)
}

// argValues reads the tool's argument struct as JSON values (numbers kept
// as written).
func argValues(args any) (map[string]any, error) {
	if args == nil {
		return map[string]any{}, nil
	}
	data, err := json.Marshal(args)
	if err != nil {
		return nil, fmt.Errorf("arguments: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("arguments: %w", err)
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// newRequest builds the request of op from the argument values.
func (c *Client) newRequest(ctx context.Context, base string, api *API, op *Operation, vals map[string]any, creds Credentials) (*http.Request, error) {
	pathVals := map[string]string{}
	var query, form pairs
	var jsonBody map[string]any
	var whole any
	hasWhole := false
	header := http.Header{}
	for i := range op.Args {
		a := &op.Args[i]
		v, present := vals[a.Param]
		switch a.In {
		case InPath:
			s, ok := scalar(v)
			if !ok {
				return nil, fmt.Errorf("path parameter %q must be a string, number or boolean", a.Param)
			}
			pathVals[a.Name] = s
		case InQuery:
			var err error
			if query, err = appendValue(query, a, v); err != nil {
				return nil, err
			}
		case InHeader:
			if s, ok := scalar(v); ok {
				header.Set(a.Name, s)
			}
		case InBody:
			if !present {
				continue
			}
			if op.Body == FormBody {
				var err error
				if form, err = appendValue(form, a, v); err != nil {
					return nil, err
				}
				continue
			}
			if jsonBody == nil {
				jsonBody = map[string]any{}
			}
			jsonBody[a.Name] = v
		case InWholeBody:
			whole, hasWhole = v, present
		}
	}
	path, err := expandPath(op.Path, pathVals)
	if err != nil {
		return nil, err
	}
	switch api.Auth.Type {
	case APIKeyQuery:
		query = append(query, pair{api.Auth.Name, creds.APIKey})
	}
	u := base + path
	if len(query) > 0 {
		u += "?" + query.encode()
	}
	var body io.Reader
	contentType := ""
	switch op.Body {
	case FormBody:
		if hasWhole {
			form, err = appendValue(form, &Arg{Param: "body", Name: "body", Style: Form, Explode: true}, whole)
			if err != nil {
				return nil, err
			}
		}
		body, contentType = strings.NewReader(form.encode()), "application/x-www-form-urlencoded"
	case JSONBody:
		var v any = jsonBody
		if hasWhole {
			v = whole
		} else if jsonBody == nil {
			v = map[string]any{}
		}
		data, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		body, contentType = bytes.NewReader(data), "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, op.Method, u, body)
	if err != nil {
		return nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	c.authorize(req, api, creds)
	return req, nil
}

func (c *Client) authorize(req *http.Request, api *API, creds Credentials) {
	for k, v := range c.Header {
		if _, set := req.Header[k]; !set {
			req.Header[k] = v
		}
	}
	req.Header.Set("Accept", "application/json")
	if c.UserAgent != "" {
		req.Header.Set("User-Agent", c.UserAgent)
	}
	switch api.Auth.Type {
	case Bearer:
		req.Header.Set("Authorization", "Bearer "+creds.Token)
	case Basic:
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(creds.Username+":"+creds.Password)))
	case APIKeyHeader:
		req.Header.Set(api.Auth.Name, creds.APIKey)
	}
}

// send sends req and returns its 2xx body, or the error the model (or, for
// a cancelled context, the host) gets.
func (c *Client) send(ctx context.Context, api *API, op *Operation, req *http.Request) ([]byte, error) {
	resp, err := c.httpClient().Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, c.toolError(op, "the "+apiName(api)+" API could not be reached: "+err.Error(), err)
	}
	defer resp.Body.Close()
	limit := c.maxBytes()
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, c.toolError(op, "the "+apiName(api)+" API's response could not be read: "+err.Error(), err)
	}
	if int64(len(data)) > limit {
		return nil, &runtime.ToolError{Kind: runtime.ErrResultSize, Tool: op.Tool,
			Message: fmt.Sprintf("the %s API's response is larger than %d bytes; ask for less (a smaller limit, fewer fields)", apiName(api), limit)}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		se := &StatusError{StatusCode: resp.StatusCode, Message: errorMessage(data), RetryAfter: retryAfter(resp.Header.Get("Retry-After"), time.Now())}
		return nil, c.toolError(op, "the "+apiName(api)+" API answered "+se.Error(), se)
	}
	return data, nil
}

// maxMessage caps the API's error message shown to the model.
const maxMessage = 500

// errorMessage finds the API's own message in an error body: the common
// JSON shapes ({"error": {"message"}}, Stripe, Google, GitHub; {"message"};
// {"error": "..."}, OAuth's error_description; RFC 9457's detail, else its title;
// {"errors": [{"message"}]}), else the body's text.
func errorMessage(body []byte) string {
	var v any
	if json.Unmarshal(body, &v) == nil {
		if m := findMessage(v, 0); m != "" {
			return clip(m)
		}
	}
	text := strings.TrimSpace(string(body))
	if strings.HasPrefix(text, "<") { // an HTML error page says nothing useful
		return ""
	}
	return clip(text)
}

func findMessage(v any, depth int) string {
	if depth > 3 {
		return ""
	}
	switch x := v.(type) {
	case map[string]any:
		for _, k := range []string{"message", "error_description", "detail", "title", "error", "errors", "msg"} {
			switch e := x[k].(type) {
			case string:
				if e == "" {
					continue
				}
				return e
			case map[string]any, []any:
				if m := findMessage(e, depth+1); m != "" {
					return m
				}
			}
		}
	case []any:
		if len(x) > 0 {
			return findMessage(x[0], depth+1)
		}
	}
	return ""
}

func clip(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	cut := maxMessage
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(h string, now time.Time) time.Duration {
	if h == "" {
		return 0
	}
	if n, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil && t.After(now) {
		return t.Sub(now).Round(time.Second)
	}
	return 0
}

// morePages fetches pages after first, up to pages in all, and returns
// the first page's object with the items of every page and the last page's
// continuation fields.
func (c *Client) morePages(ctx context.Context, call *runtime.Call, base string, api *API, op *Operation, vals map[string]any, creds Credentials, at *url.URL, first []byte, pages int) ([]byte, error) {
	pg := op.Paginate
	merged, ok := decodeObject(first)
	if !ok {
		return first, nil
	}
	items, _ := merged[pg.Items].([]any)
	page := merged
	baseURL, _ := url.Parse(base)
	for n := 2; n <= pages; n++ {
		var req *http.Request
		var err error
		switch pg.Style {
		case Cursor:
			more, _ := page[pg.HasMore].(bool)
			pageItems, _ := page[pg.Items].([]any)
			if !more || len(pageItems) == 0 {
				return encodeMerged(merged, pg, items)
			}
			last, _ := pageItems[len(pageItems)-1].(map[string]any)
			cur, ok := scalar(last[pg.CursorField])
			if !ok || cur == "" {
				return encodeMerged(merged, pg, items)
			}
			vals[pg.Cursor] = cur
			req, err = c.newRequest(ctx, base, api, withParam(op, pg.Cursor), vals, creds)
		case PageToken:
			tok, _ := scalar(page[pg.NextToken])
			if tok == "" {
				return encodeMerged(merged, pg, items)
			}
			vals[pg.Token] = tok
			req, err = c.newRequest(ctx, base, api, withParam(op, pg.Token), vals, creds)
		case NextLink:
			next, _ := page[pg.Next].(string)
			if next == "" {
				return encodeMerged(merged, pg, items)
			}
			u, perr := at.Parse(next)
			// Credentials go only to the API's own host.
			if perr != nil || baseURL == nil || u.Host != baseURL.Host || u.Scheme != baseURL.Scheme {
				return encodeMerged(merged, pg, items)
			}
			if api.Auth.Type == APIKeyQuery && !u.Query().Has(api.Auth.Name) {
				q := u.Query()
				q.Set(api.Auth.Name, creds.APIKey)
				u.RawQuery = q.Encode()
			}
			at = u
			req, err = http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
			if err == nil {
				c.authorize(req, api, creds)
			}
		default:
			return encodeMerged(merged, pg, items)
		}
		if err != nil {
			return nil, c.toolError(op, "the request for page "+strconv.Itoa(n)+" could not be built: "+err.Error(), err)
		}
		call.Progress(fmt.Sprintf("Fetching page %d", n))
		data, err := c.send(ctx, api, op, req)
		if err != nil {
			return nil, err
		}
		next, ok := decodeObject(data)
		if !ok {
			return encodeMerged(merged, pg, items)
		}
		more, _ := next[pg.Items].([]any)
		items = append(items, more...)
		page = next
		for _, k := range []string{pg.HasMore, pg.Next, pg.NextToken} {
			if k != "" {
				if v, ok := next[k]; ok {
					merged[k] = v
				} else {
					delete(merged, k)
				}
			}
		}
	}
	return encodeMerged(merged, pg, items)
}

// withParam returns op with a query argument for param added when none of
// its arguments is param (a cursor the spec does not expose).
func withParam(op *Operation, param string) *Operation {
	for _, a := range op.Args {
		if a.Param == param {
			return op
		}
	}
	cp := *op
	cp.Args = append(append([]Arg(nil), op.Args...), Arg{Param: param, Name: param, In: InQuery, Style: Form, Explode: true})
	return &cp
}

func decodeObject(data []byte) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return nil, false
	}
	return m, true
}

func encodeMerged(merged map[string]any, pg *Paginate, items []any) ([]byte, error) {
	if items != nil {
		merged[pg.Items] = items
	}
	return json.Marshal(merged)
}
