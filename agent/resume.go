package agent

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"companion/agent/store"
)

// Restore rebuilds a session from its journal: history, mode, model, title,
// plan and call numbering. It returns the session with the events to replay
// to the front end, in order. Tool calls a crash left unfinished are sealed
// as failed ("interrupted"), in the replay and in the journal, so the model
// and the user see what was cut off.
func Restore(opts Options, recs []store.Record) (*Session, []Event, error) {
	s, err := NewSession(opts)
	if err != nil {
		return nil, nil, err
	}
	var events []Event
	open := map[string]bool{}
	var order []string
	for _, r := range Effective(recs) {
		ev := s.applyRecord(r)
		if ev == nil {
			continue
		}
		events = append(events, ev)
		switch e := ev.(type) {
		case ToolCallStarted:
			open[e.ID] = true
			order = append(order, e.ID)
		case ToolCallUpdated:
			if e.Status == ToolCompleted || e.Status == ToolFailed {
				delete(open, e.ID)
			}
		}
	}
	for _, id := range order {
		if open[id] {
			seal := ToolCallUpdated{ID: id, Status: ToolFailed, Text: "Interrupted: companion stopped before this call finished."}
			s.journalEvent(seal)
			events = append(events, seal)
		}
	}
	s.syncJournal()
	return s, events, nil
}

// applyRecord replays one journal record into the session's state and
// returns the event it carries, if any.
func (s *Session) applyRecord(r store.Record) Event {
	switch r.Type {
	case recHistory:
		var h historyRecord
		if json.Unmarshal(r.Data, &h) == nil {
			s.hist.apply(h)
		}
	case recSettings:
		var st settingsRecord
		if json.Unmarshal(r.Data, &st) == nil {
			s.applySettings(st)
		}
	case recEvent:
		var er eventRecord
		if json.Unmarshal(r.Data, &er) != nil {
			return nil
		}
		ev, err := decodeEvent(er)
		if err != nil {
			s.opts.Log.Warn("journal: skipping an event", "err", err)
			return nil
		}
		s.noteEvent(ev)
		return ev
	}
	return nil
}

func (s *Session) applySettings(st settingsRecord) {
	if st.Mode != "" && validMode(st.Mode) {
		s.policy.SetMode(st.Mode)
	}
	if st.Model != "" {
		s.models.switchTo(st.Model)
	}
}

// noteEvent updates the state an event implies: the title, the plan, the
// mode, the call numbering.
func (s *Session) noteEvent(ev Event) {
	switch e := ev.(type) {
	case TitleChanged:
		s.titled.Store(true)
	case PlanUpdated:
		s.todos.set(e.Entries)
	case ModeChanged:
		s.policy.SetMode(e.ID)
	case ToolCallStarted:
		if n, err := strconv.ParseInt(strings.TrimPrefix(e.ID, "call_"), 10, 64); err == nil {
			for cur := s.callSeq.Load(); n > cur && !s.callSeq.CompareAndSwap(cur, n); cur = s.callSeq.Load() {
			}
		}
	}
}

// Replay sends events to the session's sink, as session/load wants. The
// editor terminal a replayed command ran in is gone, so its updates name
// no terminal: the final one carries the output and exit status as text.
func (s *Session) Replay(ctx context.Context, events []Event) {
	for _, ev := range events {
		if u, ok := ev.(ToolCallUpdated); ok && u.TerminalID != "" {
			u.TerminalID = ""
			ev = u
		}
		s.opts.Sink.Emit(ctx, ev)
	}
}
