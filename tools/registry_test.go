package tools

import (
	"errors"
	"slices"
	"testing"
)

func TestRegistry(t *testing.T) {
	tools := []Tool{stubTool("grep"), stubTool("list_directory"), stubTool("glob"), stubTool("read_file")}
	r := NewRegistry(tools[2], tools[3])
	var names []string
	for _, tool := range r.All() {
		names = append(names, tool.Name())
	}
	if want := []string{"glob", "read_file"}; !slices.Equal(names, want) {
		t.Errorf("All() names = %q, want %q", names, want)
	}
	if err := r.Add(tools[1]); err != nil {
		t.Fatal(err)
	}
	if got, ok := r.Get("list_directory"); !ok || got != tools[1] {
		t.Errorf("Get(list_directory) = %v, %v", got, ok)
	}
	if _, ok := r.Get("nope"); ok {
		t.Error("Get(nope) found a tool")
	}
	if err := r.Add(tools[2]); !errors.Is(err, ErrDuplicateTool) {
		t.Errorf("Add(duplicate) = %v, want ErrDuplicateTool", err)
	}
}

// stubTool is a tool called name that does nothing.
func stubTool(name string) Tool {
	return Define(Def[struct{}]{
		Name: name, Kind: KindOther, Description: "Does nothing.",
		Prepare: func(*Env, struct{}) (Invocation, error) { return nil, nil },
	})
}
