package mcp

import (
	"context"
	"testing"
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
			asked := elicitCall(t, "mcp_fake_visit", func(context.Context, Elicitation) (ElicitAnswer, error) {
				return tt.answer, tt.err
			}, tt.want, tt.isErr)
			if len(asked) != 1 || asked[0].URL != "https://auth.example/sign-in" || asked[0].Message != "Sign in, please." ||
				len(asked[0].Schema) != 0 {
				t.Errorf("asked = %+v", asked)
			}
		})
	}
}
