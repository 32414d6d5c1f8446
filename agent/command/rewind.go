package command

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"companion/agent"
	"companion/agent/store"
)

// rewindCommand is /rewind: alone it lists the earlier prompts, with a
// number it rewinds this session to before that prompt, in place.
func (c *commands) rewindCommand(ctx context.Context, arg string) string {
	if c.cfg.forks == nil {
		return "This session is not saved, so it cannot be rewound."
	}
	recs, err := c.cfg.forks.Records()
	if err != nil {
		return fmt.Sprintf("Cannot read this session's log: %v", err)
	}
	prompts := agent.Prompts(recs)
	earlier := len(prompts) - 1 // the last prompt is this /rewind
	if earlier <= 0 {
		return "There is no earlier prompt to rewind to."
	}
	if arg == "" {
		return rewindListing(prompts[:earlier])
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 0 || n >= earlier {
		return fmt.Sprintf("Usage: /rewind <prompt number>, from 0 to %d; /rewind alone lists them.", earlier-1)
	}
	return c.rewindTo(ctx, recs, n, earlier)
}

// rewindListing lists prompts with their numbers.
func rewindListing(prompts []agent.PromptInfo) string {
	var b strings.Builder
	b.WriteString("Prompts of this session (rewind to before one with `/rewind <number>`):\n")
	for _, p := range prompts {
		fmt.Fprintf(&b, "- %d: %s\n", p.Index, promptLine(p.Text))
	}
	return b.String()
}

// promptLine is the first non-empty line of a prompt's text, shortened.
func promptLine(text []string) string {
	for _, t := range text {
		line, _, _ := strings.Cut(strings.TrimSpace(t), "\n")
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		if r := []rune(line); len(r) > 80 {
			line = string(r[:79]) + "…"
		}
		return line
	}
	return "(no text)"
}

// rewindTo keeps the conversation up to this /rewind (prompt current of
// recs) as a fork, puts the files back as they were before prompt n and
// cuts the conversation to before it. Nothing is cut when the fork or the
// restore fails.
func (c *commands) rewindTo(ctx context.Context, recs []store.Record, n, current int) string {
	kept, err := agent.PlanRewind(recs, current, c.s)
	if err != nil {
		return fmt.Sprintf("Not rewound: %v", err)
	}
	rw, err := agent.PlanRewind(recs, n, c.s)
	if err != nil {
		return fmt.Sprintf("Not rewound: %v", err)
	}
	forkID, err := c.cfg.forks.Fork(kept.Kept)
	if err != nil {
		return fmt.Sprintf("Not rewound: cannot keep the conversation as a fork: %v", err)
	}
	files := "no file had changed since"
	if cp := rw.Checkpoint; cp != "" {
		if c.cfg.checkpoints == nil {
			return "Not rewound: checkpoints are off, so the files cannot be put back."
		}
		r, err := c.cfg.checkpoints.Restore(ctx, cp)
		if err != nil {
			msg := fmt.Sprintf("Not rewound: cannot put the files back: %v.", err)
			if r.Undo.ID != "" {
				msg += fmt.Sprintf(" `/restore %s` puts back what was there.", r.Undo.ID)
			}
			return msg
		}
		files = fmt.Sprintf("%d files written, %d removed", len(r.Written), len(r.Removed))
		if r.Undo.ID != "" {
			files += fmt.Sprintf(" (`/restore %s` puts them back)", r.Undo.ID)
		}
	}
	c.s.RewindHistory(rw)
	c.setUndo(undoMark{})
	return fmt.Sprintf("Rewound to before prompt %d (%s): %s. The conversation as it was is kept as session `%s`.",
		n, promptLine(rw.Prompt.Text), files, forkID)
}
