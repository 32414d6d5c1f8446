package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"companion/agent/model/scripted"
	"companion/internal/cli"
	"companion/internal/testkit/acptest"
)

// searchCall is the model's call of google_web_search.
const searchCall = `{"functionCall":{"name":"google_web_search","args":{"query":"population of Zürich"}}}`

// TestWebSearchGrounded: on the Gemini provider the model's search is a
// grounded request to the same API; the answer reaches the model with
// citation markers at the grounded spans (after multi-byte text) and the
// sources, and the editor's card shows the sources as links.
func TestWebSearchGrounded(t *testing.T) {
	t.Parallel()
	answer := "Zürich has about 440,000 people. It is Switzerland's largest city."
	script := fmt.Sprintf(`{"turns":[
		{"chunks":[%s]},
		{"match":"googleSearch","chunks":[{"text":%q}],"grounding":{"queries":["zurich population"],
			"sources":[{"title":"City of Zürich","uri":"https://example.org/zh"},{"title":"Stats","uri":"https://example.org/stats"}],
			"supports":[{"start":0,"end":33,"sources":[0,1]},{"start":34,"end":%d,"sources":[0]}]}},
		{"match":"people.[1][2] It is Switzerland's largest city.[1]","chunks":[{"text":"It has 440,000 people [1]."}]}
	],"fallback":"error"}`, searchCall, answer, len(answer))
	fake := acptest.NewFake()
	ed := startAgent(t, agentOpts{script: script, handler: fake.Handle})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(workspace(t, nil))
	if text := sayText(t, ed, id, "how many people live in Zürich?"); !strings.Contains(text, "It has 440,000 people [1].") {
		t.Fatalf("answer = %q; stderr %s", text, ed.Stderr())
	}
	if len(fake.Permissions) != 1 || fake.Permissions[0].ToolCall.Kind != "fetch" ||
		!strings.Contains(string(fake.Permissions[0].ToolCall.Content[0]), "population of Zürich") {
		t.Fatalf("permission = %+v, want one fetch card showing the query", fake.Permissions)
	}
	card := toolUpdates(ed, id)
	for _, want := range []string{`[City of Zürich](https://example.org/zh)`, `[Stats](https://example.org/stats)`} {
		if !strings.Contains(card, want) {
			t.Errorf("the card lacks the source link %s:\n%s", want, card)
		}
	}
}

// TestWebSearchFailure: a search the API refuses comes back to the model as
// one sentence, and the turn goes on.
func TestWebSearchFailure(t *testing.T) {
	t.Parallel()
	script := fmt.Sprintf(`{"turns":[
		{"chunks":[%s]},
		{"match":"googleSearch","status":400,"message":"API key not valid."},
		{"match":"The web search for","chunks":[{"text":"Search failed, going on."}]}
	],"fallback":"error"}`, searchCall)
	ed := startAgent(t, agentOpts{script: script, handler: acptest.NewFake().Handle})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(workspace(t, nil))
	if text := sayText(t, ed, id, "search"); !strings.Contains(text, "Search failed, going on.") {
		t.Fatalf("answer = %q; stderr %s", text, ed.Stderr())
	}
	if card := toolUpdates(ed, id); !strings.Contains(card, `"status":"failed"`) {
		t.Errorf("the search card did not fail:\n%s", card)
	}
}

