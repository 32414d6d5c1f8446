package tools

// ConfirmType says what kind of question a confirmation asks; front ends
// render each differently (a diff, a command card, a server/tool card, a
// plain question).
type ConfirmType string

// Confirmation types.
const (
	ConfirmEdit ConfirmType = "edit"
	ConfirmExec ConfirmType = "exec"
	ConfirmMCP  ConfirmType = "mcp"
	ConfirmInfo ConfirmType = "info"
)

// Confirmation is what the user is asked before a call runs. Only the
// fields of its Type are set.
type Confirmation struct {
	Type  ConfirmType
	Title string

	// Edit: the file (absolute) and its text before (nil for a new file)
	// and after the change.
	Path    string
	OldText *string
	NewText string
	// More are the other files of an edit that changes several at once
	// (a rename), approved together with the first; the policy decides
	// on each file as on an edit of its own.
	More []Diff

	// Exec: the command line, the directory it runs in, and the programs it
	// runs (every command of every pipeline, list and substitution), which
	// "always allow" remembers. Parsed is false when the command could not
	// be parsed: such a command always asks.
	Command      string
	Dir          string
	RootCommands []string
	Parsed       bool
	// Commands are the words of every simple command the line runs, with
	// wrappers such as env, nohup, timeout and bash -c unwrapped; a word
	// that is not a plain literal (an expansion) makes the command Dynamic
	// and then it always asks. Redirects are the files the line writes to
	// ("" for a target that is not a literal).
	Commands  []ShellCommand
	Redirects []string

	// MCP: the server and tool, with the call's arguments as JSON.
	Server, Tool string
	Arguments    string

	// Info: a question and the URLs involved (web_fetch).
	Prompt string
	URLs   []string

	// OnceOnly is set when no "always" answer would be right: the call
	// asks at most once anyway (a skill's first activation), and a rule
	// for the tool would cover other calls the user has not seen.
	OnceOnly bool
}

// Modifiable is implemented by invocations whose proposed text the user may
// change while reviewing it (an edit shown in the editor's diff view). The
// agent calls UseModifiedContent before Execute with the user's final text.
type Modifiable interface {
	UseModifiedContent(text string)
}

// ShellCommand is one simple command found in a shell line. Beyond, when
// set, names an option through which the command runs other programs or
// writes files (git -c, sed -i, find -delete), or a variable it runs with
// that may make it do so ("with GOCACHEPROG set"): no allow rule covers it.
// Fixed, when above zero, is how many leading words choose the code the
// command runs (python3 -m pytest: 3): a rule must name them all.
type ShellCommand struct {
	Words   []string
	Dynamic bool
	Beyond  string
	Fixed   int
}
