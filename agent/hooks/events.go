package hooks

// Event names, as written in the settings and sent as hook_event_name.
const (
	// SessionStart runs when a session is created, loaded or cleared.
	SessionStart = "SessionStart"
	// SessionEnd runs when a session is closed.
	SessionEnd = "SessionEnd"
	// BeforeAgent runs when the user's prompt arrives, before the turn.
	BeforeAgent = "BeforeAgent"
	// AfterAgent runs when the turn has ended.
	AfterAgent = "AfterAgent"
	// BeforeModel runs before each model request.
	BeforeModel = "BeforeModel"
	// AfterModel runs after each model response.
	AfterModel = "AfterModel"
	// BeforeToolSelection runs before the tools offered to the model are
	// chosen.
	BeforeToolSelection = "BeforeToolSelection"
	// BeforeTool runs before a tool call; it may allow, ask, deny or
	// rewrite the call's input.
	BeforeTool = "BeforeTool"
	// AfterTool runs after a tool call with its result.
	AfterTool = "AfterTool"
	// PreCompress runs before the history is compressed.
	PreCompress = "PreCompress"
	// Notification runs when the agent notifies the user (for example,
	// when it waits for a permission answer).
	Notification = "Notification"
)

// Events returns every event name, in the order of a session's life.
func Events() []string {
	return []string{SessionStart, BeforeAgent, BeforeToolSelection, BeforeModel, AfterModel,
		BeforeTool, AfterTool, Notification, PreCompress, AfterAgent, SessionEnd}
}

// EventName returns the event a client names: one of Events(), or a
// Claude Code name for the same point. ok is false for anything else.
func EventName(key string) (event string, ok bool) { return eventName(key) }

// eventName returns the event a settings key names: one of Events(), or a
// Claude Code name for the same point (PreToolUse, PostToolUse,
// UserPromptSubmit, Stop, PreCompact), so copied settings work.
func eventName(key string) (string, bool) {
	if ev, ok := claudeEvents[key]; ok {
		return ev, true
	}
	for _, e := range Events() {
		if e == key {
			return e, true
		}
	}
	return "", false
}
