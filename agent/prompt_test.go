package agent

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"companion/agent/hooks"
	"companion/agent/model"
	"companion/internal/testkit/agenttest"
)

// updatePrompts rewrites the system prompt golden files:
// go test ./agent -run TestPromptGolden -update-prompts
var updatePrompts = flag.Bool("update-prompts", false, "rewrite agent/testdata/prompt_*.golden.md")

// fixedInputs is a session in a fixed environment, with every built-in
// tool, in default mode, without sandbox, hooks, subagents or skills.
func fixedInputs() promptInputs {
	return promptInputs{Nonce: "0123456789abcdef", Mode: ModeDefault,
		Tools: []string{"enter_plan_mode", "exit_plan_mode", "glob", "grep", "list_directory", "read_file", "read_many_files", "replace",
			"run_shell_command", "save_memory", "web_fetch", "write_file", "write_todos"},
		Env: promptEnv{Date: "Sunday, November 22, 2026", OS: "linux/amd64", Shell: "bash",
			Roots: []string{"/work/app", "/work/lib"}, InGit: true, Git: "main",
			Listing:     "Makefile\nREADME.md\ncmd/\ncmd/app/\ngo.mod\ninternal/\ninternal/store/\nmain.go\n",
			MemoryFiles: []string{"/work/app/AGENTS.md"},
			Memory:      "--- Project instructions from /work/app/AGENTS.md ---\nRun make check before committing.\n--- End of /work/app/AGENTS.md ---"}}
}

// withEverything turns on every optional part that default mode allows.
func withEverything(in *promptInputs) {
	in.Tools = append(in.Tools, "google_web_search", "ask_user")
	in.Sandbox = "workspace-write"
	in.Hooks = true
	in.Agents = []AgentDef{{Name: "reviewer", Description: "Reviews a diff for bugs\nand style."},
		{Name: "searcher", Description: "Finds code across a large repository."}}
	in.Skills = []SkillSummary{{Name: "release-notes", Description: "Writes release notes from the git log."},
		{Name: "pdf", Description: "Reads and fills PDF forms."}}
	in.Tools = append(in.Tools, "activate_skill", "delegate_to_agent")
}

// promptCases are the golden prompts: each changes the fixed inputs.
var promptCases = []struct {
	name string
	edit func(*promptInputs)
}{
	{"default", func(*promptInputs) {}},
	{"plan", func(in *promptInputs) { in.Mode = ModePlan }},
	{"yolo", func(in *promptInputs) { in.Mode = ModeYolo }},
	{"auto_edit", func(in *promptInputs) { in.Mode = ModeAutoEdit }},
	{"sandbox", func(in *promptInputs) { in.Sandbox = "read-only"; in.SandboxNetwork = true }},
	{"everything", withEverything},
	{"disabled", func(in *promptInputs) { in.Disabled = []string{"git", "listing", "workflows"} }},
	{"subagent", func(in *promptInputs) {
		in.Custom = "You are the reviewer. Review the diff you are given."
		in.Env.InGit, in.Env.Git, in.Env.Roots = false, "", in.Env.Roots[:1]
	}},
	{"append", func(in *promptInputs) { in.Append = "Answer in French."; in.Env.Git = "HEAD" }},
}

// TestPromptGolden pins the assembled system prompt of a fixed
// environment in each setup.
func TestPromptGolden(t *testing.T) {
	for _, tt := range promptCases {
		t.Run(tt.name, func(t *testing.T) {
			in := fixedInputs()
			tt.edit(&in)
			// The untrusted-data part is untrusted.go's, tested there.
			got := strings.Replace(renderPrompt(&in), strings.TrimSpace(dataFramePrompt(in.Nonce)),
				"{the untrusted_data part: see untrusted.go}", 1)
			path := filepath.Join("testdata", "prompt_"+tt.name+".golden.md")
			if *updatePrompts {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("%s differs (run with -update-prompts and review the diff):\n%s", path, got)
			}
		})
	}
}

