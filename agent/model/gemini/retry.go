package gemini

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"google.golang.org/genai"

	"companion/agent/model"
)

// attemptFunc makes one request. delivered reports whether anything reached
// the caller; after that a failure is final, since a retry would repeat it.
type attemptFunc func(ctx context.Context) (delivered bool, err error)

// do runs op until it succeeds, fails for good or ctx ends, retrying by
// p.retry (see model.RetryPolicy.Do); the final error is a *model.APIError
// or wraps ctx.Err(). Each attempt carries a fresh *retryHint for the
// transport to fill.
func (p *Provider) do(ctx context.Context, modelName string, op attemptFunc) error {
	return p.retry.Do(ctx, p.log, "gemini", func() model.Attempt {
		hint := &retryHint{}
		delivered, err := op(context.WithValue(ctx, hintKey{}, hint))
		if err == nil {
			return model.Attempt{}
		}
		a := model.Attempt{Err: err, Delivered: delivered, Retryable: retryable(err)}
		a.ServerDelay, a.HasServerDelay = serverDelay(err, hint)
		a.Final = func(attempts int) error { return p.finalError(err, hint, attempts, delivered, modelName) }
		return a
	})
}

// retryable reports whether a failed attempt is worth repeating: rate
// limits, server errors, and connections that failed or dropped.
func retryable(err error) bool {
	if status, ok := apiStatus(err); ok {
		return status == http.StatusTooManyRequests || status == http.StatusRequestTimeout || status >= 500
	}
	return model.ConnectionProblem(err) != ""
}

// apiStatus returns the HTTP status of a genai API error.
func apiStatus(err error) (int, bool) {
	if ae, ok := asAPIError(err); ok {
		return ae.Code, true
	}
	return 0, false
}

// asAPIError finds a genai.APIError, which genai returns by value.
func asAPIError(err error) (genai.APIError, bool) {
	var ae genai.APIError
	if errors.As(err, &ae) {
		return ae, true
	}
	var pae *genai.APIError
	if errors.As(err, &pae) && pae != nil {
		return *pae, true
	}
	return genai.APIError{}, false
}

// serverDelay is the wait the server asked for: google.rpc.RetryInfo in the
// error details, else a Retry-After header seen by the transport.
func serverDelay(err error, hint *retryHint) (time.Duration, bool) {
	if ae, ok := asAPIError(err); ok {
		for _, d := range ae.Details {
			t, _ := d["@type"].(string)
			s, _ := d["retryDelay"].(string)
			if strings.HasSuffix(t, "google.rpc.RetryInfo") && s != "" {
				if delay, err := time.ParseDuration(s); err == nil && delay >= 0 {
					return delay, true
				}
			}
		}
	}
	return hint.get()
}

// hintKey is the context key of the *retryHint an attempt carries.
type hintKey struct{}

// retryHint carries a Retry-After value from the transport, which sees
// response headers, to the retry loop, which sees only genai's error.
type retryHint struct {
	// delay is the wait in nanoseconds plus one; 0 means "none seen".
	delay atomic.Int64
}

func (h *retryHint) set(d time.Duration) { h.delay.Store(int64(d) + 1) }

func (h *retryHint) get() (time.Duration, bool) {
	v := h.delay.Load()
	return time.Duration(v - 1), v > 0
}

// hintTransport records Retry-After headers of failed responses in the
// request context's *retryHint.
type hintTransport struct {
	base http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *hintTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.StatusCode < 400 {
		return resp, err
	}
	if h, ok := req.Context().Value(hintKey{}).(*retryHint); ok {
		if d, ok := model.ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			h.set(d)
		}
	}
	return resp, nil
}
