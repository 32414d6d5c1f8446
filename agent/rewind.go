package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"companion/agent/store"
)

// Record types behind rewinding (see Prompts and PlanRewind).
const (
	// recPrompt marks the start of a user prompt, before its user chunks.
	recPrompt = "prompt"
	// recRewind cuts the conversation back to before a prompt, in place.
	recRewind = "rewind"
	// recCheckpoint names a checkpoint saved before a change of this
	// session, so a rewind knows which one holds the files before a prompt.
	recCheckpoint = "checkpoint"
)

// promptRecord is the journal form of a prompt's start: its text as the
// session replays it, and what the front end asked to keep with it.
type promptRecord struct {
	Text []string        `json:"text,omitempty"`
	Echo json.RawMessage `json:"echo,omitempty"`
}

// rewindRecord cuts the conversation back to before prompt Prompt.
type rewindRecord struct {
	Prompt int `json:"prompt"`
}

// checkpointRecord names a checkpoint the session saved.
type checkpointRecord struct {
	ID string `json:"id"`
}

// ErrNoPrompt is PlanRewind's error for a prompt index the session does
// not have.
var ErrNoPrompt = errors.New("no such prompt")

// PromptInfo describes one user prompt of a session's journal.
type PromptInfo struct {
	// Index is the prompt's 0-based position among the session's prompts.
	Index int
	// Text are the prompt's text parts as a reload replays them.
	Text []string
	// Echo is what the front end kept with the prompt (over ACP its content
	// blocks); nil when it kept nothing (or the log predates it).
	Echo json.RawMessage
	// Time is when the prompt started.
	Time time.Time
}

// timeline is a journal with its in-place rewinds applied: the records
// that still count and where each prompt starts among them.
type timeline struct {
	recs   []store.Record
	starts []int
}

// newTimeline applies the rewind records of recs. Prompts are marked by
// prompt records; a log written before they existed marks each prompt by
// the first of a run of user chunks, until the first prompt record.
func newTimeline(recs []store.Record) timeline {
	var t timeline
	marked, prevUser := false, false
	for _, r := range recs {
		user := isUserEvent(r)
		switch {
		case r.Type == recRewind:
			var rw rewindRecord
			if json.Unmarshal(r.Data, &rw) == nil && rw.Prompt >= 0 && rw.Prompt < len(t.starts) {
				t.recs, t.starts = t.recs[:t.starts[rw.Prompt]], t.starts[:rw.Prompt]
			}
			prevUser = false
			continue
		case r.Type == recPrompt:
			marked = true
			t.starts = append(t.starts, len(t.recs))
		case user && !marked && !prevUser:
			t.starts = append(t.starts, len(t.recs))
		}
		prevUser = user
		t.recs = append(t.recs, r)
	}
	return t
}

// isUserEvent reports a journalled user chunk.
func isUserEvent(r store.Record) bool {
	if r.Type != recEvent {
		return false
	}
	var er eventRecord
	return json.Unmarshal(r.Data, &er) == nil && er.Kind == "user"
}

// prompt describes prompt i of the timeline.
func (t timeline) prompt(i int) PromptInfo {
	at := t.starts[i]
	info := PromptInfo{Index: i, Time: t.recs[at].Time}
	if r := t.recs[at]; r.Type == recPrompt {
		var p promptRecord
		if json.Unmarshal(r.Data, &p) == nil {
			info.Text, info.Echo = p.Text, p.Echo
		}
		return info
	}
	for _, r := range t.recs[at:] {
		if !isUserEvent(r) {
			break
		}
		var er eventRecord
		var u UserChunk
		if json.Unmarshal(r.Data, &er) == nil && json.Unmarshal(er.Event, &u) == nil {
			info.Text = append(info.Text, u.Text)
		}
	}
	return info
}

// checkpointFrom is the first checkpoint recorded at or after record at:
// the one holding the files as they were before that point.
func (t timeline) checkpointFrom(at int) string {
	for _, r := range t.recs[at:] {
		if r.Type != recCheckpoint {
			continue
		}
		var c checkpointRecord
		if json.Unmarshal(r.Data, &c) == nil && c.ID != "" {
			return c.ID
		}
	}
	return ""
}

// Prompts lists the user prompts of a session's journal, in order, after
// the in-place rewinds it records.
func Prompts(recs []store.Record) []PromptInfo {
	t := newTimeline(recs)
	out := make([]PromptInfo, len(t.starts))
	for i := range t.starts {
		out[i] = t.prompt(i)
	}
	return out
}

// Rewind is a session journal cut back to before one of its prompts.
type Rewind struct {
	// Prompt is the prompt rewound to.
	Prompt PromptInfo
	// Kept are the records before the prompt, then a settings record with
	// the session's mode and model: the journal of the fork.
	Kept []store.Record
	// Checkpoint holds the files as they were before the prompt: the first
	// checkpoint saved from the prompt on; "" when nothing changed since.
	Checkpoint string
}

// PlanRewind cuts recs back to before prompt n. The fork keeps the mode
// and model of live when given, else the last ones recs set.
func PlanRewind(recs []store.Record, n int, live *Session) (Rewind, error) {
	t := newTimeline(recs)
	if n < 0 || n >= len(t.starts) {
		return Rewind{}, fmt.Errorf("%w: prompt %d (the session has %d)", ErrNoPrompt, n, len(t.starts))
	}
	at := t.starts[n]
	r := replayJournal(t.recs, nil)
	st := settingsRecord{Mode: r.mode, Model: r.model()}
	if live != nil {
		st = settingsRecord{Mode: live.Mode(), Model: live.ModelName()}
	}
	kept := append(make([]store.Record, 0, at+1), t.recs[:at]...)
	if st != (settingsRecord{}) {
		data, err := json.Marshal(st)
		if err != nil {
			return Rewind{}, fmt.Errorf("rewind settings: %w", err)
		}
		kept = append(kept, store.Record{Type: recSettings, Time: time.Now(), Data: data})
	}
	return Rewind{Prompt: t.prompt(n), Kept: kept, Checkpoint: t.checkpointFrom(at)}, nil
}

// Effective returns the records of recs that still count after the
// in-place rewinds they record: what a reload replays.
func Effective(recs []store.Record) []store.Record { return newTimeline(recs).recs }
