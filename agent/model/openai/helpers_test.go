package openai

import (
	"context"
	"errors"
	"testing"
	"time"

	"companion/agent/model"
	"companion/agent/model/scripted"
)

// testDeadline bounds every test that waits on the network, so a bug fails
// the test instead of hanging it. Nothing asserts on elapsed time.
const testDeadline = 30 * time.Second

// fastRetry retries quickly so that tests spend milliseconds backing off.
func fastRetry() RetryPolicy {
	return RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond}
}

// slowBackoff would wait an hour between attempts, so a test that passes
// with it proves that a server-given delay was used instead.
func slowBackoff() RetryPolicy {
	return RetryPolicy{MaxAttempts: 3, BaseDelay: time.Hour, MaxDelay: time.Hour}
}

// startScript serves script in the OpenAI shape and returns a provider
// pointed at it.
func startScript(t testing.TB, script *scripted.Script, retry RetryPolicy) (*Provider, *scripted.OpenAIServer) {
	t.Helper()
	srv, err := scripted.NewOpenAIServer(script, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	p, err := New(context.Background(), Config{APIKey: "test-key", BaseURL: srv.URL(), Retry: retry})
	if err != nil {
		t.Fatal(err)
	}
	return p, srv
}

// parse is ParseScript that fails the test on error.
func parse(t testing.TB, js string) *scripted.Script {
	t.Helper()
	s, err := scripted.ParseScript([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// collect drains a stream within testDeadline.
func collect(t testing.TB, ctx context.Context, p *Provider, req *model.Request) ([]*model.Chunk, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, testDeadline)
	defer cancel()
	var chunks []*model.Chunk
	for c, err := range p.Stream(ctx, req) {
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("stream did not finish within %s: %v", testDeadline, err)
			}
			return chunks, err
		}
		chunks = append(chunks, c)
	}
	return chunks, nil
}

// userRequest is a one-turn request.
func userRequest(modelName, text string) *model.Request {
	return &model.Request{
		Model:    modelName,
		Contents: []model.Content{{Role: model.RoleUser, Parts: []model.Part{{Text: text}}}},
	}
}

// apiError asserts that err is a *model.APIError and returns it.
func apiError(t *testing.T, err error) *model.APIError {
	t.Helper()
	var ae *model.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("error %v (%T) is not a *model.APIError", err, err)
	}
	return ae
}

// lastFinish is the finish reason and message of the last chunk.
func lastFinish(chunks []*model.Chunk) (model.FinishReason, string) {
	if len(chunks) == 0 {
		return model.FinishNone, ""
	}
	last := chunks[len(chunks)-1]
	return last.FinishReason, last.FinishMessage
}

// text joins the text of chunks, thoughts or not.
func text(chunks []*model.Chunk, thought bool) string {
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

// calls lists the function calls of chunks in order.
func calls(chunks []*model.Chunk) []*model.FunctionCall {
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

// dig walks decoded JSON by keys and indexes; nil when a step is missing.
func dig(v any, path ...any) any {
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
