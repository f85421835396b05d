// Package httpapi is the HTTP client that the generated executors of
// HTTP-bound tools (`http:` in a spec) call. A host makes one Client with a
// CredentialSource, which gives each user's credentials (and optionally the
// base URL) per call — nothing is global — and passes it to the generated
// Module. Gates answers the module's connection gate from the same source.
//
// A generated executor describes its request as data (an API and an
// Operation) and calls Client.Do, which encodes the arguments by OpenAPI's
// style and explode rules (path, query form and deepObject, headers, JSON
// and form bodies), sends the request with the call's context, follows
// pagination, and turns the response into the tool's result: a 2xx JSON
// body decoded into the typed result (so only the fields the spec's result
// schema names are kept), anything else a tool error with the status and
// the API's own message.
package httpapi

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/toolgen/toolgen/runtime"
)

// Credentials are one user's credentials for an API. Which fields are used
// depends on the API's Auth: Token for bearer, Username and Password for
// basic, APIKey for an API key.
type Credentials struct {
	// BaseURL, when set, replaces the API's base URL for this user (a
	// regional endpoint, a test server).
	BaseURL  string
	Token    string
	Username string
	Password string
	APIKey   string
}

// CredentialSource gives the credentials of the user a call is made for.
// The host implements it, usually from its store of connected accounts.
type CredentialSource interface {
	// Credentials returns the caller's credentials and true, or false when
	// the user has not connected the API. An error means the lookup itself
	// failed.
	Credentials(ctx context.Context, call *runtime.Call) (Credentials, bool, error)
}

// CredentialFunc adapts a function to CredentialSource.
type CredentialFunc func(ctx context.Context, call *runtime.Call) (Credentials, bool, error)

// Credentials calls f.
func (f CredentialFunc) Credentials(ctx context.Context, call *runtime.Call) (Credentials, bool, error) {
	return f(ctx, call)
}

// Gates returns the host's runtime.Gates with gate answered by src: open
// when the caller has credentials. Other gates go to next (nil: closed).
func Gates(gate string, src CredentialSource, next runtime.Gates) runtime.Gates {
	return runtime.GatesFunc(func(ctx context.Context, call *runtime.Call, g string) (bool, error) {
		if g != gate {
			if next == nil {
				return false, nil
			}
			return next.GateOpen(ctx, call, g)
		}
		if src == nil {
			return false, nil
		}
		_, ok, err := src.Credentials(ctx, call)
		return ok, err
	})
}

// AuthType is how requests are authenticated.
type AuthType int

const (
	NoAuth       AuthType = iota
	Bearer                // Authorization: Bearer <Token>
	Basic                 // Authorization: Basic base64(<Username>:<Password>)
	APIKeyHeader          // <Name>: <APIKey>
	APIKeyQuery           // ?<Name>=<APIKey>
)

// Auth is an API's authentication scheme.
type Auth struct {
	Type AuthType
	// Name is the header or query parameter of an API key.
	Name string
}

// API is what a generated module knows about the API its tools call.
type API struct {
	// Name is the API's name in messages ("stripe").
	Name string
	// BaseURL is the default base URL; Credentials.BaseURL overrides it.
	BaseURL string
	Auth    Auth
}

// In is where an argument goes.
type In int

const (
	InPath In = iota + 1
	InQuery
	InHeader
	InBody      // a property of the body object
	InWholeBody // the whole body
)

// Style is an OpenAPI parameter style.
type Style int

const (
	Simple Style = iota
	Form
	DeepObject
	SpaceDelimited
	PipeDelimited
)

// BodyEncoding is how a request body is encoded.
type BodyEncoding int

const (
	NoBody BodyEncoding = iota
	JSONBody
	FormBody // application/x-www-form-urlencoded
)

// Arg is where one argument goes: Param is its JSON name in the tool's
// arguments, Name its name in the request.
type Arg struct {
	Param   string
	Name    string
	In      In
	Style   Style
	Explode bool
}

// PageStyle is a pagination pattern.
type PageStyle int

const (
	// Cursor: while HasMore is true, the next request sets the Cursor
	// argument to the CursorField of the last item (Stripe's
	// starting_after).
	Cursor PageStyle = iota + 1
	// NextLink: the Next field holds the next page's URL.
	NextLink
	// PageToken: the NextToken field holds the Token argument's next value.
	PageToken
)

// Paginate describes an operation's pagination. A call fetches up to the
// MaxPages argument's value of pages (1 when absent, never more than
// MaxPagesLimit) and returns the first page with the Items of every page.
type Paginate struct {
	Style       PageStyle
	Items       string
	MaxPages    string
	HasMore     string
	Cursor      string
	CursorField string
	Next        string
	Token       string
	NextToken   string
}

// MaxPagesLimit caps the pages of one call whatever the arguments say.
const MaxPagesLimit = 100

// Operation is one bound tool's request.
type Operation struct {
	// Tool is the tool's name, for messages.
	Tool   string
	Method string
	// Path is the path template, appended to the base URL.
	Path     string
	Body     BodyEncoding
	Args     []Arg
	Paginate *Paginate
}

// DefaultMaxResponseBytes is the response body cap of a zero Client.
const DefaultMaxResponseBytes = 8 << 20

// DefaultTimeout bounds a request of a Client without an HTTP client, on top
// of the call's own deadline.
const DefaultTimeout = 60 * time.Second

// Client sends the requests of bound tools. Its zero value is not usable:
// Credentials is required. A Client is safe for concurrent use.
type Client struct {
	// Credentials gives each caller's credentials (required).
	Credentials CredentialSource
	// HTTP sends the requests; nil: a client with DefaultTimeout.
	HTTP *http.Client
	// MaxResponseBytes caps a response body; 0: DefaultMaxResponseBytes.
	// A larger body is a tool error.
	MaxResponseBytes int64
	// UserAgent is sent when set.
	UserAgent string
	// Header holds headers sent with every request (an API version, say);
	// the request's own headers and authentication win over them.
	Header http.Header
}

var defaultHTTP = &http.Client{Timeout: DefaultTimeout}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return defaultHTTP
}

func (c *Client) maxBytes() int64 {
	if c.MaxResponseBytes > 0 {
		return c.MaxResponseBytes
	}
	return DefaultMaxResponseBytes
}

// ErrNoCredentials is what Do's error wraps when the caller has no
// credentials (the gate should have stopped the call).
var ErrNoCredentials = errors.New("httpapi: the caller has no credentials for the API")
