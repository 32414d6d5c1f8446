package gemini

import (
	"context"
	"log/slog"
	"testing"

	"companion/agent/model"
	"companion/agent/model/internal/modeltest"
	"companion/agent/model/scripted"
)

// start serves script in the Gemini shape and returns a provider pointed at
// it that logs to log (nil discards), with the server. It is this
// package's modeltest.Start.
func start(t testing.TB, script *scripted.Script, retry model.RetryPolicy, log *slog.Logger) (model.Model, modeltest.Server) {
	t.Helper()
	return modeltest.Started(t, scripted.NewServer, script, func(url string) (model.Model, error) {
		return New(context.Background(), Config{APIKey: "test-key", BaseURL: url, Retry: retry, Logger: log})
	})
}
