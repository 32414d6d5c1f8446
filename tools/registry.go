package tools

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Registry holds the tools a session offers, by name. Tools may be added at
// run time (MCP servers starting), so it is safe for concurrent use.
type Registry struct {
	// mu guards tools.
	mu sync.RWMutex
	// tools maps a tool's name to it.
	tools map[string]Tool
}

// NewRegistry returns a registry holding ts. Of tools sharing a name the last
// wins; use Add to have duplicates rejected.
func NewRegistry(ts ...Tool) *Registry {
	r := &Registry{tools: make(map[string]Tool, len(ts))}
	for _, t := range ts {
		r.tools[t.Name()] = t
	}
	return r
}

// Get returns the tool called name.
func (r *Registry) Get(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.tools[name]
	return t, ok
}

// All returns every tool, sorted by name so requests to the model are stable
// (and its prompt cache keeps working).
func (r *Registry) All() []Tool {
	r.mu.RLock()
	ts := make([]Tool, 0, len(r.tools))
	for _, t := range r.tools {
		ts = append(ts, t)
	}
	r.mu.RUnlock()
	slices.SortFunc(ts, func(a, b Tool) int { return strings.Compare(a.Name(), b.Name()) })
	return ts
}

// Add registers t; a tool of the same name already present is an error
// wrapping ErrDuplicateTool.
func (r *Registry) Add(t Tool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.tools[t.Name()]; ok {
		return fmt.Errorf("%w: %q", ErrDuplicateTool, t.Name())
	}
	r.tools[t.Name()] = t
	return nil
}
