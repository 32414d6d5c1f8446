package openai

import (
	"context"
	"log/slog"

	"companion/agent/model"
)

// attemptFunc makes one request. delivered reports whether anything reached
// the caller; after that a failure is final, since a retry would repeat it.
type attemptFunc func(ctx context.Context) (delivered bool, err error)

// do runs op until it succeeds, fails for good or ctx ends, retrying by
// p.retry (see model.RetryPolicy.Do: backoff, the server's Retry-After);
// the final error is a *model.APIError or wraps ctx.Err(). Everything a
// failure says travels in op's error (a *statusError, an *eventError), and
// the logs name the base URL.
func (p *Provider) do(ctx context.Context, modelName string, op attemptFunc) error {
	log := p.log.With(slog.String("base_url", p.base))
	return p.retry.Do(ctx, log, "openai", func() model.Attempt {
		delivered, err := op(ctx)
		if err == nil {
			return model.Attempt{}
		}
		f := classify(err)
		return model.Attempt{
			Err: err, Delivered: delivered, Retryable: f.retryable(),
			ServerDelay: f.delay, HasServerDelay: f.hasDelay,
			Final: func(attempts int) error { return p.finalError(f, attempts, delivered, modelName) },
		}
	})
}
