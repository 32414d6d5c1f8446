package agent

// FrameData wraps text from source in the session's data frame (see
// untrusted.go), for front ends that turn what the user attached into
// prompt text: embedded resources and the like. The model reads it as
// data, never as instructions; the journal keeps the text without it.
func (s *Session) FrameData(source, text string) string {
	return frameData(s.dataNonce, source, text)
}

// Sources of the frames around text that reaches a prompt from outside
// the user's own words.
const (
	// sourceFileCommandFile is a file a file command inserts with @{path}.
	sourceFileCommandFile = "file_command_file"
	// sourceFileCommandShell is what a file command's !{command} printed.
	sourceFileCommandShell = "file_command_shell"
	// sourceEditor is the editor context (open files, selection).
	sourceEditor = "editor_context"
)
