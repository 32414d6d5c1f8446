package testio

import (
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestClip(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"longer than ten", 10, "longer tha…"},
		{"", 3, ""},
	}
	for _, tt := range tests {
		if got := Clip([]byte(tt.in), tt.n); got != tt.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

// TestBufferConcurrent writes from many goroutines while reading; run
// with -race it fails if the buffer is not safe.
func TestBufferConcurrent(t *testing.T) {
	var b Buffer
	var mu sync.Mutex
	var plain strings.Builder
	w := LockedWriter{Mu: &mu, W: &plain}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				b.Write([]byte("x"))
				w.Write([]byte("y"))
				_ = b.String()
			}
		}()
	}
	wg.Wait()
	if len(b.Bytes()) != 800 || plain.Len() != 800 {
		t.Errorf("wrote %d and %d bytes, want 800 each", len(b.Bytes()), plain.Len())
	}
}

func TestChildEnv(t *testing.T) {
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"nil inherits", nil, nil},
		{"added", []string{"HOME=/h"}, []string{"HOME=/h", "GORACE=atexit_sleep_ms=0"}},
		{"kept", []string{"GORACE=halt_on_error=1"}, []string{"GORACE=halt_on_error=1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ChildEnv(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("ChildEnv(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	// The caller's spare capacity is not written through.
	base := make([]string, 1, 4)
	base[0] = "A=1"
	got := ChildEnv(base)
	_ = append(base, "B=2")
	if got[1] != "GORACE=atexit_sleep_ms=0" {
		t.Errorf("ChildEnv shares the caller's array: %q", got)
	}
}
