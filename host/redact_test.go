package host

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"companion/agent/store"
)

// TestJournalRedacts checks that a host with Redact writes session files
// with the secret replaced, titles included, and still names its file.
func TestJournalRedacts(t *testing.T) {
	st := store.Open(t.TempDir(), nil)
	w, err := st.Create(store.Meta{ID: "s1", Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	redact := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("SECRET-1"), []byte("[redacted]")) }
	h := New(Options{Redact: redact})
	j := h.journalFor(w)
	data, _ := json.Marshal(map[string]string{"output": "GEMINI_API_KEY=SECRET-1"})
	if err := j.Append(store.Record{Type: "tool_state", Data: data}); err != nil {
		t.Fatal(err)
	}
	if err := j.SetTitle("about SECRET-1"); err != nil {
		t.Fatal(err)
	}
	if err := j.Sync(); err != nil {
		t.Fatal(err)
	}
	p, ok := j.(interface{ Path() string })
	if !ok || p.Path() != w.Path() {
		t.Fatal("the redacting journal does not name its file")
	}
	w.Close()
	text, err := os.ReadFile(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(text), "SECRET-1") || strings.Count(string(text), "[redacted]") != 2 {
		t.Errorf("session file:\n%s", text)
	}
	if New(Options{}).journalFor(w) != w {
		t.Error("without Redact the writer itself is the journal")
	}
}
