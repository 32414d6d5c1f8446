package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

func TestWebFetch(t *testing.T) {
	t.Parallel()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body><h1>Release notes</h1><p>Version 42 is out.</p></body></html>")
	}))
	defer page.Close()
	fetch := fmt.Sprintf(`{"functionCall":{"name":"web_fetch","args":{"url":%q}}}`, page.URL)
	tests := []struct {
		name, settings, match string
		asked                 int
	}{
		{"private refused before asking", "", "private", 0},
		{"allowed by setting", `{"allowPrivateFetch":true}`, "Version 42 is out", 1},
		{"allowed without asking by rule", `{"allowPrivateFetch":true,"permissions":{"allow":["web_fetch"]}}`, "Version 42 is out", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := acptest.NewFake()
			ed := startAgent(t, agentOpts{handler: fake.Handle, settings: tt.settings,
				script: `{"turns":[{"chunks":[` + fetch + `]},{"match":"` + tt.match + `","chunks":[{"text":"done"}]}],"fallback":"error"}`})
			ed.Initialize(map[string]any{})
			id := ed.NewSession(workspace(t, nil))
			if got := ed.StopReason(ed.Wait(ed.Prompt(id, "fetch"))); got != "end_turn" {
				t.Fatalf("stopReason = %q; stderr %s", got, ed.Stderr())
			}
			if len(fake.Permissions) != tt.asked {
				t.Errorf("asked %d times, want %d", len(fake.Permissions), tt.asked)
			}
			if tt.asked > 0 && fake.Permissions[0].ToolCall.Kind != "fetch" {
				t.Errorf("permission kind = %q", fake.Permissions[0].ToolCall.Kind)
			}
			ed.Close()
		})
	}
}

func TestMentionsAndReadManyFiles(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{"docs/a.md": "alpha notes\n", "docs/b.md": "beta notes\n", "main.go": "package main // gamma\n"})
	fake := acptest.NewFake()
	ed := startAgent(t, agentOpts{script: `{"turns":[
		{"match":"package main // gamma","chunks":[{"functionCall":{"name":"read_many_files","args":{"paths":["docs/*.md"]}}}]},
		{"match":"beta notes","chunks":[{"text":"Read them all."}]}],"fallback":"error"}`, handler: fake.Handle})
	ed.Initialize(map[string]any{"fs": map[string]any{"readTextFile": true}})
	id := ed.NewSession(ws)
	m := ed.Wait(ed.Send("session/prompt", map[string]any{"sessionId": id, "prompt": []any{
		map[string]any{"type": "text", "text": "Explain"},
		map[string]any{"type": "resource_link", "name": "main.go", "uri": "file://" + filepath.Join(ws, "main.go")},
	}}))
	if got := ed.StopReason(m); got != "end_turn" {
		t.Fatalf("stopReason = %q", got)
	}
	var text string
	for _, u := range ed.Updates(id) {
		text += u.Text()
	}
	if !strings.Contains(text, "Read them all.") {
		t.Errorf("agent text = %q", text)
	}
	ed.Close()
}
