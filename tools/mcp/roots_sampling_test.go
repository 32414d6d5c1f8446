package mcp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// rootSet is a session's roots that a test changes.
type rootSet struct {
	mu   sync.Mutex
	dirs []string
}

func (r *rootSet) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.dirs)
}

func (r *rootSet) add(d string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dirs = append(r.dirs, d)
}

// TestRoots: a server that asks gets the session roots as file:// URIs,
// and hears when they change (once per change, not per call).
func TestRoots(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	roots := &rootSet{dirs: []string{a}}
	opts := testOptions(t, nil)
	opts.Roots = roots.all
	m := startManager(t, []ServerConfig{fakeServer("fake", "ok")}, opts)
	m.WaitReady(context.Background(), 20*time.Second)
	if res := run(t, m, "mcp_fake_roots", nil); res.IsError || res.Text != "file://"+a+" ("+filepath.Base(a)+")" {
		t.Errorf("roots = %+v", res)
	}
	m.RootsChanged() // nothing changed: nothing sent
	roots.add(b)
	m.RootsChanged()
	m.RootsChanged()
	waitFor(t, "the change announced", func() bool { return run(t, m, "mcp_fake_roots_changes", nil).Text == "changes=1" })
	res := run(t, m, "mcp_fake_roots", nil)
	if !strings.Contains(res.Text, "file://"+a) || !strings.Contains(res.Text, "file://"+b) {
		t.Errorf("roots after the change = %+v", res)
	}
	if got := run(t, m, "mcp_fake_roots_changes", nil).Text; got != "changes=1" {
		t.Errorf("after one change: %s", got)
	}
}

func TestNoRootsWithoutRoots(t *testing.T) {
	m := startManager(t, []ServerConfig{fakeServer("fake", "ok")}, testOptions(t, nil))
	m.WaitReady(context.Background(), 20*time.Second)
	if res := run(t, m, "mcp_fake_roots", nil); !res.IsError {
		t.Errorf("roots without Roots = %+v, want an error", res)
	}
}

// samplerFunc adapts a function to Sampler.
type samplerFunc func(ctx context.Context, req SamplingRequest) (SamplingResult, error)

func (f samplerFunc) Sample(ctx context.Context, req SamplingRequest) (SamplingResult, error) {
	return f(ctx, req)
}

// TestSampling: a server's sampling/createMessage reaches the Sampler with
// its messages, system prompt and limits; the answer, or the refusal,
// reaches the server.
func TestSampling(t *testing.T) {
	tests := []struct {
		name  string
		none  bool
		res   SamplingResult
		err   error
		want  string
		asked bool
	}{
		{name: "allowed", res: SamplingResult{Text: "4", Model: "m1", StopReason: "endTurn"},
			want: "sampled=4 role=assistant model=m1 stop=endTurn", asked: true},
		{name: "refused", err: fmt.Errorf("%w: the user said no", ErrSamplingRefused), want: "the user said no", asked: true},
		{name: "failed", err: errors.New("model down"), want: "model down", asked: true},
		{name: "no sampler", none: true, want: "no sampling handler"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []SamplingRequest
			opts := testOptions(t, nil)
			if !tt.none {
				opts.Sampler = samplerFunc(func(_ context.Context, req SamplingRequest) (SamplingResult, error) {
					got = append(got, req)
					return tt.res, tt.err
				})
			}
			m := startManager(t, []ServerConfig{fakeServer("fake", "ok")}, opts)
			m.WaitReady(context.Background(), 20*time.Second)
			res := run(t, m, "mcp_fake_sample", nil)
			if !strings.Contains(res.Text, tt.want) || res.IsError != (tt.err != nil || tt.none) {
				t.Errorf("result = %+v, want %q", res, tt.want)
			}
			if !tt.asked {
				return
			}
			if len(got) != 1 {
				t.Fatalf("%d sampling requests", len(got))
			}
			r := got[0]
			if r.Server != "fake" || !slices.Equal(r.Messages, []SamplingMessage{{Role: "user", Text: "What is 2+2?"}}) ||
				r.SystemPrompt != "Answer briefly." || r.MaxTokens != 50 || r.Temperature == nil || *r.Temperature != 0.5 ||
				!slices.Equal(r.StopSequences, []string{"END"}) {
				t.Errorf("request = %+v", r)
			}
		})
	}
}

// TestTrustNeedsTrustedWorkspace: a server the user trusts skips the
// confirmation only while the workspace is trusted; includeTools keeps
// only the tools named.
func TestTrustNeedsTrustedWorkspace(t *testing.T) {
	var trusted atomic.Bool
	cfg := fakeServer("fake", "ok")
	cfg.Trust, cfg.IncludeTools = true, []string{"echo", "fail"}
	opts := testOptions(t, nil)
	opts.Trusted = trusted.Load
	m := startManager(t, []ServerConfig{cfg}, opts)
	m.WaitReady(context.Background(), 20*time.Second)
	if got := toolNames(m); !slices.Equal(got, []string{"mcp_fake_echo", "mcp_fake_fail", readResourceName, listResourcesName}) {
		t.Errorf("tools = %v, want echo and fail only", got)
	}
	for _, tr := range []bool{true, false} {
		trusted.Store(tr)
		inv, err := findTool(t, m, "mcp_fake_echo").Prepare(nil, []byte(`{"text":"x"}`))
		if err != nil {
			t.Fatal(err)
		}
		conf, _ := inv.Confirmation(context.Background())
		if (conf == nil) != tr {
			t.Errorf("workspace trusted=%v: confirmation = %+v", tr, conf)
		}
	}
}
