package ide

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestTrackerUpdateKeepsAbsentFields(t *testing.T) {
	t.Parallel()
	tr := newBaseTracker(t)
	before := tr.Snapshot()
	tr.Update(mustParse(t, `{"openFiles": [{"uri": "file:///home/u/proj/only.go", "timestamp": 9, "isActive": true}]}`))
	after := tr.Snapshot()
	if !reflect.DeepEqual(after.WorkspaceFolders, before.WorkspaceFolders) ||
		!reflect.DeepEqual(after.Diagnostics, before.Diagnostics) || !reflect.DeepEqual(after.IsTrusted, before.IsTrusted) {
		t.Errorf("absent fields changed:\nbefore %s\nafter %s", mustJSON(t, before), mustJSON(t, after))
	}
	if len(after.OpenFiles) != 1 || after.OpenFiles[0].URI != "file:///home/u/proj/only.go" {
		t.Errorf("open files = %s, want only only.go", mustJSON(t, after.OpenFiles))
	}
	tr.Update(mustParse(t, `{"openFiles": []}`))
	if got := tr.Snapshot().OpenFiles; got == nil || len(got) != 0 {
		t.Errorf("after openFiles [] got %#v, want empty non-nil", got)
	}
}

func TestTrackerMarkStale(t *testing.T) {
	t.Parallel()
	tr := newBaseTracker(t)
	if got := tr.Render(context.Background(), false); got != "" {
		t.Fatalf("delta after full = %q", got)
	}
	tr.MarkStale()
	full := tr.Render(context.Background(), false)
	if !strings.HasPrefix(full, fullHeader) {
		t.Errorf("Render(false) after MarkStale is not full:\n%s", full)
	}
	if got := tr.Render(context.Background(), false); got != "" {
		t.Errorf("delta after the stale render = %q", got)
	}
}

func TestTrackerEmpty(t *testing.T) {
	t.Parallel()
	tr := NewTracker(nil)
	if got := tr.Render(context.Background(), true); got != "" {
		t.Errorf("empty tracker rendered %q", got)
	}
	tr.Update(mustParse(t, `{"openFiles": [{"uri": "file:///a.go", "timestamp": 1, "isActive": true}]}`))
	// The first render with content is full even when a delta is asked.
	if got := tr.Render(context.Background(), false); !strings.HasPrefix(got, fullHeader) {
		t.Errorf("first render with content is not full:\n%s", got)
	}
}

func TestTrackerTrustedFolders(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		update string
		want   []string
	}{
		{"trusted", `{"workspaceFolders": [{"uri": "file:///w/a"}, {"uri": "file:///w/b"}], "isTrusted": true}`, []string{"/w/a", "/w/b"}},
		{"untrusted", `{"workspaceFolders": [{"uri": "file:///w/a"}], "isTrusted": false}`, nil},
		{"trust unknown", `{"workspaceFolders": [{"uri": "file:///w/a"}]}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tr := NewTracker(nil)
			tr.Update(mustParse(t, tt.update))
			if got := tr.TrustedFolders(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("TrustedFolders = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTrackerDiagnosticsFor(t *testing.T) {
	t.Parallel()
	tr := newBaseTracker(t)
	got := tr.DiagnosticsFor("/home/u/proj/main.go")
	if len(got) != 2 || got[0].Message != "could be simpler" || got[1].Code != "UndeclaredName" {
		t.Errorf("DiagnosticsFor(main.go) = %s", mustJSON(t, got))
	}
	if got := tr.DiagnosticsFor("/home/u/proj/README.md"); got != nil {
		t.Errorf("DiagnosticsFor(README.md) = %v, want nil", got)
	}
}

func TestTrackerWindowWithoutBuffer(t *testing.T) {
	t.Parallel()
	// The reader fails for main.go: the render has no window but the rest.
	tr := NewTracker(fakeBuffers(nil))
	tr.Update(mustParse(t, baseUpdate))
	got := tr.Render(context.Background(), true)
	if strings.Contains(got, "cursor line") || !strings.Contains(got, "Diagnostics:") {
		t.Errorf("render without buffer:\n%s", got)
	}
}

func TestTrackerConcurrent(t *testing.T) {
	t.Parallel()
	tr := NewTracker(fakeBuffers(map[string]string{"/home/u/proj/main.go": mainGo()}))
	base := mustParse(t, baseUpdate)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 50 {
				c := base
				c.OpenFiles = append([]OpenFile(nil), base.OpenFiles...)
				c.OpenFiles[0].Cursor = &Position{Line: uint32(g*100 + i)}
				tr.Update(c)
				tr.Render(context.Background(), i%10 == 0)
				tr.TrustedFolders()
				if i%7 == 0 {
					tr.MarkStale()
				}
			}
		})
	}
	wg.Wait()
	if got := tr.Snapshot(); len(got.OpenFiles) != 3 {
		t.Errorf("after concurrent updates: %d open files, want 3", len(got.OpenFiles))
	}
}

// TestTrackerAwaitsFirstContext: a Render after Await waits for the
// editor's first context (it arrives after the Render began), and a
// context that never comes, or a cancelled turn, ends the wait.
func TestTrackerAwaitsFirstContext(t *testing.T) {
	t.Parallel()
	never := make(chan struct{})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		arrives bool
		wait    time.Duration
		ctx     context.Context
		want    string
	}{
		{"arrives", true, time.Minute, context.Background(), "only.go"},
		{"never comes", false, 10 * time.Millisecond, context.Background(), ""},
		{"turn cancelled", false, time.Minute, cancelled, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tr := NewTracker(nil)
			first := never
			if tt.arrives {
				first = make(chan struct{})
				go func() {
					time.Sleep(20 * time.Millisecond)
					tr.Update(mustParse(t, `{"openFiles": [{"uri": "file:///p/only.go", "timestamp": 1, "isActive": true}]}`))
					close(first)
				}()
			}
			tr.Await(first, tt.wait)
			got := tr.Render(tt.ctx, false)
			if !strings.Contains(got, tt.want) || (tt.want == "") != (got == "") {
				t.Errorf("Render = %q, want it to hold %q", got, tt.want)
			}
		})
	}
}
