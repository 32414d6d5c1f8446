package companion_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"companion/ide/companion"
	"companion/ide/companion/companiontest"
)

// openDiff opens a diff and checks that the server saw it.
func (f *fixture) openDiff(ctx context.Context, path, content string) <-chan companion.DiffResult {
	f.t.Helper()
	ch, err := f.c.OpenDiff(ctx, path, content)
	if err != nil {
		f.t.Fatalf("OpenDiff() error = %v", err)
	}
	call := f.nextCall()
	if call.Name != "openDiff" || call.FilePath != path || call.NewContent != content {
		f.t.Fatalf("server got %+v, want openDiff of %s with %q", call, path, content)
	}
	return ch
}

// nextCall waits for the server's next tool call.
func (f *fixture) nextCall() companiontest.ToolCall {
	f.t.Helper()
	call, err := f.srv.NextCall(f.ctx())
	if err != nil {
		f.t.Fatalf("no tool call reached the server: %v", err)
	}
	return call
}

// result waits for a diff's result and checks the channel closes after it.
func (f *fixture) result(ch <-chan companion.DiffResult) companion.DiffResult {
	f.t.Helper()
	select {
	case res, ok := <-ch:
		if !ok {
			f.t.Fatal("diff channel closed without a result")
		}
		if _, more := <-ch; more {
			f.t.Fatal("diff channel yielded a second result")
		}
		return res
	case <-f.ctx().Done():
		f.t.Fatal("no diff result arrived")
		return companion.DiffResult{}
	}
}

func TestDiffAcceptedWithEdits(t *testing.T) {
	f := setup(t, nil, nil)
	path := filepath.Join(t.TempDir(), "main.go")
	ch := f.openDiff(context.Background(), path, "proposed\n")
	if err := f.srv.Accept(path, "proposed, then edited\n"); err != nil {
		t.Fatal(err)
	}
	res := f.result(ch)
	want := companion.DiffResult{FilePath: path, Outcome: companion.DiffAccepted, Content: "proposed, then edited\n"}
	if res != want {
		t.Errorf("result = %+v, want %+v", res, want)
	}
	// The file is free for another diff.
	f.openDiff(context.Background(), path, "again")
}

func TestDiffRejected(t *testing.T) {
	tests := []struct {
		name        string
		answer      func(srv *companiontest.Server, path string) error
		wantContent string
	}{
		{"spec: diffRejected", func(srv *companiontest.Server, path string) error { return srv.Reject(path) }, ""},
		{"shipped extension: diffRejected with content", func(srv *companiontest.Server, path string) error {
			return srv.Notify(companiontest.MethodDiffRejected, map[string]any{"filePath": path, "content": "old"})
		}, "old"},
		{"legacy: diffClosed", func(srv *companiontest.Server, path string) error {
			return srv.Notify(companiontest.MethodDiffClosed, map[string]any{"filePath": path})
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := setup(t, nil, nil)
			path := filepath.Join(t.TempDir(), "a.txt")
			ch := f.openDiff(context.Background(), path, "new")
			// An answer about another file changes nothing.
			if err := f.srv.Notify(companiontest.MethodDiffAccepted, map[string]any{"filePath": path + ".other", "content": "x"}); err != nil {
				t.Fatal(err)
			}
			if err := tt.answer(f.srv, path); err != nil {
				t.Fatal(err)
			}
			res := f.result(ch)
			if res.Outcome != companion.DiffRejected || res.Content != tt.wantContent || res.Err != nil {
				t.Errorf("result = %+v, want rejected with content %q", res, tt.wantContent)
			}
		})
	}
}

