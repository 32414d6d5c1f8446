package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/agent/model/scripted"
	"companion/internal/testkit/acptest"
)

// sklSkill is a SKILL.md.
func sklSkill(name, desc, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\nallowed-tools: read_file\n---\n" + body + "\n"
}

// sklModel serves script s over HTTP as the Gemini API, for the real
// binary to call.
func sklModel(t *testing.T, s string) *scripted.Server {
	t.Helper()
	sc, err := scripted.ParseScript([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := scripted.NewServer(sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// sklHome writes the user's skill "tidy" (with a resource file) under
// the HOME of e and returns the resource's path.
func sklHome(t *testing.T, e []string) string {
	t.Helper()
	home := strings.TrimPrefix(e[0], "HOME=")
	dir := filepath.Join(home, ".claude", "skills", "tidy")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(dir, "style.txt")
	for p, content := range map[string]string{
		filepath.Join(dir, "SKILL.md"): sklSkill("tidy", "Tidy code the user's way.", "TIDYBODY read style.txt first."),
		res:                            "TIDYRESOURCE keep lines short\n",
	} {
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	real, err := filepath.EvalSymlinks(res)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// sklRaw joins the raw bodies of the model requests.
func sklRaw(reqs []scripted.Recorded) []string {
	var out []string
	for _, r := range reqs {
		if strings.Contains(r.Method, "enerateContent") {
			out = append(out, string(r.Raw))
		}
	}
	return out
}

// sklActivations counts the permission requests for activating a skill.
func sklActivations(fake *acptest.Fake) []string {
	var out []string
	for _, p := range fake.Permissions {
		if strings.HasPrefix(p.ToolCall.Title, "Activate skill") {
			out = append(out, p.ToolCall.Title)
		}
	}
	return out
}

// TestSkills runs the real binary in a trusted workspace with a project
// skill and a user skill: the model sees both by name and description
// only; activating the project skill asks the user the first time and not
// the second, and its body reaches the model; the user skill's resource,
// outside the workspace, can then be read; /lint-rules sends the skill
// and the request; /skills lists both.
func TestSkills(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{
		".companion/skills/lint-rules/SKILL.md": sklSkill("lint-rules", "Apply the team lint rules.", "LINTBODY run the linter before committing."),
		".companion/skills/lint-rules/rules.md": "no globals\n",
	})
	act := func(name string) string { return modelCall("activate_skill", map[string]any{"name": name}) }
	e := env(t)
	res := sklHome(t, e)
	srv := sklModel(t, fmt.Sprintf(`{"turns":[
		{"match":"use the skill","chunks":[%s]},
		{"match":"LINTBODY","chunks":[%s]},
		{"match":"LINTBODY","chunks":[%s]},
		{"match":"TIDYBODY","chunks":[%s]},
		{"match":"TIDYRESOURCE","chunks":[{"text":"Done."}]},
		{"match":"The user's request: check main.go","chunks":[{"text":"Slash done."}]}],"fallback":"error"}`,
		act("lint-rules"), act("lint-rules"), act("tidy"), modelCall("read_file", map[string]any{"file_path": res})))
	fake := acptest.NewFake()
	ed := startAgent(t, agentOpts{handler: fake.Handle, binary: true, // the real wiring: discovery from HOME and the workspace
		env: append(e, "GEMINI_API_KEY=test-key", "GOOGLE_GEMINI_BASE_URL="+srv.URL())})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	cmds := string(ed.WaitUpdate(id, "available_commands_update").Raw)
	for _, w := range []string{`"name":"lint-rules"`, `"name":"tidy"`, `"name":"skills"`} {
		if !strings.Contains(cmds, w) {
			t.Errorf("commands lack %s: %s", w, cmds)
		}
	}
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "use the skill"))); got != "end_turn" {
		t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
	}
	if got := sklActivations(fake); strings.Join(got, ",") != "Activate skill lint-rules,Activate skill tidy" {
		t.Errorf("permission requests = %q, want lint-rules once, then tidy", got)
	}
	raw := sklRaw(srv.Requests())
	if len(raw) != 5 {
		t.Fatalf("%d model requests, want 5", len(raw))
	}
	if first := raw[0]; !strings.Contains(first, "Apply the team lint rules.") || !strings.Contains(first, "Tidy code the user") || strings.Contains(first, "LINTBODY") {
		t.Errorf("the first request should name the skills without their bodies")
	}
	if !strings.Contains(raw[1], "LINTBODY") || !strings.Contains(raw[1], filepath.Join(ws, ".companion/skills/lint-rules/rules.md")) {
		t.Errorf("the activation (body and resources) did not reach the model")
	}
	if !strings.Contains(raw[4], "TIDYRESOURCE keep lines short") {
		t.Errorf("read_file could not read the user skill's resource:\n%s", toolUpdates(ed, id))
	}

	n := len(fake.Permissions)
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "/lint-rules check main.go"))); got != "end_turn" {
		t.Fatalf("/lint-rules: stopReason = %q\n%s", got, ed.Stderr())
	}
	if len(fake.Permissions) != n || !strings.Contains(sklText(ed, id), "Slash done.") {
		t.Errorf("/lint-rules asked again or got no answer: %s", sklText(ed, id))
	}
	ed.Wait(ed.Prompt(id, "/skills"))
	if out := sklText(ed, id); !strings.Contains(out, "`lint-rules` (project") || !strings.Contains(out, "`tidy` (user") {
		t.Errorf("/skills = %s", out)
	}
	ed.Close()
}

