package mcp

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestElicitationURLMode: a server's URL-mode elicitation reaches the
// Elicitor with its URL and message and no form; its answer reaches the
// server, and an Elicitor that cannot send the user to a URL fails the call.
func TestElicitationURLMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		answer ElicitAnswer
		err    error
		want   string
		isErr  bool
	}{
		{name: "accept", answer: ElicitAnswer{Action: ElicitAccept}, want: "visit=accept"},
		{name: "decline", answer: ElicitAnswer{Action: ElicitDecline}, want: "visit=decline"},
		{name: "no URL mode", err: ErrNoURLElicitation, want: ErrNoURLElicitation.Error(), isErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var asked []Elicitation
			opts := testOptions(t, nil)
			opts.Elicit = func(_ context.Context, q Elicitation) (ElicitAnswer, error) {
				asked = append(asked, q)
				return tt.answer, tt.err
			}
			m := startManager(t, []ServerConfig{fakeServer("fake", "ok")}, opts)
			if !m.WaitReady(context.Background(), 20*time.Second) {
				t.Fatal("the server did not start")
			}
			res := run(t, m, "mcp_fake_visit", map[string]any{})
			if !strings.Contains(res.Text, tt.want) || res.IsError != tt.isErr {
				t.Errorf("result = %+v, want %q (error %v)", res, tt.want, tt.isErr)
			}
			if len(asked) != 1 || asked[0].URL != "https://auth.example/sign-in" || asked[0].Message != "Sign in, please." ||
				len(asked[0].Schema) != 0 {
				t.Errorf("asked = %+v", asked)
			}
		})
	}
}
