package agent

import (
	"encoding/json"

	"companion/agent/model"
	"companion/agent/store"
)

// Forker reads a session's journal back and stores records as a new
// session: what /rewind needs to cut a conversation and keep the cut part.
// The host implements it for sessions it journals; nil turns /rewind off.
type Forker interface {
	// Records returns the session's journal as written so far.
	Records() ([]store.Record, error)
	// Fork stores recs as a new session of the same folders and returns
	// its id.
	Fork(recs []store.Record) (string, error)
}

// Busy reports whether a turn is running.
func (s *Session) Busy() bool {
	s.turn.mu.Lock()
	defer s.turn.mu.Unlock()
	return s.turn.running
}

// journalPrompt marks the start of a prompt in the journal: its text as a
// reload replays it and the front end's echo (kept only when small).
func (s *Session) journalPrompt(parts []model.Part, echo json.RawMessage) {
	var p promptRecord
	for _, part := range parts {
		if part.Text != "" {
			p.Text = append(p.Text, unframeData(s.dataNonce, part.Text))
		}
	}
	if len(echo) <= maxKeptText && json.Valid(echo) {
		p.Echo = echo
	}
	s.journal(recPrompt, p)
}

// noteCheckpoint records a checkpoint saved before a change of this
// session, so a rewind can find the files as they were before a prompt.
func (s *Session) noteCheckpoint(id string) {
	if id != "" {
		s.journal(recCheckpoint, checkpointRecord{ID: id})
	}
}

// resetTo makes the live conversation what recs leave: the history and
// the plan. It writes nothing to the journal (a rewind record does).
func (s *Session) resetTo(recs []store.Record) {
	r := replayJournal(recs, s.opts.Log)
	s.eng.hist.mu.Lock()
	s.eng.hist.contents, s.eng.hist.used = r.history, 0
	s.eng.hist.mu.Unlock()
	s.todos.set(r.plan)
	s.undone.set(undoMark{})
	s.ide.MarkStale()
}
