package agenttest

import (
	"fmt"
	"maps"
	"slices"
	"sync"

	"companion/agent/store"
)

// Journal is a session journal in memory: it keeps what is appended and
// counts the syncs.
type Journal struct {
	mu    sync.Mutex
	recs  []store.Record
	syncs int
}

// Append keeps recs.
func (j *Journal) Append(recs ...store.Record) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.recs = append(j.recs, recs...)
	return nil
}

// Sync counts a sync.
func (j *Journal) Sync() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.syncs++
	return nil
}

// SetTitle does nothing: the title is not a record.
func (j *Journal) SetTitle(string) error { return nil }

// Records are the records appended so far.
func (j *Journal) Records() []store.Record {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.recs)
}

// Syncs is how many times Sync was called.
func (j *Journal) Syncs() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.syncs
}

// Forker forks the session of Journal J, keeping the forks in memory
// under the IDs fork-1, fork-2, ….
type Forker struct {
	J     *Journal
	mu    sync.Mutex
	forks map[string][]store.Record
}

// Records are J's records.
func (f *Forker) Records() ([]store.Record, error) { return f.J.Records(), nil }

// Fork keeps a copy of recs under a new ID.
func (f *Forker) Fork(recs []store.Record) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.forks == nil {
		f.forks = map[string][]store.Record{}
	}
	id := fmt.Sprintf("fork-%d", len(f.forks)+1)
	f.forks[id] = slices.Clone(recs)
	return id, nil
}

// Forks are the forks made so far, by ID.
func (f *Forker) Forks() map[string][]store.Record {
	f.mu.Lock()
	defer f.mu.Unlock()
	return maps.Clone(f.forks)
}
