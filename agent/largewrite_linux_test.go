//go:build !race

package agent

import (
	"context"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"companion/agent/model"
	"companion/internal/testkit/agenttest"
	"companion/internal/testkit/testio"
	"companion/tools"
	"companion/tools/builtin"
)

// TestLargeWritePeak hands the session a write_file call of 32 MiB, as a
// provider would after parsing it, and measures the process's peak RSS
// while the session runs it, announces it, keeps it in history and sends
// the next request: it may add at most twice the content (plus a constant)
// to the content the call already holds, so the write peaks at three times
// its content. It may allocate at most half the content (plus a constant)
// on the way, so the content is never copied: the tool binds the
// provider's string. Without the race detector, whose shadow memory would
// count.
func TestLargeWritePeak(t *testing.T) {
	if !testio.ResetPeakRSS() {
		t.Skip("the peak RSS cannot be reset here")
	}
	const size = 32 << 20
	line := "a line of a big file written by write_file in one call, numbered 0000000\n"
	n := size / len(line) * len(line)
	m := &handOverModel{call: &model.FunctionCall{Name: "write_file",
		Args: map[string]any{"file_path": "big.txt", "content": strings.Repeat(line, size/len(line))}}}
	s, _ := newTestSession(t, m, func(o *Options) {
		o.Mode = ModeYolo
		o.Tools = tools.NewRegistry(builtin.Editing(builtin.EditOptions{})...)
	})
	runtime.GC()
	debug.FreeOSMemory()
	before := testio.RSS()
	if before == 0 {
		t.Skip("no VmRSS here")
	}
	testio.ResetPeakRSS()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	allocated := ms.TotalAlloc
	if reason, err := s.Prompt(context.Background(), userText("write big.txt")); err != nil || reason != EndTurn {
		t.Fatalf("Prompt = %q, %v", reason, err)
	}
	peak := testio.PeakRSS()
	runtime.ReadMemStats(&ms)
	allocated = ms.TotalAlloc - allocated
	if fi, err := os.Stat(filepath.Join(s.Root(), "big.txt")); err != nil || fi.Size() != int64(n) {
		t.Fatalf("big.txt: %v", err)
	}
	added := int64(peak) - int64(before)
	t.Logf("content %d MiB, RSS before %d MiB, peak %d MiB: %.2fx the content added; %.2fx allocated",
		n>>20, before>>20, peak>>20, float64(added)/float64(n), float64(allocated)/float64(n))
	if limit := int64(2*n + 32<<20); added > limit {
		t.Errorf("running a write of %d MiB added %d MiB to the peak RSS, over %d MiB", n>>20, added>>20, limit>>20)
	}
	// The tool binds the provider's string itself: encoding the arguments
	// to JSON and decoding them again allocated 4.2x the content.
	if limit := uint64(n/2 + 8<<20); allocated > limit {
		t.Errorf("running a write of %d MiB allocated %d MiB, over %d MiB: the content was copied",
			n>>20, allocated>>20, limit>>20)
	}
	if m.resent >= n {
		t.Errorf("the next request resends the whole content (%d bytes)", m.resent)
	}
}

// handOverModel answers the first request with its call and lets go of it,
// as a provider does once it has parsed a response, and later ones with
// text; it records the longest content argument a later request resends.
type handOverModel struct {
	call   *model.FunctionCall
	resent int
}

func (m *handOverModel) Stream(_ context.Context, req *model.Request) iter.Seq2[*model.Chunk, error] {
	call := m.call
	m.call = nil
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			if fc := p.FunctionCall; fc != nil {
				text, _ := fc.Args["content"].(string)
				m.resent = max(m.resent, len(text))
			}
		}
	}
	return func(yield func(*model.Chunk, error) bool) {
		if call != nil {
			yield(&model.Chunk{Parts: []model.Part{{FunctionCall: call}}}, nil)
			return
		}
		yield(agenttest.Text("done"), nil)
	}
}

func (m *handOverModel) ContextWindow(string) int { return 1 << 20 }
