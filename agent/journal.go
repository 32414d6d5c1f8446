package agent

import (
	"encoding/json"
	"fmt"
	"reflect"

	"companion/agent/model"
	"companion/agent/store"
)

// Journal receives a session's record so it can be brought back: history
// changes, every event, tool call states. *store.Writer implements it.
type Journal interface {
	Append(recs ...store.Record) error
	Sync() error
	SetTitle(title string) error
}

// Record types the agent writes.
const (
	recEvent     = "event"
	recHistory   = "history"
	recToolState = "tool_state"
	recSettings  = "settings"
)

// eventKind names a recordable event in the journal ("" for events that
// are not replayed, such as the command list).
func eventKind(ev Event) string {
	switch ev.(type) {
	case MessageChunk:
		return "message"
	case ThoughtChunk:
		return "thought"
	case UserChunk:
		return "user"
	case ToolCallStarted:
		return "tool_call"
	case ToolCallUpdated:
		return "tool_update"
	case UsageUpdated:
		return "usage"
	case TitleChanged:
		return "title"
	case PlanUpdated:
		return "plan"
	case ModeChanged:
		return "mode"
	case CompactionUpdated:
		return "compaction"
	}
	return ""
}

// newEvent returns a pointer to a zero event of a journal kind.
func newEvent(kind string) any {
	switch kind {
	case "message":
		return new(MessageChunk)
	case "thought":
		return new(ThoughtChunk)
	case "user":
		return new(UserChunk)
	case "tool_call":
		return new(ToolCallStarted)
	case "tool_update":
		return new(ToolCallUpdated)
	case "usage":
		return new(UsageUpdated)
	case "title":
		return new(TitleChanged)
	case "plan":
		return new(PlanUpdated)
	case "mode":
		return new(ModeChanged)
	case "compaction":
		return new(CompactionUpdated)
	}
	return nil
}

// eventRecord is the journal form of an event.
type eventRecord struct {
	Kind  string          `json:"kind"`
	Event json.RawMessage `json:"event"`
}

// historyRecord is one change of the model-facing history.
type historyRecord struct {
	Op       string          `json:"op"` // append, truncate, clear, replace
	Content  *model.Content  `json:"content,omitempty"`
	Contents []model.Content `json:"contents,omitempty"`
	N        int             `json:"n,omitempty"`
}

// toolStateRecord is one step of a tool call's audit trail.
type toolStateRecord struct {
	ID    string `json:"id"`
	State string `json:"state"` // pending, awaiting_approval, approved, denied, executing, completed, failed
	By    string `json:"by,omitempty"`
}

// settingsRecord keeps the mode and model so a loaded session resumes
// with them.
type settingsRecord struct {
	Mode  string `json:"mode,omitempty"`
	Model string `json:"model,omitempty"`
}

// journal writes records when the session has a journal; errors are
// logged, never fatal: losing the record must not lose the turn.
func (s *Session) journal(typ string, data any) {
	if s.opts.Journal == nil {
		return
	}
	raw, err := json.Marshal(data)
	if err == nil {
		err = s.opts.Journal.Append(store.Record{Type: typ, Time: s.opts.Now(), Data: raw})
	}
	if err != nil {
		s.opts.Log.Warn("journal append failed", "type", typ, "err", err)
	}
}

// journalEvent records an event that replay must show again.
func (s *Session) journalEvent(ev Event) {
	if s.opts.Journal == nil {
		return
	}
	kind := eventKind(ev)
	if kind == "" {
		return
	}
	raw, err := json.Marshal(ev)
	if err != nil {
		s.opts.Log.Warn("journal: cannot encode event", "kind", kind, "err", err)
		return
	}
	s.journal(recEvent, eventRecord{Kind: kind, Event: raw})
}

// syncJournal makes the record durable at a turn boundary.
func (s *Session) syncJournal() {
	if s.opts.Journal == nil {
		return
	}
	if err := s.opts.Journal.Sync(); err != nil {
		s.opts.Log.Warn("journal sync failed", "err", err)
	}
}

// decodeEvent turns a journal event back into an Event.
func decodeEvent(r eventRecord) (Event, error) {
	p := newEvent(r.Kind)
	if p == nil {
		return nil, fmt.Errorf("unknown event kind %q", r.Kind)
	}
	if err := json.Unmarshal(r.Event, p); err != nil {
		return nil, err
	}
	return reflect.ValueOf(p).Elem().Interface().(Event), nil
}

// journalUser records the user's prompt for replay: its text parts as
// user chunks (live clients show the prompt themselves).
func (s *Session) journalUser(parts []model.Part) {
	for _, p := range parts {
		if p.Text != "" {
			s.journalEvent(UserChunk{Text: p.Text})
		}
	}
}