// sklText joins the agent's message chunks of a session.
func sklText(ed *acptest.Editor, id string) string {
	var b strings.Builder
	for _, u := range ed.Updates(id) {
		if u.Kind == "agent_message_chunk" {
			b.WriteString(u.Text())
		}
	}
	return b.String()
}

// TestSkillsUntrusted: with folderTrust on and the workspace not trusted,
// the project's skill is neither offered to the model nor listed as a
// command, while the user's is; the model's attempt to activate it fails
// without asking.
func TestSkillsUntrusted(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{
		".companion/skills/lint-rules/SKILL.md": sklSkill("lint-rules", "Apply the team lint rules.", "LINTBODY"),
	})
	e := env(t)
	sklHome(t, e)
	srv := sklModel(t, `{"turns":[
		{"match":"use the skill","chunks":[`+modelCall("activate_skill", map[string]any{"name": "lint-rules"})+`]},
		{"match":"no skill","chunks":[{"text":"Not available."}]}],"fallback":"error"}`)
	fake := acptest.NewFake()
	ed := startAgent(t, agentOpts{handler: fake.Handle, binary: true, settings: `{"folderTrust":{"enabled":true}}`,
		env: append(e, "GEMINI_API_KEY=test-key", "GOOGLE_GEMINI_BASE_URL="+srv.URL())})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	cmds := string(ed.WaitUpdate(id, "available_commands_update").Raw)
	if strings.Contains(cmds, "lint-rules") || !strings.Contains(cmds, `"name":"tidy"`) {
		t.Errorf("commands = %s", cmds)
	}
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "use the skill"))); got != "end_turn" {
		t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
	}
	raw := sklRaw(srv.Requests())
	if len(raw) != 2 || strings.Contains(raw[0], "Apply the team lint rules") || !strings.Contains(raw[0], "Tidy code the user") || strings.Contains(raw[1], "LINTBODY") {
		t.Errorf("the untrusted project skill reached the model, or the user's did not (%d requests)", len(raw))
	}
	if len(sklActivations(fake)) != 0 {
		t.Errorf("asked about an unavailable skill: %+v", fake.Permissions)
	}
	if !strings.Contains(sklText(ed, id), "skills and subagents are not loaded") {
		t.Errorf("the untrusted notice does not mention skills: %s", sklText(ed, id))
	}
	ed.Close()
}
