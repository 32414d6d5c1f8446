package openai

import (
	"context"
	"crypto/rand"
	"errors"
	"iter"
	"log/slog"
	"maps"
	"net/http"

	"companion/agent/model"
)

// errNoEvents is an attempt that got a 200 answer without a single stream
// event: a server that ignored "stream": true or is not Chat Completions.
var errNoEvents = errors.New("the response had no stream events")

// Provider is the OpenAI-compatible implementation of model.Model. It is
// safe for concurrent use.
type Provider struct {
	cfg    Config
	base   string
	retry  model.RetryPolicy
	log    *slog.Logger
	client *client
}

var _ model.Model = (*Provider)(nil)

// New checks cfg and returns a Provider. It does no I/O. A malformed
// BaseURL returns an error wrapping ErrBadBaseURL; an empty APIKey is
// allowed and sends no Authorization header. Nothing is read from the
// environment: cfg is the only source.
func New(_ context.Context, cfg Config) (*Provider, error) {
	base, err := cfg.baseURL()
	if err != nil {
		return nil, err
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	httpClient := cfg.HTTPClient
	if httpClient == nil {
		httpClient = &http.Client{}
	}
	return &Provider{
		cfg:    cfg,
		base:   base,
		retry:  cfg.Retry.WithDefaults(),
		log:    log,
		client: &client{http: httpClient, base: base, apiKey: cfg.APIKey, headers: maps.Clone(cfg.Headers)},
	}, nil
}

// Stream sends req as a streamed chat completion and yields its chunks,
// retrying failed attempts that yielded nothing (see model.RetryPolicy).
// Text and reasoning deltas are yielded as they arrive; tool calls are
// yielded whole once the server finishes them; the last chunk carries the
// finish reason and usage. A final failure is a *model.APIError; a
// cancelled ctx ends the sequence with an error wrapping ctx.Err().
//
// No model is refused or altered by its name: the request goes to the
// server as asked. When the server rejects the temperature itself (a 400
// whose error names the "temperature" parameter, as OpenAI's o-series and
// gpt-5 models answer to any value but their default), the request is
// made once more without it, so that a sampling request still gets an
// answer at the model's own temperature.
func (p *Provider) Stream(ctx context.Context, req *model.Request) iter.Seq2[*model.Chunk, error] {
	return func(yield func(*model.Chunk, error) bool) {
		params, err := buildParams(req, newCallID)
		if err != nil {
			yield(nil, err)
			return
		}
		err = p.stream(ctx, params, yield)
		if params.Temperature != nil && temperatureRejected(err) {
			p.log.Warn("openai: the server rejected the temperature; asking again without it",
				slog.String("model", params.Model), slog.Float64("temperature", *params.Temperature))
			params.Temperature = nil
			err = p.stream(ctx, params, yield)
		}
		if err != nil {
			yield(nil, err)
		}
	}
}

// stream marshals params once and makes the attempts that send it.
func (p *Provider) stream(ctx context.Context, params *chatRequest, yield func(*model.Chunk, error) bool) error {
	body, err := params.marshal()
	if err != nil {
		return err
	}
	return p.do(ctx, params.Model, func(ctx context.Context) (bool, error) {
		return p.attempt(ctx, body, yield)
	})
}

// temperatureRejected reports whether err is a 400 answer whose OpenAI
// error body names "temperature" as the parameter it rejected.
func temperatureRejected(err error) bool {
	var se *statusError
	return errors.As(err, &se) && se.status == http.StatusBadRequest && rejectedParam(se.body) == "temperature"
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