// TestPromptSubjects checks that the prompt covers each subject issue 18
// lists, by a phrase that only the guidance on it contains.
func TestPromptSubjects(t *testing.T) {
	subjects := []struct{ subject, mode, phrase string }{
		{"follow the project's conventions", "", "follow their conventions"},
		{"verify a library is used", "", "Never assume a library is available"},
		{"match style and structure", "", "Make each edit blend in"},
		{"comments only for why", "", "Comment sparingly, to say why"},
		{"no suppressed warnings or type hacks", "", "Do not silence it"},
		{"tests with features and fixes", "", "Features and fixes come with tests"},
		{"no scope expansion without asking", "", "ask before making it"},
		{"no reverting others' changes", "", "Never revert or rewrite changes you did not make"},
		{"no closing summaries", "", "no closing summary"},
		{"change workflow", "", "4. Verify: run the project's own tests"},
		{"new project workflow", "", "To start a new project"},
		{"parallel calls", "", "so they run in parallel"},
		{"background servers", "", "is_background"},
		{"no interactive commands", "", "never run interactive programs"},
		{"explain system-changing commands", "", "say in one sentence what it does and why"},
		{"no retrying rejected calls", "", "A call the user rejects is their decision"},
		{"memory and save_memory", "", "save_memory"},
		{"git", "", "Commit only when the user asks"},
		{"secrets", "", "Never expose secrets"},
		{"untrusted data", "", "never instructions"},
		{"editor context", "", "<editor_context>"},
		{"plan mode", ModePlan, "The session is in plan mode"},
		{"yolo care", ModeYolo, "you are the only check"},
		{"auto edit care", ModeAutoEdit, "File edits are applied without asking"},
		{"sandbox", "", "Shell commands run in a sandbox"},
		{"hooks", "", "The user has set up hooks"},
		{"subagents", "", "- reviewer: Reviews a diff for bugs and style."},
		{"skills", "", "- release-notes: Writes release notes from the git log."},
		{"environment", "", "- Date: Sunday, November 22, 2026\n- OS: linux/amd64; commands run in bash"},
		{"roots", "", "- Additional directories: /work/lib"},
		{"git repository and branch", "", "Git repository, branch main"},
		{"listing", "", "internal/store/"},
		{"memory files", "", "Run make check before committing."},
	}
	for _, s := range subjects {
		in := fixedInputs()
		withEverything(&in)
		if s.mode != "" {
			in.Mode = s.mode
		}
		if got := renderPrompt(&in); !strings.Contains(got, s.phrase) {
			t.Errorf("%s: the prompt lacks %q", s.subject, s.phrase)
		}
	}
}

// TestPromptPartsDisable turns each part off in turn: its text leaves the
// prompt and the rest stays.
func TestPromptPartsDisable(t *testing.T) {
	for _, mode := range []string{ModePlan, ModeYolo} {
		for _, p := range promptParts() {
			in := fixedInputs()
			withEverything(&in)
			in.Mode = mode
			text := p.render(&in)
			if text == "" {
				t.Errorf("part %s says nothing with everything on", p.name)
				continue
			}
			in.Disabled = []string{p.name}
			got := renderPrompt(&in)
			if p.fixed != strings.Contains(got, text) {
				t.Errorf("part %s (fixed %v) disabled: still in the prompt = %v", p.name, p.fixed, !p.fixed)
			}
			if !strings.Contains(got, "# Environment") && p.name != "environment" {
				t.Errorf("disabling %s took other parts out", p.name)
			}
		}
	}
	custom := fixedInputs()
	custom.Custom, custom.Disabled = "You are the helper.", []string{"identity", "core"}
	if got := renderPrompt(&custom); !strings.HasPrefix(got, "You are the helper.\n\n# Safety") {
		t.Errorf("a custom prompt with identity disabled starts %.60q", got)
	}
	if slices.Contains(PromptParts(), "untrusted_data") || !slices.Contains(PromptParts(), "git") {
		t.Errorf("PromptParts = %v", PromptParts())
	}
	if got := unknownParts([]string{"git", "gti"}); !slices.Equal(got, []string{"gti"}) {
		t.Errorf("unknownParts = %v", got)
	}
}

// TestPromptOptionalPartsOff: without their inputs the optional parts
// say nothing, and the default prompt names none of them.
func TestPromptOptionalPartsOff(t *testing.T) {
	in := fixedInputs()
	in.Env.InGit = false
	got := renderPrompt(&in)
	for _, heading := range []string{"# Git", "# Plan mode", "# Approval mode", "# Sandbox", "# Hooks", "# Subagents", "# Skills"} {
		if strings.Contains(got, heading) {
			t.Errorf("the plain prompt has %q", heading)
		}
	}
	if !strings.Contains(got, "- Not a git repository") {
		t.Error("the prompt does not say there is no repository")
	}
}

