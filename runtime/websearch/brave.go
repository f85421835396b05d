package websearch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Defaults of BraveOptions.
const (
	DefaultBraveEndpoint   = "https://api.search.brave.com/res/v1/llm/context"
	DefaultBraveMaxResults = 5
	DefaultBraveTimeout    = 10 * time.Second
)

// maxBraveResponseBytes bounds how much of a response is read.
const maxBraveResponseBytes = 16 << 20

// BraveOptions configure NewBrave. Zero fields take the defaults; the
// optional API parameters are not sent when zero, so Brave's own defaults
// apply. Values out of the API's ranges are errors from NewBrave.
type BraveOptions struct {
	// APIKey is the Brave Search API subscription token, sent as the
	// X-Subscription-Token header. Required.
	APIKey string
	// Endpoint is the LLM Context endpoint. Default DefaultBraveEndpoint.
	Endpoint string
	// MaxResults is the most results returned (1-50, default 5); it is also
	// sent as maximum_number_of_urls.
	MaxResults int
	// CandidateCount is how many search results Brave considers when
	// selecting the context (count: 1-50; Brave's default is 20).
	CandidateCount int
	// MaxTokens is the approximate token budget of the whole context
	// (maximum_number_of_tokens: 1024-32768; default 8192).
	MaxTokens int
	// MaxSnippets is the most snippets in the whole context
	// (maximum_number_of_snippets: 1-100; default 50).
	MaxSnippets int
	// MaxTokensPerURL is the token budget per page
	// (maximum_number_of_tokens_per_url: 512-8192; default 4096).
	MaxTokensPerURL int
	// MaxSnippetsPerURL is the most snippets per page
	// (maximum_number_of_snippets_per_url: 1-100; default 50).
	MaxSnippetsPerURL int
	// ContextThresholdMode is how strictly content is filtered for
	// relevance (context_threshold_mode): "strict", "balanced" (Brave's
	// default), "lenient" or "disabled".
	ContextThresholdMode string
	// Country is the 2-letter country code results come from (country),
	// or "ALL".
	Country string
	// SearchLanguage is the language code of the results (search_lang),
	// like "en", "pt-br" or "zh-hans".
	SearchLanguage string
	// Freshness limits results by discovery date (freshness): "pd" (past
	// day), "pw" (week), "pm" (month), "py" (year), or a range
	// "YYYY-MM-DDtoYYYY-MM-DD".
	Freshness string
	// Timeout bounds each search, including reading the answer. Default
	// DefaultBraveTimeout (10s); negative is an error.
	Timeout time.Duration
	// HTTPClient sends the requests. Nil: http.DefaultClient.
	HTTPClient *http.Client
}

// Brave is a Backend on Brave Search's LLM Context API, which returns pages
// with pre-extracted text snippets. It is safe for concurrent use.
type Brave struct {
	endpoint   string
	apiKey     string
	maxResults int
	timeout    time.Duration
	client     *http.Client
	params     url.Values // the fixed query parameters
}

// NewBrave returns a Brave backend configured by opts, or an error saying
// which option is wrong.
func NewBrave(opts BraveOptions) (*Brave, error) {
	if strings.TrimSpace(opts.APIKey) == "" {
		return nil, errors.New("websearch: Brave: APIKey is required")
	}
	b := &Brave{
		endpoint:   DefaultBraveEndpoint,
		apiKey:     opts.APIKey,
		maxResults: DefaultBraveMaxResults,
		timeout:    DefaultBraveTimeout,
		client:     opts.HTTPClient,
		params:     url.Values{},
	}
	if opts.Endpoint != "" {
		u, err := url.Parse(opts.Endpoint)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return nil, fmt.Errorf("websearch: Brave: Endpoint %q is not an http(s) URL", opts.Endpoint)
		}
		b.endpoint = opts.Endpoint
	}
	if b.client == nil {
		b.client = http.DefaultClient
	}
	switch {
	case opts.Timeout < 0:
		return nil, fmt.Errorf("websearch: Brave: Timeout must be positive, got %v", opts.Timeout)
	case opts.Timeout > 0:
		b.timeout = opts.Timeout
	}
	if opts.MaxResults != 0 {
		if opts.MaxResults < 1 || opts.MaxResults > 50 {
			return nil, fmt.Errorf("websearch: Brave: MaxResults must be between 1 and 50, got %d", opts.MaxResults)
		}
		b.maxResults = opts.MaxResults
	}
	b.params.Set("maximum_number_of_urls", strconv.Itoa(b.maxResults))
	for _, p := range []struct {
		name     string
		v        int
		min, max int
		param    string
	}{
		{"CandidateCount", opts.CandidateCount, 1, 50, "count"},
		{"MaxTokens", opts.MaxTokens, 1024, 32768, "maximum_number_of_tokens"},
		{"MaxSnippets", opts.MaxSnippets, 1, 100, "maximum_number_of_snippets"},
		{"MaxTokensPerURL", opts.MaxTokensPerURL, 512, 8192, "maximum_number_of_tokens_per_url"},
		{"MaxSnippetsPerURL", opts.MaxSnippetsPerURL, 1, 100, "maximum_number_of_snippets_per_url"},
	} {
		if p.v == 0 {
			continue
		}
		if p.v < p.min || p.v > p.max {
			return nil, fmt.Errorf("websearch: Brave: %s must be between %d and %d, got %d", p.name, p.min, p.max, p.v)
		}
		b.params.Set(p.param, strconv.Itoa(p.v))
	}
	if m := opts.ContextThresholdMode; m != "" {
		switch m {
		case "strict", "balanced", "lenient", "disabled":
			b.params.Set("context_threshold_mode", m)
		default:
			return nil, fmt.Errorf("websearch: Brave: ContextThresholdMode must be strict, balanced, lenient or disabled, got %q", m)
		}
	}
	if c := opts.Country; c != "" {
		if !(len(c) == 2 && isLetters(c) || strings.EqualFold(c, "ALL")) {
			return nil, fmt.Errorf("websearch: Brave: Country must be a 2-letter country code or ALL, got %q", c)
		}
		b.params.Set("country", strings.ToUpper(c))
	}
	if l := opts.SearchLanguage; l != "" {
		if !validLanguage(l) {
			return nil, fmt.Errorf("websearch: Brave: SearchLanguage must be a language code like en, pt-br or zh-hans, got %q", l)
		}
		b.params.Set("search_lang", strings.ToLower(l))
	}
	if f := opts.Freshness; f != "" {
		if err := checkFreshness(f); err != nil {
			return nil, fmt.Errorf("websearch: Brave: %w", err)
		}
		b.params.Set("freshness", f)
	}
	return b, nil
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

