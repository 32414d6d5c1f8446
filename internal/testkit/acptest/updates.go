package acptest

import (
	"encoding/json"
	"time"
)

// Update is one session/update the agent sent.
type Update struct {
	SessionID string
	// Kind is the sessionUpdate discriminator, e.g. "agent_message_chunk".
	Kind string
	// Raw is the update object.
	Raw json.RawMessage
}

// Field decodes one member of the update into v.
func (u Update) Field(name string, v any) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(u.Raw, &m); err != nil {
		return err
	}
	return json.Unmarshal(m[name], v)
}

// Text is the text of a chunk update's content block ("" otherwise).
func (u Update) Text() string {
	var c struct {
		Text string `json:"text"`
	}
	u.Field("content", &c)
	return c.Text
}

// Received returns every message from the agent so far, in order.
func (e *Editor) Received() []Msg {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Msg(nil), e.received...)
}

// Updates returns the session/update notifications for session id ("" for
// all sessions), in order.
func (e *Editor) Updates(id string) []Update {
	var out []Update
	for _, m := range e.Received() {
		if u, ok := asUpdate(m); ok && (id == "" || u.SessionID == id) {
			out = append(out, u)
		}
	}
	return out
}

func asUpdate(m Msg) (Update, bool) {
	if m.Method != "session/update" {
		return Update{}, false
	}
	var p struct {
		SessionID string          `json:"sessionId"`
		Update    json.RawMessage `json:"update"`
	}
	if json.Unmarshal(m.Params, &p) != nil {
		return Update{}, false
	}
	var k struct {
		Kind string `json:"sessionUpdate"`
	}
	json.Unmarshal(p.Update, &k)
	return Update{SessionID: p.SessionID, Kind: k.Kind, Raw: p.Update}, true
}

// WaitFor waits until a message from the agent satisfies pred and returns
// it; messages received earlier count too.
func (e *Editor) WaitFor(pred func(Msg) bool) Msg {
	e.t.Helper()
	deadline := time.After(Timeout)
	for seen := 0; ; {
		e.mu.Lock()
		msgs, changed := e.received[seen:], e.changed
		seen = len(e.received)
		e.mu.Unlock()
		for _, m := range msgs {
			if pred(m) {
				return m
			}
		}
		select {
		case <-changed:
		case <-deadline:
			e.t.Fatalf("no matching message within %v; agent stderr:\n%s", Timeout, e.Stderr())
		}
	}
}

// WaitUpdate waits for a session/update of the given kind in session id.
func (e *Editor) WaitUpdate(id, kind string) Update {
	e.t.Helper()
	m := e.WaitFor(func(m Msg) bool {
		u, ok := asUpdate(m)
		return ok && u.SessionID == id && u.Kind == kind
	})
	u, _ := asUpdate(m)
	return u
}

// Initialize runs initialize with the given client capabilities and fails
// the test on error.
func (e *Editor) Initialize(caps map[string]any) Msg {
	e.t.Helper()
	m := e.Call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": caps,
		"clientInfo": map[string]any{"name": "acptest", "version": "1"}})
	if m.Error != nil {
		e.t.Fatalf("initialize: %v", m.Error)
	}
	return m
}

// NewSession opens a session in cwd and returns its id.
func (e *Editor) NewSession(cwd string) string {
	e.t.Helper()
	m := e.Call("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}})
	if m.Error != nil {
		e.t.Fatalf("session/new: %v", m.Error)
	}
	var r struct {
		SessionID string `json:"sessionId"`
	}
	json.Unmarshal(m.Result, &r)
	return r.SessionID
}

// Prompt sends a text prompt and returns where the answer will arrive.
func (e *Editor) Prompt(id, text string) <-chan Msg {
	return e.Send("session/prompt", map[string]any{"sessionId": id,
		"prompt": []any{map[string]any{"type": "text", "text": text}}})
}

// StopReason extracts stopReason from a prompt response, failing on error.
func (e *Editor) StopReason(m Msg) string {
	e.t.Helper()
	if m.Error != nil {
		e.t.Fatalf("prompt failed: %v\nstderr:\n%s", m.Error, e.Stderr())
	}
	var r struct {
		StopReason string `json:"stopReason"`
	}
	json.Unmarshal(m.Result, &r)
	return r.StopReason
}
