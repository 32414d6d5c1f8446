package agent

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"companion/internal/testkit/agenttest"
	"companion/tools"
)

// TestNewSessionLeavesInputsAlone: NewSession does no I/O and changes
// nothing it was given; the state directory appears on the first prompt.
func TestNewSessionLeavesInputsAlone(t *testing.T) {
	dir := t.TempDir()
	roots, err := tools.NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(t.TempDir(), "state", "s1")
	reg := tools.NewRegistry(agenttest.Echo{})
	models := make([]string, 1, 4) // room to grow: an append would write into it
	models[0] = "m2"
	opts := Options{ID: "s1", Roots: roots, Model: &agenttest.Model{}, ModelName: "m1", Models: models,
		Tools: reg, Sink: &agenttest.Recorder[Event]{Seen: make(chan Event, 64)}, StateDir: state,
		Agents: []AgentDef{{Name: "helper", Description: "Helps"}}}
	before := opts
	s, err := NewSession(opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(opts, before) || !slices.Equal(models[:cap(models)], []string{"m2", "", "", ""}) {
		t.Errorf("NewSession changed its options: %+v", opts)
	}
	if _, ok := reg.Get("delegate_to_agent"); ok || len(reg.All()) != 1 {
		t.Error("NewSession added a tool to the caller's registry")
	}
	if _, err := os.Stat(filepath.Dir(state)); !os.IsNotExist(err) {
		t.Errorf("NewSession created the state directory (stat: %v)", err)
	}
	if _, err := roots.Resolve(filepath.Join(state, "x")); err == nil {
		t.Error("NewSession let the tools read the state directory before it exists")
	}
	if !slices.Contains(s.ToolNames(t.Context()), "delegate_to_agent") {
		t.Error("the session does not offer delegate_to_agent")
	}
	if _, err := s.Prompt(t.Context(), userText("hi")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(state); err != nil || !fi.IsDir() {
		t.Fatalf("the first prompt did not make the state directory: %v", err)
	}
	if _, err := roots.Resolve(filepath.Join(state, "x")); err != nil {
		t.Errorf("the state directory is not readable after the first prompt: %v", err)
	}
}
