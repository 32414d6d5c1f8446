package model_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"companion/agent/model"
)

func TestWithDefaults(t *testing.T) {
	t.Parallel()
	defaults := model.RetryPolicy{MaxAttempts: 5, BaseDelay: time.Second, MaxDelay: 30 * time.Second, MaxServerDelay: 2 * time.Minute}
	tests := []struct {
		name string
		in   model.RetryPolicy
		want model.RetryPolicy
	}{
		{"zero", model.RetryPolicy{}, defaults},
		{"negative", model.RetryPolicy{MaxAttempts: -1, BaseDelay: -1, MaxDelay: -1, MaxServerDelay: -1}, defaults},
		{"set", model.RetryPolicy{MaxAttempts: 1, BaseDelay: 2, MaxDelay: 3, MaxServerDelay: 4}, model.RetryPolicy{MaxAttempts: 1, BaseDelay: 2, MaxDelay: 3, MaxServerDelay: 4}},
	}
	for _, tt := range tests {
		if got := tt.in.WithDefaults(); got != tt.want {
			t.Errorf("%s: WithDefaults = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestBackoffFullJitter(t *testing.T) {
	t.Parallel()
	r := model.RetryPolicy{BaseDelay: time.Second, MaxDelay: 30 * time.Second}.WithDefaults()
	tests := []struct {
		attempt int
		ceiling time.Duration
	}{{1, time.Second}, {2, 2 * time.Second}, {3, 4 * time.Second}, {5, 16 * time.Second}, {6, 30 * time.Second}, {80, 30 * time.Second}}
	for _, tt := range tests {
		for range 200 {
			if d := r.Backoff(tt.attempt); d < 0 || d > tt.ceiling {
				t.Fatalf("Backoff(attempt %d) = %s, outside [0, %s]", tt.attempt, d, tt.ceiling)
			}
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"7", 7 * time.Second, true},
		{" 7 ", 7 * time.Second, true},
		{"-3", 0, true},
		{"Thu, 02 Jan 2025 03:04:15 GMT", 10 * time.Second, true},
		{"Thu, 02 Jan 2025 03:04:00 GMT", 0, true},
		{"soon", 0, false},
	}
	for _, tt := range tests {
		got, ok := model.ParseRetryAfter(tt.in, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseRetryAfter(%q) = %s %v, want %s %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// fast retries within milliseconds.
func fast() model.RetryPolicy {
	return model.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond}
}

// slow would wait an hour between attempts, so a test that finishes with it
// proves that no backoff was waited.
func slow() model.RetryPolicy {
	return model.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Hour, MaxDelay: time.Hour}
}

// failing is an Attempt that failed with err and whose Final error says
// how many attempts were made.
func failing(err error) model.Attempt {
	return model.Attempt{Err: err, Final: func(n int) error { return fmt.Errorf("final after %d: %w", n, err) }}
}

func TestDo(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	retryable := failing(boom)
	retryable.Retryable = true
	delivered := retryable
	delivered.Delivered = true
	serverWait := retryable
	serverWait.HasServerDelay = true
	serverTooLong := serverWait
	serverTooLong.ServerDelay = 3 * time.Minute
	tests := []struct {
		name      string
		policy    model.RetryPolicy
		attempts  []model.Attempt // the last one repeats
		wantTries int
		wantErr   string
	}{
		{"success", fast(), []model.Attempt{{}}, 1, ""},
		{"recovers", fast(), []model.Attempt{retryable, retryable, {}}, 3, ""},
		{"gives up", fast(), []model.Attempt{retryable}, 3, "final after 3: boom"},
		{"default attempts", model.RetryPolicy{BaseDelay: time.Microsecond, MaxDelay: time.Microsecond}, []model.Attempt{retryable}, 5, "final after 5: boom"},
		{"not retryable", fast(), []model.Attempt{failing(boom)}, 1, "final after 1: boom"},
		{"delivered", fast(), []model.Attempt{delivered}, 1, "final after 1: boom"},
		{"server delay wins", slow(), []model.Attempt{serverWait, {}}, 2, ""},
		{"server delay too long", fast(), []model.Attempt{serverTooLong}, 1, "final after 1: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// A wait of an hour (the slow backoff) ends at the deadline and
			// fails the test instead of hanging it.
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			tries := 0
			err := tt.policy.Do(ctx, slog.New(slog.DiscardHandler), "test", func() model.Attempt {
				a := tt.attempts[min(tries, len(tt.attempts)-1)]
				tries++
				return a
			})
			if tries != tt.wantTries {
				t.Errorf("tries = %d, want %d", tries, tt.wantTries)
			}
			if got := fmt.Sprint(err); (err == nil) != (tt.wantErr == "") || (err != nil && got != tt.wantErr) {
				t.Errorf("error = %v, want %q", err, tt.wantErr)
			}
			if err != nil && !errors.Is(err, boom) {
				t.Errorf("error %v does not wrap the last failure", err)
			}
		})
	}
}

func TestDoCancelled(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// during cancels the context while the attempt runs, otherwise the
		// retry log does, just before the hour-long backoff.
		during bool
	}{{"during an attempt", true}, {"during the backoff", false}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			rec := &records{cancel: cancel}
			tries := 0
			err := slow().Do(ctx, slog.New(rec), "test", func() model.Attempt {
				tries++
				if tt.during {
					cancel()
				}
				a := failing(errors.New("boom"))
				a.Retryable = true
				return a
			})
			if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "test: ") {
				t.Errorf("error = %v, want one wrapping context.Canceled prefixed %q", err, "test: ")
			}
			if tries != 1 {
				t.Errorf("tries = %d, want 1", tries)
			}
			if want := map[bool]int{true: 0, false: 1}[tt.during]; len(rec.messages) != want {
				t.Errorf("logged %q, want %d retry message", rec.messages, want)
			}
		})
	}
}