// validLanguage accepts "en", "pt-br", "zh-hans": 2 letters, optionally a
// hyphen and 2-4 more.
func validLanguage(s string) bool {
	lang, region, hasRegion := strings.Cut(s, "-")
	if len(lang) != 2 || !isLetters(lang) {
		return false
	}
	return !hasRegion || len(region) >= 2 && len(region) <= 4 && isLetters(region)
}

// checkFreshness accepts pd, pw, pm, py and YYYY-MM-DDtoYYYY-MM-DD with the
// start not after the end.
func checkFreshness(f string) error {
	switch f {
	case "pd", "pw", "pm", "py":
		return nil
	}
	from, to, ok := strings.Cut(f, "to")
	if ok {
		start, err1 := time.Parse(time.DateOnly, from)
		end, err2 := time.Parse(time.DateOnly, to)
		if err1 == nil && err2 == nil {
			if start.After(end) {
				return fmt.Errorf("Freshness %q: the range starts after it ends", f)
			}
			return nil
		}
	}
	return fmt.Errorf("Freshness must be pd, pw, pm, py or YYYY-MM-DDtoYYYY-MM-DD, got %q", f)
}

// Name returns "brave".
func (b *Brave) Name() string { return "brave" }

// braveResponse is the part of an LLM Context answer the backend reads.
type braveResponse struct {
	Grounding struct {
		Generic []braveGrounding `json:"generic"`
		POI     *braveGrounding  `json:"poi"`
		Map     []braveGrounding `json:"map"`
	} `json:"grounding"`
	Sources map[string]struct {
		Title string `json:"title"`
	} `json:"sources"`
}

type braveGrounding struct {
	URL      string   `json:"url"`
	Title    string   `json:"title"`
	Snippets []string `json:"snippets"`
}

// braveError is Brave's error body.
type braveError struct {
	Error struct {
		Code   string `json:"code"`
		Detail string `json:"detail"`
	} `json:"error"`
}

// Search runs the query on Brave's LLM Context API and returns at most
// MaxResults pages: the generic results, then a point of interest and map
// results when Brave gives them. Failures are *Error values whose message
// tells the model what to do; a done ctx returns ctx's error.
func (b *Brave) Search(ctx context.Context, req Request) (Response, error) {
	q := strings.TrimSpace(req.Query)
	if q == "" {
		return Response{}, b.fail(ErrBadRequest, 0, 0, "web search needs a query; give one and search again")
	}
	params := make(url.Values, len(b.params)+1)
	for k, v := range b.params {
		params[k] = v
	}
	params.Set("q", q)
	u := b.endpoint
	if strings.Contains(u, "?") {
		u += "&" + params.Encode()
	} else {
		u += "?" + params.Encode()
	}
	tctx, cancel := context.WithTimeoutCause(ctx, b.timeout, ErrTimeout)
	defer cancel()
	hreq, err := http.NewRequestWithContext(tctx, http.MethodGet, u, nil)
	if err != nil {
		return Response{}, b.fail(ErrBadRequest, 0, 0, "web search could not build its request: "+err.Error())
	}
	hreq.Header.Set("Accept", "application/json")
	hreq.Header.Set("X-Subscription-Token", b.apiKey)
	resp, err := b.client.Do(hreq)
	if err != nil {
		return Response{}, b.transportError(ctx, tctx, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBraveResponseBytes+1))
	if err != nil {
		return Response{}, b.transportError(ctx, tctx, err)
	}
	if resp.StatusCode != http.StatusOK {
		return Response{}, b.statusError(resp, body)
	}
	if len(body) > maxBraveResponseBytes {
		return Response{}, b.fail(ErrBadResponse, resp.StatusCode, 0, fmt.Sprintf("web search answered with more than %d bytes, which is not a valid answer; try again", maxBraveResponseBytes))
	}
	var br braveResponse
	if err := json.Unmarshal(body, &br); err != nil {
		return Response{}, b.fail(ErrBadResponse, resp.StatusCode, 0, "web search returned an answer that could not be read ("+err.Error()+"); try again")
	}
	return Response{Results: b.results(&br)}, nil
}

