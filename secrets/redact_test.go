package secrets

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

func TestRedactor(t *testing.T) {
	r := NewRedactor("MARKED-KEY-1234", "", "demo", `quo"te<key>`)
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"GET /v1?key=MARKED-KEY-1234&x=1", "GET /v1?key=[redacted]&x=1"},
		{"MARKED-KEY-1234MARKED-KEY-1234", "[redacted][redacted]"},
		{"demo stays", "demo stays"},
		{`{"text":"quo\"te\u003ckey\u003e"}`, `{"text":"[redacted]"}`},
		{`raw quo"te<key>`, `raw [redacted]`},
	}
	for _, tt := range tests {
		if got := r.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := string(r.Bytes([]byte(tt.in))); got != tt.want {
			t.Errorf("Bytes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	r.Add("LATER-KEY-5678")
	if got := r.String("LATER-KEY-5678"); got != Redacted {
		t.Errorf("after Add: %q", got)
	}
	var nilR *Redactor
	if got := nilR.String("MARKED-KEY-1234"); got != "MARKED-KEY-1234" {
		t.Errorf("nil redactor changed text: %q", got)
	}
}

func TestRedactorWriter(t *testing.T) {
	r := NewRedactor("MARKED-KEY-1234")
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(r.Writer(&buf), nil))
	log.Info("request failed MARKED-KEY-1234", "url", "https://x/?key=MARKED-KEY-1234",
		"err", errors.New("bad key MARKED-KEY-1234"))
	if out := buf.String(); strings.Contains(out, "MARKED") || !strings.Contains(out, Redacted) {
		t.Errorf("log output = %q", out)
	}
}

// TestRedactorConcurrentAdd runs Add beside readers, for the race detector.
func TestRedactorConcurrentAdd(t *testing.T) {
	r := NewRedactor("FIRST-KEY-0001")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 50 {
			r.Add(strings.Repeat("k", 8+i))
		}
	}()
	for range 200 {
		if got := r.String("x FIRST-KEY-0001"); got != "x "+Redacted {
			t.Fatalf("String = %q", got)
		}
	}
	<-done
}
