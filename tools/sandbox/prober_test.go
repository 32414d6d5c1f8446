package sandbox

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// countingProbe answers as a machine with bubblewrap at /fake/bwrap
// would (or fails with err), counting the probes per forced backend.
type countingProbe struct {
	mu  sync.Mutex
	n   map[Backend]int
	err error
}

func (c *countingProbe) probe(force Backend, _ string) (ProbeResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[Backend]int{}
	}
	c.n[force]++
	if c.err != nil {
		return ProbeResult{}, c.err
	}
	return ProbeResult{BackendInfo: BackendInfo{Name: Bwrap, Why: "fake"}, Path: "/fake/bwrap"}, nil
}

// TestProberProbesOnce: sandboxes sharing a Prober, asked side by side
// and in every way (Available, Backend, Wrap), cause one probe; another
// forced backend is probed once more; a failed probe is not retried and
// every sandbox reports its reason.
func TestProberProbesOnce(t *testing.T) {
	t.Setenv(BackendEnv, "")
	c := &countingProbe{}
	p := NewProber(c.probe)
	var wg sync.WaitGroup
	var wrapped atomic.Int32
	for range 8 {
		wg.Go(func() {
			sb := p.New(WorkspaceWrite, false)
			if be := sb.Backend(); be.Name != Bwrap || be.Why != "fake" {
				t.Errorf("Backend() = %+v", be)
			}
			argv, err := sb.Wrap([]string{t.TempDir()}, []string{"true"})
			if err != nil || argv[0] != "/fake/bwrap" {
				t.Errorf("Wrap = %q, %v", argv, err)
			}
			wrapped.Add(1)
		})
	}
	wg.Wait()
	forced := p.New(ReadOnly, true)
	forced.Force = Landlock
	_ = forced.Available()
	_ = p.New(ReadOnly, true).Available()
	if off := p.New(Off, false); off.Backend().Name != None {
		t.Error("an off sandbox has a backend")
	}
	if c.n[""] != 1 || c.n[Landlock] != 1 || wrapped.Load() != 8 {
		t.Errorf("probes %v after %d sandboxes, want one per forced backend", c.n, wrapped.Load())
	}

	bad := &countingProbe{err: errors.New("no backend here")}
	p = NewProber(bad.probe)
	for range 3 {
		sb := p.New(ReadOnly, false)
		if be := sb.Backend(); be.Name != None || be.Why != "no backend here" {
			t.Errorf("Backend() = %+v, want none and the probe's reason", be)
		}
		if _, err := sb.Wrap(nil, []string{"true"}); err == nil {
			t.Error("Wrap ran a command with no backend")
		}
	}
	if bad.n[""] != 1 {
		t.Errorf("a failed probe ran %d times, want once", bad.n[""])
	}
}

// TestProberNil: a nil Prober, and a Sandbox without one, still probe
// (each for itself), as sandboxes made by New always did.
func TestProberNil(t *testing.T) {
	var p *Prober
	sb := p.New(ReadOnly, false)
	if sb.Prober != nil || sb.Mode != ReadOnly {
		t.Fatalf("nil Prober's New = %+v", sb)
	}
	be := sb.Backend()
	if be.Why == "" {
		t.Errorf("Backend() = %+v: no reason given", be)
	}
	var zero Prober
	if got := zero.New(ReadOnly, false).Backend(); got != be {
		t.Errorf("zero Prober's backend %+v, nil Prober's %+v", got, be)
	}
}