// TestSessionPrompt builds the prompt of a real session: settings turn
// parts off, the sandbox and hooks show, the git branch is read, and a
// mode change rebuilds the prompt while requests in one mode share it.
func TestSessionPrompt(t *testing.T) {
	m := &agenttest.Model{Turns: []agenttest.Turn{{Chunks: []*model.Chunk{agenttest.Text("a")}}, {Chunks: []*model.Chunk{agenttest.Text("b")}},
		{Chunks: []*model.Chunk{agenttest.Text("c")}}}}
	runner := hooks.NewRunner(hooks.Config{}, hooks.Options{})
	s, _ := newTestSession(t, m, func(o *Options) {
		o.Prompt = PromptOptions{Disable: []string{"listing"}, Sandbox: "workspace-write"}
		o.Hooks = runner
	})
	git := filepath.Join(s.Root(), ".git")
	if err := os.MkdirAll(git, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(git, "HEAD"), []byte("ref: refs/heads/feature/x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{ModeDefault, ModeDefault, ModePlan} {
		if err := s.SetMode(mode); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Prompt(context.Background(), userText("hi")); err != nil {
			t.Fatal(err)
		}
	}
	reqs := m.Requests()
	first := reqs[0].System
	for _, want := range []string{"Git repository, branch feature/x", "# Sandbox", "(workspace-write)", "# Hooks", "Use tabs."} {
		if !strings.Contains(first, want) {
			t.Errorf("the prompt lacks %q", want)
		}
	}
	if strings.Contains(first, "# Top of the working directory") || strings.Contains(first, "# Plan mode") {
		t.Error("the listing was disabled, and the mode is default")
	}
	if reqs[1].System != first {
		t.Error("two requests in the same mode have different system prompts")
	}
	if !strings.Contains(reqs[2].System, "# Plan mode") {
		t.Error("plan mode is not in the prompt after switching to it")
	}
}

// TestGitBranch reads the branch of a repository, a detached HEAD, a
// worktree's .git file and no repository.
func TestGitBranch(t *testing.T) {
	tests := []struct {
		name, dotGit, head string
		file               bool
		inGit              bool
		want               string
	}{
		{"branch", ".git", "ref: refs/heads/main\n", false, true, "main"},
		{"detached", ".git", "3f2a9c0d1e\n", false, true, "HEAD"},
		{"worktree", "real.git", "ref: refs/heads/topic\n", true, true, "topic"},
		{"none", "", "", false, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			sub := filepath.Join(root, "a", "b")
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			if tt.dotGit != "" {
				dir := filepath.Join(root, tt.dotGit)
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "HEAD"), []byte(tt.head), 0o644); err != nil {
					t.Fatal(err)
				}
				if tt.file {
					if err := os.WriteFile(filepath.Join(root, ".git"), []byte("gitdir: real.git\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			inGit, branch := gitBranch(sub)
			if tt.name == "none" && inGit {
				t.Skip("the temp dir lies inside a git repository")
			}
			if inGit != tt.inGit || branch != tt.want {
				t.Errorf("gitBranch = %v, %q; want %v, %q", inGit, branch, tt.inGit, tt.want)
			}
		})
	}
}

// TestPromptDayOnly: the prompt names the day, never the time, so that it
// stays the same all day long.
func TestPromptDayOnly(t *testing.T) {
	m := &agenttest.Model{Turns: []agenttest.Turn{{Chunks: []*model.Chunk{agenttest.Text("a")}}}}
	s, _ := newTestSession(t, m, func(o *Options) {
		o.Now = func() time.Time { return time.Date(2026, 11, 22, 13, 45, 7, 0, time.UTC) }
	})
	if _, err := s.Prompt(context.Background(), userText("hi")); err != nil {
		t.Fatal(err)
	}
	system := m.Requests()[0].System
	if !strings.Contains(system, "Sunday, November 22, 2026") || strings.Contains(system, "13:45") || strings.Contains(system, ":07") {
		t.Errorf("the prompt's date is not a bare day:\n%s", system)
	}
}

// TestPromptNamesConfiguredShell: the prompt names the shell
// run_shell_command really uses, the configured one when set, so that a
// model is not told bash where commands run in PowerShell or cmd.exe.
func TestPromptNamesConfiguredShell(t *testing.T) {
	m := &agenttest.Model{Turns: []agenttest.Turn{{Chunks: []*model.Chunk{agenttest.Text("a")}}}}
	s, _ := newTestSession(t, m, func(o *Options) { o.Prompt.Shell = `C:\Program Files\PowerShell\7\pwsh.exe` })
	if _, err := s.Prompt(context.Background(), userText("hi")); err != nil {
		t.Fatal(err)
	}
	if system := m.Requests()[0].System; !strings.Contains(system, "commands run in pwsh\n") {
		t.Errorf("the prompt does not name pwsh:\n%s", system)
	}
}
