package gemini

import (
	"context"
	"crypto/rand"
	"fmt"
	"iter"
	"log/slog"
	"net/http"
	"sync"

	"google.golang.org/genai"

	"companion/agent/model"
)

// Provider is the Gemini implementation of model.Model. It is safe for
// concurrent use; the genai client is built on first use so that creating a
// Provider costs no I/O.
type Provider struct {
	cfg   Config
	retry model.RetryPolicy
	log   *slog.Logger
	// http sends every request, with the Retry-After hint transport.
	http *http.Client

	// mu guards client, which is nil until the first request builds it.
	mu     sync.Mutex
	client *genai.Client
}

var _ model.Model = (*Provider)(nil)

// New checks cfg and returns a Provider. It does no network or credential
// work (Vertex AI application-default credentials are looked up on first
// use), so it is safe on the start-up path. A configuration without any way
// to authenticate returns ErrNoAPIKey or ErrNoProject.
func New(_ context.Context, cfg Config) (*Provider, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p := &Provider{cfg: cfg, retry: cfg.Retry.WithDefaults(), log: log}
	p.http = p.httpClient()
	return p, nil
}

// Stream sends req and yields its chunks, retrying failed attempts that
// yielded nothing (see model.RetryPolicy). A final failure is a
// *model.APIError; a cancelled ctx ends the sequence with an error wrapping
// ctx.Err(). Both APIs are called by restStream.
func (p *Provider) Stream(ctx context.Context, req *model.Request) iter.Seq2[*model.Chunk, error] {
	return func(yield func(*model.Chunk, error) bool) {
		send, err := p.sender(ctx, req)
		if err != nil {
			yield(nil, err)
			return
		}
		err = p.do(ctx, req.Model, func(ctx context.Context) (bool, error) {
			delivered, stopped := false, false
			err := send(ctx, func(resp *genai.GenerateContentResponse) bool {
				chunk := toChunk(resp, newCallID)
				if chunk == nil {
					return true
				}
				delivered = true
				stopped = !yield(chunk, nil)
				return !stopped
			})
			if stopped {
				return true, nil
			}
			return delivered, err
		})
		if err != nil {
			yield(nil, err)
		}
	}
}

// sendFunc makes one streaming attempt, calling each for every response
// until each returns false.
type sendFunc func(ctx context.Context, each func(*genai.GenerateContentResponse) bool) error

// sender prepares req once for every attempt: the REST body, marshalled
// once, and the endpoint. On Vertex AI the endpoint and the credentials
// are those genai resolved for the configuration (genaiClient), so both
// APIs stream through restStream.
func (p *Provider) sender(ctx context.Context, req *model.Request) (sendFunc, error) {
	contents, config, err := buildRequest(req)
	if err != nil {
		return nil, err
	}
	ep := geminiEndpoint(p.cfg)
	if p.cfg.UseVertexAI {
		client, err := p.genaiClient(ctx)
		if err != nil {
			return nil, err
		}
		ep = vertexEndpoint(client.ClientConfig())
	}
	body, err := restBody(contents, config, p.cfg.UseVertexAI)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, each func(*genai.GenerateContentResponse) bool) error {
		return p.restStream(ctx, ep, req.Model, body, each)
	}, nil
}

// CountTokens asks the API how many input tokens req would take. On the
// Gemini Developer API, which counts contents only, the system instruction
// is counted as a leading user turn and tool declarations are left out.
func (p *Provider) CountTokens(ctx context.Context, req *model.Request) (int, error) {
	client, err := p.genaiClient(ctx)
	if err != nil {
		return 0, err
	}
	contents, config, err := buildRequest(req)
	if err != nil {
		return 0, err
	}
	var countConfig *genai.CountTokensConfig
	switch {
	case p.cfg.UseVertexAI:
		countConfig = &genai.CountTokensConfig{SystemInstruction: config.SystemInstruction, Tools: config.Tools}
	case config.SystemInstruction != nil:
		system := &genai.Content{Role: genai.RoleUser, Parts: config.SystemInstruction.Parts}
		contents = append([]*genai.Content{system}, contents...)
	}
	var total int
	err = p.do(ctx, req.Model, func(ctx context.Context) (bool, error) {
		resp, err := client.Models.CountTokens(ctx, req.Model, contents, countConfig)
		if err != nil {
			return false, err
		}
		total = int(resp.TotalTokens)
		return true, nil
	})
	return total, err
}

// ContextWindow returns the input window of the named model in tokens.
func (p *Provider) ContextWindow(name string) int {
	return contextWindow(name)
}

// genaiClient returns the genai client, building it on first use.
func (p *Provider) genaiClient(ctx context.Context) (*genai.Client, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.client != nil {
		return p.client, nil
	}
	cc := &genai.ClientConfig{
		APIKey:      p.cfg.APIKey,
		Backend:     genai.BackendGeminiAPI,
		HTTPClient:  p.http,
		HTTPOptions: genai.HTTPOptions{BaseURL: p.cfg.BaseURL},
		// HTTPOptions.RetryOptions stays nil: genai then sends each request
		// once, and Provider.do is the only retry layer.
	}
	if p.cfg.UseVertexAI {
		cc.Backend = genai.BackendVertexAI
		cc.Project, cc.Location = p.cfg.Project, p.cfg.Location
		// With our own HTTP client genai does not attach credentials, so
		// look them up here, unless a key or a bare proxy URL is used:
		// genai's UseDefaultCredentials adds them to p.http, which
		// restStream sends with too.
		proxyOnly := p.cfg.BaseURL != "" && p.cfg.Project == ""
		if p.cfg.APIKey == "" && !proxyOnly {
			if err := cc.UseDefaultCredentials(); err != nil {
				return nil, &model.APIError{
					Message: "Could not find Google Cloud credentials for Vertex AI: run `gcloud auth application-default login` or set GEMINI_API_KEY.",
					Err:     err,
				}
			}
		}
	}
	client, err := genai.NewClient(ctx, cc)
	if err != nil {
		return nil, fmt.Errorf("gemini: creating client: %w", err)
	}
	p.client = client
	return client, nil
}

// httpClient copies the configured client and wraps its transport so that
// Retry-After headers reach the retry loop.
func (p *Provider) httpClient() *http.Client {
	c := &http.Client{}
	if p.cfg.HTTPClient != nil {
		*c = *p.cfg.HTTPClient
	}
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = &hintTransport{base: base}
	return c
}

// newCallID names a function call the API left without an id.
func newCallID() string {
	return "call_" + rand.Text()[:16]
}

// ThinkingBudgets reports whether name takes a thinking budget (Gemini 2.5
// and later), so the agent can offer a thought-level option.
func (p *Provider) ThinkingBudgets(name string) bool { return supportsThinking(name) }