func TestDoLogs(t *testing.T) {
	t.Parallel()
	rec := &records{}
	a := failing(errors.New("boom"))
	a.Retryable = true
	_ = fast().Do(context.Background(), slog.New(rec), "gemini", func() model.Attempt { return a })
	want := []string{
		"INFO gemini request failed, retrying attempt=1 error=boom",
		"INFO gemini request failed, retrying attempt=2 error=boom",
		"WARN gemini request failed attempts=3 error=boom",
	}
	if strings.Join(rec.messages, "\n") != strings.Join(want, "\n") {
		t.Errorf("logs:\n%s\nwant:\n%s", strings.Join(rec.messages, "\n"), strings.Join(want, "\n"))
	}
}

// records is a slog handler that keeps each record as "LEVEL message
// key=value..." (waits left out, since they are random) and, when cancel
// is set, cancels on the first retry message.
type records struct {
	cancel   context.CancelFunc
	messages []string
}

func (h *records) Enabled(context.Context, slog.Level) bool { return true }
func (h *records) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *records) WithGroup(string) slog.Handler            { return h }
func (h *records) Handle(_ context.Context, r slog.Record) error {
	line := r.Level.String() + " " + r.Message
	r.Attrs(func(a slog.Attr) bool {
		if a.Key != "wait" {
			line += " " + a.String()
		}
		return true
	})
	h.messages = append(h.messages, line)
	if h.cancel != nil && strings.Contains(r.Message, "retrying") {
		h.cancel()
	}
	return nil
}

// timeoutError is a net.Error that timed out.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

func TestConnectionProblem(t *testing.T) {
	t.Parallel()
	op := func(err error) error { return &net.OpError{Op: "dial", Net: "tcp", Err: err} }
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"refused", op(syscall.ECONNREFUSED), "connection refused"},
		{"reset", fmt.Errorf("read: %w", syscall.ECONNRESET), "connection reset"},
		{"broken pipe", op(syscall.EPIPE), "connection reset"},
		{"EOF", fmt.Errorf("reading: %w", io.EOF), "the connection closed unexpectedly"},
		{"unexpected EOF", io.ErrUnexpectedEOF, "the connection closed unexpectedly"},
		{"DNS", op(&net.DNSError{Name: "api.example", Err: "no such host"}), "cannot resolve host api.example"},
		{"timeout", fmt.Errorf("get: %w", timeoutError{}), "timed out"},
		{"other op error", op(errors.New("network is unreachable")), "network is unreachable"},
		{"not a connection problem", errors.New("bad JSON"), ""},
	}
	for _, tt := range tests {
		if got := model.ConnectionProblem(tt.err); got != tt.want {
			t.Errorf("%s: ConnectionProblem = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestErrorText(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 150) // 300 bytes; a cut must not split a rune
	tests := []struct{ name, got, want string }{
		{"one line", model.OneLine("  Bad request.\nstack trace"), "Bad request"},
		{"periods", model.OneLine("Done..."), "Done"},
		{"empty", model.OneLine(" \n"), ""},
		{"long", model.OneLine(long), strings.Repeat("é", 100) + "…"},
		{"plural one", model.Plural(1, "attempt"), "1 attempt"},
		{"plural many", model.Plural(5, "attempt"), "5 attempts"},
		{"plural none", model.Plural(0, "attempt"), "0 attempts"},
		{"after one", model.AfterAttempts(1), ""},
		{"after none", model.AfterAttempts(0), ""},
		{"after many", model.AfterAttempts(3), " after 3 attempts"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}
