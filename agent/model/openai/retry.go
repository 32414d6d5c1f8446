package openai

import (
	"bytes"
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
	"syscall"
	"time"

	"github.com/openai/openai-go/v3/option"
)

// maxErrorBody bounds how much of an error response is kept for messages.
const maxErrorBody = 64 << 10

// attemptFunc makes one request. delivered reports whether anything reached
// the caller; after that a failure is final, since a retry would repeat it.
type attemptFunc func(ctx context.Context) (delivered bool, err error)

// do runs op until it succeeds, fails for good or ctx ends. Retries follow
// p.retry; the final error is a *model.APIError or wraps ctx.Err().
func (p *Provider) do(ctx context.Context, modelName string, op attemptFunc) error {
	for attempt := 1; ; attempt++ {
		info := &attemptInfo{}
		delivered, err := op(context.WithValue(ctx, infoKey{}, info))
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("openai: %w", ctx.Err())
		}
		f := classify(err, info)
		wait, retry := p.nextWait(f, attempt, delivered)
		if !retry {
			p.log.LogAttrs(ctx, slog.LevelWarn, "openai request failed",
				slog.String("base_url", p.base), slog.Int("attempts", attempt), slog.Any("error", err))
			return p.finalError(f, attempt, delivered, modelName)
		}
		p.log.LogAttrs(ctx, slog.LevelInfo, "openai request failed, retrying",
			slog.String("base_url", p.base), slog.Int("attempt", attempt), slog.Duration("wait", wait), slog.Any("error", err))
		if err := sleep(ctx, wait); err != nil {
			return fmt.Errorf("openai: %w", err)
		}
	}
}

// nextWait decides whether attempt's failure is retried and after how long.
func (p *Provider) nextWait(f failure, attempt int, delivered bool) (time.Duration, bool) {
	if delivered || attempt >= p.retry.MaxAttempts || !f.retryable() {
		return 0, false
	}
	if f.hasDelay {
		return f.delay, f.delay <= p.retry.MaxServerDelay
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

// infoKey is the context key of the *attemptInfo an attempt carries.
type infoKey struct{}

// attemptInfo is what captureFailure saw of a failed HTTP response. The
// middleware runs synchronously inside the attempt, so no locking is needed.
type attemptInfo struct {
	status   int
	body     []byte
	delay    time.Duration
	hasDelay bool
}

// captureFailure is an openai-go middleware that records the status,
// server-given delay and body of an error response in the request context's
// *attemptInfo, so that messages do not depend on the body having the
// OpenAI error shape (vLLM, proxies and HTML gateways differ).
func captureFailure(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	res, err := next(req)
	if err != nil || res.StatusCode < 400 {
		return res, err
	}
	info, ok := req.Context().Value(infoKey{}).(*attemptInfo)
	if !ok {
		return res, nil
	}
	info.status = res.StatusCode
	info.delay, info.hasDelay = retryAfter(res.Header, time.Now())
	body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody)) // a partial body still helps
	_ = res.Body.Close()
	info.body = body
	res.Body = io.NopCloser(bytes.NewReader(body))
	return res, nil
}

// retryAfter reads the wait a server asked for: retry-after-ms (OpenAI),
// else Retry-After in seconds or as an HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("retry-after-ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < float64(24*time.Hour/time.Millisecond) {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	return parseRetryAfter(h.Get("Retry-After"), now)
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
