package tools

import (
	"context"
	"encoding/json"
	"log/slog"
)

// Kind classifies a tool so front ends can pick an icon and a policy. The
// values match ACP's ToolKind.
type Kind string

// Tool kinds.
const (
	KindRead    Kind = "read"
	KindEdit    Kind = "edit"
	KindDelete  Kind = "delete"
	KindMove    Kind = "move"
	KindSearch  Kind = "search"
	KindExecute Kind = "execute"
	KindThink   Kind = "think"
	KindFetch   Kind = "fetch"
	KindOther   Kind = "other"
	// KindSwitchMode is a call that asks to change the session's mode
	// (the plan-mode tools); clients show it as a mode switch.
	KindSwitchMode Kind = "switch_mode"
)

// Tool is something the model can call. A Tool is stateless and shared by
// every session; per-call state lives in the Invocation it builds.
type Tool interface {
	// Name is the function name the model uses.
	Name() string
	// Description tells the model what the tool does and when to use it.
	Description() string
	// Schema is the JSON Schema (an object) of the tool's parameters.
	Schema() json.RawMessage
	// Kind classifies the tool.
	Kind() Kind
	// Prepare checks args and builds an invocation. A non-nil error is a
	// problem the model can fix (bad arguments, path outside the roots); the
	// caller reports it to the model as an error result.
	Prepare(env *Env, args json.RawMessage) (Invocation, error)
}

// Invocation is one validated call of a tool.
type Invocation interface {
	// Title is a short human description, e.g. "Read src/main.go".
	Title() string
	// Locations are the files the call touches, for "follow the agent".
	Locations() []Location
	// Confirmation describes what the user would approve, or nil when the
	// call never needs approval (read-only tools). Working it out may read
	// files (an edit's diff); an error is a problem the model can fix, such
	// as an old_string that is not in the file.
	Confirmation(ctx context.Context) (*Confirmation, error)
	// Execute runs the call. Problems the model can fix come back as a Result
	// with IsError set; a Go error means the infrastructure failed. Execute
	// returns promptly when ctx is cancelled. out may receive streamed output.
	Execute(ctx context.Context, out Output) (*Result, error)
}

// Location is a file (absolute path) and optionally a 1-based line.
type Location struct {
	Path string
	Line int
}

// Output receives streamed output while a call runs (shell output, progress).
// Write replaces nothing: each call appends text. An Output may also
// implement TerminalDisplay.
type Output interface {
	Write(text string)
}

// TerminalDisplay is implemented by outputs that can show an editor
// terminal (ACP terminal/create) inside the tool call, so the user watches
// a command run live.
type TerminalDisplay interface {
	ShowTerminal(id string)
}

// Result is what a call produced.
type Result struct {
	// Text is what the model reads.
	Text string
	// Images are media the model also sees (read_file of a PNG).
	Images []Image
	// Display is what the user sees, when it differs from Text (markdown).
	Display string
	// IsError marks a failure the model should react to.
	IsError bool
	// Refused is set (by the agent) on the result of a call that was not
	// allowed to run.
	Refused bool
	// Raw is structured output for front ends (ACP rawOutput); may be nil.
	Raw any
	// Plan, when non-nil, replaces the session's plan (write_todos).
	Plan []PlanEntry
	// Diff, when set, is the change an edit made, for the editor's review.
	Diff *Diff
	// More are the other files an edit changed along with Diff's.
	More []Diff
}

// Diff is a file change: absolute path, text before (nil for a new file)
// and after.
type Diff struct {
	Path    string
	OldText *string
	NewText string
}

// PlanEntry is one item of the agent's plan (a todo).
type PlanEntry struct {
	Content string
	// Priority is "high", "medium" or "low".
	Priority string
	// Status is "pending", "in_progress" or "completed" ("cancelled" items
	// are dropped before they reach the editor).
	Status string
}

// Image is inline media.
type Image struct {
	MIMEType string
	Data     []byte
}

// ErrorResult is a Result telling the model what went wrong.
func ErrorResult(msg string) *Result { return &Result{Text: msg, IsError: true} }

// Files reads and writes text through the editor when it offers itself, so
// unsaved buffers are seen and edits are reviewable there. ReadTextFile
// returns an error wrapping fs.ErrNotExist for a missing file; WriteTextFile
// creates missing files.
type Files interface {
	ReadTextFile(ctx context.Context, path string) (string, error)
	WriteTextFile(ctx context.Context, path, content string) error
}

// Env is what a call may use: the session's roots, how to read files, and
// where to log. It is built per session by the agent.
type Env struct {
	// Roots confines paths: the session root first, then additional roots.
	Roots *Roots
	// Files reads and writes text files; nil means the local disk.
	Files Files
	// Terminals runs commands in the editor; nil means locally.
	Terminals Terminals
	// StateDir is a private directory for this session's files (saved
	// command output); "" means the system temp directory.
	StateDir string
	// Questions puts ask_user's questions to the user; nil means no one
	// can answer (a headless run, an editor without forms).
	Questions Questioner
	// Background keeps the session's background commands; nil means
	// run_shell_command cannot start any. Its owner closes it when the
	// session ends, which kills them.
	Background *Background
	// Log receives diagnostics; never nil.
	Log *slog.Logger
	// ReadDenied reports whether a deny rule keeps tool from reading the
	// file at path (Claude Code's "Read(./.env)", say): the searching tools
	// skip such files in the folders they walk, as the policy refuses a
	// call that names one. nil denies nothing.
	ReadDenied func(tool, path string) bool
}

// Denied reports whether a deny rule keeps tool from reading path (see
// Env.ReadDenied).
func (e *Env) Denied(tool, path string) bool {
	return e != nil && e.ReadDenied != nil && e.ReadDenied(tool, path)
}
