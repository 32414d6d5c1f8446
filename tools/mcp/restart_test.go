package mcp

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// fakeClock is the manager's clock in restart tests: After records the
// wait asked for and fires at once, so tests never wait the backoff.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = append(c.waits, d)
	ch := make(chan time.Time, 1)
	ch <- c.now
	return ch
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func (c *fakeClock) recorded() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.waits)
}

// changeLog records the availability changes a manager reports.
type changeLog struct {
	mu  sync.Mutex
	all []StateChange
}

func (l *changeLog) add(c StateChange) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = append(l.all, c)
}

func (l *changeLog) kinds() []ChangeKind {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []ChangeKind
	for _, c := range l.all {
		out = append(out, c.Kind)
	}
	return out
}

// restartOptions are test options with the real defaults for restarts
// (1 s doubling to 60 s, 5 in 10 min) on a fake clock.
func restartOptions(t *testing.T, clock *fakeClock, log *changeLog) Options {
	opts := testOptions(t, nil)
	opts.Backoff, opts.MaxBackoff, opts.MaxRestarts = 0, 0, 0
	opts.Now, opts.After, opts.OnState = clock.Now, clock.After, log.add
	return opts
}

// flakyServer is a server whose second start fails at once.
func flakyServer(t *testing.T) ServerConfig {
	cfg := fakeServer("fake", "flaky")
	cfg.Env[fakeCountEnv] = filepath.Join(t.TempDir(), "count")
	return cfg
}

// TestCrashTwiceThenStaysUp: a server that crashes (a tool call kills it),
// fails its next start, then stays up: restarted after 1 s and 2 s, its
// tools gone while down and back after, and the user told twice (down,
// back), not once per attempt. A later crash waits 4 s: the restarts are
// still within the window.
func TestCrashTwiceThenStaysUp(t *testing.T) {
	clock, log := newFakeClock(), &changeLog{}
	m := startManager(t, []ServerConfig{flakyServer(t)}, restartOptions(t, clock, log))
	m.WaitReady(context.Background(), 20*time.Second)
	run(t, m, "mcp_fake_crash", nil)
	waitFor(t, "back after two restarts", func() bool {
		st := status(t, m, "fake")
		return st.State == StateReady && st.Restarts == 2
	})
	if got, want := clock.recorded(), []time.Duration{time.Second, 2 * time.Second}; !slices.Equal(got, want) {
		t.Errorf("backoff waits = %v, want %v", got, want)
	}
	if got, want := log.kinds(), []ChangeKind{WentDown, CameBack}; !slices.Equal(got, want) {
		t.Errorf("notices = %v, want %v", got, want)
	}
	if !hasTool(m, "mcp_fake_echo") {
		t.Errorf("tools after coming back = %v", toolNames(m))
	}
	clock.advance(time.Minute)
	run(t, m, "mcp_fake_crash", nil)
	waitFor(t, "back again", func() bool {
		st := status(t, m, "fake")
		return st.State == StateReady && st.Restarts == 3
	})
	if got, want := clock.recorded(), []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}; !slices.Equal(got, want) {
		t.Errorf("backoff waits = %v, want %v", got, want)
	}
	if got, want := log.kinds(), []ChangeKind{WentDown, CameBack, WentDown, CameBack}; !slices.Equal(got, want) {
		t.Errorf("notices = %v, want %v", got, want)
	}
}

// TestRestartBackoffAndGiveUp: a server that never starts is restarted
// MaxRestarts times within the window with a doubling wait capped at 60 s,
// then given up; the user hears "down" once and "given up" once.
func TestRestartBackoffAndGiveUp(t *testing.T) {
	s := time.Second
	tests := []struct {
		name        string
		maxRestarts int
		waits       []time.Duration
	}{
		{"default five", 0, []time.Duration{s, 2 * s, 4 * s, 8 * s, 16 * s}},
		{"capped at a minute", 8, []time.Duration{s, 2 * s, 4 * s, 8 * s, 16 * s, 32 * s, 60 * s, 60 * s}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock, log := newFakeClock(), &changeLog{}
			opts := restartOptions(t, clock, log)
			opts.MaxRestarts = tt.maxRestarts
			m := startManager(t, []ServerConfig{fakeServer("bad", "exit")}, opts)
			waitFor(t, "given up", stateIs(m, "bad", StateFailed))
			if got := clock.recorded(); !slices.Equal(got, tt.waits) {
				t.Errorf("waits = %v, want %v", got, tt.waits)
			}
			if st := status(t, m, "bad"); st.Restarts != len(tt.waits) {
				t.Errorf("restarts = %d, want %d", st.Restarts, len(tt.waits))
			}
			if got, want := log.kinds(), []ChangeKind{WentDown, GaveUp}; !slices.Equal(got, want) {
				t.Errorf("notices = %v, want %v", got, want)
			}
		})
	}
}

// TestRestartWindowForgetsOldRestarts: restarts older than the window no
// longer count, so a server that fails now and then is not given up.
func TestRestartWindowForgetsOldRestarts(t *testing.T) {
	clock, log := newFakeClock(), &changeLog{}
	opts := restartOptions(t, clock, log)
	opts.MaxRestarts = 1
	m := startManager(t, []ServerConfig{fakeServer("fake", "ok")}, opts)
	m.WaitReady(context.Background(), 20*time.Second)
	crashAndWait := func(restarts int) {
		run(t, m, "mcp_fake_crash", nil)
		waitFor(t, "restarted", func() bool {
			st := status(t, m, "fake")
			return st.State == StateReady && st.Restarts == restarts
		})
	}
	crashAndWait(1)
	clock.advance(10*time.Minute + time.Second)
	crashAndWait(2)
	run(t, m, "mcp_fake_crash", nil)
	waitFor(t, "given up", stateIs(m, "fake", StateFailed))
	if got, want := clock.recorded(), []time.Duration{time.Second, time.Second}; !slices.Equal(got, want) {
		t.Errorf("waits = %v, want %v (the window emptied)", got, want)
	}
	want := []ChangeKind{WentDown, CameBack, WentDown, CameBack, GaveUp}
	if got := log.kinds(); !slices.Equal(got, want) {
		t.Errorf("notices = %v, want %v", got, want)
	}
}
