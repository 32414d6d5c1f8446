package chat

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"companion/agent"
)

// promptText is what the chat shows when it waits for a prompt.
const promptText = "> "

// printer writes the chat on the terminal: the streamed answer, a line
// per tool call, notices and questions. It is the session's agent.Sink;
// its lock keeps the turn's writes and the prompt's apart.
type printer struct {
	mu sync.Mutex
	w  io.Writer
	// atStart is set when the cursor is at the start of a line.
	atStart bool
}

// Emit shows what a session event means to the person at the terminal.
func (p *printer) Emit(_ context.Context, ev agent.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e := ev.(type) {
	case agent.MessageChunk:
		p.write(e.Text)
	case agent.ToolCallStarted:
		p.lineLocked("● " + e.Title)
	case agent.ToolCallUpdated:
		switch e.Status {
		case agent.ToolCompleted:
			p.lineLocked("  ✓ done")
		case agent.ToolFailed:
			p.lineLocked("  ✗ " + firstLine(e.Text))
		}
	case agent.Notice:
		p.lineLocked("companion: " + e.Text)
	case agent.ModelChanged:
		p.lineLocked(fmt.Sprintf("companion: model is now %s (%s)", e.Name, e.Reason))
	case agent.ModeChanged:
		p.lineLocked("companion: approval mode is now " + e.ID)
	}
}

// turnEnd ends a turn's output on a fresh line and says how it ended when
// it did not simply finish.
func (p *printer) turnEnd(stop agent.StopReason, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case err != nil:
		p.lineLocked("companion: " + err.Error())
	case stop == agent.Cancelled:
		p.lineLocked("(cancelled)")
	case stop == agent.MaxTurnRequests:
		p.lineLocked("companion: stopped: the prompt reached its limit of model requests")
	case stop == agent.Refusal:
		p.lineLocked("companion: the model refused to answer")
	default:
		p.newlineLocked()
	}
}

// prompt shows the prompt on a fresh line.
func (p *printer) prompt() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.newlineLocked()
	p.write(promptText)
	p.atStart = true // the terminal echoes the line and its Enter
}

// typed notes that the person ended a line (the terminal echoed it).
func (p *printer) typed() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.atStart = true
}

// notice writes one line of the chat's own.
func (p *printer) notice(text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lineLocked(text)
}

// printf writes formatted text as is.
func (p *printer) printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.write(fmt.Sprintf(format, args...))
}

// lineLocked writes text as a line of its own.
func (p *printer) lineLocked(text string) {
	p.newlineLocked()
	p.write(text + "\n")
}

// newlineLocked moves to the start of a line unless already there.
func (p *printer) newlineLocked() {
	if !p.atStart {
		p.write("\n")
	}
}

// write writes s and remembers whether it ended a line. A terminal that
// went away is noticed at the next read; write errors are not reported.
func (p *printer) write(s string) {
	if s == "" {
		return
	}
	io.WriteString(p.w, s)
	p.atStart = strings.HasSuffix(s, "\n")
}

// firstLine is s's first non-empty line.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
