package companion_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/goleak"

	"companion/ide"
	"companion/ide/companion"
	"companion/ide/companion/companiontest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// safety bounds every wait, so a broken test fails instead of hanging; no
// test asserts on time.
const safety = 30 * time.Second

// fixture is a fake IDE server with a client connected to it.
type fixture struct {
	t        *testing.T
	tmp, ws  string
	srv      *companiontest.Server
	c        *companion.Client
	contexts chan ide.Context
	status   chan bool
}

// setup starts a server whose port file names a workspace, discovers it
// and connects; edit adjusts the client options.
func setup(t *testing.T, serverCtx any, edit func(*fixture, *companion.Options)) *fixture {
	t.Helper()
	f := &fixture{t: t, tmp: t.TempDir(), contexts: make(chan ide.Context, 64), status: make(chan bool, 64)}
	f.ws = f.tmp
	if r, err := filepath.EvalSymlinks(f.tmp); err == nil {
		f.ws = r
	}
	f.srv = f.startServer(companiontest.Options{Context: serverCtx})
	opts := companion.Options{
		OnContext:    func(c ide.Context) { f.contexts <- c },
		OnStatus:     func(up bool) { f.status <- up },
		ReconnectMin: 5 * time.Millisecond,
		ReconnectMax: 20 * time.Millisecond,
	}
	if edit != nil {
		edit(f, &opts)
	}
	c, err := companion.Connect(f.ctx(), f.discover(), opts)
	if err != nil {
		t.Fatalf("Connect() error = %v", err)
	}
	f.c = c
	t.Cleanup(func() { _ = c.Close() })
	return f
}

// startServer starts a fake IDE server writing its port file into f.tmp;
// Close runs at cleanup.
func (f *fixture) startServer(o companiontest.Options) *companiontest.Server {
	f.t.Helper()
	o.TempDir = f.tmp
	o.Workspace = []string{f.ws}
	srv, err := companiontest.Start(o)
	if err != nil {
		f.t.Fatalf("companiontest.Start() error = %v", err)
	}
	f.t.Cleanup(func() { _ = srv.Close() })
	return srv
}

// discover finds the server through its port file.
func (f *fixture) discover() *companion.Endpoint {
	f.t.Helper()
	ep, err := companion.Discover(f.discoverOptions())
	if err != nil {
		f.t.Fatalf("Discover() error = %v", err)
	}
	return ep
}

func (f *fixture) discoverOptions() companion.DiscoverOptions {
	return companion.DiscoverOptions{
		Getenv:  func(string) string { return "" },
		TempDir: f.tmp,
		Cwd:     f.ws,
	}
}

// ctx bounds one wait.
func (f *fixture) ctx() context.Context {
	ctx, cancel := context.WithTimeout(f.t.Context(), safety)
	f.t.Cleanup(cancel)
	return ctx
}

// nextContext waits for the next context update.
func (f *fixture) nextContext() ide.Context {
	f.t.Helper()
	select {
	case c := <-f.contexts:
		return c
	case <-f.ctx().Done():
		f.t.Fatal("no context update arrived")
		return ide.Context{}
	}
}

// waitStatus waits until the client reports want.
func (f *fixture) waitStatus(want bool) {
	f.t.Helper()
	for {
		select {
		case up := <-f.status:
			if up == want {
				return
			}
		case <-f.ctx().Done():
			f.t.Fatalf("the client never reported connected=%v", want)
		}
	}
}

// workspaceState builds ide/contextUpdate params with one active file.
func workspaceState(path string, line, char int, selected string) map[string]any {
	return map[string]any{"workspaceState": map[string]any{
		"openFiles": []any{map[string]any{
			"path": path, "timestamp": 1700000000000, "isActive": true,
			"cursor":       map[string]any{"line": line, "character": char},
			"selectedText": selected,
		}},
		"isTrusted": true,
	}}
}

func TestContextUpdatesArriveConverted(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "main.go")
	f := setup(t, workspaceState(main, 3, 5, "sel"), nil)

	// The first stream starts with the current context.
	got := f.nextContext()
	if len(got.OpenFiles) != 1 {
		t.Fatalf("first context = %+v, want one open file", got)
	}
	file := got.OpenFiles[0]
	if file.URI != ide.URIFromPath(main) || !file.IsActive || file.Timestamp != 1700000000000 || file.SelectedText != "sel" {
		t.Errorf("open file = %+v", file)
	}
	if file.Cursor == nil || *file.Cursor != (ide.Position{Line: 2, Character: 4}) {
		t.Errorf("cursor = %+v, want 0-based {2 4} from 1-based 3:5", file.Cursor)
	}
	if got.IsTrusted == nil || !*got.IsTrusted {
		t.Errorf("isTrusted = %v, want true", got.IsTrusted)
	}

	// Later updates follow.
	other := filepath.Join(dir, "other.go")
	if err := f.srv.SetContext(workspaceState(other, 1, 1, "")); err != nil {
		t.Fatal(err)
	}
	got = f.nextContext()
	if len(got.OpenFiles) != 1 || got.OpenFiles[0].URI != ide.URIFromPath(other) || *got.OpenFiles[0].Cursor != (ide.Position{}) {
		t.Errorf("second context = %+v", got)
	}
	if !f.c.Connected() || !f.c.DiffSupported() {
		t.Errorf("Connected() = %v, DiffSupported() = %v; want both true", f.c.Connected(), f.c.DiffSupported())
	}
}

