package checkpoint

import (
	"context"
	"sync"
)

// maxPrepareRuns bounds how often a preparation interrupted by other work
// starts again, so a session of back-to-back edits does not redo it
// without end.
const maxPrepareRuns = 4

// preparer runs Store.Prepare's background work: one pass at a time,
// interrupted by the operations that do not need it and resumed after
// them.
type preparer struct {
	mu      sync.Mutex
	parent  context.Context    // Prepare's; nil before Prepare
	cancel  context.CancelFunc // the running pass's; nil when none runs
	done    chan struct{}      // closed when the running or last pass ended
	pending bool               // a pass was interrupted before it finished
	runs    int
	wg      sync.WaitGroup
}

// Prepare brings what whole-tree snapshots build on up to date in the
// background: the shadow repository, its index seeded from the project's
// and holding the work tree's changes (folded in, see stage), git's
// untracked cache and the index's recorded tree. It commits no checkpoint.
// A session calls it when it opens, so that its first Save (a shell
// command) costs what a later one does instead of a first walk and hash
// of the tree. It returns at once; the work ends when ctx does, and stop
// cancels it and waits until it has ended. SaveFiles, List and Restore
// do not need it: they interrupt it and it starts again after them. Save
// waits for it and builds on what it did. A failure is logged, never
// returned: Save does the work itself. Only a Store's first Prepare
// starts anything.
func (s *Store) Prepare(ctx context.Context) (stop func()) {
	if s.git == nil {
		return func() {}
	}
	p := &s.prep
	p.mu.Lock()
	if p.parent != nil { // prepared already: the first stop ends it
		p.mu.Unlock()
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	p.parent = ctx
	s.startPrepLocked()
	p.mu.Unlock()
	return func() {
		cancel()
		p.wg.Wait()
	}
}

// startPrepLocked starts a pass; the caller holds s.prep.mu.
func (s *Store) startPrepLocked() {
	p := &s.prep
	if p.parent == nil || p.parent.Err() != nil || p.runs >= maxPrepareRuns {
		return
	}
	p.runs++
	ctx, cancel := context.WithCancel(p.parent)
	done := make(chan struct{})
	p.cancel, p.done, p.pending = cancel, done, false
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		err := s.prepareOnce(ctx)
		p.mu.Lock()
		p.pending = ctx.Err() != nil && p.parent.Err() == nil
		p.cancel = nil
		p.mu.Unlock()
		cancel()
		close(done)
		if err != nil && ctx.Err() == nil {
			s.log.Info("checkpoint: preparing snapshots failed; the first one does the work", "err", err)
		}
	}()
}

// interruptPrep cancels a running pass, so that an operation that does
// not need it does not wait for it; resumePrep starts it again.
func (s *Store) interruptPrep() {
	s.prep.mu.Lock()
	if s.prep.cancel != nil {
		s.prep.cancel()
	}
	s.prep.mu.Unlock()
}

// resumePrep starts again a pass that was interrupted.
func (s *Store) resumePrep() {
	s.prep.mu.Lock()
	if s.prep.pending {
		s.startPrepLocked()
	}
	s.prep.mu.Unlock()
}

// awaitPrep waits until no pass runs, or ctx ends.
func (s *Store) awaitPrep(ctx context.Context) error {
	s.prep.mu.Lock()
	done := s.prep.done
	s.prep.mu.Unlock()
	if done == nil {
		return nil
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// prepareOnce is one pass of Prepare, under the store's locks.
func (s *Store) prepareOnce(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ctx.Err() != nil || s.gitFailed {
		return nil
	}
	unlock, err := lockState(ctx, s.stateDir)
	if err != nil {
		return err
	}
	defer unlock()
	if err := s.claim(); err != nil {
		return err
	}
	if err := s.git.prepare(ctx); err != nil {
		return err
	}
	_, err = s.git.stage(ctx, nil, true)
	return err
}
