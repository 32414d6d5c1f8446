package modeltest

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"testing"
	"time"

	"companion/agent/model"
	"companion/agent/model/scripted"
)

// Deadline bounds every test that waits on the network, so a bug fails the
// test instead of hanging it. Nothing asserts on elapsed time.
const Deadline = 30 * time.Second

// FastRetry retries quickly so that tests spend milliseconds backing off.
func FastRetry() model.RetryPolicy {
	return model.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond}
}

// SlowBackoff would wait an hour between attempts, so a test that passes
// with it proves that a server-given delay was used instead.
func SlowBackoff() model.RetryPolicy {
	return model.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Hour, MaxDelay: time.Hour}
}

// Server is what both scripted servers (Gemini and OpenAI shape) offer.
type Server interface {
	URL() string
	Requests() []scripted.Recorded
	Close()
}

// Start serves script (nil: the empty script) in a provider's wire shape
// and returns the provider pointed at it, retrying by retry and logging to
// log (nil: the provider's default), with the server.
type Start func(t testing.TB, script *scripted.Script, retry model.RetryPolicy, log *slog.Logger) (model.Model, Server)

// Serve starts a scripted server with newServer (scripted.NewServer or
// scripted.NewOpenAIServer) and closes it when the test ends.
func Serve[S Server](t testing.TB, newServer func(*scripted.Script, *slog.Logger) (S, error), script *scripted.Script) S {
	t.Helper()
	srv, err := newServer(script, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// Started serves script with newServer and returns the provider that
// newProvider builds for the server's base URL, with the server; errors
// fail the test. Providers build their Start on it.
func Started[S Server](t testing.TB, newServer func(*scripted.Script, *slog.Logger) (S, error), script *scripted.Script,
	newProvider func(baseURL string) (model.Model, error)) (model.Model, Server) {
	t.Helper()
	srv := Serve(t, newServer, script)
	p, err := newProvider(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	return p, srv
}

// Parse is scripted.ParseScript that fails the test on error.
func Parse(t testing.TB, js string) *scripted.Script {
	t.Helper()
	s, err := scripted.ParseScript([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Collect drains a stream within Deadline.
func Collect(t testing.TB, ctx context.Context, m model.Model, req *model.Request) ([]*model.Chunk, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, Deadline)
	defer cancel()
	var chunks []*model.Chunk
	for c, err := range m.Stream(ctx, req) {
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("stream did not finish within %s: %v", Deadline, err)
			}
			return chunks, err
		}
		chunks = append(chunks, c)
	}
	return chunks, nil
}

// UserRequest is a one-turn request.
func UserRequest(modelName, text string) *model.Request {
	return &model.Request{
		Model:    modelName,
		Contents: []model.Content{{Role: model.RoleUser, Parts: []model.Part{{Text: text}}}},
	}
}

// APIError asserts that err is a *model.APIError and returns it.
func APIError(t testing.TB, err error) *model.APIError {
	t.Helper()
	var ae *model.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("error %v (%T) is not a *model.APIError", err, err)
	}
	return ae
}

// LastFinish is the finish reason and message of the last chunk.
func LastFinish(chunks []*model.Chunk) (model.FinishReason, string) {
	if len(chunks) == 0 {
		return model.FinishNone, ""
	}
	last := chunks[len(chunks)-1]
	return last.FinishReason, last.FinishMessage
}

// Text joins the text of chunks: the thoughts when thought is set, else the
// answer. Function call parts are left out.
func Text(chunks []*model.Chunk, thought bool) string {
	var s string
	for _, c := range chunks {
		for _, p := range c.Parts {
			if p.Thought == thought && p.FunctionCall == nil {
				s += p.Text
			}
		}
	}
	return s
}

// Calls lists the function calls of chunks in order.
func Calls(chunks []*model.Chunk) []*model.FunctionCall {
	var out []*model.FunctionCall
	for _, c := range chunks {
		for _, p := range c.Parts {
			if p.FunctionCall != nil {
				out = append(out, p.FunctionCall)
			}
		}
	}
	return out
}

// Dig walks decoded JSON by keys (string) and indexes (int); nil when a
// step is missing.
func Dig(v any, path ...any) any {
	for _, step := range path {
		switch s := step.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[s]
		case int:
			a, _ := v.([]any)
			if s >= len(a) {
				return nil
			}
			v = a[s]
		}
	}
	return v
}

// ClosedAddr is a 127.0.0.1 address where nothing listens any more, for
// connection-refused tests.
func ClosedAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	return addr
}
