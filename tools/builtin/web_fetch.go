package builtin

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"companion/tools"
)

//go:embed descriptions/web_fetch.md
var webFetchDescription string

// webFetchParams are web_fetch's parameters. Gemini CLI's tool takes one
// prompt holding the URLs; companion takes the URL on its own and keeps the
// prompt to remind the model what it was looking for.
type webFetchParams struct {
	URL    string `json:"url" required:"true" desc:"The http:// or https:// URL to fetch, e.g. \"https://pkg.go.dev/net/http\"."`
	Prompt string `json:"prompt" desc:"What you want to learn from the page, e.g. \"how to set a client timeout\". It is shown to the user when asking to fetch and returned with the page's text."`
}

// webFetchTool fetches a public web page and returns it as text.
type webFetchTool struct {
	opts   ExtraOptions
	client *http.Client
}

func newWebFetch(o ExtraOptions) tools.Tool {
	desc := strings.NewReplacer(
		"{max_text}", tools.FormatSize(int64(o.MaxFetchText)),
		"{max_bytes}", tools.FormatSize(o.MaxFetchBytes),
		"{timeout}", o.FetchTimeout.String(),
		"{max_redirects}", fmt.Sprint(o.MaxRedirects),
	).Replace(webFetchDescription)
	t := &webFetchTool{opts: o, client: newFetchClient(o)}
	return tools.Define(tools.Def[webFetchParams]{
		Name: "web_fetch", Kind: tools.KindFetch,
		Description: desc,
		Prepare:     t.prepare,
	})
}

// newFetchClient builds the HTTP client every web_fetch call shares. It
// connects only through the guard, ignores proxy settings (a proxy would
// connect on the guard's behalf), keeps no idle connections (so nothing
// outlives a call) and re-checks each redirect.
func newFetchClient(o ExtraOptions) *http.Client {
	guard := newFetchGuard(o.AllowPrivate, o.LookupIP, o.Dial)
	tr := &http.Transport{
		Proxy:                  nil,
		DialContext:            guard.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    15 * time.Second,
		DisableKeepAlives:      true,
		MaxResponseHeaderBytes: 256 << 10,
	}
	return &http.Client{
		Transport: tr,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > o.MaxRedirects {
				return &redirectError{msg: fmt.Sprintf("stopped after %d redirects", o.MaxRedirects)}
			}
			if s := req.URL.Scheme; s != "http" && s != "https" {
				return &redirectError{msg: fmt.Sprintf("refused a redirect to a %s: URL; only http and https are fetched", s)}
			}
			if from := via[0].URL; !sameSite(from.Host, req.URL.Host) {
				return &redirectError{msg: fmt.Sprintf("it redirects to %s, on another host; to read that page, "+
					"fetch that URL with web_fetch", req.URL)}
			}
			return nil
		},
	}
}

// sameSite reports whether a redirect from host a to host b stays where
// the user allowed fetching: the same host (and port), or the same host
// with or without "www.". A redirect elsewhere is not followed, since the
// permission the user gave names the host on the card (an open redirect on
// an allowed site would otherwise carry data anywhere); the model fetches
// the new URL in a call of its own, which is judged like any other.
func sameSite(a, b string) bool {
	a, b = strings.ToLower(a), strings.ToLower(b)
	return a == b || strings.TrimPrefix(a, "www.") == strings.TrimPrefix(b, "www.")
}

// redirectError is a redirect web_fetch would not follow.
type redirectError struct{ msg string }

func (e *redirectError) Error() string { return e.msg }

func (t *webFetchTool) prepare(env *tools.Env, p webFetchParams) (tools.Invocation, error) {
	u, err := parseFetchURL(p.URL)
	if err != nil {
		return nil, err
	}
	if !t.opts.AllowPrivate {
		if _, r := hostReason(u.Hostname()); r != "" {
			return nil, tools.ArgErrorf("refused to fetch %s: %s is %s; web_fetch only connects to public internet addresses",
				u, u.Hostname(), r)
		}
	}
	return &webFetchCall{env: env, tool: t, url: u.String(), prompt: strings.TrimSpace(p.Prompt)}, nil
}

