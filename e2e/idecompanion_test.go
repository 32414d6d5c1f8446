package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"companion/ide/companion/companiontest"
	"companion/internal/testkit/acptest"
)

// TestIDECompanion runs companion beside a test IDE that follows the
// Gemini CLI IDE companion spec: its context reaches the model, even in a
// prompt sent while the connection is still being made, an edit opens its
// native diff, and the user's accepted (edited) text is written, or a
// rejection writes nothing.
func TestIDECompanion(t *testing.T) {
	t.Parallel()
	for _, accept := range []bool{true, false} {
		name := map[bool]string{true: "accepted with edits", false: "rejected"}[accept]
		t.Run(name, func(t *testing.T) {
			ws := workspace(t, map[string]string{"app.txt": "old\n"})
			tmp := t.TempDir()
			srv, err := companiontest.Start(companiontest.Options{TempDir: tmp, Workspace: []string{ws}})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			srv.SetContext(map[string]any{"workspaceState": map[string]any{"openFiles": []any{
				map[string]any{"path": filepath.Join(ws, "app.txt"), "timestamp": 1, "isActive": true, "cursor": map[string]any{"line": 1, "character": 1}}}, "isTrusted": true}})
			release := make(chan struct{})
			defer close(release)
			fake := acptest.NewFake()
			fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) { <-release; return "", nil }
			ed := startAgent(t, agentOpts{env: env(t, "TMPDIR="+tmp), handler: fake.Handle, script: `{"turns":[
				{"match":"app.txt","chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"app.txt","content":"proposed\n"}}}]},
				{"chunks":[{"text":"done"}]}],"fallback":"error"}`})
			ed.Initialize(map[string]any{})
			id := ed.NewSession(ws)
			// The IDE connection is made in the background; the first
			// prompt, sent at once, waits for the IDE's first context.
			resp := ed.Prompt(id, "change the open file")
			ctx, cancel := context.WithTimeout(context.Background(), acptest.Timeout)
			defer cancel()
			call, err := srv.NextCall(ctx)
			if err != nil || call.Name != "openDiff" || call.NewContent != "proposed\n" {
				t.Fatalf("IDE call = %+v, %v", call, err)
			}
			if accept {
				err = srv.Accept(call.FilePath, "proposed, edited by the user\n")
			} else {
				err = srv.Reject(call.FilePath)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := ed.StopReason(ed.Wait(resp)); got != "end_turn" {
				t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
			}
			data, _ := os.ReadFile(filepath.Join(ws, "app.txt"))
			want := map[bool]string{true: "proposed, edited by the user\n", false: "old\n"}[accept]
			if string(data) != want {
				t.Errorf("app.txt = %q, want %q", data, want)
			}
			ed.Close()
		})
	}
}
