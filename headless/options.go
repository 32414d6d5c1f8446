package headless

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"companion/host"
)

// Exit codes of a run.
const (
	ExitOK          = 0
	ExitError       = 1
	ExitUsage       = 2
	ExitInterrupted = 130
)

// DefaultControlTimeout bounds the wait for the SDK's answer to one of
// companion's control requests.
const DefaultControlTimeout = 60 * time.Second

// ResumeLatest as Options.Resume continues the session of the working
// folder updated last (--continue, --resume latest).
const ResumeLatest = host.ResumeLatest

// ErrUsage marks a bad combination of options: exit code 2.
var ErrUsage = errors.New("bad usage")

// Options configure a run. Model and Tools are required.
type Options struct {
	// Name is the command as the user typed it ("companion run", or
	// "companion" for the top-level flags), for its error messages;
	// "" is "companion run".
	Name string
	// GeminiCLI says the run was started as Gemini CLI users start one
	// (`companion -p`, text input): stream-json output is Gemini CLI's
	// events, and bad input exits ExitGeminiInput, the turn limit
	// ExitGeminiTurnLimit.
	GeminiCLI bool
	// Prompt is the -p text; Stdin adds to it (text input) or carries the
	// stream-json lines.
	Prompt string
	Stdin  io.Reader
	// StdinPiped says stdin is a pipe or file, not a terminal: with a -p
	// prompt it is read and appended.
	StdinPiped bool
	Stdout     io.Writer
	Stderr     io.Writer
	// OutputFormat is text, json or stream-json; InputFormat text or
	// stream-json.
	OutputFormat, InputFormat string
	// ApprovalMode is the permission mode ("" keeps the settings').
	ApprovalMode string
	// Resume is a stored session to continue: its id, or ResumeLatest for
	// the one of Cwd updated last.
	Resume string
	// IncludeDirs are folders the session may work in besides Cwd
	// (--include-directories): absolute, existing directories.
	IncludeDirs []string
	// AllowedTools are allow rules for this run.
	AllowedTools []string
	// MaxTurns bounds model requests per prompt; 0 keeps the settings'.
	MaxTurns int
	// IncludePartial adds stream_event lines to stream-json output.
	IncludePartial bool
	// ControlTimeout bounds companion's own control requests; 0 means
	// DefaultControlTimeout.
	ControlTimeout time.Duration
	// Cwd is the session's working directory (absolute).
	Cwd string
	// Options are what the run's host is built from: settings, model
	// source, tools, the sandbox prober, name and version (told to SDKs
	// and MCP servers), log, redaction and environment.
	host.Options
}

// name is the command as typed, for messages.
func (o *Options) name() string {
	if o.Name == "" {
		return "companion run"
	}
	return o.Name
}

// Check validates the options' combination; its errors wrap ErrUsage.
func (o *Options) Check() error {
	switch o.OutputFormat {
	case "":
		o.OutputFormat = formatText
	case formatText, formatJSON, formatStream:
	default:
		return fmt.Errorf("%w: --output-format %q: want text, json or stream-json", ErrUsage, o.OutputFormat)
	}
	switch o.InputFormat {
	case "":
		o.InputFormat = formatText
	case formatText:
	case formatStream:
		if o.OutputFormat != formatStream {
			return fmt.Errorf("%w: --input-format stream-json needs --output-format stream-json", ErrUsage)
		}
		if o.Prompt != "" {
			return fmt.Errorf("%w: with --input-format stream-json the prompts come on stdin, not -p", ErrUsage)
		}
	default:
		return fmt.Errorf("%w: --input-format %q: want text or stream-json", ErrUsage, o.InputFormat)
	}
	if o.ApprovalMode != "" {
		if _, err := agentMode(o.ApprovalMode); err != nil {
			return fmt.Errorf("%w: --approval-mode: %w", ErrUsage, err)
		}
	}
	if o.MaxTurns < 0 {
		return fmt.Errorf("%w: --max-turns must be positive", ErrUsage)
	}
	if o.IncludePartial && o.OutputFormat != formatStream {
		return fmt.Errorf("%w: --include-partial-messages needs --output-format stream-json", ErrUsage)
	}
	if o.ControlTimeout <= 0 {
		o.ControlTimeout = DefaultControlTimeout
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return nil
}
