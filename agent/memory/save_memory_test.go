package memory

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/tools"
)

// prepare builds a save_memory call from JSON arguments.
func prepare(t *testing.T, tool tools.Tool, args string) (tools.Invocation, error) {
	t.Helper()
	root := tempDir(t)
	roots, err := tools.NewRoots(root)
	if err != nil {
		t.Fatal(err)
	}
	return tool.Prepare(&tools.Env{Roots: roots, Log: slog.Default()}, json.RawMessage(args))
}

func TestSaveMemoryTool(t *testing.T) {
	tests := []struct {
		name     string
		existing *string
		fact     string
		want     string
	}{
		{"new file", nil, "The user prefers tabs.", "## Added Memories\n\n- The user prefers tabs.\n"},
		{"existing file", ptr("# Me\n\n## Added Memories\n\n- old\n"), "new", "# Me\n\n## Added Memories\n\n- old\n- new\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(tempDir(t), "cfg")
			path := filepath.Join(dir, "AGENTS.md")
			if tt.existing != nil {
				writeTree(t, dir, map[string]string{"AGENTS.md": *tt.existing})
			}
			tool := SaveMemoryTool(dir, "")
			if tool.Name() != "save_memory" || tool.Kind() != tools.KindEdit || !strings.Contains(tool.Description(), path) {
				t.Errorf("tool: %s %s %q", tool.Name(), tool.Kind(), tool.Description())
			}
			args, _ := json.Marshal(map[string]string{"fact": tt.fact})
			inv, err := prepare(t, tool, string(args))
			if err != nil {
				t.Fatal(err)
			}
			if locs := inv.Locations(); len(locs) != 1 || locs[0].Path != path {
				t.Errorf("locations = %v", locs)
			}
			conf, err := inv.Confirmation(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if conf.Type != tools.ConfirmEdit || conf.Path != path || conf.NewText != tt.want ||
				!strings.Contains(conf.Title, tt.fact) || !equalPtr(conf.OldText, tt.existing) {
				t.Errorf("confirmation = %+v (old %v)", conf, deref(conf.OldText))
			}
			res, err := inv.Execute(context.Background(), nil)
			if err != nil || res.IsError {
				t.Fatalf("execute: %v %+v", err, res)
			}
			data, _ := os.ReadFile(path)
			if string(data) != tt.want {
				t.Errorf("file = %q, want %q", data, tt.want)
			}
			if res.Diff == nil || res.Diff.NewText != tt.want || !equalPtr(res.Diff.OldText, tt.existing) ||
				!strings.Contains(res.Text, tt.fact) {
				t.Errorf("result = %+v", res)
			}
		})
	}
}

func TestSaveMemoryRereadsAndModified(t *testing.T) {
	dir := tempDir(t)
	path := filepath.Join(dir, "GEMINI.md")
	tool := SaveMemoryTool(dir, "GEMINI.md")
	inv, err := prepare(t, tool, `{"fact":"B"}`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := inv.Confirmation(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Another session saves a fact between confirmation and execution.
	if err := AppendFact(path, "A"); err != nil {
		t.Fatal(err)
	}
	if _, err := inv.Execute(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "## Added Memories\n\n- A\n- B\n" {
		t.Errorf("file = %q", data)
	}

	inv, err = prepare(t, tool, `{"fact":"C"}`)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := inv.(tools.Modifiable)
	if !ok {
		t.Fatal("save_memory is not Modifiable")
	}
	m.UseModifiedContent("edited by the user\n")
	res, err := inv.Execute(context.Background(), nil)
	if err != nil || res.IsError {
		t.Fatalf("execute: %v %+v", err, res)
	}
	if data, _ := os.ReadFile(path); string(data) != "edited by the user\n" {
		t.Errorf("file = %q", data)
	}
}

func TestSaveMemoryLongTitle(t *testing.T) {
	inv, err := prepare(t, SaveMemoryTool(tempDir(t), ""), `{"fact":"`+strings.Repeat("é", 70)+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Save memory: " + strings.Repeat("é", 60) + "…"; inv.Title() != want {
		t.Errorf("title = %q", inv.Title())
	}
}

func TestSaveMemoryBadArgs(t *testing.T) {
	tool := SaveMemoryTool(tempDir(t), "")
	for _, args := range []string{`{}`, `{"fact":"  "}`, `{"fact":3}`} {
		if _, err := prepare(t, tool, args); !errors.Is(err, tools.ErrInvalidArgs) {
			t.Errorf("%s: %v", args, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	inv, err := prepare(t, tool, `{"fact":"x"}`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := inv.Execute(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled execute: %v", err)
	}
	var schema map[string]any
	if err := json.Unmarshal(tool.Schema(), &schema); err != nil || !strings.Contains(string(tool.Schema()), `"required":["fact"]`) {
		t.Errorf("schema %s: %v", tool.Schema(), err)
	}
}

func ptr(s string) *string { return &s }

func equalPtr(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
