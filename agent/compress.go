package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"companion/agent/hooks"
	"companion/agent/model"
)

// Compression defaults.
const (
	// DefaultCompressAt is the fraction of the context window at which
	// older history is summarised.
	DefaultCompressAt = 0.5
	// keepFraction of the history (by size) is kept verbatim.
	keepFraction = 0.3
	// maskOver masks function outputs larger than this in older turns.
	maskOver = 16 << 10
	// maskKeep is how much of a masked output stays visible.
	maskKeep = 2 << 10
)

// compressPrompt asks the model for a state snapshot of the history.
const compressPrompt = `The conversation above is about to be replaced by a summary, because it no longer fits the context window.
Write that summary now: a state snapshot the next assistant turn can work from without the history.
Use exactly these sections, each as a markdown heading, and be specific (paths, names, decisions, numbers):
## Goal
## Key knowledge
## Files touched
## Recent actions
## Plan
Do not call tools. Do not address the user.`

// maybeCompress summarises older history when the last request used more
// than the configured share of the window. It runs before a request is
// built, when every call in the history has its answer.
func (s *engine) maybeCompress(ctx context.Context) {
	if s.hist.full(s.opts.CompressAt) {
		s.compress(ctx)
	}
}

// compress replaces the older part of the history with a model-written
// snapshot, falling back to trimming when the summary fails or would not
// save space. It returns a line for the user.
func (s *engine) compress(ctx context.Context) string {
	hist := s.curated()
	split := splitPoint(hist)
	if split <= 0 {
		return "Nothing to compress yet."
	}
	s.hook(ctx, hooks.PreCompress, "auto", map[string]any{"turns": len(hist)})
	id := s.hist.nextCompactionID()
	s.emit(ctx, CompactionUpdated{ID: id, Status: "in_progress"})
	old, kept := hist[:split], hist[split:]
	summary, err := s.summarise(ctx, id, old)
	status, note := "completed", ""
	switch {
	case err != nil:
		status, note = "failed", err.Error()
		s.opts.Log.Warn("compression failed; trimming instead", "err", err)
		summary = ""
	case len(summary) >= sizeOf(old):
		status, note = "failed", "the summary was larger than what it summarised"
		summary = ""
	}
	s.hist.replace(snapshotHistory(summary, len(old)), kept)
	s.ide.MarkStale()
	s.emit(ctx, CompactionUpdated{ID: id, Status: status, Summary: summary, Error: note})
	if summary == "" {
		return fmt.Sprintf("Context trimmed: %d older turns dropped (%s).", len(old), note)
	}
	return fmt.Sprintf("Context compressed: %d older turns summarised, %d kept as they were.", len(old), len(kept))
}

// summarise asks the model for a snapshot of old, streaming it out.
func (s *engine) summarise(ctx context.Context, id string, old []model.Content) (string, error) {
	req := &model.Request{Model: s.ModelName(),
		System:   "You write precise, compact state snapshots of coding sessions." + dataFramePrompt(s.dataNonce),
		Contents: append(frameToolOutputs(s.dataNonce, old), contentText(compressPrompt))}
	req.Contents = curate(req.Contents)
	var b strings.Builder
	for chunk, err := range s.opts.Model.Stream(ctx, req) {
		if err != nil {
			return "", err
		}
		for _, p := range chunk.Parts {
			if p.Text != "" && !p.Thought && p.FunctionCall == nil {
				b.WriteString(p.Text)
				s.emit(ctx, CompactionChunk{ID: id, Text: p.Text})
			}
		}
	}
	if strings.TrimSpace(b.String()) == "" {
		return "", fmt.Errorf("the model returned an empty summary")
	}
	return b.String(), nil
}

// splitPoint finds where the newest keepFraction of the history starts: at
// a user turn that is not a tool result, so no call is cut from its
// answer. It returns 0 when nothing can be cut.
func splitPoint(hist []model.Content) int {
	total := sizeOf(hist)
	seen := 0
	for i := range hist {
		seen += sizeOf(hist[i : i+1])
		if float64(seen) < (1-keepFraction)*float64(total) {
			continue
		}
		for j := i + 1; j < len(hist); j++ {
			if isUserMessage(hist[j]) {
				return j
			}
		}
		return 0
	}
	return 0
}

// isUserMessage reports whether c is something the user said (not tool
// results).
func isUserMessage(c model.Content) bool {
	if c.Role != model.RoleUser {
		return false
	}
	for _, p := range c.Parts {
		if p.FunctionResponse != nil {
			return false
		}
	}
	return true
}

// snapshotHistory is the start of the history after compression.
func snapshotHistory(summary string, dropped int) []model.Content {
	if summary == "" {
		summary = fmt.Sprintf("(%d earlier turns of this conversation were dropped to fit the context window.)", dropped)
	} else {
		summary = "<state_snapshot>\n" + summary + "\n</state_snapshot>"
	}
	return []model.Content{
		contentText(summary),
		{Role: model.RoleModel, Parts: []model.Part{{Text: "Understood; I will continue from this state."}}},
	}
}

// sizeOf estimates the size of contents in bytes of JSON.
func sizeOf(cs []model.Content) int {
	n := 0
	for _, c := range cs {
		for _, p := range c.Parts {
			n += len(p.Text) + len(p.ThoughtSignature)
			if p.InlineData != nil {
				n += len(p.InlineData.Data)
			}
			if p.FunctionCall != nil {
				b, _ := json.Marshal(p.FunctionCall.Args)
				n += len(b) + len(p.FunctionCall.Name)
			}
			if p.FunctionResponse != nil {
				b, _ := json.Marshal(p.FunctionResponse.Response)
				n += len(b)
			}
		}
	}
	return n
}

// maskOldOutputs shortens huge function outputs outside the last two
// exchanges, so one big log does not fill the window forever.
func maskOldOutputs(cs []model.Content) []model.Content {
	cs = slices.Clone(cs)
	users := 0
	for i := len(cs) - 1; i >= 0; i-- {
		if cs[i].Role == model.RoleUser {
			users++
		}
		if users <= 2 {
			continue
		}
		for j, p := range cs[i].Parts {
			if fr := p.FunctionResponse; fr != nil {
				if out, ok := fr.Response["output"].(string); ok && len(out) > maskOver {
					masked := *fr
					masked.Response = map[string]any{"output": out[:maskKeep] +
						fmt.Sprintf("\n[… %d more bytes of this older output were masked to save context; run the tool again if you need them]", len(out)-maskKeep)}
					parts := append([]model.Part(nil), cs[i].Parts...)
					parts[j].FunctionResponse = &masked
					cs[i].Parts = parts
				}
			}
		}
	}
	return cs
}
