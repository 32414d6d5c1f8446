package gemini

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"google.golang.org/genai"
)

// attemptFunc makes one request. delivered reports whether anything reached
// the caller; after that a failure is final, since a retry would repeat it.
type attemptFunc func(ctx context.Context) (delivered bool, err error)

// do runs op until it succeeds, fails for good or ctx ends. Retries follow
// p.retry; the final error is a *model.APIError or wraps ctx.Err().
func (p *Provider) do(ctx context.Context, modelName string, op attemptFunc) error {
	for attempt := 1; ; attempt++ {
		hint := &retryHint{}
		delivered, err := op(context.WithValue(ctx, hintKey{}, hint))
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("gemini: %w", ctx.Err())
		}
		wait, retry := p.nextWait(err, hint, attempt, delivered)
		if !retry {
			final := p.finalError(err, hint, attempt, delivered, modelName)
			p.log.LogAttrs(ctx, slog.LevelWarn, "gemini request failed",
				slog.Int("attempts", attempt), slog.Any("error", err))
			return final
		}
		p.log.LogAttrs(ctx, slog.LevelInfo, "gemini request failed, retrying",
			slog.Int("attempt", attempt), slog.Duration("wait", wait), slog.Any("error", err))
		if err := sleep(ctx, wait); err != nil {
			return fmt.Errorf("gemini: %w", err)
		}
	}
}

// nextWait decides whether attempt's failure is retried and after how long.
func (p *Provider) nextWait(err error, hint *retryHint, attempt int, delivered bool) (time.Duration, bool) {
	if delivered || attempt >= p.retry.MaxAttempts || !retryable(err) {
		return 0, false
	}
	if d, ok := serverDelay(err, hint); ok {
		return d, d <= p.retry.MaxServerDelay
	}
	return backoff(p.retry, attempt), true
}

// backoff is full jitter: uniform in [0, min(MaxDelay, BaseDelay·2^(n-1))].
func backoff(r RetryPolicy, attempt int) time.Duration {
	ceiling := r.MaxDelay
	if shift := attempt - 1; shift < 32 && r.BaseDelay<<shift > 0 && r.BaseDelay<<shift < ceiling {
		ceiling = r.BaseDelay << shift
	}
	return rand.N(ceiling + 1)
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retryable reports whether a failed attempt is worth repeating: rate
// limits, server errors, and connections that failed or dropped.
func retryable(err error) bool {
	if status, ok := apiStatus(err); ok {
		return status == http.StatusTooManyRequests || status == http.StatusRequestTimeout || status >= 500
	}
	return connectionProblem(err) != ""
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

// connectionProblem names a transport failure in a few words, or returns ""
// for errors that are not one.
func connectionProblem(err error) string {
	var dnsErr *net.DNSError
	var netErr net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "connection reset"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection closed unexpectedly"
	case errors.As(err, &dnsErr):
		return "cannot resolve host " + dnsErr.Name
	case errors.As(err, &netErr) && netErr.Timeout():
		return "timed out"
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) {
		return opErr.Err.Error()
	}
	return ""
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
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			h.set(d)
		}
	}
	return resp, nil
}

// parseRetryAfter reads a Retry-After value: delay-seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.Atoi(v); err == nil {
		return time.Duration(max(secs, 0)) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(at.Sub(now), 0), true
	}
	return 0, false
}
