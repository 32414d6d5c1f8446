package chat

import (
	"context"
	"io"
	"log/slog"
	"os"
	"strings"

	"companion/agent"
	"companion/host"
)

// Exit codes of a chat.
const (
	ExitOK    = 0
	ExitError = 1
)

// ResumeLatest as Options.Resume continues the session of the working
// folder used last.
const ResumeLatest = host.ResumeLatest

// Options configure a chat. In, Out, Model and Tools are required.
type Options struct {
	// In is the terminal's input, read a line at a time; Out is where the
	// chat writes (the terminal).
	In  io.Reader
	Out io.Writer
	// Interrupts delivers Ctrl-C (SIGINT): it cancels the running turn;
	// two in a row at the prompt end the chat.
	Interrupts <-chan os.Signal
	// Cwd is the session's working directory (absolute); IncludeDirs are
	// more folders it may work in.
	Cwd         string
	IncludeDirs []string
	// Options are what the chat's host is built from: settings, model
	// source, tools, the sandbox prober, name and version (told to MCP
	// servers and shown in the banner), log, redaction and environment.
	host.Options
	// Mode is the approval mode to start in, an agent mode id ("" keeps
	// the settings').
	Mode string
	// Resume is a stored session to continue: its id or ResumeLatest.
	Resume string
	// AllowedTools are allow rules for this chat; MaxTurns bounds model
	// requests per prompt (0 keeps the settings').
	AllowedTools []string
	MaxTurns     int
	// First, when set, is the first prompt, run as if typed
	// (`companion "fix the tests"`).
	First string
}

// chat is one running chat: the session, the terminal and its lines.
type chat struct {
	o     *Options
	out   *printer
	lines <-chan string
	ints  <-chan os.Signal
	host  *host.Host
	agent *agent.Session
	id    string
}

// Run chats on the terminal until end of input, /quit or two Ctrl-C in
// a row at the prompt, and returns the exit code.
func Run(ctx context.Context, o Options) int {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	done := make(chan struct{})
	defer close(done)
	out := &printer{w: o.Out, atStart: true}
	c := &chat{o: &o, out: out, lines: readLines(o.In, done), ints: o.Interrupts}
	if err := c.open(ctx); err != nil {
		out.printf("companion: %v\n", err)
		return ExitError
	}
	defer c.host.Close()
	c.banner()
	c.loop(ctx)
	return ExitOK
}

// banner says what the chat runs on and how to drive it.
func (c *chat) banner() {
	resumed := ""
	if c.o.Resume != "" {
		resumed = " (resumed " + c.id + ")"
	}
	c.out.printf("companion %s · model %s%s\n", c.o.Version, c.agent.ModelName(), resumed)
	c.out.printf("Type a prompt and press Enter. /help lists the commands, Ctrl-C cancels a turn, Ctrl-D or /quit exits.\n")
}

// loop reads prompts and runs them until the chat ends.
func (c *chat) loop(ctx context.Context) {
	if first := strings.TrimSpace(c.o.First); first != "" {
		c.out.prompt()
		c.out.printf("%s\n", first)
		c.turn(ctx, first)
	}
	interrupted := false
	for {
		c.out.prompt()
		select {
		case <-ctx.Done():
			c.out.printf("\n")
			return
		case <-c.ints:
			if interrupted {
				c.out.printf("\n")
				return
			}
			interrupted = true
			c.out.printf("\n(Ctrl-C again to exit, or type /quit)\n")
		case line, ok := <-c.lines:
			if !ok {
				c.out.printf("\n")
				return
			}
			interrupted = false
			text := strings.TrimSpace(line)
			switch {
			case text == "":
			case text == "/quit" || text == "/exit":
				return
			case text == "/":
				c.out.notice(commandList(c.agent.Commands()))
			default:
				c.turn(ctx, text)
			}
		}
	}
}

// commandList is the slash commands, one a line, for a lone "/".
func commandList(cmds []agent.Command) string {
	var b strings.Builder
	b.WriteString("Commands (type one after the prompt):")
	for _, c := range cmds {
		name := "/" + c.Name
		if c.Hint != "" {
			name += " <" + c.Hint + ">"
		}
		b.WriteString("\n  " + name + "  " + c.Description)
	}
	b.WriteString("\n  /quit  Leave the chat (also Ctrl-D)")
	return b.String()
}

// turn runs one prompt; Ctrl-C cancels it. It returns when the turn has
// ended.
func (c *chat) turn(ctx context.Context, text string) {
	tctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		stop agent.StopReason
		err  error
	}
	done := make(chan result, 1)
	go func() {
		stop, err := c.agent.Prompt(tctx, c.agent.PromptParts(tctx, text))
		done <- result{stop, err}
	}()
	for {
		select {
		case r := <-done:
			if tctx.Err() != nil && r.err == nil {
				r.stop = agent.Cancelled
			}
			c.out.turnEnd(r.stop, r.err)
			return
		case <-c.ints:
			c.out.notice("cancelling…")
			cancel()
		}
	}
}
