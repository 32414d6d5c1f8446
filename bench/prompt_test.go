package bench

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"companion/agent"
	"companion/agent/model"
	"companion/agent/model/gemini"
	"companion/agent/model/scripted"
	"companion/config"
	"companion/host"
	"companion/internal/cli"
	"companion/tools"
	"companion/tools/websearch"
)

// promptWorkspace is a small Go project in a git repository, with an
// AGENTS.md: the fixed workspace the prompt numbers are measured in.
func promptWorkspace(b testing.TB) string {
	ws := b.TempDir()
	files := map[string]string{
		".git/HEAD":                    "ref: refs/heads/main\n",
		"go.mod":                       "module example.com/tally\n\ngo 1.24\n",
		"main.go":                      "package main\n\nfunc main() { run() }\n",
		"run.go":                       "package main\n\nfunc run() {}\n",
		"run_test.go":                  "package main\n\nimport \"testing\"\n\nfunc TestRun(t *testing.T) { run() }\n",
		"Makefile":                     "test:\n\tgo test ./...\n",
		"README.md":                    "# tally\n\nCounts lines.\n",
		"AGENTS.md":                    "Run `make test` before saying a change is done.\n",
		"internal/count/count.go":      "package count\n",
		"internal/count/count_test.go": "package count\n",
		"docs/usage.md":                "Usage: tally FILE\n",
	}
	for name, text := range files {
		path := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return ws
}

// logicalRequest is a Gemini request body in the order the model reads
// it: system instruction, tool declarations, then the contents.
func logicalRequest(b testing.TB, raw []byte) (all []byte, system, tools, contents int) {
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		b.Fatal(err)
	}
	for _, key := range []string{"systemInstruction", "tools", "contents"} {
		all = append(all, body[key]...)
	}
	return all, len(body["systemInstruction"]), len(body["tools"]), len(body["contents"])
}

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// BenchmarkFirstRequest measures, as the Gemini provider sends it to the
// scripted model, the first request of a session for a one-line prompt
// with the built-in tools of the binary, in a small git project; and the
// share of the second request of the same turn (after one read_file call)
// that repeats the first one's bytes from the start, which providers can
// serve from their prompt cache. It reports, never asserts:
//
//	go test -run '^$' -bench FirstRequest -benchtime 1x ./bench
func BenchmarkFirstRequest(b *testing.B) {
	for _, full := range []bool{false, true} {
		name := "plain"
		if full {
			name = "all-parts"
		}
		b.Run(name, func(b *testing.B) { firstRequest(b, full) })
	}
}

// firstRequest is BenchmarkFirstRequest in one setup: plain (the
// optional parts off, as without settings) or with every part on.
func firstRequest(b *testing.B, full bool) {
	srv, err := scripted.NewServer(mustScript(b, `{"turns":[
		{"times":1000000,"match":"functionResponse","chunks":[{"text":"It is empty."}]},
		{"times":1000000,"chunks":[{"functionCall":{"name":"read_file","args":{"file_path":"run.go"}}}]}]}`), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	for range b.N {
		before := len(srv.Requests())
		promptOnce(b, srv.URL(), "Add a --verbose flag that prints each file as it is counted.", full)
		reqs := srv.Requests()[before:]
		if len(reqs) != 2 {
			b.Fatalf("%d requests, want 2", len(reqs))
		}
		first, system, decls, contents := logicalRequest(b, reqs[0].Raw)
		second, _, _, _ := logicalRequest(b, reqs[1].Raw)
		b.ReportMetric(float64(len(reqs[0].Raw)), "first-request-bytes")
		b.ReportMetric(float64(system), "system-bytes")
		b.ReportMetric(float64(decls), "tools-bytes")
		b.ReportMetric(float64(contents), "contents-bytes")
		b.ReportMetric(100*float64(commonPrefix(first, second))/float64(len(second)), "stable-prefix-%")
	}
}

// withEveryPart turns on the prompt's optional parts: the sandbox, a
// hook, a subagent and a project skill.
func withEveryPart(b testing.TB, cfg *config.Config, ws string) {
	cfg.Sandbox = "workspace-write"
	cfg.Hooks = json.RawMessage(`{"SessionEnd":[{"hooks":[{"type":"command","command":"true"}]}]}`)
	files := map[string]string{
		filepath.Join(cfg.ConfigDir(), "agents", "reviewer.md"):            "---\nname: reviewer\ndescription: Reviews a diff for bugs, missing tests and style.\n---\nYou review diffs.\n",
		filepath.Join(ws, ".companion", "skills", "changelog", "SKILL.md"): "---\nname: changelog\ndescription: Writes the changelog entry for a change, in the project's format.\n---\nRead CHANGELOG.md first.\n",
	}
	for path, text := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// promptOnce runs one prompt in a new session wired as the binary wires
// it (host.AgentOptions, cli.BuiltinTools, google_web_search) against the Gemini-shaped
// server at url; full turns on every optional part of the prompt.
func promptOnce(b testing.TB, url, prompt string, full bool) {
	ws, home := promptWorkspace(b), b.TempDir()
	cfg := config.Config{Model: "gemini-2.5-pro", StateDir: b.TempDir(), SettingsPath: filepath.Join(home, "settings.json")}
	if full {
		withEveryPart(b, &cfg, ws)
	}
	roots, err := tools.NewRoots(ws)
	if err != nil {
		b.Fatal(err)
	}
	opts, err := host.AgentOptions(host.Base{ID: "bench", Roots: roots, Config: cfg, Trusted: true,
		Tools: cli.BuiltinTools(nil)(cfg), Log: slog.New(slog.DiscardHandler), Getenv: func(k string) string {
			if k == "HOME" {
				return home
			}
			return ""
		}})
	if err != nil {
		b.Fatal(err)
	}
	prov, err := gemini.New(context.Background(), gemini.Config{APIKey: "bench", BaseURL: url})
	if err != nil {
		b.Fatal(err)
	}
	// The binary offers google_web_search on the Gemini provider (the host
	// adds it over the provider's grounding); only its declaration counts
	// here, so its backend is never called.
	noSearch := websearch.BackendFunc(func(context.Context, string) (*websearch.Answer, error) {
		return nil, errors.New("no search in the benchmark")
	})
	if err := opts.Tools.Add(websearch.Tool(noSearch)); err != nil {
		b.Fatal(err)
	}
	opts.Model, opts.Sink = prov, agent.SinkFunc(func(context.Context, agent.Event) {})
	s, err := agent.NewSession(opts)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Prompt(context.Background(), []model.Part{{Text: prompt}}); err != nil {
		b.Fatal(err)
	}
}
