package model

import (
	"context"
	"sync/atomic"
)

// retryCounterKey carries the counter of WithRetryCounter.
type retryCounterKey struct{}

// WithRetryCounter returns ctx carrying n: RetryPolicy.Do adds one to it
// before each retry of a request made with that context, so the caller
// (telemetry) learns how many retries a request took.
func WithRetryCounter(ctx context.Context, n *atomic.Int32) context.Context {
	return context.WithValue(ctx, retryCounterKey{}, n)
}

// countRetry adds one to ctx's retry counter, if it has one.
func countRetry(ctx context.Context) {
	if n, ok := ctx.Value(retryCounterKey{}).(*atomic.Int32); ok {
		n.Add(1)
	}
}
