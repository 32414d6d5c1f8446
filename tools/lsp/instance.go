package lsp

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"companion/lspclient"
)

// instance is one running server for one root: its process, its
// connection and the diagnostics it last published for each document.
type instance struct {
	server Server
	root   string
	proc   *process
	client *lspclient.Client

	// mu guards the fields below.
	mu sync.Mutex
	// version numbers document opens and changes, over every document.
	version int32
	// seq counts the diagnostics published.
	seq uint64
	// diags are the last diagnostics published for each URI.
	diags map[string]published
	// changed is closed, and replaced, at every publication.
	changed chan struct{}
	// pulled are the last pulled diagnostics of each URI, for a server
	// that answers pulls (pull.go).
	pulled map[string]pulledReport
}

// published is one document's diagnostics as last published.
type published struct {
	version *int32
	seq     uint64
	list    []lspclient.Diagnostic
}

// startTimeout bounds a server's start and handshake.
const startTimeout = 30 * time.Second

// launch starts s for root and runs the handshake.
func launch(ctx context.Context, s Server, root string, wrap Wrap, info clientInfo, log *slog.Logger) (*instance, error) {
	proc, err := startProcess(s, root, wrap)
	if err != nil {
		return nil, err
	}
	in := &instance{server: s, root: root, proc: proc, diags: map[string]published{}, changed: make(chan struct{}),
		pulled: map[string]pulledReport{}}
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	in.client, err = lspclient.Start(ctx, proc, lspclient.Options{
		Name: info.name, Version: info.version, Root: root,
		InitializationOptions: s.InitializationOptions, OnDiagnostics: in.publish,
		Log: log.With("server", s.Name, "root", root),
	})
	if err != nil {
		proc.stop(time.Second)
		select {
		case <-proc.exited:
			return nil, fmt.Errorf("%s: %w (%s)", s.Name, err, proc.exitReason())
		default:
		}
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	return in, nil
}

// clientInfo names companion to servers.
type clientInfo struct{ name, version string }

// publish keeps a publishDiagnostics notification and wakes the waiters.
func (in *instance) publish(p lspclient.PublishDiagnostics) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.seq++
	in.diags[p.URI] = published{version: p.Version, seq: in.seq, list: p.Diagnostics}
	close(in.changed)
	in.changed = make(chan struct{})
}

// nextVersion returns a new document version and the publication count
// before it.
func (in *instance) nextVersion() (int32, uint64) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.version++
	return in.version, in.seq
}

// current returns uri's last diagnostics and the channel closed at the
// next publication.
func (in *instance) current(uri string) (published, bool, <-chan struct{}) {
	in.mu.Lock()
	defer in.mu.Unlock()
	p, ok := in.diags[uri]
	return p, ok, in.changed
}

// stop asks the server to shut down, then ends its process.
func (in *instance) stop(grace time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	_ = in.client.Shutdown(ctx)
	in.proc.stop(grace)
}
