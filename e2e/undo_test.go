package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// TestUndoAndRestore edits a file twice, undoes the last edit, lists the
// checkpoints, restores the first one and undoes that restore.
func TestUndoAndRestore(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{"f.txt": "v0\n"})
	fake := acptest.NewFake()
	ed := startAgent(t, agentOpts{script: `{"turns":[
		{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"f.txt","content":"v1\n"}}}]},
		{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"new.txt","content":"created\n"}}}]},
		{"chunks":[{"text":"done"}]}]}`, handler: fake.Handle, settings: `{"permissions":{"allow":["edit"]}}`})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	say := func(prompt string) string { return sayText(t, ed, id, prompt) }
	say("edit twice")
	file := func(name string) string {
		data, err := os.ReadFile(filepath.Join(ws, name))
		if err != nil {
			return "<absent>"
		}
		return string(data)
	}
	if file("f.txt") != "v1\n" || file("new.txt") != "created\n" {
		t.Fatalf("after edits: f=%q new=%q", file("f.txt"), file("new.txt"))
	}
	if out := say("/undo"); !strings.Contains(out, "Restored checkpoint") {
		t.Fatalf("/undo said %q", out)
	}
	if file("new.txt") != "<absent>" || file("f.txt") != "v1\n" {
		t.Errorf("after /undo: f=%q new=%q; want the created file gone", file("f.txt"), file("new.txt"))
	}
	list := say("/restore")
	ids := regexp.MustCompile("`([0-9a-f]{6,})`").FindAllStringSubmatch(list, -1)
	if len(ids) < 3 {
		t.Fatalf("/restore listed %q", list)
	}
	oldest := ids[len(ids)-1][1]
	if out := say("/restore " + oldest); !strings.Contains(out, "Restored checkpoint") {
		t.Fatalf("/restore %s said %q", oldest, out)
	}
	if file("f.txt") != "v0\n" {
		t.Errorf("after /restore oldest: f=%q, want v0", file("f.txt"))
	}
	say("/undo")
	if file("f.txt") != "v1\n" {
		t.Errorf("undoing the restore: f=%q, want v1", file("f.txt"))
	}
	ed.Close()
}

// TestUndoStepsBack: /undo twice undoes the last two changes, then says
// there is nothing older; it never redoes what it undid.
func TestUndoStepsBack(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{"f.txt": "v0\n"})
	ed := startAgent(t, agentOpts{script: `{"turns":[
		{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"f.txt","content":"v1\n"}}}]},
		{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"f.txt","content":"v2\n"}}}]},
		{"chunks":[{"text":"done"}]}]}`, handler: acptest.NewFake().Handle, settings: `{"permissions":{"allow":["edit"]}}`})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	say := func(prompt string) string { return sayText(t, ed, id, prompt) }
	file := func() string { data, _ := os.ReadFile(filepath.Join(ws, "f.txt")); return string(data) }
	say("edit twice")
	for _, want := range []string{"v1\n", "v0\n"} {
		say("/undo")
		if got := file(); got != want {
			t.Fatalf("after /undo: f=%q, want %q", got, want)
		}
	}
	if out := say("/undo"); !strings.Contains(out, "no older change") || file() != "v0\n" {
		t.Errorf("a third /undo said %q, f=%q", out, file())
	}
	ed.Close()
}
