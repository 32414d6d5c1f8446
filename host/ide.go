package host

import (
	"context"
	"errors"
	"os"
	"slices"
	"sync"

	"companion/agent"
	"companion/ide"
	"companion/ide/companion"
	"companion/tools"
)

// ideLink connects, once per host and only when an IDE that follows the
// Gemini CLI IDE companion spec is found, to that IDE: its context reaches
// every session under its workspace, and edits also open its native diff.
type ideLink struct {
	h *Host

	once sync.Once
	// mu guards the fields below.
	mu     sync.Mutex
	client *companion.Client
	// ep is the endpoint found, before the connection is made.
	ep *companion.Endpoint
	// ready is closed once the connection is made and the IDE's first
	// context delivered, or the connection failed; nil when no IDE was
	// found. gotContext records the first delivery.
	ready      chan struct{}
	gotContext bool
	readyOnce  sync.Once
}

// start discovers the IDE from the session's directory and connects in
// the background; no IDE is the normal case and costs one look-up.
func (l *ideLink) start(cwd string) {
	l.once.Do(func() {
		// The host's environment, not the process's: an in-process agent
		// (tests) has its own, and the port file lives in its TMPDIR.
		opts := companion.DiscoverOptions{Cwd: cwd, PID: os.Getpid(), Log: l.h.log, Getenv: l.h.opts.Getenv}
		if opts.Getenv != nil {
			opts.TempDir = opts.Getenv("TMPDIR")
		}
		ep, err := companion.Discover(opts)
		if err != nil {
			if !errors.Is(err, companion.ErrNotFound) {
				l.h.log.Info("no IDE companion", "err", err)
			}
			return
		}
		l.mu.Lock()
		l.ep, l.ready = ep, make(chan struct{})
		l.mu.Unlock()
		go l.connect(ep, opts)
	})
}

// pending returns what closes once the IDE's first context has reached the
// sessions (or the connection failed), or nil when no IDE is connecting.
func (l *ideLink) pending() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ready
}

// markReady closes ready when the connection failed, or when it is made
// and its first context delivered, whichever of those two comes last; l.mu
// is held.
func (l *ideLink) markReady(failed bool) {
	if l.ready != nil && (failed || (l.client != nil && l.gotContext)) {
		l.readyOnce.Do(func() { close(l.ready) })
	}
}

func (l *ideLink) connect(ep *companion.Endpoint, opts companion.DiscoverOptions) {
	client, err := companion.Connect(context.Background(), ep, companion.Options{
		OnContext: l.deliver, Log: l.h.log, ClientName: l.h.opts.Name, ClientVersion: l.h.opts.Version,
		Rediscover: func() (*companion.Endpoint, error) { return companion.Discover(opts) },
	})
	if err != nil {
		l.h.log.Warn("cannot connect to the IDE companion", "port", ep.Port, "err", err)
		l.mu.Lock()
		l.markReady(true)
		l.mu.Unlock()
		return
	}
	l.mu.Lock()
	l.client = client
	l.markReady(false)
	l.mu.Unlock()
}

// deliver hands the IDE's context to the sessions inside its workspace,
// its isTrusted deciding their trust as an ACP editor's does.
func (l *ideLink) deliver(ctx ide.Context) {
	l.mu.Lock()
	client, ep := l.client, l.ep
	l.mu.Unlock()
	var paths []string
	switch {
	case client != nil:
		paths = client.Endpoint().WorkspacePaths
	case ep != nil: // the first context, pushed while connecting
		paths = ep.WorkspacePaths
	}
	var targets []*Session
	for _, s := range l.h.live() {
		if len(paths) == 0 || slices.ContainsFunc(paths, func(p string) bool { return tools.Within(p, s.Agent.Root()) }) {
			targets = append(targets, s)
		}
	}
	for _, s := range targets {
		s.Agent.UpdateIDEContext(ctx)
		s.rootsMayHaveChanged()
		if ctx.IsTrusted != nil {
			l.h.setEditorTrust(s, *ctx.IsTrusted)
		}
	}
	l.mu.Lock()
	l.gotContext = true
	l.markReady(false)
	l.mu.Unlock()
}

// diffClient returns the connected IDE when it can show diffs.
func (l *ideLink) diffClient() *companion.Client {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.client != nil && l.client.DiffSupported() {
		return l.client
	}
	return nil
}

// close ends the connection.
func (l *ideLink) close() {
	l.mu.Lock()
	client := l.client
	l.client = nil
	l.mu.Unlock()
	if client != nil {
		client.Close()
	}
}

// ideAsker asks about edits in the IDE's native diff as well as through
// ACP: whichever answers first decides. Accepted in the IDE means the
// (possibly edited) text there is written; rejected means nothing is; a
// lost connection leaves the decision to the ACP answer, and an ACP answer
// closes the IDE's diff.
type ideAsker struct {
	inner agent.Asker
	link  *ideLink
}

func (a *ideAsker) Ask(ctx context.Context, q agent.Question) (agent.Answer, error) {
	client := a.link.diffClient()
	if client == nil || q.Confirm == nil || q.Confirm.Type != tools.ConfirmEdit {
		return a.inner.Ask(ctx, q)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	diff, err := client.OpenDiff(ctx, q.Confirm.Path, q.Confirm.NewText)
	if err != nil {
		return a.inner.Ask(ctx, q)
	}
	type reply struct {
		ans agent.Answer
		err error
	}
	acp := make(chan reply, 1)
	go func() {
		ans, err := a.inner.Ask(ctx, q)
		acp <- reply{ans, err}
	}()
	for {
		select {
		case r := <-diff:
			switch r.Outcome {
			case companion.DiffAccepted:
				cancel() // withdraws the ACP question
				text := r.Content
				return agent.Answer{OptionID: agent.ProceedOnce, ModifiedContent: &text}, nil
			case companion.DiffRejected:
				cancel()
				return agent.Answer{OptionID: agent.RejectOnceID}, nil
			}
			diff = nil // lost or closed: the ACP answer decides
		case r := <-acp:
			if diff != nil {
				client.CloseDiff(context.WithoutCancel(ctx), q.Confirm.Path)
			}
			return r.ans, r.err
		}
	}
}
