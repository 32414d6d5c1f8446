package openai

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"maps"
	"math"
	"net/http"

	"github.com/sashabaranov/go-openai"

	"companion/agent/model"
)

// errNoEvents is an attempt that got a 200 answer without a single stream
// event: a server that ignored "stream": true or is not Chat Completions.
var errNoEvents = errors.New("the response had no stream events")

// errUnreadableEvent is an error event go-openai could not decode (its
// error is not OpenAI's {"message": ...} object): its reader then returns
// an empty event and no error. (An empty "data:" line looks the same; no
// Chat Completions server sends one.)
var errUnreadableEvent = errors.New("the stream sent an error event that could not be read")

// Provider is the OpenAI-compatible implementation of model.Model. It is
// safe for concurrent use.
type Provider struct {
	cfg   Config
	base  string
	retry model.RetryPolicy
	log   *slog.Logger
	// client is go-openai's client. It makes each request once (it has no
	// retries; Provider.do is the only retry layer) and reads no OPENAI_*
	// environment (the caller's Config is the only source).
	client *openai.Client
}

var _ model.Model = (*Provider)(nil)

// New checks cfg and returns a Provider. It does no I/O: building the
// go-openai client only assembles its configuration. A malformed BaseURL
// returns an error wrapping ErrBadBaseURL; an empty APIKey is allowed and
// sends no Authorization header.
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
	cc := openai.DefaultConfig(cfg.APIKey)
	cc.BaseURL = base
	cc.HTTPClient = &doer{client: httpClient, headers: maps.Clone(cfg.Headers)}
	// Keep-alives are filtered out (commentFilter); blank lines and other
	// non-data lines must never end a healthy stream either.
	cc.EmptyMessagesLimit = math.MaxUint
	return &Provider{
		cfg:    cfg,
		base:   base,
		retry:  cfg.Retry.WithDefaults(),
		log:    log,
		client: openai.NewClientWithConfig(cc),
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
			return p.attempt(ctx, &params, yield)
		})
		if err != nil {
			yield(nil, err)
		}
	}
}

// attempt makes one streamed request and yields what it maps to. delivered
// reports whether anything reached the caller. Events are read raw and
// decoded into companion's own chunk type, which reads the reasoning
// fields go-openai's typed delta lacks.
func (p *Provider) attempt(ctx context.Context, params *chatRequest, yield func(*model.Chunk, error) bool) (delivered bool, err error) {
	stream, err := p.client.CreateChatCompletionStream(context.WithValue(ctx, fixKey{}, params.fix), params.ChatCompletionRequest)
	if err != nil {
		return false, err
	}
	defer func() { _ = stream.Close() }()
	st := newStreamState(newCallID, p.log)
	for {
		raw, err := stream.RecvRaw()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return delivered, err
		}
		if len(raw) == 0 {
			return delivered, errUnreadableEvent
		}
		var c chunk
		if err := json.Unmarshal(raw, &c); err != nil {
			return delivered, fmt.Errorf("decoding stream event %q: %w", model.OneLine(string(raw)), err)
		}
		out := st.add(&c)
		if out == nil {
			continue
		}
		delivered = true
		if !yield(out, nil) {
			return true, nil
		}
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
