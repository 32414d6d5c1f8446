package e2e

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// planCall is the model, in plan mode, presenting a two-step plan.
const planCall = `{"functionCall":{"name":"exit_plan_mode","args":{"plan":"# Bump the version\n1. Write v1 to f.txt\n2. Check it"}}}`

// TestPlanApprovalOverACP: exit_plan_mode becomes a
// session/request_permission card showing the plan with three choices.
// Starting with edits accepted switches the client's mode to auto_edit,
// sends the plan's steps as the plan, and the edit that follows runs
// without a question; starting with edits asked switches to default and
// the edit is asked; keeping planning stays in plan mode and passes the
// user's note (_meta.companion.message) to the model.
func TestPlanApprovalOverACP(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		choice string
		meta   map[string]any
		mode   string // current_mode_update; "" for none
		read   string // what the model reads next
		asks   int    // permission requests in all
		wrote  bool
	}{
		{"accept edits", "plan_accept_edits", nil, "auto_edit", "now in auto_edit mode", 1, true},
		{"ask edits", "plan_ask_edits", nil, "default", "now in default mode", 2, true},
		{"keep planning", "plan_keep", map[string]any{"companion": map[string]any{"message": "split step 1"}}, "", "Their note: split step 1", 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := workspace(t, map[string]string{"f.txt": "v0\n"})
			next := `{"text":"Still planning."}`
			if tt.wrote {
				next = `{"functionCall":{"name":"write_file","args":{"file_path":"f.txt","content":"v1\n"}}}]},{"chunks":[{"text":"Done."}`
			}
			fake := acptest.NewFake()
			fake.Answer = func(req acptest.PermissionRequest) (string, map[string]any) {
				if req.ToolCall.Title == "Ready to start: approve the plan" {
					return tt.choice, tt.meta
				}
				return "proceed_once", nil
			}
			ed := startAgent(t, agentOpts{script: fmt.Sprintf(`{"turns":[{"chunks":[%s]},{"match":%q,"chunks":[%s]}],"fallback":"error"}`,
				planCall, jsonInner(tt.read), next), handler: fake.Handle})
			ed.Initialize(map[string]any{})
			id := ed.NewSession(ws)
			if r := ed.Call("session/set_mode", map[string]any{"sessionId": id, "modeId": "plan"}); r.Error != nil {
				t.Fatal(r.Error)
			}
			if got := ed.StopReason(ed.Wait(ed.Prompt(id, "bump the version"))); got != "end_turn" {
				t.Fatalf("stopReason = %q; stderr %s", got, ed.Stderr())
			}
			checkPlanCard(t, fake.Permissions)
			if len(fake.Permissions) != tt.asks {
				t.Errorf("%d permission requests, want %d", len(fake.Permissions), tt.asks)
			}
			if got := readFile(t, filepath.Join(ws, "f.txt")) == "v1\n"; got != tt.wrote {
				t.Errorf("f.txt written = %v, want %v", got, tt.wrote)
			}
			modes, plan := planUpdates(ed, id)
			if tt.mode == "" && len(modes) > 0 || tt.mode != "" && !slices.Equal(modes, []string{tt.mode}) {
				t.Errorf("current_mode_update = %q, want %q", modes, tt.mode)
			}
			wantPlan := tt.mode != ""
			if got := strings.Contains(plan, `"content":"Write v1 to f.txt","priority":"medium","status":"pending"`) &&
				strings.Contains(plan, `"content":"Check it"`); got != wantPlan {
				t.Errorf("plan update %s; want the two steps: %v", plan, wantPlan)
			}
		})
	}
}

// checkPlanCard checks that the first request is the plan card: a mode
// switch with the plan as its content and the three choices.
func checkPlanCard(t *testing.T, reqs []acptest.PermissionRequest) {
	t.Helper()
	if len(reqs) == 0 {
		t.Fatal("no permission request")
	}
	if k := reqs[0].ToolCall.Kind; k != "switch_mode" {
		t.Errorf("the card's kind is %q, want switch_mode (clients show it as a mode switch)", k)
	}
	var ids []string
	for _, o := range reqs[0].Options {
		ids = append(ids, o.OptionID)
	}
	if want := []string{"plan_accept_edits", "plan_ask_edits", "plan_keep"}; !slices.Equal(ids, want) {
		t.Errorf("options = %q, want %q", ids, want)
	}
	var content []string
	for _, c := range reqs[0].ToolCall.Content {
		content = append(content, string(c))
	}
	if c := strings.Join(content, "\n"); !strings.Contains(c, `# Bump the version\n1. Write v1 to f.txt`) {
		t.Errorf("the card lacks the plan: %s", c)
	}
}

// planUpdates returns the modes of the session's current_mode_update
// notifications after set_mode, and its last plan update.
func planUpdates(ed *acptest.Editor, id string) (modes []string, plan string) {
	for _, u := range ed.Updates(id) {
		switch u.Kind {
		case "current_mode_update":
			var m string
			u.Field("currentModeId", &m)
			modes = append(modes, m)
		case "plan":
			plan = string(u.Raw)
		}
	}
	if len(modes) > 0 && modes[0] == "plan" { // set_mode's own
		modes = modes[1:]
	}
	return modes, plan
}
