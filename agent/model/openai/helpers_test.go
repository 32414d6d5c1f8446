package openai

import (
	"context"
	"log/slog"
	"testing"

	"companion/agent/model"
	"companion/agent/model/internal/modeltest"
	"companion/agent/model/scripted"
)

// startScript serves script in the OpenAI shape and returns a provider
// pointed at it.
func startScript(t testing.TB, script *scripted.Script, retry model.RetryPolicy) (*Provider, *scripted.OpenAIServer) {
	t.Helper()
	srv := modeltest.Serve(t, scripted.NewOpenAIServer, script)
	p, err := New(context.Background(), Config{APIKey: "test-key", BaseURL: srv.URL(), Retry: retry})
	if err != nil {
		t.Fatal(err)
	}
	return p, srv
}

// start is startScript as modeltest's shared tests call it.
func start(t testing.TB, script *scripted.Script, retry model.RetryPolicy, log *slog.Logger) (model.Model, modeltest.Server) {
	p, srv := startScript(t, script, retry)
	if log != nil {
		p.log = log
	}
	return p, srv
}
