package openai

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"companion/agent/model"
)

// maxErrorBody bounds how much of an error response is kept for messages.
const maxErrorBody = 64 << 10

// attemptFunc makes one request. delivered reports whether anything reached
// the caller; after that a failure is final, since a retry would repeat it.
type attemptFunc func(ctx context.Context) (delivered bool, err error)

// do runs op until it succeeds, fails for good or ctx ends, retrying by
// p.retry (see model.RetryPolicy.Do); the final error is a *model.APIError
// or wraps ctx.Err(). Each attempt carries a fresh *attemptInfo for
// captureFailure to fill, and the logs name the base URL.
func (p *Provider) do(ctx context.Context, modelName string, op attemptFunc) error {
	log := p.log.With(slog.String("base_url", p.base))
	return p.retry.Do(ctx, log, "openai", func() model.Attempt {
		info := &attemptInfo{}
		delivered, err := op(context.WithValue(ctx, infoKey{}, info))
		if err == nil {
			return model.Attempt{}
		}
		f := classify(err, info)
		return model.Attempt{
			Err: err, Delivered: delivered, Retryable: f.retryable(),
			ServerDelay: f.delay, HasServerDelay: f.hasDelay,
			Final: func(attempts int) error { return p.finalError(f, attempts, delivered, modelName) },
		}
	})
}

// infoKey is the context key of the *attemptInfo an attempt carries.
type infoKey struct{}

// attemptInfo is what captureFailure saw of a failed HTTP response, and
// the last error event of a stream (commentFilter). The doer and the
// stream's reader run synchronously inside the attempt, so no locking is
// needed.
type attemptInfo struct {
	status   int
	body     []byte
	delay    time.Duration
	hasDelay bool
	event    []byte
}

// retryAfter reads the wait a server asked for: retry-after-ms (OpenAI),
// else Retry-After in seconds or as an HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("retry-after-ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < float64(24*time.Hour/time.Millisecond) {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	return model.ParseRetryAfter(h.Get("Retry-After"), now)
}