// TestWebSearchOffered: the tool is declared to the model where a backend
// exists (the Gemini provider; an OpenAI-compatible one with a SearXNG
// instance) and absent where none does, so no call can always fail.
func TestWebSearchOffered(t *testing.T) {
	t.Parallel()
	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"results":[{"title":"Result for %s","url":"https://example.org/r","content":"snippet"}]}`, r.URL.Query().Get("q"))
	}))
	defer searx.Close()
	tests := []struct {
		name, provider, settings string
		offered                  bool
	}{
		{"gemini", "", "", true},
		{"gemini, switched off", "", `{"webSearch":{"provider":"off"}}`, false},
		{"openai without a backend", "openai", "", false},
		{"openai with searxng", "openai", fmt.Sprintf(`{"webSearch":{"provider":"searxng","url":%q}}`, searx.URL), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := `{"turns":[{"match":"google_web_search","chunks":[{"text":"TOOL OFFERED"}]}],"fallback":"echo"}`
			ed := startAgent(t, agentOpts{script: script, settings: tt.settings, flags: cli.Flags{Provider: tt.provider}})
			ed.Initialize(map[string]any{})
			id := ed.NewSession(workspace(t, nil))
			if got := strings.Contains(sayText(t, ed, id, "hi"), "TOOL OFFERED"); got != tt.offered {
				t.Errorf("google_web_search offered = %v, want %v; stderr %s", got, tt.offered, ed.Stderr())
			}
		})
	}
}

// TestWebSearchSearXNG: with an OpenAI-compatible provider the search runs
// against the configured SearXNG instance and its results come back cited.
func TestWebSearchSearXNG(t *testing.T) {
	t.Parallel()
	var asked string
	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = r.URL.Query().Get("q")
		fmt.Fprint(w, `{"results":[{"title":"Zürich","url":"https://example.org/zh","content":"440,000 people"}]}`)
	}))
	defer searx.Close()
	script := fmt.Sprintf(`{"turns":[{"chunks":[%s]},
		{"match":"- Zürich: 440,000 people[1]","chunks":[{"text":"Found it."}]}],"fallback":"error"}`, searchCall)
	ed := startAgent(t, agentOpts{script: script, handler: acptest.NewFake().Handle, flags: cli.Flags{Provider: "openai"},
		settings: fmt.Sprintf(`{"webSearch":{"provider":"searxng","url":%q}}`, searx.URL)})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(workspace(t, nil))
	if text := sayText(t, ed, id, "search"); !strings.Contains(text, "Found it.") {
		t.Fatalf("answer = %q; stderr %s", text, ed.Stderr())
	}
	if asked != "population of Zürich" {
		t.Errorf("SearXNG was asked %q", asked)
	}
}

// TestWebSearchOpenAIWithGemini: with an OpenAI-compatible provider (the
// model speaks Chat Completions, which has no grounding) and the Gemini
// search backend with its own key, the search is a grounded request to the
// configured Gemini endpoint: the model (OpenAI-shaped) reads the cited
// answer and its sources, and the card shows the sources as links.
func TestWebSearchOpenAIWithGemini(t *testing.T) {
	t.Parallel()
	answer := "Zürich has about 440,000 people."
	search, err := scripted.ParseScript(fmt.Appendf(nil, `{"turns":[{"match":"googleSearch","chunks":[{"text":%q}],
		"grounding":{"queries":["zurich population"],"sources":[{"title":"City of Zürich","uri":"https://example.org/zh"}],
		"supports":[{"start":0,"end":%d,"sources":[0]}]}}],"fallback":"error"}`, answer, len(answer)))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := scripted.NewServer(search, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	script := fmt.Sprintf(`{"turns":[{"chunks":[%s]},
		{"match":"Zürich has about 440,000 people.[1]","chunks":[{"text":"Found it, cited."}]}],"fallback":"error"}`, searchCall)
	ed := startAgent(t, agentOpts{script: script, handler: acptest.NewFake().Handle, flags: cli.Flags{Provider: "openai"},
		settings: fmt.Sprintf(`{"webSearch":{"provider":"gemini","apiKey":"search-key","baseUrl":%q}}`, srv.URL())})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(workspace(t, nil))
	if text := sayText(t, ed, id, "how many people live in Zürich?"); !strings.Contains(text, "Found it, cited.") {
		t.Fatalf("answer = %q; stderr %s", text, ed.Stderr())
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].Raw), "population of Zürich") {
		t.Fatalf("the Gemini search endpoint got %d requests, want one for the query", len(reqs))
	}
	if card := toolUpdates(ed, id); !strings.Contains(card, "[City of Zürich](https://example.org/zh)") {
		t.Errorf("the card lacks the source link:\n%s", card)
	}
}