// parseFetchURL checks that raw is an absolute http or https URL with a
// host, and drops its fragment (never sent to the server).
func parseFetchURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, tools.ArgErrorf("parameter %q must not be empty", "url")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, tools.ArgErrorf("%q is not a valid URL: %v", raw, err)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	case "":
		return nil, tools.ArgErrorf("%q has no scheme; pass a full URL starting with https:// or http://", raw)
	default:
		return nil, tools.ArgErrorf("refused to fetch %q: only http:// and https:// URLs are fetched, not %s:", raw, u.Scheme)
	}
	if u.Host == "" || u.Hostname() == "" {
		return nil, tools.ArgErrorf("%q has no host name", raw)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

// webFetchCall is one validated web_fetch call.
type webFetchCall struct {
	env    *tools.Env
	tool   *webFetchTool
	url    string
	prompt string
}

// WebFetchRaw is web_fetch's structured output for front ends.
type WebFetchRaw struct {
	URL         string `json:"url"`
	FinalURL    string `json:"finalUrl,omitempty"`
	Status      int    `json:"status,omitempty"`
	ContentType string `json:"contentType,omitempty"`
	// Bytes is how much of the body was read; BodyTruncated is set when the
	// body was longer than the read limit.
	Bytes         int64 `json:"bytes,omitempty"`
	BodyTruncated bool  `json:"bodyTruncated,omitempty"`
	// TextCut is set when the text was cut for the model.
	TextCut bool `json:"textCut,omitempty"`
}

func (c *webFetchCall) Title() string               { return "Fetch " + c.url }
func (c *webFetchCall) Locations() []tools.Location { return nil }

func (c *webFetchCall) Confirmation(context.Context) (*tools.Confirmation, error) {
	prompt := c.prompt
	if prompt == "" {
		prompt = "Fetch " + c.url
	}
	return &tools.Confirmation{Type: tools.ConfirmInfo, Title: "Fetch " + c.url, Prompt: prompt, URLs: []string{c.url}}, nil
}

func (c *webFetchCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	o := c.tool.opts
	fctx, cancel := context.WithTimeout(ctx, o.FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(fctx, http.MethodGet, c.url, nil)
	if err != nil {
		return tools.ErrorResult(fmt.Sprintf("Could not fetch %s: %v", c.url, err)), nil
	}
	req.Header.Set("User-Agent", o.UserAgent)
	req.Header.Set("Accept", "text/markdown, text/html;q=0.9, text/plain;q=0.9, application/json;q=0.8, */*;q=0.5")
	resp, err := c.tool.client.Do(req)
	if err != nil {
		return c.fetchError(ctx, err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := readFetchBody(fctx, resp, o.MaxFetchBytes)
	if err != nil {
		return c.fetchError(ctx, err)
	}
	return c.format(resp, body), nil
}

// fetchError turns a failed request into a result the model can act on, or
// ctx's error when the call itself was cancelled.
func (c *webFetchCall) fetchError(ctx context.Context, err error) (*tools.Result, error) {
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	at := c.url
	var ue *url.Error
	if errors.As(err, &ue) && ue.URL != "" && ue.URL != c.url {
		at = fmt.Sprintf("%s (redirected from %s)", ue.URL, c.url)
	}
	var re *redirectError
	switch b, blocked := asBlocked(err); {
	case blocked:
		return tools.ErrorResult(fmt.Sprintf("Refused to fetch %s: %v; web_fetch only connects to public internet addresses.", at, b)), nil
	case errors.As(err, &re):
		return tools.ErrorResult(fmt.Sprintf("Could not fetch %s: %v.", c.url, re)), nil
	case errors.Is(err, context.DeadlineExceeded):
		return tools.ErrorResult(fmt.Sprintf("Fetching %s timed out after %s.", at, c.tool.opts.FetchTimeout)), nil
	}
	if ue != nil {
		err = ue.Err
	}
	c.env.Log.Debug("web_fetch failed", "url", c.url, "err", err)
	return tools.ErrorResult(fmt.Sprintf("Could not fetch %s: %v", at, err)), nil
}

// format renders a fetched body for the model: a few header lines (where
// the page came from, what it is, why it was fetched), then its text.
func (c *webFetchCall) format(resp *http.Response, body fetchBody) *tools.Result {
	o := c.tool.opts
	final := resp.Request.URL.String()
	raw := WebFetchRaw{URL: c.url, Status: resp.StatusCode, ContentType: body.mediaType,
		Bytes: body.read, BodyTruncated: body.truncated}
	var head strings.Builder
	fmt.Fprintf(&head, "URL: %s", final)
	if final != c.url {
		raw.FinalURL = final
		fmt.Fprintf(&head, " (redirected from %s)", c.url)
	}
	fmt.Fprintf(&head, "\nStatus: %s\nContent-Type: %s", resp.Status, body.describe())
	if body.title != "" {
		fmt.Fprintf(&head, "\nTitle: %s", body.title)
	}
	if c.prompt != "" {
		fmt.Fprintf(&head, "\nLooking for: %s", c.prompt)
	}
	limit := o.MaxFetchText
	failed := resp.StatusCode >= 400
	if failed {
		limit = min(limit, 2<<10)
	}
	text, cut := cutText(body.text, limit)
	raw.TextCut = cut
	if body.truncated {
		fmt.Fprintf(&head, "\nNote: the response is longer than %s; only its first %s were read.",
			tools.FormatSize(o.MaxFetchBytes), tools.FormatSize(o.MaxFetchBytes))
	}
	if cut {
		fmt.Fprintf(&head, "\nNote: the text is %s; only the first %s are shown.",
			tools.FormatSize(int64(len(body.text))), tools.FormatSize(int64(len(text))))
	}
	if text != "" {
		head.WriteString("\n\n")
		head.WriteString(text)
	}
	res := &tools.Result{Text: head.String(), Raw: raw, IsError: failed}
	if failed {
		res.Text = fmt.Sprintf("The server answered %s.\n%s", resp.Status, res.Text)
	}
	res.Display = fmt.Sprintf("Fetched %s (%s, %s of text)", final, resp.Status, tools.FormatSize(int64(len(text))))
	return res
}

// cutText cuts s to at most n bytes, at a line break when one is near the
// end, else at a character boundary.
func cutText(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	i := n
	for i > 0 && i < len(s) && s[i]&0xC0 == 0x80 {
		i--
	}
	if nl := strings.LastIndexByte(s[:i], '\n'); nl >= i*3/4 {
		i = nl
	}
	return s[:i], true
}
