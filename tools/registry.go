package tools

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
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

// ReadOnlyOptions configures the read-only built-in tools. Zero fields take
// the defaults given.
type ReadOnlyOptions struct {
	// RipgrepPath is the rg binary grep runs: "" looks up `rg` on PATH once,
	// on grep's first use; "-" never uses ripgrep (the Go search runs).
	RipgrepPath string
	// MaxLines is the most lines read_file returns per call (2000).
	MaxLines int
	// MaxLineLength is where read_file cuts a long line, in characters (2000).
	MaxLineLength int
	// MaxMediaBytes caps an image or PDF that read_file returns inline (10 MiB).
	MaxMediaBytes int64
	// MaxListEntries is the most entries list_directory shows (1000).
	MaxListEntries int
	// MaxGlobResults is the most paths glob shows (500).
	MaxGlobResults int
	// MaxGrepMatches is the most matching lines grep shows (200).
	MaxGrepMatches int
	// MaxGrepLineLength is where grep cuts a matching line, in characters (500).
	MaxGrepLineLength int
	// MaxGrepFileSize is the size above which grep skips a file (1 MiB).
	MaxGrepFileSize int64
	// Now is the clock glob uses to find recently changed files (time.Now).
	Now func() time.Time
}

// withDefaults fills the zero fields.
func (o ReadOnlyOptions) withDefaults() ReadOnlyOptions {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MaxLines, 2000)
	def(&o.MaxLineLength, 2000)
	def(&o.MaxListEntries, 1000)
	def(&o.MaxGlobResults, 500)
	def(&o.MaxGrepMatches, 200)
	def(&o.MaxGrepLineLength, 500)
	if o.MaxMediaBytes <= 0 {
		o.MaxMediaBytes = 10 << 20
	}
	if o.MaxGrepFileSize <= 0 {
		o.MaxGrepFileSize = 1 << 20
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// ReadOnly returns the read-only built-in tools: read_file, list_directory,
// glob and grep.
func ReadOnly(opts ReadOnlyOptions) []Tool {
	o := opts.withDefaults()
	return []Tool{
		newReadFile(o),
		newListDirectory(o),
		newGlob(o),
		newGrep(o),
	}
}
