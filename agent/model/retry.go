package model

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
	"syscall"
	"time"
)

// RetryPolicy is exponential backoff with full jitter, shared by the
// providers: before retry n a provider waits a random time in
// [0, min(MaxDelay, BaseDelay·2^(n-1))], unless the server named a delay
// (RetryInfo, Retry-After, retry-after-ms), which wins. The zero value of
// every field means its default.
type RetryPolicy struct {
	// MaxAttempts counts every request including the first; 0 means 5 and
	// 1 means no retries.
	MaxAttempts int
	// BaseDelay is the backoff's first ceiling; 0 means 1 s.
	BaseDelay time.Duration
	// MaxDelay caps one backoff wait; 0 means 30 s.
	MaxDelay time.Duration
	// MaxServerDelay is the longest server-requested wait honoured; a longer
	// request (a daily quota, say) gives up at once. 0 means 2 min.
	MaxServerDelay time.Duration
}

// Default retry settings.
const (
	defaultAttempts       = 5
	defaultBaseDelay      = time.Second
	defaultMaxDelay       = 30 * time.Second
	defaultMaxServerDelay = 2 * time.Minute
)

// WithDefaults returns r with its zero (or negative) fields set to their
// defaults, so that providers can read the limits they enforce.
func (r RetryPolicy) WithDefaults() RetryPolicy {
	if r.MaxAttempts <= 0 {
		r.MaxAttempts = defaultAttempts
	}
	if r.BaseDelay <= 0 {
		r.BaseDelay = defaultBaseDelay
	}
	if r.MaxDelay <= 0 {
		r.MaxDelay = defaultMaxDelay
	}
	if r.MaxServerDelay <= 0 {
		r.MaxServerDelay = defaultMaxServerDelay
	}
	return r
}

// Backoff is the wait before retrying failed attempt n (1-based): full
// jitter, uniform in [0, min(MaxDelay, BaseDelay·2^(n-1))], so that many
// clients failing together do not retry together.
func (r RetryPolicy) Backoff(attempt int) time.Duration {
	ceiling := r.MaxDelay
	if shift := attempt - 1; shift < 32 && r.BaseDelay<<shift > 0 && r.BaseDelay<<shift < ceiling {
		ceiling = r.BaseDelay << shift
	}
	return rand.N(ceiling + 1)
}

// Attempt is how one try of a request went, as a provider reports it to
// RetryPolicy.Do, which decides from it whether to try again.
type Attempt struct {
	// Err is why the try failed; nil means it succeeded.
	Err error
	// Delivered reports that output reached the caller; a retry would
	// repeat it, so the failure is final.
	Delivered bool
	// Retryable reports whether the failure is worth repeating: a rate
	// limit, a server error, a connection that failed or dropped.
	Retryable bool
	// ServerDelay is the wait the server asked for, when HasServerDelay.
	ServerDelay    time.Duration
	HasServerDelay bool
	// Final turns the failure into the error Do returns when it gives up
	// after attempts tries: a *APIError with a sentence the user can act on.
	Final func(attempts int) error
}

// Do makes tries of one request until one succeeds, a failure is final or
// ctx ends, waiting between tries as r says (r's zero fields are
// defaulted). It returns nil, the last Attempt's Final error, or an error
// wrapping ctx.Err(). name ("gemini", "openai") prefixes the logs and the
// cancellation error; failures are logged to log.
func (r RetryPolicy) Do(ctx context.Context, log *slog.Logger, name string, try func() Attempt) error {
	r = r.WithDefaults()
	for attempt := 1; ; attempt++ {
		a := try()
		if a.Err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w", name, ctx.Err())
		}
		wait, retry := r.next(a, attempt)
		if !retry {
			log.LogAttrs(ctx, slog.LevelWarn, name+" request failed",
				slog.Int("attempts", attempt), slog.Any("error", a.Err))
			return a.Final(attempt)
		}
		countRetry(ctx)
		log.LogAttrs(ctx, slog.LevelInfo, name+" request failed, retrying",
			slog.Int("attempt", attempt), slog.Duration("wait", wait), slog.Any("error", a.Err))
		if err := sleep(ctx, wait); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
}

// next decides whether failed attempt number attempt is retried and after
// how long. A server-given delay wins over the backoff, but one longer than
// MaxServerDelay ends the retries.
func (r RetryPolicy) next(a Attempt, attempt int) (time.Duration, bool) {
	if a.Delivered || attempt >= r.MaxAttempts || !a.Retryable {
		return 0, false
	}
	if a.HasServerDelay {
		return a.ServerDelay, a.ServerDelay <= r.MaxServerDelay
	}
	return r.Backoff(attempt), true
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

// ParseRetryAfter reads a Retry-After header value, delay-seconds or an
// HTTP date (relative to now), as a wait that is never negative. ok is
// false for an empty or unreadable value.
func ParseRetryAfter(v string, now time.Time) (d time.Duration, ok bool) {
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

// ConnectionProblem names a transport failure in a few words for error
// messages ("connection refused", "timed out"), or returns "" for errors
// that are not one. Providers also use it to tell retryable transport
// failures from the rest.
func ConnectionProblem(err error) string {
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
