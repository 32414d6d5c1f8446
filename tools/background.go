package tools

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// cleanupTimeout bounds calls to the editor made while cleaning up
// (killing and releasing terminals), which must not wait forever on an
// editor that has gone away.
const cleanupTimeout = 5 * time.Second

// Job is something a call left running for the session: a background
// command.
type Job interface {
	// Kill stops it. It is called when the session ends, and may be called
	// more than once.
	Kill(ctx context.Context) error
}

// BackgroundJob is a job and the id Add gave it.
type BackgroundJob struct {
	ID  string
	Job Job
}

// Background keeps a session's background jobs: commands started with
// is_background and processes a foreground command left running. The
// agent makes one per session and closes it when the session ends, which
// kills them all. It is safe for concurrent use.
type Background struct {
	// mu guards jobs, seq and closed.
	mu     sync.Mutex
	jobs   []BackgroundJob
	seq    int
	closed bool
}

// NewBackground returns an empty registry.
func NewBackground() *Background { return &Background{} }

// Add registers a job and returns its id ("bg1", "bg2", ...); it fails
// with ErrBackgroundClosed once the registry is closed.
func (b *Background) Add(j Job) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return "", ErrBackgroundClosed
	}
	b.seq++
	id := fmt.Sprintf("bg%d", b.seq)
	b.jobs = append(b.jobs, BackgroundJob{ID: id, Job: j})
	return id, nil
}

// Get finds a job by id.
func (b *Background) Get(id string) (Job, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, j := range b.jobs {
		if j.ID == id {
			return j.Job, true
		}
	}
	return nil, false
}

// List returns every job, oldest first.
func (b *Background) List() []BackgroundJob {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]BackgroundJob(nil), b.jobs...)
}

// Close kills every job and refuses new ones; each gets cleanupTimeout.
// A nil Background has nothing to close.
func (b *Background) Close() error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	b.closed = true
	jobs := b.jobs
	b.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, len(jobs))
	for i, j := range jobs {
		wg.Go(func() { errs[i] = j.Job.Kill(ctx) })
	}
	wg.Wait()
	return errors.Join(errs...)
}
