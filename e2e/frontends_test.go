package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
	"companion/internal/testkit/sdktest"
)

// frontScenario is one session scenario every front end must play alike:
// a new session, one prompt on a scripted model, maybe a cancel once the
// model started answering.
type frontScenario struct {
	name, script, prompt string
	// cancel cancels the turn once the model's first text arrived.
	cancel bool
	want   frontOutcome
	// files are workspace files the turn must leave, by name.
	files map[string]string
}

// frontOutcome is what a user sees of a turn, whatever the front end.
type frontOutcome struct {
	stop string
	// text is the agent's message; checked when not empty.
	text string
	// asked is how many permission questions the user answered (all
	// allowed).
	asked int
}

// frontScenarios are played through ACP (in process) and headless
// (stream-json, the real binary).
var frontScenarios = []frontScenario{
	{name: "text answer", script: `{"turns":[{"chunks":[{"text":"Hello "},{"text":"from the model."}]}],"fallback":"error"}`,
		prompt: "Say hello", want: frontOutcome{stop: "end_turn", text: "Hello from the model."}},
	{name: "permission asked and allowed", script: `{"turns":[
		{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"out.txt","content":"written\n"}}}]},
		{"match":"out.txt","chunks":[{"text":"Wrote it."}]}],"fallback":"error"}`,
		prompt: "Write out.txt", want: frontOutcome{stop: "end_turn", text: "Wrote it.", asked: 1},
		files: map[string]string{"out.txt": "written\n"}},
	{name: "cancel", script: `{"turns":[{"chunks":[{"text":"Starting a long answer"}],"hang":true}]}`,
		prompt: "Write a novel", cancel: true, want: frontOutcome{stop: "cancelled"}},
}

// TestFrontEndsAgree plays every scenario through both front ends and
// expects the same outcome.
func TestFrontEndsAgree(t *testing.T) {
	t.Parallel()
	for _, sc := range frontScenarios {
		t.Run(sc.name, func(t *testing.T) {
			for name, play := range map[string]func(*testing.T, frontScenario, string) frontOutcome{
				"acp": playACP, "headless": playHeadless} {
				t.Run(name, func(t *testing.T) {
					ws := workspace(t, nil)
					got := play(t, sc, ws)
					if got.stop != sc.want.stop || got.asked != sc.want.asked || (sc.want.text != "" && got.text != sc.want.text) {
						t.Errorf("outcome = %+v, want %+v", got, sc.want)
					}
					for f, want := range sc.files {
						if b, err := os.ReadFile(filepath.Join(ws, f)); err != nil || string(b) != want {
							t.Errorf("%s = %q (%v), want %q", f, b, err, want)
						}
					}
				})
			}
		})
	}
}

// playACP plays sc through the ACP front end in process, the editor
// allowing every permission once.
func playACP(t *testing.T, sc frontScenario, ws string) frontOutcome {
	fake := acptest.NewFake()
	ed := inProcess(t, sc.script, fake.Handle)
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	resp := ed.Prompt(id, sc.prompt)
	if sc.cancel {
		ed.WaitUpdate(id, "agent_message_chunk")
		ed.Notify("session/cancel", map[string]any{"sessionId": id})
	}
	out := frontOutcome{stop: ed.StopReason(ed.Wait(resp))}
	var text strings.Builder
	for _, u := range ed.Updates(id) {
		if u.Kind == "agent_message_chunk" {
			text.WriteString(u.Text())
		}
	}
	out.text = text.String()
	ed.Close()
	out.asked = len(fake.Permissions)
	return out
}

// playHeadless plays sc through `companion run --input-format
// stream-json`, the SDK allowing every tool call.
func playHeadless(t *testing.T, sc frontScenario, ws string) frontOutcome {
	ctx := sdkContext(t)
	var args []string
	if sc.cancel {
		args = append(args, "--include-partial-messages")
	}
	s := startSDK(t, sc.script, ws, sdktest.Options{CanUseTool: allowAll}, args...)
	from := s.Len()
	must(t, s, s.SendUser(sc.prompt))
	if sc.cancel {
		_, _, err := s.WaitFrom(ctx, from, func(m sdktest.Message) bool { return m.Type == "stream_event" })
		must(t, s, err)
		must(t, s, s.Interrupt(ctx))
	}
	m, _, err := s.WaitFrom(ctx, from, func(m sdktest.Message) bool { return m.Type == "result" })
	must(t, s, err)
	r, err := m.Result()
	must(t, s, err)
	out := frontOutcome{stop: r.StopReason, text: sdktest.AssistantText(s.Messages()[from:]), asked: len(s.CanUseToolRequests())}
	closeSDK(ctx, t, s)
	return out
}
