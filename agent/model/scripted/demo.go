package scripted

// DemoScript is the built-in script of the offline demo: it greets, shows a
// thought, lists the workspace with list_directory, sums up, and then
// echoes whatever the user says.
func DemoScript() *Script {
	return &Script{
		Fallback: FallbackEcho,
		Turns: []Turn{
			{
				DelayMs: 40,
				Chunks: []Chunk{
					{Thought: "The user is trying out the demo. A quick look at the workspace will show how tool calls work."},
					{Text: "Hi! I'm companion, running on a scripted demo model, "},
					{Text: "so no API key or network is needed. "},
					{Text: "Let me look around your workspace first."},
					{FunctionCall: &FunctionCall{Name: "list_directory", Args: map[string]any{"dir_path": "."}}},
				},
			},
			{
				Match:   `"functionResponse"`,
				DelayMs: 40,
				Chunks: []Chunk{
					{Thought: "The listing came back; a short summary and a pointer to the real model are enough."},
					{Text: "That is the top level of your workspace, listed by the `list_directory` tool. "},
					{Text: "With a real model I could now read files, search, edit with a diff for you to review, "},
					{Text: "and run commands after asking you. "},
					{Text: "To try that, set GEMINI_API_KEY (a free key from Google AI Studio) "},
					{Text: "and run companion without --demo. "},
					{Text: "Until then I will simply echo what you say."},
				},
			},
		},
	}
}
