package openai

import (
	"context"
	"crypto/rand"
	"errors"
	"iter"
	"log/slog"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"companion/agent/model"
)

// errNoEvents is an attempt that got a 200 answer without a single stream
// event: a server that ignored "stream": true or is not Chat Completions.
var errNoEvents = errors.New("the response had no stream events")

// Provider is the OpenAI-compatible implementation of model.Model. It is
// safe for concurrent use.
type Provider struct {
	cfg   Config
	base  string
	retry model.RetryPolicy
	log   *slog.Logger
	// chat is openai-go's Chat Completions service, configured to make each
	// request once (Provider.do is the only retry layer) and to ignore the
	// OPENAI_* environment (the caller's Config is the only source).
	chat openai.ChatCompletionService
}

var _ model.Model = (*Provider)(nil)

// New checks cfg and returns a Provider. It does no I/O: building the
// openai-go service only assembles options, so it happens here rather than
// lazily. A malformed BaseURL returns an error wrapping ErrBadBaseURL; an
// empty APIKey is allowed.
func New(_ context.Context, cfg Config) (*Provider, error) {
	base, err := cfg.baseURL()
	if err != nil {
		return nil, err
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	httpClient := &http.Client{}
	if cfg.HTTPClient != nil {
		*httpClient = *cfg.HTTPClient
	}
	opts := []option.RequestOption{
		option.WithBaseURL(base),
		option.WithHTTPClient(httpClient),
		option.WithMaxRetries(0),
		option.WithMiddleware(captureFailure),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	for k, v := range cfg.Headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	return &Provider{
		cfg:   cfg,
		base:  base,
		retry: cfg.Retry.WithDefaults(),
		log:   log,
		chat:  openai.NewChatCompletionService(opts...),
	}, nil
}

// Stream sends req as a streamed chat completion and yields its chunks,
// retrying failed attempts that yielded nothing (see model.RetryPolicy). Text and
// reasoning deltas are yielded as they arrive; tool calls are yielded whole
// once the server finishes them; the last chunk carries the finish reason
// and usage. A final failure is a *model.APIError; a cancelled ctx ends the
// sequence with an error wrapping ctx.Err().
func (p *Provider) Stream(ctx context.Context, req *model.Request) iter.Seq2[*model.Chunk, error] {
	return func(yield func(*model.Chunk, error) bool) {
		params, err := buildParams(req, newCallID)
		if err != nil {
			yield(nil, err)
			return
		}
		err = p.do(ctx, req.Model, func(ctx context.Context) (bool, error) {
			return p.attempt(ctx, params, yield)
		})
		if err != nil {
			yield(nil, err)
		}
	}
}

// attempt makes one streamed request and yields what it maps to. delivered
// reports whether anything reached the caller.
func (p *Provider) attempt(ctx context.Context, params openai.ChatCompletionNewParams, yield func(*model.Chunk, error) bool) (delivered bool, err error) {
	stream := p.chat.NewStreaming(ctx, params)
	defer stream.Close()
	st := newStreamState(newCallID, p.log)
	for stream.Next() {
		cur := stream.Current()
		chunk := st.add(&cur)
		if chunk == nil {
			continue
		}
		delivered = true
		if !yield(chunk, nil) {
			return true, nil
		}
	}
	if err := stream.Err(); err != nil {
		return delivered, err
	}
	if st.events == 0 {
		return delivered, errNoEvents
	}
	yield(st.end(), nil)
	return true, nil
}

// ContextWindow returns Config.ContextWindow, or DefaultContextWindow: an
// OpenAI-compatible server does not say how large its model's window is.
func (p *Provider) ContextWindow(string) int {
	if p.cfg.ContextWindow > 0 {
		return p.cfg.ContextWindow
	}
	return DefaultContextWindow
}

// newCallID names a function call that has no id.
func newCallID() string {
	return "call_" + rand.Text()[:16]
}
