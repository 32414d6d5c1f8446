package agent

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"time"

	"companion/agent/model"
	"companion/agent/store"
	"companion/tools"
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
	case PermissionAnswered:
		return "permission"
	case TurnEnded:
		return "turn_end"
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
	case "permission":
		return new(PermissionAnswered)
	case "turn_end":
		return new(TurnEnded)
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

// journalWriter writes a session's records to its Journal; the zero
// value and a nil *journalWriter write nothing. It holds no state of its
// own beyond what NewSession gave it, so it needs no lock (the Journal
// serialises its appends). Errors are logged, never fatal: losing the
// record must not lose the turn.
type journalWriter struct {
	j   Journal
	log *slog.Logger
	now func() time.Time
}

// write appends one record.
func (w *journalWriter) write(typ string, data any) {
	if w == nil || w.j == nil {
		return
	}
	raw, err := json.Marshal(data)
	if err == nil {
		err = w.j.Append(store.Record{Type: typ, Time: w.now(), Data: raw})
	}
	if err != nil {
		w.log.Warn("journal append failed", "type", typ, "err", err)
	}
}

// event records an event that replay must show again.
func (w *journalWriter) event(ev Event) {
	if w == nil || w.j == nil {
		return
	}
	kind := eventKind(ev)
	if kind == "" {
		return
	}
	raw, err := json.Marshal(keptEvent(ev))
	if err != nil {
		w.log.Warn("journal: cannot encode event", "kind", kind, "err", err)
		return
	}
	w.write(recEvent, eventRecord{Kind: kind, Event: raw})
}

// sync makes the record durable at a turn boundary.
func (w *journalWriter) sync() {
	if w == nil || w.j == nil {
		return
	}
	if err := w.j.Sync(); err != nil {
		w.log.Warn("journal sync failed", "err", err)
	}
}

// setTitle stores the session's title with its record.
func (w *journalWriter) setTitle(title string) {
	if w == nil || w.j == nil {
		return
	}
	if err := w.j.SetTitle(title); err != nil {
		w.log.Warn("journal title failed", "err", err)
	}
}

// journal writes a record to the session's journal, if it has one.
func (s *Session) journal(typ string, data any) { s.jw.write(typ, data) }

// journalEvent records an event that replay must show again.
func (s *Session) journalEvent(ev Event) { s.jw.event(ev) }

// maxKeptText is the longest text an event keeps in the journal: a file's
// content in an edit's diff, a long argument of a call. The history keeps
// the model's own call whole (it must be resent), so a large write_file is
// stored once, not again in its card, its diff and its input.
const maxKeptText = 256 << 10

// tooLargeToKeep replaces a text over maxKeptText in the journal.
func tooLargeToKeep(n int) string {
	return fmt.Sprintf("[content too large to keep in the session log: %d bytes]", n)
}

// keptEvent returns ev as the journal keeps it: texts over maxKeptText in
// a tool call's confirmation, input and diff are replaced by a note. ev
// itself is not changed (it also goes to the front end).
func keptEvent(ev Event) Event {
	switch e := ev.(type) {
	case ToolCallStarted:
		e.Input = keptInput(e.Input)
		if c := e.Confirm; c != nil && (len(c.NewText) > maxKeptText || (c.OldText != nil && len(*c.OldText) > maxKeptText)) {
			k := *c
			k.NewText, k.OldText = keptText(c.NewText), keptTextPtr(c.OldText)
			e.Confirm = &k
		}
		return e
	case ToolCallUpdated:
		if d := e.Diff; d != nil && (len(d.NewText) > maxKeptText || (d.OldText != nil && len(*d.OldText) > maxKeptText)) {
			e.Diff = &tools.Diff{Path: d.Path, OldText: keptTextPtr(d.OldText), NewText: keptText(d.NewText)}
		}
		return e
	}
	return ev
}

func keptText(s string) string {
	if len(s) > maxKeptText {
		return tooLargeToKeep(len(s))
	}
	return s
}

func keptTextPtr(s *string) *string {
	if s == nil || len(*s) <= maxKeptText {
		return s
	}
	k := tooLargeToKeep(len(*s))
	return &k
}

// keptInput is a call's JSON input with every top-level value over
// maxKeptText replaced by a note string.
func keptInput(in json.RawMessage) json.RawMessage {
	if len(in) <= maxKeptText {
		return in
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(in, &obj); err != nil {
		note, _ := json.Marshal(tooLargeToKeep(len(in)))
		return note
	}
	for k, v := range obj {
		if len(v) > maxKeptText {
			obj[k], _ = json.Marshal(tooLargeToKeep(len(v)))
		}
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return in
	}
	return out
}

// syncJournal makes the record durable at a turn boundary.
func (s *Session) syncJournal() { s.jw.sync() }

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
// user chunks (live clients show the prompt themselves), attached files
// without their data frames.
func (s *Session) journalUser(parts []model.Part) {
	id := newMessageID()
	for _, p := range parts {
		if p.Text != "" {
			s.journalEvent(UserChunk{Text: unframeData(s.dataNonce, p.Text), MessageID: id})
		}
	}
}

// newMessageID is a message id no other prompt of the session has.
func newMessageID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return "user-" + hex.EncodeToString(b[:])
}

// toolState records one step of a call's audit trail.
func (s *Session) toolState(id, state, by string) {
	s.journal(recToolState, toolStateRecord{ID: id, State: state, By: by})
	s.tel.decided(id, state, by)
}

// journalAnswer records the user's answer to q for replay; a failed or
// cancelled question is recorded as dismissed.
func (s *Session) journalAnswer(q Question, ans Answer, err error) {
	chosen := ans.OptionID
	if err != nil || ans.Cancelled {
		chosen = ""
	}
	s.journalEvent(PermissionAnswered{CallID: q.CallID, Title: q.Title, Options: q.Options, OptionID: chosen})
}