func (b *Brave) results(br *braveResponse) []Result {
	all := br.Grounding.Generic
	if br.Grounding.POI != nil {
		all = append(all[:len(all):len(all)], *br.Grounding.POI)
	}
	all = append(all[:len(all):len(all)], br.Grounding.Map...)
	out := make([]Result, 0, min(len(all), b.maxResults))
	for _, g := range all {
		if len(out) == b.maxResults {
			break
		}
		if g.URL == "" {
			continue
		}
		title := g.Title
		if title == "" {
			title = br.Sources[g.URL].Title
		}
		snippets := g.Snippets
		if snippets == nil {
			snippets = []string{}
		}
		out = append(out, Result{Title: title, URL: g.URL, Snippets: snippets})
	}
	return out
}

func (b *Brave) fail(kind error, status int, retry time.Duration, msg string) *Error {
	return &Error{Kind: kind, Backend: b.Name(), StatusCode: status, RetryAfter: retry, Message: msg}
}

// transportError maps a failed round trip: the caller's cancellation is
// returned as is, our timeout and network failures become *Error.
func (b *Brave) transportError(ctx, tctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(context.Cause(tctx), ErrTimeout) {
		return b.fail(ErrTimeout, 0, 0, fmt.Sprintf("web search timed out after %v; try again, perhaps with a shorter or simpler query", b.timeout))
	}
	return b.fail(ErrUnavailable, 0, 0, "web search could not reach Brave Search ("+err.Error()+"); try again shortly")
}

func (b *Brave) statusError(resp *http.Response, body []byte) *Error {
	code := resp.StatusCode
	var be braveError
	_ = json.Unmarshal(body, &be)
	detail := strings.TrimSpace(be.Error.Detail)
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		msg := fmt.Sprintf("web search is unavailable: Brave Search rejected the API key (HTTP %d)", code)
		if detail != "" {
			msg += ": " + detail
		}
		return b.fail(ErrUnauthorized, code, 0, msg+". This is a configuration problem for the operator; searching again will not help")
	case code == http.StatusTooManyRequests:
		retry, ok := retryAfter(resp.Header, time.Now())
		msg := "web search is rate limited (HTTP 429); "
		if ok {
			msg += "retry after " + humanDuration(retry)
		} else {
			msg += "wait a little before searching again"
		}
		return b.fail(ErrRateLimited, code, retry, msg)
	case code >= 500:
		return b.fail(ErrUnavailable, code, 0, fmt.Sprintf("web search failed: Brave Search answered HTTP %d (a problem on its side); try again shortly", code))
	default:
		msg := fmt.Sprintf("web search refused the request (HTTP %d)", code)
		if detail != "" {
			msg += ": " + detail
		}
		return b.fail(ErrBadRequest, code, 0, msg+"; change the query (plain keywords, at most 400 characters and 50 words) and search again")
	}
}

// retryAfter reads Retry-After (seconds or an HTTP date), else the first
// value of Brave's X-RateLimit-Reset (seconds until the per-second window
// resets).
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if s, err := strconv.Atoi(v); err == nil && s >= 0 {
			return time.Duration(s) * time.Second, true
		}
		if t, err := http.ParseTime(v); err == nil {
			return max(t.Sub(now).Round(time.Second), 0), true
		}
	}
	if v := h.Get("X-RateLimit-Reset"); v != "" {
		first, _, _ := strings.Cut(v, ",")
		if s, err := strconv.Atoi(strings.TrimSpace(first)); err == nil && s >= 0 {
			return time.Duration(s) * time.Second, true
		}
	}
	return 0, false
}

func humanDuration(d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second)
	switch {
	case s == 0:
		return "a moment"
	case s == 1:
		return "1 second"
	case s < 120:
		return strconv.Itoa(s) + " seconds"
	}
	return strconv.Itoa((s+59)/60) + " minutes"
}
