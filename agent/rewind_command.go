package agent

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// rewindCommand is /rewind: alone it lists the earlier prompts, with a
// number it rewinds this session to before that prompt, in place.
func (s commands) rewindCommand(ctx context.Context, arg string) string {
	if s.opts.Forks == nil {
		return "This session is not saved, so it cannot be rewound."
	}
	recs, err := s.opts.Forks.Records()
	if err != nil {
		return fmt.Sprintf("Cannot read this session's log: %v", err)
	}
	t := newTimeline(recs)
	earlier := len(t.starts) - 1 // the last prompt is this /rewind
	if earlier <= 0 {
		return "There is no earlier prompt to rewind to."
	}
	if arg == "" {
		return rewindListing(t, earlier)
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 0 || n >= earlier {
		return fmt.Sprintf("Usage: /rewind <prompt number>, from 0 to %d; /rewind alone lists them.", earlier-1)
	}
	return s.rewindTo(ctx, t, n, earlier)
}

// rewindListing lists the first earlier prompts of t with their numbers.
func rewindListing(t timeline, earlier int) string {
	var b strings.Builder
	b.WriteString("Prompts of this session (rewind to before one with `/rewind <number>`):\n")
	for i := range earlier {
		fmt.Fprintf(&b, "- %d: %s\n", i, promptLine(t.prompt(i).Text))
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

// rewindTo keeps the conversation up to this /rewind as a fork, puts the
// files back as they were before prompt n and cuts the conversation to
// before it. Nothing is cut when the fork or the restore fails.
func (s commands) rewindTo(ctx context.Context, t timeline, n, current int) string {
	forkID, err := s.opts.Forks.Fork(t.recs[:t.starts[current]])
	if err != nil {
		return fmt.Sprintf("Not rewound: cannot keep the conversation as a fork: %v", err)
	}
	files := "no file had changed since"
	if cp := t.checkpointFrom(t.starts[n]); cp != "" {
		if s.opts.Checkpoints == nil {
			return "Not rewound: checkpoints are off, so the files cannot be put back."
		}
		r, err := s.opts.Checkpoints.Restore(ctx, cp)
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
	s.journal(recRewind, rewindRecord{Prompt: n})
	s.resetTo(t.recs[:t.starts[n]])
	return fmt.Sprintf("Rewound to before prompt %d (%s): %s. The conversation as it was is kept as session `%s`.",
		n, promptLine(t.prompt(n).Text), files, forkID)
}
