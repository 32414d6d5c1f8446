package agent

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"strings"

	"companion/agent/model"
	"companion/agent/store"
	"companion/tools"
)

// replayed is what a journal's records leave a session in. replayJournal
// is the one reading of a journal: resuming a session (Restore), /rewind
// cutting the live conversation (resetTo) and forking a session at a
// prompt (PlanRewind) all take what they need from it.
type replayed struct {
	// history is the conversation the history records build.
	history []model.Content
	// mode is the approval mode set last; "" when none was.
	mode string
	// models are the models switched to, in order: the last is the one in
	// use, and each has worked, so it is offered.
	models []string
	// plan is the plan as last updated; nil when it never was.
	plan []tools.PlanEntry
	// titled reports a title was given.
	titled bool
	// callSeq is the highest tool call number used.
	callSeq int64
	// events are the events recorded, in order: what a reload shows.
	events []Event
	// open are the tool calls started and never finished, in order.
	open []string
}

// model is the model switched to last; "" when none was.
func (r replayed) model() string {
	if len(r.models) == 0 {
		return ""
	}
	return r.models[len(r.models)-1]
}

// replayJournal reads recs (after the in-place rewinds: Effective) in
// order. Records it cannot read are skipped, events with a warning on log
// (which may be nil).
func replayJournal(recs []store.Record, log *slog.Logger) replayed {
	var r replayed
	h := &history{}
	started := map[string]bool{}
	var order []string
	for _, rec := range recs {
		switch rec.Type {
		case recHistory:
			var hr historyRecord
			if json.Unmarshal(rec.Data, &hr) == nil {
				h.apply(hr)
			}
		case recSettings:
			var st settingsRecord
			if json.Unmarshal(rec.Data, &st) == nil {
				r.applySettings(st)
			}
		case recEvent:
			var er eventRecord
			if json.Unmarshal(rec.Data, &er) != nil {
				continue
			}
			ev, err := decodeEvent(er)
			if err != nil {
				if log != nil {
					log.Warn("journal: skipping an event", "err", err)
				}
				continue
			}
			r.noteEvent(ev, started, &order)
			r.events = append(r.events, ev)
		}
	}
	r.history = h.contents
	for _, id := range order {
		if started[id] {
			r.open = append(r.open, id)
		}
	}
	return r
}

// applySettings notes a settings record: a mode that exists, a model.
func (r *replayed) applySettings(st settingsRecord) {
	if st.Mode != "" && validMode(st.Mode) {
		r.mode = st.Mode
	}
	if st.Model != "" {
		r.models = append(r.models, st.Model)
	}
}

// noteEvent notes the state an event implies: the title, the plan, the
// mode, the call numbering, the calls still open.
func (r *replayed) noteEvent(ev Event, open map[string]bool, order *[]string) {
	switch e := ev.(type) {
	case TitleChanged:
		r.titled = true
	case PlanUpdated:
		r.plan = e.Entries
	case ModeChanged:
		if e.ID != "" {
			r.mode = e.ID
		}
	case ToolCallStarted:
		if n, err := strconv.ParseInt(strings.TrimPrefix(e.ID, "call_"), 10, 64); err == nil && n > r.callSeq {
			r.callSeq = n
		}
		open[e.ID] = true
		*order = append(*order, e.ID)
	case ToolCallUpdated:
		if e.Status == ToolCompleted || e.Status == ToolFailed {
			delete(open, e.ID)
		}
	}
}

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
	r := replayJournal(Effective(recs), s.opts.Log)
	s.eng.hist.contents = r.history
	if r.mode != "" {
		s.policy.SetMode(r.mode)
	}
	for _, m := range r.models {
		s.models.switchTo(m)
	}
	s.todos.set(r.plan)
	s.titled.Store(r.titled)
	s.eng.callSeq.Store(r.callSeq)
	events := r.events
	for _, id := range r.open {
		seal := ToolCallUpdated{ID: id, Status: ToolFailed, Text: "Interrupted: companion stopped before this call finished."}
		s.journalEvent(seal)
		events = append(events, seal)
	}
	s.syncJournal()
	return s, events, nil
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
