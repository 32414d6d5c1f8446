package host

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"companion/agent"
	"companion/config"
	"companion/internal/testkit/agenttest"
	"companion/tools"
	"companion/tools/mcp"
)

// scriptedAsker answers every question with option and records them.
type scriptedAsker struct {
	mu     sync.Mutex
	option string
	asked  []agent.Question
}

func (a *scriptedAsker) Ask(_ context.Context, q agent.Question) (agent.Answer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, q)
	return agent.Answer{OptionID: a.option}, nil
}

// samplingSession opens a session whose model answers "What is 2+2?" with
// "4 END and more", and a sampler for it under the given sampling policy.
func samplingSession(t *testing.T, policy string, headless bool, asker agent.Asker) *sampler {
	t.Helper()
	dirs := map[string]string{"HOME": t.TempDir(), "COMPANION_STATE_DIR": t.TempDir()}
	cfg, err := config.Load(func(k string) string { return dirs[k] })
	if err != nil {
		t.Fatal(err)
	}
	turn := `{"match":"2+2","chunks":[{"text":"4 END and more"}]}`
	cfg.Script = filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(cfg.Script, []byte(`{"turns":[`+turn+`,`+turn+`],"fallback":"error"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	models := NewModels(nil)
	t.Cleanup(models.Close)
	h := New(Options{Config: cfg, Model: models.Get, Tools: func(config.Config) *tools.Registry { return tools.NewRegistry() }})
	t.Cleanup(h.Close)
	cwd, _ := filepath.EvalSymlinks(t.TempDir())
	p := ports(nil)
	p.Asker = asker
	s, err := h.New(context.Background(), Request{Cwd: cwd}, p)
	if err != nil {
		t.Fatal(err)
	}
	m := mcp.NewManager([]mcp.ServerConfig{{Name: "srv", Command: "unused", Sampling: policy}}, mcp.Options{})
	t.Cleanup(func() { m.Close() })
	return &sampler{s: s, m: m, headless: headless, log: h.log}
}

var twoPlusTwo = mcp.SamplingRequest{Server: "srv", Messages: []mcp.SamplingMessage{{Role: "user", Text: "What is 2+2?"}},
	SystemPrompt: "Be brief.", MaxTokens: 100, StopSequences: []string{"END"}}

// TestSamplingPermission: a sampling request runs on the session's model
// once the user allows it on a card naming the server and showing the
// request; "always" spares the next card; a rejection, a headless run
// without the setting and "deny" refuse it; "allow" from the user's
// settings runs it without a card, headless too.
func TestSamplingPermission(t *testing.T) {
	tests := []struct {
		name     string
		policy   string
		headless bool
		// untrusted takes the workspace's trust away first.
		untrusted bool
		option    string
		calls     int
		refused   bool
		cards     int
	}{
		{name: "allowed once", option: agent.ProceedOnce, calls: 2, cards: 2},
		{name: "allowed for the session", option: agent.ProceedAlwaysSrv, calls: 2, cards: 1},
		{name: "rejected", option: agent.RejectOnceID, calls: 1, refused: true, cards: 1},
		{name: "headless without the setting", headless: true, option: agent.ProceedOnce, calls: 1, refused: true},
		{name: "headless with allow", policy: mcp.SamplingAllow, headless: true, calls: 1},
		{name: "allow skips the card", policy: mcp.SamplingAllow, option: agent.RejectOnceID, calls: 1},
		{name: "allow asks in an untrusted workspace", policy: mcp.SamplingAllow, untrusted: true, option: agent.ProceedOnce, calls: 1, cards: 1},
		{name: "allow refused headless in an untrusted workspace", policy: mcp.SamplingAllow, untrusted: true, headless: true, calls: 1, refused: true},
		{name: "deny", policy: mcp.SamplingDeny, option: agent.ProceedOnce, calls: 1, refused: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asker := &scriptedAsker{option: tt.option}
			sm := samplingSession(t, tt.policy, tt.headless, asker)
			if tt.untrusted {
				sm.s.Agent.SetTrusted(context.Background(), false, "")
			}
			for range tt.calls {
				res, err := sm.Sample(context.Background(), twoPlusTwo)
				if tt.refused {
					if !errors.Is(err, mcp.ErrSamplingRefused) {
						t.Errorf("Sample = %+v, %v; want refused", res, err)
					}
					continue
				}
				if err != nil || res.Text != "4 " || res.StopReason != "stopSequence" || res.Model == "" {
					t.Errorf("Sample = %+v, %v; want the model's answer cut at the stop sequence", res, err)
				}
			}
			if len(asker.asked) != tt.cards {
				t.Fatalf("%d cards, want %d", len(asker.asked), tt.cards)
			}
			if tt.cards == 0 {
				return
			}
			q := asker.asked[0]
			var labels []string
			for _, o := range q.Options {
				labels = append(labels, o.Label)
			}
			if want := []string{"Allow this time", "Allow srv to sample for this session", "Reject"}; !slices.Equal(labels, want) {
				t.Errorf("options = %q, want %q", labels, want)
			}
			if !strings.Contains(q.Title, "srv") || q.Confirm == nil || !strings.Contains(q.Confirm.Prompt, "What is 2+2?") ||
				!strings.Contains(q.Confirm.Prompt, "Be brief.") || !strings.Contains(q.Confirm.Prompt, "100 tokens") {
				t.Errorf("card = %q / %+v", q.Title, q.Confirm)
			}
		})
	}
}

// TestSamplingAllowIsTheUsers: "sampling": "allow" counts from the user's
// settings only, never a project's (nor the client's); "deny" stays.
func TestSamplingAllowIsTheUsers(t *testing.T) {
	var cfg config.Config
	cfg.MCPServers = json.RawMessage(`{"mine":{"command":"a","sampling":"allow"}}`)
	cfg.ProjectMCPServers = json.RawMessage(`{"theirs":{"command":"b","sampling":"allow"},"closed":{"command":"c","sampling":"deny"}}`)
	got := map[string]string{}
	for _, s := range MCPServers(cfg, slog.New(slog.DiscardHandler), mcp.ServerConfig{Name: "client", Command: "d", Sampling: mcp.SamplingAllow}) {
		got[s.Name] = s.Sampling
	}
	want := map[string]string{"mine": "allow", "theirs": "", "closed": "deny", "client": ""}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: sampling %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
}

// notices are the notices among the events rec got.
func notices(rec *agenttest.Recorder[agent.Event]) []agent.Notice {
	var out []agent.Notice
	for _, ev := range rec.All() {
		if n, ok := ev.(agent.Notice); ok {
			out = append(out, n)
		}
	}
	return out
}

// failures records the observer's failure reports.
type failures struct {
	observer
	reported []string
}

func (f *failures) MCPFailed(server, reason string) {
	f.reported = append(f.reported, server+": "+reason)
}

// TestMCPNotices: down and given up reach the observer as failures, back
// is a notice; without an observer all three are notices.
func TestMCPNotices(t *testing.T) {
	changes := []mcp.StateChange{
		{Server: "s", Kind: mcp.WentDown, Reason: "exit status 1", Retry: 1e9},
		{Server: "s", Kind: mcp.CameBack},
		{Server: "s", Kind: mcp.GaveUp, Reason: "exit status 2", Restarts: 5},
	}
	sink, obs := &agenttest.Recorder[agent.Event]{}, &failures{}
	for _, c := range changes {
		mcpNotice(Ports{Sink: sink, Observer: obs}, c)
	}
	if len(obs.reported) != 2 || !strings.Contains(obs.reported[0], "restarting it in 1s") ||
		!strings.Contains(obs.reported[1], "gave up after 5 restarts") {
		t.Errorf("failures = %q", obs.reported)
	}
	if got := notices(sink); len(got) != 1 || !strings.Contains(got[0].Text, "MCP server s is back") {
		t.Errorf("notices = %+v", got)
	}
	alone := &agenttest.Recorder[agent.Event]{}
	for _, c := range changes {
		mcpNotice(Ports{Sink: alone}, c)
	}
	if got := notices(alone); len(got) != 3 || !strings.Contains(got[0].Text, "MCP server s failed: exit status 1") {
		t.Errorf("notices without an observer = %+v", got)
	}
}
