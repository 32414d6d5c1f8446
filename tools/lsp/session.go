package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"time"

	"companion/ide"
	"companion/lspclient"
	"companion/tools"
)

// SessionOptions are what one agent session gives the pool.
type SessionOptions struct {
	// Servers are the session's servers (Resolve); those with no Path
	// are missing and only reported.
	Servers []Server
	// Roots are the session's folders; a file outside them is served by
	// no server.
	Roots *tools.Roots
	// Trusted reports whether the workspace is trusted; a project's
	// server is not used while it says false. Nil means trusted.
	Trusted func() bool
	// Wrap runs servers in the command sandbox; nil runs them as they are.
	Wrap Wrap
	// Editor answers with the editor's own language features, asked
	// before a server for the files it has them for; nil when the client
	// offers none.
	Editor Editor
	// Wait bounds the wait for diagnostics after an edit once a server
	// has published; 0 means DefaultWait. ColdWait bounds it before
	// (while the server loads the project); 0 means DefaultColdWait.
	Wait, ColdWait time.Duration
}

// The default bounds of the wait for diagnostics after an edit.
const (
	DefaultWait     = 2 * time.Second
	DefaultColdWait = 10 * time.Second
)

// Session is one agent session's view of the pool: its servers, roots,
// trust and sandbox. Close lets the pool go.
type Session struct {
	pool    *Pool
	opts    SessionOptions
	release func()
}

// Session registers a session as a user of the pool.
func (p *Pool) Session(opts SessionOptions) *Session {
	if opts.Wait == 0 {
		opts.Wait = DefaultWait
	}
	if opts.ColdWait == 0 {
		opts.ColdWait = DefaultColdWait
	}
	return &Session{pool: p, opts: opts, release: p.Acquire()}
}

// Close lets the pool go; the last session's Close stops the servers. A
// nil Session closes nothing.
func (s *Session) Close() {
	if s != nil {
		s.release()
	}
}

// serverFor returns the usable server for path and its root.
func (s *Session) serverFor(path string) (Server, string, bool) {
	top, ok := s.opts.Roots.RootOf(path)
	if !ok {
		return Server{}, "", false
	}
	for _, srv := range s.opts.Servers {
		if srv.Path == "" || !srv.Serves(path) || (srv.Project && !s.trusted()) {
			continue
		}
		return srv, rootFor(srv, path, top, exists), true
	}
	return Server{}, "", false
}

// trusted reports the workspace's trust.
func (s *Session) trusted() bool { return s.opts.Trusted == nil || s.opts.Trusted() }

// exists reports whether a file exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Diagnose returns the diagnostics a server reports for path with text
// (its content after an edit), waiting for them within the session's
// bounds (ColdWait in all, Wait once the server has published); ok is
// false when no server serves path or none answered.
func (s *Session) Diagnose(ctx context.Context, path, text string) (list []ide.Diagnostic, ok bool) {
	srv, root, found := s.serverFor(path)
	if !found {
		return nil, false
	}
	// Nothing, a server's start included, holds the edit longer.
	ctx, cancel := context.WithTimeout(ctx, s.opts.ColdWait)
	defer cancel()
	err := s.pool.use(ctx, srv, root, s.opts.Wrap, func(in *instance) error {
		wait := s.opts.Wait
		if in.coldPublisher() {
			wait = s.opts.ColdWait
		}
		doc, err := in.openDocument(ctx, path, text)
		if err != nil {
			return err
		}
		defer doc.close()
		var raw []lspclient.Diagnostic
		raw, ok = s.await(ctx, doc, time.Now().Add(wait))
		list = toIDE(raw)
		return nil
	})
	if err != nil {
		s.pool.opts.Log.Debug("no diagnostics from the language server", "path", path, "err", err)
		return nil, false
	}
	return list, ok
}

// await returns the document's diagnostics by deadline: pulled from a
// server that answers pulls, else (or when the pull fails) as the server
// publishes them.
func (s *Session) await(ctx context.Context, doc *document, deadline time.Time) ([]lspclient.Diagnostic, bool) {
	if doc.in.client.PullsDiagnostics() {
		list, err := doc.pull(ctx, deadline)
		if err == nil {
			return list, true
		}
		s.pool.opts.Log.Debug("pulling diagnostics failed; waiting for published ones", "uri", doc.uri, "err", err)
	}
	return doc.diagnostics(ctx, time.Until(deadline))
}

// coldPublisher reports whether the server has given no diagnostics yet,
// published or pulled.
func (in *instance) coldPublisher() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.seq == 0 && len(in.pulled) == 0
}

// toIDE converts diagnostics to the editor context's type, which the
// agent reads both kinds in.
func toIDE(in []lspclient.Diagnostic) []ide.Diagnostic {
	out := make([]ide.Diagnostic, 0, len(in))
	for _, d := range in {
		out = append(out, ide.Diagnostic{
			Range:    ide.Range{Start: ide.Position(d.Range.Start), End: ide.Position(d.Range.End)},
			Severity: ide.DiagnosticSeverity(d.Severity), Source: d.Source, Message: d.Message,
		})
	}
	return out
}

// Applies reports whether a usable server may serve the session: one
// whose root markers sit in one of its folders.
func (s *Session) Applies() bool {
	for _, srv := range s.opts.Servers {
		if srv.Path != "" && (!srv.Project || s.trusted()) && markedIn(srv, s.opts.Roots.All()) {
			return true
		}
	}
	return false
}

// markedIn reports whether a root marker of srv is in one of folders.
func markedIn(srv Server, folders []string) bool {
	for _, r := range folders {
		for _, m := range srv.RootMarkers {
			if exists(filepath.Join(r, m)) {
				return true
			}
		}
	}
	return false
}

// Status lists the session's servers: those the pool runs (state,
// memory), and the others its folders call for (Describe).
func (s *Session) Status() []string {
	var out []string
	if s.opts.Editor != nil {
		out = append(out, "the editor: its own language features are asked first, a server only for the files it has none for")
	}
	running := map[string]bool{}
	for _, st := range s.pool.Status() {
		running[st.Name] = true
		out = append(out, st.String())
	}
	var rest []Server
	for _, srv := range s.opts.Servers {
		if !running[srv.Name] {
			rest = append(rest, srv)
		}
	}
	return append(out, Describe(rest, s.opts.Roots.All())...)
}

// Describe says, one line each, what becomes of the servers whose root
// markers sit in one of folders: where a server is found and that it
// starts with the first file it serves, or, for a missing one, how to
// install it.
func Describe(servers []Server, folders []string) []string {
	var out []string
	for _, srv := range servers {
		switch {
		case !markedIn(srv, folders):
		case srv.Path == "":
			out = append(out, srv.Missing())
		default:
			out = append(out, fmt.Sprintf("%s: %s (%s; starts with the first file it serves)", srv.Name, StateNotStarted, srv.Path))
		}
	}
	return out
}
