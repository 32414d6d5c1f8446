//go:build unix

package builtin

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"companion/tools"
)

// startBackground starts a background command and returns its id and pid.
func startBackground(t *testing.T, env *tools.Env, command string) (string, int) {
	t.Helper()
	res, _ := runShell(t, env, ShellOptions{KillGrace: 200 * time.Millisecond},
		map[string]any{"command": command, "is_background": true})
	raw, ok := res.Raw.(ShellRaw)
	if res.IsError || !ok || raw.BackgroundID == "" || raw.PID == 0 {
		t.Fatalf("start %q: %+v", command, res)
	}
	if !strings.Contains(res.Text, raw.BackgroundID) || !strings.Contains(res.Text, fmt.Sprint(raw.PID)) {
		t.Errorf("start text %q lacks the id or pid", res.Text)
	}
	return raw.BackgroundID, raw.PID
}

// waitOutput reads a background command's output until it contains want.
func waitOutput(t *testing.T, env *tools.Env, id, args, want string) string {
	t.Helper()
	for range 1000 {
		res := callBackground(t, env, "read_background_output", args)
		if strings.Contains(res.Text, want) {
			return res.Text
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never printed %q", id, want)
	return ""
}

func TestBackgroundStartListReadKill(t *testing.T) {
	env := shellEnv(t)
	id, pid := startBackground(t, env, "for i in $(seq 1 50); do echo line$i; done; echo ready; sleep 60")
	if id != "bg1" {
		t.Errorf("id = %q, want bg1", id)
	}
	text := waitOutput(t, env, id, `{"id": "bg1", "lines": 3}`, "ready")
	if want := "bg1 (running): the last 3 lines of output:\nline49\nline50\nready"; text != want {
		t.Errorf("read = %q, want %q", text, want)
	}
	all := callBackground(t, env, "read_background_output", `{"id": "bg1"}`).Text
	if !strings.HasPrefix(all, "bg1 (running): all output so far:\nline1\n") {
		t.Errorf("read all = %q", all)
	}
	list := callBackground(t, env, "list_background_processes", `{}`).Text
	if !strings.HasPrefix(list, fmt.Sprintf("bg1  running  pid %d  started ", pid)) || !strings.Contains(list, "echo line$i") {
		t.Errorf("list = %q", list)
	}
	kill := callBackground(t, env, "kill_background_process", `{"id": "bg1"}`).Text
	if kill != "Stopped bg1 (killed by SIGTERM)." {
		t.Errorf("kill = %q", kill)
	}
	waitGone(t, pid)
	if list := callBackground(t, env, "list_background_processes", `{}`).Text; !strings.Contains(list, "bg1  killed by SIGTERM") {
		t.Errorf("list after kill = %q", list)
	}
	if again := callBackground(t, env, "kill_background_process", `{"id": "bg1"}`).Text; again != "bg1 was not running (killed by SIGTERM)." {
		t.Errorf("second kill = %q", again)
	}
}

func TestBackgroundExitedByItself(t *testing.T) {
	env := shellEnv(t)
	id, _ := startBackground(t, env, "echo done; exit 4")
	text := waitOutput(t, env, id, `{"id": "bg1"}`, "exited (code 4)")
	if text != "bg1 (exited (code 4)): all output so far:\ndone" {
		t.Errorf("read = %q", text)
	}
}

func TestBackgroundUnknownAndMissing(t *testing.T) {
	env := shellEnv(t)
	for _, name := range []string{"read_background_output", "kill_background_process"} {
		if res := callBackground(t, env, name, `{"id": "bg9"}`); !res.IsError || !strings.Contains(res.Text, `No background process "bg9"`) {
			t.Errorf("%s(bg9) = %+v", name, res)
		}
	}
	if res := callBackground(t, env, "list_background_processes", `{}`); res.Text != "No background processes." {
		t.Errorf("empty list = %q", res.Text)
	}
	env.Background = nil
	if res := callBackground(t, env, "list_background_processes", `{}`); res.Text != noBackground {
		t.Errorf("no registry: %q", res.Text)
	}
	_, err := shellTool(t, "read_background_output", ShellOptions{}).Prepare(env, []byte(`{"id": "bg1", "lines": 0}`))
	if !errors.Is(err, tools.ErrInvalidArgs) {
		t.Errorf("lines 0: %v", err)
	}
}

func TestBackgroundCloseKillsAll(t *testing.T) {
	env := shellEnv(t)
	_, pid1 := startBackground(t, env, "sleep 60")
	id2, pid2 := startBackground(t, env, "trap '' TERM; sleep 60 & echo child $!; sleep 60")
	var child int
	text := waitOutput(t, env, id2, `{"id": "bg2"}`, "child ")
	if _, err := fmt.Sscanf(text[strings.Index(text, "child "):], "child %d", &child); err != nil {
		t.Fatalf("output %q: %v", text, err)
	}
	if err := env.Background.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range []int{pid1, pid2, child} {
		waitGone(t, pid)
	}
	res, _ := runShell(t, env, ShellOptions{}, map[string]any{"command": "sleep 60", "is_background": true})
	if !res.IsError || !strings.Contains(res.Text, "closing") {
		t.Errorf("start after Close = %+v", res)
	}
	if _, err := env.Background.Add(&bgJob{}); !errors.Is(err, tools.ErrBackgroundClosed) {
		t.Errorf("add after Close = %v", err)
	}
	if err := env.Background.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
}

func TestLastLines(t *testing.T) {
	tests := []struct {
		in        string
		n         int
		cut       bool
		want      string
		wantTrunc bool
	}{
		{"a\nb\nc\n", 5, false, "a\nb\nc", false},
		{"a\nb\nc\n", 2, false, "b\nc", true},
		{"partial\nb\nc", 5, true, "b\nc", true},
		{"", 3, false, "", false},
	}
	for _, tt := range tests {
		got, trunc := lastLines(tt.in, tt.n, tt.cut)
		if got != tt.want || trunc != tt.wantTrunc {
			t.Errorf("lastLines(%q, %d, %v) = %q, %v; want %q, %v", tt.in, tt.n, tt.cut, got, trunc, tt.want, tt.wantTrunc)
		}
	}
}
