package main

import "testing"

func TestGreeting(t *testing.T) {
	if got := greeting("Ann"); got != "Hello, Ann!" {
		t.Errorf("greeting(Ann) = %q", got)
	}
}
