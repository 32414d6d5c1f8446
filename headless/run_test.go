package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"companion/agent"
	"companion/agent/model"
	"companion/config"
	"companion/host"
	"companion/tools"
)

// TestStartFailedDuration: a run whose session cannot start (no model:
// no key) reports the time the run took, not the time since year 1.
func TestStartFailedDuration(t *testing.T) {
	for _, format := range []string{formatJSON, formatStream} {
		t.Run(format, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			noKey := errors.New("no API key: set GEMINI_API_KEY")
			code := Run(context.Background(), Options{Prompt: "hi", OutputFormat: format, Stdout: &stdout, Stderr: &stderr,
				Cwd: t.TempDir(), Options: host.Options{Config: config.Config{StateDir: t.TempDir(), Model: "m1"},
					Model: func(context.Context, config.Config) (model.Model, error) { return nil, noKey },
					Tools: func(config.Config) *tools.Registry { return tools.NewRegistry() }}})
			if code != ExitError {
				t.Fatalf("exit %d, want %d; stderr %s", code, ExitError, stderr.String())
			}
			var res struct {
				Type       string     `json:"type"`
				IsError    bool       `json:"is_error"`
				DurationMS int64      `json:"duration_ms"`
				Error      *errorInfo `json:"error"`
			}
			lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil {
				t.Fatalf("%v: %s", err, stdout.String())
			}
			// A bound far above any real start-up: the bug reported 292 years.
			if res.Type != "result" || !res.IsError || res.DurationMS < 0 || res.DurationMS > int64(time.Hour/time.Millisecond) {
				t.Errorf("result = %+v: %s", res, stdout.String())
			}
			if format == formatJSON && (res.Error == nil || res.Error.Type != errTypeExecution || !strings.Contains(res.Error.Message, "no API key")) {
				t.Errorf("error = %+v", res.Error)
			}
		})
	}
}

// TestOutcomeDuration: an outcome without a start lasts 0.
func TestOutcomeDuration(t *testing.T) {
	if d := (outcome{}).duration(); d != 0 {
		t.Errorf("duration of an outcome with no start = %v", d)
	}
}

// TestErrorOf: the json output's error type for each way a prompt fails,
// and none for those that did not.
func TestErrorOf(t *testing.T) {
	tests := []struct {
		o    outcome
		want string
	}{
		{outcome{stop: agent.EndTurn}, ""},
		{outcome{stop: agent.MaxTokens}, ""},
		{outcome{stop: agent.MaxTurnRequests}, errTypeMaxTurns},
		{outcome{stop: agent.Refusal}, errTypeRefusal},
		{outcome{stop: agent.Cancelled}, errTypeInterrupted},
		{outcome{err: errors.New("boom")}, errTypeExecution},
		{outcome{err: sessionError("sess_1", errNoSession)}, errTypeNoSession},
		{outcome{err: errNoSessionHere}, errTypeNoSession},
		{outcome{err: ErrUsage}, errTypeUsage},
	}
	for _, tt := range tests {
		got := errorOf(tt.o)
		if (got == nil) != (tt.want == "") || got != nil && (got.Type != tt.want || got.Message == "") {
			t.Errorf("errorOf(%+v) = %+v, want type %q", tt.o, got, tt.want)
		}
	}
}
