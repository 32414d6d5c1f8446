package lsp

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"
)

// PoolOptions configure a Pool.
type PoolOptions struct {
	// Name and Version name companion to the servers.
	Name, Version string
	Log           *slog.Logger
	// StopGrace is how long a stopping server is given before it is
	// killed; 0 means 2 s.
	StopGrace time.Duration
}

// Pool runs the language servers of a process: one per server and root,
// started on first use, shared by every session that holds the pool
// (Acquire), all shut down when the last one lets go. A server that
// crashes is started again on the next use, no sooner than its backoff (1 s
// doubling to 60 s) allows. A Pool is safe for concurrent use.
type Pool struct {
	opts PoolOptions

	// mu guards the fields below.
	mu      sync.Mutex
	users   int
	entries map[key]*entry
}

// key names one server for one root.
type key struct{ name, root string }

// NewPool returns an empty pool; it starts nothing.
func NewPool(opts PoolOptions) *Pool {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.StopGrace == 0 {
		opts.StopGrace = 2 * time.Second
	}
	return &Pool{opts: opts, entries: map[key]*entry{}}
}

// Acquire registers a user of the pool; the returned function lets go
// (once), and the last to let go stops every server.
func (p *Pool) Acquire() (release func()) {
	p.mu.Lock()
	p.users++
	p.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			p.users--
			last := p.users == 0
			p.mu.Unlock()
			if last {
				p.Close()
			}
		})
	}
}

// Close stops every running server and forgets them.
func (p *Pool) Close() {
	p.mu.Lock()
	entries := slices.Collect(maps.Values(p.entries))
	p.entries = map[key]*entry{}
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, e := range entries {
		wg.Go(func() { e.stop(p.opts.StopGrace) })
	}
	wg.Wait()
}

// use runs f with the running instance of s for root, starting it when
// needed; f has the instance to itself until it returns.
func (p *Pool) use(ctx context.Context, s Server, root string, wrap Wrap, f func(*instance) error) error {
	e := p.entry(key{s.Name, root})
	if err := e.lock(ctx); err != nil {
		return err
	}
	defer e.unlock()
	in, err := e.running(ctx, s, root, wrap, clientInfo{p.opts.Name, p.opts.Version}, p.opts.Log)
	if err != nil {
		return err
	}
	return f(in)
}

// entry returns k's entry, made on first use.
func (p *Pool) entry(k key) *entry {
	p.mu.Lock()
	defer p.mu.Unlock()
	e, ok := p.entries[k]
	if !ok {
		e = newEntry()
		p.entries[k] = e
	}
	return e
}

// Status lists the servers the pool knows, by name then root.
func (p *Pool) Status() []Status {
	p.mu.Lock()
	keys := slices.Collect(maps.Keys(p.entries))
	entries := maps.Clone(p.entries)
	p.mu.Unlock()
	slices.SortFunc(keys, func(a, b key) int {
		if a.name != b.name {
			return compareStrings(a.name, b.name)
		}
		return compareStrings(a.root, b.root)
	})
	out := make([]Status, 0, len(keys))
	for _, k := range keys {
		st := entries[k].status()
		st.Name, st.Root = k.name, k.root
		out = append(out, st)
	}
	return out
}

// compareStrings orders strings.
func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
