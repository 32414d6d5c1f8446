package agent

import (
	"context"
	"fmt"
	"iter"
	"strings"
	"sync"
	"testing"

	"companion/agent/model"
)

// sizedModel answers every request with one paragraph and reports usage
// as the request's size in tokens (bytes / 4), like a real model would;
// summary requests get a short snapshot.
type sizedModel struct {
	window int
	mu     sync.Mutex
	max    int // largest request seen, in tokens
	turn   int
}

func (m *sizedModel) Stream(_ context.Context, req *model.Request) iter.Seq2[*model.Chunk, error] {
	tokens := (sizeOf(req.Contents) + len(req.System)) / 4
	m.mu.Lock()
	m.max = max(m.max, tokens)
	m.turn++
	n := m.turn
	m.mu.Unlock()
	answer := fmt.Sprintf("Answer %d: %s", n, strings.Repeat("detail ", 60))
	if strings.Contains(lastText(req), "state snapshot") {
		answer = "## Goal\nkeep going\n## Plan\nmore answers"
	}
	return func(yield func(*model.Chunk, error) bool) {
		yield(&model.Chunk{Parts: []model.Part{{Text: answer}}, Usage: &model.Usage{PromptTokens: tokens}}, nil)
	}
}

func (m *sizedModel) ContextWindow(string) int { return m.window }

func lastText(req *model.Request) string {
	c := req.Contents[len(req.Contents)-1]
	return c.Parts[len(c.Parts)-1].Text
}

// TestLongSessionStaysInWindow runs 300 prompts against a 20,000-token
// window: compression must keep every request under the window and the
// newest turns verbatim.
func TestLongSessionStaysInWindow(t *testing.T) {
	m := &sizedModel{window: 20000}
	s, rec := newTestSession(t, m)
	for i := range 300 {
		if _, err := s.Prompt(context.Background(), userText(fmt.Sprintf("Question %d: %s", i, strings.Repeat("why ", 40)))); err != nil {
			t.Fatalf("prompt %d: %v", i, err)
		}
	}
	compactions := 0
	for _, ev := range rec.All() {
		if c, ok := ev.(CompactionUpdated); ok && c.Status == "completed" {
			compactions++
		}
	}
	if compactions == 0 {
		t.Fatal("no compaction in 300 turns")
	}
	if m.max >= m.window {
		t.Errorf("largest request %d tokens, window %d", m.max, m.window)
	}
	hist := s.eng.curated()
	last := hist[len(hist)-2].Parts[0].Text
	if !strings.HasPrefix(last, "Question 299:") {
		t.Errorf("newest question not kept verbatim: %.40q", last)
	}
	t.Logf("%d compactions, largest request %d tokens", compactions, m.max)
}
