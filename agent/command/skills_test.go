package command

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"companion/agent"
	"companion/agent/model"
	"companion/agent/skills"
	"companion/agent/slash"
	"companion/internal/testkit/agenttest"
	"companion/tools"
)

// skillFile is a SKILL.md for the agent's skill tests.
func skillFile(name, body string) string {
	return "---\nname: " + name + "\ndescription: The " + name + " skill.\n---\n" + body + "\n"
}

// withSkills gives the session a catalog of a project skill (review, with
// a resource), a user skill (explain) and a skill named like a built-in
// command (help) and a file command (deploy), with the activate_skill
// tool; *trusted is the workspace's trust. *cat is set to the catalog.
func withSkills(t *testing.T, trusted *bool, cat **skills.Catalog) func(*agent.Options) {
	return func(o *agent.Options) {
		root := o.Roots.Primary()
		user := t.TempDir()
		files := map[string]string{
			filepath.Join(root, ".companion/skills/review/SKILL.md"): skillFile("review", "Check the tests first."),
			filepath.Join(root, ".companion/skills/review/list.md"):  "- tests\n",
			filepath.Join(root, ".claude/skills/help/SKILL.md"):      skillFile("help", "Help body."),
			filepath.Join(root, ".claude/skills/deploy/SKILL.md"):    skillFile("deploy", "Deploy body."),
			filepath.Join(user, "skills/explain/SKILL.md"):           skillFile("explain", "Explain slowly."),
		}
		for p, content := range files {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		found, problems := skills.Discover(skills.Locations([]string{root}, true, user, ""))
		if len(problems) > 0 || len(found) != 4 {
			t.Fatalf("skills %v, problems %v", found, problems)
		}
		o.Skills = skills.NewCatalog(found, func() bool { return *trusted })
		*cat = o.Skills
		o.SlashCommands = []slash.Command{{Name: "deploy", Description: "Deploy", Prompt: "deploy it"}}
		if err := o.Tools.Add(o.Skills.Tool()); err != nil {
			t.Fatal(err)
		}
	}
}

// sklLastUser is the text of the last user message the model read.
func sklLastUser(m *agenttest.Model) string {
	reqs := m.Requests()
	if len(reqs) == 0 {
		return ""
	}
	return lastUserText(reqs[len(reqs)-1])
}

// TestSkillCommands: each skill is a command (unless a built-in or file
// command has its name) whose prompt is the skill, framed as data when it
// is the project's; /skills lists them; an untrusted project's skill
// does not run.
func TestSkillCommands(t *testing.T) {
	trusted := true
	m := &agenttest.Model{}
	var cat *skills.Catalog
	s, rec := newTestSession(t, m, withSkills(t, &trusted, &cat))
	var names []string
	for _, c := range s.Commands() {
		names = append(names, c.Name)
	}
	count := func(name string) int {
		n := 0
		for _, c := range names {
			if c == name {
				n++
			}
		}
		return n
	}
	if count("review") != 1 || count("explain") != 1 || count("skills") != 1 || count("help") != 1 || count("deploy") != 1 {
		t.Errorf("commands = %v", names)
	}
	tests := []struct {
		in     string
		want   []string // in the model's last user message
		framed bool
	}{
		{"/review main.go please", []string{"Check the tests first.", "list.md", "The user's request: main.go please"}, true},
		{"/explain", []string{"Explain slowly.", "no further request"}, false},
	}
	for _, tt := range tests {
		if r, err := s.Prompt(context.Background(), userText(tt.in)); err != nil || r != agent.EndTurn {
			t.Fatalf("%s: %q %v", tt.in, r, err)
		}
		got := sklLastUser(m)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the model read %q, want %q in it", tt.in, got, w)
			}
		}
		tag := s.FrameData("skill:x", "")
		tag = tag[:strings.Index(tag, `source="skill:`)+len(`source="skill:`)]
		if framed := strings.Contains(got, tag); framed != tt.framed {
			t.Errorf("%s: framed = %v:\n%s", tt.in, framed, got)
		}
	}
	if !cat.Activated("review") || !cat.Activated("explain") || cat.Activated("help") {
		t.Error("the commands did not record their activations")
	}
	n := len(rec.All())
	s.Prompt(context.Background(), userText("/skills"))
	out := rec.All()[n].(agent.MessageChunk).Text
	for _, w := range []string{"`review` (project", "`explain` (user", "Active in this session", "The help skill."} {
		if !strings.Contains(out, w) {
			t.Errorf("/skills lacks %q:\n%s", w, out)
		}
	}
	trusted = false
	reqs := len(m.Requests())
	n = len(rec.All())
	s.Prompt(context.Background(), userText("/review again"))
	if got := rec.All()[n:]; len(m.Requests()) != reqs || len(got) != 1 || !strings.Contains(got[0].(agent.MessageChunk).Text, "not trusted") {
		t.Errorf("an untrusted project skill ran: %#v", got)
	}
}

// TestSkillToolAsksOnce has the model activate a skill twice, then,
// after the user ran /explain, that skill: the user is asked the first
// time only.
func TestSkillToolAsksOnce(t *testing.T) {
	trusted := true
	activate := func(name string) *model.Chunk {
		return agenttest.Call(skills.ToolName, map[string]any{"name": name})
	}
	ok := agenttest.Text("ok")
	m := &agenttest.Model{Turns: agenttest.Replies(activate("review"), ok, activate("review"), ok, ok, activate("explain"), ok)}
	ask := &fakeAsker{answer: agent.Answer{OptionID: agent.ProceedOnce}}
	var cat *skills.Catalog
	s, _ := newTestSession(t, m, withSkills(t, &trusted, &cat), func(o *agent.Options) { o.Asker = ask })
	for i, step := range []struct {
		prompt string
		asked  int
	}{{"go", 1}, {"go", 1}, {"/explain", 1}, {"go", 1}} {
		if _, err := s.Prompt(context.Background(), userText(step.prompt)); err != nil {
			t.Fatal(err)
		}
		if ask.count() != step.asked {
			t.Errorf("after step %d (%s): asked %d times, want %d", i, step.prompt, ask.count(), step.asked)
		}
	}
	if q := ask.asked[0]; q.Confirm == nil || q.Confirm.Type != tools.ConfirmInfo || !strings.Contains(q.Confirm.Prompt, "project skill \"review\"") {
		t.Errorf("question = %+v", q.Confirm)
	}
	// An "always" answer would be a rule for activate_skill, letting every
	// other skill in unseen: activation offers none.
	for _, o := range ask.asked[0].Options {
		if o.Kind != agent.AllowOnce && o.Kind != agent.RejectOnce {
			t.Errorf("activation offers %q (%v)", o.Label, o.Kind)
		}
	}
	reqs := m.Requests()
	var outputs []string
	for _, c := range reqs[len(reqs)-1].Contents {
		for _, p := range c.Parts {
			if fr := p.FunctionResponse; fr != nil && fr.Name == skills.ToolName {
				out, _ := fr.Response["output"].(string)
				outputs = append(outputs, out)
			}
		}
	}
	if len(outputs) != 3 || !strings.Contains(outputs[2], "Explain slowly.") || !strings.Contains(outputs[0], "Check the tests first.") {
		t.Errorf("the activations the model read: %q", outputs)
	}
}

// fakeAsker answers every question with answer and keeps the questions.
type fakeAsker struct {
	mu     sync.Mutex
	asked  []agent.Question
	answer agent.Answer
}

func (a *fakeAsker) Ask(_ context.Context, q agent.Question) (agent.Answer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, q)
	return a.answer, nil
}

func (a *fakeAsker) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.asked)
}