func TestCloseDiffResultForms(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		name := map[bool]string{false: "raw text (spec)", true: "JSON content (shipped extension)"}[asJSON]
		t.Run(name, func(t *testing.T) {
			f := setup(t, nil, nil)
			f.srv.SetCloseDiffJSON(asJSON)
			path := filepath.Join(t.TempDir(), "b.txt")
			ch := f.openDiff(context.Background(), path, "new")
			edited := `{"looks": "like JSON"}` + "\nline two\n"
			if err := f.srv.Edit(path, edited); err != nil {
				t.Fatal(err)
			}
			got, err := f.c.CloseDiff(f.ctx(), path)
			if err != nil {
				t.Fatalf("CloseDiff() error = %v", err)
			}
			if got != edited {
				t.Errorf("CloseDiff() = %q, want %q", got, edited)
			}
			if call := f.nextCall(); call.Name != "closeDiff" || call.FilePath != path || !call.SuppressNotification {
				t.Errorf("server got %+v, want closeDiff of %s with suppressNotification", call, path)
			}
			res := f.result(ch)
			if res.Outcome != companion.DiffClosed || res.Content != edited || res.Err != nil {
				t.Errorf("open diff after CloseDiff = %+v, want closed with the edited text", res)
			}
			// Closing again: nothing open in the IDE.
			if got, err := f.c.CloseDiff(f.ctx(), path); err != nil || got != "" {
				t.Errorf("second CloseDiff() = %q, %v; want empty", got, err)
			}
		})
	}
}

func TestConnectionLostMidDiff(t *testing.T) {
	f := setup(t, nil, nil)
	f.nextContext()
	path := filepath.Join(t.TempDir(), "c.txt")
	ch := f.openDiff(context.Background(), path, "new")
	f.srv.Drop()
	res := f.result(ch)
	if res.Outcome != companion.DiffLost || !errors.Is(res.Err, companion.ErrConnectionLost) {
		t.Errorf("result = %+v, want lost with ErrConnectionLost", res)
	}
	// The client comes back by itself, and the new session gets the context.
	f.waitStatus(false)
	f.waitStatus(true)
	f.nextContext()
	f.openDiff(context.Background(), path, "newer")
}

func TestOneDiffPerFile(t *testing.T) {
	f := setup(t, nil, nil)
	dir := t.TempDir()
	path := filepath.Join(dir, "d.txt")
	ch := f.openDiff(context.Background(), path, "first")
	if _, err := f.c.OpenDiff(context.Background(), filepath.Join(dir, ".", "d.txt"), "second"); !errors.Is(err, companion.ErrDiffPending) {
		t.Errorf("second OpenDiff() error = %v, want ErrDiffPending", err)
	}
	// Another file is fine, and the first diff is still open.
	f.openDiff(context.Background(), filepath.Join(dir, "e.txt"), "other")
	if err := f.srv.Accept(path, "first"); err != nil {
		t.Fatal(err)
	}
	if res := f.result(ch); res.Outcome != companion.DiffAccepted || res.Content != "first" {
		t.Errorf("first diff = %+v, want accepted", res)
	}
}

func TestDiffEndsWithoutAnswer(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		cancel  bool
		wantErr error
	}{
		{"time limit", time.Nanosecond, false, companion.ErrDiffTimeout},
		{"context ended", time.Hour, true, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := setup(t, nil, func(_ *fixture, o *companion.Options) { o.DiffTimeout = tt.timeout })
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			path := filepath.Join(t.TempDir(), "f.txt")
			ch := f.openDiff(ctx, path, "new")
			if tt.cancel {
				cancel()
			}
			res := f.result(ch)
			if res.Outcome != companion.DiffClosed || !errors.Is(res.Err, tt.wantErr) {
				t.Errorf("result = %+v, want closed with %v", res, tt.wantErr)
			}
			// The diff view is closed in the IDE.
			if call := f.nextCall(); call.Name != "closeDiff" || call.FilePath != path {
				t.Errorf("server got %+v, want closeDiff of %s", call, path)
			}
		})
	}
}

func TestOpenDiffRefusedByTheIDE(t *testing.T) {
	f := setup(t, nil, nil)
	f.srv.FailOpenDiff("cannot open a diff for that file")
	path := filepath.Join(t.TempDir(), "g.txt")
	_, err := f.c.OpenDiff(context.Background(), path, "new")
	if !errors.Is(err, companion.ErrToolFailed) {
		t.Fatalf("OpenDiff() error = %v, want ErrToolFailed", err)
	}
	f.nextCall()
	// The refused diff does not block the file.
	f.srv.FailOpenDiff("")
	f.openDiff(context.Background(), path, "new")
}
