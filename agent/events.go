package agent

import (
	"context"
	"encoding/json"

	"companion/tools"
)

// Event is something a session reports while it works. Front ends turn each
// one into a wire message (an ACP session/update) as it happens.
type Event interface{ isEvent() }

// Sink receives a session's events in order. Emit must not block for long:
// it sits on the streaming hot path.
type Sink interface {
	Emit(ctx context.Context, ev Event)
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(ctx context.Context, ev Event)

// Emit calls f.
func (f SinkFunc) Emit(ctx context.Context, ev Event) { f(ctx, ev) }

// MessageChunk is a piece of the agent's answer (markdown).
type MessageChunk struct{ Text string }

// Notice is something the user should know that is not part of the
// answer: a hook's message, a hook that failed. Level is "info",
// "warning" or "error".
type Notice struct{ Level, Text string }

// ThoughtChunk is a piece of the model's reasoning.
type ThoughtChunk struct{ Text string }

// UserChunk is a piece of the user's message, sent when history is
// replayed. MessageID is shared by the chunks of one prompt and differs
// between prompts, so that a client tells two prompts in a row apart (""
// in sessions stored before it was kept).
type UserChunk struct {
	Text      string
	MessageID string `json:",omitempty"`
}

// ToolStatus is the lifecycle state of a tool call.
type ToolStatus string

// Tool call states, matching ACP's ToolCallStatus.
const (
	ToolPending    ToolStatus = "pending"
	ToolInProgress ToolStatus = "in_progress"
	ToolCompleted  ToolStatus = "completed"
	ToolFailed     ToolStatus = "failed"
)

// ToolCallStarted announces a tool call the model asked for. Confirm, when
// set, is what the user would approve (an edit's diff, a command).
type ToolCallStarted struct {
	ID        string
	Name      string
	Title     string
	Kind      tools.Kind
	Locations []tools.Location
	Input     json.RawMessage
	Confirm   *tools.Confirmation
}

// ToolCallUpdated reports a change of a tool call: its status, and when it
// ends, what it produced. Text replaces the call's visible content when set.
type ToolCallUpdated struct {
	ID     string
	Status ToolStatus
	// Text is the visible output (markdown or plain); "" leaves it unchanged.
	Text   string
	Images []tools.Image
	// Raw is structured output for the editor, as JSON; may be nil.
	Raw json.RawMessage `json:",omitempty"`
	// Diff is the change an edit made, shown as a diff.
	Diff *tools.Diff
	// More are the other files a multi-file edit changed.
	More []tools.Diff
	// TerminalID embeds an editor terminal showing the call's output; on
	// the final update it says the output was shown there (Text still
	// holds it, for front ends without terminals).
	TerminalID string
	// Refused is set when the call never ran: a hook, the policy or the
	// user refused it.
	Refused bool `json:",omitempty"`
	// Outcome says why a failed call ended when it was no error: the
	// user's decision (OutcomeRejected, OutcomeCancelled) or loop
	// detection (OutcomeBlocked); "" otherwise.
	Outcome string `json:",omitempty"`
}

// Outcomes of a call that failed without an error (ToolCallUpdated.Outcome).
const (
	OutcomeRejected  = "rejected"
	OutcomeCancelled = "cancelled"
	// OutcomeBlocked is a call loop detection did not run: the model
	// repeated itself.
	OutcomeBlocked = "blocked"
)

// CompactionUpdated reports a compression of the history: started
// ("in_progress"), then "completed" with the summary or "failed" with the
// reason (the history was trimmed instead).
type CompactionUpdated struct {
	ID, Status, Summary, Error string
}

// CompactionChunk is a piece of a summary as the model writes it.
type CompactionChunk struct{ ID, Text string }

// ModelChanged reports that the agent switched models itself: a quota
// fallback, or a rollback after a model tried with TrySetModel failed.
// Previous is the model left, Reason why. Front ends tell the user.
type ModelChanged struct{ Name, Previous, Reason string }

// PlanUpdated is the agent's whole plan after a change.
type PlanUpdated struct{ Entries []tools.PlanEntry }

// ModeChanged reports that the agent changed its approval mode itself
// (the user chose "allow all edits").
type ModeChanged struct{ ID string }

// UsageUpdated reports how much of the context window is in use.
type UsageUpdated struct {
	Used, Size int
}

// TitleChanged gives the session a human title; At is when (RFC 3339).
type TitleChanged struct{ Title, At string }

// PermissionAnswered is the user's answer to a permission question about
// call CallID: the question's title and options, and the option chosen
// ("" when the question was dismissed or the turn cancelled). It is only
// journalled, never sent live (the front end that asked knows the answer),
// so that a replay shows what was answered.
type PermissionAnswered struct {
	CallID   string
	Title    string
	Options  []Option
	OptionID string `json:",omitempty"`
}

// TurnEnded says why a turn ended when that was not the model's plain end
// (cancelled, a limit, a refusal, an error). Like PermissionAnswered it is
// only journalled: live, the prompt's answer says it.
type TurnEnded struct {
	Stop StopReason
	// Error is the failure that ended the turn, in one sentence; "" when none.
	Error string `json:",omitempty"`
}

// CommandsChanged lists the slash commands available now.
type CommandsChanged struct{ Commands []Command }

// Command is a slash command the user may type.
type Command struct {
	Name        string
	Description string
	// Hint describes the argument, or "" when the command takes none.
	Hint string
}

func (MessageChunk) isEvent()       {}
func (ThoughtChunk) isEvent()       {}
func (Notice) isEvent()             {}
func (UserChunk) isEvent()          {}
func (ToolCallStarted) isEvent()    {}
func (ToolCallUpdated) isEvent()    {}
func (UsageUpdated) isEvent()       {}
func (TitleChanged) isEvent()       {}
func (CommandsChanged) isEvent()    {}
func (PlanUpdated) isEvent()        {}
func (CompactionUpdated) isEvent()  {}
func (CompactionChunk) isEvent()    {}
func (ModeChanged) isEvent()        {}
func (ModelChanged) isEvent()       {}
func (PermissionAnswered) isEvent() {}
func (TurnEnded) isEvent()          {}