func TestBearerTokenChecked(t *testing.T) {
	tmp := t.TempDir()
	srv, err := companiontest.Start(companiontest.Options{TempDir: tmp, Workspace: []string{tmp}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, token := range []string{"", "wrong-" + srv.Token()} {
		ep := &companion.Endpoint{Port: srv.Port(), AuthToken: token}
		c, err := companion.Connect(t.Context(), ep, companion.Options{})
		if !errors.Is(err, companion.ErrUnauthorized) {
			if c != nil {
				_ = c.Close()
			}
			t.Errorf("Connect(token %q) error = %v, want ErrUnauthorized", token, err)
		}
	}
}

func TestConnectWithoutServer(t *testing.T) {
	srv, err := companiontest.Start(companiontest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ep := &companion.Endpoint{Port: srv.Port(), AuthToken: srv.Token()}
	_ = srv.Close()
	if c, err := companion.Connect(t.Context(), ep, companion.Options{}); err == nil {
		_ = c.Close()
		t.Fatal("Connect() to a closed port succeeded")
	}
	if _, err := companion.Connect(t.Context(), nil, companion.Options{}); !errors.Is(err, companion.ErrNotFound) {
		t.Errorf("Connect(nil) error = %v, want ErrNotFound", err)
	}
}

func TestReconnectAfterServerRestart(t *testing.T) {
	dir := t.TempDir()
	f := setup(t, workspaceState(filepath.Join(dir, "a.go"), 1, 1, ""), nil)
	f.nextContext()

	addr, token := f.srv.Addr(), f.srv.Token()
	_ = f.srv.Close()
	f.waitStatus(false)
	if f.c.Connected() {
		t.Error("Connected() = true after the server went away")
	}
	if _, err := f.c.OpenDiff(f.ctx(), filepath.Join(dir, "a.go"), "x"); !errors.Is(err, companion.ErrNotConnected) {
		t.Errorf("OpenDiff() while down error = %v, want ErrNotConnected", err)
	}

	// The editor comes back on the same port with another context.
	f.srv = f.startServer(companiontest.Options{Addr: addr, Token: token, Context: workspaceState(filepath.Join(dir, "b.go"), 7, 2, "")})
	got := f.nextContext()
	if len(got.OpenFiles) != 1 || got.OpenFiles[0].URI != ide.URIFromPath(filepath.Join(dir, "b.go")) {
		t.Errorf("context after restart = %+v, want b.go", got)
	}
	f.waitStatus(true)
	if !f.c.Connected() {
		t.Error("Connected() = false after reconnecting")
	}
	if err := f.srv.SetContext(workspaceState(filepath.Join(dir, "c.go"), 1, 1, "")); err != nil {
		t.Fatal(err)
	}
	if got := f.nextContext(); got.OpenFiles[0].URI != ide.URIFromPath(filepath.Join(dir, "c.go")) {
		t.Errorf("context update after reconnecting = %+v, want c.go", got)
	}
}

func TestRediscoverFindsTheEditorOnANewPort(t *testing.T) {
	f := setup(t, nil, func(f *fixture, o *companion.Options) {
		opts := f.discoverOptions()
		o.Rediscover = func() (*companion.Endpoint, error) { return companion.Discover(opts) }
	})
	f.nextContext()
	_ = f.srv.Close() // removes its port file
	f.waitStatus(false)
	f.srv = f.startServer(companiontest.Options{}) // another port, another token
	f.waitStatus(true)
	if got := f.c.Endpoint(); got.Port != f.srv.Port() || got.AuthToken != f.srv.Token() {
		t.Errorf("Endpoint() = %+v, want the new server's port %d and token", got, f.srv.Port())
	}
	f.nextContext()
}

func TestCloseEndsEverything(t *testing.T) {
	f := setup(t, nil, nil)
	f.nextContext()
	path := filepath.Join(t.TempDir(), "x.txt")
	ch, err := f.c.OpenDiff(context.Background(), path, "new")
	if err != nil {
		t.Fatal(err)
	}
	if call := f.nextCall(); call.Name != "openDiff" {
		t.Fatalf("server got %+v, want openDiff", call)
	}
	if err := f.c.Close(); err != nil {
		t.Fatal(err)
	}
	res := <-ch
	if res.Outcome != companion.DiffLost || !errors.Is(res.Err, companion.ErrClosed) {
		t.Errorf("pending diff after Close = %+v, want lost with ErrClosed", res)
	}
	// The leaving agent closed the diff view.
	if call := f.nextCall(); call.Name != "closeDiff" || call.FilePath != path {
		t.Errorf("server got %+v, want closeDiff of %s", call, path)
	}
	if _, err := f.c.OpenDiff(context.Background(), path, "new"); !errors.Is(err, companion.ErrClosed) {
		t.Errorf("OpenDiff() after Close error = %v, want ErrClosed", err)
	}
	if _, err := f.c.CloseDiff(context.Background(), path); !errors.Is(err, companion.ErrClosed) {
		t.Errorf("CloseDiff() after Close error = %v, want ErrClosed", err)
	}
	if f.c.Connected() {
		t.Error("Connected() = true after Close")
	}
	_ = f.c.Close() // idempotent
}
